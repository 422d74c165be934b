// The PostgreSQL headers, as C, and what every fmgr file shares. Only src/pg includes this.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
}

#include <cstdint>
#include <string_view>

#include "core/uuid.hpp"

// Input functions report bad text with ereturn() (soft errors from PostgreSQL 16); before 16 it
// is a plain ereport.
#if PG_VERSION_NUM < 160000
#define ereturn(context, dummy_value, ...) ereport(ERROR, __VA_ARGS__)
#endif

// Declares a SQL-callable function with C linkage: IDGEN_FUNCTION(idgen_uuidv7) { ... }
#define IDGEN_FUNCTION(name)       \
  extern "C" {                     \
  PG_FUNCTION_INFO_V1(name);       \
  }                                \
  extern "C" Datum name(PG_FUNCTION_ARGS)

namespace idgen::pg {

// timestamptz counts microseconds from 2000-01-01; the cores count from 1970-01-01.
inline constexpr int64_t kUnixToPostgresUs =
    int64_t{POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE} * USECS_PER_DAY;

// -infinity and infinity become the extremes, which every core rejects as out of range.
inline int64_t UnixUs(TimestampTz ts) {
  if (TIMESTAMP_IS_NOBEGIN(ts)) return INT64_MIN;
  if (TIMESTAMP_IS_NOEND(ts)) return INT64_MAX;
  return ts + kUnixToPostgresUs;
}

// Only for instants a core has range-checked (they are far inside timestamptz's range).
inline TimestampTz FromUnixUs(int64_t unix_us) { return unix_us - kUnixToPostgresUs; }

// The bytes of a text argument, without copying (the argument must be detoasted: _PP).
inline std::string_view View(const text* t) { return {VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)}; }

inline Datum TextDatum(std::string_view s) {
  return PointerGetDatum(cstring_to_text_with_len(s.data(), static_cast<int>(s.size())));
}

inline Uuid FromPg(const pg_uuid_t* u) {
  Uuid id;
  memcpy(id.bytes.data(), u->data, UUID_LEN);
  return id;
}

inline Datum ToDatum(const Uuid& id) {
  auto* u = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
  memcpy(u->data, id.bytes.data(), UUID_LEN);
  return UUIDPGetDatum(u);
}

}  // namespace idgen::pg
