// SQL functions of the UUIDv7 family.
#include "pg/sql/uuidv7.hpp"

#include "core/uuidv7.hpp"
#include "pg/effects/generator.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "datatype/timestamp.h"
}

namespace idgen::pg {

Uuid NextUuidv7(int64_t shift_steps) {
  const StateRef ref = GeneratorState();
  const int64_t max_lead_ms = settings::max_clock_lead_ms;
  const auto callers = static_cast<uint64_t>(MaxBackends);
  return Generate(kFamilyUuidv7, ref, [&] {
    return uuidv7::Next(ref.state.family_word[kFamilyUuidv7], ref.state.stats[kFamilyUuidv7], WallClock(),
                        BackendRandom(), MyProcPid, shift_steps, max_lead_ms, callers);
  });
}

IDGEN_FUNCTION(idgen_uuidv7) { return ToDatum(NextUuidv7()); }

// PostgreSQL 18's uuidv7(shift interval): the time written into the UUID is now + shift.
IDGEN_FUNCTION(idgen_uuidv7_shift) {
  const Interval* shift = PG_GETARG_INTERVAL_P(0);
  const TimestampTz now = GetCurrentTimestamp();
  const TimestampTz shifted = DatumGetTimestampTz(
      DirectFunctionCall2(timestamptz_pl_interval, TimestampTzGetDatum(now), PointerGetDatum(shift)));
  int64_t shift_us = 0;
  if (TIMESTAMP_NOT_FINITE(shifted) || __builtin_sub_overflow(shifted, now, &shift_us)) {
    Raise(ErrorKind::kDatetimeOutOfRange, "interval out of range for UUIDv7", "A shift must be finite.");
  }
  return ToDatum(NextUuidv7(uuidv7::ShiftSteps(shift_us)));
}

IDGEN_FUNCTION(idgen_uuidv7_at) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  return ToDatum(Guarded([&] { return uuidv7::At(at, BackendRandom(), MyProcPid); }));
}

IDGEN_FUNCTION(idgen_uuidv7_min) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  return ToDatum(Guarded([&] { return uuidv7::MinAt(at); }));
}

IDGEN_FUNCTION(idgen_uuidv7_time) {
  const Uuid id = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(Guarded([&] { return uuidv7::TimeUs(id); })));
}

}  // namespace idgen::pg
