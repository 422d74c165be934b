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
