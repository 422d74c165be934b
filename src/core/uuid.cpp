#include "core/uuid.hpp"

namespace idgen {

std::string ToString(const Uuid& id) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(36);
  for (size_t i = 0; i < id.bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kHex[id.bytes[i] >> 4];
    text += kHex[id.bytes[i] & 0xF];
  }
  return text;
}

}  // namespace idgen
