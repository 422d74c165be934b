#include "core/uuidv7.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen::uuidv7 {
namespace {

using testing::FakeClock;
using testing::FakeRandom;
using testing::UuidFromText;

constexpr int64_t kRfcMs = 0x017F22E279B0;  // 2022-02-22 19:22:22 UTC

struct Harness : testing::GeneratorInputs {
  int64_t max_regression_ms = -1;
  uint64_t callers = 1;  // the processes that may generate at once
  Generated<Uuid> Try(int64_t shift_steps = 0) {
    return uuidv7::Next(word, stats, clock, pool, 1, shift_steps, max_regression_ms, callers);
  }
  // A UUID that may be returned at once.
  Uuid Next() {
    const Generated<Uuid> g = Try();
    EXPECT_EQ(g.wait_until_ns, 0);
    return g.value;
  }
};

// The time bits of the clock's instant, and those a word behind it jumps to.
constexpr uint64_t StepsAt(int64_t ms) { return uint64_t(ms) << 12; }
constexpr uint64_t kJump = kJumpSteps;

uint64_t CounterOf(const Uuid& id) { return id.bytes[8] >> 2 & 0xF; }

TEST(Uuidv7, RfcVectorComposes) {
  EXPECT_EQ(kRfcMs, 1645557742000);
  const Uuid id = Compose((uint64_t{kRfcMs} << 12) | 0xCC3, 0x18C4DC0C0C07398F);
  EXPECT_EQ(ToString(id), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
  EXPECT_EQ(id.version(), 7);
  EXPECT_TRUE(id.rfc_variant());
  EXPECT_EQ(TimeBits(id), (uint64_t{kRfcMs} << 12) | 0xCC3);
}

TEST(Uuidv7, RfcVectorDecodesInsideItsMillisecond) {
  // rand_a 0xCC3 = 3267 / 4096 ms = 797.6 us: microsecond 797, whose smallest fraction (0xCC2) is below.
  const Uuid id = UuidFromText("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
  EXPECT_EQ(TimeUs(id), kRfcMs * 1000 + 797);
  EXPECT_LE(MinAt(TimeUs(id)), id);
}

TEST(Uuidv7, TheLastFractionsStayInTheirMillisecond) {
  // vectors.md: the 48-bit field is 1688096058518 ms; rounding the fraction would give .519.
  const Uuid id = UuidFromText("01890a5d-ac96-7fff-8000-000000000000");
  EXPECT_EQ(TimeUs(id) / 1000, 1688096058518);
  EXPECT_EQ(TimeUs(id), int64_t{1688096058518} * 1000 + 999);
  EXPECT_LE(MinAt(TimeUs(id)), id);
  EXPECT_EQ(TimeUs(UuidFromText("01890a5d-ac96-7ffe-8000-000000000000")) / 1000, 1688096058518);
}

// The three promises, for every one of the 4096 fractions and every microsecond of a millisecond.
TEST(Uuidv7, EveryFractionDecodesIntoItsMillisecondAndAboveItsBound) {
  for (uint64_t fraction = 0; fraction < kStepsPerMs; ++fraction) {
    for (uint64_t rand_b : {uint64_t{0}, (uint64_t{1} << 62) - 1}) {
      const Uuid id = Compose((uint64_t{kRfcMs} << 12) | fraction, rand_b);
      const int64_t us = TimeUs(id);
      ASSERT_EQ(us / 1000, kRfcMs) << fraction;
      ASSERT_LE(MinAt(us), id) << fraction;
      // and the next microsecond's bound is above it: the decoded time is the latest such instant
      if (us % 1000 != 999) {
        ASSERT_GT(MinAt(us + 1), Compose((uint64_t{kRfcMs} << 12) | fraction, 0)) << fraction;
      }
    }
  }
}

TEST(Uuidv7, EveryMicrosecondRoundTrips) {
  FakeRandom source;
  RandomPool pool(source);
  for (int64_t us = kRfcMs * 1000; us < kRfcMs * 1000 + 1000; ++us) {
    const Uuid id = At(us, pool, 1);
    ASSERT_EQ(TimeUs(id), us);
    ASSERT_EQ(TimeUs(MinAt(us)), us);
    ASSERT_EQ(id.version(), 7);
    ASSERT_LE(MinAt(us), id);
  }
  // and through the generator, at every microsecond of a millisecond, with any nanoseconds: the
  // time it holds is the clock's step plus the jump, never below the clock's microsecond and at
  // most 62.5 us (and the step) above it
  for (int64_t us = 0; us < 1000; ++us) {
    for (int64_t ns : {int64_t{0}, int64_t{500}, int64_t{999}}) {
      Harness g;
      g.clock.ns = kRfcMs * 1000000 + us * 1000 + ns;
      const Uuid id = g.Next();
      const int64_t decoded = TimeUs(id);
      ASSERT_EQ(TimeBits(id), Ticks(kRfcMs, us * 1000 + ns) + kJump) << us << " " << ns;
      ASSERT_GE(decoded, kRfcMs * 1000 + us + 62) << us << " " << ns;
      ASSERT_LE(decoded, kRfcMs * 1000 + us + 63) << us << " " << ns;
      ASSERT_LE(MinAt(kRfcMs * 1000 + us), id);
    }
  }
}

TEST(Uuidv7, SubMillisecondFractionIsMethodThree) {
  EXPECT_EQ(Ticks(0, 456700) & 0xFFF, 0x74Eu);  // 0.4567 ms
  EXPECT_EQ(Ticks(5, 0), 5u << 12);
  EXPECT_EQ(Ticks(5, 999999) & 0xFFF, 0xFFFu);
}

TEST(Uuidv7, MinAtIsTheSmallestAtThatInstant) {
  const Uuid min = MinAt(kRfcMs * 1000);
  EXPECT_EQ(ToString(min), "017f22e2-79b0-7000-8000-000000000000");
  EXPECT_LT(MinAt(kRfcMs * 1000 + 999), MinAt(kRfcMs * 1000 + 1000));
}

TEST(Uuidv7, TimesOutsideTheFieldAreErrors) {
  FakeRandom source;
  RandomPool pool(source);
  for (int64_t us : {int64_t{-1}, (kMaxMs + 1) * 1000, INT64_MIN, INT64_MAX}) {
    EXPECT_EQ(testing::KindOf([&] { MinAt(us); }), ErrorKind::kDatetimeOutOfRange) << us;
    EXPECT_EQ(testing::KindOf([&] { At(us, pool, 1); }), ErrorKind::kDatetimeOutOfRange) << us;
  }
  EXPECT_NO_THROW(MinAt(0));
  EXPECT_NO_THROW(MinAt(kMaxMs * 1000 + 999));
}

TEST(Uuidv7, OtherVersionsAreNamedInTheError) {
  try {
    TimeUs(UuidFromText("5bd1ac3e-1b8b-4a4a-9bd1-66a4b2ee1aa4"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadArgument);
    EXPECT_EQ(std::string(e.what()), "uuid \"5bd1ac3e-1b8b-4a4a-9bd1-66a4b2ee1aa4\" is version 4, not a UUIDv7");
  }
  // version 7 nibble, but the Microsoft variant
  EXPECT_THROW(TimeUs(UuidFromText("017f22e2-79b0-7cc3-d8c4-dc0c0c07398f")), Error);
}

TEST(Uuidv7, SixteenIdsShareAStepThenTheFractionMovesOn) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  Uuid previous{};
  for (uint64_t i = 0; i < 40; ++i) {
    const Uuid id = g.Next();
    ASSERT_LT(previous, id);
    ASSERT_EQ(CounterOf(id), i % 16);
    ASSERT_EQ(TimeBits(id), StepsAt(kRfcMs) + kJump + i / 16);  // 62.5 us ahead: where the word jumped
    previous = id;
  }
}

TEST(Uuidv7, AWordBehindTheClockJumpsAheadOfItOnce) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  EXPECT_EQ(TimeBits(g.Next()), StepsAt(kRfcMs) + kJump);
  // Until the clock passes the word, the UUIDs count on from it: no jump, never behind the clock.
  g.clock.ns += 60000;  // 60 us: 245 steps, still below the word
  EXPECT_EQ(TimeBits(g.Next()), StepsAt(kRfcMs) + kJump);
  EXPECT_EQ(CounterOf(g.Next()), 2u);
  g.clock.ns += 5000;  // 65 us: the clock is past the word, which jumps again
  const Uuid id = g.Next();
  EXPECT_EQ(TimeBits(id), Ticks(kRfcMs, 65000) + kJump);
  EXPECT_EQ(CounterOf(id), 0u);
  EXPECT_LE(g.stats.max_lead_us.load(), 63u);
}

TEST(Uuidv7, NoUuidIsBehindTheClockReadAtItsStart) {
  // Whatever the clock does between calls (here: it moves by a different step each time), every
  // UUID is at or above the clock as the call read it, and at most a millisecond above.
  Harness g;
  g.clock.SetMs(kRfcMs);
  Uuid previous{};
  for (int i = 0; i < 200000; ++i) {
    g.clock.ns += (int64_t{i} * 7919) % 1500;
    const uint64_t now = Ticks(g.clock.ns / 1000000, g.clock.ns % 1000000);
    const Generated<Uuid> out = g.Try();
    ASSERT_LT(previous, out.value);
    ASSERT_GE(TimeBits(out.value), now);
    ASSERT_LE(TimeBits(out.value), now + kStepsPerMs);
    ASSERT_EQ(out.wait_until_ns, 0);
    previous = out.value;
  }
}

TEST(Uuidv7, AFrozenClockGetsAtMostOneMillisecondAhead) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  Uuid previous{};
  uint64_t issued = 0;
  for (;;) {
    const Generated<Uuid> out = g.Try();
    ASSERT_LT(previous, out.value);
    previous = out.value;
    if (out.wait_until_ns != 0) {
      // The first UUID past the lead is the caller's, once the clock is where it may be returned:
      // its time less one millisecond.
      EXPECT_EQ(TimeBits(out.value), StepsAt(kRfcMs) + kStepsPerMs + 1);
      EXPECT_EQ(out.wait_until_ns, kRfcMs * 1000000 + 245);  // the first nanosecond of the next step
      break;
    }
    ASSERT_LE(TimeUs(out.value), kRfcMs * 1000 + 1000);  // at most 1 ms ahead of the frozen clock
    ++issued;
  }
  // From 62.5 us ahead (the jump) to 1 ms ahead, 16 each step: 61,456 before the first wait.
  EXPECT_EQ(issued, (kStepsPerMs + 1 - kJump) * 16);
  EXPECT_EQ(g.stats.waits.load(), 1u);
  EXPECT_EQ(g.stats.regressions.load(), 0u);     // its own lead is not a step back of the clock
  EXPECT_GE(g.stats.max_lead_us.load(), 1000u);  // its lead, measured at the moment it took the value
  g.clock.ns += 245;                             // one step of the clock: the next fifteen are returned at once
  for (int i = 0; i < 15; ++i) ASSERT_EQ(g.Try().wait_until_ns, 0);
  EXPECT_NE(g.Try().wait_until_ns, 0);
}

TEST(Uuidv7, AClockSteppedBackIsRiddenOutWithoutWaiting) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  const Uuid before = g.Next();
  g.clock.SetMs(kRfcMs - 10000);  // ten seconds back
  Uuid previous = before;
  for (int i = 0; i < 100000; ++i) {  // more than a millisecond's worth: no wait, still increasing
    const Uuid id = g.Next();
    ASSERT_LT(previous, id);
    previous = id;
  }
  EXPECT_EQ(TimeUs(previous) / 1000, kRfcMs + 1);  // carried on from the last time issued
  EXPECT_EQ(g.stats.regressions.load(), 100000u);
  // ten seconds, the jump, and the 1.5 ms that 100,000 IDs counted on ahead of the stepped-back clock
  EXPECT_GE(g.stats.max_regression_us.load(), 10000000u);
  EXPECT_LT(g.stats.max_regression_us.load(), 10001700u);
  EXPECT_EQ(g.stats.waits.load(), 0u);
  g.clock.SetMs(kRfcMs + 5);  // the clock catches up: back to the clock's time
  EXPECT_EQ(TimeBits(g.Next()), StepsAt(kRfcMs + 5) + kJump);
}

