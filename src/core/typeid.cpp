#include "core/typeid.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/bytes.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/uuidv7.hpp"

namespace idgen::type_id {

namespace {

constexpr bool IsLower(char c) { return c >= 'a' && c <= 'z'; }

codec::Base BaseOf(Encoding encoding) { return encoding == Encoding::kBase36 ? codec::Base::k36 : codec::Base::k32; }

}  // namespace

bool ValidPrefix(std::string_view prefix) {
  if (prefix.empty() || prefix.size() > kMaxPrefix) return false;
  if (!IsLower(prefix.front()) || !IsLower(prefix.back())) return false;
  return std::all_of(prefix.begin(), prefix.end(), [](char c) { return IsLower(c) || c == '_'; });
}

void CheckPrefix(std::string_view prefix) {
  if (!ValidPrefix(prefix)) {
    throw Error(ErrorKind::kBadArgument, "invalid typeid prefix " + Quote(prefix), "", kPrefixRule);
  }
}

void CheckFormat(std::string_view prefix, Encoding encoding) {
  if (!prefix.empty()) return CheckPrefix(prefix);
  if (encoding == Encoding::kBase36) {
    // A bare base36 body would be 25 characters, which no reader takes for a typeid.
    throw Error(ErrorKind::kBadArgument, "a typeid with the empty prefix has no base36 form",
                "Its text is the spec's bare body of 26 base32 characters (encoding => 'base32').");
  }
}

Encoding EncodingNamed(std::string_view name) {
  if (name == "base36") return Encoding::kBase36;
  if (name == "base32") return Encoding::kBase32;
  throw Error(ErrorKind::kBadArgument, "unknown typeid encoding " + Quote(name), "",
              "Use 'base36' (idgen's form, 25 characters) or 'base32' (the TypeID spec's, 26 characters).");
}

Uuid RandomBody(RandomPool& pool, long owner) {
  Uuid id;
  pool.Take(id.bytes.data(), id.bytes.size(), owner);
  id.bytes[6] = static_cast<uint8_t>(0x40 | (id.bytes[6] & 0x0F));
  id.bytes[8] = static_cast<uint8_t>(0x80 | (id.bytes[8] & 0x3F));
  return id;
}

Text Format(std::string_view prefix, const Uuid& id, Encoding encoding) {
  Text text{};
  size_t at = 0;
  if (!prefix.empty()) {
    std::memcpy(text.data, prefix.data(), prefix.size());
    text.data[prefix.size()] = '_';
    at = prefix.size() + 1;
  }
  const size_t body = encoding == Encoding::kBase36 ? kBase36Body : kBase32Body;
  codec::Encode(id.bytes, BaseOf(encoding), std::span<char>(text.data + at, body));
  text.size = at + body;
  return text;
}

ParseProblem ParseBody(std::string_view body, Encoding& encoding, Uuid& id) noexcept {
  if (body.size() == kBase36Body) {
    encoding = Encoding::kBase36;
  } else if (body.size() == kBase32Body) {
    encoding = Encoding::kBase32;
  } else {
    return ParseProblem::kBadLength;
  }
  // Lowercase only, in both encodings: codec's base36 reads either case, and a text key checked by
  // typeid_is_valid would then hold one ID under several spellings.
  if (std::any_of(body.begin(), body.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
    return ParseProblem::kBadDigit;
  }
  switch (codec::Decode(body, BaseOf(encoding), id.bytes)) {
    case ParseProblem::kNone:
      return ParseProblem::kNone;
    case ParseProblem::kOverflow:
      return ParseProblem::kOverflow;
    default:
      return ParseProblem::kBadDigit;
  }
}

ParseProblem Parse(std::string_view text, Parsed& out) noexcept {
  if (text.empty()) return ParseProblem::kEmpty;
  const size_t separator = text.rfind('_');
  std::string_view body;
  if (separator == std::string_view::npos) {
    if (text.size() != kBase32Body) return ParseProblem::kNoSeparator;
    out.prefix = {};
    body = text;
  } else {
    out.prefix = text.substr(0, separator);
    body = text.substr(separator + 1);
    if (!ValidPrefix(out.prefix)) return ParseProblem::kBadPrefix;
  }
  return ParseBody(body, out.encoding, out.id);
}

Parsed ParseOrThrow(std::string_view text) {
  Parsed parsed{};
  const ParseProblem problem = Parse(text, parsed);
  if (problem == ParseProblem::kNone) return parsed;
  // The type's explanation, so that the text functions and the type say the same of the same text.
  const Explanation why = Explain(text, problem, true);
  throw Error(ErrorKind::kBadText, "invalid typeid " + Quote(text), why.detail, why.hint);
}

Parsed ParseExpecting(std::string_view text, std::string_view expected_prefix) {
  Parsed parsed = ParseOrThrow(text);
  if (parsed.prefix != expected_prefix) ThrowNotOfPrefix(text, parsed.prefix, expected_prefix);
  return parsed;
}

void ThrowNotOfPrefix(std::string_view text, std::string_view prefix, std::string_view expected_prefix) {
  throw Error(ErrorKind::kBadText, "typeid " + Quote(text) + " is not a " + Quote(expected_prefix) + " ID",
              "Its prefix is " + Quote(prefix) + ".");
}

int64_t TimeUs(std::string_view text) {
  const Parsed parsed = ParseOrThrow(text);
  if (parsed.id.version() != 7) {
    throw Error(ErrorKind::kBadArgument, "typeid " + Quote(text) + " holds no time",
                "Its body is a version " + std::to_string(parsed.id.version()) +
                    " UUID; only ordered typeids (UUIDv7 bodies) hold a time.");
  }
  return uuidv7::TimeUs(parsed.id);
}

// ---- the idgen.type_id type -----------------------------------------------------------------------

bool ValidSpecPrefix(std::string_view prefix) noexcept { return prefix.empty() || ValidPrefix(prefix); }

namespace {

constexpr uint64_t kRadix = 28;  // end, '_', 'a'..'z'
constexpr uint64_t kMask42 = (uint64_t{1} << 42) - 1;
constexpr uint64_t kMask62 = (uint64_t{1} << 62) - 1;

constexpr uint64_t Symbol(char c) { return c == '_' ? 1 : static_cast<uint64_t>(c - 'a') + 2; }

// The prefix number of a prefix of at most 12 characters.
uint64_t PrefixNumber(std::string_view prefix) {
  uint64_t number = 0;
  for (size_t i = 0; i < kPackedPrefix; ++i) number = number * kRadix + (i < prefix.size() ? Symbol(prefix[i]) : 0);
  return number;
}

// The prefix of a prefix number; false unless Store could have written it (an end symbol only
// after the last character, a valid prefix).
bool PrefixOfNumber(uint64_t number, Value& out) {
  char symbols[kPackedPrefix];
  for (size_t i = kPackedPrefix; i-- > 0;) {
    symbols[i] = static_cast<char>(number % kRadix);
    number /= kRadix;
  }
  if (number != 0) return false;
  size_t size = 0;
  while (size < kPackedPrefix && symbols[size] != 0) ++size;
  for (size_t i = size; i < kPackedPrefix; ++i) {
    if (symbols[i] != 0) return false;
  }
  for (size_t i = 0; i < size; ++i) out.prefix[i] = symbols[i] == 1 ? '_' : static_cast<char>('a' + symbols[i] - 2);
  out.prefix_size = size;
  return ValidSpecPrefix(out.prefix_view());
}

// Big-endian 64-bit words at any byte offset.
uint64_t Load64(const uint8_t* bytes) {
  uint64_t word;
  std::memcpy(&word, bytes, 8);
  return __builtin_bswap64(word);
}

void Store64(uint64_t word, uint8_t* bytes) {
  word = __builtin_bswap64(word);
  std::memcpy(bytes, &word, 8);
}

bool Compactable(const Uuid& id) { return id.rfc_variant() && (id.version() == 4 || id.version() == 7); }

}  // namespace

Stored Store(std::string_view prefix, const Uuid& id) noexcept {
  Stored out;
  if (prefix.size() > kPackedPrefix) {
    std::memcpy(out.bytes, prefix.data(), prefix.size());
    std::memcpy(out.bytes + prefix.size(), id.bytes.data(), 16);
    out.size = prefix.size() + 16;
    return out;
  }
  const uint64_t number = PrefixNumber(prefix);
  if (!Compactable(id)) {
    Store64(number, out.bytes);
    std::memcpy(out.bytes + 8, id.bytes.data(), 16);
    out.size = kShortSize;
    return out;
  }
  // 58 bits of prefix, 48 of time, the version bit, 12 of rand_a, 62 of rand_b, 3 zero bits: a
  // word of 64 bits, one of 56 (bytes 8 to 14), one of 64 (bytes 15 to 22).
  const uint64_t high = Load64(id.bytes.data()), low = Load64(id.bytes.data() + 8);
  const uint64_t time = high >> 16;
  const uint64_t v7 = id.version() == 7 ? 1 : 0;
  const uint64_t rand_a = high & 0xFFF;
  const uint64_t rand_b = low & kMask62;
  const uint64_t middle = (time & kMask42) << 14 | v7 << 13 | rand_a << 1 | rand_b >> 61;
  Store64(number << 6 | time >> 42, out.bytes);
  Store64(middle << 8, out.bytes + 8);  // its 7 bytes; the 8th is overwritten next
  Store64(rand_b << 3, out.bytes + 15);
  out.size = kCompactSize;
  return out;
}

bool Load(std::span<const uint8_t> stored, Value& out) noexcept {
  if (stored.size() == kCompactSize) {
    const uint64_t head = Load64(stored.data());
    const uint64_t middle = Load64(stored.data() + 7) & ((uint64_t{1} << 56) - 1);
    const uint64_t tail = Load64(stored.data() + 15);
    if ((tail & 7) != 0 || !PrefixOfNumber(head >> 6, out)) return false;
    const uint64_t time = (head & 0x3F) << 42 | middle >> 14;
    const uint64_t version = (middle >> 13 & 1) != 0 ? 7 : 4;
    const uint64_t rand_a = middle >> 1 & 0xFFF;
    const uint64_t rand_b = (middle & 1) << 61 | tail >> 3;
    Store64(time << 16 | version << 12 | rand_a, out.id.bytes.data());
    Store64(uint64_t{2} << 62 | rand_b, out.id.bytes.data() + 8);
    return true;
  }
  if (stored.size() == kShortSize) {
    std::memcpy(out.id.bytes.data(), stored.data() + 8, 16);
    return PrefixOfNumber(Load64(stored.data()), out) && !Compactable(out.id);
  }
  if (stored.size() <= kPackedPrefix + 16 || stored.size() > kMaxStored) return false;
  out.prefix_size = stored.size() - 16;
  std::memcpy(out.prefix, stored.data(), out.prefix_size);
  std::memcpy(out.id.bytes.data(), stored.data() + out.prefix_size, 16);
  return ValidPrefix(out.prefix_view());
}

int ComparePrefixes(std::string_view a, std::string_view b) noexcept {
  const int c = a.compare(b);
  return (c > 0) - (c < 0);
}

int Compare(std::span<const uint8_t> a, std::span<const uint8_t> b) noexcept {
  if (a.size() == b.size() && (a.size() == kCompactSize || a.size() == kShortSize)) {
    const int c = std::memcmp(a.data(), b.data(), a.size());
    return (c > 0) - (c < 0);
  }
  Value x, y;
  if (!Load(a, x) || !Load(b, y)) {
    const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
    if (c != 0) return (c > 0) - (c < 0);
    return (a.size() > b.size()) - (a.size() < b.size());
  }
  if (const int c = ComparePrefixes(x.prefix_view(), y.prefix_view()); c != 0) return c;
  const int c = std::memcmp(x.id.bytes.data(), y.id.bytes.data(), 16);
  return (c > 0) - (c < 0);
}

Binary ToBinary(const Value& value) noexcept {
  Binary out{};
  std::memcpy(out.bytes, value.id.bytes.data(), 16);
  std::memcpy(out.bytes + 16, value.prefix, value.prefix_size);
  out.size = 16 + value.prefix_size;
  return out;
}

ParseProblem DecodeBinary(std::span<const uint8_t> bytes, Value& out) noexcept {
  if (bytes.size() < 16 || bytes.size() > kMaxStored) return ParseProblem::kBadLength;
  std::memcpy(out.id.bytes.data(), bytes.data(), 16);
  out.prefix_size = bytes.size() - 16;
  std::memcpy(out.prefix, bytes.data() + 16, out.prefix_size);
  return ValidSpecPrefix(out.prefix_view()) ? ParseProblem::kNone : ParseProblem::kBadPrefix;
}

ParseProblem ParseText(std::string_view text, Parsed& out, bool accept_base36) noexcept {
  const ParseProblem problem = Parse(text, out);
  switch (problem) {
    case ParseProblem::kNone:
    case ParseProblem::kBadDigit:
    case ParseProblem::kOverflow:  // a body of 25 or 26 characters: out.encoding is its encoding
      return !accept_base36 && out.encoding == Encoding::kBase36 ? ParseProblem::kBadLength : problem;
    default:
      return problem;
  }
}

namespace {

constexpr const char* kTextHint =
    "A typeid is a lowercase prefix, \"_\", and 26 base32 digits (0-9 and a-z without i, l, o, u), the first "
    "0 to 7, such as user_01h455vb4pex5vsknk084sn02q.";
constexpr const char* kTextOrBase36Hint =
    "A typeid is a lowercase prefix, \"_\", and 26 base32 digits (0-9 and a-z without i, l, o, u), the first "
    "0 to 7, such as user_01h455vb4pex5vsknk084sn02q, or idgen's form with 25 base36 digits.";
constexpr const char* kBase36Hint =
    "idgen's base36 form (25 digits) is read by the cast from text, as in ALTER TABLE ... USING id::idgen.type_id "
    "on a text column, or '...'::text::idgen.type_id; a TypeID has 26.";

bool HasUpper(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

}  // namespace

Explanation Explain(std::string_view text, ParseProblem problem, bool accept_base36) noexcept {
  Explanation out{{}, accept_base36 ? kTextOrBase36Hint : kTextHint};
  const size_t separator = text.rfind('_');
  const std::string_view prefix = separator == std::string_view::npos ? std::string_view{} : text.substr(0, separator);
  const std::string_view body = separator == std::string_view::npos ? text : text.substr(separator + 1);
  const char* detail = "";
  switch (problem) {
    case ParseProblem::kEmpty:
      detail = "The text is empty.";
      break;
    case ParseProblem::kNoSeparator:
      detail = "There is no \"_\" after a prefix, and the text is not a bare body of 26 characters.";
      break;
    case ParseProblem::kBadPrefix:
      if (prefix.empty()) {
        detail = "It has a \"_\" but no prefix: a typeid with an empty prefix is its bare body.";
      } else if (prefix.size() > kMaxPrefix) {
        std::snprintf(out.detail, sizeof out.detail, "Its prefix has %zu characters, more than %zu.", prefix.size(),
                      kMaxPrefix);
      } else if (HasUpper(prefix)) {
        detail = "Its prefix has upper-case letters: a prefix is lowercase.";
      } else {
        detail = "Its prefix is not 1 to 63 of a-z and \"_\", starting and ending with a letter.";
      }
      break;
    case ParseProblem::kBadLength:
      if (accept_base36) {
        std::snprintf(out.detail, sizeof out.detail,
                      "Its body has %zu characters, not 26 (TypeID's base32) or 25 (idgen's base36).", body.size());
      } else {
        std::snprintf(out.detail, sizeof out.detail, "Its body has %zu characters, not 26.", body.size());
        if (body.size() == kBase36Body) out.hint = kBase36Hint;
      }
      break;
    case ParseProblem::kBadDigit:
      detail = HasUpper(body) ? "Its body has upper-case letters: a typeid is lowercase."
               : body.size() == kBase32Body
                   ? "Its body has a character outside TypeID's base32 alphabet (0-9 and a-z without i, l, o, u)."
                   : "Its body has a character that is not a base36 digit (0-9, a-z).";
      break;
    case ParseProblem::kOverflow:
      detail = body.size() == kBase32Body ? "Its body starts with a digit above 7: it would need more than 128 bits."
                                          : "Its body is larger than 128 bits.";
      break;
    case ParseProblem::kNone:
    case ParseProblem::kTooLong:
      break;
  }
  if (out.detail[0] == '\0') std::snprintf(out.detail, sizeof out.detail, "%s", detail);
  if (problem == ParseProblem::kBadPrefix && !prefix.empty()) out.hint = kPrefixRule;
  return out;
}

namespace {

std::string QuotedPrefix(std::string_view prefix) { return prefix.empty() ? "the empty prefix" : Quote(prefix); }

}  // namespace

void ExpectPrefix(const Value& value, std::string_view expected) {
  if (value.prefix_view() == expected) return;
  const std::string text(Format(value.prefix_view(), value.id, Encoding::kBase32).view());
  throw Error(ErrorKind::kBadText,
              "typeid " + Quote(text) + " has " + (value.prefix_size == 0 ? "" : "prefix ") +
                  QuotedPrefix(value.prefix_view()) + ", not " + QuotedPrefix(expected),
              "This column holds " +
                  (expected.empty() ? std::string("IDs without a prefix") : Quote(expected) + " IDs") + " only.",
              "Make one with idgen.type_id_generate('" + std::string(expected) +
                  "'), or from a UUID with idgen.type_id_from_uuid('" + std::string(expected) + "', id).");
}

int64_t TimeUs(const Value& value) {
  if (value.id.version() != 7 || !value.id.rfc_variant()) {
    const std::string text(Format(value.prefix_view(), value.id, Encoding::kBase32).view());
    throw Error(ErrorKind::kBadArgument, "typeid " + Quote(text) + " holds no time",
                "Its body is a version " + std::to_string(value.id.version()) +
                    " UUID; only ordered typeids (UUIDv7 bodies) hold a time.");
  }
  return uuidv7::TimeUs(value.id);
}

uint64_t Abbreviate(const Value& value, AbbreviationReference& reference) noexcept {
  if (!reference.set) {
    std::memcpy(reference.prefix, value.prefix, value.prefix_size);
    reference.prefix_size = value.prefix_size;
    reference.set = true;
  }
  const int order = ComparePrefixes(value.prefix_view(), {reference.prefix, reference.prefix_size});
  if (order != 0) return order < 0 ? 0 : uint64_t{2} << 62;
  return uint64_t{1} << 62 | LoadBigEndian(std::span<const uint8_t>(value.id.bytes.data(), 8)) >> 2;
}

}  // namespace idgen::type_id
