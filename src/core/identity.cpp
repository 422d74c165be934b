#include "core/identity.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace idgen::identity {

// ---- Ranges -----------------------------------------------------------------------------------------

bool Ranges::Contains(uint32_t x) const {
  for (int i = 0; i < count; ++i) {
    if (x < lo[i]) return false;
    if (x <= hi[i]) return true;
  }
  return false;
}

bool Ranges::Intersects(const Ranges& other) const {
  int i = 0, j = 0;
  while (i < count && j < other.count) {
    if (hi[i] < other.lo[j]) {
      ++i;
    } else if (other.hi[j] < lo[i]) {
      ++j;
    } else {
      return true;
    }
  }
  return false;
}

bool Ranges::operator==(const Ranges& other) const {
  if (count != other.count) return false;
  for (int i = 0; i < count; ++i) {
    if (lo[i] != other.lo[i] || hi[i] != other.hi[i]) return false;
  }
  return true;
}

bool Ranges::Add(uint32_t add_lo, uint32_t add_hi) {
  // Into a scratch list one longer than the set, in order, each range merged with the one before
  // when they overlap or touch.
  uint32_t l[kMaxRanges + 1], h[kMaxRanges + 1];
  int n = 0;
  const auto push = [&](uint32_t cl, uint32_t ch) {
    if (n > 0 && cl <= h[n - 1] + 1) {
      h[n - 1] = std::max(h[n - 1], ch);
    } else {
      l[n] = cl;
      h[n] = ch;
      ++n;
    }
  };
  bool placed = false;
  for (int i = 0; i < count; ++i) {
    if (!placed && add_lo < lo[i]) {
      push(add_lo, add_hi);
      placed = true;
    }
    push(lo[i], hi[i]);
  }
  if (!placed) push(add_lo, add_hi);
  bool exact = true;
  if (n > kMaxRanges) {
    // Past what the set keeps: the two ranges with the smallest gap between them become one.
    int at = 0;
    for (int i = 1; i + 1 < n; ++i) {
      if (l[i + 1] - h[i] < l[at + 1] - h[at]) at = i;
    }
    h[at] = h[at + 1];
    for (int i = at + 1; i + 1 < n; ++i) {
      l[i] = l[i + 1];
      h[i] = h[i + 1];
    }
    --n;
    exact = false;
  }
  count = static_cast<uint8_t>(n);
  for (int i = 0; i < n; ++i) {
    lo[i] = static_cast<uint16_t>(l[i]);
    hi[i] = static_cast<uint16_t>(h[i]);
  }
  return exact;
}

bool Ranges::MergeClosest() {
  if (count < 2) return false;
  int at = 0;
  for (int i = 1; i + 1 < count; ++i) {
    if (lo[i + 1] - hi[i] < lo[at + 1] - hi[at]) at = i;
  }
  hi[at] = hi[at + 1];
  for (int i = at + 1; i + 1 < count; ++i) {
    lo[i] = lo[i + 1];
    hi[i] = hi[i + 1];
  }
  --count;
  return true;
}

namespace {

Ranges UnionOf(const Ranges& a, const Ranges& b) {
  Ranges out = a;
  for (int i = 0; i < b.count; ++i) (void)out.Add(b.lo[i], b.hi[i]);
  return out;
}

}  // namespace

// ---- Identity and Parts ----------------------------------------------------------------------------

bool Parts::operator==(const Parts& other) const {
  if (known != other.known) return false;
  if (!known) return true;
  return any_node == other.any_node && nodes == other.nodes && digits == other.digits && shards == other.shards;
}

Parts Of(const Identity& identity) {
  Parts parts;
  parts.known = true;
  if (identity.node == kNodeFromCitus) {
    parts.any_node = true;
  } else {
    (void)parts.nodes.Add(static_cast<uint32_t>(identity.node), static_cast<uint32_t>(identity.node));
  }
  parts.digits = static_cast<uint16_t>(1u << identity.digit);
  parts.shards = identity.shards;
  return parts;
}

Parts Union(const Parts& a, const Parts& b) {
  if (!a.known || !b.known) return Parts{};
  Parts out;
  out.known = true;
  out.any_node = a.any_node || b.any_node;
  out.nodes = UnionOf(a.nodes, b.nodes);
  out.digits = a.digits | b.digits;
  out.shards = UnionOf(a.shards, b.shards);
  return out;
}

bool Meets(const Parts& parts, const Identity& identity, Part part) {
  if (!parts.known) return true;
  switch (part) {
    case Part::kNode:
      return parts.any_node || identity.node == kNodeFromCitus ||
             parts.nodes.Contains(static_cast<uint32_t>(identity.node));
    case Part::kDigit:
      return (parts.digits >> identity.digit & 1) != 0;
    case Part::kShards:
      return parts.shards.Intersects(identity.shards);
  }
  return true;
}

bool DisjointInEveryPart(const Parts& parts, const Identity& identity) {
  return !Meets(parts, identity, Part::kNode) && !Meets(parts, identity, Part::kDigit) &&
         !Meets(parts, identity, Part::kShards);
}

