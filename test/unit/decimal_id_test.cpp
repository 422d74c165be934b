#include "core/decimal_id.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen::decimal_id {
namespace {

using testing::KindOf;

TEST(DecimalId, TheVectorsDecodeAndCompose) {
  const Parts p = Decompose(14150009200065);
  EXPECT_EQ(p.counter, 1415);
  EXPECT_EQ(p.generator_id, 92);
  EXPECT_EQ(p.launch_id, 65);
  EXPECT_EQ(Compose(Parts{1415, 92, 65}), 14150009200065);
  // The largest: counter 922 337 202, generator 99 999, launch 99 999, below 2^63 - 1.
  EXPECT_EQ(Compose(Parts{kMaxCounter, kMaxGenerator, kMaxLaunch}), 9223372029999999999);
  EXPECT_LT(Compose(Parts{kMaxCounter, kMaxGenerator, kMaxLaunch}), INT64_MAX);
  EXPECT_EQ(Compose(Parts{1, 0, 0}), 10000000000);
}

TEST(DecimalId, EveryFieldBoundary) {
  EXPECT_EQ(KindOf([] { Compose(Parts{0, 0, 1}); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { Compose(Parts{kMaxCounter + 1, 0, 1}); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { Compose(Parts{1, -1, 1}); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { Compose(Parts{1, kMaxGenerator + 1, 1}); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { Compose(Parts{1, 0, kMaxLaunch + 1}); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { Decompose(-1); }), ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([] { Decompose(9999999999); }), ErrorKind::kBadArgument);       // counter 0
  EXPECT_EQ(KindOf([] { Decompose(INT64_MAX); }), ErrorKind::kNumericOutOfRange);  // counter 922 337 203
  EXPECT_EQ(Decompose(9223372029999999999).counter, kMaxCounter);
  EXPECT_EQ(KindOf([] { CheckLaunch(-1); }), ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([] { CheckLaunch(100000); }), ErrorKind::kBadArgument);
  EXPECT_NO_THROW(CheckLaunch(0));
  EXPECT_NO_THROW(CheckLaunch(99999));
}

TEST(DecimalId, EveryGeneratorAndLaunchRoundTrips) {
  for (int64_t g = 0; g <= kMaxGenerator; ++g) {
    const int64_t id = Compose(Parts{7, g, kMaxLaunch - g});
    const Parts p = Decompose(id);
    ASSERT_EQ(p.counter, 7);
    ASSERT_EQ(p.generator_id, g);
    ASSERT_EQ(p.launch_id, kMaxLaunch - g);
  }
}

TEST(DecimalId, AGeneratorCountsUpAndAsksForAnIdWhenItRunsOut) {
  std::atomic<uint64_t> state{0};
  Next next = Advance(state, 65);
  EXPECT_FALSE(next.issued);  // no generator yet
  EXPECT_TRUE(Install(state, next.seen, 92));
  EXPECT_FALSE(Install(state, next.seen, 93));  // another session installed first
  int64_t previous = 0;
  std::set<int64_t> ids;
  for (int i = 1; i <= 1415; ++i) {
    next = Advance(state, 65);
    ASSERT_TRUE(next.issued);
    ASSERT_GT(next.id, previous);
    previous = next.id;
    ids.insert(next.id);
  }
  EXPECT_EQ(previous, 14150009200065);
  EXPECT_EQ(ids.size(), 1415u);
  // A counter at its end: the next call asks for a new generator id, whose counter starts at 1.
  state.store((uint64_t{92 + 1} << 32) | kMaxCounter);
  next = Advance(state, 65);
  EXPECT_FALSE(next.issued);
  EXPECT_TRUE(Install(state, next.seen, 93));
  next = Advance(state, 65);
  ASSERT_TRUE(next.issued);
  EXPECT_EQ(next.id, Compose(Parts{1, 93, 65}));
}

TEST(DecimalId, GeneratorZeroIsAGenerator) {
  std::atomic<uint64_t> state{0};
  EXPECT_TRUE(Install(state, 0, 0));
  const Next next = Advance(state, 1);
  ASSERT_TRUE(next.issued);
  EXPECT_EQ(Decompose(next.id).generator_id, 0);
}

}  // namespace
}  // namespace idgen::decimal_id
