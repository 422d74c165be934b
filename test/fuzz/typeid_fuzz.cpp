// typeid text in both encodings: a parse that succeeds formats back to text that parses to the
// same prefix and UUID, and is the text itself (both encodings lowercase only: one text per ID);
// the throwing parser agrees with the non-throwing one and throws kBadText (22P02) only; an
// ordered body decodes to a time inside its millisecond.
#include "core/error.hpp"
#include "core/typeid.hpp"
#include "core/uuidv7.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = AsText(data, size);
  type_id::Parsed parsed{};
  const ParseProblem problem = type_id::Parse(text, parsed);
  bool threw = false;
  try {
    const type_id::Parsed again = type_id::ParseOrThrow(text);
    FUZZ_CHECK(again.id == parsed.id);
  } catch (const Error& e) {
    threw = true;
    FUZZ_CHECK(e.kind() == ErrorKind::kBadText);
    FUZZ_CHECK(Quote(text).size() <= 100 + 5);
  }
  FUZZ_CHECK(threw == (problem != ParseProblem::kNone));
  if (problem != ParseProblem::kNone) return 0;

  FUZZ_CHECK(parsed.prefix.empty() || type_id::ValidPrefix(parsed.prefix));
  type_id::CheckFormat(parsed.prefix, parsed.encoding);  // what any reader reads, a writer writes
  const type_id::Text formatted = type_id::Format(parsed.prefix, parsed.id, parsed.encoding);
  FUZZ_CHECK(formatted.view() == text);
  type_id::Parsed back{};
  FUZZ_CHECK(type_id::Parse(formatted.view(), back) == ParseProblem::kNone);
  FUZZ_CHECK(back.prefix == parsed.prefix && back.id == parsed.id && back.encoding == parsed.encoding);
  if (parsed.id.version() == 7 && parsed.id.rfc_variant()) {
    const int64_t us = uuidv7::TimeUs(parsed.id);
    FUZZ_CHECK(static_cast<uint64_t>(us / 1000) == uuidv7::TimeBits(parsed.id) >> uuidv7::kFractionBits);
    FUZZ_CHECK(uuidv7::MinAt(us) <= parsed.id);
  }
  return 0;
}

}  // namespace idgen
