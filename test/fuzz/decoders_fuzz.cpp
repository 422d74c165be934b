// The numeric decoders: UUIDv7 time (16 bytes), the 64-bit layouts (8 bytes, each layout), and
// DecimalId (8 bytes). Each decodes without anything but an idgen error, to a time inside its field
// whose bound lies at or below the value, and the layouts compose back to the value.
#include <cstring>

#include "core/decimal_id.hpp"
#include "core/error.hpp"
#include "core/layout.hpp"
#include "core/uuidv7.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 16) return 0;
  Uuid uuid;
  std::memcpy(uuid.bytes.data(), data, 16);
  try {
    const int64_t us = uuidv7::TimeUs(uuid);
    FUZZ_CHECK(static_cast<uint64_t>(us / 1000) == uuidv7::TimeBits(uuid) >> uuidv7::kFractionBits);
    FUZZ_CHECK(uuidv7::MinAt(us) <= uuid);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kBadArgument);
  }
  int64_t id;
  std::memcpy(&id, data, 8);
  for (const Layout* l : {&kInstagram, &kSnowflake, &kSonyflake, &kTrace, &kJs}) {
    try {
      const layout::Parts p = layout::Decompose(*l, l->epoch_ms, id, 1767225600000);
      FUZZ_CHECK(id >= 0);
      if (!l->time_wraps) {
        const auto tick = static_cast<uint64_t>((p.unix_ms - l->epoch_ms) / l->unit_ms);
        FUZZ_CHECK(layout::Compose(*l, tick, p.node, static_cast<uint64_t>(p.seq)) == id);
        try {
          FUZZ_CHECK(layout::MinAt(*l, l->epoch_ms, p.unix_ms * 1000) <= id);
        } catch (const Error& e) {
          FUZZ_CHECK(e.kind() == ErrorKind::kDatetimeOutOfRange);  // past the sign bit or the field
        }
      }
    } catch (const Error& e) {
      FUZZ_CHECK(e.kind() == ErrorKind::kBadArgument && (id < 0 || (id >> (l->time_bits + l->time_shift())) != 0));
    }
  }
  try {
    const decimal_id::Parts p = decimal_id::Decompose(id);
    FUZZ_CHECK(decimal_id::Compose(p) == id);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kBadArgument || e.kind() == ErrorKind::kNumericOutOfRange);
  }
  return 0;
}

}  // namespace idgen
