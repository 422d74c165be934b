// The wall clock, behind an interface so that unit tests freeze it or move it backwards.
#pragma once

#include "core/cpp_only.hpp"

#include <time.h>

#include <cstdint>
#include <string>
#include <string_view>

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

// Text of a fixed size, which allocates nothing: what C code around PostgreSQL (where an exception
// must not be thrown, and a std::string could throw bad_alloc) formats into its messages.
struct ShortText {
  char text[96];
  const char* c_str() const { return text; }
  operator std::string() const { return text; }  // (the cores' messages, in the C++ zone)
  friend bool operator==(const ShortText& a, std::string_view b) { return std::string_view(a.text) == b; }
};

// "2046-06-27 17:00:49.497 UTC", for messages (the cores cannot use PostgreSQL's timestamp output).
ShortText FormatUtc(int64_t unix_ms);

// A duration in the two largest units that name it, for messages: "250 ms", "10 s", "3 min 20 s",
// "5 h 12 min", "12 days 3 h", "1 year 364 days" (a year is 365 days).
ShortText FormatDuration(int64_t ms);

// The same into a std::string, for the cores' messages (in the C++ zone).
inline std::string operator+(const std::string& a, const ShortText& b) { return a + b.text; }
inline std::string operator+(const char* a, const ShortText& b) { return std::string(a) + b.text; }
inline std::string operator+(const ShortText& a, const char* b) { return std::string(a.text) + b; }
inline std::string operator+(const ShortText& a, const std::string& b) { return a.text + b; }

}  // namespace idgen
