#include "core/layout.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen::layout {
namespace {

using testing::FakeClock;
using testing::KindOf;

constexpr int64_t kDay = 86400000;

struct Generator : testing::GeneratorInputs {
  explicit Generator(const Layout& l, int64_t max_regression_ms = 5000)
      : layout(l), settings{l.epoch_ms, max_regression_ms} {}
  const Layout& layout;
  EpochSettings settings;
  uint64_t callers = 1;  // the processes that may generate at once
  Generated<int64_t> Next(int64_t node = 0) {
    return layout::Next(layout, settings, {&word, 1}, stats, clock, node, callers);
  }
  // An ID that may be returned at once.
  int64_t IssueId(int64_t node = 0) {
    const Generated<int64_t> out = Next(node);
    EXPECT_EQ(out.wait_until_ns, 0);
    return out.value;
  }
};

TEST(FormatUtc, KnownInstants) {
  EXPECT_EQ(FormatUtc(0), "1970-01-01 00:00:00.000 UTC");
  EXPECT_EQ(FormatUtc(kInstagram.epoch_ms), "2011-08-24 21:07:01.721 UTC");
  EXPECT_EQ(FormatUtc(kSnowflake.epoch_ms), "2010-11-04 01:42:54.657 UTC");
  EXPECT_EQ(FormatUtc(kSonyflake.epoch_ms), "2014-09-01 00:00:00.000 UTC");
  EXPECT_EQ(FormatUtc(951782400000), "2000-02-29 00:00:00.000 UTC");
  EXPECT_EQ(FormatUtc(-1), "1969-12-31 23:59:59.999 UTC");
}

// ---- the published vectors -------------------------------------------------------------------

TEST(Instagram, PublishedIdDecodes) {
  const Parts parts = Decompose(kInstagram, kInstagram.epoch_ms, 2384288897814875714, 0);
  EXPECT_EQ(FormatUtc(parts.unix_ms), "2020-08-26 13:43:27.313 UTC");
  EXPECT_EQ(parts.node, 2675);
  EXPECT_EQ(parts.seq, 578);
  EXPECT_EQ(Compose(kInstagram, static_cast<uint64_t>(parts.unix_ms - kInstagram.epoch_ms), 2675, 578),
            2384288897814875714);
}

TEST(Instagram, TheSignBitEndsTheLayoutIn2046) {
  EXPECT_EQ(kInstagram.max_ticks(), (uint64_t{1} << 40) - 1);
  EXPECT_EQ(FormatUtc(LastMs(kInstagram, kInstagram.epoch_ms)), "2046-06-27 17:00:49.496 UTC");
  const int64_t last = LastMs(kInstagram, kInstagram.epoch_ms);
  EXPECT_GT(Compose(kInstagram, TickAt(kInstagram, kInstagram.epoch_ms, last), 8191, 1023), 0);
  try {
    TickAt(kInstagram, kInstagram.epoch_ms, last + 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDatetimeOutOfRange);
    EXPECT_STREQ(e.what(), "timestamp out of range for Instagram IDs");
    EXPECT_EQ(e.detail(),
              "Instagram IDs hold times from 2011-08-24 21:07:01.721 UTC (the epoch) to 2046-06-27 17:00:49.496 UTC, "
              "when a bigint would turn negative.");
    EXPECT_NE(e.hint().find("idgen.instagram_epoch_ms"), std::string::npos);
  }
  // A later epoch moves the date.
  EXPECT_EQ(FormatUtc(LastMs(kInstagram, kInstagram.epoch_ms + kDay)), "2046-06-28 17:00:49.496 UTC");
}

TEST(Snowflake, PublishedVectorComposes) {
  EXPECT_EQ(Compose(kSnowflake, 1, 33, 0), 4329472);
  const Parts parts = Decompose(kSnowflake, kSnowflake.epoch_ms, 4329472, 0);
  EXPECT_EQ(parts.unix_ms, kSnowflake.epoch_ms + 1);
  EXPECT_EQ(parts.node, 33);
  EXPECT_EQ(parts.seq, 0);
}

TEST(Snowflake, TheTimeFieldRunsOutIn2080) {
  EXPECT_EQ(kSnowflake.max_ticks(), (uint64_t{1} << 41) - 1);
  EXPECT_EQ(FormatUtc(LastMs(kSnowflake, kSnowflake.epoch_ms)), "2080-07-10 17:30:30.208 UTC");
  EXPECT_EQ(KindOf([] { TickAt(kSnowflake, kSnowflake.epoch_ms, LastMs(kSnowflake, kSnowflake.epoch_ms) + 1); }),
            ErrorKind::kDatetimeOutOfRange);
  try {
    TickAt(kSnowflake, kSnowflake.epoch_ms, INT64_MAX);
  } catch (const Error& e) {
    EXPECT_NE(e.detail().find("the end of their 41-bit time field"), std::string::npos) << e.detail();
  }
}

TEST(Sonyflake, FieldOrderIsTimeSequenceMachine) {
  EXPECT_EQ(Compose(kSonyflake, 1, 1, 0), (int64_t{1} << 24) | 1);
  EXPECT_EQ(Compose(kSonyflake, 1, 0, 1), (int64_t{1} << 24) | (1 << 16));
  const Parts parts = Decompose(kSonyflake, kSonyflake.epoch_ms, (int64_t{7} << 24) | (5 << 16) | 300, 0);
  EXPECT_EQ(parts.unix_ms, kSonyflake.epoch_ms + 70);
  EXPECT_EQ(parts.node, 300);
  EXPECT_EQ(parts.seq, 5);
  EXPECT_EQ(FormatUtc(LastMs(kSonyflake, kSonyflake.epoch_ms)), "2188-11-16 03:28:58.879 UTC");
}

TEST(Trace, SecondsWrapEvery388DaysByDesign) {
  const int64_t t = 1767225600000;  // 2026-01-01
  const uint64_t tick = TickAt(kTrace, 0, t);
  const uint64_t period = uint64_t{1} << 25;
  EXPECT_EQ(Compose(kTrace, tick, 9, 1), Compose(kTrace, tick + period, 9, 1));
  // Decoding picks the latest instant no later than a day after the reference.
  const int64_t id = Compose(kTrace, tick, 9, 1);
  EXPECT_EQ(Decompose(kTrace, 0, id, t).unix_ms, t);
  EXPECT_EQ(Decompose(kTrace, 0, id, t + 300 * kDay).unix_ms, t);
  EXPECT_EQ(Decompose(kTrace, 0, id, t - kDay / 2).unix_ms, t);
  EXPECT_EQ(Decompose(kTrace, 0, id, t + 389 * kDay).unix_ms, t + static_cast<int64_t>(period) * 1000);
  EXPECT_EQ(Decompose(kTrace, 0, id, t).node, 9);
  EXPECT_EQ(Decompose(kTrace, 0, id, t).seq, 1);
}

TEST(Js, EveryIdIsSafeForJavaScript) {
  EXPECT_EQ(Compose(kJs, kJs.max_ticks(), kJs.max_node(), kJs.max_seq()), kJsMaxSafe);  // 2^53 - 1
  EXPECT_EQ(kJs.max_ticks(), (uint64_t{1} << 38) - 1);
  EXPECT_EQ(FormatUtc(LastMs(kJs, kJs.epoch_ms)), "2113-02-08 13:44:29.439 UTC");
  EXPECT_EQ(kJs.max_node(), 31);
  EXPECT_EQ(kJs.max_seq(), 1023u);
  Generator g(kJs);
  g.clock.SetMs(kJs.epoch_ms);
  EXPECT_EQ(g.IssueId(0), 1);  // never 0
  g.clock.SetMs(LastMs(kJs, kJs.epoch_ms));
  EXPECT_LE(g.IssueId(31), kJsMaxSafe);
  g.clock.SetMs(LastMs(kJs, kJs.epoch_ms) + 1);
  EXPECT_EQ(KindOf([&] { g.Next(0); }), ErrorKind::kDatetimeOutOfRange);
  // Found by the fuzzer: a bigint above 2^53 - 1 is no JS-safe ID, not one of a later time.
  EXPECT_EQ(KindOf([] { Decompose(kJs, kJs.epoch_ms, kJsMaxSafe + 1, 0); }), ErrorKind::kBadArgument);
  EXPECT_NO_THROW(Decompose(kJs, kJs.epoch_ms, kJsMaxSafe, 0));
}

TEST(Layouts, EveryPresetRoundTripsItsFields) {
  for (const Layout* l : {&kInstagram, &kSnowflake, &kSonyflake, &kTrace, &kJs}) {
    for (uint64_t tick : {uint64_t{0}, uint64_t{1}, uint64_t{123456789}, l->max_ticks()}) {
      for (int64_t node : {int64_t{0}, int64_t{1}, l->max_node()}) {
        for (uint64_t seq : {uint64_t{0}, uint64_t{1}, l->max_seq()}) {
          const int64_t id = Compose(*l, tick, node, seq);
          ASSERT_GE(id, 0) << l->family;
          const Parts p = Decompose(*l, l->epoch_ms, id, l->epoch_ms + static_cast<int64_t>(tick) * l->unit_ms);
          ASSERT_EQ(p.unix_ms, l->epoch_ms + static_cast<int64_t>(tick) * l->unit_ms) << l->family;
          ASSERT_EQ(p.node, node) << l->family;
          ASSERT_EQ(p.seq, static_cast<int64_t>(seq)) << l->family;
        }
      }
    }
  }
}

// The three promises of a time-ordered family, for every layout: a decoded ID lies in its tick,
// the bound of its decoded time is at or below it, and an ID made at t decodes to t (the start of
// t's tick), for every microsecond of a tick (every 997th for TraceId's one-second ticks).
TEST(Layouts, DecodesLieInTheirTickAboveTheirBoundAndRoundTrip) {
  for (const Layout* l : {&kInstagram, &kSnowflake, &kSonyflake, &kTrace, &kJs}) {
    const int64_t unit_us = l->unit_ms * 1000;
    for (uint64_t tick : {uint64_t{0}, uint64_t{1}, uint64_t{123456789} % l->max_ticks(), l->max_ticks()}) {
      const int64_t start_ms = l->epoch_ms + static_cast<int64_t>(tick) * l->unit_ms;
      for (int64_t node : {int64_t{0}, l->max_node()}) {
        for (uint64_t seq : {uint64_t{0}, l->max_seq()}) {
          const int64_t id = Compose(*l, tick, node, seq);
          const Parts p = Decompose(*l, l->epoch_ms, id, start_ms);
          ASSERT_EQ(p.unix_ms, start_ms) << l->family;
          ASSERT_LE(MinAt(*l, l->epoch_ms, p.unix_ms * 1000), id) << l->family;
        }
      }
      const int64_t step = l->unit_ms == 1000 ? 997 : 1;
      for (int64_t us = 0; us < unit_us; us += step) {
        FakeClock clock;
        clock.ns = (start_ms * 1000 + us) * 1000;
        StateWord word;
        FamilyStats stats;
        const Generated<int64_t> made = layout::Next(*l, EpochSettings{l->epoch_ms, 5000}, {&word, 1}, stats, clock, 1);
        ASSERT_EQ(made.wait_until_ns, 0);
        ASSERT_EQ(made.mark, tick);
        ASSERT_EQ(Decompose(*l, l->epoch_ms, made.value, start_ms).unix_ms, start_ms) << l->family << " " << us;
        ASSERT_EQ(MinAt(*l, l->epoch_ms, start_ms * 1000 + us), Compose(*l, tick, 0, 0)) << l->family << " " << us;
      }
    }
  }
}

TEST(Layouts, NegativeBigintsAreNotIds) {
  EXPECT_EQ(KindOf([] { Decompose(kInstagram, kInstagram.epoch_ms, -1, 0); }), ErrorKind::kBadArgument);
  EXPECT_NO_THROW(Decompose(kInstagram, kInstagram.epoch_ms, INT64_MAX, 0));
}

TEST(Layouts, NodeBounds) {
  for (const Layout* l : {&kInstagram, &kSnowflake, &kSonyflake, &kTrace, &kJs}) {
    EXPECT_EQ(KindOf([l] { CheckNode(*l, -1); }), ErrorKind::kBadArgument);
    EXPECT_NO_THROW(CheckNode(*l, 0));
    EXPECT_NO_THROW(CheckNode(*l, l->max_node()));
    EXPECT_EQ(KindOf([l] { CheckNode(*l, l->max_node() + 1); }), ErrorKind::kBadArgument);
  }
  try {
    CheckNode(kInstagram, 8192);
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "shard 8192 is out of range for Instagram IDs");
    EXPECT_EQ(e.detail(), "Instagram shards are between 0 and 8191.");
  }
  EXPECT_EQ(kInstagram.max_node(), 8191);
  EXPECT_EQ(kSnowflake.max_node(), 1023);
}

