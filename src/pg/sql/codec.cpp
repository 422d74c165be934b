// SQL functions of the encodings: base16, base36 and base62 text of bigints and uuids, base32hex of uuids.
#include "core/codec.hpp"
#include "pg/guard.hpp"
#include "pg/pg.hpp"

namespace idgen::pg {

namespace {

struct Digits {
  char data[32];
  size_t size;
};

Datum EncodeBigint(codec::Base base, int64_t value) {
  const Digits out = Guarded([&] {
    Digits d{};
    d.size = codec::EncodeBigint(value, base, d.data);
    return d;
  });
  return TextDatum({out.data, out.size});
}

Datum EncodeUuid(codec::Base base, const Uuid& id) {
  const Digits out = Guarded([&] {
    Digits d{};
    d.size = codec::Width(id.bytes.size(), base);
    codec::Encode(id.bytes, base, std::span<char>(d.data, d.size));
    return d;
  });
  return TextDatum({out.data, out.size});
}

Datum DecodeBigint(codec::Base base, std::string_view text) {
  PG_RETURN_INT64(Guarded([&] { return codec::DecodeBigint(text, base); }));
}

Datum DecodeUuid(codec::Base base, std::string_view text) {
  return ToDatum(Guarded([&] {
    Uuid id;
    codec::DecodeOrThrow(text, base, id.bytes, "uuid");
    return id;
  }));
}

}  // namespace

#define IDGEN_CODEC(name, base)                                                                                 \
  IDGEN_FUNCTION(idgen_##name##_encode_bigint) { return EncodeBigint(base, PG_GETARG_INT64(0)); }               \
  IDGEN_FUNCTION(idgen_##name##_encode_uuid) { return EncodeUuid(base, FromDatum<Uuid>(PG_GETARG_DATUM(0))); }  \
  IDGEN_FUNCTION(idgen_##name##_decode_bigint) { return DecodeBigint(base, StringView(PG_GETARG_TEXT_PP(0))); } \
  IDGEN_FUNCTION(idgen_##name##_decode_uuid) { return DecodeUuid(base, StringView(PG_GETARG_TEXT_PP(0))); }

IDGEN_CODEC(base16, codec::Base::k16)
IDGEN_CODEC(base36, codec::Base::k36)
IDGEN_CODEC(base62, codec::Base::k62)

// base32hex of a uuid, as PostgreSQL 19's rtrim(encode(u::bytea, 'base32hex'), '=') writes it.
IDGEN_FUNCTION(idgen_base32hex_encode_uuid) {
  const Uuid id = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  const Digits out = Guarded([&] {
    Digits d{};
    d.size = codec::Base32HexWidth(id.bytes.size());
    codec::Base32HexEncode(id.bytes, std::span<char>(d.data, d.size));
    return d;
  });
  return TextDatum({out.data, out.size});
}

IDGEN_FUNCTION(idgen_base32hex_decode_uuid) {
  const std::string_view digits = StringView(PG_GETARG_TEXT_PP(0));
  return ToDatum(Guarded([&] {
    Uuid id;
    codec::Base32HexDecodeOrThrow(digits, id.bytes, "uuid");
    return id;
  }));
}

}  // namespace idgen::pg
