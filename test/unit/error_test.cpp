#include "core/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace idgen {
namespace {

TEST(Quote, ShortTextIsQuotedWhole) {
  EXPECT_EQ(Quote("post_x"), "\"post_x\"");
  EXPECT_EQ(Quote(""), "\"\"");
}

TEST(Quote, LongTextIsCutAfter100Bytes) {
  EXPECT_EQ(Quote(std::string(150, 'a')), "\"" + std::string(100, 'a') + "...\"");
}

TEST(Quote, NeverCutsACharacterInHalf) {
  // 99 ASCII bytes, then two-byte characters: byte 100 is the second byte of an "é".
  const std::string text = std::string(99, 'a') + "\xc3\xa9\xc3\xa9";
  EXPECT_EQ(Quote(text), "\"" + std::string(99, 'a') + "...\"");
  const std::string euro = std::string(98, 'a') + "\xe2\x82\xac" + "tail";  // a three-byte character at 98..100
  EXPECT_EQ(Quote(euro), "\"" + std::string(98, 'a') + "...\"");
}

}  // namespace
}  // namespace idgen

namespace idgen {
namespace {

// EUC-JP: a byte from 0x8E up leads a two-byte character (0x8F a three-byte one); its trailing
// bytes (0xA1..0xFE) would look like UTF-8 continuation or lead bytes.
int EucJpLength(const unsigned char* s) { return *s == 0x8F ? 3 : (*s >= 0x8E ? 2 : 1); }

TEST(Quote, CutsOnCharactersOfTheInstalledEncoding) {
  SetCharLength(EucJpLength);
  std::string text = "a";
  for (int i = 0; i < 60; ++i) text += "\xa4\xa2";  // "あ" in EUC-JP
  // 1 + 49 whole characters of 2 bytes = 99 bytes; the 50th would end at byte 101.
  EXPECT_EQ(Quote(text), "\"" + text.substr(0, 99) + "...\"");
  const std::string three = std::string(98, 'b') + "\x8f\xa1\xa1" + "tail";  // a three-byte character at 98..100
  EXPECT_EQ(Quote(three), "\"" + std::string(98, 'b') + "...\"");
  SetCharLength(nullptr);  // back to UTF-8
  EXPECT_EQ(Quote(std::string(99, 'a') + "\xc3\xa9\xc3\xa9"), "\"" + std::string(99, 'a') + "...\"");
}

}  // namespace
}  // namespace idgen