TEST(Layouts, MinAtIsTheSmallestIdOfTheTick) {
  const int64_t t = 1767225600123;
  const int64_t min = MinAt(kInstagram, kInstagram.epoch_ms, t * 1000 + 999);
  EXPECT_EQ(min, Compose(kInstagram, static_cast<uint64_t>(t - kInstagram.epoch_ms), 0, 0));
  EXPECT_LT(Compose(kInstagram, static_cast<uint64_t>(t - kInstagram.epoch_ms) - 1, 8191, 1023), min);
  EXPECT_EQ(MinAt(kInstagram, kInstagram.epoch_ms, kInstagram.epoch_ms * 1000), 0);
  EXPECT_EQ(KindOf([] { MinAt(kInstagram, kInstagram.epoch_ms, kInstagram.epoch_ms * 1000 - 1); }),
            ErrorKind::kDatetimeOutOfRange);
  EXPECT_EQ(KindOf([] { MinAt(kInstagram, kInstagram.epoch_ms, INT64_MIN); }), ErrorKind::kDatetimeOutOfRange);
  EXPECT_EQ(KindOf([] { MinAt(kInstagram, kInstagram.epoch_ms, INT64_MAX); }), ErrorKind::kDatetimeOutOfRange);
}

// ---- the generator ---------------------------------------------------------------------------