TEST(Uuidv7, BeyondTheLimitOfAStepBackTheWordReturnsToTheClock) {
  Harness g;
  g.max_regression_ms = 60000;                   // idgen.max_clock_lead
  g.clock.SetMs(kRfcMs + 2 * 365 * 86400000LL);  // two years ahead
  const Uuid future = g.Next();
  g.clock.SetMs(kRfcMs + 2 * 365 * 86400000LL - 59000);  // back by 59 s: within the limit, carried on
  EXPECT_LT(future, g.Next());
  g.clock.SetMs(kRfcMs);  // back to the right time: beyond the limit
  const Generated<Uuid> back = g.Try();
  EXPECT_EQ(TimeBits(back.value), StepsAt(kRfcMs) + kJump);  // at the clock again
  EXPECT_EQ(back.wait_until_ns, 0);
  EXPECT_LT(back.value, future);  // sorts below what the clock made while ahead
  EXPECT_GE(g.stats.max_regression_us.load(), 2 * 365 * 86400000000LL - 60000000);
  EXPECT_LT(back.value, g.Next());  // and increases from there
}

TEST(Uuidv7, ARaisedWordCarriesOnAboveIt) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  const uint64_t mark = (uint64_t{kRfcMs} + 700) << 12;  // a durable mark 700 ms ahead of the clock
  RaiseTo(g.word, mark << kCounterBits);
  RaiseTo(g.word, 5);  // never lowers it
  const Generated<Uuid> out = g.Try();
  EXPECT_EQ(out.wait_until_ns, 0);
  EXPECT_EQ(out.mark, mark);
  EXPECT_EQ(CounterOf(out.value), 1u);
  EXPECT_EQ(TimeUs(out.value) / 1000, kRfcMs + 700);
}

