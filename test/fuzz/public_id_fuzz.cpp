// Public IDs: the text form (11 base62 characters) and the permutation. Text that parses formats
// back to itself; every positive bigint hides and reveals back to itself under any key.
#include <cstring>

#include "core/error.hpp"
#include "core/public_id.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = AsText(data, size);
  try {
    const int64_t value = public_id::ParseText(text);
    FUZZ_CHECK(value >= 1 && public_id::Format(value).view() == text);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kBadText || e.kind() == ErrorKind::kNumericOutOfRange);
  }
  if (size >= 24) {
    public_id::Key key;
    uint64_t raw;
    std::memcpy(&key.k0, data, 8);
    std::memcpy(&key.k1, data + 8, 8);
    std::memcpy(&raw, data + 16, 8);
    const auto id = static_cast<int64_t>(raw & 0x7FFFFFFFFFFFFFFFULL);
    if (id >= 1) {
      const int64_t hidden = public_id::Hide(id, key);
      FUZZ_CHECK(hidden >= 1 && public_id::Reveal(hidden, key) == id);
    }
  }
  return 0;
}

}  // namespace idgen
