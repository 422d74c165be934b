#include "core/sql_names.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace idgen::sql_names {
namespace {

constexpr std::string_view kSecrets[] = {"idgen.token_secret", "idgen.public_id_key"};

bool Names(std::string_view text, bool standard_strings = true) { return NamesAny(text, kSecrets, standard_strings); }

TEST(SqlNames, PlainSpellingsInAnyCase) {
  EXPECT_TRUE(Names("ALTER SYSTEM SET idgen.token_secret = 'x'"));
  EXPECT_TRUE(Names("alter system set IDGEN.Token_Secret to 'x'"));
  EXPECT_TRUE(Names("SET idgen.public_id_key = abc"));
  EXPECT_TRUE(Names("idgen.token_secret"));
  EXPECT_TRUE(Names("statement: SET idgen.token_secret=1;"));
}

TEST(SqlNames, OtherNamesAreNotNamed) {
  EXPECT_FALSE(Names("ALTER SYSTEM SET idgen.token_secret_file = 'idgen_token_secret'"));
  EXPECT_FALSE(Names("SELECT idgen.signed_token('x'), idgen.public_id(1)"));
  EXPECT_FALSE(Names("SET xidgen.token_secret = 'x'"));
  EXPECT_FALSE(Names("SET idgen.token_secrets = 'x'"));
  EXPECT_FALSE(Names("SET idgen.token_secret$ = 'x'"));
  EXPECT_FALSE(Names(""));
}

TEST(SqlNames, QuotedIdentifiers) {
  EXPECT_TRUE(Names("ALTER SYSTEM SET \"IDGEN.TOKEN_SECRET\" = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET \"idgen\".\"token_secret\" = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET idgen.\"public_id_key\" = 'x'"));
  EXPECT_FALSE(Names("SET \"idgen.token\"\"secret\" = 'x'"));
}

TEST(SqlNames, SpacesAndCommentsAroundTheDot) {
  EXPECT_TRUE(Names("ALTER SYSTEM SET idgen . token_secret = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET idgen/* a comment */./*another*/token_secret = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET idgen -- a comment\n . token_secret = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET idgen/* nested /* comment */ here */.token_secret = 'x'"));
}

TEST(SqlNames, UnicodeEscapes) {
  EXPECT_TRUE(Names("ALTER SYSTEM SET U&\"idgen.token_\\0073ecret\" = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET u&\"\\0069dgen.public_id_\\+00006Bey\" = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET U&\"idgen.token_!0073ecret\" UESCAPE '!' = 'x'"));
  EXPECT_TRUE(Names("ALTER SYSTEM SET U&\"idgen.token_!0073ecret\"\n  uescape\t'!' = 'x'"));
  EXPECT_TRUE(Names("SELECT set_config(U&'idgen.\\0074oken_secret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config(U&'idgen.token\\005Fsecret', 'x', false)"));
  // \0073 is "s": idgen.tokensecret is another name.
  EXPECT_FALSE(Names("ALTER SYSTEM SET U&\"idgen.token\\0073ecret\" = 'x'"));
  // An escape that is not one is the text itself.
  EXPECT_FALSE(Names("SET U&\"idgen.token\\00G3ecret\" = 'x'"));
}

TEST(SqlNames, StringLiterals) {
  EXPECT_TRUE(Names("SELECT set_config('idgen.token_secret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config('IDGEN.PUBLIC_ID_KEY', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config(E'idgen.token\\x5fsecret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config(e'idgen.token\\137secret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config(E'idgen.token\\u005fsecret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config(E'idgen.token\\U0000005fsecret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config(E'idgen.token\\_secret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config($$idgen.token_secret$$, 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config($q$idgen.token_secret$q$, 'x', false)"));
  // Continued on the next line: 'idgen.token' 'secret' is one literal.
  EXPECT_TRUE(Names("SELECT set_config('idgen.token_'\n  'secret', 'x', false)"));
  EXPECT_TRUE(Names("SELECT set_config('idgen.'  -- the prefix\n 'token_secret', 'x', false)"));
  // Without standard_conforming_strings, '...' takes backslash escapes.
  EXPECT_TRUE(Names("SELECT set_config('idgen.token\\x5fsecret', 'x', false)", false));
  EXPECT_TRUE(Names("SELECT set_config('it\\'s', 'x'), set_config('idgen.token\\x5fsecret', 'x', false)", false));
}

TEST(SqlNames, BodiesOfFunctionsAreReadAsSql) {
  EXPECT_TRUE(Names("DO $$BEGIN PERFORM set_config(U&'idgen.token_\\0073ecret', 'x', false); END$$"));
  EXPECT_TRUE(Names("DO $a$BEGIN PERFORM $b$x$b$; PERFORM set_config('idgen.token_secret', 'x', false); END$a$"));
  EXPECT_TRUE(Names("DO $body$ BEGIN EXECUTE 'ALTER SYSTEM SET idgen.\"token_secret\" = ''x'''; END $body$"));
}

TEST(SqlNames, ParametersAndMessages) {
  EXPECT_TRUE(Names("parameters: $1 = 'idgen.token_secret', $2 = 'abc'"));
  EXPECT_TRUE(Names("duration: 0.211 ms  statement: ALTER SYSTEM SET U&\"idgen.token_\\0073ecret\" = 'abc'"));
  EXPECT_TRUE(Names("parameter \"idgen.public_id_key\" cannot be changed now"));
  // An apostrophe of prose does not hide a name from the plain reading.
  EXPECT_TRUE(Names("can't set idgen.token_secret -- here"));
  // Nor does a comment.
  EXPECT_TRUE(Names("SELECT 1 /* idgen.token_secret */"));
}

TEST(SqlNames, NamesAcrossALongText) {
  std::string text(10000, 'x');
  text += " idgen.token_secret";
  EXPECT_TRUE(Names(text));
  std::string other(10000, ' ');
  other += "'idgen.token_secret'";
  other += std::string(10000, 'y');
  EXPECT_TRUE(Names(other));
}

TEST(SqlNames, UnterminatedTokensEndTheText) {
  EXPECT_TRUE(Names("SELECT 'idgen.token_secret"));
  EXPECT_TRUE(Names("SELECT U&\"idgen.token_\\0073ecret"));
  EXPECT_FALSE(Names("SELECT E'\\"));
  EXPECT_FALSE(Names("SELECT U&'"));
  EXPECT_FALSE(Names("SELECT $$"));
  EXPECT_FALSE(Names("/* idgen"));
}

}  // namespace
}  // namespace idgen::sql_names
