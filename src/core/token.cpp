#include "core/token.hpp"

#include <cstring>

#include "core/codec.hpp"

namespace idgen::token {

Text Message(std::string_view prefix, const uint8_t (&random)[kRandomBytes]) {
  type_id::CheckPrefix(prefix);
  Text text{};
  std::memcpy(text.data, prefix.data(), prefix.size());
  text.data[prefix.size()] = '_';
  codec::Encode(random, codec::Base::k62, std::span<char>(text.data + prefix.size() + 1, kPartDigits));
  text.size = prefix.size() + 1 + kPartDigits;
  return text;
}

Text Sign(const Text& message, const uint8_t (&tag)[kTagBytes]) {
  Text text = message;
  codec::Encode(tag, codec::Base::k62, std::span<char>(text.data + text.size, kPartDigits));
  text.size += kPartDigits;
  return text;
}

bool Split(std::string_view token, std::string_view& message, uint8_t (&tag)[kTagBytes]) {
  if (token.size() < 2 + 2 * kPartDigits || token.size() > kMaxText) return false;
  message = token.substr(0, token.size() - kPartDigits);
  const std::string_view prefix = message.substr(0, message.size() - kPartDigits - 1);
  if (message[prefix.size()] != '_' || !type_id::ValidPrefix(prefix)) return false;
  uint8_t random[kRandomBytes];
  return codec::Decode(message.substr(prefix.size() + 1), codec::Base::k62, random) == ParseProblem::kNone &&
         codec::Decode(token.substr(message.size()), codec::Base::k62, tag) == ParseProblem::kNone;
}

}  // namespace idgen::token
