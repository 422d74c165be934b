// Identity parts: the registry text and the copy's two words. Text that parses formats back to text
// that parses to the same parts; a shard list that parses holds sorted, disjoint ranges below
// 8192; and the copy's words decode to a superset of what was encoded: every identity whose part
// meets the parts encoded meets the parts decoded (a copy never forgets a part it held).
#include <cstring>

#include "core/identity.hpp"
#include "fuzz.hpp"

namespace idgen {

namespace {

// Parts drawn from the bytes: up to four node ranges, digits, up to four shard ranges.
identity::Parts PartsOf(const uint8_t* data, size_t size) {
  identity::Parts parts = identity::NoParts();
  size_t at = 0;
  const auto next = [&]() -> uint32_t {
    const uint32_t v = at + 1 < size ? static_cast<uint32_t>(data[at] | data[at + 1] << 8) : 0;
    at += 2;
    return v;
  };
  for (int i = 0; i < 4; ++i) {
    const uint32_t lo = next(), hi = lo + next() % 64;
    if (hi < identity::kNodes) (void)parts.nodes.Add(lo, hi);
  }
  parts.digits = static_cast<uint16_t>(next() & 0x3FF);
  for (int i = 0; i < 4; ++i) {
    const uint32_t lo = next() % identity::kShards, hi = lo + next() % 512;
    if (hi < identity::kShards) (void)parts.shards.Add(lo, hi);
  }
  return parts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = AsText(data, size);
  if (const std::optional<identity::Parts> parsed = identity::Parse(text)) {
    char out[1024];
    const size_t n = identity::Format(*parsed, out, sizeof out);
    if (n != 0) {
      const std::optional<identity::Parts> again = identity::Parse(std::string_view(out, n));
      FUZZ_CHECK(again.has_value() && *again == *parsed);
    }
  }
  identity::ShardsProblem problem = identity::ShardsProblem::kNone;
  if (const std::optional<identity::Ranges> shards = identity::ParseShards(text, &problem)) {
    FUZZ_CHECK(shards->count <= identity::kMaxRanges);
    for (int i = 0; i < shards->count; ++i) {
      FUZZ_CHECK(shards->lo[i] <= shards->hi[i] && shards->hi[i] < identity::kShards);
      if (i > 0) FUZZ_CHECK(shards->lo[i] > shards->hi[i - 1] + 1);
    }
  }
  const identity::Parts parts = PartsOf(data, size);
  const identity::Parts decoded = identity::DecodeCopy(identity::EncodeCopy(parts));
  for (size_t i = 0; i + 3 < size; i += 4) {
    identity::Identity id;
    id.node = static_cast<int32_t>((data[i] | data[i + 1] << 8) % identity::kNodes);
    id.digit = static_cast<uint8_t>(data[i + 2] % identity::kDigits);
    const uint32_t shard = static_cast<uint32_t>(data[i + 3] << 5) % identity::kShards;
    (void)id.shards.Add(shard, shard);
    for (const identity::Part part : {identity::Part::kNode, identity::Part::kDigit, identity::Part::kShards}) {
      if (identity::Meets(parts, id, part)) FUZZ_CHECK(identity::Meets(decoded, id, part));
    }
  }
  return 0;
}

}  // namespace idgen
