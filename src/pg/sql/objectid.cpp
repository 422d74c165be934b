// The idgen.objectid type (12 bytes, passed by reference): I/O, comparison, hashing, sort
// support, casts, and the generator and decoders of the ObjectId family.
#include <cstring>

#include "core/bytes.hpp"
#include "core/objectid.hpp"
#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "utils/sortsupport.h"
}

namespace idgen::pg {
using objectid::ObjectId;

namespace {

constexpr int kSize = 12;
static_assert(sizeof(ObjectId) == kSize);

objectid::Generator generator;  // this backend's process value and counter

const uint8* Bytes(Datum d) { return reinterpret_cast<const uint8*>(DatumGetPointer(d)); }

Datum ToDatum(const ObjectId& id) {
  auto* p = static_cast<uint8*>(palloc(kSize));
  memcpy(p, id.bytes.data(), kSize);
  return PointerGetDatum(p);
}

}  // namespace

template <>
ObjectId idgen::pg::FromDatum<ObjectId>(Datum d) {
  ObjectId id;
  memcpy(id.bytes.data(), Bytes(d), kSize);
  return id;
}

namespace {

// A binary objectid (binary COPY, a bytea cast) of exactly 12 bytes, or 22P03.
Datum FromBinary(const char* data, int length) {
  if (length != kSize) {
    ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
            errmsg("invalid binary objectid of %d bytes", length), errdetail("An ObjectId is 12 bytes."));
  }
  auto* p = static_cast<uint8*>(palloc(kSize));
  memcpy(p, data, kSize);
  return PointerGetDatum(p);
}

int Compare(FunctionCallInfo fcinfo) { return memcmp(Bytes(PG_GETARG_DATUM(0)), Bytes(PG_GETARG_DATUM(1)), kSize); }

int CompareDatums(Datum a, Datum b, SortSupport) { return memcmp(Bytes(a), Bytes(b), kSize); }

// Abbreviated keys: the first 8 bytes (seconds and most of the process value), big-endian, so
// that unsigned comparison of the abbreviations agrees with memcmp of the values. Only where a
// Datum holds 8 bytes; abandoned, as for uuid, when the keys are too alike to help (many rows of
// one second from one process): the sort then compares whole values from the start.
struct Abbreviation {
  int64 count;
  bool estimating;
  hyperLogLogState distinct;
};

Datum Abbreviate(Datum original, SortSupport ssup) {
  auto* state = static_cast<Abbreviation*>(ssup->ssup_extra);
  const uint64 key = LoadBigEndian(std::span<const uint8_t>(Bytes(original), 8));
  ++state->count;
  if (state->estimating) {
    addHyperLogLog(&state->distinct, DatumGetUInt32(hash_uint32(static_cast<uint32>(key ^ (key >> 32)))));
  }
  return UInt64GetDatum(key);
}

// Keep the abbreviations while at least one in 2,000 rows has its own; stop counting at 100,000.
bool AbortAbbreviation(int rows, SortSupport ssup) {
  auto* state = static_cast<Abbreviation*>(ssup->ssup_extra);
  if (rows < 10000 || state->count < 10000 || !state->estimating) return false;
  const double distinct = estimateHyperLogLog(&state->distinct);
  if (distinct > 100000.0) {
    state->estimating = false;
    return false;
  }
  return distinct < static_cast<double>(state->count) / 2000.0 + 0.5;
}

}  // namespace

// ---- I/O -------------------------------------------------------------------------------------

IDGEN_FUNCTION(idgen_objectid_in) {
  const char* text = PG_GETARG_CSTRING(0);
  ObjectId id;
  if (!Guarded([&] { return objectid::Parse(text, id); })) {
    // idgen.objectid('2026-01-01') with a quoted literal is this cast, not idgen.objectid(at).
    const bool looks_like_time = strpbrk(text, "-:") != nullptr;
    ereturn(fcinfo->context, (Datum)0, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", "objectid", text),
            looks_like_time ? errhint("An ObjectId is 24 hexadecimal digits. For an ObjectId at a given time, pass a "
                                      "timestamptz: idgen.objectid(timestamptz '2026-01-01 12:00+00').")
                            : errhint("An ObjectId is 24 hexadecimal digits, such as 507f191e810c19729de860ea."));
  }
  return ToDatum(id);
}

IDGEN_FUNCTION(idgen_objectid_out) {
  const ObjectId id = FromDatum<ObjectId>(PG_GETARG_DATUM(0));
  char* text = static_cast<char*>(palloc(2 * kSize + 1));
  char digits[2 * kSize];
  Guarded([&] { objectid::Format(id, digits); });
  memcpy(text, digits, sizeof digits);
  text[2 * kSize] = '\0';
  PG_RETURN_CSTRING(text);
}

