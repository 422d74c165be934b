// ULID text: a parse never crashes; one that succeeds formats back to the canonical uppercase text
// that parses to the same 128 bits; the throwing parser agrees with the non-throwing one; any 16
// bytes format to a ULID that parses back to them (decode(encode(x)) == x), and MinAt of a ULID's
// millisecond is at or below it.
#include <cstring>

#include "core/error.hpp"
#include "core/ulid.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = AsText(data, size);
  Uuid parsed;
  const ParseProblem problem = ulid::Parse(text, parsed);
  bool threw = false;
  try {
    FUZZ_CHECK(ulid::ParseOrThrow(text) == parsed);
  } catch (const Error& e) {
    threw = true;
    FUZZ_CHECK(e.kind() == ErrorKind::kBadText);
    FUZZ_CHECK(Quote(text).size() <= 100 + 5);
  }
  FUZZ_CHECK(threw == (problem != ParseProblem::kNone));
  if (problem == ParseProblem::kNone) {
    FUZZ_CHECK(text.size() == ulid::kLength);
    const auto formatted = ulid::Format(parsed);
    Uuid back;
    FUZZ_CHECK(ulid::Parse(formatted.view(), back) == ParseProblem::kNone && back == parsed);
    for (size_t i = 0; i < ulid::kLength; ++i) {  // canonical: the same digit, uppercase, no alias
      const char c = text[i];
      const char want = (c == 'i' || c == 'I' || c == 'l' || c == 'L') ? '1'
                        : (c == 'o' || c == 'O')                       ? '0'
                        : (c >= 'a' && c <= 'z')                       ? static_cast<char>(c - 'a' + 'A')
                                                                       : c;
      FUZZ_CHECK(formatted.data[i] == want);
    }
  }
  // Any 16 bytes: encode, then decode.
  if (size >= 16) {
    Uuid x;
    std::memcpy(x.bytes.data(), data, 16);
    const auto formatted = ulid::Format(x);
    FUZZ_CHECK(formatted.size == ulid::kLength && formatted.data[0] <= '7');
    Uuid back;
    FUZZ_CHECK(ulid::Parse(formatted.view(), back) == ParseProblem::kNone && back == x);
    FUZZ_CHECK(ulid::MinAt(ulid::TimeMs(x)) <= x);
  }
  return 0;
}

}  // namespace idgen
