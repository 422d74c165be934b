// The state word under many threads at once: every value taken exactly once, each thread's values
// increasing, none behind the clock its call read; the layouts' sequence limit and the decimal
// counters' end under the same race.
#include "core/state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "core/decimal_id.hpp"
#include "fakes.hpp"

namespace idgen {
namespace {

// A clock shared by the threads that moves by itself: each reading is a little later.
struct TickingClock {
  std::atomic<uint64_t> now{7000};
  uint64_t Read() { return now.fetch_add(1, std::memory_order_relaxed) / 7; }
  uint64_t Peek() { return now.load(std::memory_order_relaxed) / 7; }
  void WaitFor(uint64_t tick) {  // a caller that waits: the clock is at tick when it returns
    uint64_t seen = now.load();
    while (seen < tick * 7 && !now.compare_exchange_weak(seen, tick * 7)) {
    }
  }
};

struct Taken {
  uint64_t value;
  uint64_t clock;      // the clock as the call first read it
  uint64_t after;      // the clock when the call returned
  uint64_t wait_tick;  // 0, or the tick it waited for
};

std::vector<std::vector<Taken>> Race(StateWord& word, FamilyStats& stats, const AdvanceRules& rules, int threads,
                                     int per_thread, TickingClock& clock) {
  std::vector<std::vector<Taken>> taken(threads);
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      taken[t].reserve(per_thread);
      for (int i = 0; i < per_thread; ++i) {
        uint64_t first = 0;
        const NextWord next = Advance(
            word, stats, rules,
            [&] {
              const uint64_t now = clock.Read();
              if (first == 0) first = now;
              return now;
            },
            [] { return uint64_t{3}; });
        ASSERT_EQ(next.kind, NextWord::kIssued);
        if (next.wait_tick != 0) clock.WaitFor(next.wait_tick);
        taken[t].push_back(Taken{next.word, first, clock.Peek(), next.wait_tick});
      }
    });
  }
  go = true;
  for (std::thread& th : pool) th.join();
  return taken;
}