TEST(Instagram, A1025thIdInOneMillisecondWaitsForTheNext) {
  Generator g(kInstagram);
  const int64_t t = 1767225600000;
  g.clock.SetMs(t);
  std::set<int64_t> ids;
  int64_t previous = 0;
  for (int i = 0; i < 1024; ++i) {
    const int64_t id = g.IssueId(7);
    ASSERT_GT(id, previous);
    previous = id;
    ids.insert(id);
    ASSERT_EQ(Decompose(kInstagram, kInstagram.epoch_ms, id, 0).unix_ms, t);
  }
  // The 1025th is the first of the next millisecond, the caller's once the clock gets there.
  const Generated<int64_t> wait = g.Next(7);
  EXPECT_EQ(wait.wait_until_ns, (t + 1) * 1000000);
  EXPECT_EQ(g.stats.waits.load(), 1u);
  EXPECT_GT(wait.value, previous);
  ids.insert(wait.value);
  const Parts parts = Decompose(kInstagram, kInstagram.epoch_ms, wait.value, 0);
  EXPECT_EQ(parts.unix_ms, t + 1);
  EXPECT_EQ(parts.seq, 0);
  EXPECT_EQ(parts.node, 7);
  g.clock.SetMs(t + 1);  // the wait is over: the next one is returned at once
  const int64_t id = g.IssueId(7);
  EXPECT_EQ(Decompose(kInstagram, kInstagram.epoch_ms, id, 0).seq, 1);
  ids.insert(id);
  EXPECT_EQ(ids.size(), 1026u);
  EXPECT_EQ(g.word.value.load(), (static_cast<uint64_t>(t + 1 - kInstagram.epoch_ms) << 10) | 1);  // tick t+1, seq 1
}

