#include "core/typeid.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/uuidv7.hpp"
#include "fakes.hpp"

namespace idgen::type_id {
namespace {

using testing::FakeRandom;
using testing::UuidFromText;

const Uuid kRfc = UuidFromText("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");

ParseProblem ProblemOf(std::string_view text) {
  Parsed parsed{};
  return Parse(text, parsed);
}

TEST(Typeid, PrefixRule) {
  for (const char* ok : {"a", "post", "user_account", "a_b", "a__b",
                         "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"}) {
    EXPECT_TRUE(ValidPrefix(ok)) << ok;
  }
  for (const char* bad : {"", "Post", "POST", "post1", "_post", "post_", "pre.fix", "pre fix",
                          "pr\xc3\xa9"
                          "fix",
                          "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"}) {
    EXPECT_FALSE(ValidPrefix(bad)) << bad;
  }
  try {
    CheckPrefix("Post");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadArgument);
    EXPECT_STREQ(e.what(), "invalid typeid prefix \"Post\"");
    EXPECT_EQ(e.hint(), kPrefixRule);
  }
}

TEST(Typeid, FormatsTheRfcUuidInBothEncodings) {
  EXPECT_EQ(Format("post", kRfc, Encoding::kBase36).view(), "post_036twi214qwj7mgsvq83nm8wf");
  const Uuid spec = UuidFromText("01890a5d-ac96-774b-bcce-b302099a8057");
  EXPECT_EQ(Format("prefix", spec, Encoding::kBase32).view(), "prefix_01h455vb4pex5vsknk084sn02q");
}

TEST(Typeid, ParsesBothEncodings) {
  const Parsed a = ParseOrThrow("post_036twi214qwj7mgsvq83nm8wf");
  EXPECT_EQ(a.prefix, "post");
  EXPECT_EQ(a.id, kRfc);
  EXPECT_EQ(a.encoding, Encoding::kBase36);
  const Parsed b = ParseOrThrow("user_account_01h455vb4pex5vsknk084sn02q");
  EXPECT_EQ(b.prefix, "user_account");
  EXPECT_EQ(b.encoding, Encoding::kBase32);
  EXPECT_EQ(ToString(b.id), "01890a5d-ac96-774b-bcce-b302099a8057");
  // The TypeID spec's vectors.
  EXPECT_EQ(ToString(ParseOrThrow("prefix_0123456789abcdefghjkmnpqrs").id), "0110c853-1d09-52d8-d73e-1194e95b5f19");
  EXPECT_EQ(ToString(ParseOrThrow("7zzzzzzzzzzzzzzzzzzzzzzzzz").id), "ffffffff-ffff-ffff-ffff-ffffffffffff");
  EXPECT_EQ(ParseOrThrow("00000000000000000000000000").prefix, "");
}

TEST(Typeid, EveryMalformedInputClass) {
  EXPECT_EQ(ProblemOf(""), ParseProblem::kEmpty);
  EXPECT_EQ(ProblemOf("post036twi214qwj7mgsvq83nm8wf"), ParseProblem::kNoSeparator);
  EXPECT_EQ(ProblemOf("_00000000000000000000000000"), ParseProblem::kBadPrefix);  // empty prefix with a separator
  EXPECT_EQ(ProblemOf("_"), ParseProblem::kBadPrefix);
  EXPECT_EQ(ProblemOf("Post_036twi214qwj7mgsvq83nm8wf"), ParseProblem::kBadPrefix);  // uppercase prefix
  EXPECT_EQ(ProblemOf("PREFIX_00000000000000000000000000"), ParseProblem::kBadPrefix);
  EXPECT_EQ(ProblemOf("12345_00000000000000000000000000"), ParseProblem::kBadPrefix);
  EXPECT_EQ(ProblemOf("prefix__00000000000000000000000000"), ParseProblem::kBadPrefix);
  EXPECT_EQ(ProblemOf(std::string(64, 'a') + "_036twi214qwj7mgsvq83nm8wf"), ParseProblem::kBadPrefix);  // too long
  EXPECT_EQ(ProblemOf("post_"), ParseProblem::kBadLength);
  EXPECT_EQ(ProblemOf("post_36twi214qwj7mgsvq83nm8wf"), ParseProblem::kBadLength);       // unpadded
  EXPECT_EQ(ProblemOf("prefix_123456789012345678901234567"), ParseProblem::kBadLength);  // too long
  EXPECT_EQ(ProblemOf("post_036twi214qwj7mgsvq83nm8w!"), ParseProblem::kBadDigit);
  EXPECT_EQ(ProblemOf("prefix_1234567890123456789012345 "), ParseProblem::kBadDigit);
  EXPECT_EQ(ProblemOf("prefix_0123456789ABCDEFGHJKMNPQRS"), ParseProblem::kBadDigit);  // spec body: lowercase only
  EXPECT_EQ(ProblemOf("prefix_ooooooiiiiiiuuuuuuulllllll"), ParseProblem::kBadDigit);
  EXPECT_EQ(ProblemOf("post_f5lxx1zz5pnorynqglhzmsp34"), ParseProblem::kOverflow);  // 2^128
  EXPECT_EQ(ProblemOf("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz"), ParseProblem::kOverflow);
  EXPECT_EQ(ProblemOf("post_036TWI214QWJ7MGSVQ83NM8WF"), ParseProblem::kBadDigit);  // base36: lowercase only too
  // An overflowing body is text that is no typeid: 22P02 (kBadText), as in the type's input.
  for (const char* text : {"post_f5lxx1zz5pnorynqglhzmsp34", "prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz"}) {
    try {
      ParseOrThrow(text);
      FAIL() << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kBadText) << text;
    }
  }
  try {
    ParseOrThrow("Post_036twi214qwj7mgsvq83nm8wf");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadText);
    EXPECT_STREQ(e.what(), "invalid typeid \"Post_036twi214qwj7mgsvq83nm8wf\"");
    EXPECT_EQ(e.hint(), kPrefixRule);
  }
}

