// Whether a text names a setting, under any spelling that PostgreSQL's lexer reads as that name: for
// the server log, which must not quote a statement that sets a secret. SQL spells a name many ways:
// any case (idgen.TOKEN_SECRET), a quoted identifier ("idgen.token_secret", "idgen"."token_secret"),
// Unicode escapes (U&"idgen.token\0073ecret", with UESCAPE), spaces and comments around the dot
// (idgen /* */ . token_secret), and, where a function takes the name (set_config, current_setting),
// a string literal of every kind: '...', E'...' with its backslash escapes, U&'...', $$...$$, and
// the continuation of a literal on the next line. The text is read as SQL and as plain text: a
// message that quotes a statement, or a parameter list, is found either way.
//
// A name computed at run time ('idgen.' || 'token_secret') is not named. Too many matches are
// harmless (a statement hidden that need not be); a miss is not, so the reading errs towards a match.
// Runs inside PostgreSQL's error reporting: no allocation, no exception.
#pragma once

#include "core/cpp_only.hpp"

#include <span>
#include <string_view>

namespace idgen::sql_names {

// The longest name it looks for.
inline constexpr size_t kMaxName = 40;

// Whether text names one of names (lowercase ASCII, at most kMaxName bytes, such as
// "idgen.token_secret"), as a whole name: idgen.token_secret_file does not name idgen.token_secret.
// standard_strings: the session's standard_conforming_strings (off: backslashes escape in '...').
bool NamesAny(std::string_view text, std::span<const std::string_view> names, bool standard_strings) noexcept;

}  // namespace idgen::sql_names
