// The idgen.type_id type: a TypeID (a prefix and a UUID) in 24 bytes on disk for a prefix of up to
// 12 characters and a UUIDv7 or v4 (src/core/typeid.hpp has the layout). I/O, comparison, hashing,
// sort support, casts, the generator and the decoders. (typeid is the name of the text family's
// generator idgen.typeid(prefix): a type of that name would turn idgen.typeid('user') into a cast.)
#include <cstring>

#include "core/bytes.hpp"
#include "core/typeid.hpp"
#include "core/uuidv7.hpp"
#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/sql/type_id.hpp"
#include "pg/sql/uuidv7.hpp"

extern "C" {
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "utils/array.h"
#include "utils/sortsupport.h"
#include "utils/syscache.h"
}

namespace idgen::pg {

namespace {

// The stored bytes of a type_id Datum, detoasted (a value is tiny, but STORAGE main lets a row
// that does not fit a page compress or move it). Free() gives back what detoasting allocated.
struct Bytes {
  struct varlena* datum;
  bool copied;
  std::span<const uint8_t> view() const {
    return {reinterpret_cast<const uint8_t*>(VARDATA_ANY(datum)), VARSIZE_ANY_EXHDR(datum)};
  }
  void Free() const {
    if (copied) pfree(datum);
  }
};

Bytes BytesOf(Datum d) {
  auto* original = reinterpret_cast<struct varlena*>(DatumGetPointer(d));
  struct varlena* datum = pg_detoast_datum_packed(original);
  return {datum, datum != original};
}

Datum ToDatum(const type_id::Stored& stored) {
  auto* result = static_cast<struct varlena*>(palloc(VARHDRSZ + stored.size));
  SET_VARSIZE(result, VARHDRSZ + stored.size);
  memcpy(VARDATA(result), stored.bytes, stored.size);
  return PointerGetDatum(result);
}

// The prefix and UUID of a stored value; XX001 for bytes that Store never writes (corruption).
type_id::Value Load(const Bytes& bytes) {
  type_id::Value value;
  if (!type_id::Load(bytes.view(), value)) {
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("invalid stored type_id of %d bytes", static_cast<int>(bytes.view().size())),
            errdetail("idgen never writes these bytes: the value is damaged."));
  }
  return value;
}

type_id::Value ArgValue(FunctionCallInfo fcinfo, int n) {
  const Bytes bytes = BytesOf(PG_GETARG_DATUM(n));
  const type_id::Value value = Load(bytes);
  bytes.Free();
  return value;
}

// A prefix argument under the spec's rule (the empty prefix included), or 22023.
std::string_view PrefixArg(FunctionCallInfo fcinfo, int n) {
  const std::string_view prefix = StringView(PG_GETARG_TEXT_PP(n));
  if (!type_id::ValidSpecPrefix(prefix)) {
    Guarded([&] { type_id::CheckPrefix(prefix); });  // raises 22023 with the rule in the hint
  }
  return prefix;
}

int Compare(Datum a, Datum b) {
  const Bytes x = BytesOf(a), y = BytesOf(b);
  const int c = type_id::Compare(x.view(), y.view());
  x.Free();
  y.Free();
  return c;
}

bool Equal(Datum a, Datum b) {
  const Bytes x = BytesOf(a), y = BytesOf(b);
  const bool equal =
      x.view().size() == y.view().size() && memcmp(x.view().data(), y.view().data(), x.view().size()) == 0;
  x.Free();
  y.Free();
  return equal;
}

int CompareDatums(Datum a, Datum b, SortSupport) { return Compare(a, b); }

// Abbreviated keys (core: type_id::Abbreviate), abandoned as for uuid when too few are distinct.
struct Abbreviation {
  type_id::AbbreviationReference reference;
  int64 count;
  bool estimating;
  hyperLogLogState distinct;
};

Datum Abbreviate(Datum original, SortSupport ssup) {
  auto* state = static_cast<Abbreviation*>(ssup->ssup_extra);
  const Bytes bytes = BytesOf(original);
  const type_id::Value value = Load(bytes);
  bytes.Free();
  const uint64 key = type_id::Abbreviate(value, state->reference);
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

Datum TextOf(const type_id::Value& value, type_id::Encoding encoding) {
  const type_id::Text text = Guarded([&] { return type_id::Format(value.prefix_view(), value.id, encoding); });
  return TextDatum(text.view());
}

}  // namespace

namespace type_id_datum {

type_id::Value Arg(FunctionCallInfo fcinfo, int n) { return ArgValue(fcinfo, n); }
Datum Make(std::string_view prefix, const Uuid& id) { return ToDatum(type_id::Store(prefix, id)); }
std::string_view PrefixArg(FunctionCallInfo fcinfo, int n) { return pg::PrefixArg(fcinfo, n); }

}  // namespace type_id_datum

// ---- I/O -------------------------------------------------------------------------------------

namespace {

// A type_id from text, or 22P02 (softly where the caller asks: context). The type's input reads
// the TypeID spec's text; the cast from text reads idgen's base36 form too.
Datum FromText(const char* text, size_t size, bool accept_base36, Node* context) {
  const std::string_view view(text, size);
  type_id::Parsed parsed{};
  const ParseProblem problem = type_id::ParseText(view, parsed, accept_base36);
  if (problem != ParseProblem::kNone) {
    const type_id::Explanation why = type_id::Explain(view, problem, accept_base36);
    const char* shown = pnstrdup(text, size);
    // idgen.type_id('user') with a quoted literal is this cast, not a new value.
    const bool bare_prefix = problem == ParseProblem::kNoSeparator && type_id::ValidPrefix(view);
    ereturn(context, (Datum)0, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", "type_id", shown), errdetail("%s", why.detail),
            bare_prefix ? errhint("For a new ID with this prefix, call idgen.type_id_generate('%s'): "
                                  "idgen.type_id('%s') is a cast of that text.",
                                  shown, shown)
                        : errhint("%s", why.hint));
  }
  return ToDatum(type_id::Store(parsed.prefix, parsed.id));
}

}  // namespace

IDGEN_FUNCTION(idgen_type_id_in) {
  const char* text = PG_GETARG_CSTRING(0);
  return FromText(text, strlen(text), false, fcinfo->context);
}

// The cast from text: the spec's text or idgen's base36 form (a column of idgen.typeid() values).
IDGEN_FUNCTION(idgen_type_id_of_text) {
  const text* value = PG_GETARG_TEXT_PP(0);
  return FromText(VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value), true, nullptr);
}

