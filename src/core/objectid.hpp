// MongoDB ObjectId: 4-byte big-endian Unix seconds, a 5-byte random value unique to the process,
// a 3-byte big-endian counter that starts at a random value and wraps.
//
// The process value and the counter's start are drawn in each process after fork, from the
// CSPRNG. After 2^24 IDs under one process value the counter would come back to its start, so the
// generator draws a new process value then: one process never repeats an ID, whatever the clock
// does and whatever instants backfills ask for.
#pragma once

#include "core/cpp_only.hpp"

#include <array>
#include <cstdint>
#include <string_view>

#include "core/clock.hpp"
#include "core/random.hpp"

namespace idgen::objectid {

struct ObjectId {
  std::array<uint8_t, 12> bytes{};
  friend bool operator==(const ObjectId&, const ObjectId&) = default;
  friend auto operator<=>(const ObjectId&, const ObjectId&) = default;
};

inline constexpr int64_t kMaxSeconds = 0xFFFFFFFF;  // 2106-02-07 06:28:15 UTC
inline constexpr uint32_t kCounterSpan = 1u << 24;

// The generator state of one process (plain data).
struct Generator {
  long owner = 0;          // the process the state was drawn for
  uint8_t unique[5] = {};  // the process value
  uint32_t counter = 0;    // the next counter value, 24 bits
  uint32_t remaining = 0;  // counter values left under this process value
};

// A new ObjectId at the clock's second.
ObjectId Next(Generator& generator, Clock& clock, RandomPool& pool, long owner);

// A new ObjectId at the second of unix_us (backfills): the process value and counter as Next.
ObjectId At(Generator& generator, int64_t unix_us, RandomPool& pool, long owner);

// The smallest ObjectId at the second of unix_us.
ObjectId MinAt(int64_t unix_us);

// The seconds of unix_us; kDatetimeOutOfRange outside 1970-01-01 .. 2106-02-07 06:28:15 UTC.
uint32_t SecondsAt(int64_t unix_us);

// The instant an ObjectId holds, in microseconds since 1970 (its seconds are unsigned): the start
// of its second, so MinAt(TimeUs(id)) <= id and TimeUs(At(t)) == t for every whole second t.
int64_t TimeUs(const ObjectId& id);

// 24 lowercase hex digits.
void Format(const ObjectId& id, char (&out)[24]);

// Exactly 24 hex digits, either case. Never throws.
bool Parse(std::string_view text, ObjectId& out);

}  // namespace idgen::objectid
