// Public UUIDs: a UUIDv7, time-ordered and what the database stores, shown as a UUID of version 4's
// shape that hides its time (a façade), and back, under a 128-bit key that only the server holds.
//
// Two mappings, each key has one:
//
// - uuidv47's (github.com/stateless-me/uuidv47, "Façade mapping" in its README), the default: the
//   48-bit time field XOR the low 48 bits of SipHash-2-4 of the UUID's own random bits (a 10-byte
//   message: the low nibble of byte 6, byte 7, the low 6 bits of byte 8, bytes 9 to 15), version 4;
//   every other bit as it is, so the mask is computed alike from the UUIDv7 and from its façade.
//   What uuidv47's libraries compute, bit for bit: they read idgen's façades and idgen reads theirs.
//   It leaves rand_a and rand_b as they are, which in idgen's UUIDv7 are a sub-millisecond fraction
//   and a 4-bit counter; and since the mask depends on those bits alone, whoever may have the
//   façade of a UUID of her choosing made learns the mask of every façade with the same bits.
// - opaque: a keyed permutation of all 122 bits that are not version or variant, a balanced
//   Feistel network of 6 rounds on two halves of 61 bits, whose round function is SipHash-2-4 of an
//   8-byte message (the round in the top 3 bits, the half below). It hides the fraction and the
//   counter too, and the façade of a chosen UUID tells nothing of another's. No peer reads it.
//
// Which key made a façade: uuidv47's layout has no room for a key id, so a façade carries none.
// Instead, façades are made only of UUIDv7s whose time is below 2^42 ms (2109-05-15 07:35:11.104
// UTC): under the right key the decoded time's top 6 bits are zero, under another key they are zero
// one time in 64. So a façade that no key of the server decodes to such a time is refused, and a
// façade made under a key that is gone is taken for one of the keys still held 1 time in 64 per key
// (decoded to another UUIDv7, which no row has): 1 in 64 under one key, 127 in 4096 (about 1 in 32)
// under two.
// The check reads the top bits of the time only: whether a changed façade is refused says nothing
// of the time inside the original.
//
// What a reading returns is the time of a row: it never reaches an error message. Every check of
// what is read (its version, its typeid's prefix) is made on the façade, before it is decoded, and
// the errors quote the façade, which whoever sent it has; after decoding nothing is checked but the
// time's top bits, whose refusal quotes the façade too.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/siphash.hpp"
#include "core/typeid.hpp"
#include "core/uuid.hpp"

namespace idgen::public_uuid {

using Key = siphash::Key;

enum class Mapping : uint8_t { kUuidv47, kOpaque };

struct KeySpec {
  Key key;
  Mapping mapping;
};

// The keys the server holds: the first makes façades and reads them; the second, while keys rotate,
// only reads them.
inline constexpr int kMaxKeys = 2;
struct KeyRing {
  KeySpec keys[kMaxKeys];
  int count;
};

// The times a façade carries: below 2^42 ms since 1970; the 6 bits above are the check of its key.
inline constexpr unsigned kTimeBits = 42;
inline constexpr int kOpaqueRounds = 6;

// The mappings alone, on any 128 bits: Encode writes version 4, Decode version 7, both the RFC
// variant.
Uuid Uuidv47Encode(const Uuid& v7, const Key& key) noexcept;
Uuid Uuidv47Decode(const Uuid& facade, const Key& key) noexcept;
Uuid OpaqueEncode(const Uuid& v7, const Key& key) noexcept;
Uuid OpaqueDecode(const Uuid& facade, const Key& key) noexcept;
inline Uuid Encode(const Uuid& v7, const KeySpec& key) noexcept {
  return key.mapping == Mapping::kUuidv47 ? Uuidv47Encode(v7, key.key) : OpaqueEncode(v7, key.key);
}
inline Uuid Decode(const Uuid& facade, const KeySpec& key) noexcept {
  return key.mapping == Mapping::kUuidv47 ? Uuidv47Decode(facade, key.key) : OpaqueDecode(facade, key.key);
}

// Whether a decoded UUID holds a time that a façade carries (below 2^42 ms).
inline bool Plausible(const Uuid& decoded) noexcept { return (decoded.bytes[0] >> (kTimeBits - 40)) == 0; }

// The façade of a UUIDv7 under the key. Throws kBadArgument for a UUID that is not a UUIDv7 of the
// RFC variant, kDatetimeOutOfRange for one at or after 2109-05-15 07:35:11.104 UTC.
Uuid Show(const Uuid& id, const KeySpec& key);

// The UUIDv7 of a façade: its decoding under the first key of the ring that gives a time a façade
// carries. Throws kBadArgument for a UUID that is not of version 4 and the RFC variant, or that no
// key of the ring decodes to such a time.
Uuid Reveal(const Uuid& facade, const KeyRing& ring);

// Every such decoding, the first key's first (one or two: while keys rotate, 1 façade in 64 of the
// previous key reads as a UUIDv7 under the current one too). Throws as Reveal.
struct Candidates {
  Uuid ids[kMaxKeys];
  int count;
};
Candidates RevealAll(const Uuid& facade, const KeyRing& ring);

// The same for a typeid's text: the prefix and encoding kept, the body shown or revealed. Throws
// kBadText (type_id::ParseOrThrow) for text that is no typeid, then as Show and Reveal.
// RevealTypeid takes the prefix the caller expects and refuses any other (kBadText, quoting the
// façade) before it decodes: what it returns has that prefix, so that no check of the prefix after
// it (a domain's, a type's of one prefix, typeid_uuid's) can refuse the reading and quote it.
type_id::Text ShowTypeid(std::string_view text, const KeySpec& key);
type_id::Text RevealTypeid(std::string_view text, std::string_view expected_prefix, const KeyRing& ring);

// ---- the key's text (idgen.public_uuid_key) ---------------------------------------------------
//
// One or two keys separated by white space (a file: one a line), the first the one that makes
// façades. A key is its 16 bytes in hexadecimal, as SipHash and uuidv47's PostgreSQL extension
// write it: 32 digits, or 16, a colon and 16 (k0 is the first 8 bytes read little-endian, k1 the
// last 8). "opaque:" before it gives the key the opaque mapping ("uuidv47:", uuidv47's, is the
// default).

enum class KeyProblem { kNone, kEmpty, kTooManyKeys, kBadMapping, kBadLength, kBadDigit };
struct KeyParse {
  KeyProblem problem;
  int key;  // which key (1 or 2) the problem is in; 0 for the text as a whole
};

// Never throws, never quotes the text (a secret) in anything it returns; out is all zeros unless
// the problem is kNone.
KeyParse ParseKeys(std::string_view text, KeyRing& out) noexcept;

// A sentence for errdetail: what is wrong, without any of the text.
const char* Explain(KeyProblem problem) noexcept;

// A key's 16 bytes, as its text writes them (k0 little-endian, then k1), and back.
void KeyBytes(const Key& key, uint8_t (&out)[16]) noexcept;
Key KeyOfBytes(const uint8_t (&bytes)[16]) noexcept;

// The text of a ring, as ParseKeys reads it: one key a line, "opaque:" before a key of the opaque
// mapping. Writes at most kMaxKeyText bytes and a NUL; returns the length.
inline constexpr size_t kMaxKeyText = kMaxKeys * (7 + 32 + 1);
size_t WriteKeys(const KeyRing& ring, char (&out)[kMaxKeyText + 1]) noexcept;

}  // namespace idgen::public_uuid
