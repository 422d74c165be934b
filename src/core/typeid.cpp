#include "core/typeid.hpp"

#include <algorithm>
#include <cstring>
#include <string>

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
  std::memcpy(text.data, prefix.data(), prefix.size());
  text.data[prefix.size()] = '_';
  const size_t body = encoding == Encoding::kBase36 ? kBase36Body : kBase32Body;
  codec::Encode(id.bytes, BaseOf(encoding), std::span<char>(text.data + prefix.size() + 1, body));
  text.size = prefix.size() + 1 + body;
  return text;
}

ParseProblem Parse(std::string_view text, Parsed& out) {
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
  if (body.size() == kBase36Body) {
    out.encoding = Encoding::kBase36;
  } else if (body.size() == kBase32Body) {
    out.encoding = Encoding::kBase32;
  } else {
    return ParseProblem::kBadLength;
  }
  switch (codec::Decode(body, BaseOf(out.encoding), out.id.bytes)) {
    case ParseProblem::kNone:
      return ParseProblem::kNone;
    case ParseProblem::kOverflow:
      return ParseProblem::kOverflow;
    default:
      return ParseProblem::kBadDigit;
  }
}

Parsed ParseOrThrow(std::string_view text) {
  Parsed parsed{};
  const ParseProblem problem = Parse(text, parsed);
  if (problem == ParseProblem::kNone) return parsed;
  const std::string message = "invalid typeid " + Quote(text);
  const char* format = "A typeid is a prefix, \"_\", and a body of 25 base36 or 26 base32 characters.";
  switch (problem) {
    case ParseProblem::kEmpty:
      throw Error(ErrorKind::kBadText, message, "The text is empty.", format);
    case ParseProblem::kNoSeparator:
      throw Error(ErrorKind::kBadText, message, "There is no \"_\" between a prefix and a body.", format);
    case ParseProblem::kBadPrefix:
      throw Error(ErrorKind::kBadText, message, "Its prefix " + Quote(parsed.prefix) + " is not a valid prefix.",
                  kPrefixRule);
    case ParseProblem::kBadLength:
      throw Error(ErrorKind::kBadText, message,
                  "Its body has " + std::to_string(text.size() - parsed.prefix.size() - 1) +
                      " characters, not 25 (base36) or 26 (base32).",
                  format);
    case ParseProblem::kBadDigit:
      throw Error(ErrorKind::kBadText, message,
                  parsed.encoding == Encoding::kBase36
                      ? "Its body has a character that is not a base36 digit (0-9, a-z)."
                      : "Its body has a character that is not a lowercase base32 digit of the TypeID spec.",
                  format);
    case ParseProblem::kOverflow:
      throw Error(ErrorKind::kNumericOutOfRange, message, "Its body is larger than 128 bits.", format);
    case ParseProblem::kNone:
      return parsed;
    case ParseProblem::kTooLong:  // a long body is kBadLength
      break;
  }
  throw Error(ErrorKind::kInternal, "unexpected problem parsing " + message);
}

Parsed ParseExpecting(std::string_view text, std::string_view expected_prefix) {
  Parsed parsed = ParseOrThrow(text);
  if (parsed.prefix != expected_prefix) {
    throw Error(ErrorKind::kBadText, "typeid " + Quote(text) + " is not a " + Quote(expected_prefix) + " ID",
                "Its prefix is " + Quote(parsed.prefix) + ".");
  }
  return parsed;
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

}  // namespace idgen::type_id
