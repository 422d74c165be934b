#include "core/codec.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace idgen::codec {
namespace {

std::string EncodeFixed(std::vector<uint8_t> bytes, Base base) {
  std::string out(Width(bytes.size(), base), '?');
  Encode(bytes, base, out);
  return out;
}

std::string EncodeShort(std::vector<uint8_t> bytes, Base base) {
  std::string out(Width(bytes.size(), base), '?');
  out.resize(EncodeShortest(bytes, base, out));
  return out;
}

std::vector<uint8_t> Bytes(size_t n, uint8_t fill) { return std::vector<uint8_t>(n, fill); }

// 2^n as big-endian bytes of the given size.
std::vector<uint8_t> PowerOfTwo(size_t nbytes, unsigned n) {
  std::vector<uint8_t> b(nbytes, 0);
  b[nbytes - 1 - n / 8] = static_cast<uint8_t>(1u << (n % 8));
  return b;
}

ParseProblem DecodeStatus(std::string_view text, Base base, size_t nbytes) {
  std::vector<uint8_t> out(nbytes);
  return Decode(text, base, out);
}

TEST(Codec, Widths) {
  EXPECT_EQ(Width(16, Base::k36), 25u);  // 36^25 > 2^128 > 36^24
  EXPECT_EQ(Width(16, Base::k62), 22u);
  EXPECT_EQ(Width(16, Base::k16), 32u);
  EXPECT_EQ(Width(16, Base::k32), 26u);
  EXPECT_EQ(Width(8, Base::k36), 13u);
  EXPECT_EQ(Width(8, Base::k62), 11u);
  EXPECT_EQ(Width(8, Base::k16), 16u);
  EXPECT_EQ(Width(32, Base::k62), 43u);
  EXPECT_EQ(Width(12, Base::k16), 24u);
}

TEST(Codec, Base36Vectors) {
  EXPECT_EQ(EncodeFixed(Bytes(16, 0xFF), Base::k36), "f5lxx1zz5pnorynqglhzmsp33");  // 2^128 - 1
  const std::vector<uint8_t> rfc = {0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x7c, 0xc3,
                                    0x98, 0xc4, 0xdc, 0x0c, 0x0c, 0x07, 0x39, 0x8f};
  EXPECT_EQ(EncodeShort(rfc, Base::k36), "36twi214qwj7mgsvq83nm8wf");
  EXPECT_EQ(EncodeFixed(rfc, Base::k36), "036twi214qwj7mgsvq83nm8wf");
  std::vector<uint8_t> back(16);
  EXPECT_EQ(Decode("036TWI214QWJ7MGSVQ83NM8WF", Base::k36, back), ParseProblem::kNone);  // either case
  EXPECT_EQ(back, rfc);
  EXPECT_EQ(Decode("36twi214qwj7mgsvq83nm8wf", Base::k36, back), ParseProblem::kNone);  // unpadded too
  EXPECT_EQ(back, rfc);
  // 2^128 is one too many.
  EXPECT_EQ(DecodeStatus("f5lxx1zz5pnorynqglhzmsp34", Base::k36, 16), ParseProblem::kOverflow);
  EXPECT_EQ(DecodeStatus("f5lxx1zz5pnorynqglhzmsp33", Base::k36, 16), ParseProblem::kNone);
  EXPECT_EQ(DecodeStatus("zzzzzzzzzzzzzzzzzzzzzzzzz", Base::k36, 16), ParseProblem::kOverflow);
}

TEST(Codec, BigintVectors) {
  char out[16];
  EXPECT_EQ(std::string(out, EncodeBigint(INT64_MAX, Base::k36, out)), "1y2p0ij32e8e7");
  EXPECT_EQ(std::string(out, EncodeBigint(0, Base::k36, out)), "0");
  EXPECT_EQ(std::string(out, EncodeBigint(255, Base::k16, out)), "ff");
  EXPECT_EQ(std::string(out, EncodeBigint(61, Base::k62, out)), "z");
  EXPECT_EQ(std::string(out, EncodeBigint(62, Base::k62, out)), "10");
  EXPECT_EQ(DecodeBigint("1y2p0ij32e8e7", Base::k36), INT64_MAX);
  EXPECT_EQ(DecodeBigint("1Y2P0IJ32E8E7", Base::k36), INT64_MAX);
  EXPECT_EQ(DecodeBigint("0000000000000", Base::k36), 0);
  EXPECT_EQ(EncodeShort(Bytes(8, 0xFF), Base::k36), "3w5e11264sgsf");  // 2^64 - 1
  for (const char* over : {"1y2p0ij32e8e8", "3w5e11264sgsf"}) {
    try {
      DecodeBigint(over, Base::k36);
      FAIL() << over;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNumericOutOfRange) << over;
    }
  }
  try {
    EncodeBigint(-1, Base::k36, out);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNumericOutOfRange);
  }
}