IDGEN_FUNCTION(idgen_type_id_out) {
  const type_id::Value value = ArgValue(fcinfo, 0);
  const type_id::Text text =
      Guarded([&] { return type_id::Format(value.prefix_view(), value.id, type_id::Encoding::kBase32); });
  char* out = static_cast<char*>(palloc(text.size + 1));
  memcpy(out, text.data, text.size);
  out[text.size] = '\0';
  PG_RETURN_CSTRING(out);
}

// Binary: the 16 bytes of the UUID, then the prefix's characters (none for the empty prefix).
IDGEN_FUNCTION(idgen_type_id_recv) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  const int length = buf->len - buf->cursor;
  const auto* data = reinterpret_cast<const uint8_t*>(pq_getmsgbytes(buf, length));
  type_id::Value value;
  const ParseProblem problem = type_id::DecodeBinary({data, static_cast<size_t>(length)}, value);
  if (problem != ParseProblem::kNone) {
    ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION), errmsg("invalid binary type_id of %d bytes", length),
            problem == ParseProblem::kBadLength
                ? errdetail("A binary type_id is the 16 bytes of a UUID, then a prefix of at most 63 characters.")
                : errdetail("The bytes after the UUID are not a prefix."),
            errhint("%s", type_id::kPrefixRule));
  }
  return ToDatum(type_id::Store(value.prefix_view(), value.id));
}

IDGEN_FUNCTION(idgen_type_id_send) {
  const type_id::Value value = ArgValue(fcinfo, 0);
  const type_id::Binary binary = type_id::ToBinary(value);
  StringInfoData buf;
  pq_begintypsend(&buf);
  pq_sendbytes(&buf, reinterpret_cast<const char*>(binary.bytes), static_cast<int>(binary.size));
  PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

// ---- comparison, hashing, sorting ------------------------------------------------------------

IDGEN_FUNCTION(idgen_type_id_cmp) { PG_RETURN_INT32(Compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1))); }
IDGEN_FUNCTION(idgen_type_id_lt) { PG_RETURN_BOOL(Compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) < 0); }
IDGEN_FUNCTION(idgen_type_id_le) { PG_RETURN_BOOL(Compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) <= 0); }
IDGEN_FUNCTION(idgen_type_id_eq) { PG_RETURN_BOOL(Equal(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1))); }
IDGEN_FUNCTION(idgen_type_id_ne) { PG_RETURN_BOOL(!Equal(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1))); }
IDGEN_FUNCTION(idgen_type_id_ge) { PG_RETURN_BOOL(Compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) >= 0); }
IDGEN_FUNCTION(idgen_type_id_gt) { PG_RETURN_BOOL(Compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) > 0); }

