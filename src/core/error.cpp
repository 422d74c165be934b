#include "core/error.hpp"

namespace idgen {

std::string Quote(std::string_view text) {
  constexpr size_t kMax = 100;
  if (text.size() <= kMax) return "\"" + std::string(text) + "\"";
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return "\"" + std::string(text.substr(0, cut)) + "...\"";
}

}  // namespace idgen