TEST(Codec, CrockfordBase32OfTheTypeIdSpec) {
  EXPECT_EQ(EncodeFixed(Bytes(16, 0xFF), Base::k32), "7zzzzzzzzzzzzzzzzzzzzzzzzz");
  EXPECT_EQ(EncodeFixed(PowerOfTwo(16, 4), Base::k32), "0000000000000000000000000g");  // sixteen
  EXPECT_EQ(EncodeFixed(PowerOfTwo(16, 5), Base::k32), "00000000000000000000000010");  // thirty-two
  EXPECT_EQ(DecodeStatus("8zzzzzzzzzzzzzzzzzzzzzzzzz", Base::k32, 16), ParseProblem::kOverflow);
  EXPECT_EQ(DecodeStatus("0123456789ABCDEFGHJKMNPQRS", Base::k32, 16), ParseProblem::kBadDigit);  // lowercase only
  EXPECT_EQ(DecodeStatus("ooooooiiiiiiuuuuuuulllllll", Base::k32, 16), ParseProblem::kBadDigit);
  std::vector<uint8_t> out(16);
  EXPECT_EQ(Decode("01h455vb4pex5vsknk084sn02q", Base::k32, out), ParseProblem::kNone);
  const std::vector<uint8_t> spec = {0x01, 0x89, 0x0a, 0x5d, 0xac, 0x96, 0x77, 0x4b,
                                     0xbc, 0xce, 0xb3, 0x02, 0x09, 0x9a, 0x80, 0x57};
  EXPECT_EQ(out, spec);
}

TEST(Codec, Base62IsCaseSensitiveAndSortsInAscii) {
  EXPECT_EQ(EncodeFixed(Bytes(16, 0xFF), Base::k62), "7n42DGM5Tflk9n8mt7Fhc7");
  std::vector<uint8_t> a(16), b(16);
  EXPECT_EQ(Decode("A", Base::k62, a), ParseProblem::kNone);
  EXPECT_EQ(Decode("a", Base::k62, b), ParseProblem::kNone);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.back(), 10);
  EXPECT_EQ(b.back(), 36);
}

TEST(Codec, MalformedInputs) {
  EXPECT_EQ(DecodeStatus("", Base::k36, 16), ParseProblem::kEmpty);
  EXPECT_EQ(DecodeStatus("00000000000000000000000000", Base::k36, 16), ParseProblem::kTooLong);  // 26 > 25
  EXPECT_EQ(DecodeStatus("12-4", Base::k36, 16), ParseProblem::kBadDigit);
  EXPECT_EQ(DecodeStatus(" 12", Base::k36, 16), ParseProblem::kBadDigit);
  EXPECT_EQ(DecodeStatus("g", Base::k16, 8), ParseProblem::kBadDigit);
  EXPECT_EQ(DecodeStatus(std::string_view("1\0", 2), Base::k36, 8), ParseProblem::kBadDigit);
  EXPECT_EQ(DecodeStatus("\xc3\xa9", Base::k62, 8), ParseProblem::kBadDigit);
  try {
    uint8_t out[16];
    DecodeOrThrow("abc!", Base::k36, out, "uuid");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kBadText);
    EXPECT_STREQ(e.what(), "invalid base36 text for uuid: \"abc!\"");
    EXPECT_EQ(e.detail(), "\"!\" is not a base36 digit.");
  }
  try {
    uint8_t out[16];
    DecodeOrThrow("f5lxx1zz5pnorynqglhzmsp34", Base::k36, out, "uuid");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNumericOutOfRange);
  }
}

