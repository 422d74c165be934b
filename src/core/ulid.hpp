// ULID (github.com/ulid/spec): a 128-bit value, 48 bits of Unix milliseconds then 80 bits, written
// as 26 characters of Crockford base32 (0123456789ABCDEFGHJKMNPQRSTVWXYZ), the first at most '7'.
// The 128 bits are held in a Uuid: a ULID and its uuid form are the same 16 bytes.
//
// idgen's ULIDs come from UUIDv7's state word (core/uuidv7.hpp): the 80 bits after the milliseconds
// are the word's 12-bit sub-millisecond fraction and 4-bit counter, then 64 random bits, with no
// version or variant bits. So ULIDs, like UUIDv7s, are strictly increasing across every process
// that shares the word: the spec's monotonic factory, server-wide. 65,536 ULIDs fit in a
// millisecond at the clock; beyond that rate the next ones carry the next millisecond (never more
// than one millisecond ahead of the clock: callers wait for it), so the 80 bits never wrap.
#pragma once

#include "core/cpp_only.hpp"

#include <cstdint>
#include <string_view>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/state.hpp"
#include "core/text.hpp"
#include "core/uuid.hpp"

namespace idgen::ulid {

inline constexpr size_t kLength = 26;
inline constexpr int64_t kMaxMs = (int64_t{1} << 48) - 1;  // 10889-08-02 05:31:50.655 UTC

// The canonical (uppercase) text of 128 bits.
BoundedText<kLength> Format(const Uuid& value);

// Reads a ULID: exactly 26 characters, either case, I and L read as 1 and O as 0 (Crockford).
// Never throws: kEmpty, kBadLength, kBadDigit (*bad_digit gets the first character that is not a
// digit), or kOverflow (a first character above '7': more than 128 bits).
ParseProblem Parse(std::string_view text, Uuid& out, char* bad_digit = nullptr);

// Parse for SQL functions: throws kBadText, with a message that quotes the text and a hint.
Uuid ParseOrThrow(std::string_view text);

// The 48-bit millisecond field.
int64_t TimeMs(const Uuid& value);

// The smallest ULID of the millisecond unix_ms: every ULID made at or after it sorts at or above.
// Throws kDatetimeOutOfRange outside 0..kMaxMs.
Uuid MinAt(int64_t unix_ms);

// A ULID with these 60 time bits (UUIDv7's: milliseconds << 12 | fraction), this 4-bit counter
// and these 64 random bits.
Uuid Compose(uint64_t time_bits, uint64_t counter, uint64_t random);

// The next ULID of the generator whose state is word (UUIDv7's), and how long to wait before
// returning it; the mark is the time bits, as UUIDv7's. max_regression_ms and callers as uuidv7::Next.
Generated<Uuid> Next(StateWord& word, FamilyStats& stats, Clock& clock, RandomPool& pool, long owner,
                     int64_t max_regression_ms = -1, uint64_t callers = 1);

}  // namespace idgen::ulid