bool Includes(const Parts& parts, const Identity& identity) {
  if (!parts.known) return true;
  if (identity.node == kNodeFromCitus
          ? !parts.any_node
          : !parts.any_node && !parts.nodes.Contains(static_cast<uint32_t>(identity.node))) {
    return false;
  }
  if ((parts.digits >> identity.digit & 1) == 0) return false;
  for (int i = 0; i < identity.shards.count; ++i) {
    // (the identity's range lies in one range of parts: parts' ranges are disjoint and not adjacent)
    bool inside = false;
    for (int j = 0; j < parts.shards.count && !inside; ++j) {
      inside = parts.shards.lo[j] <= identity.shards.lo[i] && identity.shards.hi[i] <= parts.shards.hi[j];
    }
    if (!inside) return false;
  }
  return true;
}

// ---- the registry text -----------------------------------------------------------------------------

namespace {

struct Writer {
  char* out;
  size_t size;
  size_t at = 0;
  bool fits = true;
  void Put(const char* text) {
    const size_t n = std::strlen(text);
    if (at + n >= size) {
      fits = false;
      return;
    }
    std::memcpy(out + at, text, n);
    at += n;
    out[at] = '\0';
  }
  void Number(uint32_t n) {
    char digits[12];
    std::snprintf(digits, sizeof digits, "%u", n);
    Put(digits);
  }
  void List(const Ranges& ranges) {
    for (int i = 0; i < ranges.count; ++i) {
      if (i > 0) Put(",");
      Number(ranges.lo[i]);
      if (ranges.hi[i] != ranges.lo[i]) {
        Put("-");
        Number(ranges.hi[i]);
      }
    }
  }
};

// A list of numbers and ranges ("0-3,18"), each below limit, ascending, apart and not adjacent,
// a range written only where it holds two numbers or more (as Format writes them), up to the end
// of text or the first ';' (apart false: one number may follow the one before, as digits do).
// Returns the characters read; nullopt when the list is not so.
std::optional<size_t> ReadList(std::string_view text, uint32_t limit, Ranges* out, bool apart = true) {
  *out = Ranges{};
  size_t at = 0;
  const auto number = [&]() -> std::optional<uint32_t> {
    const size_t start = at;
    uint32_t n = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - start < 6) {
      n = n * 10 + static_cast<uint32_t>(text[at] - '0');
      ++at;
    }
    if (at == start || (at - start > 1 && text[start] == '0') || n >= limit) return std::nullopt;
    return n;
  };
  if (at == text.size() || text[at] == ';') return at;
  for (;;) {
    const std::optional<uint32_t> first = number();
    if (!first) return std::nullopt;
    uint32_t last = *first;
    if (at < text.size() && text[at] == '-') {
      ++at;
      const std::optional<uint32_t> second = number();
      if (!second || *second <= *first) return std::nullopt;
      last = *second;
    }
    if (out->count > 0 && *first <= static_cast<uint32_t>(out->hi[out->count - 1]) + (apart ? 1 : 0))
      return std::nullopt;
    if (out->count == kMaxRanges) return std::nullopt;
    out->lo[out->count] = static_cast<uint16_t>(*first);
    out->hi[out->count] = static_cast<uint16_t>(last);
    ++out->count;
    if (at == text.size() || text[at] == ';') return at;
    if (text[at] != ',') return std::nullopt;
    ++at;
  }
}

}  // namespace

size_t Format(const Parts& parts, char* out, size_t size) {
  if (size == 0) return 0;
  out[0] = '\0';
  if (!parts.known) return 0;
  Writer w{out, size};
  w.Put("n=");
  if (parts.any_node) {
    w.Put("*");
  } else {
    w.List(parts.nodes);
  }
  w.Put(";d=");
  bool first = true;
  for (int d = 0; d < kDigits; ++d) {
    if ((parts.digits >> d & 1) == 0) continue;
    if (!first) w.Put(",");
    w.Number(static_cast<uint32_t>(d));
    first = false;
  }
  w.Put(";s=");
  w.List(parts.shards);
  if (!w.fits) {
    out[0] = '\0';
    return 0;
  }
  return w.at;
}

Parts FormatFitting(const Parts& parts, char* out, size_t size) {
  Parts fitted = parts;
  while (Format(fitted, out, size) == 0 && fitted.known) {
    Ranges& longer = fitted.nodes.count >= fitted.shards.count ? fitted.nodes : fitted.shards;
    if (!longer.MergeClosest()) {
      Ranges& other = &longer == &fitted.nodes ? fitted.shards : fitted.nodes;
      if (!other.MergeClosest()) return Parts{};  // (nothing left to merge: a buffer too small)
    }
  }
  return fitted;
}

