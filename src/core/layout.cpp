#include "core/layout.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace idgen::layout {

namespace {

[[noreturn]] void ThrowTimeOutOfRange(const Layout& layout, int64_t epoch_ms) {
  std::string detail;
  if (layout.time_wraps) {
    detail = std::string(layout.title) + " IDs hold times from " + FormatUtc(epoch_ms) + " (the epoch) on; their " +
             std::to_string(layout.time_bits) + "-bit time field wraps every " +
             std::to_string(((int64_t{1} << layout.time_bits) * layout.unit_ms) / 86400000) +
             " days, so an ID names its time within one wrap period only.";
  } else {
    const bool sign_limited = layout.max_ticks() < (uint64_t{1} << layout.time_bits) - 1;
    detail = std::string(layout.title) + " IDs hold times from " + FormatUtc(epoch_ms) + " (the epoch) to " +
             FormatUtc(LastMs(layout, epoch_ms)) +
             (sign_limited ? ", when a bigint would turn negative."
                           : ", the end of their " + std::to_string(layout.time_bits) + "-bit time field.");
  }
  throw Error(ErrorKind::kDatetimeOutOfRange, std::string("timestamp out of range for ") + layout.title + " IDs",
              detail,
              std::string("The setting idgen.") + layout.family +
                  "_epoch_ms moves this range; read the README before changing it on a live system.");
}

std::string Duration(uint64_t ticks, const Layout& layout) {
  return FormatDuration(static_cast<int64_t>(ticks) * layout.unit_ms);
}

// The clock is further behind the last ID issued than the settings allow. Either the clock stepped
// back, or the epoch setting moved later since that ID was issued (IDs under an earlier epoch hold
// larger time fields), or a durable mark from before a restart lies ahead of the clock.
[[noreturn]] void ThrowTooFarBehind(const Layout& layout, const EpochSettings& settings, uint64_t regression,
                                    int64_t word_epoch_ms) {
  const std::string setting = std::string("idgen.") + layout.family + "_epoch_ms";
  const std::string gap = Duration(regression, layout);
  if (word_epoch_ms != kNoEpoch && word_epoch_ms != settings.epoch_ms) {
    throw Error(ErrorKind::kClockRegression,
                std::string("the last ") + layout.title + " ID issued lies " + gap + " ahead of the clock under " +
                    setting + " = " + std::to_string(settings.epoch_ms),
                "That ID was issued under " + setting + " = " + std::to_string(word_epoch_ms) +
                    ". Under the new epoch, new IDs would repeat IDs already issued, so none are made.",
                "Set " + setting + " back to " + std::to_string(word_epoch_ms) + " and reload (ALTER SYSTEM SET " +
                    setting + " = " + std::to_string(word_epoch_ms) +
                    "; SELECT pg_reload_conf();). On a live system an epoch may move earlier, never later.");
  }
  throw Error(ErrorKind::kClockRegression,
              std::string("system clock is ") + gap + " behind the last " + layout.title + " ID issued",
              "IDs made from this clock could repeat IDs already issued (or reserved by the durable mark before a "
              "restart), so none are made.",
              "Check the system clock and its time synchronisation: IDs resume by themselves once the clock passes "
              "the last ID. idgen.max_clock_regression (now " +
                  FormatDuration(settings.max_regression_ms) +
                  ") is the largest step back that idgen rides out by waiting; if " + setting +
                  " was changed since IDs were issued, set it back. If the clock had been set ahead and is right "
                  "again: a superuser gives this server a new idgen.node_id (and idgen.instagram_shards), then runs "
                  "SELECT idgen.restart_at_clock().");
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
    throw Error(
        ErrorKind::kBadArgument,
        std::string(layout.node_field) + " " + std::to_string(node) + " is out of range for " + layout.title + " IDs",
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
  if (!layout.time_wraps && static_cast<uint64_t>(tick) > (uint64_t{1} << layout.time_bits) - 1) {
    // (only where the fields are narrower than a bigint: JS-safe IDs end at 2^53 - 1)
    throw Error(ErrorKind::kBadArgument, std::to_string(id) + " is not a valid " + layout.title + " ID",
                std::string(layout.title) + " IDs hold " + std::to_string(layout.time_bits + layout.time_shift()) +
                    " bits: they are at most " +
                    std::to_string((int64_t{1} << (layout.time_bits + layout.time_shift())) - 1) + ".");
  }
  if (layout.time_wraps) {
    // The latest tick with these low bits that is no later than a day after the reference.
    const int64_t period = int64_t{1} << layout.time_bits;
    const int64_t reference_tick = FloorDiv(reference_ms + 86400000 - epoch_ms, layout.unit_ms);
    if (reference_tick > tick) tick += FloorDiv(reference_tick - tick, period) * period;
  }
  return Parts{epoch_ms + tick * layout.unit_ms,
               static_cast<int64_t>((bits >> layout.node_shift()) & layout.max_node()),
               static_cast<int64_t>((bits >> layout.seq_shift()) & layout.max_seq())};
}

int64_t MinAt(const Layout& layout, int64_t epoch_ms, int64_t unix_us) {
  return Compose(layout, TickAt(layout, epoch_ms, FloorDiv(unix_us, 1000)), 0, 0);
}

Generated<int64_t> Next(const Layout& layout, const EpochSettings& settings, std::span<StateWord> words,
                        FamilyStats& stats, Clock& clock, int64_t node, uint64_t callers) {
  CheckNode(layout, node);
  StateWord& word = words.size() == 1 ? words[0] : words[static_cast<size_t>(node)];
  const AdvanceRules rules{layout.seq_bits,
                           layout.max_seq(),
                           0,
                           0,
                           true,
                           RegressionTicks(settings.max_regression_ms, layout.unit_ms, layout.max_seq() + 1, callers),
                           static_cast<double>(layout.unit_ms) * 1000.0};
  const NextWord next =
      Advance(word, stats, rules, [&] { return TickAt(layout, settings.epoch_ms, FloorDiv(clock.NowNs(), 1000000)); });
  if (next.kind == NextWord::kTooFarBehind) {
    ThrowTooFarBehind(layout, settings, next.regression, stats.word_epoch_ms.load(std::memory_order_relaxed));
  }
  if (stats.word_epoch_ms.load(std::memory_order_relaxed) != settings.epoch_ms) {
    stats.word_epoch_ms.store(settings.epoch_ms, std::memory_order_relaxed);
  }
  // The tick is at most max(clock, last issued) + 1, the clock checked by TickAt; a word raised to
  // a durable mark can lie beyond the layout's end.
  const uint64_t tick = next.word >> layout.seq_bits;
  if (!layout.time_wraps && tick > layout.max_ticks()) ThrowTimeOutOfRange(layout, settings.epoch_ms);
  const int64_t wait_until_ns =
      next.wait_tick == 0 ? 0 : (settings.epoch_ms + static_cast<int64_t>(next.wait_tick) * layout.unit_ms) * 1000000;
  return Generated<int64_t>{Compose(layout, tick, node, next.word & layout.max_seq()), tick, wait_until_ns};
}

}  // namespace idgen::layout