// Every reader of a typeid's text follows one rule for its body (ParseBody): lowercase only, in
// both encodings. At every position of a body, every letter of the encoding's alphabet in upper
// case is refused by every reader, where the same letter in lower case is read.
TEST(Typeid, EveryReaderRefusesAnUpperCaseLetterAtEveryPosition) {
  const struct {
    const char* prefix;
    std::string body;  // every digit a lowercase letter but the base32 body's first (0-7)
    const char* letters;
  } forms[] = {
      {"post", std::string(kBase36Body, 'a'), "abcdefghijklmnopqrstuvwxyz"},
      {"post", "0" + std::string(kBase32Body - 1, 'a'), "abcdefghjkmnpqrstvwxyz"},
      {"", "0" + std::string(kBase32Body - 1, 'a'), "abcdefghjkmnpqrstvwxyz"},
  };
  size_t checked = 0;
  for (const auto& form : forms) {
    const std::string head = *form.prefix == '\0' ? "" : std::string(form.prefix) + "_";
    for (size_t at = 0; at < form.body.size(); ++at) {
      for (const char* c = form.letters; *c != '\0'; ++c) {
        std::string lower = form.body, upper = form.body;
        lower[at] = *c;
        upper[at] = static_cast<char>(*c - 'a' + 'A');
        const std::string text = head + upper;
        Parsed parsed{};
        EXPECT_EQ(Parse(text, parsed), ParseProblem::kBadDigit) << text;
        EXPECT_EQ(ParseText(text, parsed, true), ParseProblem::kBadDigit) << text;
        EXPECT_NE(ParseText(text, parsed, false), ParseProblem::kNone) << text;
        EXPECT_THROW(ParseOrThrow(text), Error) << text;
        EXPECT_THROW(ParseExpecting(text, form.prefix), Error) << text;
        EXPECT_THROW(TimeUs(text), Error) << text;
        EXPECT_NE(std::string_view(Explain(text, ParseProblem::kBadDigit, true).detail).find("upper-case"),
                  std::string_view::npos)
            << text;
        // First, a base32 letter is above 7, and a base36 one above e above 2^128 - 1.
        if (at == 0 && (form.body.size() == kBase32Body || *c > 'e')) continue;
        const std::string read = head + lower;
        EXPECT_EQ(Parse(read, parsed), ParseProblem::kNone) << read;
        EXPECT_EQ(parsed.prefix, form.prefix);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 25u * 26 - 21 + 2 * 25 * 22);
}

// The spec's empty prefix: the bare body of 26 base32 digits, which every writer writes and every
// reader reads; idgen's base36 has no form without a prefix, and every writer refuses it.
TEST(Typeid, TheEmptyPrefixIsTheBareBodyForEveryWriterAndReader) {
  EXPECT_NO_THROW(CheckFormat("", Encoding::kBase32));
  EXPECT_NO_THROW(CheckFormat("post", Encoding::kBase36));
  EXPECT_NO_THROW(CheckFormat("post", Encoding::kBase32));
  for (const auto& [prefix, encoding] : {std::pair<const char*, Encoding>{"", Encoding::kBase36},
                                         {"Post", Encoding::kBase32},
                                         {"post_", Encoding::kBase32},
                                         {"Post", Encoding::kBase36}}) {
    try {
      CheckFormat(prefix, encoding);
      FAIL() << prefix;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kBadArgument) << prefix;
    }
  }
  const Text bare = Format("", kRfc, Encoding::kBase32);
  EXPECT_EQ(bare.view(), "01fwhe4ydgfk1shh6w1g60eecf");
  Parsed parsed{};
  EXPECT_EQ(Parse(bare.view(), parsed), ParseProblem::kNone);
  EXPECT_EQ(parsed.prefix, "");
  EXPECT_EQ(parsed.id, kRfc);
  EXPECT_EQ(ParseText(bare.view(), parsed, false), ParseProblem::kNone);
  EXPECT_EQ(ParseExpecting(bare.view(), "").id, kRfc);
  EXPECT_EQ(TimeUs(bare.view()), uuidv7::TimeUs(kRfc));
  Value value;
  ASSERT_TRUE(Load(Store(parsed.prefix, parsed.id).view(), value));
  EXPECT_EQ(Format(value.prefix_view(), value.id, Encoding::kBase32).view(), bare.view());
  // A separator with nothing before it is no spelling of the empty prefix, to any reader.
  const std::string separated = "_" + std::string(bare.view());
  EXPECT_EQ(Parse(separated, parsed), ParseProblem::kBadPrefix);
  EXPECT_EQ(ParseText(separated, parsed, true), ParseProblem::kBadPrefix);
  EXPECT_THROW(ParseExpecting(separated, ""), Error);
}

// A base32 body whose first digit is above 7 holds more than 128 bits: kOverflow, which every
// reader reports as text that is no typeid (kBadText, 22P02), for every such digit.
TEST(Typeid, AnOverflowingBodyIsBadTextForEveryReader) {
  size_t checked = 0;
  for (const char first : std::string_view("89abcdefghjkmnpqrstvwxyz")) {
    for (const char* head : {"prefix_", ""}) {
      const std::string text = head + std::string(1, first) + std::string(kBase32Body - 1, 'z');
      Parsed parsed{};
      EXPECT_EQ(Parse(text, parsed), ParseProblem::kOverflow) << text;
      EXPECT_EQ(ParseText(text, parsed, false), ParseProblem::kOverflow) << text;
      for (const auto& reader : {std::function<void()>([&] { ParseOrThrow(text); }),
                                 std::function<void()>([&] { ParseExpecting(text, "prefix"); }),
                                 std::function<void()>([&] { TimeUs(text); })}) {
        try {
          reader();
          FAIL() << text;
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::kBadText) << text;
          EXPECT_STREQ(e.detail().c_str(), "Its body starts with a digit above 7: it would need more than 128 bits.");
        }
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 48u);
  // base36: 2^128 - 1 is the largest body, 2^128 the first above it.
  Parsed parsed{};
  EXPECT_EQ(Parse("post_f5lxx1zz5pnorynqglhzmsp33", parsed), ParseProblem::kNone);
  EXPECT_EQ(ToString(parsed.id), "ffffffff-ffff-ffff-ffff-ffffffffffff");
  EXPECT_EQ(Parse("post_f5lxx1zz5pnorynqglhzmsp34", parsed), ParseProblem::kOverflow);
}

TEST(Typeid, WrongPrefixIsRefused) {
  EXPECT_EQ(ParseExpecting("post_036twi214qwj7mgsvq83nm8wf", "post").id, kRfc);
  try {
    ParseExpecting("user_036twi214qwj7mgsvq83nm8wf", "post");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadText);
    EXPECT_STREQ(e.what(), "typeid \"user_036twi214qwj7mgsvq83nm8wf\" is not a \"post\" ID");
  }
}

TEST(Typeid, TimeOfAnOrderedBodyAndErrorForARandomOne) {
  EXPECT_EQ(TimeUs("post_036twi214qwj7mgsvq83nm8wf"), uuidv7::TimeUs(kRfc));
  FakeRandom source;
  RandomPool pool(source);
  const Uuid random = RandomBody(pool, 1);
  EXPECT_EQ(random.version(), 4);
  EXPECT_TRUE(random.rfc_variant());
  try {
    TimeUs(Format("token", random, Encoding::kBase36).view());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadArgument);
  }
}