// The stored bytes are canonical: equal values, equal bytes, equal hashes.
IDGEN_FUNCTION(idgen_type_id_hash) {
  const Bytes bytes = BytesOf(PG_GETARG_DATUM(0));
  const Datum hash = hash_any(bytes.view().data(), static_cast<int>(bytes.view().size()));
  bytes.Free();
  return hash;
}

IDGEN_FUNCTION(idgen_type_id_hash_extended) {
  const Bytes bytes = BytesOf(PG_GETARG_DATUM(0));
  const Datum hash = hash_any_extended(bytes.view().data(), static_cast<int>(bytes.view().size()), PG_GETARG_INT64(1));
  bytes.Free();
  return hash;
}

IDGEN_FUNCTION(idgen_type_id_sortsupport) {
  auto ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
  ssup->comparator = CompareDatums;
  if (ssup->abbreviate && compat::kDatumHoldsEightBytes) {
    auto* state = static_cast<Abbreviation*>(MemoryContextAllocZero(ssup->ssup_cxt, sizeof(Abbreviation)));
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

// min() and max(): the transition functions of the aggregates.
IDGEN_FUNCTION(idgen_type_id_smaller) {
  return Compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}
IDGEN_FUNCTION(idgen_type_id_larger) {
  return Compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

// ---- casts, generator, decoders --------------------------------------------------------------

// The UUID inside (the cast to uuid).
IDGEN_FUNCTION(idgen_type_id_uuid) { return ToDatum(ArgValue(fcinfo, 0).id); }

// The cast from uuid: the TypeID with the empty prefix (the spec's bare body).
IDGEN_FUNCTION(idgen_type_id_of_uuid) { return ToDatum(type_id::Store({}, FromDatum<Uuid>(PG_GETARG_DATUM(0)))); }

IDGEN_FUNCTION(idgen_type_id_from_uuid) {
  const std::string_view prefix = PrefixArg(fcinfo, 0);
  return ToDatum(type_id::Store(prefix, FromDatum<Uuid>(PG_GETARG_DATUM(1))));
}

// A new value: a UUIDv7 from the server's UUIDv7 state (ordered across sessions, as
// idgen.typeid() and idgen.uuidv7()), or 122 random bits for ordered => false.
IDGEN_FUNCTION(idgen_type_id_generate) {
  const std::string_view prefix = PrefixArg(fcinfo, 0);
  const bool ordered = PG_GETARG_BOOL(1);
  const Uuid id = ordered ? NextUuidv7() : Guarded([&] { return type_id::RandomBody(BackendRandom(), MyProcPid); });
  return ToDatum(type_id::Store(prefix, id));
}

// The smallest ordered value of the prefix at the instant: the bound of a range scan.
IDGEN_FUNCTION(idgen_type_id_min) {
  const std::string_view prefix = PrefixArg(fcinfo, 0);
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(1));
  return ToDatum(type_id::Store(prefix, Guarded([&] { return uuidv7::MinAt(at); })));
}

IDGEN_FUNCTION(idgen_type_id_time) {
  const type_id::Value value = ArgValue(fcinfo, 0);
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(Guarded([&] { return type_id::TimeUs(value); })));
}

IDGEN_FUNCTION(idgen_type_id_prefix) {
  const type_id::Value value = ArgValue(fcinfo, 0);
  return TextDatum(value.prefix_view());
}

// The text in either encoding: base32 is the cast to text, base36 idgen's text form.
IDGEN_FUNCTION(idgen_type_id_text) {
  const type_id::Value value = ArgValue(fcinfo, 0);
  const std::string_view name = StringView(PG_GETARG_TEXT_PP(1));
  const type_id::Encoding encoding = Guarded([&] {
    const type_id::Encoding named = type_id::EncodingNamed(name);
    type_id::CheckFormat(value.prefix_view(), named);
    return named;
  });
  return TextOf(value, encoding);
}

// The check of a domain that holds one prefix (idgen.define_id_type(..., native => true)): true, or
// 22P02 naming both prefixes.
IDGEN_FUNCTION(idgen_type_id_check) {
  const type_id::Value value = ArgValue(fcinfo, 0);
  const std::string_view expected = StringView(PG_GETARG_TEXT_PP(1));
  Guarded([&] { type_id::ExpectPrefix(value, expected); });
  PG_RETURN_BOOL(true);
}

// ---- types of one prefix: idgen.define_uuid_type(prefix, name) --------------------------------
//
// A type of one prefix holds the UUID alone: 16 bytes, a uuid's representation, compared, hashed
// and sorted by uuid's own functions (the SQL declares them). Only its text and binary forms need
// the prefix, and PostgreSQL gives an output function nothing but the value: the prefix is the name
// of the argument of the type's output function (CREATE FUNCTION s.user_id_out("user" s.user_id)),
// a part of its definition that pg_dump writes and pg_upgrade keeps, and that only a superuser can
// write (the function is in C). Input and receive find it through the type (their typioparam), output
// and send through their own pg_proc row (its argument's type); each FmgrInfo keeps what it found.

namespace {

constexpr const char* kUuidTypeOutput = "idgen_uuid_type_out";

struct UuidType {
  Oid type;
  size_t prefix_size;
  char prefix[type_id::kMaxPrefix];
  std::string_view prefix_view() const { return {prefix, prefix_size}; }
};

// The prefix of a type made by define_uuid_type, or 42809 for any other type.
void LoadUuidType(Oid type, UuidType& out) {
  HeapTuple type_tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
  if (!HeapTupleIsValid(type_tuple)) {
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("type with OID %u does not exist", type));
  }
  const Oid output = reinterpret_cast<Form_pg_type>(GETSTRUCT(type_tuple))->typoutput;
  ReleaseSysCache(type_tuple);
  HeapTuple proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(output));
  if (!HeapTupleIsValid(proc)) elog(ERROR, "cache lookup failed for function %u", output);
  bool null = false;
  const Datum source = SysCacheGetAttr(PROCOID, proc, Anum_pg_proc_prosrc, &null);
  const bool ours = reinterpret_cast<Form_pg_proc>(GETSTRUCT(proc))->prolang == ClanguageId && !null &&
                    StringView(DatumGetTextPP(source)) == kUuidTypeOutput;
  const Datum names = ours ? SysCacheGetAttr(PROCOID, proc, Anum_pg_proc_proargnames, &null) : (Datum)0;
  // The prefix is copied out before the tuple is released: the array may point into it.
  bool valid = false;
  if (ours && !null) {
    Datum* elements = nullptr;
    bool* nulls = nullptr;
    int count = 0;
    deconstruct_array(DatumGetArrayTypeP(names), TEXTOID, -1, false, TYPALIGN_INT, &elements, &nulls, &count);
    const std::string_view prefix =
        count == 1 && !nulls[0] ? StringView(DatumGetTextPP(elements[0])) : std::string_view{};
    valid = type_id::ValidPrefix(prefix);
    if (valid) {
      out.type = type;
      out.prefix_size = prefix.size();
      memcpy(out.prefix, prefix.data(), prefix.size());
    }
  }
  ReleaseSysCache(proc);
  if (!ours) {
    ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
            errmsg("type %s is not a type of one prefix", format_type_be(type)),
            errhint("idgen.define_uuid_type(prefix, name) makes one."));
  }
  if (!valid) {
    ereport(ERROR, errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
            errmsg("the output function of type %s names no valid prefix", format_type_be(type)),
            errdetail("Its argument's name is the prefix of the type's IDs."), errhint("%s", type_id::kPrefixRule));
  }
}

