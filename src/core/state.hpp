// The state of one coordinated generator is one 64-bit word, (tick << seq_bits) | seq, of the last
// value handed out. Every caller, in every backend, advances it with a compare-and-swap to the
// first value of the clock's tick when the clock has moved past the word, to old + 1 otherwise:
// the word never decreases and never repeats, whatever the clock does. The word lives in shared memory (preloaded, or a named DSM segment) or in the process.
//
// How far the word may run ahead of the clock by its own count is a rule of the family:
// - the 64-bit layouts never run ahead: an exhausted sequence waits for the clock's next tick;
// - UUIDv7 may run up to one millisecond ahead (65,536 values per millisecond before that).
// A clock behind the word by more than that lead was stepped back (or the word was raised to a
// durable mark after a restart): a regression, which the layouts ride out up to a limit and
// UUIDv7 always rides out, carrying on from the word.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>

namespace idgen {

static_assert(std::atomic<uint64_t>::is_always_lock_free, "the state word must be lock-free");
static_assert(std::atomic<int64_t>::is_always_lock_free, "the state word must be lock-free");

// One state word, alone on its cache line.
struct alignas(64) StateWord {
  std::atomic<uint64_t> value{0};
};

inline constexpr int64_t kNoEpoch = std::numeric_limits<int64_t>::min();

// Rare events of one family, for idgen.stats, and the epoch its words were last advanced under.
struct FamilyStats {
  std::atomic<uint64_t> waits{0};              // the caller waited for the clock (sequence exhausted, or lead)
  std::atomic<uint64_t> regressions{0};        // calls that found the clock stepped back behind the word
  std::atomic<uint64_t> max_regression_us{0};  // the largest such gap
  std::atomic<uint64_t> max_lead_us{0};        // the furthest a value ran ahead of the clock by its own count
  std::atomic<int64_t> word_epoch_ms{kNoEpoch};  // layouts: the epoch of the last value issued
};

struct AdvanceRules {
  unsigned seq_bits;          // low bits of the word that count within one tick
  uint64_t seq_limit;         // the largest sequence value of a tick (decimal layouts stop short of the bits)
  uint64_t max_lead;          // ticks the word may run ahead of the clock by its own count
  bool ride_out_by_waiting;   // in a regression, wait for the clock (layouts) or carry on (UUIDv7)
  uint64_t max_regression;    // in ticks; a clock further behind the word is refused
  double tick_us;             // the length of one tick, for stats and messages
};

inline constexpr uint64_t kAnyRegression = std::numeric_limits<uint64_t>::max();

struct NextWord {
  enum Kind { kIssued, kWait, kTooFarBehind } kind;
  uint64_t word;        // kIssued: the new state word, the value to build the ID from
  uint64_t wait_tick;   // kWait: the tick to wait for
  uint64_t regression;  // kTooFarBehind: how many ticks the clock is behind the word
};

void RecordRegression(FamilyStats& stats, uint64_t regression_ticks, const AdvanceRules& rules) noexcept;
void RecordLead(FamilyStats& stats, uint64_t lead_ticks, const AdvanceRules& rules) noexcept;

// now_ticks() reads the clock, in ticks. It is read after the word, and again after every failed
// compare-and-swap, so a clock reading that is behind the word is a step back of the clock (or a
// raised mark), never a race with another backend. A tick that the clock opens starts its sequence
// at first_seq (0, or a random start), at most rules.seq_limit; past the limit, the sequence
// moves on to the next tick.
template <typename NowTicks>
NextWord Advance(StateWord& state, FamilyStats& stats, const AdvanceRules& rules, NowTicks now_ticks,
                 uint64_t first_seq = 0) {
  const uint64_t seq_mask = (uint64_t{1} << rules.seq_bits) - 1;
  uint64_t old = state.value.load(std::memory_order_acquire);
  for (;;) {
    const uint64_t now = now_ticks();
    const uint64_t last = old >> rules.seq_bits;
    const uint64_t regression = last > now ? last - now : 0;
    if (regression > rules.max_regression) return NextWord{NextWord::kTooFarBehind, 0, 0, regression};
    uint64_t next = now > last ? (now << rules.seq_bits) | first_seq : old + 1;
    if ((next & seq_mask) > rules.seq_limit) next = ((next >> rules.seq_bits) + 1) << rules.seq_bits;
    const uint64_t next_tick = next >> rules.seq_bits;
    const bool stepped_back = regression > rules.max_lead;
    // A new tick ahead of what the clock allows: wait for the clock, unless the family carries on
    // through a step back of the clock.
    if (next_tick > std::max(last, now + rules.max_lead) && (rules.ride_out_by_waiting || !stepped_back)) {
      stats.waits.fetch_add(1, std::memory_order_relaxed);
      return NextWord{NextWord::kWait, 0, next_tick - rules.max_lead, 0};
    }
    if (state.value.compare_exchange_weak(old, next, std::memory_order_acq_rel, std::memory_order_acquire)) {
      if (stepped_back) {
        RecordRegression(stats, regression, rules);
      } else if (next_tick > now) {
        RecordLead(stats, next_tick - now, rules);
      }
      return NextWord{NextWord::kIssued, next, 0, 0};
    }
  }
}

// What one call of a generator's Next gives: a value, and the position its durable mark must
// cover (the tick, the UUIDv7 time bits, the nanoseconds); or, when the state cannot issue yet,
// how long to wait for the clock (0: call again at once, the clock frees room within
// microseconds).
template <typename Value>
struct Generated {
  bool issued;
  Value value;      // when issued
  uint64_t mark;    // when issued
  int64_t wait_us;  // otherwise
};

// The settings of a generator whose values count time from an epoch.
struct EpochSettings {
  int64_t epoch_ms;
  int64_t max_regression_ms;
};

// Raises the word to at least floor (a durable mark read after a restart). Never lowers it.
inline void RaiseTo(StateWord& state, uint64_t floor) noexcept {
  uint64_t old = state.value.load(std::memory_order_acquire);
  while (old < floor && !state.value.compare_exchange_weak(old, floor, std::memory_order_acq_rel)) {
  }
}

}  // namespace idgen
