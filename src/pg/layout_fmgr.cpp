// SQL functions of the 64-bit layout families: Instagram, Snowflake, Sonyflake, TraceId. Each has
// a generator (<family>_id), a decoder (<family>_parse) and a range-scan bound (<family>_min).
#include <algorithm>

#include "core/layout.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/xact.h"
}

using namespace idgen;
using namespace idgen::pg;

namespace {

const Layout& LayoutOf(Family family) { return *kLayouts[family]; }

Datum NextId(Family family, int64_t node) {
  const Layout& layout = LayoutOf(family);
  if (!Preloaded()) {
    char message[128], detail[256];
    snprintf(message, sizeof message, "idgen must be loaded via shared_preload_libraries to generate %s IDs",
             layout.title);
    snprintf(detail, sizeof detail,
             "%s IDs are kept unique across sessions by state in shared memory, which only a preloaded library has.",
             layout.title);
    Raise(ErrorKind::kPrerequisite, message, detail,
          "Add idgen to shared_preload_libraries in postgresql.conf and restart the server.");
  }
  State& state = CurrentState();
  const std::span<Slot> slots = state.slots(family);
  const layout::Settings settings{EpochMs(family), max_clock_regression_ms};
  for (;;) {
    const layout::Outcome out =
        Guarded([&] { return layout::Next(layout, settings, slots, state.stats[family], TheClock(), node); });
    if (out.issued) {
      CountIssued(family);
      PG_RETURN_INT64(out.id);
    }
    // The sequence of this tick is used up: wait for the next tick, holding nothing, at most 10 ms
    // at a time so that a cancel request is seen.
    pg_usleep(std::min<int64_t>(out.wait_us, 10000));
    CHECK_FOR_INTERRUPTS();
  }
}

Datum ParseId(Family family, FunctionCallInfo fcinfo) {
  const int64 id = PG_GETARG_INT64(0);
  const int64_t epoch = EpochMs(family);
  const int64_t reference_ms = UnixUs(GetCurrentTransactionStartTimestamp()) / 1000;
  const layout::Parts parts = Guarded([&] { return layout::Decompose(LayoutOf(family), epoch, id, reference_ms); });
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) elog(ERROR, "return type must be a row type");
  Datum values[3] = {TimestampTzGetDatum(FromUnixUs(parts.unix_ms * 1000)), Int32GetDatum(static_cast<int32>(parts.node)),
                     Int32GetDatum(static_cast<int32>(parts.seq))};
  bool nulls[3] = {};
  PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

Datum MinId(Family family, FunctionCallInfo fcinfo) {
  const int64_t at = UnixUs(PG_GETARG_TIMESTAMPTZ(0));
  const int64_t epoch = EpochMs(family);
  PG_RETURN_INT64(Guarded([&] { return layout::MinAt(LayoutOf(family), epoch, at); }));
}

}  // namespace

IDGEN_FUNCTION(idgen_instagram_id) { return NextId(kFamilyInstagram, PG_GETARG_INT64(0)); }
IDGEN_FUNCTION(idgen_instagram_parse) { return ParseId(kFamilyInstagram, fcinfo); }
IDGEN_FUNCTION(idgen_instagram_min) { return MinId(kFamilyInstagram, fcinfo); }

IDGEN_FUNCTION(idgen_snowflake_id) { return NextId(kFamilySnowflake, node_id); }
IDGEN_FUNCTION(idgen_snowflake_parse) { return ParseId(kFamilySnowflake, fcinfo); }
IDGEN_FUNCTION(idgen_snowflake_min) { return MinId(kFamilySnowflake, fcinfo); }

IDGEN_FUNCTION(idgen_sonyflake_id) { return NextId(kFamilySonyflake, node_id); }
IDGEN_FUNCTION(idgen_sonyflake_parse) { return ParseId(kFamilySonyflake, fcinfo); }
IDGEN_FUNCTION(idgen_sonyflake_min) { return MinId(kFamilySonyflake, fcinfo); }

IDGEN_FUNCTION(idgen_trace_id) { return NextId(kFamilyTrace, node_id); }
IDGEN_FUNCTION(idgen_trace_parse) { return ParseId(kFamilyTrace, fcinfo); }
IDGEN_FUNCTION(idgen_trace_min) { return MinId(kFamilyTrace, fcinfo); }
