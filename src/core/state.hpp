// The state of one coordinated generator is one 64-bit word, (tick << seq_bits) | seq, of the last
// value handed out. Every caller, in every backend, advances it with a compare-and-swap to
// max(old + 1, now << seq_bits): the word never decreases and never repeats, whatever the clock
// does. With the library preloaded the word lives in shared memory; otherwise in the process.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>

namespace idgen {

static_assert(std::atomic<uint64_t>::is_always_lock_free, "the state word must be lock-free");

// One state word, alone on its cache line.
struct alignas(64) Slot {
  std::atomic<uint64_t> word{0};
};

// Rare events of one family, for idgen.stats.
struct Stats {
  std::atomic<uint64_t> waits{0};              // sequence exhausted: the caller waited for the next tick
  std::atomic<uint64_t> regressions{0};        // calls that found the clock behind the last issued tick
  std::atomic<uint64_t> max_regression_us{0};  // the largest such gap
};

struct Policy {
  unsigned seq_bits;         // low bits of the word that count within one tick
  bool wait_when_exhausted;  // true: never run ahead of the clock; false: move on to the next tick
  uint64_t max_regression;   // in ticks; a clock further behind the last issued tick is an error
  double tick_us;            // the length of one tick, for stats and messages
};

struct Step {
  bool issued;
  uint64_t word;       // when issued: the new state word, the value to build the ID from
  uint64_t wait_tick;  // when not issued: the tick to wait for
};

[[noreturn]] void ThrowClockRegression(uint64_t regression_ticks, const Policy& policy);
void RecordRegression(Stats& stats, uint64_t regression_ticks, const Policy& policy) noexcept;

// now_ticks() reads the clock, in ticks. It is read after the word, and again after every failed
// compare-and-swap, so a clock reading that is behind the word is a real step back of the clock,
// not a race with another backend.
template <typename NowTicks>
Step Advance(Slot& slot, Stats& stats, const Policy& policy, NowTicks now_ticks) {
  uint64_t old = slot.word.load(std::memory_order_acquire);
  for (;;) {
    const uint64_t now = now_ticks();
    const uint64_t last = old >> policy.seq_bits;
    const uint64_t regression = last > now ? last - now : 0;
    if (regression > policy.max_regression) ThrowClockRegression(regression, policy);
    const uint64_t next = std::max(old + 1, now << policy.seq_bits);
    if (policy.wait_when_exhausted && (next >> policy.seq_bits) > std::max(last, now)) {
      stats.waits.fetch_add(1, std::memory_order_relaxed);
      return Step{false, 0, next >> policy.seq_bits};
    }
    if (slot.word.compare_exchange_weak(old, next, std::memory_order_acq_rel, std::memory_order_acquire)) {
      if (regression != 0) RecordRegression(stats, regression, policy);
      return Step{true, next, 0};
    }
  }
}

inline constexpr uint64_t kAnyRegression = std::numeric_limits<uint64_t>::max();

}  // namespace idgen