std::optional<Parts> Parse(std::string_view text) {
  Parts parts;
  parts.known = true;
  if (text.substr(0, 2) != "n=") return std::nullopt;
  text.remove_prefix(2);
  if (text.substr(0, 1) == "*") {
    parts.any_node = true;
    text.remove_prefix(1);
  } else {
    const std::optional<size_t> n = ReadList(text, kNodes, &parts.nodes);
    if (!n) return std::nullopt;
    text.remove_prefix(*n);
  }
  if (text.substr(0, 3) != ";d=") return std::nullopt;
  text.remove_prefix(3);
  Ranges digits;
  const std::optional<size_t> d = ReadList(text, kDigits, &digits, false);
  if (!d) return std::nullopt;
  text.remove_prefix(*d);
  for (int i = 0; i < digits.count; ++i) {
    // (digits are written one by one, 2,3 and never 2-3)
    if (digits.lo[i] != digits.hi[i]) return std::nullopt;
    parts.digits = static_cast<uint16_t>(parts.digits | 1u << digits.lo[i]);
  }
  if (text.substr(0, 3) != ";s=") return std::nullopt;
  text.remove_prefix(3);
  const std::optional<size_t> s = ReadList(text, kShards, &parts.shards);
  if (!s || *s != text.size()) return std::nullopt;
  return parts;
}

// ---- the copy's words ------------------------------------------------------------------------------

namespace {

constexpr int64_t kWritten = int64_t{1} << 62;  // written by idgen 1.4 or later
constexpr int64_t kKnown = int64_t{1} << 61;
constexpr int64_t kAnyNode = int64_t{1} << 60;
constexpr int kNodeLoShift = 44, kNodeHiShift = 28;
constexpr uint32_t kEmptyShards = 1u << 13;  // lo 1, hi 0: no shard

}  // namespace

CopyWords EncodeCopy(const Parts& parts) {
  CopyWords words;
  words.parts = kWritten;
  if (!parts.known) return words;
  words.parts |= kKnown | (parts.any_node ? kAnyNode : 0) | (parts.digits & 0x3FF);
  const uint32_t node_lo = parts.nodes.Empty() ? 1 : parts.nodes.Lowest();
  const uint32_t node_hi = parts.nodes.Empty() ? 0 : parts.nodes.Highest();
  words.parts |= int64_t{node_lo} << kNodeLoShift | int64_t{node_hi} << kNodeHiShift;
  words.shard_bits = parts.shards.Empty() ? kEmptyShards : parts.shards.Lowest() << 13 | parts.shards.Highest();
  return words;
}

bool WrittenByCopyWords(int64_t parts_word) { return parts_word > 0 && (parts_word & kWritten) != 0; }

Parts DecodeCopy(const CopyWords& words) {
  Parts parts;
  if (!WrittenByCopyWords(words.parts) || (words.parts & kKnown) == 0) return parts;
  parts.known = true;
  parts.any_node = (words.parts & kAnyNode) != 0;
  parts.digits = static_cast<uint16_t>(words.parts & 0x3FF);
  const auto node_lo = static_cast<uint32_t>(words.parts >> kNodeLoShift & 0xFFFF);
  const auto node_hi = static_cast<uint32_t>(words.parts >> kNodeHiShift & 0xFFFF);
  if (node_lo <= node_hi) (void)parts.nodes.Add(node_lo, node_hi);
  const uint32_t shard_lo = words.shard_bits >> 13 & 0x1FFF, shard_hi = words.shard_bits & 0x1FFF;
  if (shard_lo <= shard_hi) (void)parts.shards.Add(shard_lo, shard_hi);
  return parts;
}

// ---- idgen.instagram_shards ----------------------------------------------------------------------

std::optional<Ranges> ParseShards(std::string_view text, ShardsProblem* problem) {
  ShardsProblem ignored;
  ShardsProblem& why = problem != nullptr ? *problem : ignored;
  why = ShardsProblem::kNone;
  Ranges out;
  size_t at = 0;
  const auto spaces = [&] {
    while (at < text.size() && text[at] == ' ') ++at;
  };
  spaces();
  if (at == text.size()) return out;  // no shard
  for (;;) {
    uint32_t bounds[2];
    for (int b = 0; b < 2; ++b) {
      spaces();
      const size_t start = at;
      uint32_t n = 0;
      while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
        if (n >= static_cast<uint32_t>(kShards)) return why = ShardsProblem::kOutOfRange, std::nullopt;
        n = n * 10 + static_cast<uint32_t>(text[at] - '0');
        ++at;
      }
      if (at == start) return why = ShardsProblem::kNotAList, std::nullopt;
      if (n >= static_cast<uint32_t>(kShards)) return why = ShardsProblem::kOutOfRange, std::nullopt;
      bounds[b] = n;
      spaces();
      if (b == 0) {
        bounds[1] = n;
        if (at < text.size() && text[at] == '-') {
          ++at;
          continue;
        }
        break;
      }
    }
    if (bounds[0] > bounds[1]) return why = ShardsProblem::kOutOfRange, std::nullopt;
    if (!out.Add(bounds[0], bounds[1])) return why = ShardsProblem::kTooManyRanges, std::nullopt;
    if (at == text.size()) return out;
    if (text[at] != ',') return why = ShardsProblem::kNotAList, std::nullopt;
    ++at;
  }
}

}  // namespace idgen::identity
