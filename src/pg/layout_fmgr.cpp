// SQL functions of the 64-bit layout families: Instagram, Snowflake, Sonyflake, TraceId. Each has
// a generator (<family>_id), a decoder (<family>_parse) and a range-scan bound (<family>_min).
#include <algorithm>

#include "core/layout.hpp"
#include "pg/generator.hpp"
#include "pg/guard.hpp"
#include "pg/mark.hpp"
#include "pg/node_identity.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings.hpp"
#include "pg/shared.hpp"

extern "C" {
#include "access/xact.h"
}

namespace idgen::pg {

namespace {

// What Instagram checks beyond CheckCanGenerate: a shard this server owns. (The node id of the
// other families comes from NodeId, which checks that it fits.)
void CheckShard(Family family, const Layout& layout, int64_t node) {
  char message[160], detail[320];
  if (family == kFamilyInstagram && node >= 0 && node <= layout.max_node() && !settings::OwnsShard(node)) {
    snprintf(message, sizeof message, "shard %lld is not one of this server's Instagram shards",
             static_cast<long long>(node));
    snprintf(detail, sizeof detail, "idgen.instagram_shards is \"%s\".", settings::InstagramShards());
    Raise(ErrorKind::kBadArgument, message, detail,
          "Each server makes the IDs of its own shards only, so that two servers never make the same ID. Send this "
          "shard's rows to the server that owns it, or change idgen.instagram_shards.");
  }
}

Datum NextId(Family family, int64_t node, bool node_is_setting) {
  const Layout& layout = *kLayouts[family];
  const StateRef ref = GeneratorState();
  CheckCanGenerate(family, layout.title, ref);
  if (node_is_setting) node = NodeId(layout);  // idgen.node_id, or the Citus group id
  CheckShard(family, layout, node);
  const std::span<StateWord> words = ref.state.words(family);
  const EpochSettings settings{settings::EpochMs(family), settings::max_clock_regression_ms};
  PG_RETURN_INT64(Generate(
      family, ref, [&] { return layout::Next(layout, settings, words, ref.state.stats[family], WallClock(), node); }));
}

Datum ParseId(Family family, FunctionCallInfo fcinfo) {
  const int64 id = PG_GETARG_INT64(0);
  const int64_t epoch = settings::EpochMs(family);
  const int64_t reference_ms = UnixUs(GetCurrentTransactionStartTimestamp()) / 1000;
  const layout::Parts parts = Guarded([&] { return layout::Decompose(*kLayouts[family], epoch, id, reference_ms); });
  const Datum values[3] = {TimestampTzGetDatum(FromUnixUs(parts.unix_ms * 1000)),
                           Int32GetDatum(static_cast<int32>(parts.node)), Int32GetDatum(static_cast<int32>(parts.seq))};
  return RowDatum(fcinfo, values, 3);
}

Datum MinId(Family family, FunctionCallInfo fcinfo) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  const int64_t epoch = settings::EpochMs(family);
  PG_RETURN_INT64(Guarded([&] { return layout::MinAt(*kLayouts[family], epoch, at); }));
}

}  // namespace

IDGEN_FUNCTION(idgen_instagram_id) { return NextId(kFamilyInstagram, PG_GETARG_INT64(0), false); }
IDGEN_FUNCTION(idgen_instagram_parse) { return ParseId(kFamilyInstagram, fcinfo); }
IDGEN_FUNCTION(idgen_instagram_min) { return MinId(kFamilyInstagram, fcinfo); }

IDGEN_FUNCTION(idgen_snowflake_id) { return NextId(kFamilySnowflake, 0, true); }
IDGEN_FUNCTION(idgen_snowflake_parse) { return ParseId(kFamilySnowflake, fcinfo); }
IDGEN_FUNCTION(idgen_snowflake_min) { return MinId(kFamilySnowflake, fcinfo); }

IDGEN_FUNCTION(idgen_sonyflake_id) { return NextId(kFamilySonyflake, 0, true); }
IDGEN_FUNCTION(idgen_sonyflake_parse) { return ParseId(kFamilySonyflake, fcinfo); }
IDGEN_FUNCTION(idgen_sonyflake_min) { return MinId(kFamilySonyflake, fcinfo); }

IDGEN_FUNCTION(idgen_js_id) { return NextId(kFamilyJs, 0, true); }
IDGEN_FUNCTION(idgen_js_parse) { return ParseId(kFamilyJs, fcinfo); }
IDGEN_FUNCTION(idgen_js_min) { return MinId(kFamilyJs, fcinfo); }
IDGEN_FUNCTION(idgen_is_js_safe) {
  const int64 value = PG_GETARG_INT64(0);
  PG_RETURN_BOOL(value >= 1 && value <= kJsMaxSafe);
}

IDGEN_FUNCTION(idgen_trace_id) { return NextId(kFamilyTrace, 0, true); }
IDGEN_FUNCTION(idgen_trace_parse) { return ParseId(kFamilyTrace, fcinfo); }
IDGEN_FUNCTION(idgen_trace_min) { return MinId(kFamilyTrace, fcinfo); }

}  // namespace idgen::pg
