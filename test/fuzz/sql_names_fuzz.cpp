// The reading of SQL for setting names (the server log's redaction of secrets): any text, well
// formed or not, is read to its end within its bytes, and a name written plainly, whole, is always
// found, whatever surrounds it.
#include <cctype>
#include <string>

#include "core/sql_names.hpp"
#include "fuzz.hpp"

namespace idgen {

constexpr std::string_view kNames[] = {"idgen.token_secret", "idgen.public_id_key"};

bool IdentByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || c == '$' || u >= 0x80;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool standard_strings = (data[0] & 1) != 0;
  const std::string_view text = AsText(data + 1, size - 1);
  const bool found = sql_names::NamesAny(text, kNames, standard_strings);
  // Written plainly (any case), between bytes that are no part of a name: found.
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const std::string_view name : kNames) {
    for (size_t at = lower.find(name); at != std::string::npos; at = lower.find(name, at + 1)) {
      const bool starts = at == 0 || !IdentByte(lower[at - 1]);
      const bool ends = at + name.size() == lower.size() || !IdentByte(lower[at + name.size()]);
      if (starts && ends) FUZZ_CHECK(found);
    }
  }
  return 0;
}

}  // namespace idgen
