#include "core/error.hpp"

namespace idgen {

namespace {

int Utf8Length(const unsigned char* s) {
  if (*s < 0x80) return 1;
  if ((*s & 0xE0) == 0xC0) return 2;
  if ((*s & 0xF0) == 0xE0) return 3;
  if ((*s & 0xF8) == 0xF0) return 4;
  return 1;
}

CharLength char_length = Utf8Length;

}  // namespace

void SetCharLength(CharLength length) noexcept { char_length = length != nullptr ? length : Utf8Length; }

std::string Quote(std::string_view text) {
  constexpr size_t kMax = 100;
  if (text.size() <= kMax) return "\"" + std::string(text) + "\"";
  size_t cut = 0;  // the longest prefix of whole characters within kMax bytes
  for (;;) {
    const int length = char_length(reinterpret_cast<const unsigned char*>(text.data() + cut));
    const size_t next = cut + static_cast<size_t>(length > 0 ? length : 1);
    if (next > kMax) break;
    cut = next;
  }
  return "\"" + std::string(text.substr(0, cut)) + "...\"";
}

}  // namespace idgen
