// Big-endian packing of unsigned integers into byte spans: the one helper for every layout that
// writes numbers most significant byte first (UUIDs, ObjectIds, radix codecs).
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace idgen {

// Writes the low out.size() bytes of value into out, most significant first (out.size() <= 8).
constexpr void StoreBigEndian(uint64_t value, std::span<uint8_t> out) {
  for (size_t i = out.size(); i-- > 0;) {
    out[i] = static_cast<uint8_t>(value);
    value >>= 8;
  }
}

// Writes all eight bytes of value at out, most significant first: one byte swap and one store, where
// StoreBigEndian loops over the bytes (a UUID's halves, on every call of a generator).
inline void StoreBigEndian64(uint64_t value, uint8_t* out) {
  const uint64_t big = __builtin_bswap64(value);
  std::memcpy(out, &big, sizeof big);
}

// The number written in bytes, most significant first (bytes.size() <= 8).
constexpr uint64_t LoadBigEndian(std::span<const uint8_t> bytes) {
  uint64_t value = 0;
  for (uint8_t b : bytes) value = (value << 8) | b;
  return value;
}

}  // namespace idgen

namespace idgen {

// Whether a and b hold the same bytes, in a time that depends on their length only (for secrets:
// an attacker learns nothing from how long a comparison of a forged tag took).
constexpr bool ConstantTimeEqual(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  if (a.size() != b.size()) return false;
  uint8_t difference = 0;
  for (size_t i = 0; i < a.size(); ++i) difference |= static_cast<uint8_t>(a[i] ^ b[i]);
  return difference == 0;
}

}  // namespace idgen
