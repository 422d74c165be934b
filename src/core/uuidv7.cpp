#include "core/uuidv7.hpp"

#include <string>

#include "core/bytes.hpp"
#include "core/error.hpp"

namespace idgen::uuidv7 {

namespace {

constexpr uint64_t kFractionMask = kStepsPerMs - 1;
constexpr uint64_t kMaxTimeBits = (static_cast<uint64_t>(kMaxMs) << kFractionBits) | kFractionMask;

[[noreturn]] void ThrowOutOfRange() {
  throw Error(ErrorKind::kDatetimeOutOfRange, "timestamp out of range for UUIDv7",
              "A UUIDv7 holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.");
}

uint64_t TimeBitsAtUs(int64_t unix_us) {
  if (unix_us < 0 || unix_us / 1000 > kMaxMs) ThrowOutOfRange();
  return Ticks(unix_us / 1000, unix_us % 1000 * 1000);
}

}  // namespace

int64_t StepStartNs(uint64_t steps) {
  return static_cast<int64_t>((steps >> kFractionBits) * 1000000 +
                              ((steps & kFractionMask) * 1000000 + kFractionMask) / kStepsPerMs);
}

Uuid Compose(uint64_t time_bits, uint64_t rand_b) {
  const uint64_t ms = time_bits >> kFractionBits;
  const uint64_t fraction = time_bits & kFractionMask;
  Uuid id;
  StoreBigEndian(ms, std::span(id.bytes).first(6));
  id.bytes[6] = static_cast<uint8_t>(0x70 | (fraction >> 8));
  id.bytes[7] = static_cast<uint8_t>(fraction);
  StoreBigEndian(rand_b, std::span(id.bytes).subspan(8));
  id.bytes[8] = static_cast<uint8_t>(0x80 | (id.bytes[8] & 0x3F));
  return id;
}

uint64_t TimeBits(const Uuid& id) {
  const uint64_t ms = LoadBigEndian(std::span(id.bytes).first(6));
  return (ms << kFractionBits) | (uint64_t{id.bytes[6] & 0x0Fu} << 8) | id.bytes[7];
}

Generated<Uuid> Next(StateWord& word, FamilyStats& stats, Clock& clock, RandomPool& pool, long owner,
                     int64_t shift_steps, int64_t max_regression_ms, uint64_t callers) {
  const AdvanceRules rules = RulesFor(max_regression_ms, callers);
  const NextWord next = Advance(word, stats, rules, [&clock] {
    const int64_t ns = clock.NowNs();
    if (ns < 0 || ns / 1000000 > kMaxMs) ThrowOutOfRange();
    return Ticks(ns / 1000000, ns % 1000000);
  });
  const uint64_t time_bits = next.word >> kCounterBits;
  if (time_bits > kMaxTimeBits) ThrowOutOfRange();
  uint64_t shifted = time_bits;
  if (shift_steps != 0) {
    const __int128 moved = static_cast<__int128>(time_bits) + shift_steps;
    if (moved < 0 || moved > static_cast<__int128>(kMaxTimeBits)) ThrowOutOfRange();
    shifted = static_cast<uint64_t>(moved);
  }
  const uint64_t counter = next.word & ((uint64_t{1} << kCounterBits) - 1);
  const uint64_t random = pool.TakeU64(owner) & ((uint64_t{1} << kRandomBits) - 1);
  return Generated<Uuid>{Compose(shifted, (counter << kRandomBits) | random), time_bits,
                         next.wait_tick == 0 ? 0 : StepStartNs(next.wait_tick)};
}

Uuid At(int64_t unix_us, RandomPool& pool, long owner) { return Compose(TimeBitsAtUs(unix_us), pool.TakeU64(owner)); }

Uuid MinAt(int64_t unix_us) { return Compose(TimeBitsAtUs(unix_us), 0); }

int64_t TimeUs(const Uuid& id) {
  if (id.version() != 7 || !id.rfc_variant()) {
    throw Error(ErrorKind::kBadArgument,
                "uuid \"" + ToString(id) + "\" is version " + std::to_string(id.version()) +
                    (id.rfc_variant() ? "" : " of a non-RFC variant") + ", not a UUIDv7",
                "Only a version 7 UUID of the RFC 9562 variant holds a time.");
  }
  const uint64_t time_bits = TimeBits(id);
  const auto ms = static_cast<int64_t>(time_bits >> kFractionBits);
  const auto fraction = static_cast<int64_t>(time_bits & kFractionMask);
  // The microsecond u has the smallest fraction floor(u * 4096 / 1000); the latest u whose smallest
  // fraction is at or below this one is floor(((fraction + 1) * 1000 - 1) / 4096), at most 999.
  return ms * 1000 + ((fraction + 1) * 1000 - 1) / static_cast<int64_t>(kStepsPerMs);
}

int64_t ShiftSteps(int64_t shift_us) {
  const __int128 steps = static_cast<__int128>(shift_us) * static_cast<__int128>(kStepsPerMs);
  const __int128 q = steps / 1000 - ((steps % 1000 != 0) && (steps < 0));
  // Beyond the 60-bit time field either way is out of range anyway; clamp so that Next refuses.
  constexpr __int128 kLimit = static_cast<__int128>(1) << 62;
  return static_cast<int64_t>(q > kLimit ? kLimit : (q < -kLimit ? -kLimit : q));
}

}  // namespace idgen::uuidv7