// The three promises through the text of an ordered typeid, in both encodings: for each of the
// 4096 fractions the decoded time lies in the millisecond and above the UUIDv7 bound; a body made
// at each microsecond decodes to it.
TEST(Typeid, OrderedBodiesDecodeExactlyInBothEncodings) {
  const uint64_t ms = 0x017F22E279B0;
  for (Encoding encoding : {Encoding::kBase36, Encoding::kBase32}) {
    for (uint64_t fraction = 0; fraction < uuidv7::kStepsPerMs; ++fraction) {
      const Uuid id = uuidv7::Compose(ms << 12 | fraction, 0x2AAAAAAAAAAAAAAA);
      const Text text = Format("post", id, encoding);
      const int64_t us = TimeUs(text.view());
      ASSERT_EQ(static_cast<uint64_t>(us / 1000), ms) << fraction;
      ASSERT_LE(uuidv7::MinAt(us), ParseOrThrow(text.view()).id) << fraction;
    }
    FakeRandom source;
    RandomPool pool(source);
    for (int64_t us = 0; us < 1000; ++us) {
      const int64_t at = static_cast<int64_t>(ms) * 1000 + us;
      ASSERT_EQ(TimeUs(Format("post", uuidv7::At(at, pool, 1), encoding).view()), at);
    }
  }
}

