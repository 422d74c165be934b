// SipHash-2-4 (Aumasson and Bernstein, 2012), the keyed function of public IDs and of public
// UUIDs: a pseudorandom function under a 128-bit key, fast on short messages. Inline: a façade
// of a UUID is one call of it, on every call of idgen.public_uuid().
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

namespace idgen::siphash {

// The key as the algorithm reads it: k0 is the first 8 bytes of the 16-byte key, little-endian,
// k1 the last 8.
struct Key {
  uint64_t k0;
  uint64_t k1;
};

namespace detail {

constexpr uint64_t Rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct State {
  uint64_t v0, v1, v2, v3;
  constexpr explicit State(const Key& key)
      : v0(key.k0 ^ 0x736f6d6570736575ULL),
        v1(key.k1 ^ 0x646f72616e646f6dULL),
        v2(key.k0 ^ 0x6c7967656e657261ULL),
        v3(key.k1 ^ 0x7465646279746573ULL) {}
  constexpr void Round() {
    v0 += v1;
    v1 = Rotl(v1, 13);
    v1 ^= v0;
    v0 = Rotl(v0, 32);
    v2 += v3;
    v3 = Rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = Rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = Rotl(v1, 17);
    v1 ^= v2;
    v2 = Rotl(v2, 32);
  }
  // One 8-byte block, two compression rounds.
  constexpr void Compress(uint64_t m) {
    v3 ^= m;
    Round();
    Round();
    v0 ^= m;
  }
  // Four finalization rounds.
  constexpr uint64_t Finish() {
    v2 ^= 0xff;
    Round();
    Round();
    Round();
    Round();
    return v0 ^ v1 ^ v2 ^ v3;
  }
};

constexpr uint64_t LoadLittleEndian(std::span<const uint8_t> bytes) {
  uint64_t value = 0;
  for (size_t i = bytes.size(); i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

}  // namespace detail

// SipHash-2-4 of any message.
constexpr uint64_t Hash(const Key& key, std::span<const uint8_t> message) {
  detail::State s(key);
  const size_t whole = message.size() & ~size_t{7};
  for (size_t i = 0; i < whole; i += 8) s.Compress(detail::LoadLittleEndian(message.subspan(i, 8)));
  // The last block: the 0 to 7 bytes left, and the length's low byte in the top byte.
  s.Compress(detail::LoadLittleEndian(message.subspan(whole)) | (static_cast<uint64_t>(message.size()) << 56));
  return s.Finish();
}

// SipHash-2-4 of one 8-byte message whose bytes, little-endian, are m.
constexpr uint64_t Hash8(const Key& key, uint64_t m) {
  detail::State s(key);
  s.Compress(m);
  s.Compress(uint64_t{8} << 56);
  return s.Finish();
}

// SipHash-2-4 of a 10-byte message: its first 8 bytes little-endian (m0), then two bytes (tail, the
// ninth in the low byte).
constexpr uint64_t Hash10(const Key& key, uint64_t m0, uint16_t tail) {
  detail::State s(key);
  s.Compress(m0);
  s.Compress(tail | (uint64_t{10} << 56));
  return s.Finish();
}

}  // namespace idgen::siphash
