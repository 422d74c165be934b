// The state of one coordinated generator is one 64-bit word, (tick << seq_bits) | seq, of the last
// value taken. Every caller, in every backend, takes the next value with one fetch_add, and jumps
// the word to the clock with one compare-and-swap when it finds the word behind the clock (Advance,
// below): the word never decreases and never repeats, whatever the clock does, and many cores on one
// word never queue behind a compare-and-swap loop. The word lives in shared memory (preloaded, or a
// named DSM segment) or in the process.
//
// How far a value may lie ahead of the clock is a rule of the family:
// - the 64-bit layouts and UID20 never run ahead: an exhausted sequence waits for the clock's next
//   tick;
// - UUIDv7 and ns_id jump 62.5 us ahead of the clock when they catch up with it, and never return a
//   value more than one millisecond ahead.
// A clock behind the word by more than that lead was stepped back (or the word was raised to a
// durable mark after a restart): a regression, which the layouts ride out up to a limit and refuse
// beyond, and which UUIDv7 and ns_id ride out by carrying on from the word, up to a limit beyond
// which they return to the clock.
#pragma once

#include "core/cpp_only.hpp"

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
  std::atomic<uint64_t> waits{0};                // the caller waited for the clock (sequence exhausted, or lead)
  std::atomic<uint64_t> regressions{0};          // calls that found the clock stepped back behind the word
  std::atomic<uint64_t> max_regression_us{0};    // the largest such gap
  std::atomic<uint64_t> max_lead_us{0};          // the furthest a value ran ahead of the clock by its own count
  std::atomic<int64_t> word_epoch_ms{kNoEpoch};  // layouts: the epoch of the last value issued
  // The floor the words were raised to after a restart or a promotion (a durable mark), and how much
  // of the gap between it and the clock the server made itself (the lease it writes ahead of the
  // values, the failover margin): in state-word units (tick << seq_bits). While the clock is behind
  // the floor, a gap up to that much more than the limit is ridden out (the layouts wait for the
  // clock, UUIDv7 and ns_id carry on), and it is no regression: a clock that stepped back is.
  std::atomic<uint64_t> floor_word{0};
  std::atomic<uint64_t> self_made_words{0};
};

// Sets the floor of a family (FamilyStats::floor_word): every word raised to floor_word, of which
// self_made_words the server made itself. floor_word 0: none (restart_at_clock, a fresh state).
inline void SetFloor(FamilyStats& stats, uint64_t floor_word, uint64_t self_made_words) noexcept {
  stats.self_made_words.store(self_made_words, std::memory_order_relaxed);
  stats.floor_word.store(floor_word, std::memory_order_release);
}

struct AdvanceRules {
  unsigned seq_bits;         // low bits of the word that count within one tick
  uint64_t seq_limit;        // the largest sequence value of a tick (decimal layouts stop short of the bits)
  uint64_t max_lead;         // ticks a value may lie ahead of the clock by its own count when it is returned
  uint64_t jump_lead;        // a word behind the clock jumps to the clock plus this many ticks (<= max_lead)
  bool ride_out_by_waiting;  // the clock behind the word: wait for it (layouts), or carry on (UUIDv7, ns_id)
  uint64_t max_regression;   // in ticks: a clock further behind the word is refused (layouts), or the
                             // word returns to the clock (the families that carry on)
  double tick_us;            // the length of one tick, for stats and messages
};

inline constexpr uint64_t kAnyRegression = std::numeric_limits<uint64_t>::max();

struct NextWord {
  enum Kind { kIssued, kTooFarBehind } kind;
  uint64_t word;        // kIssued: the value taken, the one to build the ID from
  uint64_t wait_tick;   // kIssued: 0, or the clock's tick to wait for before the value may be returned
  uint64_t regression;  // kTooFarBehind: ticks the clock is behind the word; kIssued: ticks it was
                        // behind when the word returned to the clock (0: it did not)
};

void RecordRegression(FamilyStats& stats, uint64_t regression_ticks, const AdvanceRules& rules) noexcept;
void RecordLead(FamilyStats& stats, uint64_t lead_ticks, const AdvanceRules& rules) noexcept;