TEST(Snowflake, A4097thIdInOneMillisecondWaitsForTheNext) {
  Generator g(kSnowflake);
  const int64_t t = 1767225600000;
  g.clock.SetMs(t);
  int64_t previous = 0;
  for (int i = 0; i < 4096; ++i) {
    const int64_t id = g.IssueId(33);
    ASSERT_GT(id, previous);
    previous = id;
  }
  const Generated<int64_t> first = g.Next(33);
  EXPECT_EQ(first.wait_until_ns, (t + 1) * 1000000);
  g.clock.ns += 400000;  // still the same millisecond: the next one waits too, for the same instant
  const Generated<int64_t> second = g.Next(33);
  EXPECT_EQ(second.wait_until_ns, (t + 1) * 1000000);
  EXPECT_GT(second.value, first.value);
  g.clock.SetMs(t + 1);
  const int64_t id = g.IssueId(33);
  EXPECT_GT(id, second.value);
  EXPECT_EQ(Decompose(kSnowflake, kSnowflake.epoch_ms, id, 0).unix_ms, t + 1);
}

TEST(Layouts, TheClockReadOnceNeverLetsAnIdLagIt) {
  // Every ID is in the tick of the clock as its call read it, or (a full sequence) in a later tick
  // it waits for: never in an earlier one.
  Generator g(kSnowflake);
  g.clock.SetMs(1767225600000);
  int64_t previous = 0;
  for (int i = 0; i < 300000; ++i) {
    g.clock.ns += (int64_t{i} * 7919) % 700;
    const int64_t now_ms = g.clock.ns / 1000000;
    const Generated<int64_t> out = g.Next(5);
    ASSERT_GT(out.value, previous);
    const int64_t ms = Decompose(kSnowflake, kSnowflake.epoch_ms, out.value, 0).unix_ms;
    ASSERT_GE(ms, now_ms);
    ASSERT_EQ(out.wait_until_ns == 0, ms == now_ms);
    if (out.wait_until_ns != 0) {
      ASSERT_EQ(out.wait_until_ns, ms * 1000000);
      g.clock.ns = out.wait_until_ns;  // the caller waits
    }
    previous = out.value;
  }
}

