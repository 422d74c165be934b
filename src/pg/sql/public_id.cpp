// SQL functions of look-random public IDs: idgen.public_id(), idgen.private_id() and their text
// forms, under the secret idgen.public_id_key.
#include <cstring>

#include "core/bytes.hpp"
#include "core/public_id.hpp"
#include "pg/guard.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"

namespace idgen::pg {

namespace {

// The permutation's key, derived from the secret with HMAC-SHA256 when the secret changes.
public_id::Key Key() {
  const settings::SecretInUse secret = settings::RequireSecret(settings::Secret::kPublicIdKey);
  static uint64_t derived_from = 0;  // a generation: 0 is none
  static public_id::Key key{};
  if (derived_from != secret.generation) {
    uint8_t digest[32];
    HmacSha256(secret.value, "idgen public_id key", digest);
    key = public_id::Key{LoadBigEndian(std::span<const uint8_t>(digest, 8)),
                         LoadBigEndian(std::span<const uint8_t>(digest + 8, 8))};
    explicit_bzero(digest, sizeof digest);
    derived_from = secret.generation;
  }
  return key;
}

}  // namespace

IDGEN_FUNCTION(idgen_public_id) {
  const int64 id = PG_GETARG_INT64(0);
  const public_id::Key key = Key();
  PG_RETURN_INT64(Guarded([&] { return public_id::Hide(id, key); }));
}

IDGEN_FUNCTION(idgen_private_id) {
  const int64 id = PG_GETARG_INT64(0);
  const public_id::Key key = Key();
  PG_RETURN_INT64(Guarded([&] { return public_id::Reveal(id, key); }));
}

IDGEN_FUNCTION(idgen_public_id_text) {
  const int64 id = PG_GETARG_INT64(0);
  const public_id::Key key = Key();
  const public_id::Text text = Guarded([&] { return public_id::Format(public_id::Hide(id, key)); });
  return TextDatum(text.view());
}

IDGEN_FUNCTION(idgen_private_id_text) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const public_id::Key key = Key();
  PG_RETURN_INT64(Guarded([&] { return public_id::Reveal(public_id::ParseText(value), key); }));
}

}  // namespace idgen::pg
