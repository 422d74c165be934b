// A server's identity, part by part, kept as what each part is: the node id of the 64-bit layouts
// (idgen.node_id, or the Citus group id), UID20's server digit (idgen.uid20_server) and the set of
// Instagram shards the server owns (idgen.instagram_shards). A family's IDs carry one part (the
// node families their node, UID20 its digit, Instagram its shard) and can repeat only IDs made
// under that same part: a lease or a copy counts as another identity's for a family only where
// that family's part cannot meet it (no node, digit or shard in common).
//
// Identity is one configuration; Parts is what a lease or a copy holds values of: the union of the
// parts of every identity whose values it holds. Nothing here is a hash: a union that grows past
// the ranges a Parts keeps merges neighbouring ranges into one, a superset, which can only make a
// copy or a lease count as ours more often, never less. Three encodings, each exact for what fits:
//   - the registry text (server side, in the name of a replication origin: Format, Parse);
//   - the copy's two words (each database's idgen.mark_parts and the shard bits of
//     idgen.mark_server: EncodeCopy, DecodeCopy), hulls of nodes and shards: a superset again.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace idgen::identity {

inline constexpr int kNodes = 65536;  // node ids 0..65535 (Sonyflake and TraceId hold 16 bits)
inline constexpr int kShards = 8192;  // Instagram's 13-bit shard field
inline constexpr int kDigits = 10;    // UID20's server digit
// The ranges a set keeps exactly: idgen.instagram_shards refuses a list of more.
inline constexpr int kMaxRanges = 32;
// A node id that comes from Citus (idgen.node_id_source = 'citus'): each database reads its own
// group id, so the identity names no one node, and meets every node.
inline constexpr int32_t kNodeFromCitus = -1;

// A set of numbers below 65536, as sorted, disjoint, non-adjacent ranges.
struct Ranges {
  uint8_t count = 0;
  uint16_t lo[kMaxRanges] = {};
  uint16_t hi[kMaxRanges] = {};

  bool Empty() const { return count == 0; }
  bool Contains(uint32_t x) const;
  bool Intersects(const Ranges& other) const;
  bool operator==(const Ranges& other) const;
  // Adds [lo, hi]; false when the set would need more than kMaxRanges ranges (Add then keeps a
  // superset: the two nearest ranges merged).
  bool Add(uint32_t lo, uint32_t hi);
  // The two ranges with the smallest gap between them made one (a superset); false with fewer than two.
  bool MergeClosest();
  uint32_t Lowest() const { return lo[0]; }
  uint32_t Highest() const { return hi[count - 1]; }
};

// One configuration: what a server makes IDs under now.
struct Identity {
  int32_t node = 0;   // 0..65535, or kNodeFromCitus
  uint8_t digit = 0;  // 0..9
  Ranges shards;      // the shards it owns (may be none)
  bool operator==(const Identity& other) const {
    return node == other.node && digit == other.digit && shards == other.shards;
  }
};

// What the values under a lease or in a copy were made under: the union of the identities that made
// them. Not known (written by idgen 1.3 or before, which kept a hash): every identity, which meets
// and includes every other.
struct Parts {
  bool known = false;
  bool any_node = false;  // a node id from Citus
  Ranges nodes;
  uint16_t digits = 0;  // a bit per digit
  Ranges shards;
  bool operator==(const Parts& other) const;
};

// The part of an identity that a family's IDs carry.
enum class Part : uint8_t { kNode, kDigit, kShards };
inline constexpr int kPartCount = 3;

Parts Of(const Identity& identity);
Parts Union(const Parts& a, const Parts& b);
// Whether the identity's part meets what parts holds of it: IDs under the identity could repeat
// values the parts hold, in the families of that part.
bool Meets(const Parts& parts, const Identity& identity, Part part);
// Whether no part of the identity meets parts (every family of it is new).
bool DisjointInEveryPart(const Parts& parts, const Identity& identity);
// Whether parts already holds every part of the identity (a lease written under parts covers it).
bool Includes(const Parts& parts, const Identity& identity);

// The registry text: "n=0-3,18;d=0,3;s=0-2047" ("n=*": a node from Citus; an empty list: none).
// Format writes it into out (NUL-terminated) and returns its length, or 0 when it needs more than
// size bytes; Parse reads what Format wrote (and nothing else).
size_t Format(const Parts& parts, char* out, size_t size);
std::optional<Parts> Parse(std::string_view text);
// Format, its lists merged where they are longest until the text fits size bytes (size of 64 or
// more always fits): the parts the text says, a superset of parts.
Parts FormatFitting(const Parts& parts, char* out, size_t size);

// The copy's encoding: idgen.mark_parts (nodes and digits) and 26 bits of idgen.mark_server (the
// shards), both hulls: DecodeCopy gives a superset of what was encoded. idgen.mark_parts is 0 where
// no writer of 1.4 or later wrote the copy (idgen.mark_server then has 1.3's layout).
struct CopyWords {
  int64_t parts = 0;        // idgen.mark_parts
  uint32_t shard_bits = 0;  // the low 26 bits of idgen.mark_server
};
CopyWords EncodeCopy(const Parts& parts);
bool WrittenByCopyWords(int64_t parts_word);
Parts DecodeCopy(const CopyWords& words);
// The parts that know nothing yet: no node, no digit, no shard.
inline Parts NoParts() {
  Parts parts;
  parts.known = true;
  return parts;
}

// An idgen.instagram_shards text: "0-2047", "5,9,100-199", "" (none); nullopt when it is not such a
// list (problem says why: not a list, a shard past 8191 or a range high to low, more than kMaxRanges
// ranges).
enum class ShardsProblem : uint8_t { kNone, kNotAList, kOutOfRange, kTooManyRanges };
std::optional<Ranges> ParseShards(std::string_view text, ShardsProblem* problem = nullptr);

}  // namespace idgen::identity
