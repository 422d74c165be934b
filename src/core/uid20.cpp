#include "core/uid20.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/layout.hpp"

namespace idgen::uid20 {

namespace {

// The largest tick whose every value fits the unsigned 64 bits.
constexpr uint64_t MaxTick(const Variant& v) { return static_cast<uint64_t>((kMaxValue + 1) / (v.seq_span * 10)) - 1; }

[[noreturn]] void ThrowTimeOutOfRange(const Variant& v, int64_t epoch_ms) {
  throw Error(ErrorKind::kDatetimeOutOfRange, std::string("timestamp out of range for ") + v.title + " IDs",
              std::string(v.title) + " IDs hold times from " + FormatUtc(epoch_ms) + " (the epoch) to " +
                  FormatUtc(LastMs(v, epoch_ms)) + ", the end of an unsigned 64-bit number.",
              std::string("The setting idgen.uid20_epoch_ms moves this range."));
}

uint64_t TickAt(const Variant& v, int64_t epoch_ms, int64_t unix_ms) {
  if (unix_ms < epoch_ms) ThrowTimeOutOfRange(v, epoch_ms);
  const auto tick = static_cast<uint64_t>((unix_ms - epoch_ms) / v.unit_ms);
  if (tick > MaxTick(v)) ThrowTimeOutOfRange(v, epoch_ms);
  return tick;
}

std::string Digits(Value value) { return std::string(FormatDigits(value).view()); }

}  // namespace

ParseProblem ParseDigits(std::string_view text, Value& value) {
  if (text.empty()) return ParseProblem::kEmpty;
  constexpr Value kMax = ~Value{0};
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return ParseProblem::kBadDigit;
    const unsigned digit = static_cast<unsigned>(c - '0');
    if (value > (kMax - digit) / 10) return ParseProblem::kOverflow;  // beyond 128 bits: never wrap
    value = value * 10 + digit;
  }
  return ParseProblem::kNone;
}

BoundedText<39> FormatDigits(Value value) {
  char reversed[39];
  size_t n = 0;
  do {
    reversed[n++] = static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  } while (value != 0);
  BoundedText<39> digits;
  digits.size = n;
  for (size_t i = 0; i < n; ++i) digits.data[i] = reversed[n - 1 - i];
  return digits;
}

int64_t LastMs(const Variant& v, int64_t epoch_ms) {
  return epoch_ms + static_cast<int64_t>(MaxTick(v) + 1) * v.unit_ms - 1;
}

void CheckServer(int server) {
  if (server < 0 || server > kMaxServer) {
    throw Error(ErrorKind::kBadArgument, "UID20 server digit " + std::to_string(server) + " is out of range",
                "The server digit is from 0 to 9.");
  }
}

[[noreturn]] void ThrowOutOfRange(const Variant& v, std::string_view digits) {
  throw Error(ErrorKind::kNumericOutOfRange,
              std::string(v.title) + " value " + std::string(digits) + " is out of range",
              "UID20 values are at most 18446744073709551615 (an unsigned 64-bit number).");
}

Parts Decompose(const Variant& v, int64_t epoch_ms, Value value) {
  if (value > kMaxValue) ThrowOutOfRange(v, Digits(value));
  const auto tick = static_cast<int64_t>(value / 10 / v.seq_span);
  return Parts{epoch_ms + tick * v.unit_ms, static_cast<int64_t>(value / 10 % v.seq_span),
               static_cast<int>(value % 10)};
}

Parts Decompose(const Variant& v, int64_t epoch_ms, std::string_view digits) {
  Value value = 0;
  switch (ParseDigits(digits, value)) {
    case ParseProblem::kNone:
      return Decompose(v, epoch_ms, value);
    case ParseProblem::kOverflow:
      ThrowOutOfRange(v, digits);
    default:
      throw Error(ErrorKind::kBadText, std::string(digits) + " is not a UID20",
                  "A UID20 is a whole number from 0 to 18446744073709551615.");
  }
}

int64_t ToBigint(const Variant& v, int64_t epoch_ms, Value value) {
  if (value > static_cast<Value>(INT64_MAX)) {
    const uint64_t last_tick = static_cast<uint64_t>(static_cast<Value>(INT64_MAX) / 10 / v.seq_span) - 1;
    throw Error(
        ErrorKind::kNumericOutOfRange, std::string(v.title) + " " + Digits(value) + " does not fit a bigint",
        "A signed bigint holds " + std::string(v.title) + " IDs until " +
            FormatUtc(epoch_ms + static_cast<int64_t>(last_tick + 1) * v.unit_ms - 1) + ".",
        std::string("Use idgen.") + v.family + "_numeric(), in a numeric(20,0) column, for the scheme's whole range.");
  }
  return static_cast<int64_t>(value);
}

Generated<Value> Next(const Variant& v, const EpochSettings& settings, StateWord& word, FamilyStats& stats,
                      Clock& clock, RandomPool& pool, long owner, int server, uint64_t callers) {
  CheckServer(server);
  const AdvanceRules rules{v.seq_bits, v.seq_span - 1, 0, 0, true,
                           // (a tick the clock opens holds at least a tenth of the span: its random start)
                           layout::RegressionTicks(settings.max_regression_ms, v.unit_ms, v.seq_span / 10, callers),
                           static_cast<double>(v.unit_ms) * 1000.0};
  // A random start for a tick the clock opens, leaving at least a tenth of the span.
  const NextWord next = Advance(
      word, stats, rules, [&] { return TickAt(v, settings.epoch_ms, FloorDiv(clock.NowNs(), 1000000)); },
      [&] { return pool.TakeU64(owner) % (v.seq_span - v.seq_span / 10); });
  if (next.kind == NextWord::kTooFarBehind) {
    throw Error(ErrorKind::kClockRegression,
                "system clock is " + FormatDuration(static_cast<int64_t>(next.regression) * v.unit_ms) +
                    " behind the last " + v.title + " ID issued",
                "IDs made from this clock could repeat IDs already issued, so none are made.",
                "Check the system clock and its time synchronisation: IDs resume by themselves once the clock "
                "passes the last ID. If the clock had been set ahead and is right again: a superuser gives this "
                "server a new idgen.uid20_server, then runs SELECT idgen.restart_at_clock().");
  }
  const uint64_t tick = next.word >> v.seq_bits;
  if (tick > MaxTick(v)) ThrowTimeOutOfRange(v, settings.epoch_ms);
  const int64_t wait_until_ns =
      next.wait_tick == 0 ? 0 : (settings.epoch_ms + static_cast<int64_t>(next.wait_tick) * v.unit_ms) * 1000000;
  return Generated<Value>{Compose(v, tick, next.word & ((uint64_t{1} << v.seq_bits) - 1), server), tick, wait_until_ns};
}

}  // namespace idgen::uid20