TEST(Typeid, TextOrderIsUuidOrder) {
  // Consecutive UUIDv7 values straddling the 24/25-character boundary of unpadded base36.
  Uuid small = uuidv7::MinAt(0), big = uuidv7::MinAt(int64_t{4} * 365 * 86400 * 1000000 * 1000);
  EXPECT_LT(small, big);
  EXPECT_LT(Format("a", small, Encoding::kBase36).view(), Format("a", big, Encoding::kBase36).view());
  EXPECT_LT(Format("a", small, Encoding::kBase32).view(), Format("a", big, Encoding::kBase32).view());
}

TEST(Typeid, EncodingNames) {
  EXPECT_EQ(EncodingNamed("base36"), Encoding::kBase36);
  EXPECT_EQ(EncodingNamed("base32"), Encoding::kBase32);
  EXPECT_THROW(EncodingNamed("base64"), Error);
}

// ---- the idgen.type_id type ------------------------------------------------------------------------

Stored StoreText(std::string_view text) {
  Parsed parsed{};
  EXPECT_EQ(ParseText(text, parsed, true), ParseProblem::kNone) << text;
  return Store(parsed.prefix, parsed.id);
}

Value Loaded(const Stored& stored) {
  Value value{};
  EXPECT_TRUE(Load(stored.view(), value));
  return value;
}

std::string SpecText(const Value& value) {
  return std::string(Format(value.prefix_view(), value.id, Encoding::kBase32).view());
}

int Sign(int c) { return (c > 0) - (c < 0); }

