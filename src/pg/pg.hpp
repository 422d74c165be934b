// The PostgreSQL headers, as C, and what every fmgr file shares. Only src/pg includes this.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/error.hpp"  // the core headers first (core/cpp_only.hpp)
#include "core/uuid.hpp"

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
// The varlena macros: their own header from PostgreSQL 16, which postgres.h stops including in 19.
#if __has_include("varatt.h")
#include "varatt.h"
#endif
}

// Declares a SQL-callable function with C linkage: IDGEN_FUNCTION(idgen_uuidv7) { ... }. The fmgr files
// use it inside namespace idgen::pg: C linkage keeps the plain name, which the SQL scripts name.
#define IDGEN_FUNCTION(name) \
  extern "C" {               \
  PG_FUNCTION_INFO_V1(name); \
  }                          \
  extern "C" Datum name(PG_FUNCTION_ARGS)

namespace idgen::pg {

// ereport(ERROR) with the SQLSTATE of an error kind (guard.cpp). C zone only.
[[noreturn]] void Raise(ErrorKind kind, const char* message, const char* detail = "", const char* hint = "");

// timestamptz counts microseconds from 2000-01-01; the cores count from 1970-01-01.
inline constexpr int64_t kUnixToPostgresUs = int64_t{POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE} * USECS_PER_DAY;

// A timestamptz argument as Unix microseconds. infinity and -infinity are no instant of any ID:
// 22008, as every time outside a family's range.
inline int64_t UnixUs(TimestampTz ts) {
  if (TIMESTAMP_NOT_FINITE(ts)) {
    Raise(ErrorKind::kDatetimeOutOfRange,
          TIMESTAMP_IS_NOBEGIN(ts) ? "timestamp -infinity is not an instant of an ID"
                                   : "timestamp infinity is not an instant of an ID",
          "IDs hold finite times only.");
  }
  int64_t unix_us;
  if (__builtin_add_overflow(ts, kUnixToPostgresUs, &unix_us)) {
    Raise(ErrorKind::kDatetimeOutOfRange, "timestamp out of range for IDs",
          "Microseconds since 1970 fit 64 bits until the year 294247; no ID holds a later time.");
  }
  return unix_us;
}

// A core's Unix microseconds as a timestamptz (22008 if outside timestamptz's range).
inline TimestampTz FromUnixUs(int64_t unix_us) {
  TimestampTz ts;
  if (__builtin_sub_overflow(unix_us, kUnixToPostgresUs, &ts) || !IS_VALID_TIMESTAMP(ts)) {
    Raise(ErrorKind::kDatetimeOutOfRange, "timestamp out of range");
  }
  return ts;
}

// The bytes of a text argument, without copying (the argument must be detoasted: _PP).
inline std::string_view StringView(const text* t) { return {VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)}; }

inline Datum TextDatum(std::string_view s) {
  // An empty view may have no data at all: PostgreSQL copies with memcpy, which wants a pointer.
  return PointerGetDatum(cstring_to_text_with_len(s.empty() ? "" : s.data(), static_cast<int>(s.size())));
}

// A value of one of idgen's plain-data types from its Datum, and back.
template <typename T>
T FromDatum(Datum d);

template <>
inline Uuid FromDatum<Uuid>(Datum d) {
  Uuid id;
  memcpy(id.bytes.data(), DatumGetUUIDP(d)->data, UUID_LEN);
  return id;
}

inline Datum ToDatum(const Uuid& id) {
  auto* u = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
  memcpy(u->data, id.bytes.data(), UUID_LEN);
  return UUIDPGetDatum(u);
}

// A composite result (OUT parameters) from its column values, none null.
Datum RowDatum(FunctionCallInfo fcinfo, const Datum* values, int count);

// HMAC-SHA256 with PostgreSQL's pg_hmac. C zone (it may raise errors).
void HmacSha256(std::string_view key, std::string_view message, uint8_t (&out)[32]);

// Calls callback(arg, relid) on every relcache invalidation in this backend, as
// CacheRegisterRelcacheCallback does. PostgreSQL has room for ten such callbacks per backend, which
// every extension shares (Citus takes several): idgen takes one slot, and calls each of its own
// caches' callbacks from it. Registering the same callback again does nothing.
void OnRelationChange(void (*callback)(Datum arg, Oid relid));

}  // namespace idgen::pg