// The type of an input or receive call (its typioparam), kept in the FmgrInfo.
const UuidType& UuidTypeOfParam(FunctionCallInfo fcinfo) {
  const Oid type = PG_GETARG_OID(1);
  auto* cached = static_cast<UuidType*>(fcinfo->flinfo->fn_extra);
  if (cached == nullptr || cached->type != type) {
    UuidType found;
    LoadUuidType(type, found);
    if (cached == nullptr)
      cached = static_cast<UuidType*>(MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(UuidType)));
    *cached = found;
    fcinfo->flinfo->fn_extra = cached;
  }
  return *cached;
}

// The type of an output or send call: the type of the function's argument.
const UuidType& UuidTypeOfFunction(FunctionCallInfo fcinfo) {
  auto* cached = static_cast<UuidType*>(fcinfo->flinfo->fn_extra);
  if (cached == nullptr) {
    HeapTuple proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
    if (!HeapTupleIsValid(proc)) elog(ERROR, "cache lookup failed for function %u", fcinfo->flinfo->fn_oid);
    const Form_pg_proc form = reinterpret_cast<Form_pg_proc>(GETSTRUCT(proc));
    const Oid type = form->pronargs == 1 ? form->proargtypes.values[0] : InvalidOid;
    ReleaseSysCache(proc);
    UuidType found;
    LoadUuidType(type, found);
    cached = static_cast<UuidType*>(MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(UuidType)));
    *cached = found;
    fcinfo->flinfo->fn_extra = cached;
  }
  return *cached;
}

}  // namespace