// The spec's valid vectors (spec/valid.yml of jetify-com/typeid, 0.3.0) through the type: each
// parses to its prefix and UUID, is stored, loaded and written back to the same text.
TEST(TypeIdType, SpecVectorsRoundTrip) {
  const struct {
    const char* text;
    const char* prefix;
    const char* uuid;
  } vectors[] = {
      {"00000000000000000000000000", "", "00000000-0000-0000-0000-000000000000"},
      {"00000000000000000000000001", "", "00000000-0000-0000-0000-000000000001"},
      {"0000000000000000000000000a", "", "00000000-0000-0000-0000-00000000000a"},
      {"0000000000000000000000000g", "", "00000000-0000-0000-0000-000000000010"},
      {"00000000000000000000000010", "", "00000000-0000-0000-0000-000000000020"},
      {"7zzzzzzzzzzzzzzzzzzzzzzzzz", "", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
      {"prefix_0123456789abcdefghjkmnpqrs", "prefix", "0110c853-1d09-52d8-d73e-1194e95b5f19"},
      {"prefix_01h455vb4pex5vsknk084sn02q", "prefix", "01890a5d-ac96-774b-bcce-b302099a8057"},
      {"pre_fix_00000000000000000000000000", "pre_fix", "00000000-0000-0000-0000-000000000000"},
  };
  for (const auto& v : vectors) {
    const Value value = Loaded(StoreText(v.text));
    EXPECT_EQ(value.prefix_view(), v.prefix) << v.text;
    EXPECT_EQ(ToString(value.id), v.uuid) << v.text;
    EXPECT_EQ(SpecText(value), v.text);
  }
}

// idgen's base36 form reads as the same value as the spec's text.
TEST(TypeIdType, Base36ReadsAsTheSameValue) {
  EXPECT_EQ(Loaded(StoreText("post_036twi214qwj7mgsvq83nm8wf")).id, kRfc);
  EXPECT_EQ(SpecText(Loaded(StoreText("post_036twi214qwj7mgsvq83nm8wf"))), "post_01fwhe4ydgfk1shh6w1g60eecf");
}

// Sizes: 23 bytes for a prefix of up to 12 characters and a UUIDv7 or UUIDv4, 24 for any other
// UUID, 16 + the prefix's length beyond 12 characters.
TEST(TypeIdType, SizeOfEachForm) {
  const Uuid v7 = kRfc;
  const Uuid v4 = UuidFromText("1b4e28ba-2fa1-41d2-883f-0016d3cca427");
  const Uuid nil{};
  const Uuid v1 = UuidFromText("c232ab00-9414-11ec-b3c8-9f6bdeced846");
  const Uuid v7_other_variant = UuidFromText("017f22e2-79b0-7cc3-d8c4-dc0c0c07398f");
  for (size_t n = 0; n <= kMaxPrefix; ++n) {
    const std::string prefix = n == 0 ? "" : std::string(n, 'q');
    for (const Uuid& id : {v7, v4, nil, v1, v7_other_variant}) {
      const Stored stored = Store(prefix, id);
      const bool compact = id == v7 || id == v4;
      EXPECT_EQ(stored.size, n > kPackedPrefix ? 16 + n : compact ? kCompactSize : kShortSize) << n;
      const Value back = Loaded(stored);
      EXPECT_EQ(back.prefix_view(), prefix);
      EXPECT_EQ(back.id, id);
    }
  }
}

// Every prefix of up to 3 characters (the spec's rule) has its own prefix number, and reads back.
TEST(TypeIdType, EveryShortPrefixRoundTrips) {
  const std::string symbols = "_abcdefghijklmnopqrstuvwxyz";
  std::vector<std::string> prefixes{""};
  for (char a : symbols) {
    for (char b : symbols + '\0') {
      for (char c : symbols + '\0') {
        std::string p{a};
        if (b != '\0') p += b;
        if (b != '\0' && c != '\0') p += c;
        if (ValidSpecPrefix(p)) prefixes.push_back(p);
      }
    }
  }
  std::sort(prefixes.begin(), prefixes.end());
  prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
  Stored previous{};
  for (size_t i = 0; i < prefixes.size(); ++i) {
    const Stored stored = Store(prefixes[i], kRfc);
    ASSERT_EQ(Loaded(stored).prefix_view(), prefixes[i]);
    if (i > 0) {
      ASSERT_LT(Compare(previous.view(), stored.view()), 0) << prefixes[i - 1] << " " << prefixes[i];
    }
    previous = stored;
  }
}

// The order of stored values is the order of their TypeID texts under the C collation (bytes),
// for every pair of a set of prefixes that start with one another, contain "_", or pass 12
// characters, and UUIDs of each form.
TEST(TypeIdType, OrderIsTheTextOrder) {
  const std::vector<std::string> prefixes = {"",
                                             "a",
                                             "a_b",
                                             "a_ba",
                                             "ab",
                                             "abc",
                                             "ab_c",
                                             "z",
                                             "zz",
                                             "user",
                                             "user_account",
                                             "users",
                                             "abcdefghijkl",
                                             "abcdefghijkm",
                                             "abcdefghijk_l",
                                             "abcdefghijkla",
                                             "abcdefghijklm",
                                             "abcdefghijklmn",
                                             "abcdefghijkz",
                                             "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"};
  std::vector<Uuid> ids = {Uuid{},
                           kRfc,
                           UuidFromText("1b4e28ba-2fa1-41d2-883f-0016d3cca427"),
                           UuidFromText("ffffffff-ffff-ffff-ffff-ffffffffffff"),
                           UuidFromText("017f22e2-79b0-7cc3-98c4-dc0c0c07398e"),
                           UuidFromText("017f22e2-79b0-4cc3-98c4-dc0c0c07398f"),
                           UuidFromText("017f22e2-79b0-8cc3-98c4-dc0c0c07398f")};
  std::mt19937_64 random(42);
  for (int i = 0; i < 20; ++i) {
    Uuid id;
    for (auto& b : id.bytes) b = static_cast<uint8_t>(random());
    if (i % 2 == 0) id.bytes[6] = static_cast<uint8_t>(0x70 | (id.bytes[6] & 0x0F));
    if (i % 3 != 2) id.bytes[8] = static_cast<uint8_t>(0x80 | (id.bytes[8] & 0x3F));
    ids.push_back(id);
  }
  std::vector<std::pair<Stored, std::string>> values;
  for (const auto& p : prefixes) {
    for (const auto& id : ids) values.emplace_back(Store(p, id), std::string(Format(p, id, Encoding::kBase32).view()));
  }
  AbbreviationReference reference{};
  std::vector<uint64_t> keys;
  for (const auto& [stored, text] : values) keys.push_back(Abbreviate(Loaded(stored), reference));
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < values.size(); ++j) {
      const int c = Compare(values[i].first.view(), values[j].first.view());
      ASSERT_EQ(c, Sign(values[i].second.compare(values[j].second))) << values[i].second << " " << values[j].second;
      ASSERT_EQ(c == 0, values[i].first.size == values[j].first.size &&
                            std::memcmp(values[i].first.bytes, values[j].first.bytes, values[i].first.size) == 0);
      if (keys[i] < keys[j]) {
        ASSERT_LT(c, 0) << values[i].second << " " << values[j].second;
      }
    }
  }
}

