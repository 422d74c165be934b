// The identity's parts (core/identity.hpp): sets of ranges, unions, which part meets which, the
// registry text and the copy's words.
#include "core/identity.hpp"

#include <gtest/gtest.h>

#include <bitset>
#include <cstring>
#include <random>

namespace idgen::identity {
namespace {

Ranges R(std::initializer_list<std::pair<uint32_t, uint32_t>> ranges) {
  Ranges r;
  for (const auto& [lo, hi] : ranges) EXPECT_TRUE(r.Add(lo, hi));
  return r;
}

Identity Id(int32_t node, uint8_t digit, std::string_view shards) {
  Identity id;
  id.node = node;
  id.digit = digit;
  id.shards = *ParseShards(shards);
  return id;
}

TEST(Ranges, AddMergesOverlappingAndTouching) {
  Ranges r = R({{10, 20}, {30, 40}});
  EXPECT_EQ(r.count, 2);
  EXPECT_TRUE(r.Add(21, 29));  // touches both
  EXPECT_EQ(r, R({{10, 40}}));
  EXPECT_TRUE(r.Add(0, 5));
  EXPECT_TRUE(r.Add(41, 41));
  EXPECT_EQ(r, R({{0, 5}, {10, 41}}));
  EXPECT_TRUE(r.Contains(41) && r.Contains(0) && !r.Contains(6) && !r.Contains(42));
}

// Every subset of 0..11 added range by range, against a bitset: the set is exact while it fits.
TEST(Ranges, MatchesABitsetOnEverySmallSet) {
  for (uint32_t mask = 0; mask < (1u << 12); ++mask) {
    Ranges r;
    for (uint32_t x = 0; x < 12; ++x) {
      if ((mask >> x & 1) != 0) {
        ASSERT_TRUE(r.Add(x, x));
      }
    }
    for (uint32_t x = 0; x < 14; ++x) ASSERT_EQ(r.Contains(x), x < 12 && (mask >> x & 1) != 0) << mask << " " << x;
    for (int i = 0; i + 1 < r.count; ++i) ASSERT_GT(r.lo[i + 1], r.hi[i] + 1u);  // apart, not adjacent
  }
}

TEST(Ranges, PastTheLimitASupersetNeverASubset) {
  Ranges r;
  std::bitset<kShards> truth;
  std::mt19937 rng(7);
  bool exact = true;
  for (int i = 0; i < 200; ++i) {
    const uint32_t lo = rng() % kShards, hi = std::min<uint32_t>(lo + rng() % 8, kShards - 1);
    exact = r.Add(lo, hi) && exact;
    for (uint32_t x = lo; x <= hi; ++x) truth.set(x);
    ASSERT_LE(r.count, kMaxRanges);
  }
  EXPECT_FALSE(exact);
  for (uint32_t x = 0; x < kShards; ++x) {
    if (truth.test(x)) {
      ASSERT_TRUE(r.Contains(x)) << x;
    }
  }
}

TEST(Ranges, Intersects) {
  const Ranges a = R({{0, 10}, {100, 200}});
  EXPECT_TRUE(a.Intersects(R({{10, 11}})));
  EXPECT_TRUE(a.Intersects(R({{50, 60}, {150, 150}})));
  EXPECT_FALSE(a.Intersects(R({{11, 99}, {201, 8191}})));
  EXPECT_FALSE(a.Intersects(Ranges{}));
  EXPECT_FALSE(Ranges{}.Intersects(a));
}

TEST(Parts, EachPartMeetsOnlyItsOwn) {
  const Parts p = Of(Id(18, 3, "0-2047"));
  EXPECT_TRUE(Meets(p, Id(18, 4, "4096-8191"), Part::kNode));
  EXPECT_FALSE(Meets(p, Id(18, 4, "4096-8191"), Part::kDigit));
  EXPECT_FALSE(Meets(p, Id(18, 4, "4096-8191"), Part::kShards));
  EXPECT_TRUE(Meets(p, Id(19, 3, "2047"), Part::kShards));
  EXPECT_TRUE(Meets(p, Id(19, 3, "2047"), Part::kDigit));
  EXPECT_FALSE(Meets(p, Id(19, 3, "2047"), Part::kNode));
  EXPECT_TRUE(DisjointInEveryPart(p, Id(19, 4, "")));
  EXPECT_FALSE(DisjointInEveryPart(p, Id(19, 4, "0")));
}

// The default list holds every shard: no list but the empty one is disjoint from it.
TEST(Parts, TheDefaultShardsMeetEveryNonEmptyList) {
  const Parts p = Of(Id(0, 0, "0-8191"));
  for (const char* list : {"0", "8191", "2048-4095", "5,9,100-199"}) {
    EXPECT_TRUE(Meets(p, Id(18, 3, list), Part::kShards)) << list;
  }
  EXPECT_TRUE(DisjointInEveryPart(p, Id(18, 3, "")));
}

TEST(Parts, UnknownMeetsEverything) {
  const Parts unknown;
  for (const Part part : {Part::kNode, Part::kDigit, Part::kShards}) EXPECT_TRUE(Meets(unknown, Id(1, 1, ""), part));
  EXPECT_TRUE(Includes(unknown, Id(0, 0, "")));  // (every identity)
  EXPECT_FALSE(DisjointInEveryPart(unknown, Id(0, 0, "")));
  EXPECT_FALSE(Union(unknown, Of(Id(1, 1, "1"))).known);
}

TEST(Parts, CitusNodesMeetEveryNode) {
  const Parts citus = Of(Id(kNodeFromCitus, 0, "0"));
  EXPECT_TRUE(Meets(citus, Id(5, 1, ""), Part::kNode));
  EXPECT_TRUE(Meets(Of(Id(5, 1, "")), Id(kNodeFromCitus, 1, ""), Part::kNode));
  EXPECT_TRUE(Includes(citus, Id(kNodeFromCitus, 0, "0")));
  EXPECT_TRUE(Includes(citus, Id(5, 0, "0")));  // (any node: node 5 too)
  EXPECT_FALSE(Includes(Of(Id(5, 0, "0")), Id(kNodeFromCitus, 0, "0")));
}

TEST(Parts, UnionIncludesBoth) {
  const Identity a = Id(1, 0, "0-99"), b = Id(7, 5, "300-399,500");
  const Parts u = Union(Of(a), Of(b));
  EXPECT_TRUE(Includes(u, a));
  EXPECT_TRUE(Includes(u, b));
  EXPECT_FALSE(Includes(u, Id(2, 0, "0")));
  EXPECT_FALSE(Includes(u, Id(1, 0, "0-100")));
  EXPECT_FALSE(Includes(u, Id(1, 1, "0")));
  EXPECT_TRUE(Includes(u, Id(7, 0, "350-360")));
}

TEST(Registry, FormatAndParseRoundTrip) {
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    Parts p;
    p.known = true;
    p.any_node = rng() % 7 == 0;
    for (int k = rng() % 5; k > 0 && !p.any_node; --k) {
      const uint32_t lo = rng() % kNodes;
      (void)p.nodes.Add(lo, std::min<uint32_t>(lo + rng() % 3, kNodes - 1));
    }
    p.digits = static_cast<uint16_t>(rng() & 0x3FF);
    for (int k = rng() % 40; k > 0; --k) {
      const uint32_t lo = rng() % kShards;
      (void)p.shards.Add(lo, std::min<uint32_t>(lo + rng() % 50, kShards - 1));
    }
    char text[600];
    const size_t n = Format(p, text, sizeof text);
    ASSERT_GT(n, 0u);
    const std::optional<Parts> back = Parse(std::string_view(text, n));
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(*back, p) << text;
  }
}

TEST(Registry, KnownTexts) {
  char text[100];
  EXPECT_GT(Format(Union(Of(Id(18, 3, "2048-4095")), Of(Id(0, 0, "0"))), text, sizeof text), 0u);
  EXPECT_STREQ(text, "n=0,18;d=0,3;s=0,2048-4095");
  EXPECT_GT(Format(Of(Id(kNodeFromCitus, 9, "")), text, sizeof text), 0u);
  EXPECT_STREQ(text, "n=*;d=9;s=");
  EXPECT_EQ(Format(Of(Id(1, 1, "0-8191")), text, 10), 0u);  // (too long for 10 bytes)
  EXPECT_EQ(Format(Parts{}, text, sizeof text), 0u);
}

TEST(Registry, ParseRefusesWhatFormatNeverWrites) {
  for (const char* bad : {"", "n=;d=;s=x", "n=1;d=1", "n=01;d=;s=", "n=2,1;d=;s=", "n=1,2;d=;s=", "n=1-1;d=;s=",
                          "n=3-2;d=;s=", "n=65536;d=;s=", "n=1;d=10;s=", "n=1;d=1-2;s=", "n=1;d=3,2;s=",
                          "n=1;d=1;s=8192", "n=1;d=1;s=1,", "n=1;d=1;s=1;", " n=1;d=1;s=1", "n=**;d=;s="}) {
    EXPECT_FALSE(Parse(bad).has_value()) << bad;
  }
  EXPECT_TRUE(Parse("n=;d=;s=").has_value());
  EXPECT_TRUE(Parse("n=1,3;d=2,3;s=0-9").has_value());
}

// Parts too long for a text are merged until they fit: a superset, never a subset.
TEST(Registry, FormatFittingKeepsASuperset) {
  Parts p;
  p.known = true;
  for (uint32_t i = 0; i < kMaxRanges; ++i) (void)p.nodes.Add(i * 1000, i * 1000);
  for (uint32_t i = 0; i < kMaxRanges; ++i) (void)p.shards.Add(i * 200, i * 200 + 3);
  p.digits = 0x3FF;
  char text[120];
  const Parts fitted = FormatFitting(p, text, sizeof text);
  ASSERT_TRUE(fitted.known);
  EXPECT_LT(std::strlen(text), sizeof text);
  EXPECT_EQ(*Parse(text), fitted);
  for (int i = 0; i < p.nodes.count; ++i) EXPECT_TRUE(fitted.nodes.Contains(p.nodes.lo[i]));
  for (int i = 0; i < p.shards.count; ++i) {
    EXPECT_TRUE(fitted.shards.Contains(p.shards.lo[i]) && fitted.shards.Contains(p.shards.hi[i]));
  }
  // What fits is kept exactly.
  const Parts small = Of(Id(18, 3, "2048-4095"));
  EXPECT_EQ(FormatFitting(small, text, sizeof text), small);
}

// The copy's words decode to a superset of what they encode: never a part the copy held lost.
TEST(Copy, DecodesToASuperset) {
  std::mt19937 rng(3);
  for (int i = 0; i < 5000; ++i) {
    Parts p;
    p.known = true;
    p.any_node = rng() % 9 == 0;
    for (int k = rng() % 4; k > 0; --k) {
      const uint32_t node = rng() % kNodes;
      (void)p.nodes.Add(node, node);
    }
    p.digits = static_cast<uint16_t>(rng() & 0x3FF);
    for (int k = rng() % 4; k > 0; --k) {
      const uint32_t lo = rng() % kShards;
      (void)p.shards.Add(lo, std::min<uint32_t>(lo + rng() % 100, kShards - 1));
    }
    const CopyWords w = EncodeCopy(p);
    ASSERT_GT(w.parts, 0);
    ASSERT_LT(w.shard_bits, 1u << 26);
    const Parts back = DecodeCopy(w);
    ASSERT_TRUE(back.known);
    EXPECT_EQ(back.any_node, p.any_node);
    EXPECT_EQ(back.digits, p.digits);
    for (int k = 0; k < p.nodes.count; ++k) EXPECT_TRUE(back.nodes.Contains(p.nodes.lo[k]));
    for (int k = 0; k < p.shards.count; ++k) {
      EXPECT_TRUE(back.shards.Contains(p.shards.lo[k]) && back.shards.Contains(p.shards.hi[k]));
    }
    EXPECT_EQ(back.shards.Empty(), p.shards.Empty());
  }
  EXPECT_FALSE(DecodeCopy(CopyWords{}).known);
  EXPECT_FALSE(DecodeCopy(CopyWords{-5, 0}).known);
  EXPECT_FALSE(DecodeCopy(EncodeCopy(Parts{})).known);
  EXPECT_TRUE(WrittenByCopyWords(EncodeCopy(Parts{}).parts));
  EXPECT_FALSE(WrittenByCopyWords(0));
}

TEST(Shards, ParseTheSettingsLists) {
  EXPECT_EQ(*ParseShards("0-2047"), R({{0, 2047}}));
  EXPECT_EQ(*ParseShards(" 5 , 9,100 - 199 "), R({{5, 5}, {9, 9}, {100, 199}}));
  EXPECT_EQ(*ParseShards("0-8191"), R({{0, 8191}}));
  EXPECT_TRUE(ParseShards("")->Empty());
  EXPECT_TRUE(ParseShards("   ")->Empty());
  for (const char* bad : {"8192", "1-8192", "5-4", "a", "1,", ",1", "1--2", "1 2", "-1", "99999999999"}) {
    EXPECT_FALSE(ParseShards(bad).has_value()) << bad;
  }
  // As many ranges as a set keeps, and one more.
  std::string list;
  for (int i = 0; i < kMaxRanges; ++i) list += (i ? "," : "") + std::to_string(i * 2);
  EXPECT_TRUE(ParseShards(list).has_value());
  EXPECT_FALSE(ParseShards(list + ",100").has_value());
}

}  // namespace
}  // namespace idgen::identity
