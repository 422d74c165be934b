// UUIDv7 (RFC 9562): 48-bit Unix milliseconds, version 7, 12 bits of sub-millisecond fraction
// (RFC 9562 section 6.2, method 3), variant 0b10, then rand_b: a 4-bit counter (section 6.2,
// method 1, in the leftmost bits of rand_b) and 58 random bits.
//
// The generator's state word holds the 60 time bits and the counter: (ms << 12 | fraction) << 4 |
// counter. Every value handed out is above the previous one, so UUIDs are strictly increasing
// across every process that shares the word. Sixteen UUIDs share one 1/4096 ms step before the
// fraction moves on: 65,536 per millisecond before the time inside the UUIDs runs ahead of the
// clock, and never more than one millisecond ahead (above that rate, callers wait for the clock).
// A clock that steps back by more than that is ridden out: the generator carries on from the word.
#pragma once

#include "core/cpp_only.hpp"

#include <cstdint>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/state.hpp"
#include "core/uuid.hpp"

namespace idgen::uuidv7 {

inline constexpr unsigned kFractionBits = 12;
inline constexpr unsigned kCounterBits = 4;
inline constexpr unsigned kRandomBits = 62 - kCounterBits;  // 58
inline constexpr uint64_t kStepsPerMs = uint64_t{1} << kFractionBits;
inline constexpr int64_t kMaxMs = (int64_t{1} << 48) - 1;  // 10889-08-02 05:31:50.655 UTC

// The state word of the family: time bits above the counter. A word that falls behind the clock
// jumps 256 steps (62.5 us) ahead of it, so that many cores take values with fetch_add and meet at
// a compare-and-swap only every 62.5 us; a value is never returned more than one millisecond ahead
// of the clock (65,536 values per millisecond before that).
inline constexpr uint64_t kJumpSteps = 256;
constexpr AdvanceRules Rules(uint64_t max_regression_steps) {
  return AdvanceRules{
      kCounterBits,        (uint64_t{1} << kCounterBits) - 1, kStepsPerMs, kJumpSteps, false, max_regression_steps,
      1000.0 / kStepsPerMs};
}
inline constexpr AdvanceRules kRules = Rules(kAnyRegression);

// How far ahead of a clock that is fine the word can lie, in steps: the millisecond a UUID may be
// returned ahead of the clock, a step, and a step for every 16 callers that wait beyond it (each
// holds one value). callers: the processes that may generate at once (the server's MaxBackends).
constexpr uint64_t NaturalLeadSteps(uint64_t callers) { return kStepsPerMs + 1 + (callers + 15) / 16; }

// The rules under idgen.max_clock_lead = max_lead_ms (-1: ride out any step back): the word returns
// to the clock only when the clock is behind it by more than max_lead_ms beyond its natural lead,
// so that no value of the setting sends it back from a clock that is fine.
constexpr AdvanceRules RulesFor(int64_t max_lead_ms, uint64_t callers) {
  return max_lead_ms < 0 ? kRules
                         : Rules(static_cast<uint64_t>(max_lead_ms) * kStepsPerMs + NaturalLeadSteps(callers) + 1);
}

// The 60 time bits for an instant: unix_ms in 0..kMaxMs, ns_in_ms in 0..999999. The fraction is
// floor(ns_in_ms * 4096 / 10^6), as RFC 9562 method 3 says.
constexpr uint64_t Ticks(int64_t unix_ms, int64_t ns_in_ms) {
  return (static_cast<uint64_t>(unix_ms) << kFractionBits) |
         static_cast<uint64_t>(ns_in_ms * (int64_t{1} << kFractionBits) / 1000000);
}

// The first nanosecond (since 1970) whose time bits are at least steps: what a caller waits for.
int64_t StepStartNs(uint64_t steps);

// The UUID with these 60 time bits and these 62 bits of rand_b (counter and random).
Uuid Compose(uint64_t time_bits, uint64_t rand_b);

// The 60 time bits of a UUIDv7 (no check of version or variant).
uint64_t TimeBits(const Uuid& id);

// The next UUID of the generator whose state is word, and (more than 65,536 UUIDs in the last
// millisecond) how long to wait before returning it. The mark is the time bits of the UUID.
// shift_steps moves the time written into the UUID (not the state) by that many 1/4096 ms steps:
// idgen.uuidv7(shift interval). A clock more than max_regression_ms behind the word (stepped back,
// or below a durable mark), beyond the word's natural lead (RulesFor), makes the word return to the
// clock: the UUIDs then sort below those made before, and stay unique by their 58 random bits.
Generated<Uuid> Next(StateWord& word, FamilyStats& stats, Clock& clock, RandomPool& pool, long owner,
                     int64_t shift_steps = 0, int64_t max_regression_ms = -1, uint64_t callers = 1);

// A UUID for the instant unix_us (microseconds since 1970), rand_b random.
Uuid At(int64_t unix_us, RandomPool& pool, long owner);

// The smallest UUIDv7 at the instant unix_us: every UUID made at or after it sorts at or above.
Uuid MinAt(int64_t unix_us);

// The instant a UUIDv7 holds, in microseconds since 1970: the latest microsecond whose smallest
// UUIDv7 is at or below it. So it lies in the millisecond of the 48-bit field,
// MinAt(TimeUs(id)) <= id, and TimeUs(At(t)) == t. Throws kBadArgument for another version or
// variant.
int64_t TimeUs(const Uuid& id);

// The 1/4096 ms steps of a shift of unix_us microseconds (rounded toward negative infinity).
int64_t ShiftSteps(int64_t shift_us);

}  // namespace idgen::uuidv7