TEST(Uuidv7, GeneratedTimeFollowsTheClockToTheStep) {
  Harness g;
  g.clock.ns = kRfcMs * 1000000 + 456000;
  EXPECT_EQ(TimeBits(g.Next()), Ticks(kRfcMs, 456000) + kJump);
  // 456.789 us is in the step [456.787, 457.031) us: the jump starts from that step.
  Harness h;
  h.clock.ns = kRfcMs * 1000000 + 456789;
  EXPECT_EQ(TimeBits(h.Next()), Ticks(kRfcMs, 456789) + kJump);
  EXPECT_EQ(Ticks(kRfcMs, 456789), Ticks(kRfcMs, 457000));
}

TEST(Uuidv7, AShiftMovesTheTimeWrittenNotTheState) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  const int64_t day = ShiftSteps(-int64_t{86400} * 1000000);
  EXPECT_EQ(day, -int64_t{86400000} * 4096);
  const Generated<Uuid> shifted = g.Try(day);
  EXPECT_EQ(TimeUs(shifted.value) / 1000, kRfcMs - 86400000);
  EXPECT_EQ(shifted.mark, StepsAt(kRfcMs) + kJump);  // the state: the clock's time (and the jump)
  const Generated<Uuid> later = g.Try(day);
  EXPECT_LT(shifted.value, later.value);  // a constant shift keeps the order
  EXPECT_EQ(ShiftSteps(1), 4);            // 1 us = 4.096 steps, floor
  EXPECT_EQ(ShiftSteps(-1), -5);
  Harness early;
  early.clock.SetMs(1000);
  EXPECT_EQ(testing::KindOf([&] { early.Try(day); }), ErrorKind::kDatetimeOutOfRange);  // before 1970
  EXPECT_EQ(testing::KindOf([&] { early.Try(ShiftSteps(INT64_MAX)); }), ErrorKind::kDatetimeOutOfRange);
}

