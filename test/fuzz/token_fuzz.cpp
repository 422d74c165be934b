// Signed-token shape: "<prefix>_<43 base62><43 base62>". A split that succeeds signs back, from its
// message and tag, to the same token.
#include <cstring>

#include "core/token.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = AsText(data, size);
  std::string_view message;
  uint8_t tag[token::kTagBytes];
  if (!token::Split(text, message, tag)) return 0;
  FUZZ_CHECK(message.size() < text.size() && text.substr(0, message.size()) == message);
  token::Text m{};
  std::memcpy(m.data, message.data(), message.size());
  m.size = message.size();
  const token::Text signed_again = token::Sign(m, tag);
  FUZZ_CHECK(signed_again.view() == text);
  return 0;
}

}  // namespace idgen