// Input: the TypeID text of the type's prefix (22P02 naming both prefixes for another).
IDGEN_FUNCTION(idgen_uuid_type_in) {
  const char* text = PG_GETARG_CSTRING(0);
  const UuidType& type = UuidTypeOfParam(fcinfo);
  const std::string_view view(text);
  type_id::Parsed parsed{};
  const ParseProblem problem = type_id::ParseText(view, parsed, false);
  if (problem != ParseProblem::kNone) {
    const type_id::Explanation why = type_id::Explain(view, problem, false);
    ereturn(fcinfo->context, (Datum)0, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", format_type_be(type.type), text),
            errdetail("%s", why.detail), errhint("%s", why.hint));
  }
  if (parsed.prefix != type.prefix_view()) {
    const std::string_view got = parsed.prefix;
    ereturn(fcinfo->context, (Datum)0, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
            errmsg("invalid input syntax for type %s: \"%s\"", format_type_be(type.type), text),
            got.empty()
                ? errdetail("It has no prefix; a %s is a \"%.*s\" ID.", format_type_be(type.type),
                            static_cast<int>(type.prefix_size), type.prefix)
                : errdetail("It has prefix \"%.*s\", not \"%.*s\": a %s holds \"%.*s\" IDs only.",
                            static_cast<int>(got.size()), got.data(), static_cast<int>(type.prefix_size), type.prefix,
                            format_type_be(type.type), static_cast<int>(type.prefix_size), type.prefix),
            errhint("A new one is idgen.uuidv7()::%s; the UUID of another ID is its cast to uuid.",
                    format_type_be(type.type)));
  }
  return ToDatum(parsed.id);
}

IDGEN_FUNCTION(idgen_uuid_type_out) {
  const UuidType& type = UuidTypeOfFunction(fcinfo);
  const Uuid id = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  const type_id::Text text =
      Guarded([&] { return type_id::Format(type.prefix_view(), id, type_id::Encoding::kBase32); });
  char* out = static_cast<char*>(palloc(text.size + 1));
  memcpy(out, text.data, text.size);
  out[text.size] = '\0';
  PG_RETURN_CSTRING(out);
}

// Binary: as idgen.type_id's, the 16 bytes of the UUID, then the prefix (22P03 for another).
IDGEN_FUNCTION(idgen_uuid_type_recv) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  const UuidType& type = UuidTypeOfParam(fcinfo);
  const int length = buf->len - buf->cursor;
  const auto* data = reinterpret_cast<const uint8_t*>(pq_getmsgbytes(buf, length));
  type_id::Value value;
  const ParseProblem problem = type_id::DecodeBinary({data, static_cast<size_t>(length)}, value);
  if (problem != ParseProblem::kNone || value.prefix_view() != type.prefix_view()) {
    ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
            errmsg("invalid binary %s of %d bytes", format_type_be(type.type), length),
            errdetail("A binary %s is the 16 bytes of a UUID, then \"%.*s\".", format_type_be(type.type),
                      static_cast<int>(type.prefix_size), type.prefix));
  }
  return ToDatum(value.id);
}

IDGEN_FUNCTION(idgen_uuid_type_send) {
  const UuidType& type = UuidTypeOfFunction(fcinfo);
  type_id::Value value{};
  memcpy(value.prefix, type.prefix, type.prefix_size);
  value.prefix_size = type.prefix_size;
  value.id = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  const type_id::Binary binary = type_id::ToBinary(value);
  StringInfoData buf;
  pq_begintypsend(&buf);
  pq_sendbytes(&buf, reinterpret_cast<const char*>(binary.bytes), static_cast<int>(binary.size));
  PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

// min() and max() of a type of one prefix: its order is the uuid's (bytes).
IDGEN_FUNCTION(idgen_uuid_type_smaller) {
  const Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
  return memcmp(DatumGetPointer(a), DatumGetPointer(b), sizeof(pg_uuid_t)) <= 0 ? a : b;
}
IDGEN_FUNCTION(idgen_uuid_type_larger) {
  const Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
  return memcmp(DatumGetPointer(a), DatumGetPointer(b), sizeof(pg_uuid_t)) >= 0 ? a : b;
}

// The prefix of a type of one prefix (42809 for another type).
IDGEN_FUNCTION(idgen_uuid_type_prefix) {
  UuidType type;
  LoadUuidType(PG_GETARG_OID(0), type);
  return TextDatum(type.prefix_view());
}

}  // namespace idgen::pg
