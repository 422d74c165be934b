// Signed tokens: "<prefix>_<random><tag>", for IDs that grant access without authentication. The
// random part is 256 CSPRNG bits, the tag HMAC-SHA256 (computed by the caller: PostgreSQL's
// pg_hmac) of "<prefix>_<random>" under a secret known only to the server; each is 43 base62
// characters.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/typeid.hpp"

namespace idgen::token {

inline constexpr size_t kRandomBytes = 32;
inline constexpr size_t kTagBytes = 32;
inline constexpr size_t kPartDigits = 43;  // base62 digits of 32 bytes
inline constexpr size_t kMaxText = type_id::kMaxPrefix + 1 + 2 * kPartDigits;

// A token, or its signed part, as plain data.
using Text = BoundedText<kMaxText>;

// The signed part, "<prefix>_<random>". Throws kBadArgument for an invalid prefix.
Text Message(std::string_view prefix, const uint8_t (&random)[kRandomBytes]);

// The whole token: the message and its tag.
Text Sign(const Text& message, const uint8_t (&tag)[kTagBytes]);

// Splits a token into its signed part and its tag; false if it is not shaped like a token. Never
// throws.
bool Split(std::string_view token, std::string_view& message, uint8_t (&tag)[kTagBytes]);

}  // namespace idgen::token
