#include "core/public_uuid.hpp"

#include <bit>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace idgen::public_uuid {

namespace {

static_assert(std::endian::native == std::endian::little, "the mappings read the UUID's bytes as little-endian words");

uint64_t LoadLittle64(const uint8_t* p) {
  uint64_t value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

uint64_t LoadBig64(const uint8_t* p) { return __builtin_bswap64(LoadLittle64(p)); }

void StoreBig64(uint64_t value, uint8_t* p) {
  const uint64_t big = __builtin_bswap64(value);
  std::memcpy(p, &big, sizeof big);
}

constexpr uint64_t kTime48 = (uint64_t{1} << 48) - 1;

// uuidv47's mask: the low 48 bits of SipHash-2-4 of the 10 bytes b6 & 0x0f, b7, b8 & 0x3f, b9 ..
// b15, which the mapping leaves as they are (so the UUIDv7 and its façade give the same mask).
uint64_t Uuidv47Mask(const Uuid& id, const Key& key) {
  const uint8_t* b = id.bytes.data();
  const uint64_t m0 = LoadLittle64(b + 6) & 0xFFFFFFFFFF3FFF0FULL;  // b6 .. b13, less version and variant
  uint16_t tail;
  std::memcpy(&tail, b + 14, sizeof tail);  // b14, b15 (little-endian: b14 first)
  return siphash::Hash10(key, m0, tail) & kTime48;
}

// The first half with its 48-bit time field XORed with mask and the version given.
Uuid Masked(const Uuid& id, uint64_t mask, unsigned version) {
  Uuid out = id;
  const uint64_t hi = LoadBig64(id.bytes.data());
  StoreBig64(((hi ^ (mask << 16)) & ~uint64_t{0xF000}) | (uint64_t{version} << 12), out.bytes.data());
  out.bytes[8] = static_cast<uint8_t>((out.bytes[8] & 0x3F) | 0x80);
  return out;
}

// The opaque mapping's two halves of 61 bits: the 48-bit time, the 12 bits of rand_a and the top bit
// of rand_b; the other 61 bits of rand_b.
constexpr uint64_t kHalf = (uint64_t{1} << 61) - 1;

struct Halves {
  uint64_t left, right;
};

Halves Split(const Uuid& id) {
  const uint64_t hi = LoadBig64(id.bytes.data());
  const uint64_t lo = LoadBig64(id.bytes.data() + 8);
  const uint64_t rand_b = lo & ((uint64_t{1} << 62) - 1);
  return Halves{((hi >> 16) << 13) | ((hi & 0xFFF) << 1) | (rand_b >> 61), rand_b & kHalf};
}

Uuid Join(Halves h, unsigned version) {
  Uuid out;
  StoreBig64(((h.left >> 13) << 16) | (uint64_t{version} << 12) | ((h.left >> 1) & 0xFFF), out.bytes.data());
  StoreBig64((uint64_t{1} << 63) | ((h.left & 1) << 61) | h.right, out.bytes.data() + 8);
  return out;
}

uint64_t RoundFunction(const Key& key, int round, uint64_t half) {
  return siphash::Hash8(key, (static_cast<uint64_t>(round) << 61) | half) & kHalf;
}

void CheckFacade(const Uuid& facade) {
  if (facade.version() != 4 || !facade.rfc_variant()) {
    const int version = facade.version();
    throw Error(ErrorKind::kBadArgument,
                "uuid \"" + ToString(facade) + "\" is version " + std::to_string(version) +
                    (facade.rfc_variant() ? "" : " of a non-RFC variant") + ", not a façade",
                "A façade is a UUID of version 4 and the RFC 9562 variant, as idgen.public_uuid() writes it.",
                version == 7 ? "A UUIDv7 is the stored form itself: look it up as it is."
                             : "Pass the UUID that idgen.public_uuid() or a uuidv47 library showed.");
  }
}

// (a random UUIDv4 passes 1 time in 64 per key held: 1 - (63/64)^2, 127 in 4096, under two)
[[noreturn]] void ThrowUnknownKey(const Uuid& facade, int keys) {
  throw Error(ErrorKind::kBadArgument,
              "uuid \"" + ToString(facade) + "\" is not a façade made under " +
                  (keys == 1 ? "the key of this server" : "either key of this server"),
              std::string(keys == 1 ? "Under idgen.public_uuid_key it" : "Under each key of idgen.public_uuid_key it") +
                  " decodes to a time after 2109-05-15, which no façade carries: it was made under another key, or "
                  "altered, or it is not a façade (" +
                  (keys == 1 ? "a random UUIDv4 is refused 63 times in 64"
                             : "a random UUIDv4 is refused about 31 times in 32: 63 in 64 under each key") +
                  ").",
              "A façade made under a key that has been removed can no longer be read: while façades made under a "
              "replaced key may come back, keep that key as the second one of idgen.public_uuid_key.");
}

}  // namespace

Uuid Uuidv47Encode(const Uuid& v7, const Key& key) noexcept { return Masked(v7, Uuidv47Mask(v7, key), 4); }

Uuid Uuidv47Decode(const Uuid& facade, const Key& key) noexcept { return Masked(facade, Uuidv47Mask(facade, key), 7); }

Uuid OpaqueEncode(const Uuid& v7, const Key& key) noexcept {
  Halves h = Split(v7);
  for (int r = 0; r < kOpaqueRounds; ++r) h = Halves{h.right, h.left ^ RoundFunction(key, r, h.right)};
  return Join(h, 4);
}

Uuid OpaqueDecode(const Uuid& facade, const Key& key) noexcept {
  Halves h = Split(facade);
  for (int r = kOpaqueRounds; r-- > 0;) h = Halves{h.right ^ RoundFunction(key, r, h.left), h.left};
  return Join(h, 7);
}

Uuid Show(const Uuid& id, const KeySpec& key) {
  if (id.version() != 7 || !id.rfc_variant()) [[unlikely]] {
    throw Error(ErrorKind::kBadArgument,
                "uuid \"" + ToString(id) + "\" is version " + std::to_string(id.version()) +
                    (id.rfc_variant() ? "" : " of a non-RFC variant") + ", not a UUIDv7",
                "A façade hides the time of a UUIDv7 (version 7, RFC 9562 variant); a UUID of another version "
                "holds no time to hide.",
                id.version() == 4 && id.rfc_variant() ? "A UUID of version 4 may be a façade already: "
                                                        "idgen.private_uuid() reads one."
                                                      : "Show a random UUID as it is.");
  }
  if (!Plausible(id)) [[unlikely]] {
    throw Error(ErrorKind::kDatetimeOutOfRange, "UUIDv7 \"" + ToString(id) + "\" is too late for a façade",
                "A façade carries the times of UUIDv7s before 2109-05-15 07:35:11.104 UTC: the bits above them tell "
                "a façade made under another key.",
                "A UUIDv7 made by a clock that is right has a façade until then: this one was made by a clock far "
                "ahead, or written by hand. Give the row an id of idgen.uuidv7(), or show this one as it is.");
  }
  return Encode(id, key);
}

Uuid Reveal(const Uuid& facade, const KeyRing& ring) {
  CheckFacade(facade);
  for (int i = 0; i < ring.count; ++i) {
    const Uuid id = Decode(facade, ring.keys[i]);
    if (Plausible(id)) return id;
  }
  ThrowUnknownKey(facade, ring.count);
}

Candidates RevealAll(const Uuid& facade, const KeyRing& ring) {
  CheckFacade(facade);
  Candidates out{};
  for (int i = 0; i < ring.count; ++i) {
    const Uuid id = Decode(facade, ring.keys[i]);
    if (Plausible(id)) out.ids[out.count++] = id;
  }
  if (out.count == 0) ThrowUnknownKey(facade, ring.count);
  return out;
}

type_id::Text ShowTypeid(std::string_view text, const KeySpec& key) {
  const type_id::Parsed parsed = type_id::ParseOrThrow(text);
  return type_id::Format(parsed.prefix, Show(parsed.id, key), parsed.encoding);
}

type_id::Text RevealTypeid(std::string_view text, std::string_view expected_prefix, const KeyRing& ring) {
  const type_id::Parsed parsed = type_id::ParseExpecting(text, expected_prefix);  // before decoding
  return type_id::Format(parsed.prefix, Reveal(parsed.id, ring), parsed.encoding);
}

// ---- the key's text ----------------------------------------------------------------------------

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// 16 hexadecimal digits: 8 bytes, read little-endian (the byte order of SipHash's key).
KeyProblem HalfKey(std::string_view digits, uint64_t& out) {
  out = 0;
  for (size_t i = 0; i < 16; i += 2) {
    const int high = HexDigit(digits[i]), low = HexDigit(digits[i + 1]);
    if (high < 0 || low < 0) return KeyProblem::kBadDigit;
    out |= static_cast<uint64_t>(high << 4 | low) << (4 * i);
  }
  return KeyProblem::kNone;
}

KeyProblem OneKey(std::string_view token, KeySpec& out) {
  out.mapping = Mapping::kUuidv47;
  // A mapping's name and a colon before the key, unless the colon is the one between the key's halves.
  const size_t colon = token.find(':');
  if (colon != std::string_view::npos && !(colon == 16 && token.size() == 33)) {
    const std::string_view name = token.substr(0, colon);
    if (name == "opaque") {
      out.mapping = Mapping::kOpaque;
    } else if (name != "uuidv47") {
      // (hexadecimal digits before the colon are a key's half of the wrong length)
      for (const char c : name) {
        if (HexDigit(c) < 0) return KeyProblem::kBadMapping;
      }
      return KeyProblem::kBadLength;
    }
    token.remove_prefix(colon + 1);
  }
  std::string_view k0, k1;
  if (token.size() == 33 && token[16] == ':') {
    k0 = token.substr(0, 16);
    k1 = token.substr(17);
  } else if (token.size() == 32) {
    k0 = token.substr(0, 16);
    k1 = token.substr(16);
  } else {
    // (a wrong length is more likely than a wrong digit: say that first)
    return KeyProblem::kBadLength;
  }
  if (HalfKey(k0, out.key.k0) != KeyProblem::kNone || HalfKey(k1, out.key.k1) != KeyProblem::kNone) {
    return KeyProblem::kBadDigit;
  }
  return KeyProblem::kNone;
}

}  // namespace

