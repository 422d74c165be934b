// Nanosecond-ID text: the first byte picks random_bits (0..64) and whether the alphabet is the
// default base36 or given by the next bytes (up to a '|'). A parse that succeeds formats back to
// text that parses to the same value, and its time fits 63 bits.
#include "core/error.hpp"
#include "core/ns_id.hpp"
#include "fuzz.hpp"

namespace idgen {

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int random_bits = data[0] % 65;
  std::string_view rest = AsText(data + 1, size - 1);
  std::string_view digits = ns_id::kDefaultAlphabet;
  if (data[0] & 0x80) {
    const size_t bar = rest.find('|');
    if (bar == std::string_view::npos) return 0;
    digits = rest.substr(0, bar);
    rest = rest.substr(bar + 1);
  }
  ns_id::Alphabet alphabet;
  try {
    alphabet = ns_id::MakeAlphabet(digits);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kBadArgument);
    return 0;
  }
  ns_id::Value value = 0;
  const ParseProblem problem = ns_id::Parse(rest, random_bits, alphabet, value);
  try {
    const int64_t ns = ns_id::TimeNs(rest, random_bits, alphabet);
    FUZZ_CHECK(problem == ParseProblem::kNone && ns >= 0 && static_cast<ns_id::Value>(ns) == value >> random_bits);
  } catch (const Error&) {
    FUZZ_CHECK(problem != ParseProblem::kNone);
  }
  if (problem != ParseProblem::kNone) return 0;
  const ns_id::Text text = ns_id::Format(value, random_bits, alphabet);
  ns_id::Value back = 0;
  FUZZ_CHECK(ns_id::Parse(text.view(), random_bits, alphabet, back) == ParseProblem::kNone);
  FUZZ_CHECK(back == value);
  return 0;
}

}  // namespace idgen
