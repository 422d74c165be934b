#include "core/ulid.hpp"

#include <array>
#include <span>
#include <string>

#include "core/bytes.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/uuidv7.hpp"

namespace idgen::ulid {

namespace {

// Each character's digit in the lowercase alphabet of codec's base32 (the same digits as the ULID
// spec's), 0 for characters that are no digit: either case, and Crockford's I, L (1) and O (0).
using Table = std::array<char, 256>;
constexpr Table MakeTable() {
  Table table{};
  constexpr std::string_view kDigits = "0123456789abcdefghjkmnpqrstvwxyz";
  for (char c : kDigits) {
    table[static_cast<unsigned char>(c)] = c;
    if (c >= 'a' && c <= 'z') table[static_cast<unsigned char>(c - 'a' + 'A')] = c;
  }
  for (char c : std::string_view("iIlL")) table[static_cast<unsigned char>(c)] = '1';
  for (char c : std::string_view("oO")) table[static_cast<unsigned char>(c)] = '0';
  return table;
}
constexpr Table kTable = MakeTable();

constexpr const char* kAlphabetHint =
    "A ULID is 26 characters of Crockford base32: 0-9 and A-Z without I, L, O and U (I and L read "
    "as 1, O as 0, either case), the first at most 7.";

[[noreturn]] void ThrowOutOfRange() {
  throw Error(ErrorKind::kDatetimeOutOfRange, "timestamp out of range for ULID",
              "A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.");
}

}  // namespace

BoundedText<kLength> Format(const Uuid& value) {
  BoundedText<kLength> out{};
  codec::Encode(value.bytes, codec::Base::k32, std::span(out.data, kLength));
  for (char& c : out.data)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  out.size = kLength;
  return out;
}

ParseProblem Parse(std::string_view text, Uuid& out, char* bad_digit) {
  if (text.empty()) return ParseProblem::kEmpty;
  if (text.size() != kLength) return ParseProblem::kBadLength;
  char digits[kLength];
  for (size_t i = 0; i < kLength; ++i) {
    const char d = kTable[static_cast<unsigned char>(text[i])];
    if (d == 0) {
      if (bad_digit != nullptr) *bad_digit = text[i];
      return ParseProblem::kBadDigit;
    }
    digits[i] = d;
  }
  Uuid value;  // (a first digit above 7 is more than 128 bits: the codec answers kOverflow)
  const ParseProblem problem = codec::Decode(std::string_view(digits, kLength), codec::Base::k32, value.bytes);
  if (problem == ParseProblem::kNone) out = value;
  return problem;
}

Uuid ParseOrThrow(std::string_view text) {
  Uuid value;
  char bad = 0;
  const std::string message = "invalid ULID " + Quote(text);
  switch (Parse(text, value, &bad)) {
    case ParseProblem::kNone:
      return value;
    case ParseProblem::kEmpty:
      throw Error(ErrorKind::kBadText, message, "The text is empty.", kAlphabetHint);
    case ParseProblem::kBadLength:
      throw Error(ErrorKind::kBadText, message,
                  "It is " + std::to_string(text.size()) + " bytes long; a ULID is 26 characters.", kAlphabetHint);
    case ParseProblem::kBadDigit: {
      const std::string digit = (bad >= 0x20 && bad < 0x7F) ? "\"" + std::string(1, bad) + "\""
                                                            : "byte " + std::to_string(static_cast<unsigned char>(bad));
      throw Error(ErrorKind::kBadText, message, digit + " is not a Crockford base32 digit.", kAlphabetHint);
    }
    case ParseProblem::kOverflow:
      throw Error(ErrorKind::kBadText, message,
                  "Its first character is above 7: the value does not fit 128 bits (the largest ULID is "
                  "7ZZZZZZZZZZZZZZZZZZZZZZZZZ).",
                  kAlphabetHint);
    case ParseProblem::kTooLong:  // not problems of a fixed-width text
    case ParseProblem::kNoSeparator:
    case ParseProblem::kBadPrefix:
      break;
  }
  throw Error(ErrorKind::kInternal, "unexpected problem decoding ULID " + Quote(text));
}

int64_t TimeMs(const Uuid& value) { return static_cast<int64_t>(LoadBigEndian(std::span(value.bytes).first(6))); }

Uuid MinAt(int64_t unix_ms) {
  if (unix_ms < 0 || unix_ms > kMaxMs) ThrowOutOfRange();
  Uuid value;
  StoreBigEndian(static_cast<uint64_t>(unix_ms), std::span(value.bytes).first(6));
  return value;
}

Uuid Compose(uint64_t time_bits, uint64_t counter, uint64_t random) {
  Uuid value;
  const uint64_t counter_mask = (uint64_t{1} << uuidv7::kCounterBits) - 1;
  StoreBigEndian((time_bits << uuidv7::kCounterBits) | (counter & counter_mask), std::span(value.bytes).first(8));
  StoreBigEndian(random, std::span(value.bytes).subspan(8));
  return value;
}

Generated<Uuid> Next(StateWord& word, FamilyStats& stats, Clock& clock, RandomPool& pool, long owner,
                     int64_t max_regression_ms, uint64_t callers) {
  const AdvanceRules rules = uuidv7::RulesFor(max_regression_ms, callers);
  const NextWord next = Advance(word, stats, rules, [&clock] {
    const int64_t ns = clock.NowNs();
    if (ns < 0 || ns / 1000000 > kMaxMs) ThrowOutOfRange();
    return uuidv7::Ticks(ns / 1000000, ns % 1000000);
  });
  const uint64_t time_bits = next.word >> uuidv7::kCounterBits;
  const uint64_t random = pool.TakeU64(owner);
  return Generated<Uuid>{Compose(time_bits, next.word, random), time_bits,
                         next.wait_tick == 0 ? 0 : uuidv7::StepStartNs(next.wait_tick)};
}

}  // namespace idgen::ulid
