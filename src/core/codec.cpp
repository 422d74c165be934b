#include "core/codec.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/bytes.hpp"
#include "core/error.hpp"

namespace idgen::codec {

namespace {

struct Alphabet {
  const char* name;
  const char* digits;
  uint32_t radix;
  bool fold_case;  // upper-case letters read as lower-case
};

constexpr Alphabet kAlphabets[] = {
    {"base16", "0123456789abcdef", 16, true},
    {"base32", "0123456789abcdefghjkmnpqrstvwxyz", 32, false},
    {"base36", "0123456789abcdefghijklmnopqrstuvwxyz", 36, true},
    {"base62", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 62, false},
};

const Alphabet& Of(Base base) { return kAlphabets[static_cast<int>(base)]; }

// Digit values by character, 0xFF for characters that are not digits.
using Table = std::array<uint8_t, 256>;
constexpr Table MakeTable(const Alphabet& a) {
  Table table{};
  for (auto& v : table) v = 0xFF;
  for (uint32_t i = 0; i < a.radix; ++i) {
    const auto c = static_cast<unsigned char>(a.digits[i]);
    table[c] = static_cast<uint8_t>(i);
    if (a.fold_case && c >= 'a' && c <= 'z') table[c - 'a' + 'A'] = static_cast<uint8_t>(i);
  }
  return table;
}
constexpr Table kTables[] = {MakeTable(kAlphabets[0]), MakeTable(kAlphabets[1]), MakeTable(kAlphabets[2]),
                             MakeTable(kAlphabets[3])};

// A number as 32-bit limbs, most significant first.
struct Limbs {
  uint32_t v[kMaxBytes / 4];
  size_t n;
};

Limbs ToLimbs(std::span<const uint8_t> bytes) {
  Limbs limbs{{}, (bytes.size() + 3) / 4};
  const size_t pad = limbs.n * 4 - bytes.size();
  for (size_t i = 0; i < bytes.size(); ++i) {
    const size_t at = pad + i;
    limbs.v[at / 4] |= static_cast<uint32_t>(bytes[i]) << (8 * (3 - at % 4));
  }
  return limbs;
}

}  // namespace

size_t Width(size_t nbytes, Base base) {
  return static_cast<size_t>(std::ceil(static_cast<double>(nbytes * 8) / std::log2(Of(base).radix) - 1e-9));
}

const char* Name(Base base) { return Of(base).name; }

namespace {

// The division loop with the radix and chunk as constants, so that the compiler turns every
// division into a multiplication (a runtime divisor costs a hardware division per limb).
template <uint32_t kRadix, uint32_t kChunkDigits>
void EncodeIn(const char* digits, std::span<const uint8_t> number, std::span<char> out) {
  constexpr uint64_t kChunk = [] {
    uint64_t c = 1;
    for (uint32_t i = 0; i < kChunkDigits; ++i) c *= kRadix;
    return c;
  }();
  static_assert(kChunk <= (uint64_t{1} << 32), "a chunk's remainder must fit 32 bits");
  Limbs limbs = ToLimbs(number);
  size_t first = 0;  // limbs before first are zero
  size_t pos = out.size();
  while (pos > 0) {
    while (first < limbs.n && limbs.v[first] == 0) ++first;
    uint64_t rem = 0;
    for (size_t i = first; i < limbs.n; ++i) {
      const uint64_t cur = (rem << 32) | limbs.v[i];
      limbs.v[i] = static_cast<uint32_t>(cur / kChunk);
      rem = cur % kChunk;
    }
    for (uint32_t d = 0; d < kChunkDigits && pos > 0; ++d) {
      out[--pos] = digits[rem % kRadix];
      rem /= kRadix;
    }
  }
}

}  // namespace

void Encode(std::span<const uint8_t> number, Base base, std::span<char> out) {
  const char* digits = Of(base).digits;
  switch (base) {
    case Base::k16:
      return EncodeIn<16, 8>(digits, number, out);
    case Base::k32:
      return EncodeIn<32, 6>(digits, number, out);
    case Base::k36:
      return EncodeIn<36, 6>(digits, number, out);
    case Base::k62:
      return EncodeIn<62, 5>(digits, number, out);
  }
}

size_t EncodeShortest(std::span<const uint8_t> number, Base base, std::span<char> out) {
  const size_t width = Width(number.size(), base);
  Encode(number, base, out.first(width));
  size_t skip = 0;
  while (skip + 1 < width && out[skip] == '0') ++skip;
  for (size_t i = skip; i < width; ++i) out[i - skip] = out[i];
  return width - skip;
}

ParseProblem Decode(std::string_view text, Base base, std::span<uint8_t> out, char* bad_digit) {
  if (text.empty()) return ParseProblem::kEmpty;
  if (text.size() > Width(out.size(), base)) return ParseProblem::kTooLong;
  const Alphabet& a = Of(base);
  const Table& table = kTables[static_cast<int>(base)];
  Limbs limbs{{}, (out.size() + 3) / 4};
  for (char c : text) {
    const uint8_t digit = table[static_cast<unsigned char>(c)];
    if (digit == 0xFF) {
      if (bad_digit != nullptr) *bad_digit = c;
      return ParseProblem::kBadDigit;
    }
    uint64_t carry = digit;
    for (size_t i = limbs.n; i-- > 0;) {
      const uint64_t cur = static_cast<uint64_t>(limbs.v[i]) * a.radix + carry;
      limbs.v[i] = static_cast<uint32_t>(cur);
      carry = cur >> 32;
    }
    if (carry != 0) return ParseProblem::kOverflow;
  }
  const size_t pad = limbs.n * 4 - out.size();
  if (pad > 0 && (limbs.v[0] >> (8 * (4 - pad))) != 0) return ParseProblem::kOverflow;
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t at = pad + i;
    out[i] = static_cast<uint8_t>(limbs.v[at / 4] >> (8 * (3 - at % 4)));
  }
  return ParseProblem::kNone;
}

