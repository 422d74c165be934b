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


struct Generator {
  FakeClock clock;
  FakeRandom source;
  RandomPool pool{source};
  Slot slot;
  Stats stats;
  Uuid Next() { return uuidv7::Next(slot, stats, clock, pool, 1); }
};

TEST(Uuidv7, RfcVectorComposes) {
  EXPECT_EQ(kRfcMs, 1645557742000);
  const Uuid id = Compose((uint64_t{kRfcMs} << 12) | 0xCC3, 0x18C4DC0C0C07398F);
  EXPECT_EQ(ToString(id), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
  EXPECT_EQ(id.version(), 7);
  EXPECT_TRUE(id.rfc_variant());
}

TEST(Uuidv7, RfcVectorDecodes) {
  // rand_a 0xCC3 read as a fraction: 3267 / 4096 ms = 797.6 us, rounded to 798.
  EXPECT_EQ(TimeUs(UuidFromText("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")), kRfcMs * 1000 + 798);
}

TEST(Uuidv7, SubMillisecondFractionIsMethodThree) {
  EXPECT_EQ(Ticks(0, 456700) & 0xFFF, 0x74Eu);  // 0.4567 ms
  EXPECT_EQ(Ticks(5, 0), 5u << 12);
  EXPECT_EQ(Ticks(5, 999999) & 0xFFF, 0xFFFu);
}

TEST(Uuidv7, AtRoundTripsEveryMicrosecondOfAMillisecond) {
  FakeRandom source;
  RandomPool pool(source);
  for (int64_t us = kRfcMs * 1000; us < kRfcMs * 1000 + 1000; ++us) {
    const Uuid id = At(us, pool, 1);
    ASSERT_EQ(TimeUs(id), us);
    ASSERT_EQ(id.version(), 7);
    ASSERT_LE(MinAt(us), id);
  }
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
    try {
      MinAt(us);
      FAIL() << us;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kDatetimeOutOfRange);
    }
    EXPECT_THROW(At(us, pool, 1), Error);
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

TEST(Uuidv7, FrozenClockStillGivesStrictlyIncreasingIds) {
  Generator g;
  g.clock.SetMs(kRfcMs);
  Uuid previous = g.Next();
  for (int i = 0; i < 10000; ++i) {
    const Uuid id = g.Next();
    ASSERT_LT(previous, id);
    ASSERT_EQ(id.version(), 7);
    ASSERT_TRUE(id.rfc_variant());
    previous = id;
  }
  // 10001 values in one frozen millisecond: the fraction counted on, 4096 per millisecond.
  EXPECT_EQ(TimeUs(previous) / 1000, kRfcMs + 2);
  EXPECT_EQ(g.slot.word.load(), (uint64_t{kRfcMs} << 12) + 10000);  // 10001 steps from the frozen tick
}

TEST(Uuidv7, ClockGoingBackwardsNeverDecreasesOrRepeats) {
  Generator g;
  g.clock.SetMs(kRfcMs);
  const Uuid before = g.Next();
  g.clock.SetMs(kRfcMs - 10000);  // ten seconds back
  const Uuid after = g.Next();
  EXPECT_LT(before, after);
  EXPECT_EQ(TimeUs(after) / 1000, kRfcMs);  // carries on from the last time issued
  EXPECT_EQ(g.stats.regressions.load(), 1u);
  EXPECT_EQ(g.stats.max_regression_us.load(), 10000000u);
  g.clock.SetMs(kRfcMs + 1);  // the clock catches up: back to the clock's time
  EXPECT_EQ(TimeUs(g.Next()) / 1000, kRfcMs + 1);
}

TEST(Uuidv7, GeneratedTimeFollowsTheClockToTheMicrosecond) {
  Generator g;
  g.clock.ns = kRfcMs * 1000000 + 456789;
  EXPECT_EQ(TimeUs(g.Next()), kRfcMs * 1000 + 457);
}

TEST(Uuidv7, RandomBitsComeFromThePool) {
  Generator g;
  g.clock.SetMs(kRfcMs);
  std::set<Uuid> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(g.Next());
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(g.source.fills, 2);  // 8 bytes per UUID, 512 per block
}

TEST(Uuidv7, ClockBefore1970IsAnError) {
  Generator g;
  g.clock.ns = -1;
  EXPECT_THROW(g.Next(), Error);
}

TEST(Uuidv7, FailingRandomSourceIsAnError) {
  Generator g;
  g.source.mode = FakeRandom::Mode::kFail;
  EXPECT_EQ(testing::KindOf([&] { g.Next(); }), ErrorKind::kRandomFailed);
}

}  // namespace
}  // namespace idgen::uuidv7
