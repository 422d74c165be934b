#include "core/random.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen {
namespace {

using testing::FakeRandom;

TEST(RandomPool, HandsOutTheSourceBytesInOrderAndRefillsOnlyWhenEmpty) {
  FakeRandom source;
  RandomPool pool(source);
  uint8_t first[3];
  pool.Take(first, 3, 42);
  EXPECT_EQ(first[0], 0);
  EXPECT_EQ(first[2], 2);
  for (size_t taken = 3; taken + 8 <= RandomPool::kBlock; taken += 8) pool.TakeU64(42);
  EXPECT_EQ(source.fills, 1);
  pool.TakeU64(42);  // needs bytes from a second block
  EXPECT_EQ(source.fills, 2);
}

TEST(RandomPool, ABlockServesManyIds) {
  FakeRandom source;
  RandomPool pool(source);
  for (int i = 0; i < 512; ++i) pool.TakeU64(7);
  EXPECT_EQ(source.fills, 1);
}

TEST(RandomPool, DiscardsBytesDrawnByAnotherProcess) {
  FakeRandom source;
  RandomPool pool(source);
  pool.TakeU64(100);  // the "parent" draws a block
  uint8_t child;
  pool.Take(&child, 1, 101);  // after a fork, the child's pid differs
  EXPECT_EQ(source.fills, 2);
  // The child's byte is the first of a fresh block, not the parent's ninth byte.
  EXPECT_EQ(child, 0x5B);
}

TEST(RandomPool, ValuesDoNotRepeat) {
  FakeRandom source;
  RandomPool pool(source);
  std::vector<uint64_t> seen;
  for (int i = 0; i < 16; ++i) seen.push_back(pool.TakeU64(1));
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_NE(seen[i], seen[i - 1]);
}

TEST(RandomPool, TakesMoreThanOneBlockAtOnce) {
  FakeRandom source;
  RandomPool pool(source);
  std::vector<uint8_t> big(RandomPool::kBlock * 2 + 5);
  pool.Take(big.data(), big.size(), 1);
  EXPECT_EQ(source.fills, 3);
  EXPECT_EQ(big[RandomPool::kBlock + 1], 1 ^ 0x5B);  // the second byte of the second block
}

TEST(RandomPool, FailingSourceIsAnErrorNotZeros) {
  FakeRandom source;
  source.mode = FakeRandom::Mode::kFail;
  RandomPool pool(source);
  try {
    pool.TakeU64(1);
    FAIL() << "no error from a failing source";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kRandomFailed);
    EXPECT_STREQ(e.what(), "could not generate random values");
  }
  source.mode = FakeRandom::Mode::kCount;  // the source recovers: so does the pool
  EXPECT_NO_THROW(pool.TakeU64(1));
}

TEST(RandomPool, ThrowingSourcePropagates) {
  FakeRandom source;
  source.mode = FakeRandom::Mode::kThrow;
  RandomPool pool(source);
  EXPECT_THROW(pool.TakeU64(1), std::runtime_error);
}

}  // namespace
}  // namespace idgen