// Abbreviated keys tell apart the values of one prefix by the first 62 bits of their UUIDs.
TEST(TypeIdType, AbbreviationOfOnePrefix) {
  AbbreviationReference reference{};
  const Uuid a = uuidv7::MinAt(1'700'000'000'000'000), b = uuidv7::MinAt(1'700'000'000'001'000);
  const uint64_t ka = Abbreviate(Loaded(Store("user", a)), reference);
  const uint64_t kb = Abbreviate(Loaded(Store("user", b)), reference);
  EXPECT_LT(ka, kb);
  EXPECT_EQ(Abbreviate(Loaded(Store("post", b)), reference), 0u);
  EXPECT_EQ(Abbreviate(Loaded(Store("zzz", a)), reference), uint64_t{2} << 62);
}

// Bytes that Store never writes do not load: every length it does not write, a padding bit, a
// compactable UUID in the short form, an end symbol before a character, a prefix against the rule.
TEST(TypeIdType, NonCanonicalBytesDoNotLoad) {
  Value value;
  uint8_t zeros[kMaxStored + 1] = {};
  for (size_t n = 0; n <= kMaxStored + 1; ++n) {
    const bool written_length = n == kCompactSize || n == kShortSize || (n > kPackedPrefix + 16 && n <= kMaxStored);
    if (!written_length) {
      EXPECT_FALSE(Load({zeros, n}, value)) << n;
    }
  }
  Stored compact = Store("user", kRfc);
  compact.bytes[kCompactSize - 1] |= 1;
  EXPECT_FALSE(Load(compact.view(), value));
  Stored short_form = Store("user", Uuid{});
  std::memcpy(short_form.bytes + 8, kRfc.bytes.data(), 16);
  EXPECT_FALSE(Load(short_form.view(), value));
  Stored gap = Store("ab", Uuid{});
  gap.bytes[7] = 3;  // the last of the 12 symbols: "ab", ten ends, "_"
  EXPECT_FALSE(Load(gap.view(), value));
  Stored long_form = Store("abcdefghijklm", kRfc);
  long_form.bytes[0] = '_';
  EXPECT_FALSE(Load(long_form.view(), value));
  long_form.bytes[0] = 'A';
  EXPECT_FALSE(Load(long_form.view(), value));
  uint8_t all_ones[kShortSize];
  std::memset(all_ones, 0xFF, sizeof all_ones);
  EXPECT_FALSE(Load({all_ones, kShortSize}, value));
  EXPECT_FALSE(Load({all_ones, kCompactSize}, value));
}

