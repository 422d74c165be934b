// (The namespace is type_id: typeid is a C++ keyword.)
//
// Typed, prefixed IDs: "<prefix>_<body>". The prefix says what entity the ID names; the body is a
// UUID (a UUIDv7, or 122 random bits as a UUIDv4 for unguessable values) written either in
// idgen's base36 form (25 characters, zero-padded, so text order is time order under the C
// collation) or in the TypeID spec's form (26 characters of lowercase Crockford base32).
//
// Prefix rule (the TypeID spec's): 1 to 63 characters, lowercase ASCII letters a-z and underscores,
// starting and ending with a letter.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/random.hpp"
#include "core/text.hpp"
#include "core/uuid.hpp"

namespace idgen::type_id {

enum class Encoding { kBase36, kBase32 };

inline constexpr size_t kMaxPrefix = 63;
inline constexpr size_t kBase36Body = 25;
inline constexpr size_t kBase32Body = 26;
inline constexpr size_t kMaxText = kMaxPrefix + 1 + kBase32Body;

inline constexpr const char* kPrefixRule =
    "A prefix is 1 to 63 lowercase ASCII letters (a-z) and underscores, starting and ending with a letter.";

bool ValidPrefix(std::string_view prefix);

// Throws kBadArgument with the rule in the hint.
void CheckPrefix(std::string_view prefix);

// The writers' rule, of every function that writes a typeid's text: a valid prefix in either
// encoding, or the spec's empty prefix in base32 (the bare body, no separator). Base36 has no form
// without a prefix (25 characters alone are no typeid to any reader). Throws kBadArgument.
void CheckFormat(std::string_view prefix, Encoding encoding);

// Throws kBadArgument unless name is "base36" or "base32".
Encoding EncodingNamed(std::string_view name);

using Text = BoundedText<kMaxText>;

// The body of an unordered typeid: a UUIDv4, 122 bits from the CSPRNG.
Uuid RandomBody(RandomPool& pool, long owner);

// prefix and encoding must pass CheckFormat.
Text Format(std::string_view prefix, const Uuid& id, Encoding encoding);

struct Parsed {
  std::string_view prefix;  // points into the parsed text
  Uuid id;
  Encoding encoding;
};

// The one rule for a typeid's body, which every reader follows (the text functions, the type's
// input and the cast from text, through Parse): 25 characters are idgen's base36, 26 the spec's
// base32, both lowercase only, so that an ID has one text in each encoding. Never throws:
// kBadLength, kBadDigit (an upper-case letter, a character outside the alphabet) or kOverflow (a
// base32 body whose first digit is above 7, a base36 one above 2^128 - 1). encoding is set whenever
// the length names one.
ParseProblem ParseBody(std::string_view body, Encoding& encoding, Uuid& id) noexcept;

// A prefix, "_" and a body (ParseBody); the spec's empty prefix has no separator: a bare body of
// 26 characters. Never throws.
ParseProblem Parse(std::string_view text, Parsed& out) noexcept;

// Parse, throwing kBadText (22P02, as the type's input: an overflowing body is text that is no
// typeid) with Explain's detail and hint.
Parsed ParseOrThrow(std::string_view text);

// ParseOrThrow, and kBadText unless the prefix is the expected one.
Parsed ParseExpecting(std::string_view text, std::string_view expected_prefix);
// That refusal, of a typeid's text whose prefix is not the expected one.
[[noreturn]] void ThrowNotOfPrefix(std::string_view text, std::string_view prefix, std::string_view expected_prefix);

// The instant of a typeid whose body is a UUIDv7; kBadArgument for a random body.
int64_t TimeUs(std::string_view text);

// ---- the idgen.type_id type: a prefix and a UUID in at most 24 bytes -----------------------------
//
// A stored value is one of three byte strings, told apart by their length (the varlena's), and
// canonical: a prefix and a UUID have exactly one, so equality is byte equality and a hash of the
// bytes is a hash of the value.
//
//   compact, 23 bytes  a prefix of at most 12 characters and a UUID of version 4 or 7 (RFC variant):
//                      the prefix as a 58-bit number, then the UUID's 122 bits that are not fixed
//                      (its version as one bit, 4 or 7, in the version's place), then 3 zero bits
//   short,   24 bytes  a prefix of at most 12 characters and any other UUID: the prefix as a
//                      64-bit number, then the 16 bytes of the UUID
//   long, 29-79 bytes  a prefix of 13 to 63 characters: its characters, then the 16 bytes of the UUID
//
// The prefix number: the 12 characters, padded after the end with a symbol below every character
// (end < '_' < 'a' < ... < 'z'), as 12 digits of base 28: its order is the prefixes' order.
// So compact values compare as bytes (memcmp) in the order of their TypeID texts, and so do two
// short ones. The order of every value: its prefix (as bytes: a shorter prefix before a longer one
// that starts with it), then its UUID (as bytes), which is the order of the TypeID texts under the
// C collation.
//
// What is noexcept below never throws (no allocation either): the glue calls it outside Guarded().

inline constexpr size_t kPackedPrefix = 12;
inline constexpr size_t kCompactSize = 23;
inline constexpr size_t kShortSize = 24;
inline constexpr size_t kMaxStored = kMaxPrefix + 16;

// The spec's rule: valid, or empty.
bool ValidSpecPrefix(std::string_view prefix) noexcept;

struct Stored {
  uint8_t bytes[kMaxStored];
  size_t size;
  std::span<const uint8_t> view() const { return {bytes, size}; }
};

// prefix must satisfy ValidSpecPrefix.
Stored Store(std::string_view prefix, const Uuid& id) noexcept;

struct Value {
  char prefix[kMaxPrefix];
  size_t prefix_size;
  Uuid id;
  std::string_view prefix_view() const { return {prefix, prefix_size}; }
};

// The prefix and UUID of stored bytes. Never throws; false for bytes that Store never writes.
bool Load(std::span<const uint8_t> stored, Value& out) noexcept;

// <0, 0, >0: the order of two stored values. Bytes that Store never writes compare as bytes.
int Compare(std::span<const uint8_t> a, std::span<const uint8_t> b) noexcept;

// The order of two prefixes (a shorter one first when the longer starts with it).
int ComparePrefixes(std::string_view a, std::string_view b) noexcept;

// The binary form (send/receive): the 16 bytes of the UUID, then the prefix's characters.
struct Binary {
  uint8_t bytes[kMaxStored];
  size_t size;
};
Binary ToBinary(const Value& value) noexcept;

// The prefix and UUID of a binary form. Never throws: kBadLength (under 16 bytes, or a prefix
// over 63 characters) or kBadPrefix.
ParseProblem DecodeBinary(std::span<const uint8_t> bytes, Value& out) noexcept;

// The type's text input: Parse, and with accept_base36 false (the type's input; the cast from text
// passes true) kBadLength for a base36 body (a literal of 25 characters is more likely a TypeID that
// lost one). Never throws.
ParseProblem ParseText(std::string_view text, Parsed& out, bool accept_base36) noexcept;

// What is wrong with text that ParseText refused, as sentences for errdetail and errhint. Never
// throws, never allocates.
struct Explanation {
  char detail[160];
  const char* hint;
};
Explanation Explain(std::string_view text, ParseProblem problem, bool accept_base36) noexcept;

// Throws kBadText unless the value's prefix is expected; the message names both prefixes.
void ExpectPrefix(const Value& value, std::string_view expected);

// The instant of a value whose UUID is a UUIDv7; kBadArgument for another UUID.
int64_t TimeUs(const Value& value);

// Abbreviated sort keys. The first value sorted sets the reference prefix; a key is two bits for
// its prefix against that reference (below, equal, above) and, for a prefix equal to it, the first
// 62 bits of the UUID: key(a) < key(b) means a < b, and equal keys leave the order to Compare.
struct AbbreviationReference {
  char prefix[kMaxPrefix];
  size_t prefix_size;
  bool set;
};
uint64_t Abbreviate(const Value& value, AbbreviationReference& reference) noexcept;

}  // namespace idgen::type_id