// Fixed-width text sorts like the numbers: compare adjacent random values both ways.
TEST(Codec, FixedWidthTextSortsLikeTheNumbers) {
  std::mt19937_64 rng(7);
  for (Base base : {Base::k16, Base::k32, Base::k36, Base::k62}) {
    for (int i = 0; i < 20000; ++i) {
      std::vector<uint8_t> x(16), y(16);
      for (auto& v : x) v = static_cast<uint8_t>(rng());
      y = x;
      y[static_cast<size_t>(rng() % 16)] ^= static_cast<uint8_t>(1 + rng() % 255);
      ASSERT_EQ(x < y, EncodeFixed(x, base) < EncodeFixed(y, base)) << Name(base);
    }
  }
}

// A million random values per base, as uuids and as bigints: decode(encode(x)) == x.
TEST(Codec, RoundTripsAMillionRandomValuesPerBase) {
  std::mt19937_64 rng(42);
  for (Base base : {Base::k16, Base::k32, Base::k36, Base::k62}) {
    char text[64];
    uint8_t number[16], back[16];
    const size_t width = Width(16, base);
    for (int i = 0; i < 1000000; ++i) {
      const uint64_t hi = rng(), lo = rng();
      for (int j = 0; j < 8; ++j) {
        number[j] = static_cast<uint8_t>(hi >> (56 - 8 * j));
        number[8 + j] = static_cast<uint8_t>(lo >> (56 - 8 * j));
      }
      // Every bit length, not only full-width values.
      const unsigned shift = i % 128;
      if (shift >= 64) {
        for (int j = 0; j < 8; ++j) number[j] = 0;
      }
      Encode(number, base, std::span<char>(text, width));
      ASSERT_EQ(Decode(std::string_view(text, width), base, back), ParseProblem::kNone);
      ASSERT_EQ(0, memcmp(number, back, 16)) << Name(base) << " " << std::string(text, width);
    }
    if (base == Base::k32) continue;  // the TypeID alphabet has no bigint functions
    for (int i = 0; i < 1000000; ++i) {
      const auto value = static_cast<int64_t>(rng() >> (1 + i % 63));
      const size_t n = EncodeBigint(value, base, std::span<char>(text, sizeof text));
      ASSERT_EQ(DecodeBigint(std::string_view(text, n), base), value) << Name(base);
    }
  }
}

}  // namespace
// base32hex, RFC 4648 section 10's vectors (the padding is PostgreSQL 19's encode(); idgen writes
// the characters without it and reads either), and every UUID byte at every position.
TEST(Codec, Base32HexVectorsOfRfc4648) {
  const std::pair<std::string_view, std::string_view> vectors[] = {{"f", "CO"},           {"fo", "CPNG"},
                                                                   {"foo", "CPNMU"},      {"foob", "CPNMUOG"},
                                                                   {"fooba", "CPNMUOJ1"}, {"foobar", "CPNMUOJ1E8"}};
  for (const auto& [plain, written] : vectors) {
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(plain.data()), plain.size());
    std::string out(codec::Base32HexWidth(bytes.size()), '?');
    codec::Base32HexEncode(bytes, out);
    EXPECT_EQ(out, written) << plain;
    std::vector<uint8_t> back(bytes.size());
    std::string padded(written);
    padded.append((8 - padded.size() % 8) % 8, '=');
    EXPECT_EQ(codec::Base32HexDecode(padded, back), ParseProblem::kNone) << padded;
    EXPECT_EQ(std::string(back.begin(), back.end()), plain);
    EXPECT_EQ(codec::Base32HexDecode(written, back), ParseProblem::kNone) << written;
  }
}

