// SQL functions of public UUIDs: idgen.public_uuid() and idgen.private_uuid(), their typeid forms,
// and idgen.private_uuid_candidates(), under the key idgen.public_uuid_key (one or two keys:
// core/public_uuid.hpp), as the key scope gives it for this database (settings::RequireSecret).
//
// What a reading returns is the time of a row, and never reaches an error message: every check of
// the input is made before decoding (the façade's version, a typeid's prefix against the one the
// caller expects) and its error quotes the input; after decoding, only the result is returned.
#include <cstring>

#include "core/public_uuid.hpp"
#include "pg/guard.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/sql/type_id.hpp"

extern "C" {
#include "catalog/pg_type_d.h"
#include "utils/array.h"
}

namespace idgen::pg {

namespace {

// The keys, parsed again whenever the secret in use changes (settings::RequireSecret: one per
// transaction at most, fixed for the transaction). What is wrong with the text is kept too, and
// raised on every call until the configuration is corrected: never a façade under a key the operator
// did not give. (The settings' check hooks refuse such text first, at start and at each reload.)
public_uuid::KeyRing ring{};
public_uuid::KeyParse parse{public_uuid::KeyProblem::kEmpty, 0};
uint64_t parsed_generation = 0;  // 0 is none: generations start at 1

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
  const settings::SecretInUse secret = settings::RequireSecret(settings::Secret::kPublicUuidKey);
  if (parsed_generation != secret.generation) [[unlikely]] {
    parse = public_uuid::ParseKeys(secret.value, ring);
    parsed_generation = secret.generation;
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

// Every reading of a façade under the keys held, the first key's first: two for 1 façade in 64 of
// the previous key while keys rotate, where idgen.private_uuid() takes the first. For a lookup that
// must find the row whichever key made the façade: WHERE id = ANY (idgen.private_uuid_candidates($1)).
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

// idgen.private_typeid(value text, prefix text): the prefix is compared before the body is read.
IDGEN_FUNCTION(idgen_private_typeid) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const std::string_view prefix = type_id_datum::PrefixArg(fcinfo, 1);
  const public_uuid::KeyRing& keys = Ring();
  const type_id::Text out = Guarded([&] { return public_uuid::RevealTypeid(value, prefix, keys); });
  return TextDatum(out.view());
}

// idgen.public_typeid(id idgen.type_id): the same for the native type.
IDGEN_FUNCTION(idgen_public_typeid_native) {
  const type_id::Value value = type_id_datum::Arg(fcinfo, 0);
  const public_uuid::KeySpec& key = Ring().keys[0];
  const Uuid facade = Guarded([&] { return public_uuid::Show(value.id, key); });
  return type_id_datum::Make(value.prefix_view(), facade);
}

// idgen.private_typeid(id idgen.type_id, prefix text): the same for the native type.
IDGEN_FUNCTION(idgen_private_typeid_native) {
  const type_id::Value value = type_id_datum::Arg(fcinfo, 0);
  const std::string_view prefix = type_id_datum::PrefixArg(fcinfo, 1);
  const public_uuid::KeyRing& keys = Ring();
  const Uuid id = Guarded([&] {
    if (value.prefix_view() != prefix) {
      // (the façade as text, which whoever sent it has: the prefix and the body as they came)
      type_id::ThrowNotOfPrefix(type_id::Format(value.prefix_view(), value.id, type_id::Encoding::kBase32).view(),
                                value.prefix_view(), prefix);
    }
    return public_uuid::Reveal(value.id, keys);
  });
  return type_id_datum::Make(prefix, id);
}

}  // namespace idgen::pg