TEST(Instagram, EachShardHasItsOwnSequence) {
  auto slots = std::make_unique<StateWord[]>(8192);
  FakeClock clock;
  FamilyStats stats;
  clock.SetMs(1767225600000);
  const EpochSettings settings{kInstagram.epoch_ms, 5000};
  for (int i = 0; i < 1024; ++i) {
    ASSERT_EQ(Next(kInstagram, settings, {slots.get(), 8192}, stats, clock, 7).wait_until_ns, 0);
  }
  // shard 7 is used up: its next ID waits for the next millisecond
  EXPECT_NE(Next(kInstagram, settings, {slots.get(), 8192}, stats, clock, 7).wait_until_ns, 0);
  const Generated<int64_t> other = Next(kInstagram, settings, {slots.get(), 8192}, stats, clock, 8);  // shard 8 is not
  EXPECT_EQ(other.wait_until_ns, 0);
  EXPECT_EQ(Decompose(kInstagram, kInstagram.epoch_ms, other.value, 0).seq, 0);
  const uint64_t tick = static_cast<uint64_t>(1767225600000 - kInstagram.epoch_ms);
  EXPECT_EQ(slots[7].value.load(), (tick + 1) << 10);  // shard 7: the first of its next tick
  EXPECT_EQ(slots[8].value.load(), tick << 10);        // shard 8: its first
}

TEST(Layouts, TheFirstIdAtTheEpochIsNotZero) {
  Generator g(kInstagram);
  g.clock.SetMs(kInstagram.epoch_ms);
  EXPECT_EQ(g.IssueId(0), 1);
}

TEST(Layouts, AClockSteppedBackWithinTheLimitWaitsForItToReachTheLastTick) {
  Generator g(kInstagram);
  const int64_t t = 1767225600000;
  g.clock.SetMs(t);
  const int64_t before = g.IssueId(3);
  g.clock.SetMs(t - 2);
  // The next ID carries on from the last one, in its tick: returned once the clock is there again.
  const Generated<int64_t> after = g.Next(3);
  EXPECT_GT(after.value, before);
  EXPECT_EQ(Decompose(kInstagram, kInstagram.epoch_ms, after.value, 0).unix_ms, t);
  EXPECT_EQ(after.wait_until_ns, t * 1000000);
  EXPECT_EQ(g.stats.regressions.load(), 1u);
  EXPECT_EQ(g.stats.max_regression_us.load(), 2000u);
}

