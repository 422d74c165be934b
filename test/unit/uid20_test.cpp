#include "core/uid20.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "fakes.hpp"

namespace idgen::uid20 {
namespace {

using testing::FakeClock;
using testing::FakeRandom;
using testing::KindOf;

constexpr int64_t kEpoch = kDefaultEpochMs;

Value Digits(const char* text) {
  Value v = 0;
  for (const char* p = text; *p; ++p) v = v * 10 + static_cast<unsigned>(*p - '0');
  return v;
}

struct Harness : testing::GeneratorInputs {
  explicit Harness(const Variant& v) : variant(v) {}
  const Variant& variant;
  EpochSettings settings{kEpoch, 5000};
  Generated<Value> Next(int server = 1) { return uid20::Next(variant, settings, word, stats, clock, pool, 1, server); }
};

TEST(Uid20, TheVectorsDecode) {
  Parts p = Decompose(kMillis, kEpoch, Digits("00000000000001234561"));
  EXPECT_EQ(p.unix_ms, kEpoch);
  EXPECT_EQ(p.seq, 123456);
  EXPECT_EQ(p.server, 1);
  p = Decompose(kMillis, kEpoch, Digits("00315360000001234561"));
  EXPECT_EQ(p.unix_ms - kEpoch, 31536000000);  // 365 days
  EXPECT_EQ(FormatUtc(p.unix_ms), "2012-01-01 00:00:00.000 UTC");
  p = Decompose(kMillis, kEpoch, Digits("18290880000001234561"));  // above 2^63 - 1: numeric only
  EXPECT_EQ(p.unix_ms - kEpoch, 1829088000000);
  EXPECT_EQ(p.seq, 123456);
  EXPECT_EQ(p.server, 1);
  EXPECT_EQ(Compose(kMillis, 1829088000000, 123456, 1), Digits("18290880000001234561"));
  EXPECT_EQ(KindOf([] { ToBigint(kMillis, kEpoch, Digits("18290880000001234561")); }), ErrorKind::kNumericOutOfRange);
  EXPECT_EQ(ToBigint(kMillis, kEpoch, Digits("00315360000001234561")), 315360000001234561);
}

TEST(Uid20, TheSecondsVariant) {
  const Parts p = Decompose(kSeconds, kEpoch, Digits("00031536000123456781"));
  EXPECT_EQ(p.unix_ms - kEpoch, 31536000000);
  EXPECT_EQ(p.seq, 12345678);
  EXPECT_EQ(p.server, 1);
}

TEST(Uid20, DecomposeDigitsRefusesWhatIsNotAUid20) {
  EXPECT_EQ(Decompose(kMillis, kEpoch, std::string_view("00000000000001234561")).seq, 123456);
  EXPECT_EQ(Decompose(kMillis, kEpoch, std::string_view("18446744073709551615")).server, 5);
  for (const char* beyond : {"18446744073709551616", "340282366920938463463374607431768211461",
                             "99999999999999999999999999999999999999999999"}) {
    try {
      Decompose(kMillis, kEpoch, std::string_view(beyond));
      ADD_FAILURE() << beyond;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNumericOutOfRange);
      EXPECT_EQ(std::string(e.what()), std::string("UID20 value ") + beyond + " is out of range");
    }
  }
  EXPECT_EQ(KindOf([] { Decompose(kMillis, kEpoch, std::string_view("-1")); }), ErrorKind::kBadText);
  EXPECT_EQ(KindOf([] { Decompose(kMillis, kEpoch, std::string_view("")); }), ErrorKind::kBadText);
}

TEST(Uid20, TheRangeEndsAtTheUnsignedBigint) {
  EXPECT_EQ(FormatUtc(LastMs(kMillis, kEpoch)), "2069-06-15 09:33:27.369 UTC");
  EXPECT_EQ(KindOf([] { Decompose(kMillis, kEpoch, kMaxValue + 1); }), ErrorKind::kNumericOutOfRange);
  EXPECT_NO_THROW(Decompose(kMillis, kEpoch, kMaxValue));
  try {
    ToBigint(kMillis, kEpoch, static_cast<Value>(INT64_MAX) + 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.detail().find("until 2040-03-24"), std::string::npos) << e.detail();
    EXPECT_NE(e.hint().find("idgen.uid20_numeric()"), std::string::npos);
  }
  Harness h(kMillis);
  h.clock.SetMs(LastMs(kMillis, kEpoch) + 1);
  EXPECT_EQ(KindOf([&] { h.Next(); }), ErrorKind::kDatetimeOutOfRange);
  h.clock.SetMs(kEpoch - 1);
  EXPECT_EQ(KindOf([&] { h.Next(); }), ErrorKind::kDatetimeOutOfRange);
}

TEST(Uid20, ServerDigits) {
  for (int server = 0; server <= 9; ++server) {
    Harness h(kMillis);
    h.clock.SetMs(kEpoch + 5);
    const Generated<Value> id = h.Next(server);
    ASSERT_EQ(id.wait_until_ns, 0);
    EXPECT_EQ(Decompose(kMillis, kEpoch, id.value).server, server);
  }
  Harness h(kMillis);
  EXPECT_EQ(KindOf([&] { h.Next(10); }), ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([&] { h.Next(-1); }), ErrorKind::kBadArgument);
}

TEST(Uid20, ATickCountsFromARandomStartAndNeverRepeats) {
  Harness h(kMillis);
  const int64_t t = 1767225600000;
  h.clock.SetMs(t);
  std::set<Value> seen;
  Value previous = 0;
  int64_t first_seq = -1;
  Generated<Value> id{};
  for (;;) {
    id = h.Next();
    if (id.wait_until_ns != 0) break;
    ASSERT_GT(id.value, previous);
    previous = id.value;
    seen.insert(id.value);
    const Parts p = Decompose(kMillis, kEpoch, id.value);
    ASSERT_EQ(p.unix_ms, t);
    if (first_seq < 0) first_seq = p.seq;
  }
  EXPECT_LT(first_seq, 900000);
  EXPECT_EQ(seen.size(), static_cast<size_t>(1000000 - first_seq));  // up to 999 999
  EXPECT_GE(seen.size(), 100000u);
  // Past the tick's last sequence value: the first of the next tick, once the clock is there.
  EXPECT_EQ(id.wait_until_ns, (t + 1) * 1000000);
  EXPECT_GT(id.value, previous);
  EXPECT_EQ(Decompose(kMillis, kEpoch, id.value).unix_ms, t + 1);
  EXPECT_EQ(Decompose(kMillis, kEpoch, id.value).seq, 0);
  h.clock.SetMs(t + 1);
  const Generated<Value> next = h.Next();
  EXPECT_EQ(next.wait_until_ns, 0);
  EXPECT_GT(next.value, id.value);
  EXPECT_EQ(Decompose(kMillis, kEpoch, next.value).unix_ms, t + 1);
}

TEST(Uid20, AClockBackWithinTheLimitCarriesOnBeyondItIsRefused) {
  Harness h(kMillis);
  const int64_t t = 1767225600000;
  h.clock.SetMs(t);
  const Value before = h.Next().value;
  h.clock.SetMs(t - 1000);
  const Generated<Value> after = h.Next();  // in the last tick issued, returned once the clock is there
  EXPECT_EQ(after.wait_until_ns, t * 1000000);
  EXPECT_GT(after.value, before);
  h.clock.SetMs(t - 10000);
  EXPECT_EQ(KindOf([&] { h.Next(); }), ErrorKind::kClockRegression);
}

TEST(Uid20, DecodesLieInTheirTickAboveTheirStartAndRoundTrip) {
  for (const Variant* v : {&kMillis, &kSeconds}) {
    for (int64_t us = 0; us < v->unit_ms * 1000; us += (v->unit_ms == 1 ? 1 : 997)) {
      Harness h(*v);
      const int64_t start = kEpoch + 123456 * v->unit_ms;
      h.clock.ns = (start * 1000 + us) * 1000;
      const Generated<Value> id = h.Next(3);
      ASSERT_EQ(id.wait_until_ns, 0);
      ASSERT_EQ(Decompose(*v, kEpoch, id.value).unix_ms, start) << v->family << " " << us;
      ASSERT_GE(id.value, Compose(*v, 123456, 0, 0));
    }
  }
}

// idgen.max_clock_regression below UID20 (seconds)'s tick of 1 s (issue 29, item 6): a tick used up
// puts the word a tick ahead of a clock that is fine; the next caller waits, never refuses.
TEST(Uid20, ALimitBelowATickNeverRefusesAFineClock) {
  Harness h(kSeconds);
  h.settings.max_regression_ms = 500;
  const int64_t t = 1767225600000;
  h.clock.SetMs(t);
  h.Next();
  const uint64_t tick = h.word.value.load() >> kSeconds.seq_bits;
  h.word.value.store((tick << kSeconds.seq_bits) | (kSeconds.seq_span - 1));  // the tick used up
  const Generated<Value> waits = h.Next();
  EXPECT_EQ(waits.wait_until_ns, (t + 1000) * 1000000);
  const Generated<Value> also = h.Next();  // another caller before the clock's next second
  EXPECT_EQ(also.wait_until_ns, (t + 1000) * 1000000);
  EXPECT_GT(also.value, waits.value);
}

}  // namespace
}  // namespace idgen::uid20

