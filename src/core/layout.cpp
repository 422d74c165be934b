#include "core/layout.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace idgen::layout {

namespace {

[[noreturn]] void ThrowTimeOutOfRange(const Layout& layout, int64_t epoch_ms) {
  const bool sign_limited = layout.max_ticks() < (uint64_t{1} << layout.time_bits) - 1;
  throw Error(ErrorKind::kDatetimeOutOfRange, std::string("timestamp out of range for ") + layout.title + " IDs",
              std::string(layout.title) + " IDs hold times from " + FormatUtc(epoch_ms) + " (the epoch) to " +
                  FormatUtc(LastMs(layout, epoch_ms)) +
                  (sign_limited ? ", when a bigint would turn negative."
                                : ", the end of their " + std::to_string(layout.time_bits) + "-bit time field."),
              std::string("The setting idgen.") + layout.family +
                  "_epoch_ms moves this range; read the README before changing it on a live system.");
}

// Milliseconds to ticks without a hardware division for the 1 ms layouts (Instagram, Snowflake):
// this runs on every call.
constexpr int64_t ToTicks(const Layout& layout, int64_t ms) { return layout.unit_ms == 1 ? ms : ms / layout.unit_ms; }

}  // namespace

int64_t LastMs(const Layout& layout, int64_t epoch_ms) {
  return epoch_ms + static_cast<int64_t>(layout.max_ticks() + 1) * layout.unit_ms - 1;
}

void CheckNode(const Layout& layout, int64_t node) {
  if (node < 0 || node > layout.max_node()) {
    throw Error(ErrorKind::kBadArgument,
                std::string(layout.node_field) + " " + std::to_string(node) + " is out of range for " + layout.title +
                    " IDs",
                std::string(layout.title) + " " + layout.node_field + "s are between 0 and " +
                    std::to_string(layout.max_node()) + ".");
  }
}

uint64_t TickAt(const Layout& layout, int64_t epoch_ms, int64_t unix_ms) {
  if (unix_ms < epoch_ms) ThrowTimeOutOfRange(layout, epoch_ms);
  const auto tick = static_cast<uint64_t>(ToTicks(layout, unix_ms - epoch_ms));
  if (!layout.time_wraps && tick > layout.max_ticks()) ThrowTimeOutOfRange(layout, epoch_ms);
  return tick;
}

int64_t Compose(const Layout& layout, uint64_t tick, int64_t node, uint64_t seq) {
  const uint64_t time_field = tick & ((uint64_t{1} << layout.time_bits) - 1);
  return static_cast<int64_t>((time_field << layout.time_shift()) |
                              (static_cast<uint64_t>(node) << layout.node_shift()) | (seq << layout.seq_shift()));
}

Parts Decompose(const Layout& layout, int64_t epoch_ms, int64_t id, int64_t reference_ms) {
  if (id < 0) {
    throw Error(ErrorKind::kBadArgument, std::to_string(id) + " is not a valid " + layout.title + " ID",
                std::string(layout.title) + " IDs are positive bigints.");
  }
  const auto bits = static_cast<uint64_t>(id);
  int64_t tick = static_cast<int64_t>(bits >> layout.time_shift());
  if (layout.time_wraps) {
    // The latest tick with these low bits that is no later than a day after the reference.
    const int64_t period = int64_t{1} << layout.time_bits;
    const int64_t reference_tick = FloorDiv(reference_ms + 86400000 - epoch_ms, layout.unit_ms);
    if (reference_tick > tick) tick += FloorDiv(reference_tick - tick, period) * period;
  }
  return Parts{epoch_ms + tick * layout.unit_ms, static_cast<int64_t>((bits >> layout.node_shift()) & layout.max_node()),
               static_cast<int64_t>((bits >> layout.seq_shift()) & layout.max_seq())};
}

int64_t MinAt(const Layout& layout, int64_t epoch_ms, int64_t unix_us) {
  return Compose(layout, TickAt(layout, epoch_ms, FloorDiv(unix_us, 1000)), 0, 0);
}

Outcome Next(const Layout& layout, const Settings& settings, std::span<Slot> slots, Stats& stats, Clock& clock,
             int64_t node) {
  CheckNode(layout, node);
  Slot& slot = slots.size() == 1 ? slots[0] : slots[static_cast<size_t>(node)];
  const Policy policy{layout.seq_bits, true,
                      static_cast<uint64_t>(ToTicks(layout, std::max<int64_t>(settings.max_regression_ms, 0))),
                      static_cast<double>(layout.unit_ms) * 1000.0};
  const Step step = Advance(slot, stats, policy, [&] {
    return TickAt(layout, settings.epoch_ms, FloorDiv(clock.NowNs(), 1000000));
  });
  if (!step.issued) {
    const int64_t next_tick_us = (settings.epoch_ms + static_cast<int64_t>(step.wait_tick) * layout.unit_ms) * 1000;
    return Outcome{false, 0, std::max<int64_t>(next_tick_us - FloorDiv(clock.NowNs(), 1000), 1)};
  }
  // The tick is at most max(clock, last issued), both checked by TickAt: it is in range.
  return Outcome{true, Compose(layout, step.word >> layout.seq_bits, node, step.word & layout.max_seq()), 0};
}

}  // namespace idgen::layout
