// SQL functions of signed tokens: idgen.signed_token() and idgen.verify_token().
#include <cstring>

#include "core/bytes.hpp"
#include "core/token.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings.hpp"

extern "C" {
#include "common/cryptohash.h"
#include "common/hmac.h"
}

using namespace idgen;
using namespace idgen::pg;

namespace {

// The secret, or an error that says how to set one: never a token under an empty key.
std::string_view Secret() {
  settings::CheckConfigured(settings::kTokens);
  const std::string_view secret = settings::SecretValue(settings::Secret::kTokenSecret);
  if (secret.empty()) {
    Raise(ErrorKind::kPrerequisite, "idgen.token_secret is not set",
          "Signed tokens need a secret of at least 32 bytes, known only to the server.",
          "Set idgen.token_secret in postgresql.conf (or with ALTER SYSTEM) and reload, e.g. to the output of: "
          "openssl rand -hex 32");
  }
  return secret;
}

// HMAC-SHA256 with PostgreSQL's pg_hmac (C zone: it may ereport).
void Hmac(std::string_view secret, std::string_view message, uint8_t (&tag)[token::kTagBytes]) {
  pg_hmac_ctx* ctx = pg_hmac_create(PG_SHA256);
  if (ctx == nullptr) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
  if (pg_hmac_init(ctx, reinterpret_cast<const uint8*>(secret.data()), secret.size()) < 0 ||
      pg_hmac_update(ctx, reinterpret_cast<const uint8*>(message.data()), message.size()) < 0 ||
      pg_hmac_final(ctx, tag, sizeof tag) < 0) {
    const char* reason = pg_hmac_error(ctx);
    pg_hmac_free(ctx);
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not compute HMAC-SHA256: %s", reason)));
  }
  pg_hmac_free(ctx);
}

}  // namespace

IDGEN_FUNCTION(idgen_signed_token) {
  const std::string_view prefix = StringView(PG_GETARG_TEXT_PP(0));
  const std::string_view secret = Secret();
  const token::Text message = Guarded([&] {
    uint8_t random[token::kRandomBytes];
    BackendRandom().Take(random, sizeof random, MyProcPid);
    return token::Message(prefix, random);
  });
  uint8_t tag[token::kTagBytes];
  Hmac(secret, message.view(), tag);
  const token::Text out = Guarded([&] { return token::Sign(message, tag); });
  return TextDatum(out.view());
}

IDGEN_FUNCTION(idgen_verify_token) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const std::string_view secret = Secret();
  struct Split {
    bool ok;
    std::string_view message;
    uint8_t tag[token::kTagBytes];
  };
  const Split split = Guarded([&] {
    Split s{};
    s.ok = token::Split(value, s.message, s.tag);
    return s;
  });
  if (!split.ok) PG_RETURN_BOOL(false);
  uint8_t expected[token::kTagBytes];
  Hmac(secret, split.message, expected);
  PG_RETURN_BOOL(ConstantTimeEqual(expected, split.tag));
}