void DecodeOrThrow(std::string_view text, Base base, std::span<uint8_t> out, const char* target) {
  char bad = 0;
  const std::string quoted = Quote(text);
  const std::string intro = std::string("invalid ") + Name(base) + " text for " + target + ": " + quoted;
  switch (Decode(text, base, out, &bad)) {
    case ParseProblem::kNone:
      return;
    case ParseProblem::kEmpty:
      throw Error(ErrorKind::kBadText, intro, "The text is empty.");
    case ParseProblem::kTooLong:
      throw Error(ErrorKind::kBadText, intro,
                  "It has " + std::to_string(text.size()) + " digits; a " + target + " has at most " +
                      std::to_string(Width(out.size(), base)) + ".");
    case ParseProblem::kBadDigit: {
      std::string digit = (bad >= 0x20 && bad < 0x7F) ? "\"" + std::string(1, bad) + "\""
                                                      : "byte " + std::to_string(static_cast<unsigned char>(bad));
      throw Error(ErrorKind::kBadText, intro, digit + " is not a " + Name(base) + " digit.",
                  base == Base::k62 ? "Base62 digits are 0-9, A-Z and a-z, and case matters." : "");
    }
    case ParseProblem::kOverflow:
      throw Error(ErrorKind::kNumericOutOfRange,
                  std::string(Name(base)) + " value " + quoted + " is out of range for " + target,
                  std::string("A ") + target + " holds " + std::to_string(out.size() * 8) + " bits.");
    case ParseProblem::kNoSeparator:  // not problems of plain digits
    case ParseProblem::kBadPrefix:
    case ParseProblem::kBadLength:
      break;
  }
  throw Error(ErrorKind::kInternal, "unexpected problem decoding " + quoted);
}

size_t EncodeBigint(int64_t value, Base base, std::span<char> out) {
  if (value < 0) {
    throw Error(ErrorKind::kNumericOutOfRange, "cannot encode negative bigint " + std::to_string(value),
                std::string("Only bigints from 0 to 9223372036854775807 have a ") + Name(base) + " form.");
  }
  uint8_t bytes[8];
  StoreBigEndian(static_cast<uint64_t>(value), bytes);
  return EncodeShortest(bytes, base, out);
}

int64_t DecodeBigint(std::string_view text, Base base) {
  uint8_t bytes[8];
  DecodeOrThrow(text, base, bytes, "bigint");
  const uint64_t value = LoadBigEndian(bytes);
  if (value > static_cast<uint64_t>(INT64_MAX)) {
    throw Error(ErrorKind::kNumericOutOfRange,
                std::string(Name(base)) + " value " + Quote(text) + " is out of range for bigint",
                "A bigint holds at most 9223372036854775807.");
  }
  return static_cast<int64_t>(value);
}

namespace {
constexpr char kBase32HexDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
int Base32HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'V') return c - 'A' + 10;
  if (c >= 'a' && c <= 'v') return c - 'a' + 10;
  return -1;
}
}  // namespace

void Base32HexEncode(std::span<const uint8_t> bytes, std::span<char> out) {
  uint32_t buffer = 0;
  int bits = 0;
  size_t at = 0;
  for (const uint8_t byte : bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out[at++] = kBase32HexDigits[(buffer >> bits) & 0x1F];
    }
    buffer &= (1u << bits) - 1;
  }
  if (bits > 0) out[at++] = kBase32HexDigits[(buffer << (5 - bits)) & 0x1F];
}

