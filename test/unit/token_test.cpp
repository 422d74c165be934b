// Signed tokens: the shape of the message and of the whole token, and every way Split refuses a
// text that is not shaped like a token (the tag itself is checked by the glue, with pg_hmac).
#include "core/token.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "fakes.hpp"

namespace idgen::token {
namespace {

using testing::KindOf;

constexpr const char* kZeros = "0000000000000000000000000000000000000000000";     // 43 digits
constexpr const char* kMax = "yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp1";       // 2^256 - 1
constexpr const char* kAbove = "yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp2";     // 2^256
constexpr const char* kCounting = "003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf";  // bytes 0, 1, ..., 31

void Fill(uint8_t (&bytes)[32], int first) {
  for (int i = 0; i < 32; ++i) bytes[i] = static_cast<uint8_t>(first < 0 ? 0xFF : first + i);
}

TEST(Token, MessageIsPrefixSeparatorAndFixedWidthBase62) {
  uint8_t random[kRandomBytes];
  Fill(random, 0);
  EXPECT_EQ(Message("reset", random).view(), std::string("reset_") + kCounting);
  std::memset(random, 0, sizeof random);
  EXPECT_EQ(Message("a", random).view(), std::string("a_") + kZeros);  // zero keeps its width
  Fill(random, -1);
  EXPECT_EQ(Message("a", random).view(), std::string("a_") + kMax);
}

TEST(Token, SignAppendsTheTag) {
  uint8_t random[kRandomBytes];
  uint8_t tag[kTagBytes];
  Fill(random, 0);
  Fill(tag, -1);
  const Text token = Sign(Message("invite", random), tag);
  EXPECT_EQ(token.view(), std::string("invite_") + kCounting + kMax);
  EXPECT_EQ(token.size, 6 + 1 + 2 * kPartDigits);
}

TEST(Token, MessageRefusesAnInvalidPrefix) {
  uint8_t random[kRandomBytes] = {};
  for (const char* bad : {"", "Reset", "reset_", "_reset", "re-set", "r3set"}) {
    EXPECT_EQ(KindOf([&] { Message(bad, random); }), ErrorKind::kBadArgument) << bad;
  }
  const std::string longest(type_id::kMaxPrefix, 'a');
  const Text text = Message(longest, random);  // the longest prefix fills the buffer exactly with a tag
  uint8_t tag[kTagBytes] = {};
  EXPECT_EQ(Sign(text, tag).size, kMaxText);
  EXPECT_EQ(KindOf([&] { Message(longest + "a", random); }), ErrorKind::kBadArgument);
}

TEST(Token, SplitReturnsTheMessageAndTheTag) {
  uint8_t random[kRandomBytes];
  uint8_t tag[kTagBytes];
  Fill(random, 7);
  Fill(tag, 100);
  const Text token = Sign(Message("api_key", random), tag);
  std::string_view message;
  uint8_t back[kTagBytes] = {};
  ASSERT_TRUE(Split(token.view(), message, back));
  EXPECT_EQ(message, Message("api_key", random).view());
  EXPECT_EQ(std::memcmp(back, tag, kTagBytes), 0);
}

TEST(Token, SplitRefusesWhatIsNotShapedLikeAToken) {
  const std::string good = std::string("a_") + kCounting + kMax;
  std::string_view message;
  uint8_t tag[kTagBytes];
  ASSERT_TRUE(Split(good, message, tag));
  const std::string too_long_prefix = std::string(type_id::kMaxPrefix + 1, 'a') + "_" + kCounting + kMax;
  for (const std::string& bad : {
           std::string(),
           good.substr(1),                                           // no prefix: "_" then the parts
           good.substr(0, good.size() - 1),                          // one digit short
           good + "0",                                               // one digit long
           std::string("a-") + kCounting + kMax,                     // no separator
           std::string("A_") + kCounting + kMax,                     // uppercase prefix
           std::string("a_") + kCounting + kAbove,                   // the tag is above 256 bits
           std::string("a_") + kAbove + kMax,                        // the random part is above 256 bits
           std::string("a_") + kCounting + "-" + (kMax + 1),         // a character that is not base62
           std::string("a_") + kCounting + "\xc3\xa9" + (kMax + 2),  // non-ASCII bytes
           too_long_prefix,
       }) {
    EXPECT_FALSE(Split(bad, message, tag)) << bad;
  }
}

}  // namespace
}  // namespace idgen::token
