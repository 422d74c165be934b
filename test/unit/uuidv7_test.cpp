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
  Generated<Uuid> Try(int64_t shift_steps = 0) { return uuidv7::Next(word, stats, clock, pool, 1, shift_steps); }
  Uuid Next() {
    const Generated<Uuid> g = Try();
    EXPECT_TRUE(g.issued);
    return g.value;
  }
};

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
  // and through the generator, at every microsecond of a millisecond, with any nanoseconds
  for (int64_t us = 0; us < 1000; ++us) {
    for (int64_t ns : {int64_t{0}, int64_t{500}, int64_t{999}}) {
      Harness g;
      g.clock.ns = kRfcMs * 1000000 + us * 1000 + ns;
      const int64_t decoded = TimeUs(g.Next());
      ASSERT_GE(decoded, kRfcMs * 1000 + us) << us << " " << ns;
      ASSERT_LE(decoded, kRfcMs * 1000 + us + (ns * 4096 / 1000000 > 0 ? 1 : 0)) << us << " " << ns;
      if (ns == 0) {
        ASSERT_EQ(decoded, kRfcMs * 1000 + us);
      }
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
    ASSERT_EQ(TimeBits(id), (uint64_t{kRfcMs} << 12) + i / 16);
    previous = id;
  }
}

TEST(Uuidv7, AFrozenClockGetsAtMostOneMillisecondAhead) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  Uuid previous{};
  uint64_t issued = 0;
  for (;;) {
    const Generated<Uuid> out = g.Try();
    if (!out.issued) break;
    ASSERT_LT(previous, out.value);
    ASSERT_LE(TimeUs(out.value), kRfcMs * 1000 + 1000);  // at most 1 ms ahead of the frozen clock
    previous = out.value;
    ++issued;
  }
  // Steps 0..4096 of the fraction ahead of the clock, 16 each: 65,552 before the first wait.
  EXPECT_EQ(issued, (kStepsPerMs + 1) * 16);
  EXPECT_EQ(TimeBits(previous), (uint64_t{kRfcMs} << 12) + kStepsPerMs);
  EXPECT_EQ(g.stats.waits.load(), 1u);
  EXPECT_EQ(g.stats.regressions.load(), 0u);  // its own lead is not a step back of the clock
  EXPECT_EQ(g.stats.max_lead_us.load(), 1000u);  // but its lead, measured at the moment it issued
  g.clock.ns += 245;  // one step of the clock frees sixteen more
  for (int i = 0; i < 16; ++i) ASSERT_TRUE(g.Try().issued);
  EXPECT_FALSE(g.Try().issued);
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
  // ten seconds, and the 1.5 ms that 100,000 IDs counted on ahead of the stepped-back clock
  EXPECT_GE(g.stats.max_regression_us.load(), 10000000u);
  EXPECT_LT(g.stats.max_regression_us.load(), 10001600u);
  EXPECT_EQ(g.stats.waits.load(), 0u);
  EXPECT_EQ(g.stats.max_lead_us.load(), 0u);  // riding out a step back is no lead of its own
  g.clock.SetMs(kRfcMs + 5);  // the clock catches up: back to the clock's time
  EXPECT_EQ(TimeUs(g.Next()) / 1000, kRfcMs + 5);
}

TEST(Uuidv7, ARaisedWordCarriesOnAboveIt) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  const uint64_t mark = (uint64_t{kRfcMs} + 700) << 12;  // a durable mark 700 ms ahead of the clock
  RaiseTo(g.word, mark << kCounterBits);
  RaiseTo(g.word, 5);  // never lowers it
  const Generated<Uuid> out = g.Try();
  ASSERT_TRUE(out.issued);
  EXPECT_EQ(out.mark, mark);
  EXPECT_EQ(CounterOf(out.value), 1u);
  EXPECT_EQ(TimeUs(out.value) / 1000, kRfcMs + 700);
}

TEST(Uuidv7, GeneratedTimeFollowsTheClockToTheStep) {
  Harness g;
  g.clock.ns = kRfcMs * 1000000 + 456000;
  EXPECT_EQ(TimeUs(g.Next()), kRfcMs * 1000 + 456);
  // 456.789 us is in the step [456.787, 457.031) us, which also holds 457.000 us: a UUID cannot
  // tell them apart, and uuidv7(at => 457 us) must decode to 457.
  Harness h;
  h.clock.ns = kRfcMs * 1000000 + 456789;
  EXPECT_EQ(TimeUs(h.Next()), kRfcMs * 1000 + 457);
}

TEST(Uuidv7, AShiftMovesTheTimeWrittenNotTheState) {
  Harness g;
  g.clock.SetMs(kRfcMs);
  const int64_t day = ShiftSteps(-int64_t{86400} * 1000000);
  EXPECT_EQ(day, -int64_t{86400000} * 4096);
  const Generated<Uuid> shifted = g.Try(day);
  ASSERT_TRUE(shifted.issued);
  EXPECT_EQ(TimeUs(shifted.value) / 1000, kRfcMs - 86400000);
  EXPECT_EQ(shifted.mark, uint64_t{kRfcMs} << 12);  // the state: the clock's time
  const Generated<Uuid> later = g.Try(day);
  EXPECT_LT(shifted.value, later.value);  // a constant shift keeps the order
  EXPECT_EQ(ShiftSteps(1), 4);     // 1 us = 4.096 steps, floor
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
    ASSERT_EQ(rand_b >> 62, 2u);                              // the variant
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

}  // namespace
}  // namespace idgen::uuidv7
