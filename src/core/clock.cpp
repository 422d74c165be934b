#include "core/clock.hpp"

#include <cstdint>
#include <algorithm>
#include <cstdio>

namespace idgen {

ShortText FormatUtc(int64_t unix_ms) {
  // Civil date from days since 1970-01-01 (proleptic Gregorian, eras of 400 years).
  const int64_t days = FloorDiv(unix_ms, 86400000);
  const int64_t ms_of_day = FloorMod(unix_ms, 86400000);
  const int64_t z = days + 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2);
  ShortText out;
  std::snprintf(out.text, sizeof out.text, "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%03lld UTC",
                static_cast<long long>(year), static_cast<long long>(month), static_cast<long long>(day),
                static_cast<long long>(ms_of_day / 3600000), static_cast<long long>(ms_of_day / 60000 % 60),
                static_cast<long long>(ms_of_day / 1000 % 60), static_cast<long long>(ms_of_day % 1000));
  return out;
}

ShortText FormatDuration(int64_t ms) {
  ShortText out;
  out.text[0] = '\0';
  size_t used = 0;
  const auto append = [&](const char* part) {
    const int n = std::snprintf(out.text + used, sizeof out.text - used, "%s", part);
    if (n > 0) used = std::min(sizeof out.text - 1, used + static_cast<size_t>(n));
  };
  if (ms < 0) {
    append("-");
    ms = ms == INT64_MIN ? INT64_MAX : -ms;
  }
  struct Unit {
    int64_t ms;
    const char* one;
    const char* many;
  };
  static constexpr Unit kUnits[] = {{365 * 86400000LL, "year", "years"},
                                    {86400000, "day", "days"},
                                    {3600000, "h", "h"},
                                    {60000, "min", "min"},
                                    {1000, "s", "s"},
                                    {1, "ms", "ms"}};
  int named = 0;
  for (const Unit& unit : kUnits) {
    const int64_t count = ms / unit.ms;
    if (count == 0 && (named == 0 ? unit.ms != 1 : true)) {
      if (named > 0) break;  // two units, the second one empty: the first says it
      continue;
    }
    char part[40];
    std::snprintf(part, sizeof part, "%s%lld %s", named > 0 ? " " : "", static_cast<long long>(count),
                  count == 1 ? unit.one : unit.many);
    append(part);
    ms -= count * unit.ms;
    if (++named == 2) break;
  }
  return out;
}

}  // namespace idgen
