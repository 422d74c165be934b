// Nanosecond IDs: nanoseconds since 1970 shifted left by random_bits (32 by default) CSPRNG bits,
// written in base36 (or another alphabet): short, case-insensitive, URL-safe, time-ordered text
// such as q8f7zge7omq09fxqvr. The text has a fixed width per random_bits and alphabet (zero-padded),
// and the alphabet must be in ascending byte order, so that text order (C collation) is time order.
//
// The nanoseconds come from a state word shared by the server: strictly increasing on it, at most
// a millisecond ahead of the clock (62.5 us when it catches up with the clock, as UUIDv7), riding out
// a clock that steps back by carrying on from the word. Where the word cannot keep IDs unique (a
// standby beside its primary, a server without shared state, a word that returns to the clock after
// the clock stepped back further than idgen.max_clock_lead), the random bits must: at least
// kMinRandomBitsAlone of them.
#pragma once

#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/state.hpp"
#include "core/text.hpp"

namespace idgen::ns_id {

using Value = unsigned __int128;

inline constexpr const char* kDefaultAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
inline constexpr int kMaxRandomBits = 64;
inline constexpr size_t kMaxWidth = 128;  // 127 bits in base 2
// The fewest random bits that keep ns_ids unique without the word's order: two generators that
// each make a million IDs a second for a year share about 3 * 10^13 nanoseconds, and at 48 bits
// the chance that any two of those IDs also share their random bits is about 10^-4.
inline constexpr int kMinRandomBitsAlone = 48;
inline constexpr uint64_t kJumpNs = 62500;
constexpr AdvanceRules Rules(uint64_t max_regression_ns) {
  return AdvanceRules{0, 0, 1000000, kJumpNs, false, max_regression_ns, 0.001};
}
inline constexpr AdvanceRules kRules = Rules(kAnyRegression);

// An alphabet: 2 to 64 distinct printable ASCII characters in ascending order. With no upper-case
// letter in it, upper-case input reads as lower-case (base36 is case-insensitive).
struct Alphabet {
  char digits[64];
  unsigned radix;
  uint8_t value[256];  // 0xFF: not a digit
};

// Throws kBadArgument (with the rule) for an alphabet that breaks it.
Alphabet MakeAlphabet(std::string_view digits);

// Throws kBadArgument unless 0 <= random_bits <= 64.
void CheckRandomBits(int random_bits);

// The fixed width of the text: the digits of 63 + random_bits bits.
size_t Width(int random_bits, const Alphabet& alphabet);

using Text = BoundedText<kMaxWidth>;

Text Format(Value value, int random_bits, const Alphabet& alphabet);

// Never throws. The text must have exactly the width, digits of the alphabet only.
ParseProblem Parse(std::string_view text, int random_bits, const Alphabet& alphabet, Value& value);

// The nanoseconds of a text, throwing kBadText (kNumericOutOfRange) with what is wrong.
int64_t TimeNs(std::string_view text, int random_bits, const Alphabet& alphabet);

// The next ID of the generator whose state is word. A clock more than max_regression_ms behind the
// word makes the word return to the clock, when random_bits >= kMinRandomBitsAlone; with fewer
// random bits it carries on from the word, however far ahead (unique by the word alone).
Generated<Value> Next(StateWord& word, FamilyStats& stats, Clock& clock, RandomPool& pool, long owner, int random_bits,
                      int64_t max_regression_ms = -1);

}  // namespace idgen::ns_id