void ExpectEveryValueOnceAndNoneBehindItsClock(const std::vector<std::vector<Taken>>& taken,
                                               const AdvanceRules& rules) {
  std::vector<uint64_t> all;
  for (const std::vector<Taken>& one : taken) {
    uint64_t previous = 0;
    for (const Taken& t : one) {
      ASSERT_GT(t.value, previous);  // a thread's values increase
      previous = t.value;
      const uint64_t tick = t.value >> rules.seq_bits;
      ASSERT_GE(tick, t.clock);  // never behind the clock read at the start of the call
      ASSERT_LE(t.value & ((uint64_t{1} << rules.seq_bits) - 1), rules.seq_limit);
      if (t.wait_tick == 0) {
        ASSERT_LE(tick, t.after + rules.max_lead);
      } else {
        ASSERT_EQ(t.wait_tick, tick - rules.max_lead);
      }
      all.push_back(t.value);
    }
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a value was taken twice";
}

TEST(StateWord, SixteenThreadsOnOneUuidv7LikeWordTakeEveryValueOnce) {
  const AdvanceRules rules{4, 15, 4096, 256, false, kAnyRegression, 1000.0 / 4096};
  StateWord word;
  FamilyStats stats;
  TickingClock clock;
  const auto taken = Race(word, stats, rules, 16, 20000, clock);
  ExpectEveryValueOnceAndNoneBehindItsClock(taken, rules);
  EXPECT_EQ(stats.regressions.load(), 0u);
}

TEST(StateWord, SixteenThreadsOnOneLayoutWordTakeEveryValueOnce) {
  // A small sequence (8 values a tick, 6 of them usable) so that ticks run out under the race.
  const AdvanceRules rules{3, 5, 0, 0, true, 5000, 1000.0};
  StateWord word;
  FamilyStats stats;
  TickingClock clock;
  const auto taken = Race(word, stats, rules, 16, 20000, clock);
  ExpectEveryValueOnceAndNoneBehindItsClock(taken, rules);
  EXPECT_GT(stats.waits.load(), 0u);  // the sequence ran out: some waited for the next tick
}

TEST(StateWord, ADecimalCounterEndsOnceUnderARace) {
  std::atomic<uint64_t> state{(uint64_t{7 + 1} << 32) | (decimal_id::kMaxCounter - 1000)};
  std::atomic<int> issued{0}, refused{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t) {
    pool.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        const decimal_id::Next next = decimal_id::Advance(state, 1);
        (next.issued ? issued : refused).fetch_add(1);
        if (next.issued) {
          EXPECT_LE(decimal_id::Decompose(next.id).counter, decimal_id::kMaxCounter);
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(issued.load(), 1000);  // exactly the counters that were left
  EXPECT_EQ(refused.load(), 3000);
}

// A floor (a durable mark read after a restart) of which part is the server's own doing: every gap
// up to that part more than max_regression is ridden out, the layouts waiting for the clock, and
// counted as no regression; a clock further back is refused, and counted as it really stepped
// back; once the clock passes the floor, the allowance is gone. (Issue 29.7.)
TEST(StateWord, AFloorTheServerMadeItselfIsWaitedOutNotCountedAsARegression) {
  const AdvanceRules rules{4, 15, 0, 0, true, 5, 1.0};  // a layout: 16 values a tick, 5 ticks of regression
  const auto take = [&](StateWord& word, FamilyStats& stats, uint64_t now) {
    return Advance(word, stats, rules, [now] { return now; });
  };
  // Raised to tick 1000, of which 10 ticks are the server's own (a lease): the clock at 992 is 8
  // behind, all of it the server's.
  StateWord word;
  FamilyStats stats;
  RaiseTo(word, uint64_t{1000} << 4);
  SetFloor(stats, uint64_t{1000} << 4, uint64_t{10} << 4);
  NextWord next = take(word, stats, 992);
  ASSERT_EQ(next.kind, NextWord::kIssued);
  EXPECT_EQ(next.word >> 4, 1000u);
  EXPECT_EQ(next.wait_tick, 1000u);  // waits for the clock
  EXPECT_EQ(stats.regressions.load(), 0u);
  // The clock at 984 is 16 behind: 1 more than the server's 10 and the 5 allowed: refused, and the
  // gap reported is the part that is not the server's own.
  next = take(word, stats, 984);
  ASSERT_EQ(next.kind, NextWord::kTooFarBehind);
  EXPECT_EQ(next.regression, 6u);
  // Without a floor the same gap is a regression of 14 ticks: refused.
  StateWord plain;
  FamilyStats plain_stats;
  RaiseTo(plain, uint64_t{1000} << 4);
  EXPECT_EQ(take(plain, plain_stats, 986).kind, NextWord::kTooFarBehind);
  // A clock behind by a little more than the server's own part, within the limit: ridden out, and
  // counted as the step back it is.
  StateWord counted;
  FamilyStats counted_stats;
  RaiseTo(counted, uint64_t{1000} << 4);
  SetFloor(counted_stats, uint64_t{1000} << 4, uint64_t{2} << 4);
  next = take(counted, counted_stats, 994);
  ASSERT_EQ(next.kind, NextWord::kIssued);
  EXPECT_EQ(counted_stats.regressions.load(), 1u);
  EXPECT_EQ(counted_stats.max_regression_us.load(), 4u);  // 6 behind, 2 of them the server's
  // Once the clock has passed the floor, a step back is a step back.
  StateWord later;
  FamilyStats later_stats;
  RaiseTo(later, uint64_t{2000} << 4);
  SetFloor(later_stats, uint64_t{1000} << 4, uint64_t{1000} << 4);
  EXPECT_EQ(take(later, later_stats, 1500).kind, NextWord::kTooFarBehind);
}

// The families that carry on (UUIDv7, ns_id) ride out a floor the server made itself by carrying
// on, without counting a regression.
TEST(StateWord, CarryingOnAboveAFloorTheServerMadeIsNoRegression) {
  const AdvanceRules rules{4, 15, 16, 4, false, 100, 1.0};
  StateWord word;
  FamilyStats stats;
  RaiseTo(word, uint64_t{5000} << 4);
  SetFloor(stats, uint64_t{5000} << 4, uint64_t{1000} << 4);
  const NextWord next = Advance(word, stats, rules, [] { return uint64_t{4200}; });
  ASSERT_EQ(next.kind, NextWord::kIssued);
  EXPECT_EQ(next.word >> 4, 5000u);  // carried on above the floor
  EXPECT_EQ(next.wait_tick, 0u);     // without waiting
  EXPECT_EQ(stats.regressions.load(), 0u);
}

}  // namespace
}  // namespace idgen
