// base16/32/36/62 text, and base32hex (first byte 0xF_): the first byte picks the base and the width (a bigint of 8
// bytes, a uuid of 16, the codec's largest of 32). A decode that succeeds encodes back, at the width, to text that
// decodes to the same bytes; the shortest form of a bigint decodes to the same bigint.
#include <cctype>
#include <cstring>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "fuzz.hpp"

namespace idgen {

// base32hex: a text that decodes encodes back to itself (upper case, without the padding), and
// the OrThrow form agrees.
void Base32Hex(std::string_view text, size_t nbytes) {
  uint8_t out[32] = {};
  const ParseProblem status = codec::Base32HexDecode(text, std::span<uint8_t>(out, nbytes));
  try {
    uint8_t again[32] = {};
    codec::Base32HexDecodeOrThrow(text, std::span<uint8_t>(again, nbytes), "target");
    FUZZ_CHECK(status == ParseProblem::kNone && std::memcmp(again, out, nbytes) == 0);
  } catch (const Error&) {
    FUZZ_CHECK(status != ParseProblem::kNone);
  }
  if (status != ParseProblem::kNone) return;
  char encoded[64];
  const size_t width = codec::Base32HexWidth(nbytes);
  codec::Base32HexEncode(std::span<const uint8_t>(out, nbytes), std::span<char>(encoded, width));
  // The digits read are the digits written, up to case; around them only spaces and padding.
  size_t at = 0;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '=') continue;
    FUZZ_CHECK(at < width && encoded[at] == static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    ++at;
  }
  FUZZ_CHECK(at == width);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  if ((data[0] >> 4) == 0xF) {  // a sixteenth of the inputs: base32hex of 8, 16 or 32 bytes
    Base32Hex(AsText(data + 1, size - 1), (data[0] & 3) == 0 ? 8 : (data[0] & 3) == 1 ? 16 : 32);
    return 0;
  }
  const auto base = static_cast<codec::Base>(data[0] & 3);
  const size_t nbytes = (data[0] >> 2) % 3 == 0 ? 8 : (data[0] >> 2) % 3 == 1 ? 16 : 32;
  const std::string_view text = AsText(data + 1, size - 1);
  uint8_t out[32] = {};
  char bad = 0;
  const ParseProblem status = codec::Decode(text, base, std::span<uint8_t>(out, nbytes), &bad);
  try {
    uint8_t again[32] = {};
    codec::DecodeOrThrow(text, base, std::span<uint8_t>(again, nbytes), "target");
    FUZZ_CHECK(status == ParseProblem::kNone && std::memcmp(again, out, nbytes) == 0);
  } catch (const Error& e) {
    FUZZ_CHECK(status != ParseProblem::kNone);
  }
  if (nbytes == 8) {
    try {
      const int64_t value = codec::DecodeBigint(text, base);
      char digits[64];
      const size_t n = codec::EncodeBigint(value, base, digits);
      FUZZ_CHECK(codec::DecodeBigint(std::string_view(digits, n), base) == value);
    } catch (const Error&) {
    }
  }
  if (status != ParseProblem::kNone) return 0;
  char encoded[64];
  const size_t width = codec::Width(nbytes, base);
  FUZZ_CHECK(width <= sizeof encoded);
  codec::Encode(std::span<const uint8_t>(out, nbytes), base, std::span<char>(encoded, width));
  uint8_t back[32] = {};
  FUZZ_CHECK(codec::Decode(std::string_view(encoded, width), base, std::span<uint8_t>(back, nbytes)) ==
             ParseProblem::kNone);
  FUZZ_CHECK(std::memcmp(back, out, nbytes) == 0);
  return 0;
}

}  // namespace idgen
