#include "core/objectid.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include <vector>
#include <string>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen::objectid {
namespace {

using testing::FakeClock;
using testing::FakeRandom;

ObjectId Hex(std::string_view text) {
  ObjectId id;
  EXPECT_TRUE(Parse(text, id)) << text;
  return id;
}

std::string Text(const ObjectId& id) {
  char out[24];
  Format(id, out);
  return std::string(out, 24);
}

uint32_t Counter(const ObjectId& id) {
  return (uint32_t{id.bytes[9]} << 16) | (uint32_t{id.bytes[10]} << 8) | id.bytes[11];
}
std::string Unique(const ObjectId& id) { return Text(id).substr(8, 10); }

struct Harness {
  FakeClock clock;
  FakeRandom source;
  RandomPool pool{source};
  objectid::Generator state;
  ObjectId Next(long owner = 1) { return objectid::Next(state, clock, pool, owner); }
};

TEST(ObjectId, SpecVectorsDecode) {
  EXPECT_EQ(TimeUs(Hex("507f191e810c19729de860ea")), int64_t{1350506782} * 1000000);
  EXPECT_EQ(FormatUtc(TimeUs(Hex("507f191e810c19729de860ea")) / 1000), "2012-10-17 20:46:22.000 UTC");
  EXPECT_EQ(Counter(Hex("507f191e810c19729de860ea")), 0xe860eau);
  EXPECT_EQ(FormatUtc(TimeUs(Hex("507f1f77bcf86cd799439011")) / 1000), "2012-10-17 21:13:27.000 UTC");
}

TEST(ObjectId, SecondsAreUnsignedPast2038) {
  EXPECT_EQ(FormatUtc(TimeUs(Hex("7fffffff0000000000000000")) / 1000), "2038-01-19 03:14:07.000 UTC");
  EXPECT_EQ(FormatUtc(TimeUs(Hex("800000000000000000000000")) / 1000), "2038-01-19 03:14:08.000 UTC");
  EXPECT_EQ(FormatUtc(TimeUs(Hex("ffffffff0000000000000000")) / 1000), "2106-02-07 06:28:15.000 UTC");
  EXPECT_EQ(Text(MinAt(int64_t{0x80000000} * 1000000)), "800000000000000000000000");
  EXPECT_LT(MinAt(int64_t{0x7fffffff} * 1000000), MinAt(int64_t{0x80000000} * 1000000));
}

TEST(ObjectId, RangeOfTimes) {
  EXPECT_EQ(SecondsAt(0), 0u);
  EXPECT_EQ(SecondsAt(kMaxSeconds * 1000000 + 999999), 0xFFFFFFFFu);
  for (int64_t us : {int64_t{-1}, (kMaxSeconds + 1) * 1000000, INT64_MIN, INT64_MAX}) {
    try {
      SecondsAt(us);
      FAIL() << us;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kDatetimeOutOfRange);
    }
  }
}

// The three promises of a time-ordered family: a decoded ObjectId lies in its second, the bound of
// its decoded time is at or below it, and an ObjectId made at a whole second decodes to it; at
// every microsecond of a second (every 997th), around the field's edges.
TEST(ObjectId, DecodesLieInTheirSecondAboveTheirBoundAndRoundTrip) {
  for (int64_t seconds : {int64_t{0}, int64_t{1350506782}, int64_t{0x7FFFFFFF}, int64_t{0x80000000}, kMaxSeconds}) {
    for (const char* rest : {"0000000000000000", "ffffffffffffffff"}) {
      char hex[25];
      std::snprintf(hex, sizeof hex, "%08llx%s", static_cast<unsigned long long>(seconds), rest);
      const ObjectId id = Hex(hex);
      ASSERT_EQ(TimeUs(id), seconds * 1000000) << hex;
      ASSERT_LE(MinAt(TimeUs(id)), id) << hex;
    }
    Harness g;
    for (int64_t us = 0; us < 1000000; us += 997) {
      const ObjectId made = At(g.state, seconds * 1000000 + us, g.pool, 1);
      ASSERT_EQ(TimeUs(made), seconds * 1000000) << seconds << " " << us;
      ASSERT_LE(MinAt(seconds * 1000000 + us), made);
    }
  }
}

