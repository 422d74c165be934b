// UUIDv7 (RFC 9562): 48-bit Unix milliseconds, version 7, 12 bits of sub-millisecond fraction
// (RFC 9562 section 6.2, method 3), variant 0b10, 62 random bits.
//
// The generator's state word holds the 60 time bits (milliseconds << 12 | fraction): every value
// handed out is above the previous one, so UUIDs are strictly increasing across every process that
// shares the word. When many are made within one 1/4096 ms, the fraction counts on ahead of the
// clock by as many steps, and the clock catches up.
#pragma once

#include <cstdint>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/state.hpp"
#include "core/uuid.hpp"

namespace idgen::uuidv7 {

inline constexpr unsigned kFractionBits = 12;
inline constexpr int64_t kMaxMs = (int64_t{1} << 48) - 1;  // 10889-08-02 05:31:50.655 UTC

// The 60 time bits for an instant: unix_ms in 0..kMaxMs, ns_in_ms in 0..999999.
constexpr uint64_t Ticks(int64_t unix_ms, int64_t ns_in_ms) {
  return (static_cast<uint64_t>(unix_ms) << kFractionBits) |
         static_cast<uint64_t>(ns_in_ms * (1 << kFractionBits) / 1000000);
}

// The UUID with these time bits and the low 62 bits of random.
Uuid Compose(uint64_t ticks, uint64_t random);

// The next UUID of the generator whose state is slot.
Uuid Next(Slot& slot, Stats& stats, Clock& clock, RandomPool& pool, long owner);

// A UUID for the instant unix_us (microseconds since 1970), random bits still random.
Uuid At(int64_t unix_us, RandomPool& pool, long owner);

// The smallest UUIDv7 at the instant unix_us: every UUID made at or after it sorts at or above.
Uuid MinAt(int64_t unix_us);

// The instant a UUIDv7 holds, in microseconds since 1970 (the fraction rounded to the nearest
// microsecond). Throws kBadArgument for a UUID of another version or variant.
int64_t TimeUs(const Uuid& id);

}  // namespace idgen::uuidv7
