#include "core/layout.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace idgen::layout {

void ThrowTimeOutOfRange(const Layout& layout, int64_t epoch_ms) {
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

namespace {

std::string Duration(uint64_t ticks, const Layout& layout) {
  return FormatDuration(static_cast<int64_t>(ticks) * layout.unit_ms);
}

}  // namespace

// The clock is further behind the last ID issued than the settings allow. Either the clock stepped
// back, or the epoch setting moved later since that ID was issued (IDs under an earlier epoch hold
// larger time fields), or a durable mark from before a restart lies ahead of the clock.
void ThrowTooFarBehind(const Layout& layout, const EpochSettings& settings, uint64_t regression,
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

int64_t LastMs(const Layout& layout, int64_t epoch_ms) {
  return epoch_ms + static_cast<int64_t>(layout.max_ticks() + 1) * layout.unit_ms - 1;
}

void ThrowNodeOutOfRange(const Layout& layout, int64_t node) {
  throw Error(
      ErrorKind::kBadArgument,
      std::string(layout.node_field) + " " + std::to_string(node) + " is out of range for " + layout.title + " IDs",
      std::string(layout.title) + " " + layout.node_field + "s are between 0 and " + std::to_string(layout.max_node()) +
          ".");
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

}  // namespace idgen::layout
