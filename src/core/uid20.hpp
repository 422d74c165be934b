// 20-digit decimal UIDs (the MySQL BigInt UID scheme): 13 digits of milliseconds since an epoch
// (2011-01-01 UTC by default), 6 digits of sequence, 1 server digit; and the seconds variant, 11
// digits of seconds, 8 of sequence, 1 server digit. As numbers: tick * 10^7 + seq * 10 + server,
// and tick * 10^9 + seq * 10 + server.
//
// The published scheme draws the sequence digits at random, so that two IDs of one millisecond
// collide with probability n^2/2 * 10^-6. idgen counts them instead, from a random start in each
// tick, on a state word shared by the server like the 64-bit families: an ID never repeats on one
// server. A tick holds at least 100,000 IDs (the random start is at most 899,999 of 999,999); an
// exhausted tick waits for the next.
//
// The scheme was made for MySQL's unsigned BIGINT: up to 18,446,744,073,709,551,615 (2069 for the
// millisecond variant). A signed bigint ends at 9,223,372,036,854,775,807 (2040-03-24); past it,
// the bigint form is an error and the numeric form carries on.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/state.hpp"
#include "core/text.hpp"

namespace idgen::uid20 {

using Value = unsigned __int128;

struct Variant {
  const char* family;  // uid20, uid20_sec
  const char* title;
  int64_t unit_ms;    // 1 or 1000
  uint64_t seq_span;  // 10^6 or 10^8 sequence values per tick
  unsigned seq_bits;  // of the state word: enough for seq_span
};
inline constexpr Variant kMillis{"uid20", "UID20", 1, 1000000, 20};
inline constexpr Variant kSeconds{"uid20_sec", "UID20 (seconds)", 1000, 100000000, 27};

inline constexpr int64_t kDefaultEpochMs = 1293840000000;  // 2011-01-01 00:00:00 UTC
inline constexpr Value kMaxValue = ~uint64_t{0};           // MySQL's unsigned BIGINT
inline constexpr int kMaxServer = 9;

struct Parts {
  int64_t unix_ms;  // the start of the tick
  int64_t seq;
  int server;
};

// The value of these fields; the fields must be in range.
constexpr Value Compose(const Variant& v, uint64_t tick, uint64_t seq, int server) {
  return (static_cast<Value>(tick) * v.seq_span + seq) * 10 + static_cast<unsigned>(server);
}

// The fields of a value; kNumericOutOfRange above 18,446,744,073,709,551,615.
Parts Decompose(const Variant& v, int64_t epoch_ms, Value value);

// The same from decimal digits (a numeric's text): kBadText for anything else, kNumericOutOfRange
// beyond 18446744073709551615 (however many digits).
Parts Decompose(const Variant& v, int64_t epoch_ms, std::string_view digits);

// The last instant a value holds (the end of the unsigned 64-bit range), with this epoch.
int64_t LastMs(const Variant& v, int64_t epoch_ms);

// Throws kBadArgument unless 0 <= server <= 9.
void CheckServer(int server);

// The next UID of this server. Throws kDatetimeOutOfRange outside the epoch's range, and
// kClockRegression when the clock is further behind the last UID than settings allow
// (layout::RegressionTicks; callers: the processes that may generate at once).
Generated<Value> Next(const Variant& v, const EpochSettings& settings, StateWord& word, FamilyStats& stats,
                      Clock& clock, RandomPool& pool, long owner, int server, uint64_t callers = 1);

// Decimal digits of a value (the text of a numeric): no sign, no point; kEmpty, kBadDigit, or
// kOverflow beyond 2^128 - 1 (never a wrapped value). Never throws.
ParseProblem ParseDigits(std::string_view text, Value& value);

// The decimal digits of a value (up to 39), no leading zero.
BoundedText<39> FormatDigits(Value value);

// The value as a signed bigint; kNumericOutOfRange past 9,223,372,036,854,775,807, with the date.
int64_t ToBigint(const Variant& v, int64_t epoch_ms, Value value);

}  // namespace idgen::uid20
