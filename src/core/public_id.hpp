// Look-random public IDs: a keyed, reversible permutation of the positive bigints (1 .. 2^63 - 1
// onto itself), so that a sequence or a time-ordered ID can be shown to the world without
// revealing counts or creation order. It hides; it does not encrypt: it is a small block cipher on
// 63 bits, fine against someone who sees public IDs, no substitute for access control.
//
// A balanced Feistel network of 6 rounds on 64 bits (two halves of 32), whose round function is
// SipHash-2-4 under a 128-bit key, walks the cycle (applies the network again) until the value is
// in the domain. The same code on a smaller domain is what the tests check exhaustively.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/siphash.hpp"
#include "core/text.hpp"

namespace idgen::public_id {

using Key = siphash::Key;

// SipHash-2-4 of one 8-byte message (its bytes little-endian), the keyed round function.
uint64_t SipHash24(const Key& key, uint64_t message);

// A domain 0 .. size - 1 inside 2 * half_bits bits.
struct Domain {
  unsigned half_bits;
  uint64_t size;
};
inline constexpr Domain kBigint{32, (uint64_t{1} << 63) - 1};
inline constexpr int kRounds = 6;

// The permutation of x (in the domain) and its inverse.
uint64_t Permute(uint64_t x, const Domain& domain, const Key& key);
uint64_t Unpermute(uint64_t y, const Domain& domain, const Key& key);

// The public ID of a positive bigint, and back. kNumericOutOfRange for id < 1.
int64_t Hide(int64_t id, const Key& key);
int64_t Reveal(int64_t public_id, const Key& key);

// The short text form: 11 base62 digits, fixed width. Parsing throws kBadText / kNumericOutOfRange.
inline constexpr size_t kTextWidth = 11;
using Text = BoundedText<kTextWidth>;
Text Format(int64_t public_id);
int64_t ParseText(std::string_view text);

}  // namespace idgen::public_id
