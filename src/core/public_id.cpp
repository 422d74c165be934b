#include "core/public_id.hpp"

#include <string>

#include "core/bytes.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/siphash.hpp"

namespace idgen::public_id {

namespace {

uint64_t Round(int round, uint64_t half, const Domain& domain, const Key& key) {
  const uint64_t mask = (uint64_t{1} << domain.half_bits) - 1;
  return SipHash24(key, (static_cast<uint64_t>(round) << 32) | half) & mask;
}

uint64_t Network(uint64_t x, const Domain& d, const Key& key) {
  const uint64_t mask = (uint64_t{1} << d.half_bits) - 1;
  uint64_t left = x >> d.half_bits, right = x & mask;
  for (int r = 0; r < kRounds; ++r) {
    const uint64_t next = left ^ Round(r, right, d, key);
    left = right;
    right = next;
  }
  return (left << d.half_bits) | right;
}

uint64_t InverseNetwork(uint64_t y, const Domain& d, const Key& key) {
  const uint64_t mask = (uint64_t{1} << d.half_bits) - 1;
  uint64_t left = y >> d.half_bits, right = y & mask;
  for (int r = kRounds; r-- > 0;) {
    const uint64_t previous = right ^ Round(r, left, d, key);
    right = left;
    left = previous;
  }
  return (left << d.half_bits) | right;
}

[[noreturn]] void ThrowNotPositive(int64_t value, const char* what) {
  throw Error(ErrorKind::kNumericOutOfRange, std::string(what) + " " + std::to_string(value) + " is out of range",
              "Public IDs map the positive bigints, 1 to 9223372036854775807, onto themselves.");
}

}  // namespace

uint64_t SipHash24(const Key& key, uint64_t message) { return siphash::Hash8(key, message); }

uint64_t Permute(uint64_t x, const Domain& domain, const Key& key) {
  do {
    x = Network(x, domain, key);
  } while (x >= domain.size);
  return x;
}

uint64_t Unpermute(uint64_t y, const Domain& domain, const Key& key) {
  do {
    y = InverseNetwork(y, domain, key);
  } while (y >= domain.size);
  return y;
}

int64_t Hide(int64_t id, const Key& key) {
  if (id < 1) ThrowNotPositive(id, "id");
  return static_cast<int64_t>(Permute(static_cast<uint64_t>(id - 1), kBigint, key)) + 1;
}

int64_t Reveal(int64_t public_id, const Key& key) {
  if (public_id < 1) ThrowNotPositive(public_id, "public id");
  return static_cast<int64_t>(Unpermute(static_cast<uint64_t>(public_id - 1), kBigint, key)) + 1;
}

Text Format(int64_t public_id) {
  if (public_id < 1) ThrowNotPositive(public_id, "public id");
  uint8_t bytes[8];
  StoreBigEndian(static_cast<uint64_t>(public_id), bytes);
  Text text;
  text.size = kTextWidth;
  codec::Encode(bytes, codec::Base::k62, text.data);
  return text;
}

int64_t ParseText(std::string_view text) {
  if (text.size() != kTextWidth) {
    throw Error(
        ErrorKind::kBadText, "invalid public id text " + Quote(text),
        "A public id text is 11 base62 characters (0-9, A-Z, a-z); it has " + std::to_string(text.size()) + ".");
  }
  const int64_t value = codec::DecodeBigint(text, codec::Base::k62);
  if (value < 1) ThrowNotPositive(value, "public id");
  return value;
}

}  // namespace idgen::public_id
