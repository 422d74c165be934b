// SQL functions of signed tokens: idgen.signed_token() and idgen.verify_token().
#include <cstring>

#include "core/bytes.hpp"
#include "core/token.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"

namespace idgen::pg {

IDGEN_FUNCTION(idgen_signed_token) {
  const std::string_view prefix = StringView(PG_GETARG_TEXT_PP(0));
  const std::string_view secret = settings::RequireSecret(settings::Secret::kTokenSecret).value;
  const token::Text message = Guarded([&] {
    uint8_t random[token::kRandomBytes];
    BackendRandom().Take(random, sizeof random, MyProcPid);
    return token::Message(prefix, random);
  });
  uint8_t tag[token::kTagBytes];
  HmacSha256(secret, message.view(), tag);
  const token::Text out = Guarded([&] { return token::Sign(message, tag); });
  return TextDatum(out.view());
}

IDGEN_FUNCTION(idgen_verify_token) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const std::string_view secret = settings::RequireSecret(settings::Secret::kTokenSecret).value;
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
  HmacSha256(secret, split.message, expected);
  PG_RETURN_BOOL(ConstantTimeEqual(expected, split.tag));
}

}  // namespace idgen::pg
