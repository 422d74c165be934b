// Public UUIDs: the key's text, the façade of a UUIDv7 and its reading, and typeids. The first byte
// picks the part. Key text that parses writes back to the same keys; whatever a ring reads as a
// UUIDv7 shows back as the façade it was, under either mapping; a typeid keeps its prefix and
// encoding both ways. Nothing throws but the documented kinds.
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/public_uuid.hpp"
#include "core/typeid.hpp"
#include "fuzz.hpp"

namespace idgen {

namespace {

std::string KeyText(const public_uuid::KeySpec& spec) {
  static const char* hex = "0123456789abcdef";
  std::string out = spec.mapping == public_uuid::Mapping::kOpaque ? "opaque:" : "";
  for (const uint64_t half : {spec.key.k0, spec.key.k1}) {
    for (int b = 0; b < 8; ++b) {
      const auto byte = static_cast<uint8_t>(half >> (8 * b));
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
  }
  return out;
}

void KeyTextPart(std::string_view text) {
  public_uuid::KeyRing ring;
  const public_uuid::KeyParse parse = public_uuid::ParseKeys(text, ring);
  FUZZ_CHECK(public_uuid::Explain(parse.problem) != nullptr);
  if (parse.problem != public_uuid::KeyProblem::kNone) {
    FUZZ_CHECK(ring.count == 0 && parse.key >= 0 && parse.key <= public_uuid::kMaxKeys);
    return;
  }
  FUZZ_CHECK(ring.count >= 1 && ring.count <= public_uuid::kMaxKeys);
  std::string again;
  for (int i = 0; i < ring.count; ++i) again += (i == 0 ? "" : "\n") + KeyText(ring.keys[i]);
  public_uuid::KeyRing back;
  FUZZ_CHECK(public_uuid::ParseKeys(again, back).problem == public_uuid::KeyProblem::kNone);
  FUZZ_CHECK(back.count == ring.count);
  for (int i = 0; i < ring.count; ++i) {
    FUZZ_CHECK(back.keys[i].key.k0 == ring.keys[i].key.k0 && back.keys[i].key.k1 == ring.keys[i].key.k1 &&
               back.keys[i].mapping == ring.keys[i].mapping);
  }
}

void UuidPart(const uint8_t* data, size_t size) {
  if (size < 33) return;
  public_uuid::KeySpec key{};
  std::memcpy(&key.key.k0, data, 8);
  std::memcpy(&key.key.k1, data + 8, 8);
  key.mapping = (data[32] & 1) != 0 ? public_uuid::Mapping::kOpaque : public_uuid::Mapping::kUuidv47;
  Uuid id;
  std::memcpy(id.bytes.data(), data + 16, 16);
  const public_uuid::KeyRing ring{{key}, 1};
  try {
    const Uuid v7 = public_uuid::Reveal(id, ring);
    FUZZ_CHECK(v7.version() == 7 && v7.rfc_variant() && public_uuid::Plausible(v7));
    FUZZ_CHECK(public_uuid::Show(v7, key) == id);
    const public_uuid::Candidates all = public_uuid::RevealAll(id, ring);
    FUZZ_CHECK(all.count == 1 && all.ids[0] == v7);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kBadArgument);
  }
  try {
    const Uuid facade = public_uuid::Show(id, key);
    FUZZ_CHECK(facade.version() == 4 && facade.rfc_variant());
    FUZZ_CHECK(public_uuid::Reveal(facade, ring) == id);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kBadArgument || e.kind() == ErrorKind::kDatetimeOutOfRange);
  }
}

void TypeidPart(std::string_view text) {
  constexpr public_uuid::KeySpec kKey{{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL}, public_uuid::Mapping::kUuidv47};
  const public_uuid::KeyRing ring{{kKey}, 1};
  for (const bool show : {true, false}) {
    try {
      // (the prefix expected: the text's own, or none for text that is no typeid)
      type_id::Parsed own{};
      const std::string_view prefix = type_id::Parse(text, own) == ParseProblem::kNone ? own.prefix : "";
      const type_id::Text out =
          show ? public_uuid::ShowTypeid(text, kKey) : public_uuid::RevealTypeid(text, prefix, ring);
      const type_id::Parsed in = type_id::ParseOrThrow(text), made = type_id::ParseOrThrow(out.view());
      FUZZ_CHECK(made.prefix == in.prefix && made.encoding == in.encoding);
      const type_id::Text back =
          show ? public_uuid::RevealTypeid(out.view(), in.prefix, ring) : public_uuid::ShowTypeid(out.view(), kKey);
      // Another prefix expected: refused before the body is read, whatever the body.
      if (!show && !in.prefix.empty()) {
        try {
          (void)public_uuid::RevealTypeid(text, "zz", ring);
          FUZZ_CHECK(in.prefix == "zz");
        } catch (const Error& e) {
          FUZZ_CHECK(e.kind() == ErrorKind::kBadText || in.prefix == "zz");
        }
      }
      FUZZ_CHECK(back.view() == text);
    } catch (const Error& e) {
      FUZZ_CHECK(e.kind() == ErrorKind::kBadText || e.kind() == ErrorKind::kBadArgument ||
                 e.kind() == ErrorKind::kDatetimeOutOfRange);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest = AsText(data + 1, size - 1);
  switch (data[0] % 3) {
    case 0:
      KeyTextPart(rest);
      break;
    case 1:
      UuidPart(data + 1, size - 1);
      break;
    default:
      TypeidPart(rest);
      break;
  }
  return 0;
}

}  // namespace idgen
