// The wall clock, behind an interface so that unit tests freeze it or move it backwards.
#pragma once

#include "core/cpp_only.hpp"

#include <time.h>

#include <cstdint>
#include <string>

namespace idgen {

class Clock {
 public:
  // Nanoseconds since 1970-01-01 00:00:00 UTC.
  virtual int64_t NowNs() = 0;

 protected:
  ~Clock() = default;
};

// The system's real-time clock, read with clock_gettime itself (the vDSO's: no system call), one
// call less than std::chrono::system_clock::now() on every generated value.
class SystemClock final : public Clock {
 public:
  int64_t NowNs() override {
    timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
  }
};

// Floor division, for times before an epoch.
constexpr int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
constexpr int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

// "2046-06-27 17:00:49.497 UTC", for messages (the cores cannot use PostgreSQL's timestamp output).
std::string FormatUtc(int64_t unix_ms);

// A duration in the two largest units that name it, for messages: "250 ms", "10 s", "3 min 20 s",
// "5 h 12 min", "12 days 3 h", "1 year 364 days" (a year is 365 days).
std::string FormatDuration(int64_t ms);

}  // namespace idgen
