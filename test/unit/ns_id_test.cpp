#include "core/ns_id.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen::ns_id {
namespace {

using testing::FakeClock;
using testing::FakeRandom;
using testing::KindOf;

const Alphabet kBase36 = MakeAlphabet(kDefaultAlphabet);

struct Harness : testing::GeneratorInputs {
  Generated<Value> Next(int bits = 32) { return ns_id::Next(word, stats, clock, pool, 1, bits); }
};

TEST(NsId, WidthsAreFixedPerRandomBits) {
  EXPECT_EQ(Width(32, kBase36), 19u);  // 95 bits
  EXPECT_EQ(Width(0, kBase36), 13u);   // 63 bits
  EXPECT_EQ(Width(64, kBase36), 25u);  // 127 bits
  EXPECT_EQ(Width(32, MakeAlphabet("01")), 95u);
}

TEST(NsId, FormatAndParseRoundTrip) {
  const int64_t ns = 1767225600123456789;
  for (int bits : {0, 1, 16, 32, 63, 64}) {
    const Value value = (static_cast<Value>(ns) << bits) | (bits == 0 ? 0 : 1);
    const Text text = Format(value, bits, kBase36);
    ASSERT_EQ(text.size, Width(bits, kBase36));
    Value back = 0;
    ASSERT_EQ(Parse(text.view(), bits, kBase36, back), ParseProblem::kNone);
    ASSERT_TRUE(back == value) << bits;
    ASSERT_EQ(TimeNs(text.view(), bits, kBase36), ns);
    std::string upper(text.view());
    for (char& c : upper) c = static_cast<char>(std::toupper(c));
    ASSERT_EQ(TimeNs(upper, bits, kBase36), ns) << "base36 is case-insensitive";
  }
}

TEST(NsId, TextOrderIsTimeOrder) {
  const Text a = Format(static_cast<Value>(1) << 32, 32, kBase36);
  const Text b = Format((static_cast<Value>(2) << 32) | 0xFFFFFFFF, 32, kBase36);
  const Text c = Format(static_cast<Value>(INT64_MAX) << 32, 32, kBase36);
  EXPECT_LT(a.view(), b.view());
  EXPECT_LT(b.view(), c.view());
}

TEST(NsId, BadTextIsRefused) {
  Value v = 0;
  EXPECT_EQ(Parse("", 32, kBase36, v), ParseProblem::kBadLength);
  EXPECT_EQ(Parse(std::string(18, '0'), 32, kBase36, v), ParseProblem::kBadLength);
  EXPECT_EQ(Parse(std::string(18, '0') + "-", 32, kBase36, v), ParseProblem::kBadDigit);
  EXPECT_EQ(Parse(std::string(19, 'z'), 32, kBase36, v), ParseProblem::kOverflow);  // above 2^95
  EXPECT_EQ(KindOf([] { TimeNs("zzzz", 32, kBase36); }), ErrorKind::kBadText);
  EXPECT_EQ(KindOf([] { TimeNs(std::string(19, 'z'), 32, kBase36); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(KindOf([] { TimeNs("0", 65, kBase36); }), ErrorKind::kBadArgument);
}

TEST(NsId, AlphabetsMustSortLikeTheirValues) {
  EXPECT_NO_THROW(MakeAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"));
  EXPECT_NO_THROW(MakeAlphabet("0123456789abcdefghjkmnpqrstvwxyz"));
  for (const char* bad : {"", "0", "10", "0123456789abcdefa", "abc def", "ab\x7f", "0123456789é"}) {
    EXPECT_EQ(KindOf([bad] { MakeAlphabet(bad); }), ErrorKind::kBadArgument) << bad;
  }
  const Alphabet mixed = MakeAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
  Value v = 0;
  EXPECT_EQ(Parse(std::string(16, 'a'), 32, mixed, v), ParseProblem::kNone);  // case matters: 'a' is a digit
  EXPECT_EQ(mixed.value[static_cast<unsigned char>('a')], 36);
}

TEST(NsId, TheGeneratorIsStrictlyIncreasingAndFollowsTheClock) {
  Harness h;
  h.clock.ns = 1767225600000000000;
  Value previous = 0;
  for (int i = 0; i < 100000; ++i) {  // a frozen clock: one nanosecond each, from 62.5 us ahead
    const Generated<Value> g = h.Next();
    ASSERT_EQ(g.wait_until_ns, 0);
    ASSERT_GT(g.value, previous);
    previous = g.value;
  }
  EXPECT_EQ(static_cast<int64_t>(previous >> 32), 1767225600000000000 + int64_t{kJumpNs} + 99999);
  EXPECT_EQ(h.stats.max_lead_us.load(), 162u);
  h.clock.ns += 5000000;  // the clock moves on: the word jumps to it
  EXPECT_EQ(static_cast<int64_t>(h.Next().mark), 1767225600005000000 + int64_t{kJumpNs});
}

TEST(NsId, AtMostOneMillisecondAheadAndAStepBackIsRiddenOut) {
  Harness h;
  h.clock.ns = 1767225600000000000;
  int issued = 0;
  Generated<Value> g{};
  while ((g = h.Next(0)).wait_until_ns == 0) ++issued;
  EXPECT_EQ(issued, 1000001 - int64_t{kJumpNs});  // 62 500 .. 1 000 000 ns ahead
  EXPECT_EQ(g.wait_until_ns, h.clock.ns + 1);     // the next is the caller's one nanosecond later
  h.clock.ns -= 10000000000;                      // ten seconds back: carries on, no wait
  EXPECT_EQ(h.Next(0).wait_until_ns, 0);
  EXPECT_EQ(h.stats.regressions.load(), 1u);
}

TEST(NsId, CarriesOnThroughAnyStepBackWhateverItsWidth) {
  // One word for every width: a wide call that returned to the clock would take the narrow ones,
  // unique by the word's order alone, back with it (found by the adversarial pass: 1,770 repeats).
  for (int bits : {0, kMinRandomBitsAlone - 1, kMinRandomBitsAlone, 64}) {
    Harness h;
    h.clock.ns = 1767225600000000000 + 3600000000000;  // an hour ahead
    const Generated<Value> ahead = h.Next(bits);
    h.clock.ns = 1767225600000000000;
    const Generated<Value> back = ns_id::Next(h.word, h.stats, h.clock, h.pool, 1, bits, 60000);
    EXPECT_EQ(back.mark, ahead.mark + 1) << bits << " random bits: carries on";
  }
}

TEST(NsId, DecodesAtTheNanosecondItHolds) {
  Harness first;  // a word of 0 is behind no clock of 1 ns: no jump
  first.clock.ns = 1;
  EXPECT_EQ(first.Next().mark, 1u);
  for (int64_t ns : {int64_t{2}, int64_t{1767225600123456789}, INT64_MAX - int64_t{kJumpNs}}) {
    Harness h;
    h.clock.ns = ns;
    const Generated<Value> g = h.Next();
    ASSERT_EQ(g.wait_until_ns, 0);
    ASSERT_EQ(static_cast<int64_t>(g.mark), ns + int64_t{kJumpNs});
    ASSERT_EQ(TimeNs(Format(g.value, 32, kBase36).view(), 32, kBase36), ns + int64_t{kJumpNs});
  }
  Harness before;
  before.clock.ns = -1;
  EXPECT_EQ(KindOf([&] { before.Next(); }), ErrorKind::kDatetimeOutOfRange);
  Harness end;  // the jump would pass the last nanosecond a text holds
  end.clock.ns = INT64_MAX - 1;
  EXPECT_EQ(KindOf([&] { end.Next(); }), ErrorKind::kDatetimeOutOfRange);
}

}  // namespace
}  // namespace idgen::ns_id
