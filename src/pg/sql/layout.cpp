// SQL functions of the 64-bit layout families: Instagram, Snowflake, Sonyflake, TraceId. Each has
// a generator (<family>_id), a decoder (<family>_parse) and a range-scan bound (<family>_min).
#include <algorithm>

#include "core/layout.hpp"
#include "pg/effects/generator.hpp"
#include "pg/guard.hpp"
#include "pg/sql/instagram_shard.hpp"
#include "pg/effects/mark.hpp"
#include "pg/settings/node_identity.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "access/xact.h"
}

namespace idgen::pg {

namespace {

// What Instagram checks beyond CheckCanGenerate: a shard this server owns. (The node id of the
// other families comes from NodeId, which checks that it fits.)
[[noreturn]] void RaiseShardNotOwned(int64_t node) {
  char message[160], detail[320];
  snprintf(message, sizeof message, "shard %lld is not one of this server's Instagram shards",
           static_cast<long long>(node));
  snprintf(detail, sizeof detail, "idgen.instagram_shards is \"%s\".", settings::InstagramShards());
  Raise(ErrorKind::kBadArgument, message, detail,
        "Each server makes the IDs of its own shards only, so that two servers never make the same ID. Send this "
        "shard's rows to the server that owns it, or change idgen.instagram_shards.");
}

// (Inline, its refusal out of line: Instagram asks on every call.)
inline void CheckShard(Family family, const Layout& layout, int64_t node) {
  if (family == kFamilyInstagram && node >= 0 && node <= layout.max_node() && !settings::OwnsShard(node)) [[unlikely]]
    RaiseShardNotOwned(node);
}

// (A template per family: the layout's widths and units are constants in the code of each.)
template <Family family>
int64_t Next(int64_t node, bool node_is_setting) {
  const Layout& layout = *kLayouts[family];
  const StateRef ref = GeneratorState();
  CheckCanGenerate(family, layout.title, ref);
  if (node_is_setting) node = NodeId(layout);  // idgen.node_id, or the Citus group id
  CheckShard(family, layout, node);
  const std::span<StateWord> words = ref.state.words(family);
  const EpochSettings settings{settings::EpochMs(family), settings::max_clock_regression_ms};
  const auto callers = static_cast<uint64_t>(MaxBackends);
  return Generate(
      family, ref,
      [&] { return layout::Next(layout, settings, words, ref.state.stats[family], WallClock(), node, callers); },
      [&] {
        if (node_is_setting) node = NodeId(layout);
        CheckShard(family, layout, node);
      });
}

template <Family family>
Datum NextId(int64_t node, bool node_is_setting) {
  PG_RETURN_INT64(Next<family>(node, node_is_setting));
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

// Before an Instagram ID of a shard whose IDs elsewhere (the server that held the shard before it
// moved here) all lie before not_before: waits until the clock reaches it, or refuses (55000) when
// it lies more than idgen.max_clock_regression ahead beyond what a server puts its own marks ahead
// by (protocol::DecideShardWait). The state words are
// left alone, as a database's copy of the mark leaves them (mark.cpp): a value that a role reads
// from a table of its own delays its own IDs only.
void WaitForShardMark(int64_t shard, int64_t not_before_ms) {
  if (not_before_ms <= 0) return;
  const Layout& layout = *kLayouts[kFamilyInstagram];
  const auto run_ahead_ms = static_cast<uint64_t>(
      layout::RunAheadTicks(layout.max_seq() + 1, static_cast<uint64_t>(MaxBackends)) * layout.unit_ms);
  const protocol::Wait wait = protocol::DecideShardWait(
      static_cast<uint64_t>(not_before_ms), marks::NowMs(), static_cast<uint64_t>(settings::max_clock_regression_ms),
      run_ahead_ms, static_cast<uint64_t>(settings::failover_margin_ms));
  if (wait.kind == protocol::Wait::kRefuse) {
    char message[200];
    snprintf(message, sizeof message, "the mark of Instagram shard %lld lies %s ahead of the system clock",
             static_cast<long long>(shard), FormatDuration(static_cast<int64_t>(wait.gap_ms)).c_str());
    Raise(ErrorKind::kClockRegression, message,
          "The shard's IDs were made up to that time, here or on the server that held the shard before (a schema "
          "moved with citus_schema_move): IDs made here before the clock passes it could repeat them.",
          "Check the system clock of this server. IDs resume by themselves once it passes the mark; "
          "idgen.max_clock_regression is the largest gap that idgen waits out instead of refusing.");
  }
  if (wait.kind == protocol::Wait::kWait) WaitForClock(static_cast<int64_t>(wait.until_ms) * 1000000);
}

int64_t NextInstagramId(int64_t shard) { return Next<kFamilyInstagram>(shard, false); }

int64_t InstagramMs(int64_t id) {
  return settings::EpochMs(kFamilyInstagram) + (id >> kInstagram.time_shift()) * kInstagram.unit_ms;
}

// A shard bound to a schema (idgen.bind_instagram_shard) is made where its schema lives, under its
// marks, or refused (instagram_shard.cpp).
IDGEN_FUNCTION(idgen_instagram_id) {
  const int64 shard = PG_GETARG_INT64(0);
  int64_t id;
  if (instagram_shard::MakeBoundId(shard, 0, &id)) PG_RETURN_INT64(id);
  return NextId<kFamilyInstagram>(shard, false);
}
IDGEN_FUNCTION(idgen_instagram_id_not_before) {
  const int64 shard = PG_GETARG_INT64(0);
  const int64_t not_before_us = UnixUs(PG_GETARG_TIMESTAMPTZ(1));
  CheckShard(kFamilyInstagram, *kLayouts[kFamilyInstagram], shard);
  // The first millisecond at or after the instant.
  const int64_t not_before_ms = not_before_us / 1000 + (not_before_us % 1000 > 0 ? 1 : 0);
  int64_t id;
  if (instagram_shard::MakeBoundId(shard, not_before_ms, &id)) PG_RETURN_INT64(id);
  WaitForShardMark(shard, not_before_ms);
  return NextId<kFamilyInstagram>(shard, false);
}
IDGEN_FUNCTION(idgen_instagram_parse) { return ParseId(kFamilyInstagram, fcinfo); }
IDGEN_FUNCTION(idgen_instagram_min) { return MinId(kFamilyInstagram, fcinfo); }

// idgen.server_instance(): the random name of this run of the server (SharedState::instance), as a
// bigint: what idgen_instagram_shard's mark_server records, so that a server that was not running
// when the mark was written (restarted, or a copy of it) waits for the mark.
IDGEN_FUNCTION(idgen_server_instance) { PG_RETURN_INT64(static_cast<int64>(GeneratorState().state.instance)); }

IDGEN_FUNCTION(idgen_snowflake_id) { return NextId<kFamilySnowflake>(0, true); }
IDGEN_FUNCTION(idgen_snowflake_parse) { return ParseId(kFamilySnowflake, fcinfo); }
IDGEN_FUNCTION(idgen_snowflake_min) { return MinId(kFamilySnowflake, fcinfo); }

IDGEN_FUNCTION(idgen_sonyflake_id) { return NextId<kFamilySonyflake>(0, true); }
IDGEN_FUNCTION(idgen_sonyflake_parse) { return ParseId(kFamilySonyflake, fcinfo); }
IDGEN_FUNCTION(idgen_sonyflake_min) { return MinId(kFamilySonyflake, fcinfo); }

IDGEN_FUNCTION(idgen_js_id) { return NextId<kFamilyJs>(0, true); }
IDGEN_FUNCTION(idgen_js_parse) { return ParseId(kFamilyJs, fcinfo); }
IDGEN_FUNCTION(idgen_js_min) { return MinId(kFamilyJs, fcinfo); }
IDGEN_FUNCTION(idgen_is_js_safe) {
  const int64 value = PG_GETARG_INT64(0);
  PG_RETURN_BOOL(value >= 1 && value <= kJsMaxSafe);
}

IDGEN_FUNCTION(idgen_trace_id) { return NextId<kFamilyTrace>(0, true); }
IDGEN_FUNCTION(idgen_trace_parse) { return ParseId(kFamilyTrace, fcinfo); }
IDGEN_FUNCTION(idgen_trace_min) { return MinId(kFamilyTrace, fcinfo); }

}  // namespace idgen::pg