IDGEN_FUNCTION(idgen_objectid_recv) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  const int length = buf->len - buf->cursor;
  const Datum id = FromBinary(pq_getmsgbytes(buf, length), length);
  return id;
}

IDGEN_FUNCTION(idgen_objectid_send) {
  StringInfoData buf;
  pq_begintypsend(&buf);
  pq_sendbytes(&buf, reinterpret_cast<const char*>(Bytes(PG_GETARG_DATUM(0))), kSize);
  PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

// ---- comparison, hashing, sorting ------------------------------------------------------------

IDGEN_FUNCTION(idgen_objectid_cmp) {
  const int c = Compare(fcinfo);
  PG_RETURN_INT32((c > 0) - (c < 0));
}
IDGEN_FUNCTION(idgen_objectid_lt) { PG_RETURN_BOOL(Compare(fcinfo) < 0); }
IDGEN_FUNCTION(idgen_objectid_le) { PG_RETURN_BOOL(Compare(fcinfo) <= 0); }
IDGEN_FUNCTION(idgen_objectid_eq) { PG_RETURN_BOOL(Compare(fcinfo) == 0); }
IDGEN_FUNCTION(idgen_objectid_ne) { PG_RETURN_BOOL(Compare(fcinfo) != 0); }
IDGEN_FUNCTION(idgen_objectid_ge) { PG_RETURN_BOOL(Compare(fcinfo) >= 0); }
IDGEN_FUNCTION(idgen_objectid_gt) { PG_RETURN_BOOL(Compare(fcinfo) > 0); }

IDGEN_FUNCTION(idgen_objectid_hash) { return hash_any(Bytes(PG_GETARG_DATUM(0)), kSize); }

IDGEN_FUNCTION(idgen_objectid_hash_extended) {
  return hash_any_extended(Bytes(PG_GETARG_DATUM(0)), kSize, PG_GETARG_INT64(1));
}

IDGEN_FUNCTION(idgen_objectid_sortsupport) {
  auto ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
  ssup->comparator = CompareDatums;
  if (ssup->abbreviate && compat::kDatumHoldsEightBytes) {
    auto* state = static_cast<Abbreviation*>(MemoryContextAlloc(ssup->ssup_cxt, sizeof(Abbreviation)));
    state->count = 0;
    state->estimating = true;
    MemoryContext previous = MemoryContextSwitchTo(ssup->ssup_cxt);
    initHyperLogLog(&state->distinct, 10);
    MemoryContextSwitchTo(previous);
    ssup->ssup_extra = state;
    ssup->comparator = ssup_datum_unsigned_cmp;
    ssup->abbrev_converter = Abbreviate;
    ssup->abbrev_abort = AbortAbbreviation;
    ssup->abbrev_full_comparator = CompareDatums;
  }
  PG_RETURN_VOID();
}

// ---- casts -----------------------------------------------------------------------------------

IDGEN_FUNCTION(idgen_objectid_to_bytea) {
  bytea* result = static_cast<bytea*>(palloc(VARHDRSZ + kSize));
  SET_VARSIZE(result, VARHDRSZ + kSize);
  memcpy(VARDATA(result), Bytes(PG_GETARG_DATUM(0)), kSize);
  PG_RETURN_BYTEA_P(result);
}

IDGEN_FUNCTION(idgen_objectid_from_bytea) {
  bytea* value = PG_GETARG_BYTEA_PP(0);
  return FromBinary(VARDATA_ANY(value), static_cast<int>(VARSIZE_ANY_EXHDR(value)));
}

// min() and max() of objectids: the transition functions of the aggregates.
IDGEN_FUNCTION(idgen_objectid_smaller) { return Compare(fcinfo) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1); }
IDGEN_FUNCTION(idgen_objectid_larger) { return Compare(fcinfo) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1); }

// ---- generator and decoders ------------------------------------------------------------------

IDGEN_FUNCTION(idgen_objectid) {
  return ToDatum(Guarded([&] { return objectid::Next(generator, WallClock(), BackendRandom(), MyProcPid); }));
}

IDGEN_FUNCTION(idgen_objectid_at) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  return ToDatum(Guarded([&] { return objectid::At(generator, at, BackendRandom(), MyProcPid); }));
}

IDGEN_FUNCTION(idgen_objectid_time) {
  const ObjectId id = FromDatum<ObjectId>(PG_GETARG_DATUM(0));
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(Guarded([&] { return objectid::TimeUs(id); })));
}

IDGEN_FUNCTION(idgen_objectid_min) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  return ToDatum(Guarded([&] { return objectid::MinAt(at); }));
}

}  // namespace idgen::pg