namespace idgen::uid20 {
namespace {

TEST(Uid20, DigitsParseAndFormat) {
  Value v = 0;
  ASSERT_EQ(ParseDigits("18446744073709551615", v), ParseProblem::kNone);
  EXPECT_TRUE(v == kMaxValue);
  EXPECT_EQ(FormatDigits(v).view(), "18446744073709551615");
  EXPECT_EQ(FormatDigits(0).view(), "0");
  ASSERT_EQ(ParseDigits("000123", v), ParseProblem::kNone);
  EXPECT_TRUE(v == 123);
  for (const char* bad : {"", "-1", "1.5", "NaN", "Infinity", " 1", "1 ", "1234567890123456789012345678901234567890"}) {
    EXPECT_NE(ParseDigits(bad, v), ParseProblem::kNone) << bad;
  }
  ASSERT_EQ(ParseDigits("170141183460469231731687303715884105727", v), ParseProblem::kNone);  // 39 digits fit
  EXPECT_EQ(FormatDigits(v).view(), "170141183460469231731687303715884105727");
  ASSERT_EQ(ParseDigits("340282366920938463463374607431768211455", v), ParseProblem::kNone);  // 2^128 - 1
  EXPECT_EQ(FormatDigits(v).view(), "340282366920938463463374607431768211455");
  // Beyond 128 bits is refused, never wrapped: 2^128 + 5 would otherwise read as 5.
  EXPECT_EQ(ParseDigits("340282366920938463463374607431768211456", v), ParseProblem::kOverflow);
  EXPECT_EQ(ParseDigits("340282366920938463463374607431768211461", v), ParseProblem::kOverflow);
  EXPECT_EQ(ParseDigits("999999999999999999999999999999999999999", v), ParseProblem::kOverflow);
  EXPECT_EQ(ParseDigits("", v), ParseProblem::kEmpty);
  EXPECT_EQ(ParseDigits("12a", v), ParseProblem::kBadDigit);
  ASSERT_EQ(ParseDigits("0000000000000000000000000000000000000000000042", v),
            ParseProblem::kNone);  // leading zeros: any number
  EXPECT_TRUE(v == 42);
}

}  // namespace
}  // namespace idgen::uid20
