// One engine for every "time | node | sequence" 64-bit layout: Instagram, Snowflake, Sonyflake,
// TraceId. A layout is an epoch, a time unit and the bit widths of its fields. The engine composes
// and decomposes IDs, checks every field's range, and knows when the time field runs out. IDs stay
// in the positive bigint domain 1 .. 2^63-1: a time that would make an ID negative or overflow its
// field is an error, never a wrap (but for TraceId, whose seconds wrap by design).
//
// The generator's state word is (time << seq_bits) | seq of the last ID handed out (state.hpp).
// An exhausted sequence moves to the next tick once the clock has reached it: the caller waits,
// since an ID never carries a time ahead of both the clock and the last ID issued.
#pragma once

#include "core/cpp_only.hpp"

#include <cstdint>
#include <span>
#include <string>

#include "core/clock.hpp"
#include "core/state.hpp"

namespace idgen {

struct Layout {
  const char* family;      // the SQL family: idgen.<family>_id(), setting idgen.<family>_epoch_ms
  const char* title;       // for messages: "Instagram"
  const char* node_field;  // for messages: "shard", "node", "machine id"
  int64_t epoch_ms;        // the published epoch, Unix milliseconds
  int64_t unit_ms;         // the length of one tick of the time field
  unsigned time_bits;
  unsigned node_bits;
  unsigned seq_bits;
  bool node_below_seq;  // Sonyflake: time | seq | node; the others: time | node | seq
  bool time_wraps;      // TraceId: the time field keeps the low bits of the time

  constexpr unsigned time_shift() const { return node_bits + seq_bits; }
  constexpr unsigned node_shift() const { return node_below_seq ? 0 : seq_bits; }
  constexpr unsigned seq_shift() const { return node_below_seq ? node_bits : 0; }
  constexpr int64_t max_node() const { return (int64_t{1} << node_bits) - 1; }
  constexpr uint64_t max_seq() const { return (uint64_t{1} << seq_bits) - 1; }
  // The largest tick an ID holds: the time field, or the sign bit of a bigint if that comes first.
  constexpr uint64_t max_ticks() const {
    const unsigned bits = time_wraps ? time_bits : (time_bits < 63 - time_shift() ? time_bits : 63 - time_shift());
    return (uint64_t{1} << bits) - 1;
  }
};

// Instagram: 41-bit milliseconds, 13-bit shard, 10-bit sequence. The 41st time bit is the sign
// bit of a bigint: IDs turn negative at 2046-06-27 17:00:49.497 UTC, so that is where they end.
inline constexpr Layout kInstagram{"instagram", "Instagram", "shard", 1314220021721, 1, 41, 13, 10, false, false};
// Twitter Snowflake: 41-bit milliseconds, 10-bit node (datacenter and worker), 12-bit sequence.
inline constexpr Layout kSnowflake{"snowflake", "Snowflake", "node", 1288834974657, 1, 41, 10, 12, false, false};
// Sonyflake: 39 bits of 10 ms, 8-bit sequence, 16-bit machine id (in that order).
inline constexpr Layout kSonyflake{"sonyflake", "Sonyflake", "machine id", 1409529600000, 10, 39, 16, 8, true, false};
// TraceId: 25-bit seconds that wrap every 388 days (2^25 s), 16-bit node, 22-bit counter. Unique
// within one wrap period, by design.
inline constexpr Layout kTrace{"trace", "TraceId", "node", 0, 1000, 25, 16, 22, false, true};
// JS-safe: IDs from 1 to 2^53 - 1, so that they survive JSON.parse() and JavaScript numbers: 38 bits
// of 10 ms since 2026-01-01 (87 years, to 2113), 5-bit node (32 servers), 10-bit sequence (1024
// per 10 ms: 102,400 IDs a second per server). docs/families.md weighs the other splits.
inline constexpr Layout kJs{"js", "JS-safe", "node", 1767225600000, 10, 38, 5, 10, false, false};
inline constexpr int64_t kJsMaxSafe = (int64_t{1} << 53) - 1;

namespace layout {

struct Parts {
  int64_t unix_ms;  // the start of the ID's tick
  int64_t node;
  int64_t seq;
};

// The last instant an ID of this layout holds, with this epoch (not for wrapping layouts).
int64_t LastMs(const Layout& layout, int64_t epoch_ms);

// Throws kBadArgument unless 0 <= node <= layout.max_node().
void CheckNode(const Layout& layout, int64_t node);

// The tick of an instant. Throws kDatetimeOutOfRange before the epoch or past the last instant.
uint64_t TickAt(const Layout& layout, int64_t epoch_ms, int64_t unix_ms);

// The ID of these fields; each must be in range.
int64_t Compose(const Layout& layout, uint64_t tick, int64_t node, uint64_t seq);

// The fields of an ID. Throws kBadArgument for a negative bigint. A wrapping layout decodes to the
// latest instant no later than one day after reference_ms.
Parts Decompose(const Layout& layout, int64_t epoch_ms, int64_t id, int64_t reference_ms);

// The smallest ID at the instant unix_us: node 0, sequence 0.
int64_t MinAt(const Layout& layout, int64_t epoch_ms, int64_t unix_us);

// How many ticks ahead of a clock that is fine the word of a generator that never runs ahead can
// lie: the tick after one whose sequence ran out, and one more for every `capacity` values that
// callers took beyond it (each caller holds one while it waits for the clock). callers: the
// processes that may generate at once (the server's MaxBackends).
constexpr uint64_t RunAheadTicks(uint64_t capacity, uint64_t callers) {
  return 1 + (callers + capacity - 1) / capacity;
}

// The regression limit in ticks: a clock behind the word by more than this stepped back by more
// than max_regression_ms. A step back of up to max_regression_ms is never refused, whatever the
// length of the tick (the limit rounds up to whole ticks) and whatever the word's run-ahead.
constexpr uint64_t RegressionTicks(int64_t max_regression_ms, int64_t unit_ms, uint64_t capacity, uint64_t callers) {
  const auto ms = static_cast<uint64_t>(max_regression_ms < 0 ? 0 : max_regression_ms);
  return (ms + static_cast<uint64_t>(unit_ms) - 1) / static_cast<uint64_t>(unit_ms) + RunAheadTicks(capacity, callers);
}

// The next ID for this node. words holds the generator's state: one word shared by every node
// (this server is one node), or one word per node (Instagram: the sequence is per shard). Throws
// kClockRegression when the clock is further behind the last ID issued than
// settings.max_regression_ms allows (RegressionTicks), and says whether an epoch change explains it.
Generated<int64_t> Next(const Layout& layout, const EpochSettings& settings, std::span<StateWord> words,
                        FamilyStats& stats, Clock& clock, int64_t node, uint64_t callers = 1);

// The state word of a durable mark: tick taken as the last tick issued, so that every next ID is
// in that tick (sequence 1 on) or later, above every ID issued before the mark was written.
constexpr uint64_t WordAt(const Layout& layout, uint64_t tick) { return tick << layout.seq_bits; }

}  // namespace layout
}  // namespace idgen
