// 20-digit UIDs: decimal digits (a numeric's text) and the decoder of both variants. Digits that
// parse format back to the same number; a value in range decomposes into fields that compose back
// to it, and fits a bigint exactly when the bigint form says so.
#include <algorithm>

#include "core/error.hpp"
#include "core/uid20.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = AsText(data, size);
  uid20::Value value = 0;
  if (uid20::ParseDigits(text, value) != ParseProblem::kNone) return 0;
  // The digits read are the digits written: the text without its leading zeros (never a wrap).
  std::string_view significant = text.substr(std::min(text.find_first_not_of('0'), text.size() - 1));
  FUZZ_CHECK(uid20::FormatDigits(value).view() == significant);
  uid20::Value back = 0;
  FUZZ_CHECK(uid20::ParseDigits(uid20::FormatDigits(value).view(), back) == ParseProblem::kNone && back == value);
  for (const uid20::Variant* v : {&uid20::kMillis, &uid20::kSeconds}) {
    try {
      const uid20::Parts p = uid20::Decompose(*v, uid20::kDefaultEpochMs, value);
      FUZZ_CHECK(value <= uid20::kMaxValue);
      const auto tick = static_cast<uint64_t>((p.unix_ms - uid20::kDefaultEpochMs) / v->unit_ms);
      FUZZ_CHECK(uid20::Compose(*v, tick, static_cast<uint64_t>(p.seq), p.server) == value);
      try {
        FUZZ_CHECK(static_cast<uid20::Value>(uid20::ToBigint(*v, uid20::kDefaultEpochMs, value)) == value);
      } catch (const Error& e) {
        FUZZ_CHECK(e.kind() == ErrorKind::kNumericOutOfRange && value > static_cast<uid20::Value>(INT64_MAX));
      }
    } catch (const Error& e) {
      FUZZ_CHECK(e.kind() == ErrorKind::kNumericOutOfRange && value > uid20::kMaxValue);
    }
  }
  return 0;
}

}  // namespace idgen