TEST(Codec, Base32HexOfAUuidRoundTripsAndSorts) {
  EXPECT_EQ(codec::Base32HexWidth(16), 26u);
  for (int at = 0; at < 16; ++at) {
    for (int v = 0; v < 255; v += 17) {
      std::array<uint8_t, 16> id{}, next{}, back{};
      id[at] = static_cast<uint8_t>(v);
      next = id;
      next[at] = static_cast<uint8_t>(v + 1);  // the next value at that byte: sorts after
      char a[26], b[26];
      codec::Base32HexEncode(id, a);
      codec::Base32HexEncode(next, b);
      EXPECT_LT(std::string_view(a, 26), std::string_view(b, 26));
      ASSERT_EQ(codec::Base32HexDecode(std::string_view(a, 26), back), ParseProblem::kNone);
      EXPECT_EQ(back, id);
      std::string lower(a, 26);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      ASSERT_EQ(codec::Base32HexDecode(lower + "======", back), ParseProblem::kNone) << lower;
      EXPECT_EQ(back, id);
    }
  }
}

TEST(Codec, Base32HexRefusesWhatEncodeNeverWrites) {
  std::array<uint8_t, 16> out{};
  const std::string ok(26, '0');
  EXPECT_EQ(codec::Base32HexDecode("", out), ParseProblem::kEmpty);
  EXPECT_EQ(codec::Base32HexDecode(" \t\r\n", out), ParseProblem::kEmpty);
  EXPECT_EQ(codec::Base32HexDecode("======", out), ParseProblem::kBadLength);
  EXPECT_EQ(codec::Base32HexDecode(ok.substr(0, 25), out), ParseProblem::kBadLength);
  EXPECT_EQ(codec::Base32HexDecode(ok + "0", out), ParseProblem::kBadLength);
  EXPECT_EQ(codec::Base32HexDecode(ok.substr(0, 25) + "=", out), ParseProblem::kBadLength);  // '=' after 1 of 8
  EXPECT_EQ(codec::Base32HexDecode(ok + "=====0", out), ParseProblem::kBadDigit);
  char bad = 0;
  for (const char c : std::string_view("WXYZwxyz-_.\v")) {
    std::string text = ok;
    text[7] = c;
    EXPECT_EQ(codec::Base32HexDecode(text, out, &bad), ParseProblem::kBadDigit) << c;
    EXPECT_EQ(bad, c);
  }
  // The last character holds 3 of the 128 bits and two zero bits: 1 of them set is another text
  // for no value.
  std::string last = ok;
  last[25] = '1';
  EXPECT_EQ(codec::Base32HexDecode(last, out), ParseProblem::kOverflow);
  last[25] = '4';  // 0b00100: the lowest of the 3 bits
  EXPECT_EQ(codec::Base32HexDecode(last, out), ParseProblem::kNone);
  EXPECT_EQ(out[15], 1);
}

namespace {

// PostgreSQL 19's base32hex_decode (src/backend/utils/adt/encode.c), transcribed: the bytes, or
// nothing where it raises an error.
std::optional<std::vector<uint8_t>> Pg19Decode(std::string_view text) {
  std::vector<uint8_t> out;
  uint32_t buffer = 0;
  int bits = 0, pos = 0;
  bool end = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '=') {
      if (!end) {
        if (pos != 2 && pos != 4 && pos != 5 && pos != 7) return std::nullopt;
        end = true;
      }
      pos++;
      continue;
    }
    if (end) return std::nullopt;
    int val = -1;
    if (c >= '0' && c <= '9') val = c - '0';
    if (c >= 'A' && c <= 'V') val = c - 'A' + 10;
    if (c >= 'a' && c <= 'v') val = c - 'a' + 10;
    if (val < 0) return std::nullopt;
    buffer = (buffer << 5) | static_cast<uint32_t>(val);
    bits += 5;
    pos++;
    while (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>(buffer >> bits));
      buffer &= (1u << bits) - 1;
    }
    if (pos == 8) pos = 0;
  }
  return out;
}

}  // namespace

