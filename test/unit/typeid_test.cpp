#include "core/typeid.hpp"

#include <gtest/gtest.h>

#include <string>

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

TEST(Typeid, ParsesBothEncodingsAndEitherCaseOfBase36) {
  const Parsed a = ParseOrThrow("post_036twi214qwj7mgsvq83nm8wf");
  EXPECT_EQ(a.prefix, "post");
  EXPECT_EQ(a.id, kRfc);
  EXPECT_EQ(a.encoding, Encoding::kBase36);
  EXPECT_EQ(ParseOrThrow("post_036TWI214QWJ7MGSVQ83NM8WF").id, kRfc);
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
  try {
    ParseOrThrow("post_f5lxx1zz5pnorynqglhzmsp34");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNumericOutOfRange);
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

}  // namespace
}  // namespace idgen::type_id
