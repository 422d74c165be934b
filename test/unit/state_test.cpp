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

}  // namespace
}  // namespace idgen
