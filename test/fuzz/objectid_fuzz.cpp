// ObjectId text: exactly 24 hex digits, either case. A parse that succeeds formats back to the
// same text in lowercase; its time is the start of its second and its bound is below it.
#include <cctype>

#include "core/objectid.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = AsText(data, size);
  objectid::ObjectId id;
  if (!objectid::Parse(text, id)) return 0;
  FUZZ_CHECK(text.size() == 24);
  char out[24];
  objectid::Format(id, out);
  for (size_t i = 0; i < 24; ++i) FUZZ_CHECK(out[i] == std::tolower(static_cast<unsigned char>(text[i])));
  const int64_t us = objectid::TimeUs(id);
  FUZZ_CHECK(us % 1000000 == 0);
  FUZZ_CHECK(objectid::MinAt(us) <= id);
  return 0;
}

}  // namespace idgen
