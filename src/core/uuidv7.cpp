#include "core/uuidv7.hpp"

#include <string>

#include "core/error.hpp"

namespace idgen::uuidv7 {

namespace {

constexpr double kTickUs = 1000.0 / (1 << kFractionBits);
constexpr Policy kPolicy{0, false, kAnyRegression, kTickUs};

[[noreturn]] void ThrowOutOfRange() {
  throw Error(ErrorKind::kDatetimeOutOfRange, "timestamp out of range for UUIDv7",
              "A UUIDv7 holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.");
}

uint64_t TicksAtUs(int64_t unix_us) {
  if (unix_us < 0 || unix_us / 1000 > kMaxMs) ThrowOutOfRange();
  return Ticks(unix_us / 1000, unix_us % 1000 * 1000);
}

}  // namespace

Uuid Compose(uint64_t ticks, uint64_t random) {
  const uint64_t ms = ticks >> kFractionBits;
  const uint64_t fraction = ticks & ((1u << kFractionBits) - 1);
  Uuid id;
  for (int i = 0; i < 6; ++i) id.bytes[i] = static_cast<uint8_t>(ms >> (40 - 8 * i));
  id.bytes[6] = static_cast<uint8_t>(0x70 | (fraction >> 8));
  id.bytes[7] = static_cast<uint8_t>(fraction);
  id.bytes[8] = static_cast<uint8_t>(0x80 | ((random >> 56) & 0x3F));
  for (int i = 9; i < 16; ++i) id.bytes[i] = static_cast<uint8_t>(random >> (8 * (15 - i)));
  return id;
}

Uuid Next(Slot& slot, Stats& stats, Clock& clock, RandomPool& pool, long owner) {
  const Step step = Advance(slot, stats, kPolicy, [&clock] {
    const int64_t ns = clock.NowNs();
    if (ns < 0) ThrowOutOfRange();
    return Ticks(ns / 1000000, ns % 1000000);
  });
  if ((step.word >> kFractionBits) > static_cast<uint64_t>(kMaxMs)) ThrowOutOfRange();
  return Compose(step.word, pool.TakeU64(owner));
}

Uuid At(int64_t unix_us, RandomPool& pool, long owner) {
  return Compose(TicksAtUs(unix_us), pool.TakeU64(owner));
}

Uuid MinAt(int64_t unix_us) { return Compose(TicksAtUs(unix_us), 0); }

int64_t TimeUs(const Uuid& id) {
  if (id.version() != 7 || !id.rfc_variant()) {
    throw Error(ErrorKind::kBadArgument,
                "uuid \"" + ToString(id) + "\" is version " + std::to_string(id.version()) +
                    (id.rfc_variant() ? "" : " of a non-RFC variant") + ", not a UUIDv7",
                "Only a version 7 UUID of the RFC 9562 variant holds a time.");
  }
  int64_t ms = 0;
  for (int i = 0; i < 6; ++i) ms = (ms << 8) | id.bytes[i];
  const int64_t fraction = ((id.bytes[6] & 0x0F) << 8) | id.bytes[7];
  return ms * 1000 + (fraction * 1000 + (1 << (kFractionBits - 1))) / (1 << kFractionBits);
}

}  // namespace idgen::uuidv7
