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

// Throws kBadArgument unless name is "base36" or "base32".
Encoding EncodingNamed(std::string_view name);

using Text = BoundedText<kMaxText>;

// The body of an unordered typeid: a UUIDv4, 122 bits from the CSPRNG.
Uuid RandomBody(RandomPool& pool, long owner);

// prefix must be valid.
Text Format(std::string_view prefix, const Uuid& id, Encoding encoding);

struct Parsed {
  std::string_view prefix;  // points into the parsed text
  Uuid id;
  Encoding encoding;
};

// Never throws. A body of 25 characters is base36 (either case); of 26, the spec's base32
// (lowercase). A spec TypeID with an empty prefix has no separator: a bare 26-character body.
ParseProblem Parse(std::string_view text, Parsed& out);

// Parse, throwing kBadText (kNumericOutOfRange for a body above 128 bits) with the problem.
Parsed ParseOrThrow(std::string_view text);

// ParseOrThrow, and kBadText unless the prefix is the expected one.
Parsed ParseExpecting(std::string_view text, std::string_view expected_prefix);

// The instant of a typeid whose body is a UUIDv7; kBadArgument for a random body.
int64_t TimeUs(std::string_view text);

}  // namespace idgen::type_id
