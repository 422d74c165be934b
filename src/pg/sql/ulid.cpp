// SQL functions of the ULID family: 26 characters of Crockford base32, or the same 128 bits as a
// uuid. The generator shares UUIDv7's state word, its durable mark and its row of idgen.stats.
#include "core/ulid.hpp"
#include "pg/effects/generator.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

namespace idgen::pg {
namespace {

// The next ULID of the server (of the session where nothing is shared), covered by the durable
// mark, in order with every UUIDv7 and ULID before it. C zone.
Uuid NextUlid() {
  const StateRef ref = GeneratorState();
  const int64_t max_lead_ms = settings::max_clock_lead_ms;
  const auto callers = static_cast<uint64_t>(MaxBackends);
  return Generate(kFamilyUuidv7, ref, [&] {
    return ulid::Next(ref.state.family_word[kFamilyUuidv7], ref.state.stats[kFamilyUuidv7], WallClock(),
                      BackendRandom(), MyProcPid, max_lead_ms, callers);
  });
}

Datum UlidText(const Uuid& value) {
  const BoundedText<ulid::kLength> out = ulid::Format(value);
  return TextDatum(out.view());
}

// The smallest ULID of the millisecond of a timestamptz (rounded down).
Uuid MinOf(TimestampTz at) {
  const int64_t us = UnixUs(at);
  const int64_t ms = us / 1000 - (us % 1000 < 0 ? 1 : 0);
  return Guarded([&] { return ulid::MinAt(ms); });
}

}  // namespace

IDGEN_FUNCTION(idgen_ulid) { return UlidText(NextUlid()); }

IDGEN_FUNCTION(idgen_ulid_uuid) { return ToDatum(NextUlid()); }

IDGEN_FUNCTION(idgen_ulid_to_uuid) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  return ToDatum(Guarded([&] { return ulid::ParseOrThrow(value); }));
}

IDGEN_FUNCTION(idgen_ulid_from_uuid) { return UlidText(FromDatum<Uuid>(PG_GETARG_DATUM(0))); }

IDGEN_FUNCTION(idgen_ulid_time) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const int64_t ms = Guarded([&] { return ulid::TimeMs(ulid::ParseOrThrow(value)); });
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(ms * 1000));
}

IDGEN_FUNCTION(idgen_ulid_time_uuid) {
  const Uuid id = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(ulid::TimeMs(id) * 1000));
}

IDGEN_FUNCTION(idgen_ulid_min) { return UlidText(MinOf(PG_GETARG_TIMESTAMPTZ(0))); }

IDGEN_FUNCTION(idgen_ulid_min_uuid) { return ToDatum(MinOf(PG_GETARG_TIMESTAMPTZ(0))); }

}  // namespace idgen::pg
