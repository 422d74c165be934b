#include "core/ns_id.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace idgen::ns_id {

namespace {

constexpr const char* kAlphabetRule =
    "An alphabet is 2 to 64 distinct printable ASCII characters in ascending order (such as 0-9a-z), so that text "
    "order is time order.";

}  // namespace

Alphabet MakeAlphabet(std::string_view digits) {
  Alphabet a{};
  std::memset(a.value, 0xFF, sizeof a.value);
  bool ascending = digits.size() >= 2 && digits.size() <= 64;
  for (size_t i = 0; ascending && i < digits.size(); ++i) {
    const auto c = static_cast<unsigned char>(digits[i]);
    ascending = c > 0x20 && c < 0x7F && (i == 0 || c > static_cast<unsigned char>(digits[i - 1]));
  }
  if (!ascending) {
    throw Error(ErrorKind::kBadArgument, "invalid alphabet " + Quote(digits), "", kAlphabetRule);
  }
  bool has_upper = false;
  for (char c : digits) has_upper = has_upper || (c >= 'A' && c <= 'Z');
  a.radix = static_cast<unsigned>(digits.size());
  for (unsigned i = 0; i < a.radix; ++i) {
    const auto c = static_cast<unsigned char>(digits[i]);
    a.digits[i] = static_cast<char>(c);
    a.value[c] = static_cast<uint8_t>(i);
    if (!has_upper && c >= 'a' && c <= 'z') a.value[c - 'a' + 'A'] = static_cast<uint8_t>(i);
  }
  return a;
}

void CheckRandomBits(int random_bits) {
  if (random_bits < 0 || random_bits > kMaxRandomBits) {
    throw Error(ErrorKind::kBadArgument, "random_bits " + std::to_string(random_bits) + " is out of range",
                "random_bits is from 0 to 64.");
  }
}

size_t Width(int random_bits, const Alphabet& alphabet) {
  return static_cast<size_t>(std::ceil((63.0 + random_bits) / std::log2(static_cast<double>(alphabet.radix)) - 1e-9));
}

Text Format(Value value, int random_bits, const Alphabet& alphabet) {
  Text text{};
  text.size = Width(random_bits, alphabet);
  for (size_t i = text.size; i-- > 0;) {
    text.data[i] = alphabet.digits[static_cast<unsigned>(value % alphabet.radix)];
    value /= alphabet.radix;
  }
  return text;
}

ParseProblem Parse(std::string_view text, int random_bits, const Alphabet& alphabet, Value& value) {
  if (text.size() != Width(random_bits, alphabet)) return ParseProblem::kBadLength;
  const Value limit = static_cast<Value>(1) << (63 + random_bits);  // nanoseconds below 2^63
  value = 0;
  for (char c : text) {
    const uint8_t digit = alphabet.value[static_cast<unsigned char>(c)];
    if (digit == 0xFF) return ParseProblem::kBadDigit;
    if (value > (limit - 1 - digit) / alphabet.radix) return ParseProblem::kOverflow;
    value = value * alphabet.radix + digit;
  }
  return ParseProblem::kNone;
}

int64_t TimeNs(std::string_view text, int random_bits, const Alphabet& alphabet) {
  CheckRandomBits(random_bits);
  Value value = 0;
  const std::string message = "invalid ns_id " + Quote(text);
  switch (Parse(text, random_bits, alphabet, value)) {
    case ParseProblem::kNone:
      return static_cast<int64_t>(value >> random_bits);
    case ParseProblem::kBadLength:
      throw Error(ErrorKind::kBadText, message,
                  "It has " + std::to_string(text.size()) +
                      " characters; with random_bits = " + std::to_string(random_bits) +
                      " and this alphabet an ns_id has " + std::to_string(Width(random_bits, alphabet)) + ".",
                  "Decode with the random_bits and alphabet it was made with.");
    case ParseProblem::kBadDigit:
      throw Error(ErrorKind::kBadText, message, "It has a character that is not a digit of the alphabet.");
    case ParseProblem::kOverflow:
      throw Error(ErrorKind::kNumericOutOfRange, message, "Its nanoseconds do not fit 63 bits.");
    case ParseProblem::kEmpty:  // not problems of fixed-width digits: an empty text is kBadLength
    case ParseProblem::kTooLong:
    case ParseProblem::kNoSeparator:
    case ParseProblem::kBadPrefix:
      break;
  }
  throw Error(ErrorKind::kInternal, "unexpected problem decoding " + Quote(text));
}

Generated<Value> Next(StateWord& word, FamilyStats& stats, Clock& clock, RandomPool& pool, long owner, int random_bits,
                      int64_t max_regression_ms) {
  CheckRandomBits(random_bits);
  // ns_id carries on from its word through any step back of the clock, whatever its width: the
  // word is shared by every width, so a wide call that moved it back to the clock would take the
  // narrow ones with it (their uniqueness is the word's order). max_regression_ms is not used.
  (void)max_regression_ms;
  const NextWord next = Advance(word, stats, kRules, [&clock] {
    const int64_t ns = clock.NowNs();
    if (ns < 0) {
      throw Error(ErrorKind::kDatetimeOutOfRange, "timestamp out of range for ns_id",
                  "An ns_id holds times from 1970 to 2262.");
    }
    return static_cast<uint64_t>(ns);
  });
  if (next.word > static_cast<uint64_t>(INT64_MAX)) {
    throw Error(ErrorKind::kDatetimeOutOfRange, "timestamp out of range for ns_id",
                "An ns_id holds times from 1970 to 2262.");
  }
  const uint64_t random = random_bits == 0 ? 0 : pool.TakeU64(owner) >> (64 - random_bits);
  return Generated<Value>{(static_cast<Value>(next.word) << random_bits) | random, next.word,
                          static_cast<int64_t>(next.wait_tick)};
}

}  // namespace idgen::ns_id