// Takes the next value of a state word. now_ticks() reads the clock, in ticks: once per call, and
// once more in the rare case where the word lies so far ahead of that reading that the clock may
// have stepped back (the caller may have been descheduled since it read the clock: a fresh reading
// tells the two apart).
//
// The common case is one fetch_add: the word's next value, reserved for this caller alone, so that
// many cores on one word never retry a compare-and-swap against each other. Only a word behind the
// clock jumps: one compare-and-swap to (now + jump_lead) << seq_bits | first_seq(), which every
// caller that finds the word behind tries and one wins; the others take the next value above the
// winner's. So a value is never behind the clock as read at the start of the call, and the word
// never decreases (but when a family that carries on returns to the clock, below).
//
// The value may lie ahead of the clock: past a tick's last sequence value (on to the next tick),
// by jump_lead, or because the clock stepped back. Ahead by more than max_lead, the caller waits
// until the clock reaches wait_tick before returning it; a family that carries on through a step
// back does not wait for its own word. A clock further behind the word than max_regression: the
// layouts refuse (kTooFarBehind, nothing taken); the families that carry on move the word back to
// the clock (their random bits keep them unique).
template <typename NowTicks, typename FirstSeq>
NextWord Advance(StateWord& state, FamilyStats& stats, const AdvanceRules& rules, NowTicks now_ticks,
                 FirstSeq first_seq) {
  const uint64_t seq_mask = (uint64_t{1} << rules.seq_bits) - 1;
  uint64_t now = now_ticks();
  uint64_t old = state.value.load(std::memory_order_acquire);
  // Values taken by callers that wait can put the word a little past the lead (a tick, or a few
  // steps); further than that, the clock is behind the word: it stepped back, or the word was
  // raised to a durable mark.
  const auto behind = [&](uint64_t tick) { return tick > now + rules.max_lead + rules.jump_lead + 1; };
  if (behind(old >> rules.seq_bits)) now = now_ticks();
  const uint64_t last = old >> rules.seq_bits;  // the word's tick when this call began
  // The part of a gap that the server made itself (a floor the clock has not reached yet): ridden
  // out on top of max_regression, and no regression.
  const auto self_made = [&] {
    const uint64_t floor = stats.floor_word.load(std::memory_order_acquire) >> rules.seq_bits;
    return floor > now ? stats.self_made_words.load(std::memory_order_relaxed) >> rules.seq_bits : uint64_t{0};
  };
  if (last > now && last - now > rules.max_regression && rules.max_regression != kAnyRegression) {
    const uint64_t own = self_made();
    const uint64_t limit = rules.max_regression + own;
    if (last - now > limit) {
      if (rules.ride_out_by_waiting) return NextWord{NextWord::kTooFarBehind, 0, 0, last - now - own};
      const uint64_t back = ((now + rules.jump_lead) << rules.seq_bits) | first_seq();
      while ((old >> rules.seq_bits) > now + limit) {
        if (state.value.compare_exchange_weak(old, back, std::memory_order_acq_rel, std::memory_order_acquire)) {
          RecordRegression(stats, last - now - own, rules);
          return NextWord{NextWord::kIssued, back, 0, last - now};
        }
      }
    }
  }
  uint64_t v = state.value.fetch_add(1, std::memory_order_acq_rel) + 1;
  for (;;) {
    const uint64_t tick = v >> rules.seq_bits;
    uint64_t target;
    if ((v & seq_mask) > rules.seq_limit) {
      target = (tick + 1) << rules.seq_bits;  // past the tick's last sequence value: the next tick
    } else if (tick < now) {
      target = ((now + rules.jump_lead) << rules.seq_bits) | first_seq();  // behind the clock: jump
    } else {
      break;
    }
    uint64_t expected = v;
    if (state.value.compare_exchange_strong(expected, target, std::memory_order_acq_rel, std::memory_order_acquire)) {
      v = target;
    } else {
      v = state.value.fetch_add(1, std::memory_order_acq_rel) + 1;
    }
  }
  const uint64_t tick = v >> rules.seq_bits;
  // Rare: a value past the lead, or a word that was past it. The caller may have been descheduled
  // since it read the clock; whether to wait, and what the stats say, go by a fresh reading.
  if (tick > now + rules.max_lead || behind(last)) now = std::max(now, now_ticks());
  const bool stepped_back = behind(last);
  if (stepped_back) {
    const uint64_t own = self_made();
    if (last - now > own) RecordRegression(stats, last - now - own, rules);
  }
  if (tick > now + rules.max_lead && (rules.ride_out_by_waiting || !stepped_back)) {
    stats.waits.fetch_add(1, std::memory_order_relaxed);
    return NextWord{NextWord::kIssued, v, tick - rules.max_lead, 0};
  }
  if (tick > now && !stepped_back) RecordLead(stats, tick - now, rules);  // returned ahead of the clock
  return NextWord{NextWord::kIssued, v, 0, 0};
}

template <typename NowTicks>
NextWord Advance(StateWord& state, FamilyStats& stats, const AdvanceRules& rules, NowTicks now_ticks) {
  return Advance(state, stats, rules, now_ticks, [] { return uint64_t{0}; });
}

// What one call of a generator's Next gives: a value, the position its durable mark must cover
// (the tick, the UUIDv7 time bits, the nanoseconds), and the instant (Unix nanoseconds) the clock
// must reach before the caller returns it (0: return it at once). The value is the caller's alone
// either way.
template <typename Value>
struct Generated {
  Value value;
  uint64_t mark;
  int64_t wait_until_ns;
};

// The settings of a generator whose values count time from an epoch.
struct EpochSettings {
  int64_t epoch_ms;
  int64_t max_regression_ms;
};

// Raises an atomic value to at least floor; never lowers it.
inline void RaiseAtomic(std::atomic<uint64_t>& value, uint64_t floor) noexcept {
  uint64_t old = value.load(std::memory_order_acquire);
  while (old < floor && !value.compare_exchange_weak(old, floor, std::memory_order_acq_rel)) {
  }
}

// Raises the word to at least floor (a durable mark read after a restart). Never lowers it.
inline void RaiseTo(StateWord& state, uint64_t floor) noexcept { RaiseAtomic(state.value, floor); }

}  // namespace idgen