// What decode(text, 'base32hex') reads as n bytes, idgen reads as the same n bytes, and what it
// refuses idgen refuses; idgen refuses too what it reads by dropping bits (digits beyond the
// width, or set bits in the last digit's unused ones). For every byte count 1 to 20: every number
// of digits up to 2 beyond the width, followed by every number of '=' from 0 to 12, then nothing,
// a digit, or spaces; and the same with spaces, tabs and newlines between the characters.
TEST(Codec, Base32HexReadsWhatPostgres19DecodeReadsForEveryPaddingLength) {
  size_t agreed = 0, accepted = 0;
  for (size_t n = 1; n <= 20; ++n) {
    const size_t width = codec::Base32HexWidth(n);
    std::vector<uint8_t> value(n);
    for (size_t i = 0; i < n; ++i) value[i] = static_cast<uint8_t>(0x9D * (i + 1) + n);
    std::string written(width, '?');
    codec::Base32HexEncode(value, written);
    for (size_t digits = 0; digits <= width + 2; ++digits) {
      const std::string body =
          written.substr(0, std::min(digits, width)) + std::string(digits > width ? digits - width : 0, '0');
      for (size_t pad = 0; pad <= 12; ++pad) {
        for (const char* tail : {"", "0", " \t"}) {
          for (const bool spaced : {false, true}) {
            std::string text = body + std::string(pad, '=') + tail;
            if (spaced) {
              std::string s;
              for (size_t i = 0; i < text.size(); ++i)
                s += std::string(i % 3 == 0 ? "\n" : "") + text[i] + (i % 4 == 1 ? " \r" : "");
              text = s;
            }
            std::vector<uint8_t> out(n);
            const ParseProblem problem = codec::Base32HexDecode(text, out);
            const auto pg = Pg19Decode(text);
            // The digits of written, or '0' after them: the last one's unused bits are 0.
            size_t count = 0;
            for (const char c : text) count += std::isalnum(static_cast<unsigned char>(c)) ? 1 : 0;
            if (pg && pg->size() == n && count == width) {
              ASSERT_EQ(problem, ParseProblem::kNone) << n << " " << text;
              ASSERT_EQ(out, *pg) << text;
              if (digits == width) {
                ASSERT_EQ(out, value) << text;
              }
              ++accepted;
            } else {
              ASSERT_NE(problem, ParseProblem::kNone) << n << " " << text;
            }
            ++agreed;
          }
        }
      }
    }
  }
  EXPECT_GT(accepted, 20u * 13);  // every byte count: padding of every length after its digits, at least
  EXPECT_GT(agreed, accepted);
  // A uuid: its 26 digits, then 0 to 12 '=', all read; the two unused bits set, refused (decode()
  // drops them).
  std::array<uint8_t, 16> out{};
  for (size_t pad = 0; pad <= 12; ++pad) {
    EXPECT_EQ(codec::Base32HexDecode("0690B9E1K8U3N3AE7T0E32CJKG" + std::string(pad, '='), out), ParseProblem::kNone)
        << pad;
  }
  EXPECT_EQ(codec::Base32HexDecode("0690B9E1K8U3N3AE7T0E32CJKH", out), ParseProblem::kOverflow);
  EXPECT_TRUE(Pg19Decode("0690B9E1K8U3N3AE7T0E32CJKH").has_value());
}

}  // namespace idgen::codec