TEST(Layouts, ClockBackTenSecondsIsRefusedBeyondTheLimit) {
  Generator g(kSnowflake, 5000);
  const int64_t t = 1767225600000;
  g.clock.SetMs(t);
  g.IssueId(1);
  g.clock.SetMs(t - 10000);
  try {
    g.Next(1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kClockRegression);
    EXPECT_STREQ(e.what(), "system clock is 10 s behind the last Snowflake ID issued");
    EXPECT_NE(e.hint().find("idgen.max_clock_regression (now 5 s)"), std::string::npos) << e.hint();
  }
  EXPECT_EQ(g.word.value.load() & kSnowflake.max_seq(), 0u);  // nothing taken
  // Within a larger limit, the generator rides it out by waiting.
  Generator lenient(kSnowflake, 20000);
  lenient.clock.SetMs(t);
  const int64_t before = lenient.IssueId(1);
  lenient.clock.SetMs(t - 10000);
  const Generated<int64_t> after = lenient.Next(1);
  EXPECT_GT(after.value, before);
  EXPECT_EQ(after.wait_until_ns, t * 1000000);
  EXPECT_EQ(lenient.stats.max_regression_us.load(), 10000000u);
}

TEST(Layouts, ExhaustedSequenceDuringARegressionWaitsForTheNextTick) {
  Generator g(kSonyflake);
  const int64_t t = 1767225600000;
  g.clock.SetMs(t);
  g.IssueId(1);
  g.clock.SetMs(t - 1000);  // one second back: 100 ticks of 10 ms
  for (int i = 0; i < 255; ++i) ASSERT_EQ(g.Next(1).wait_until_ns, t * 1000000);
  const Generated<int64_t> wait = g.Next(1);
  EXPECT_EQ(wait.wait_until_ns, (t + 10) * 1000000);  // the tick after the last one issued
}

TEST(Layouts, AnEpochMovedLaterIsNamedAsTheCause) {
  Generator g(kInstagram);
  const int64_t t = 1767225600000;
  g.clock.SetMs(t);
  g.settings.epoch_ms = kInstagram.epoch_ms - kDay;  // moved a day earlier: safe, IDs jump ahead
  g.IssueId(3);
  g.settings.epoch_ms = kInstagram.epoch_ms;  // and back: the last ID now lies a day ahead
  try {
    g.Next(3);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kClockRegression);
    EXPECT_STREQ(e.what(),
                 "the last Instagram ID issued lies 1 day ahead of the clock under "
                 "idgen.instagram_epoch_ms = 1314220021721");
    EXPECT_NE(e.detail().find("issued under idgen.instagram_epoch_ms = 1314133621721"), std::string::npos)
        << e.detail();
    EXPECT_NE(e.hint().find("Set idgen.instagram_epoch_ms back to 1314133621721"), std::string::npos) << e.hint();
  }
  g.settings.epoch_ms = kInstagram.epoch_ms - kDay;  // the recovery the hint names, without a restart
  EXPECT_GT(g.IssueId(3), 0);
}

TEST(Layouts, AWordRaisedToAMarkPastTheEndIsAnError) {
  Generator g(kInstagram);
  g.clock.SetMs(LastMs(kInstagram, kInstagram.epoch_ms));
  RaiseTo(g.word, WordAt(kInstagram, kInstagram.max_ticks() + 1));
  EXPECT_EQ(KindOf([&] { g.Next(0); }), ErrorKind::kDatetimeOutOfRange);
}

TEST(Layouts, ARaisedWordStartsAtItsMark) {
  Generator g(kSnowflake);
  const int64_t t = 1767225600000;
  g.clock.SetMs(t);
  const uint64_t mark = TickAt(kSnowflake, kSnowflake.epoch_ms, t + 300);  // 300 ms ahead of the clock
  RaiseTo(g.word, WordAt(kSnowflake, mark));
  // The first ID is in the mark's tick, returned once the clock reaches it.
  const Generated<int64_t> first = g.Next(1);
  EXPECT_EQ(first.wait_until_ns, (t + 300) * 1000000);
  EXPECT_EQ(first.mark, mark);
  EXPECT_EQ(Decompose(kSnowflake, kSnowflake.epoch_ms, first.value, 0).seq, 1);
  g.clock.SetMs(t + 300);
  for (int i = 2; i < 4096; ++i) ASSERT_EQ(g.Next(1).wait_until_ns, 0);
  const Generated<int64_t> wait = g.Next(1);  // the mark's tick is used up: the next one
  EXPECT_EQ(wait.wait_until_ns, (t + 301) * 1000000);
  EXPECT_EQ(g.stats.regressions.load(), 1u);  // only the first found the clock behind the mark
}

