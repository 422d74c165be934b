// The idgen.type_id type's parsers and decoders (core/typeid.hpp). The first byte picks what the
// rest is:
//   0  text for the type's input (TypeID text only): a parse that succeeds is stored, loaded and
//      written back to the same text; a refusal has a detail and a hint
//   1  text for the cast from text (base36 too): stored and loaded back to the same prefix and UUID
//   2  stored bytes: they load only if Store writes exactly them back
//   3  the binary form: a decode that succeeds stores, loads and encodes back to the same bytes
//   4  two texts separated by a newline: the order of their stored values is the order of their
//      TypeID texts (bytes), and abbreviated keys never contradict it
#include <cstring>

#include "core/error.hpp"
#include "core/typeid.hpp"
#include "fuzz.hpp"

namespace idgen {

namespace {

using namespace type_id;

int Sign(int c) { return (c > 0) - (c < 0); }

bool Parses(std::string_view text, bool base36, Parsed& out) {
  const ParseProblem problem = ParseText(text, out, base36);
  if (problem != ParseProblem::kNone) {
    const Explanation why = Explain(text, problem, base36);
    FUZZ_CHECK(std::strlen(why.detail) > 0 && std::strlen(why.detail) < sizeof why.detail);
    FUZZ_CHECK(why.hint != nullptr && why.hint[0] != '\0');
    return false;
  }
  FUZZ_CHECK(ValidSpecPrefix(out.prefix));
  return true;
}

Value RoundTrip(std::string_view prefix, const Uuid& id) {
  const Stored stored = Store(prefix, id);
  FUZZ_CHECK(stored.size == kCompactSize || stored.size == kShortSize || stored.size == 16 + prefix.size());
  FUZZ_CHECK(prefix.size() > kPackedPrefix || stored.size <= kShortSize);
  Value value;
  FUZZ_CHECK(Load(stored.view(), value));
  FUZZ_CHECK(value.prefix_view() == prefix && value.id == id);
  FUZZ_CHECK(Compare(stored.view(), stored.view()) == 0);
  try {
    ExpectPrefix(value, prefix);
  } catch (const Error&) {
    FUZZ_CHECK(false);
  }
  return value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0] % 5;
  const std::string_view text = AsText(data + 1, size - 1);
  Parsed parsed{};
  switch (mode) {
    case 0: {
      if (!Parses(text, false, parsed)) return 0;
      const Value value = RoundTrip(parsed.prefix, parsed.id);
      FUZZ_CHECK(Format(value.prefix_view(), value.id, Encoding::kBase32).view() == text);
      return 0;
    }
    case 1: {
      if (!Parses(text, true, parsed)) return 0;
      RoundTrip(parsed.prefix, parsed.id);
      return 0;
    }
    case 2: {
      Value value;
      if (!Load({data + 1, size - 1}, value)) return 0;
      const Stored again = Store(value.prefix_view(), value.id);
      FUZZ_CHECK(again.size == size - 1 && std::memcmp(again.bytes, data + 1, again.size) == 0);
      return 0;
    }
    case 3: {
      Value value;
      if (DecodeBinary({data + 1, size - 1}, value) != ParseProblem::kNone) return 0;
      const Value back = RoundTrip(value.prefix_view(), value.id);
      const Binary binary = ToBinary(back);
      FUZZ_CHECK(binary.size == size - 1 && std::memcmp(binary.bytes, data + 1, binary.size) == 0);
      return 0;
    }
    default: {
      const size_t newline = text.find('\n');
      if (newline == std::string_view::npos) return 0;
      Parsed a{}, b{};
      if (!Parses(text.substr(0, newline), true, a) || !Parses(text.substr(newline + 1), true, b)) return 0;
      const Stored x = Store(a.prefix, a.id), y = Store(b.prefix, b.id);
      const Text tx = Format(a.prefix, a.id, Encoding::kBase32), ty = Format(b.prefix, b.id, Encoding::kBase32);
      const int order = Compare(x.view(), y.view());
      FUZZ_CHECK(order == Sign(tx.view().compare(ty.view())));
      FUZZ_CHECK(order == -Compare(y.view(), x.view()));
      AbbreviationReference reference{};
      Value vx, vy;
      FUZZ_CHECK(Load(x.view(), vx) && Load(y.view(), vy));
      const uint64_t kx = Abbreviate(vx, reference), ky = Abbreviate(vy, reference);
      if (kx < ky) FUZZ_CHECK(order < 0);
      if (kx > ky) FUZZ_CHECK(order > 0);
      return 0;
    }
  }
}

}  // namespace idgen
