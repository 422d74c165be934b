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

// base32hex (RFC 4648 section 7: 0-9 then A-V, five bits a character, most significant first): a
// byte string, not a number, as PostgreSQL 19 writes encode(bytes, 'base32hex') without its '='
// padding. Sorts like the bytes. 16 bytes -> 26 characters, the last of which holds 3 bits and two
// zero bits.
inline constexpr size_t Base32HexWidth(size_t nbytes) { return (nbytes * 8 + 4) / 5; }
void Base32HexEncode(std::span<const uint8_t> bytes, std::span<char> out);  // out.size() == Base32HexWidth

// Reads exactly out.size() bytes from what PostgreSQL 19's decode(text, 'base32hex') reads as
// those bytes: Base32HexWidth(out.size()) digits of either case, then '=' padding of any length
// (encode() writes it to a multiple of 8 characters; decode() reads all of it, part of it or none,
// from where it may start: 2, 4, 5 or 7 digits into a group of 8), spaces, tabs, CR and LF skipped
// anywhere. Where decode() drops the unused low bits of the last digit, this refuses them unless 0
// (kOverflow): a value has one text, up to case, spaces and padding. Never throws: kEmpty,
// kBadLength (another number of digits, or '=' where padding cannot start), kBadDigit (*bad_digit:
// the character: not a digit, or a digit after the padding) or kOverflow.
ParseProblem Base32HexDecode(std::string_view text, std::span<uint8_t> out, char* bad_digit = nullptr);

// Base32HexDecode for SQL functions: throws kBadText with a message that names the target.
void Base32HexDecodeOrThrow(std::string_view text, std::span<uint8_t> out, const char* target);

// A non-negative bigint, shortest form; a negative one is kNumericOutOfRange.
size_t EncodeBigint(int64_t value, Base base, std::span<char> out);

// A bigint from text; above 2^63 - 1 is kNumericOutOfRange.
int64_t DecodeBigint(std::string_view text, Base base);

}  // namespace idgen::codec
