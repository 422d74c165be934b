// SQL functions of the UUIDv7 family.
#include "core/uuidv7.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"

using namespace idgen;
using namespace idgen::pg;

IDGEN_FUNCTION(idgen_uuidv7) {
  State& state = CurrentState();
  const Uuid id = Guarded([&] {
    return uuidv7::Next(state.uuidv7, state.stats[kFamilyUuidv7], TheClock(), ThePool(), MyProcPid);
  });
  CountIssued(kFamilyUuidv7);
  return ToDatum(id);
}

IDGEN_FUNCTION(idgen_uuidv7_at) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  const Uuid id = Guarded([&] { return uuidv7::At(at, ThePool(), MyProcPid); });
  return ToDatum(id);
}

IDGEN_FUNCTION(idgen_uuidv7_min) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  const Uuid id = Guarded([&] { return uuidv7::MinAt(at); });
  return ToDatum(id);
}

IDGEN_FUNCTION(idgen_uuidv7_time) {
  const Uuid id = FromPg(PG_GETARG_UUID_P(0));
  const int64_t unix_us = Guarded([&] { return uuidv7::TimeUs(id); });
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(unix_us));
}
