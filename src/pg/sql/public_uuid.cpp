// SQL functions of public UUIDs: idgen.public_uuid() and idgen.private_uuid(), their typeid forms,
// and idgen.private_uuid_candidates(), under the key idgen.public_uuid_key (one or two keys:
// core/public_uuid.hpp).
#include <cstring>

#include "core/public_uuid.hpp"
#include "pg/guard.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"

extern "C" {
#include "catalog/pg_type_d.h"
#include "utils/array.h"
}

namespace idgen::pg {

namespace {

// The keys, read again from the secret's text whenever the secret is assigned (each reload). What
// is wrong with the text is kept too, and raised on every call until the configuration is corrected:
// never a façade under a key the operator did not give.
public_uuid::KeyRing ring{};
public_uuid::KeyParse parse{public_uuid::KeyProblem::kEmpty, 0};
uint64_t parsed_generation = 0;  // 0 is none: the first assignment makes the generation 1

[[noreturn]] void RaiseBadKey() {
  char message[128];
  if (parse.key == 0) {
    strlcpy(message, "idgen.public_uuid_key does not hold a key as idgen reads it", sizeof message);
  } else {
    snprintf(message, sizeof message, "the %s key of idgen.public_uuid_key is not a key as idgen reads it",
             parse.key == 1 ? "first" : "second");
  }
  Raise(ErrorKind::kPrerequisite, message, public_uuid::Explain(parse.problem),
        "Write one key a line to the file that idgen.public_uuid_key_file names (openssl rand -hex 16 writes one), "
        "the key that makes façades first, and reload the configuration.");
}

const public_uuid::KeyRing& Ring() {
  const std::string_view secret = settings::RequireSecret(settings::Secret::kPublicUuidKey);
  const uint64_t generation = settings::SecretGeneration(settings::Secret::kPublicUuidKey);
  if (parsed_generation != generation) [[unlikely]] {
    parse = public_uuid::ParseKeys(secret, ring);
    parsed_generation = generation;
  }
  if (parse.problem != public_uuid::KeyProblem::kNone) [[unlikely]]
    RaiseBadKey();
  return ring;
}

}  // namespace

IDGEN_FUNCTION(idgen_public_uuid) {
  const Uuid id = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  const public_uuid::KeySpec& key = Ring().keys[0];
  return ToDatum(Guarded([&] { return public_uuid::Show(id, key); }));
}

IDGEN_FUNCTION(idgen_private_uuid) {
  const Uuid facade = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  const public_uuid::KeyRing& keys = Ring();
  return ToDatum(Guarded([&] { return public_uuid::Reveal(facade, keys); }));
}

// Every reading of a façade under the keys held, the first key's first: two for 1 façade in 64
// while keys rotate, where idgen.private_uuid() takes the first. For a lookup that must find the
// row whichever key made the façade: WHERE id = ANY (idgen.private_uuid_candidates($1)).
IDGEN_FUNCTION(idgen_private_uuid_candidates) {
  const Uuid facade = FromDatum<Uuid>(PG_GETARG_DATUM(0));
  const public_uuid::KeyRing& keys = Ring();
  const public_uuid::Candidates found = Guarded([&] { return public_uuid::RevealAll(facade, keys); });
  Datum items[public_uuid::kMaxKeys];
  for (int i = 0; i < found.count; ++i) items[i] = ToDatum(found.ids[i]);
  PG_RETURN_ARRAYTYPE_P(construct_array(items, found.count, UUIDOID, UUID_LEN, false, TYPALIGN_CHAR));
}

IDGEN_FUNCTION(idgen_public_typeid) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const public_uuid::KeySpec& key = Ring().keys[0];
  const type_id::Text out = Guarded([&] { return public_uuid::ShowTypeid(value, key); });
  return TextDatum(out.view());
}

IDGEN_FUNCTION(idgen_private_typeid) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const public_uuid::KeyRing& keys = Ring();
  const type_id::Text out = Guarded([&] { return public_uuid::RevealTypeid(value, keys); });
  return TextDatum(out.view());
}

}  // namespace idgen::pg
