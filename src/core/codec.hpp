// Radix encodings of big-endian unsigned numbers of up to 32 bytes: base16, base36, base62, and
// the Crockford base32 of the TypeID spec. Digits sort like the numbers they write (0-9, then
// letters; base62 is 0-9A-Za-z), so fixed-width text sorts like the numbers under the C collation.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/text.hpp"

namespace idgen::codec {

enum class Base { k16, k32, k36, k62 };

inline constexpr size_t kMaxBytes = 32;

// The number of digits that write any number of nbytes bytes (base36: 16 bytes -> 25).
size_t Width(size_t nbytes, Base base);

const char* Name(Base base);  // "base36"

// Writes number in out.size() digits, left-padded with '0'. out.size() >= Width(number.size()).
void Encode(std::span<const uint8_t> number, Base base, std::span<char> out);

// Writes number with no leading zeros (one "0" for zero); returns the number of digits written.
// out.size() >= Width(number.size()).
size_t EncodeShortest(std::span<const uint8_t> number, Base base, std::span<char> out);

// Reads text into out (big-endian, out.size() bytes). Base16 and base36 take either case, base32
// (TypeID) lowercase only, base62 is case-sensitive. Leading zeros are allowed up to the width.
// Never throws: kEmpty, kTooLong, kBadDigit or kOverflow; *bad_digit gets the first character that is not a digit, for
// messages.
ParseProblem Decode(std::string_view text, Base base, std::span<uint8_t> out, char* bad_digit = nullptr);

// Decode for SQL functions: throws kBadText (empty, too long, bad digit) or kNumericOutOfRange,
// with messages that name the target ("bigint", "uuid").
void DecodeOrThrow(std::string_view text, Base base, std::span<uint8_t> out, const char* target);

// A non-negative bigint, shortest form; a negative one is kNumericOutOfRange.
size_t EncodeBigint(int64_t value, Base base, std::span<char> out);

// A bigint from text; above 2^63 - 1 is kNumericOutOfRange.
int64_t DecodeBigint(std::string_view text, Base base);

}  // namespace idgen::codec