KeyParse ParseKeys(std::string_view text, KeyRing& out) noexcept {
  out = KeyRing{};
  KeyRing ring{};
  size_t at = 0;
  KeyParse result{KeyProblem::kNone, 0};
  while (true) {
    while (at < text.size() && IsSpace(text[at])) ++at;
    if (at == text.size()) break;
    size_t end = at;
    while (end < text.size() && !IsSpace(text[end])) ++end;
    if (ring.count == kMaxKeys) {
      result = KeyParse{KeyProblem::kTooManyKeys, 0};
      break;
    }
    const KeyProblem problem = OneKey(text.substr(at, end - at), ring.keys[ring.count]);
    ++ring.count;
    if (problem != KeyProblem::kNone) {
      result = KeyParse{problem, ring.count};
      break;
    }
    at = end;
  }
  if (result.problem == KeyProblem::kNone && ring.count == 0) result = KeyParse{KeyProblem::kEmpty, 0};
  if (result.problem == KeyProblem::kNone) out = ring;
  // The keys, read or half read, leave no copy behind on the stack.
  volatile uint8_t* wipe = reinterpret_cast<volatile uint8_t*>(&ring);
  for (size_t i = 0; i < sizeof ring; ++i) wipe[i] = 0;
  return result;
}

void KeyBytes(const Key& key, uint8_t (&out)[16]) noexcept {
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(key.k0 >> (8 * i));
    out[8 + i] = static_cast<uint8_t>(key.k1 >> (8 * i));
  }
}