TEST(TypeIdType, ExpectedPrefixAndTime) {
  const Value user = Loaded(Store("user", kRfc));
  EXPECT_NO_THROW(ExpectPrefix(user, "user"));
  try {
    ExpectPrefix(user, "post");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadText);
    EXPECT_STREQ(e.what(), "typeid \"user_01fwhe4ydgfk1shh6w1g60eecf\" has prefix \"user\", not \"post\"");
  }
  try {
    ExpectPrefix(Loaded(Store("", kRfc)), "post");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "typeid \"01fwhe4ydgfk1shh6w1g60eecf\" has the empty prefix, not \"post\"");
  }
  EXPECT_EQ(TimeUs(user), uuidv7::TimeUs(kRfc));
  EXPECT_EQ(testing::KindOf([] { TimeUs(Loaded(Store("user", Uuid{}))); }), ErrorKind::kBadArgument);
}

TEST(TypeIdType, BinaryForm) {
  const Value value = Loaded(Store("user", kRfc));
  const Binary binary = ToBinary(value);
  ASSERT_EQ(binary.size, 20u);
  EXPECT_EQ(std::memcmp(binary.bytes, kRfc.bytes.data(), 16), 0);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(binary.bytes) + 16, 4), "user");
  Value back;
  EXPECT_EQ(DecodeBinary({binary.bytes, binary.size}, back), ParseProblem::kNone);
  EXPECT_EQ(back.prefix_view(), "user");
  EXPECT_EQ(back.id, kRfc);
  EXPECT_EQ(DecodeBinary({binary.bytes, 16}, back), ParseProblem::kNone);
  EXPECT_EQ(back.prefix_view(), "");
  EXPECT_EQ(DecodeBinary({binary.bytes, 15}, back), ParseProblem::kBadLength);
  uint8_t bad[20];
  std::memcpy(bad, binary.bytes, 20);
  bad[16] = 'U';
  EXPECT_EQ(DecodeBinary({bad, 20}, back), ParseProblem::kBadPrefix);
  uint8_t too_long[kMaxStored + 1];
  std::memset(too_long, 'a', sizeof too_long);
  EXPECT_EQ(DecodeBinary({too_long, kMaxStored}, back), ParseProblem::kNone);
  EXPECT_EQ(DecodeBinary({too_long, kMaxStored + 1}, back), ParseProblem::kBadLength);
}

