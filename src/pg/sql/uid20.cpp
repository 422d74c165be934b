// SQL functions of the 20-digit decimal UIDs: idgen.uid20(), idgen.uid20_numeric(),
// idgen.uid20_sec(), and their decoders.
#include "core/uid20.hpp"
#include "pg/effects/generator.hpp"
#include "pg/guard.hpp"
#include "pg/effects/mark.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "utils/numeric.h"
}

namespace idgen::pg {

namespace {

const uid20::Variant& VariantOf(Family family) { return family == kFamilyUid20 ? uid20::kMillis : uid20::kSeconds; }

uid20::Value NextValue(Family family) {
  const uid20::Variant& variant = VariantOf(family);
  const StateRef ref = GeneratorState();
  CheckCanGenerate(family, variant.title, ref);
  const EpochSettings s{settings::EpochMs(family), settings::max_clock_regression_ms};
  StateWord& word = ref.state.words(family)[0];
  const auto callers = static_cast<uint64_t>(MaxBackends);
  return Generate(family, ref, [&] {
    return uid20::Next(variant, s, word, ref.state.stats[family], WallClock(), BackendRandom(), MyProcPid,
                       settings::uid20_server, callers);
  });
}

Datum BigintOf(Family family, uid20::Value value) {
  const int64_t epoch = settings::EpochMs(family);
  PG_RETURN_INT64(Guarded([&] { return uid20::ToBigint(VariantOf(family), epoch, value); }));
}

Datum NumericOf(uid20::Value value) {
  const auto digits = uid20::FormatDigits(value);
  return DirectFunctionCall3(numeric_in, CStringGetDatum(pnstrdup(digits.data, digits.size)),
                             ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

Datum Parse(Family family, FunctionCallInfo fcinfo) {
  const char* text = DatumGetCString(DirectFunctionCall1(numeric_out, PG_GETARG_DATUM(0)));
  const int64_t epoch = settings::EpochMs(family);
  const uid20::Parts parts =
      Guarded([&] { return uid20::Decompose(VariantOf(family), epoch, std::string_view(text)); });
  const Datum values[3] = {TimestampTzGetDatum(FromUnixUs(parts.unix_ms * 1000)),
                           Int32GetDatum(static_cast<int32>(parts.seq)), Int32GetDatum(parts.server)};
  return RowDatum(fcinfo, values, 3);
}

}  // namespace

IDGEN_FUNCTION(idgen_uid20) { return BigintOf(kFamilyUid20, NextValue(kFamilyUid20)); }
IDGEN_FUNCTION(idgen_uid20_numeric) { return NumericOf(NextValue(kFamilyUid20)); }
IDGEN_FUNCTION(idgen_uid20_parse) { return Parse(kFamilyUid20, fcinfo); }
IDGEN_FUNCTION(idgen_uid20_sec) { return BigintOf(kFamilyUid20Sec, NextValue(kFamilyUid20Sec)); }
IDGEN_FUNCTION(idgen_uid20_sec_parse) { return Parse(kFamilyUid20Sec, fcinfo); }

}  // namespace idgen::pg