TEST(Uuidv7, RandBHoldsTheCounterAnd58RandomBits) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  FakeRandom same_source;  // the same byte sequence as the generator's pool
  RandomPool same(same_source);
  std::set<Uuid> seen;
  for (int i = 0; i < 1000; ++i) {
    const Uuid id = g.Next();
    seen.insert(id);
    uint64_t rand_b = 0;
    for (int b = 8; b < 16; ++b) rand_b = rand_b << 8 | id.bytes[b];
    ASSERT_EQ(rand_b >> 62, 2u);                               // the variant
    ASSERT_EQ(rand_b >> kRandomBits & 0xF, uint64_t(i % 16));  // the counter
    ASSERT_EQ(rand_b & ((uint64_t{1} << kRandomBits) - 1), same.TakeU64(1) & ((uint64_t{1} << kRandomBits) - 1));
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(g.source.fills, 2);  // 8 bytes per UUID, 512 per block
}

TEST(Uuidv7, ClockBefore1970IsAnError) {
  Harness g;
  g.clock.ns = -1;
  EXPECT_EQ(testing::KindOf([&] { g.Try(); }), ErrorKind::kDatetimeOutOfRange);
}

TEST(Uuidv7, FailingRandomSourceIsAnError) {
  Harness g;
  g.source.mode = FakeRandom::Mode::kFail;
  EXPECT_EQ(testing::KindOf([&] { g.Try(); }), ErrorKind::kRandomFailed);
}