Key KeyOfBytes(const uint8_t (&bytes)[16]) noexcept {
  Key key{0, 0};
  for (int i = 0; i < 8; ++i) {
    key.k0 |= static_cast<uint64_t>(bytes[i]) << (8 * i);
    key.k1 |= static_cast<uint64_t>(bytes[8 + i]) << (8 * i);
  }
  return key;
}

size_t WriteKeys(const KeyRing& ring, char (&out)[kMaxKeyText + 1]) noexcept {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t n = 0;
  for (int k = 0; k < ring.count && k < kMaxKeys; ++k) {
    if (k > 0) out[n++] = '\n';
    if (ring.keys[k].mapping == Mapping::kOpaque) {
      std::memcpy(out + n, "opaque:", 7);
      n += 7;
    }
    uint8_t bytes[16];
    KeyBytes(ring.keys[k].key, bytes);
    for (const uint8_t b : bytes) {
      out[n++] = kHex[b >> 4];
      out[n++] = kHex[b & 15];
    }
    volatile uint8_t* wipe = bytes;
    for (size_t i = 0; i < sizeof bytes; ++i) wipe[i] = 0;
  }
  out[n] = '\0';
  return n;
}

const char* Explain(KeyProblem problem) noexcept {
  switch (problem) {
    case KeyProblem::kNone:
      return "";
    case KeyProblem::kEmpty:
      return "It holds no key.";
    case KeyProblem::kTooManyKeys:
      return "It holds more than two keys: the key that makes façades, and at most one earlier key that still "
             "reads them.";
    case KeyProblem::kBadMapping:
      return "A key may be preceded by \"opaque:\" or \"uuidv47:\" and nothing else.";
    case KeyProblem::kBadLength:
      return "A key is 16 bytes in hexadecimal: 32 digits, or 16, a colon and 16.";
    case KeyProblem::kBadDigit:
      return "A key is written in hexadecimal digits (0-9, a-f).";
  }
  return "";
}

}  // namespace idgen::public_uuid