namespace {

// What PostgreSQL 19's decode(text, 'base32hex') skips wherever it stands.
constexpr bool Base32HexSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// RFC 4648's padding starts only where the digits before it end a whole number of bytes: after 2,
// 4, 5 or 7 digits of a group of 8 (1 to 4 bytes of a group of 5).
constexpr bool PaddingMayStartAfter(size_t digits) {
  const size_t pos = digits % 8;
  return pos == 2 || pos == 4 || pos == 5 || pos == 7;
}

size_t Base32HexDigits(std::string_view text) {
  size_t digits = 0;
  for (const char c : text) digits += Base32HexValue(c) >= 0 ? 1 : 0;
  return digits;
}

}  // namespace

ParseProblem Base32HexDecode(std::string_view text, std::span<uint8_t> out, char* bad_digit) {
  // The text as decode() reads it: digits, then '=' from a place where padding may start to the end.
  // One pass checks it in decode()'s order (its first fault is the one reported) and counts the
  // digits; the second reads them, once their number is right.
  size_t digits = 0;
  bool padding = false, blank = true;
  for (const char c : text) {
    if (Base32HexSpace(c)) continue;
    blank = false;
    if (c == '=') {
      if (!padding && !PaddingMayStartAfter(digits)) return ParseProblem::kBadLength;
      padding = true;
      continue;
    }
    if (padding || Base32HexValue(c) < 0) {  // a digit after the padding, or no digit
      if (bad_digit != nullptr) *bad_digit = c;
      return ParseProblem::kBadDigit;
    }
    ++digits;
  }
  if (blank) return ParseProblem::kEmpty;
  const size_t width = Base32HexWidth(out.size());
  if (digits != width) return ParseProblem::kBadLength;
  uint32_t buffer = 0;
  int bits = 0;
  size_t at = 0;
  char last = 0;
  for (const char c : text) {
    const int v = Base32HexValue(c);
    if (v < 0) continue;  // only spaces and the padding remain
    buffer = (buffer << 5) | static_cast<uint32_t>(v);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = static_cast<uint8_t>(buffer >> bits);
      buffer &= (1u << bits) - 1;
    }
    last = c;
  }
  // decode() drops the unused low bits of the last digit; idgen refuses them unless 0, so that a
  // value has one text (up to case, spaces and padding) and no bits are masked away silently.
  if (buffer != 0) {
    if (bad_digit != nullptr) *bad_digit = last;
    return ParseProblem::kOverflow;
  }
  return ParseProblem::kNone;
}

void Base32HexDecodeOrThrow(std::string_view text, std::span<uint8_t> out, const char* target) {
  char bad = 0;
  const std::string intro = std::string("invalid base32hex text for ") + target + ": " + Quote(text);
  const std::string width = std::to_string(Base32HexWidth(out.size()));
  const char* hint = "encode(value::bytea, 'base32hex') writes it, with its '=' padding; rtrim(..., '=') without.";
  switch (Base32HexDecode(text, out, &bad)) {
    case ParseProblem::kNone:
      return;
    case ParseProblem::kEmpty:
      throw Error(ErrorKind::kBadText, intro, "The text is empty.");
    case ParseProblem::kBadLength: {
      const size_t digits = Base32HexDigits(text.substr(0, std::min(text.find('='), text.size())));
      throw Error(ErrorKind::kBadText, intro,
                  "It has " + std::to_string(digits) + " digits before its '=' padding or end; a " + target + " has " +
                      width + ".",
                  hint);
    }
    case ParseProblem::kBadDigit: {
      if (Base32HexValue(bad) >= 0) {
        throw Error(ErrorKind::kBadText, intro, "It has a digit after its '=' padding, which ends the text.", hint);
      }
      const std::string what = (bad >= 0x20 && bad < 0x7F) ? "\"" + std::string(1, bad) + "\""
                                                           : "byte " + std::to_string(static_cast<unsigned char>(bad));
      throw Error(ErrorKind::kBadText, intro, what + " is not a base32hex digit.",
                  "base32hex digits are 0-9 and A-V, in either case.");
    }
    case ParseProblem::kOverflow:
      throw Error(ErrorKind::kBadText, intro,
                  "Its last digit holds bits beyond the " + std::to_string(out.size() * 8) + " of a " + target +
                      ", which must be 0.",
                  out.size() == 16 ? "The base32hex text of a uuid ends in 0, 4, 8, C, G, K, O or S." : "");
    default:
      break;
  }
  throw Error(ErrorKind::kInternal, "unexpected problem decoding " + Quote(text));
}

}  // namespace idgen::codec