// idgen.max_clock_lead = 0 (issue 29, item 6): the word lies ahead of a clock that is fine (the
// jump when it catches up with the clock, up to 1 ms at 65,536 UUIDs per millisecond); a limit
// that counted that as a clock stepped back sent the word back to the clock, and UUIDs went
// backwards (13,113 of 200,000 in one session).
TEST(Uuidv7, ALeadLimitOfZeroNeverSendsAFineClockBack) {
  for (const int64_t limit_ms : {0, 1}) {
    Harness g;
    g.max_regression_ms = limit_ms;
    g.callers = 64;
    g.clock.SetMs(kRfcMs);
    Uuid previous = g.Try().value;
    // A millisecond's worth at one instant, then 63 callers that wait for the clock.
    int waiting = 0;
    for (int i = 0; waiting < 63; ++i) {
      const Generated<Uuid> out = g.Try();
      ASSERT_LT(previous, out.value) << "limit " << limit_ms << ", call " << i;
      previous = out.value;
      waiting += out.wait_until_ns != 0;
    }
    g.clock.SetMs(kRfcMs + 1);
    ASSERT_LT(previous, g.Try().value);
    EXPECT_EQ(g.stats.regressions.load(), 0u);
  }
}

// Beyond the limit, a clock that really stepped back is still ridden out no further.
TEST(Uuidv7, ALeadLimitOfZeroReturnsToAClockSteppedBack) {
  Harness g;
  g.max_regression_ms = 0;
  g.clock.SetMs(kRfcMs);
  const Uuid before = g.Next();
  g.clock.SetMs(kRfcMs - 1000);
  const Uuid after = g.Next();
  EXPECT_LT(after, before);
  EXPECT_EQ(TimeBits(after), StepsAt(kRfcMs - 1000) + kJump);
}

}  // namespace
}  // namespace idgen::uuidv7