// The type reads only lowercase text; each of the spec's invalid vectors (spec/invalid.yml) and
// each class of malformed text has its problem and a sentence that says it.
TEST(TypeIdType, MalformedText) {
  const struct {
    std::string text;
    ParseProblem problem;
    const char* detail;
  } cases[] = {
      {"PREFIX_00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix has upper-case letters"},
      {"12345_00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix is not"},
      {"pre.fix_00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix is not"},
      {"préfix_00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix is not"},
      {"  prefix_00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix is not"},
      {std::string(64, 'a') + "_00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix has 64 characters"},
      {"_00000000000000000000000000", ParseProblem::kBadPrefix, "It has a \"_\" but no prefix"},
      {"_", ParseProblem::kBadPrefix, "It has a \"_\" but no prefix"},
      {"prefix_123456789012345678901234", ParseProblem::kBadLength, "Its body has 24 characters"},
      {"prefix_123456789012345678901234!", ParseProblem::kBadDigit, "not a base36 digit"},
      {"prefix_123456789012345678901234567", ParseProblem::kBadLength, "Its body has 27 characters"},
      {"prefix_1234567890123456789012345 ", ParseProblem::kBadDigit, "outside TypeID's base32"},
      {"prefix_0123456789ABCDEFGHJKMNPQRS", ParseProblem::kBadDigit, "upper-case"},
      {"prefix_123456789-123456789-123456", ParseProblem::kBadDigit, "outside TypeID's base32"},
      {"prefix_ooooooiiiiiiuuuuuuulllllll", ParseProblem::kBadDigit, "outside TypeID's base32"},
      {"prefix_i23456789ol23456789oi23456", ParseProblem::kBadDigit, "outside TypeID's base32"},
      {"prefix_123456789-0123456789-0123456", ParseProblem::kBadLength, "Its body has 28 characters"},
      {"prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz", ParseProblem::kOverflow, "starts with a digit above 7"},
      {"_prefix_00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix is not"},
      {"prefix__00000000000000000000000000", ParseProblem::kBadPrefix, "Its prefix is not"},
      {"", ParseProblem::kEmpty, "The text is empty."},
      {"user01h455vb4pex5vsknk084sn02q", ParseProblem::kNoSeparator, "There is no \"_\""},
      {"post_036TWI214QWJ7MGSVQ83NM8WF", ParseProblem::kBadDigit, "upper-case"},  // base36, upper case
      {"post_f5lxx1zz5pnorynqglhzmsp34", ParseProblem::kOverflow, "larger than 128 bits"},
      {"user_", ParseProblem::kBadLength, "Its body has 0 characters"},
  };
  for (const auto& c : cases) {
    Parsed parsed{};
    EXPECT_EQ(ParseText(c.text, parsed, true), c.problem) << c.text;
    const Explanation e = Explain(c.text, c.problem, true);
    EXPECT_NE(std::string_view(e.detail).find(c.detail), std::string_view::npos) << c.text << ": " << e.detail;
    EXPECT_NE(e.hint, nullptr);
  }
  // The spec's "suffix-short" (25 characters) is idgen's base36 form: the cast from text reads it,
  // the type's input (a literal, COPY) refuses it, with a hint that names the cast.
  Parsed parsed{};
  EXPECT_EQ(ParseText("prefix_1234567890123456789012345", parsed, true), ParseProblem::kNone);
  EXPECT_EQ(parsed.encoding, Encoding::kBase36);
  EXPECT_EQ(ParseText("prefix_1234567890123456789012345", parsed, false), ParseProblem::kBadLength);
  EXPECT_EQ(ParseText("post_036TWI214QWJ7MGSVQ83NM8WF", parsed, false), ParseProblem::kBadLength);
  EXPECT_EQ(ParseText("post_f5lxx1zz5pnorynqglhzmsp34", parsed, false), ParseProblem::kBadLength);
  EXPECT_EQ(ParseText("prefix_01h455vb4pex5vsknk084sn02q", parsed, false), ParseProblem::kNone);
  const Explanation short_body = Explain("prefix_1234567890123456789012345", ParseProblem::kBadLength, false);
  EXPECT_STREQ(short_body.detail, "Its body has 25 characters, not 26.");
  EXPECT_NE(std::string_view(short_body.hint).find("::text::idgen.type_id"), std::string_view::npos);
  EXPECT_STREQ(Explain("prefix_12345678901234567890123", ParseProblem::kBadLength, false).detail,
               "Its body has 23 characters, not 26.");
  EXPECT_EQ(std::string_view(Explain("Post_00000000000000000000000000", ParseProblem::kBadPrefix, false).hint),
            kPrefixRule);
  EXPECT_NE(std::string_view(Explain("x", ParseProblem::kEmpty, false).hint).find("user_01h455vb4pex5vsknk084sn02q"),
            std::string_view::npos);
}

}  // namespace
}  // namespace idgen::type_id
