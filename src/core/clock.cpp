#include "core/clock.hpp"

#include <cstdint>
#include <cstdio>

namespace idgen {

std::string FormatUtc(int64_t unix_ms) {
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
  char text[96];
  std::snprintf(text, sizeof text, "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%03lld UTC", static_cast<long long>(year),
                static_cast<long long>(month), static_cast<long long>(day), static_cast<long long>(ms_of_day / 3600000),
                static_cast<long long>(ms_of_day / 60000 % 60), static_cast<long long>(ms_of_day / 1000 % 60),
                static_cast<long long>(ms_of_day % 1000));
  return text;
}

std::string FormatDuration(int64_t ms) {
  if (ms < 0) return "-" + FormatDuration(ms == INT64_MIN ? INT64_MAX : -ms);
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
  std::string text;
  int named = 0;
  for (const Unit& unit : kUnits) {
    const int64_t count = ms / unit.ms;
    if (count == 0 && (named == 0 ? unit.ms != 1 : true)) {
      if (named > 0) break;  // two units, the second one empty: the first says it
      continue;
    }
    if (!text.empty()) text += ' ';
    text += std::to_string(count) + ' ' + (count == 1 ? unit.one : unit.many);
    ms -= count * unit.ms;
    if (++named == 2) break;
  }
  return text;
}

}  // namespace idgen