TEST(Trace, OutOfRangeSaysTheFieldWraps) {
  try {
    TickAt(kTrace, 0, -1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.detail(),
              "TraceId IDs hold times from 1970-01-01 00:00:00.000 UTC (the epoch) on; their 25-bit time field wraps "
              "every 388 days, so an ID names its time within one wrap period only.");
  }
}

TEST(Layouts, ClockBeforeTheEpochOrPastTheEndIsAnError) {
  Generator g(kInstagram);
  g.clock.SetMs(kInstagram.epoch_ms - 1);
  EXPECT_EQ(KindOf([&] { g.Next(0); }), ErrorKind::kDatetimeOutOfRange);
  g.clock.SetMs(LastMs(kInstagram, kInstagram.epoch_ms) + 1);
  EXPECT_EQ(KindOf([&] { g.Next(0); }), ErrorKind::kDatetimeOutOfRange);
  g.clock.SetMs(LastMs(kInstagram, kInstagram.epoch_ms));
  EXPECT_GT(g.IssueId(8191), 0);
}

TEST(Layouts, ShardOutOfRangeIsRefusedBeforeTouchingTheState) {
  Generator g(kInstagram);
  g.clock.SetMs(1767225600000);
  EXPECT_EQ(KindOf([&] { g.Next(8192); }), ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([&] { g.Next(-1); }), ErrorKind::kBadArgument);
  EXPECT_EQ(g.word.value.load(), 0u);
}

TEST(Layouts, ACustomEpochShiftsTheTimeField) {
  Generator g(kSnowflake);
  g.settings.epoch_ms = 1767225600000;  // 2026-01-01
  g.clock.SetMs(1767225600000 + 5);
  const int64_t id = g.IssueId(2);
  EXPECT_EQ(id >> 22, 5);
  EXPECT_EQ(Decompose(kSnowflake, g.settings.epoch_ms, id, 0).unix_ms, 1767225600005);
}

// idgen.max_clock_regression below a tick (issue 29, item 6): a tick's sequence used up puts the word
// a tick ahead of a clock that is fine, and every caller that comes before the clock's next tick
// takes a value there and waits for it. At 5 ms, Sonyflake (10 ms ticks) refused them all with
// "system clock is 10 ms behind the last Sonyflake ID issued".
TEST(Layouts, ALimitBelowATickNeverRefusesAFineClock) {
  for (const int64_t limit_ms : {0, 5, 9, 10}) {
    Generator g(kSonyflake, limit_ms);
    g.callers = 300;
    const int64_t t = 1767225600000;
    g.clock.SetMs(t);
    for (int i = 0; i < 256; ++i) ASSERT_EQ(g.Next(1).wait_until_ns, 0) << i;
    // Two ticks' worth of callers while the clock stays: each waits for the tick of its value.
    int64_t previous = 0;
    for (int i = 0; i < 300; ++i) {
      const Generated<int64_t> out = g.Next(1);
      EXPECT_GT(out.value, previous);
      EXPECT_EQ(out.wait_until_ns, (t + (i < 256 ? 10 : 20)) * 1000000) << "limit " << limit_ms << ", call " << i;
      previous = out.value;
    }
  }
}

// A clock that really stepped back beyond the limit is refused, whatever the limit.
TEST(Layouts, ALimitBelowATickStillRefusesAClockFurtherBack) {
  for (const int64_t limit_ms : {0, 5, 100}) {
    Generator g(kSonyflake, limit_ms);
    const int64_t t = 1767225600000;
    g.clock.SetMs(t);
    g.IssueId(1);
    g.clock.SetMs(t - limit_ms - 1000);
    EXPECT_EQ(KindOf([&] { g.Next(1); }), ErrorKind::kClockRegression) << "limit " << limit_ms;
  }
}

}  // namespace
}  // namespace idgen::layout
