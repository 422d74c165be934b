#include "core/ulid.hpp"

#include <gtest/gtest.h>

#include <set>
#include <span>
#include <string>

#include "core/bytes.hpp"
#include "core/error.hpp"
#include "core/uuidv7.hpp"
#include "fakes.hpp"

namespace idgen::ulid {
namespace {

using testing::KindOf;
using testing::UuidFromText;

std::string Text(const Uuid& value) { return std::string(Format(value).view()); }

Uuid Must(std::string_view text) {
  Uuid value;
  EXPECT_EQ(Parse(text, value), ParseProblem::kNone) << text;
  return value;
}

ParseProblem ProblemOf(std::string_view text) {
  Uuid value;
  return Parse(text, value);
}

// The spec's examples (github.com/ulid/spec, README); their 128 bits worked out by hand from the
// alphabet (each character 5 bits, the first 3).
TEST(Ulid, SpecExampleKnownAnswer) {
  const Uuid id = UuidFromText("01563e3a-b5d3-d676-4c61-efb99302bd5b");
  EXPECT_EQ(Text(id), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
  EXPECT_EQ(Must("01ARZ3NDEKTSV4RRFFQ69G5FAV"), id);
  EXPECT_EQ(TimeMs(id), 1469922850259);  // 2016-07-30 23:54:10.259 UTC
}

TEST(Ulid, SpecMonotonicExampleIsPlusOne) {
  // "01BX5ZZKBKACTAV9WEVGEMMVRZ" then "...VS0": the same millisecond, the 80 bits plus one.
  const Uuid a = Must("01BX5ZZKBKACTAV9WEVGEMMVRZ");
  const Uuid b = Must("01BX5ZZKBKACTAV9WEVGEMMVS0");
  EXPECT_EQ(a, UuidFromText("015f4bff-cd73-5334-ada7-8edc1d4a6f1f"));
  EXPECT_EQ(b, UuidFromText("015f4bff-cd73-5334-ada7-8edc1d4a6f20"));
  EXPECT_EQ(TimeMs(a), 1508808576371);
  EXPECT_EQ(TimeMs(a), TimeMs(b));
  EXPECT_LT(a, b);
  EXPECT_EQ(Text(Must("01BX5ZZKBKZZZZZZZZZZZZZZZZ")), "01BX5ZZKBKZZZZZZZZZZZZZZZZ");
  EXPECT_EQ(Must("01BX5ZZKBKZZZZZZZZZZZZZZZZ"), UuidFromText("015f4bff-cd73-ffff-ffff-ffffffffffff"));
}

TEST(Ulid, TheExtremes) {
  Uuid max;
  max.bytes.fill(0xFF);
  EXPECT_EQ(Text(max), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
  EXPECT_EQ(Must("7ZZZZZZZZZZZZZZZZZZZZZZZZZ"), max);
  EXPECT_EQ(TimeMs(max), 281474976710655);  // 2^48 - 1, as the spec says
  EXPECT_EQ(Text(Uuid{}), "00000000000000000000000000");
  EXPECT_EQ(Must("00000000000000000000000000"), Uuid{});
  // Beyond 128 bits: every first character above 7.
  for (char first : std::string_view("89ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz")) {
    std::string text(26, '0');
    text[0] = first;
    EXPECT_EQ(ProblemOf(text), ParseProblem::kOverflow) << text;
  }
  EXPECT_EQ(ProblemOf("80000000000000000000000000"), ParseProblem::kOverflow);
  EXPECT_EQ(KindOf([] { ParseOrThrow("80000000000000000000000000"); }), ErrorKind::kBadText);
}

TEST(Ulid, EveryCharacterInEveryPosition) {
  // Each digit alone in each position (the first only up to 7) reads as digit << 5 * (25 - i) and
  // writes back as itself.
  constexpr std::string_view kAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  for (size_t pos = 0; pos < 26; ++pos) {
    for (size_t d = 0; d < (pos == 0 ? 8 : 32); ++d) {
      std::string text(26, '0');
      text[pos] = kAlphabet[d];
      const Uuid value = Must(text);
      unsigned __int128 expected = static_cast<unsigned __int128>(d) << (5 * (25 - pos));
      Uuid want;
      for (int i = 15; i >= 0; --i, expected >>= 8) want.bytes[i] = static_cast<uint8_t>(expected);
      EXPECT_EQ(value, want) << text;
      EXPECT_EQ(Text(value), text);
    }
  }
}

TEST(Ulid, CaseAndCrockfordAliases) {
  const Uuid id = Must("01ARZ3NDEKTSV4RRFFQ69G5FAV");
  EXPECT_EQ(Must("01arz3ndektsv4rrffq69g5fav"), id);
  EXPECT_EQ(Must("01aRz3NdEkTsV4rRfFq69G5fAv"), id);
  // I and L read as 1, O as 0, in either case.
  EXPECT_EQ(Must("0IARZ3NDEKTSV4RRFFQ69G5FAV"), id);
  EXPECT_EQ(Must("0iARZ3NDEKTSV4RRFFQ69G5FAV"), id);
  EXPECT_EQ(Must("0LARZ3NDEKTSV4RRFFQ69G5FAV"), id);
  EXPECT_EQ(Must("0lARZ3NDEKTSV4RRFFQ69G5FAV"), id);
  EXPECT_EQ(Must("O1ARZ3NDEKTSV4RRFFQ69G5FAV"), id);
  EXPECT_EQ(Must("o1ARZ3NDEKTSV4RRFFQ69G5FAV"), id);
  // Written back: canonical uppercase, no alias.
  EXPECT_EQ(Text(Must("o1arz3ndektsv4rrffq69g5fav")), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
}

TEST(Ulid, EveryByteThatIsNoDigit) {
  const std::string_view kDigits = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyziIlLoO";
  int refused = 0;
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    std::string text = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    text[13] = c;
    Uuid value;
    char bad = 0;
    const ParseProblem problem = Parse(text, value, &bad);
    if (kDigits.find(c) != std::string_view::npos) {
      EXPECT_EQ(problem, ParseProblem::kNone) << b;
    } else {
      ++refused;
      EXPECT_EQ(problem, ParseProblem::kBadDigit) << b;
      EXPECT_EQ(bad, c);
    }
  }
  EXPECT_EQ(refused, 256 - 60);  // U and u among them
  EXPECT_EQ(ProblemOf("01ARZ3NDEKTSV4RRFFQ69G5FAU"), ParseProblem::kBadDigit);
}

TEST(Ulid, WrongLengths) {
  EXPECT_EQ(ProblemOf(""), ParseProblem::kEmpty);
  EXPECT_EQ(ProblemOf("0"), ParseProblem::kBadLength);
  EXPECT_EQ(ProblemOf("01ARZ3NDEKTSV4RRFFQ69G5FA"), ParseProblem::kBadLength);    // 25
  EXPECT_EQ(ProblemOf("01ARZ3NDEKTSV4RRFFQ69G5FAVV"), ParseProblem::kBadLength);  // 27
  EXPECT_EQ(ProblemOf(" 01ARZ3NDEKTSV4RRFFQ69G5FAV"), ParseProblem::kBadLength);
  EXPECT_EQ(ProblemOf("01ARZ3NDEK-TSV4RRFFQ69G5FA"), ParseProblem::kBadDigit);  // 26 with a dash
  EXPECT_EQ(ProblemOf(std::string_view("01ARZ3NDEKTSV4RRFFQ69G5FA\0", 26)), ParseProblem::kBadDigit);
  // A failed parse leaves the output alone.
  Uuid value = Must("01ARZ3NDEKTSV4RRFFQ69G5FAV");
  EXPECT_NE(Parse("80000000000000000000000000", value), ParseProblem::kNone);
  EXPECT_EQ(Text(value), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
}

TEST(Ulid, ErrorsQuoteAndHint) {
  for (const char* bad :
       {"", "0", "01ARZ3NDEKTSV4RRFFQ69G5FAU", "80000000000000000000000000", "01ARZ3NDEKTSV4RRFFQ69G5FAVV"}) {
    try {
      ParseOrThrow(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kBadText) << bad;
      EXPECT_EQ(std::string(e.what()), std::string("invalid ULID \"") + bad + "\"");
      EXPECT_FALSE(e.detail().empty());
      EXPECT_NE(e.hint().find("Crockford"), std::string::npos);
    }
  }
}

TEST(Ulid, MinAtAndTime) {
  EXPECT_EQ(Text(MinAt(1469922850259)), "01ARZ3NDEK0000000000000000");
  EXPECT_EQ(TimeMs(MinAt(1469922850259)), 1469922850259);
  EXPECT_LE(MinAt(1469922850259), Must("01ARZ3NDEKTSV4RRFFQ69G5FAV"));
  EXPECT_GT(MinAt(1469922850260), Must("01ARZ3NDEKTSV4RRFFQ69G5FAV"));
  EXPECT_EQ(Text(MinAt(0)), "00000000000000000000000000");
  EXPECT_EQ(Text(MinAt(kMaxMs)), "7ZZZZZZZZZ0000000000000000");
  EXPECT_EQ(KindOf([] { MinAt(-1); }), ErrorKind::kDatetimeOutOfRange);
  EXPECT_EQ(KindOf([] { MinAt(kMaxMs + 1); }), ErrorKind::kDatetimeOutOfRange);
}

TEST(Ulid, ComposeLayout) {
  // 48 bits of milliseconds, 12 of fraction, 4 of counter, 64 random: no version or variant bits.
  const Uuid id = Compose((uint64_t{0x0123456789AB} << 12) | 0xCDE, 0xF, 0x0011223344556677);
  EXPECT_EQ(ToString(id), "01234567-89ab-cdef-0011-223344556677");
  EXPECT_EQ(TimeMs(id), 0x0123456789AB);
  Uuid all;
  all.bytes.fill(0xFF);
  EXPECT_EQ(Compose((uint64_t{1} << 60) - 1, 0xF, ~uint64_t{0}), all);
}

struct Harness : testing::GeneratorInputs {
  Uuid Next() {
    const Generated<Uuid> g = ulid::Next(word, stats, clock, pool, 1);
    EXPECT_EQ(g.wait_until_ns, 0);
    return g.value;
  }
};

TEST(Ulid, NextCarriesTheClocksMillisecond) {
  Harness h;
  h.clock.SetMs(1469922850259);
  const Uuid id = h.Next();
  EXPECT_EQ(TimeMs(id), 1469922850259);
  EXPECT_EQ(Text(id).substr(0, 10), "01ARZ3NDEK");
}

TEST(Ulid, FrozenClockStrictlyIncreasesAndMovesOnNeverWraps) {
  // 65,536 ULIDs per millisecond of a frozen clock stay in it, the next ones carry the next
  // millisecond (and wait for the clock), never a wrap and never a repeat.
  Harness h;
  h.clock.SetMs(1000);
  Uuid last{};
  std::set<Uuid> seen;
  int in_first_ms = 0;
  int waited = 0;
  for (int i = 0; i < 70000; ++i) {
    const Generated<Uuid> g = ulid::Next(h.word, h.stats, h.clock, h.pool, 1);
    if (i > 0) {
      ASSERT_LT(last, g.value) << i;
    }
    last = g.value;
    seen.insert(g.value);
    if (TimeMs(g.value) == 1000) ++in_first_ms;
    if (g.wait_until_ns != 0) {
      ++waited;
      EXPECT_GT(g.wait_until_ns, h.clock.ns);
    }
    ASSERT_LE(TimeMs(g.value), 1001);
  }
  EXPECT_EQ(seen.size(), 70000u);
  EXPECT_GE(in_first_ms, 65536 - int(uuidv7::kJumpSteps) * 16);
  EXPECT_LE(in_first_ms, 65536);
  EXPECT_GT(waited, 0);
}

TEST(Ulid, AClockSteppedBackCarriesOn) {
  Harness h;
  h.clock.SetMs(5000);
  const Uuid before = h.Next();
  h.clock.SetMs(4000);  // a second back
  const Uuid after = h.Next();
  EXPECT_LT(before, after);
  EXPECT_GE(TimeMs(after), 5000);
}

TEST(Ulid, SharesTheUuidv7Word) {
  // A ULID and a UUIDv7 from one word: the word moves past both, never repeats.
  Harness h;
  h.clock.SetMs(7000);
  const Uuid u = h.Next();
  const Uuid v = uuidv7::Next(h.word, h.stats, h.clock, h.pool, 1).value;
  const Uuid w = h.Next();
  // The word each one was made from: a ULID's first 64 bits; a UUIDv7's time bits and counter.
  const uint64_t word_u = LoadBigEndian(std::span(u.bytes).first(8));
  const uint64_t word_v = uuidv7::TimeBits(v) << 4 | (v.bytes[8] >> 2 & 0xF);
  const uint64_t word_w = LoadBigEndian(std::span(w.bytes).first(8));
  EXPECT_LT(word_u, word_v);
  EXPECT_LT(word_v, word_w);
}

TEST(Ulid, TheMarkIsTheTimeBits) {
  Harness h;
  h.clock.SetMs(9000);
  const Generated<Uuid> g = ulid::Next(h.word, h.stats, h.clock, h.pool, 1);
  EXPECT_EQ(g.mark, LoadBigEndian(std::span(g.value.bytes).first(8)) >> 4);
  EXPECT_EQ(g.mark >> 12, 9000u);
}

TEST(Ulid, OutOfRangeClockAndFailingRandom) {
  Harness h;
  h.clock.ns = -1;
  EXPECT_EQ(KindOf([&] { h.Next(); }), ErrorKind::kDatetimeOutOfRange);
  Harness f;
  f.clock.SetMs(1000);
  f.source.mode = testing::FakeRandom::Mode::kFail;
  EXPECT_EQ(KindOf([&] { ulid::Next(f.word, f.stats, f.clock, f.pool, 1); }), ErrorKind::kRandomFailed);
}

}  // namespace
}  // namespace idgen::ulid
