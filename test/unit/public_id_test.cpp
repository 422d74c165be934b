#include "core/public_id.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen::public_id {
namespace {

using testing::KindOf;

constexpr Key kKey{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};  // bytes 00 .. 0f, little-endian

TEST(PublicId, SipHashKnownAnswer) {
  // The SipHash-2-4 reference vector for the key 00 01 .. 0f and the 8-byte message 00 01 .. 07:
  // 62 24 93 9a 79 f5 f5 93 (little-endian).
  EXPECT_EQ(SipHash24(kKey, 0x0706050403020100ULL), 0x93f5f5799a932462ULL);
}

TEST(PublicId, ABijectionOnEveryValueOfASmallDomain) {
  // The same network and cycle walk on 2 x 8 bits, onto a domain of 2^15 - 1 values: every value
  // has one image in the domain, and the inverse takes it back.
  const Domain small{8, (uint64_t{1} << 15) - 1};
  std::vector<bool> hit(small.size, false);
  for (uint64_t x = 0; x < small.size; ++x) {
    const uint64_t y = Permute(x, small, kKey);
    ASSERT_LT(y, small.size);
    ASSERT_FALSE(hit[y]) << x;
    hit[y] = true;
    ASSERT_EQ(Unpermute(y, small, kKey), x);
  }
}

TEST(PublicId, RoundTripsOnMillionsOfBigints) {
  const Key other{1, 2};
  for (int64_t id = 1; id <= 1000000; ++id) {
    const int64_t hidden = Hide(id, kKey);
    ASSERT_GE(hidden, 1);
    ASSERT_EQ(Reveal(hidden, kKey), id);
  }
  for (int64_t id : {INT64_MAX, INT64_MAX - 1, int64_t{1} << 62, int64_t{4036335431502009344}}) {
    ASSERT_EQ(Reveal(Hide(id, kKey), kKey), id);
    ASSERT_NE(Hide(id, kKey), Hide(id, other));
  }
  EXPECT_EQ(KindOf([] { Hide(0, kKey); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { Reveal(-5, kKey); }), ErrorKind::kNumericOutOfRange);
}

// Simple randomness checks on the images of 1 .. 2^20: each of the 63 bits is set about half of
// the time, and consecutive images are uncorrelated.
TEST(PublicId, ImagesOfConsecutiveIdsLookRandom) {
  constexpr int kN = 1 << 20;
  std::vector<double> images(kN);
  int ones[63] = {};
  for (int i = 0; i < kN; ++i) {
    const auto y = static_cast<uint64_t>(Hide(i + 1, kKey));
    for (int b = 0; b < 63; ++b) ones[b] += (y >> b) & 1;
    images[i] = static_cast<double>(y);
  }
  for (int b = 0; b < 63; ++b) {
    // 5 standard deviations of a fair coin over 2^20 draws: 2560.
    EXPECT_NEAR(ones[b], kN / 2, 2560) << "bit " << b;
  }
  double mean = 0;
  for (double v : images) mean += v;
  mean /= kN;
  double covariance = 0, variance = 0;
  for (int i = 0; i + 1 < kN; ++i) covariance += (images[i] - mean) * (images[i + 1] - mean);
  for (double v : images) variance += (v - mean) * (v - mean);
  EXPECT_LT(std::fabs(covariance / variance), 0.005);  // serial correlation
}

TEST(PublicId, TextIsElevenBase62Characters) {
  EXPECT_EQ(std::string(Format(1).view()), "00000000001");
  EXPECT_EQ(std::string(Format(INT64_MAX).view()), "AzL8n0Y58m7");
  EXPECT_EQ(ParseText("AzL8n0Y58m7"), INT64_MAX);
  EXPECT_EQ(ParseText("00000000001"), 1);
  EXPECT_EQ(KindOf([] { ParseText("0000000001"); }), ErrorKind::kBadText);
  EXPECT_EQ(KindOf([] { ParseText("00000000000"); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { ParseText("AzL8n0Y58m8"); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { ParseText("0000000000-"); }), ErrorKind::kBadText);
}

}  // namespace
}  // namespace idgen::public_id