TEST(ObjectId, FormatAndParse) {
  EXPECT_EQ(Text(Hex("507F191E810C19729DE860EA")), "507f191e810c19729de860ea");
  ObjectId id;
  for (std::string_view bad : {"", "507f191e810c19729de860e", "507f191e810c19729de860eaa", "507f191e810c19729de860eg",
                               " 507f191e810c19729de860e", "507f191e-810c19729de860e", "507f191e810c19729de860\xc3\xa9",
                               "0x507f191e810c19729de860"}) {
    EXPECT_FALSE(Parse(bad, id)) << bad;
  }
  EXPECT_FALSE(Parse(std::string_view("507f191e810c19729de860e\0", 24), id));
}

TEST(ObjectId, LayoutOfGeneratedIds) {
  Harness g;
  g.clock.ns = int64_t{1350506782} * 1000000000 + 999999999;
  g.source.next = 0x10;  // process value 10 11 12 13 14, counter starts at 0x151617
  const ObjectId id = g.Next();
  EXPECT_EQ(Text(id), "507f191e1011121314151617");
  EXPECT_EQ(Text(g.Next()), "507f191e1011121314151618");
}

TEST(ObjectId, CounterWrapsFromFfffffTo000000) {
  Harness g;
  g.clock.ns = int64_t{1350506782} * 1000000000;
  g.state.owner = 1;  // a state drawn earlier, positioned just before the wrap
  g.state.counter = 0xFFFFFE;
  g.state.remaining = 100;
  EXPECT_EQ(Counter(g.Next()), 0xFFFFFEu);
  EXPECT_EQ(Counter(g.Next()), 0xFFFFFFu);
  EXPECT_EQ(Counter(g.Next()), 0x000000u);
  EXPECT_EQ(Counter(g.Next()), 0x000001u);
}

TEST(ObjectId, AfterTwoToThe24IdsTheProcessValueChanges) {
  Harness g;
  g.clock.ns = int64_t{1350506782} * 1000000000;  // a frozen clock: the hardest case
  const ObjectId first = g.Next();
  std::vector<bool> seen(kCounterSpan);
  seen[Counter(first)] = true;
  uint32_t distinct = 1;
  for (uint32_t i = 1; i < kCounterSpan; ++i) {
    const uint32_t counter = Counter(g.Next());
    distinct += seen[counter] ? 0 : 1;
    seen[counter] = true;
  }
  EXPECT_EQ(distinct, kCounterSpan);  // every counter value once
  const ObjectId next = g.Next();
  EXPECT_NE(Unique(next), Unique(first));  // a new process value instead of a repeat
  EXPECT_NE(next, first);
  EXPECT_EQ(g.source.fills, 1);
}

TEST(ObjectId, EachProcessDrawsItsOwnValueAfterFork) {
  Harness g;
  g.clock.ns = int64_t{1350506782} * 1000000000;
  const ObjectId parent = g.Next(100);
  const ObjectId child = g.Next(101);
  EXPECT_NE(Unique(parent), Unique(child));
  EXPECT_EQ(Unique(g.Next(101)), Unique(child));
}

TEST(ObjectId, IncreasingWithinAProcessAndASecond) {
  Harness g;
  g.clock.ns = int64_t{1350506782} * 1000000000;
  g.state.owner = 1;
  g.state.counter = 5;
  g.state.remaining = kCounterSpan;
  ObjectId previous = g.Next();
  for (int i = 0; i < 1000; ++i) {
    const ObjectId id = g.Next();
    ASSERT_LT(previous, id);
    previous = id;
  }
}

TEST(ObjectId, BackfillsAndBounds) {
  Harness g;
  const int64_t at = int64_t{1350506782} * 1000000 + 750000;
  const ObjectId id = At(g.state, at, g.pool, 1);
  EXPECT_EQ(TimeUs(id), int64_t{1350506782} * 1000000);
  EXPECT_LE(MinAt(at), id);
  EXPECT_EQ(Text(MinAt(at)), "507f191e0000000000000000");
  EXPECT_THROW(At(g.state, -1, g.pool, 1), Error);
}

TEST(ObjectId, ClockOutsideTheRangeIsAnError) {
  Harness g;
  g.clock.ns = -1;
  EXPECT_THROW(g.Next(), Error);
  g.clock.ns = (kMaxSeconds + 1) * 1000000000;
  EXPECT_THROW(g.Next(), Error);
}

TEST(ObjectId, FailingRandomSourceIsAnError) {
  Harness g;
  g.source.mode = FakeRandom::Mode::kFail;
  EXPECT_EQ(testing::KindOf([&] { g.Next(); }), ErrorKind::kRandomFailed);
}

}  // namespace
}  // namespace idgen::objectid
