// DecimalId: legible decimal IDs, counter * 10^10 + generator_id * 10^5 + launch_id, read as
// c...cggggglllll (14150009200065 = counter 1415, generator 92, launch 65). The counter runs from
// 1 to 922,337,202, so that the generator keeps its full 0..99,999 and the ID stays <= 2^63 - 1;
// generator ids come from a persistent counter and are never reused; the launch id (1..99,999, 0 in
// tests) is deployment configuration.
//
// One generator is the state word of one database of the server, (generator_id + 1) << 32 |
// counter, shared by every session: each ID of a generator is greater than the one before
// ("sharded monotonicity"), and two sessions never make the same ID. A generator whose counter runs
// out, and every start of the server, takes a new generator id.
#pragma once

#include "core/cpp_only.hpp"

#include <atomic>
#include <cstdint>

namespace idgen::decimal_id {

inline constexpr int64_t kMaxCounter = 922337202;
inline constexpr int64_t kMaxGenerator = 99999;
inline constexpr int64_t kMaxLaunch = 99999;
inline constexpr int64_t kCounterUnit = 10000000000;  // 10^10
inline constexpr int64_t kGeneratorUnit = 100000;     // 10^5
// Generator ids a promoted standby skips: its primary may have taken some that had not reached it.
inline constexpr uint64_t kFailoverSkip = 10;

struct Parts {
  int64_t counter;
  int64_t generator_id;
  int64_t launch_id;
};

// The ID of these fields; kNumericOutOfRange for a field outside its range.
int64_t Compose(const Parts& parts);

// The fields of an ID; kBadArgument for a negative ID or a counter of 0, kNumericOutOfRange for a
// counter above 922,337,202.
Parts Decompose(int64_t id);

// kBadArgument unless 0 <= launch_id <= 99,999.
void CheckLaunch(int64_t launch_id);

struct Next {
  bool issued;  // false: the generator has no id yet, or its counter ran out: install a new one
  int64_t id;
  uint64_t seen;  // when not issued: the state to install over
};

// The next ID of the generator whose state is state.
Next Advance(std::atomic<uint64_t>& state, int64_t launch_id);

// Installs generator_id, its counter at 0, if the state is still seen (false: another session did).
bool Install(std::atomic<uint64_t>& state, uint64_t seen, int64_t generator_id);

}  // namespace idgen::decimal_id
