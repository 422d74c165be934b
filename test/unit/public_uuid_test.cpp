#include "core/public_uuid.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/uuidv7.hpp"
#include "fakes.hpp"

namespace idgen::public_uuid {
namespace {

using testing::KindOf;
using testing::UuidFromText;

// The key of uuidv47's own tests and of its ports' vectors: k0 = 0x0123456789abcdef,
// k1 = 0xfedcba9876543210 (as numbers; written as the key's bytes below).
constexpr Key kPeerKey{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
constexpr KeySpec kPeer{kPeerKey, Mapping::kUuidv47};
// SipHash's reference key, the bytes 00 01 .. 0f.
constexpr Key kReferenceKey{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};

KeyRing Ring(std::initializer_list<KeySpec> keys) {
  KeyRing ring{};
  for (const KeySpec& k : keys) ring.keys[ring.count++] = k;
  return ring;
}

// A UUIDv7 of these fields.
Uuid V7(uint64_t ms, uint64_t rand_a, uint64_t rand_b) {
  Uuid id;
  const uint64_t hi = (ms << 16) | 0x7000 | (rand_a & 0xFFF);
  const uint64_t lo = (uint64_t{1} << 63) | (rand_b & ((uint64_t{1} << 62) - 1));
  StoreBigEndian64(hi, id.bytes.data());
  StoreBigEndian64(lo, id.bytes.data() + 8);
  return id;
}

uint64_t Ms(const Uuid& id) { return LoadBigEndian(std::span(id.bytes).first(6)); }

// ---- SipHash-2-4 ---------------------------------------------------------------------------------

// The 64 vectors of SipHash's reference implementation (vectors.h): the key 00 .. 0f, the message
// 00 01 .. (n - 1) for n = 0 .. 63, the output read little-endian.
constexpr uint64_t kSipHashVectors[64] = {
    0x726fdb47dd0e0e31ULL, 0x74f839c593dc67fdULL, 0x0d6c8009d9a94f5aULL, 0x85676696d7fb7e2dULL, 0xcf2794e0277187b7ULL,
    0x18765564cd99a68dULL, 0xcbc9466e58fee3ceULL, 0xab0200f58b01d137ULL, 0x93f5f5799a932462ULL, 0x9e0082df0ba9e4b0ULL,
    0x7a5dbbc594ddb9f3ULL, 0xf4b32f46226bada7ULL, 0x751e8fbc860ee5fbULL, 0x14ea5627c0843d90ULL, 0xf723ca908e7af2eeULL,
    0xa129ca6149be45e5ULL, 0x3f2acc7f57c29bdbULL, 0x699ae9f52cbe4794ULL, 0x4bc1b3f0968dd39cULL, 0xbb6dc91da77961bdULL,
    0xbed65cf21aa2ee98ULL, 0xd0f2cbb02e3b67c7ULL, 0x93536795e3a33e88ULL, 0xa80c038ccd5ccec8ULL, 0xb8ad50c6f649af94ULL,
    0xbce192de8a85b8eaULL, 0x17d835b85bbb15f3ULL, 0x2f2e6163076bcfadULL, 0xde4daaaca71dc9a5ULL, 0xa6a2506687956571ULL,
    0xad87a3535c49ef28ULL, 0x32d892fad841c342ULL, 0x7127512f72f27cceULL, 0xa7f32346f95978e3ULL, 0x12e0b01abb051238ULL,
    0x15e034d40fa197aeULL, 0x314dffbe0815a3b4ULL, 0x027990f029623981ULL, 0xcadcd4e59ef40c4dULL, 0x9abfd8766a33735cULL,
    0x0e3ea96b5304a7d0ULL, 0xad0c42d6fc585992ULL, 0x187306c89bc215a9ULL, 0xd4a60abcf3792b95ULL, 0xf935451de4f21df2ULL,
    0xa9538f0419755787ULL, 0xdb9acddff56ca510ULL, 0xd06c98cd5c0975ebULL, 0xe612a3cb9ecba951ULL, 0xc766e62cfcadaf96ULL,
    0xee64435a9752fe72ULL, 0xa192d576b245165aULL, 0x0a8787bf8ecb74b2ULL, 0x81b3e73d20b49b6fULL, 0x7fa8220ba3b2eceaULL,
    0x245731c13ca42499ULL, 0xb78dbfaf3a8d83bdULL, 0xea1ad565322a1a0bULL, 0x60e61c23a3795013ULL, 0x6606d7e446282b93ULL,
    0x6ca4ecb15c5f91e1ULL, 0x9f626da15c9625f3ULL, 0xe51b38608ef25f57ULL, 0x958a324ceb064572ULL,
};

TEST(PublicUuid, SipHashReferenceVectors) {
  uint8_t message[64];
  for (int i = 0; i < 64; ++i) message[i] = static_cast<uint8_t>(i);
  for (size_t n = 0; n < 64; ++n) {
    EXPECT_EQ(siphash::Hash(kReferenceKey, std::span<const uint8_t>(message, n)), kSipHashVectors[n]) << n;
  }
  // The short forms the mappings use: 8 bytes (the opaque rounds, public IDs) and 10 (uuidv47's mask).
  EXPECT_EQ(siphash::Hash8(kReferenceKey, 0x0706050403020100ULL), kSipHashVectors[8]);
  EXPECT_EQ(siphash::Hash10(kReferenceKey, 0x0706050403020100ULL, 0x0908), kSipHashVectors[10]);
}

TEST(PublicUuid, SipHashShortFormsAgreeWithTheGeneralOne) {
  std::mt19937_64 random(47);
  for (int i = 0; i < 10000; ++i) {
    const Key key{random(), random()};
    const uint64_t m = random();
    const uint16_t tail = static_cast<uint16_t>(random());
    uint8_t bytes[10];
    for (int b = 0; b < 8; ++b) bytes[b] = static_cast<uint8_t>(m >> (8 * b));
    bytes[8] = static_cast<uint8_t>(tail);
    bytes[9] = static_cast<uint8_t>(tail >> 8);
    ASSERT_EQ(siphash::Hash8(key, m), siphash::Hash(key, std::span<const uint8_t>(bytes, 8)));
    ASSERT_EQ(siphash::Hash10(key, m, tail), siphash::Hash(key, std::span<const uint8_t>(bytes, 10)));
  }
}

// ---- uuidv47's mapping -------------------------------------------------------------------------

// uuidv47's vectors: its README's v7, the all-zero v7, and the 16 UUIDs of test_encode_decode_roundtrip
// in its tests.c (the first three are the Go port's published vectors, n2p5/uuid47), with the façades
// that its reference header computes.
struct Vector {
  const char* v7;
  const char* facade;
};
constexpr Vector kPeerVectors[] = {
    {"018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "2463c780-7fca-4def-8c3f-7b1a2c4d5e6f"},
    {"00000000-0000-7000-8000-000000000000", "22d97126-9609-4000-8000-000000000000"},
    {"00000000-007b-7aaa-8123-456789abcdef", "b108050e-46b6-4aaa-8123-456789abcdef"},
    {"00000010-007b-7aad-9032-547698badcfe", "bc75bd50-97ef-4aad-9032-547698badcfe"},
    {"00000020-007b-7aa4-a301-6745ab89efcd", "a3e09c87-bf85-4aa4-a301-6745ab89efcd"},
    {"00000030-007b-7abf-b210-7654ba98fedc", "4a643a79-6975-4abf-b210-7654ba98fedc"},
    {"00000040-007b-7ab6-8567-0123cdef89ab", "ba071f02-23bd-4ab6-8567-0123cdef89ab"},
    {"00000050-007b-7a89-9476-1032dcfe98ba", "b215242c-6fb1-4a89-9476-1032dcfe98ba"},
    {"00000060-007b-7a80-a745-2301efcdab89", "e8e788cf-ded6-4a80-a745-2301efcdab89"},
    {"00000070-007b-7a9b-b654-3210fedcba98", "3d4b88de-ece3-4a9b-b654-3210fedcba98"},
    {"00000080-007b-7a92-89ab-cdef01234567", "9d9bd354-51fe-4a92-89ab-cdef01234567"},
    {"00000090-007b-7a95-98ba-dcfe10325476", "f261fb3c-8b2e-4a95-98ba-dcfe10325476"},
    {"000000a0-007b-7aec-ab89-efcd23016745", "31c34e74-1771-4aec-ab89-efcd23016745"},
    {"000000b0-007b-7ae7-ba98-fedc32107654", "928f4297-9c9b-4ae7-ba98-fedc32107654"},
    {"000000c0-007b-7afe-8def-89ab45670123", "b8c1b1f0-8831-4afe-8def-89ab45670123"},
    {"000000d0-007b-7af1-9cfe-98ba54761032", "3994c161-2a72-4af1-9cfe-98ba54761032"},
    {"000000e0-007b-7ac8-afcd-ab8967452301", "fae6e510-f8b5-4ac8-afcd-ab8967452301"},
    {"000000f0-007b-7ac3-bedc-ba9876543210", "ce171cbd-d0f1-4ac3-bedc-ba9876543210"},
};

TEST(PublicUuid, Uuidv47Vectors) {
  const KeyRing ring = Ring({kPeer});
  for (const Vector& v : kPeerVectors) {
    const Uuid v7 = UuidFromText(v.v7), facade = UuidFromText(v.facade);
    EXPECT_EQ(ToString(Uuidv47Encode(v7, kPeerKey)), v.facade);
    EXPECT_EQ(ToString(Uuidv47Decode(facade, kPeerKey)), v.v7);
    EXPECT_EQ(ToString(Show(v7, kPeer)), v.facade);
    EXPECT_EQ(ToString(Reveal(facade, ring)), v.v7);
  }
}

TEST(PublicUuid, Uuidv47VectorsUnderTheReferenceKeyWrittenAsText) {
  // The same reference header under the key 00 01 .. 0f, given as idgen.public_uuid_key takes it.
  KeyRing ring;
  ASSERT_EQ(ParseKeys("000102030405060708090a0b0c0d0e0f", ring).problem, KeyProblem::kNone);
  ASSERT_EQ(ring.keys[0].key.k0, kReferenceKey.k0);
  ASSERT_EQ(ring.keys[0].key.k1, kReferenceKey.k1);
  const Vector vectors[] = {{"018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "39971462-0f9f-4def-8c3f-7b1a2c4d5e6f"},
                            {"00000000-0000-7000-8000-000000000000", "d2d1776f-12b1-4000-8000-000000000000"}};
  for (const Vector& v : vectors) {
    EXPECT_EQ(ToString(Show(UuidFromText(v.v7), ring.keys[0])), v.facade);
    EXPECT_EQ(ToString(Reveal(UuidFromText(v.facade), ring)), v.v7);
  }
  // Every bit that the mapping leaves alone is left alone: the reference's all-ones v7.
  EXPECT_EQ(ToString(Uuidv47Encode(UuidFromText("ffffffff-ffff-7fff-bfff-ffffffffffff"), kReferenceKey)),
            "4b879cd9-4b5a-4fff-bfff-ffffffffffff");
}

TEST(PublicUuid, Uuidv47KeepsEveryBitButTheTimeAndTheVersion) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 100000; ++i) {
    const Uuid v7 = V7(random() >> 22, random(), random());
    const Uuid f = Uuidv47Encode(v7, kPeerKey);
    ASSERT_EQ(f.version(), 4);
    ASSERT_TRUE(f.rfc_variant());
    ASSERT_EQ(f.bytes[6] & 0x0F, v7.bytes[6] & 0x0F);
    for (int b = 7; b < 16; ++b) ASSERT_EQ(f.bytes[b], v7.bytes[b]);
    ASSERT_EQ(Uuidv47Decode(f, kPeerKey), v7);
  }
}

TEST(PublicUuid, Uuidv47MaskDependsOnTheRandomBitsAlone) {
  // What makes the façade of a chosen UUID a key to every façade with the same random bits (so
  // idgen.public_uuid is a capability, revoked from PUBLIC): two UUIDv7s that differ in time only
  // have façades whose times differ by the same XOR.
  const Uuid a = V7(0x0123456789AB, 0x123, 0x0456789ABCDEF012ULL), b = V7(0, 0x123, 0x0456789ABCDEF012ULL);
  EXPECT_EQ(Ms(Uuidv47Encode(a, kPeerKey)) ^ Ms(Uuidv47Encode(b, kPeerKey)), Ms(a));
  // The opaque mapping has no such relation.
  EXPECT_NE(Ms(OpaqueEncode(a, kPeerKey)) ^ Ms(OpaqueEncode(b, kPeerKey)), Ms(a));
}

// ---- the opaque mapping --------------------------------------------------------------------------

TEST(PublicUuid, OpaqueRoundTripsAndHidesEveryField) {
  std::mt19937_64 random(11);
  int same_fraction = 0, same_counter = 0, same_low = 0;
  constexpr int kValues = 200000;
  for (int i = 0; i < kValues; ++i) {
    const Uuid v7 = V7(random() >> 22, random(), random());
    const Uuid f = OpaqueEncode(v7, kPeerKey);
    ASSERT_EQ(f.version(), 4);
    ASSERT_TRUE(f.rfc_variant());
    ASSERT_EQ(OpaqueDecode(f, kPeerKey), v7);
    same_fraction += ((f.bytes[6] & 0x0F) == (v7.bytes[6] & 0x0F) && f.bytes[7] == v7.bytes[7]);
    same_counter += ((f.bytes[8] & 0x3C) == (v7.bytes[8] & 0x3C));
    same_low += (f.bytes[15] == v7.bytes[15]);
  }
  // As for unrelated values: 1 in 4096, 1 in 16, 1 in 256 (with room for chance: 10 standard deviations).
  EXPECT_LT(same_fraction, kValues / 4096 + 10 * 7);
  EXPECT_NEAR(same_counter, kValues / 16, 10 * 108);
  EXPECT_NEAR(same_low, kValues / 256, 10 * 28);
}

TEST(PublicUuid, OpaqueKnownAnswers) {
  // Frozen: the SQL edition and any other implementation must give these.
  EXPECT_EQ(ToString(OpaqueEncode(UuidFromText("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f"), kPeerKey)),
            "1ff9c1d1-8e7c-4ac5-a6de-05a0713f7f16");
  EXPECT_EQ(ToString(OpaqueEncode(UuidFromText("00000000-0000-7000-8000-000000000000"), kReferenceKey)),
            "f5c7cc53-8c55-4028-8c14-8be10aff10c8");
}

TEST(PublicUuid, EveryFractionRoundTripsUnderBothMappings) {
  // All of rand_a (idgen's sub-millisecond fraction), and all of rand_b's counter, at once.
  for (uint64_t fraction = 0; fraction < 4096; ++fraction) {
    for (uint64_t counter = 0; counter < 16; ++counter) {
      const Uuid v7 = V7(1767225600000 + fraction, fraction, (counter << 58) | (fraction * 0x9E3779B97F4A7ULL));
      for (const Mapping m : {Mapping::kUuidv47, Mapping::kOpaque}) {
        const KeySpec key{kPeerKey, m};
        ASSERT_EQ(Reveal(Show(v7, key), Ring({key})), v7);
      }
    }
  }
}

// ---- which key -----------------------------------------------------------------------------------

TEST(PublicUuid, ShowRefusesWhatIsNoUuidv7OrTooLate) {
  EXPECT_EQ(KindOf([] { Show(UuidFromText("018f2d9f-9a2a-4def-8c3f-7b1a2c4d5e6f"), kPeer); }), ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([] { Show(UuidFromText("018f2d9f-9a2a-7def-cc3f-7b1a2c4d5e6f"), kPeer); }), ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([] { Show(UuidFromText("00000000-0000-0000-0000-000000000000"), kPeer); }), ErrorKind::kBadArgument);
  // The last millisecond a façade carries, 2^42 - 1 (2109-05-15 07:35:11.103 UTC), and the next one.
  const uint64_t last = (uint64_t{1} << kTimeBits) - 1;
  for (const Mapping m : {Mapping::kUuidv47, Mapping::kOpaque}) {
    const KeySpec key{kPeerKey, m};
    EXPECT_EQ(Reveal(Show(V7(last, 0xFFF, ~uint64_t{0}), key), Ring({key})), V7(last, 0xFFF, ~uint64_t{0}));
    EXPECT_EQ(KindOf([&] { Show(V7(last + 1, 0, 0), key); }), ErrorKind::kDatetimeOutOfRange);
    try {
      Show(V7(last + 1, 0, 0), key);
    } catch (const Error& e) {
      EXPECT_NE(e.hint().find("idgen.uuidv7()"), std::string::npos) << e.hint();  // says what to do
    }
    EXPECT_EQ(KindOf([&] { Show(V7((uint64_t{1} << 48) - 1, 0, 0), key); }), ErrorKind::kDatetimeOutOfRange);
  }
}

TEST(PublicUuid, RevealRefusesWhatIsNoFacade) {
  const KeyRing ring = Ring({kPeer});
  EXPECT_EQ(KindOf([&] { Reveal(UuidFromText("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f"), ring); }),
            ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([&] { Reveal(UuidFromText("2463c780-7fca-4def-cc3f-7b1a2c4d5e6f"), ring); }),
            ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([&] { RevealAll(UuidFromText("ffffffff-ffff-ffff-ffff-ffffffffffff"), ring); }),
            ErrorKind::kBadArgument);
}

TEST(PublicUuid, AnotherKeyIsRefused63TimesIn64) {
  for (const Mapping m : {Mapping::kUuidv47, Mapping::kOpaque}) {
    const KeySpec made{kPeerKey, m}, other{Key{1, 2}, m};
    const KeyRing ring = Ring({other});
    std::mt19937_64 random(3);
    int accepted = 0;
    constexpr int kValues = 100000;
    for (int i = 0; i < kValues; ++i) {
      const Uuid f = Show(V7(1767225600000 + (random() >> 30), random(), random()), made);
      try {
        const Uuid wrong = Reveal(f, ring);
        ++accepted;
        ASSERT_TRUE(Plausible(wrong));
      } catch (const Error& e) {
        ASSERT_EQ(e.kind(), ErrorKind::kBadArgument);
      }
    }
    // 1 in 64: 1,562 of 100,000, give or take 39 (10 standard deviations of room).
    EXPECT_NEAR(accepted, kValues / 64, 390) << static_cast<int>(m);
  }
}

TEST(PublicUuid, ARefusalTellsNothingOfTheTimeInside) {
  // Whoever may send altered façades and see which are refused: with uuidv47's mapping, flipping
  // bit k of a façade's time field flips bit k of the time read, and the façade is refused exactly
  // when k is one of the 6 check bits, for every façade alike: the answers tell nothing of the time.
  const KeyRing ring = Ring({kPeer});
  std::mt19937_64 random(9);
  for (int i = 0; i < 2000; ++i) {
    const Uuid v7 = V7(random() >> 22, random(), random());
    const Uuid facade = Show(v7, kPeer);
    for (unsigned k = 0; k < 48; ++k) {
      Uuid altered = facade;
      altered.bytes[5 - k / 8] ^= static_cast<uint8_t>(1u << (k % 8));
      bool refused = false;
      try {
        const Uuid read = Reveal(altered, ring);
        ASSERT_EQ(Ms(read), Ms(v7) ^ (uint64_t{1} << k));
      } catch (const Error&) {
        refused = true;
      }
      ASSERT_EQ(refused, k >= kTimeBits) << i << " " << k;
    }
  }
}

TEST(PublicUuid, WhileKeysRotateBothAreRead) {
  const KeySpec current{Key{0x1111, 0x2222}, Mapping::kUuidv47}, previous{kPeerKey, Mapping::kUuidv47};
  const KeyRing rotating = Ring({current, previous}), after = Ring({current});
  std::mt19937_64 random(5);
  int both = 0, wrong_under_current = 0;
  for (int i = 0; i < 20000; ++i) {
    const Uuid v7 = V7(1767225600000 + (random() >> 30), random(), random());
    const Uuid old_facade = Show(v7, previous), new_facade = Show(v7, current);
    ASSERT_NE(old_facade, new_facade);
    ASSERT_EQ(Reveal(new_facade, rotating), v7);  // the current key first: always right
    const Candidates c = RevealAll(old_facade, rotating);
    ASSERT_GE(c.count, 1);
    ASSERT_EQ(c.ids[c.count - 1], v7);  // the previous key's reading is always among them
    if (c.count == 2) {
      ++both;
      // Where the current key reads it too, Reveal takes that reading: another time, the same random bits.
      const Uuid taken = Reveal(old_facade, rotating);
      ASSERT_EQ(taken, c.ids[0]);
      ASSERT_NE(taken, v7);
      ++wrong_under_current;
    } else {
      ASSERT_EQ(Reveal(old_facade, rotating), v7);
    }
    const Candidates n = RevealAll(new_facade, rotating);
    ASSERT_EQ(n.ids[0], v7);
  }
  EXPECT_NEAR(both, 20000 / 64, 10 * 18);
  EXPECT_EQ(both, wrong_under_current);
  // What is not a façade of either key (a random UUIDv4) reads as one 1 time in 64 per key: 127 in
  // 4096, about 1 in 32, under two; and the refusal says so.
  int accepted = 0;
  constexpr int kValues = 200000;
  std::string detail;
  for (int i = 0; i < kValues; ++i) {
    Uuid v4;
    for (auto& b : v4.bytes) b = static_cast<uint8_t>(random());
    v4.bytes[6] = static_cast<uint8_t>((v4.bytes[6] & 0x0F) | 0x40);
    v4.bytes[8] = static_cast<uint8_t>((v4.bytes[8] & 0x3F) | 0x80);
    try {
      Reveal(v4, rotating);
      ++accepted;
    } catch (const Error& e) {
      detail = e.detail();
    }
  }
  // 6,201 of 200,000, give or take 78 (10 standard deviations of room).
  EXPECT_NEAR(accepted, kValues * 127 / 4096, 780);
  EXPECT_NE(detail.find("refused about 31 times in 32"), std::string::npos) << detail;
  // Once the previous key is gone, its façades are refused (but 1 in 64).
  EXPECT_EQ(KindOf([&] { Reveal(Show(V7(1767225600000, 1, 1), previous), after); }), ErrorKind::kBadArgument);
}

// ---- typeids -------------------------------------------------------------------------------------

TEST(PublicUuid, TypeidsKeepTheirPrefixAndEncoding) {
  const KeyRing ring = Ring({kPeer});
  const Uuid v7 = UuidFromText("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f");
  const Uuid facade = UuidFromText("2463c780-7fca-4def-8c3f-7b1a2c4d5e6f");
  for (const auto encoding : {type_id::Encoding::kBase32, type_id::Encoding::kBase36}) {
    const std::string text(type_id::Format("user", v7, encoding).view());
    const std::string shown(ShowTypeid(text, kPeer).view());
    EXPECT_EQ(shown, type_id::Format("user", facade, encoding).view());
    EXPECT_EQ(RevealTypeid(shown, "user", ring).view(), text);
  }
  // The spec's empty prefix: a bare base32 body.
  const std::string bare(type_id::Format("", v7, type_id::Encoding::kBase32).view());
  EXPECT_EQ(ShowTypeid(bare, kPeer).view(), type_id::Format("", facade, type_id::Encoding::kBase32).view());
  EXPECT_EQ(KindOf([] { ShowTypeid("user_", kPeer); }), ErrorKind::kBadText);
  EXPECT_EQ(KindOf([] { ShowTypeid("User_01h455vb4pex5vsknk084sn02q", kPeer); }), ErrorKind::kBadText);
  EXPECT_EQ(KindOf([&] { RevealTypeid("user_01h455vb4pex5vsknk084sn0", "user", ring); }), ErrorKind::kBadText);
  // A typeid whose body is no UUIDv7 has no façade; one that is no façade is not revealed.
  EXPECT_EQ(KindOf([] {
              ShowTypeid(type_id::Format("user", UuidFromText("2463c780-7fca-4def-8c3f-7b1a2c4d5e6f"),
                                         type_id::Encoding::kBase32)
                             .view(),
                         kPeer);
            }),
            ErrorKind::kBadArgument);
  EXPECT_EQ(KindOf([&] { RevealTypeid(type_id::Format("user", v7, type_id::Encoding::kBase32).view(), "user", ring); }),
            ErrorKind::kBadArgument);
}

// A façade whose prefix is not the one expected is refused before it is decoded: the error quotes
// the façade, never its reading (the time of a row), whatever the prefix sent.
TEST(PublicUuid, ATypeidOfAnotherPrefixIsRefusedBeforeItIsRead) {
  const KeyRing ring = Ring({kPeer});
  const Uuid v7 = UuidFromText("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f");
  const Uuid facade = UuidFromText("2463c780-7fca-4def-8c3f-7b1a2c4d5e6f");
  for (const auto encoding : {type_id::Encoding::kBase32, type_id::Encoding::kBase36}) {
    const std::string shown(type_id::Format("org", facade, encoding).view());
    const std::string read(type_id::Format("org", v7, encoding).view());
    const std::string body = read.substr(4);
    EXPECT_EQ(RevealTypeid(shown, "org", ring).view(), read);
    for (const char* prefix : {"xyz", "orgs", ""}) {
      std::string swapped = std::string(prefix) + (prefix[0] != '\0' ? "_" : "") + shown.substr(4);
      if (prefix[0] == '\0' && encoding == type_id::Encoding::kBase36) continue;  // (no bare base36)
      for (const char* expected : {"org", "xyz"}) {
        if (std::string_view(expected) == prefix) continue;
        try {
          RevealTypeid(swapped, expected, ring);
          ADD_FAILURE() << swapped << " read as a " << expected;
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::kBadText);
          const std::string all = e.what() + std::string(" ") + e.detail() + " " + e.hint();
          EXPECT_NE(all.find(shown.substr(4)), std::string::npos) << all;  // the façade, which the sender has
          EXPECT_EQ(all.find(body), std::string::npos) << all;             // never its reading
          EXPECT_EQ(all.find("018f2d9f"), std::string::npos) << all;
        }
      }
    }
  }
}

// ---- the key's text -----------------------------------------------------------------------------

TEST(PublicUuid, KeyTextIsTheKeysBytes) {
  KeyRing ring;
  // uuidv47's PostgreSQL extension writes the key {0x0123456789abcdef, 0xfedcba9876543210} so.
  for (const char* text : {"efcdab8967452301:1032547698badcfe", "efcdab89674523011032547698badcfe",
                           "EFCDAB8967452301:1032547698BADCFE", "  uuidv47:efcdab8967452301:1032547698badcfe\n"}) {
    ASSERT_EQ(ParseKeys(text, ring).problem, KeyProblem::kNone) << text;
    ASSERT_EQ(ring.count, 1);
    EXPECT_EQ(ring.keys[0].key.k0, kPeerKey.k0) << text;
    EXPECT_EQ(ring.keys[0].key.k1, kPeerKey.k1) << text;
    EXPECT_EQ(ring.keys[0].mapping, Mapping::kUuidv47);
  }
  // A hexadecimal half made of letters alone is still a key.
  ASSERT_EQ(ParseKeys("abcdefabcdefabcd:abcdefabcdefabcd", ring).problem, KeyProblem::kNone);
  EXPECT_EQ(ring.keys[0].key.k0, 0xcdabefcdabefcdabULL);
  // Two keys, the first the one that makes façades; a file's lines, the opaque mapping.
  ASSERT_EQ(ParseKeys("opaque:000102030405060708090a0b0c0d0e0f\r\nefcdab8967452301:1032547698badcfe\n", ring).problem,
            KeyProblem::kNone);
  ASSERT_EQ(ring.count, 2);
  EXPECT_EQ(ring.keys[0].mapping, Mapping::kOpaque);
  EXPECT_EQ(ring.keys[0].key.k0, kReferenceKey.k0);
  EXPECT_EQ(ring.keys[1].mapping, Mapping::kUuidv47);
  EXPECT_EQ(ring.keys[1].key.k1, kPeerKey.k1);
}

TEST(PublicUuid, KeyTextWrittenReadsBack) {
  KeyRing ring;
  ASSERT_EQ(
      ParseKeys("opaque:000102030405060708090A0B0C0D0E0F\n uuidv47:efcdab8967452301:1032547698badcfe", ring).problem,
      KeyProblem::kNone);
  char text[kMaxKeyText + 1];
  const size_t n = WriteKeys(ring, text);
  EXPECT_EQ(std::string(text, n), "opaque:000102030405060708090a0b0c0d0e0f\nefcdab89674523011032547698badcfe");
  uint8_t bytes[16];
  KeyBytes(kPeerKey, bytes);
  EXPECT_EQ(bytes[0], 0xef);
  EXPECT_EQ(bytes[15], 0xfe);
  EXPECT_EQ(KeyOfBytes(bytes).k0, kPeerKey.k0);
  EXPECT_EQ(KeyOfBytes(bytes).k1, kPeerKey.k1);
}

TEST(PublicUuid, KeyTextProblems) {
  struct Case {
    const char* text;
    KeyProblem problem;
    int key;
  };
  const Case cases[] = {
      {"", KeyProblem::kEmpty, 0},
      {" \n\t ", KeyProblem::kEmpty, 0},
      {"000102030405060708090a0b0c0d0e0f 000102030405060708090a0b0c0d0e0f 000102030405060708090a0b0c0d0e0f",
       KeyProblem::kTooManyKeys, 0},
      {"sealed:000102030405060708090a0b0c0d0e0f", KeyProblem::kBadMapping, 1},
      {"Opaque:000102030405060708090a0b0c0d0e0f", KeyProblem::kBadMapping, 1},
      {"000102030405060708090a0b0c0d0e0", KeyProblem::kBadLength, 1},
      {"000102030405060708090a0b0c0d0e0f0", KeyProblem::kBadLength, 1},
      {"0001020304050607:08090a0b0c0d0e0", KeyProblem::kBadLength, 1},
      {"00010203040506070:8090a0b0c0d0e0f", KeyProblem::kBadLength, 1},
      {"000102030405060708090a0b0c0d0e0f opaque:00010203", KeyProblem::kBadLength, 2},
      {"000102030405060708090a0b0c0d0e0g", KeyProblem::kBadDigit, 1},
      {"0x0102030405060708090a0b0c0d0e0f", KeyProblem::kBadDigit, 1},
      {"the public-ID key of thirty-two bytes, as text", KeyProblem::kBadLength, 1},
  };
  for (const Case& c : cases) {
    KeyRing ring{};
    ring.count = 7;
    const KeyParse parse = ParseKeys(c.text, ring);
    EXPECT_EQ(parse.problem, c.problem) << c.text;
    EXPECT_EQ(parse.key, c.key) << c.text;
    EXPECT_EQ(ring.count, 0) << c.text;  // nothing half read is kept
    EXPECT_EQ(ring.keys[0].key.k0, 0u) << c.text;
    EXPECT_NE(std::string(Explain(parse.problem)), "") << c.text;
  }
}

}  // namespace
}  // namespace idgen::public_uuid
