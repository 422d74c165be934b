// The secrets of idgen: idgen.token_secret, idgen.public_id_key and idgen.public_uuid_key, each given
// inline or by a file (idgen.token_secret_file, idgen.public_id_key_file, idgen.public_uuid_key_file). A secret is set
// only in the server's configuration and never lives in the GUC machinery: the check hook keeps it as "extra" data and
// stores an empty value, so that pg_settings, pg_db_role_setting and the reload log ("parameter ...
// changed to ...") never see it, and the show hook prints a mask; its file form keeps it out of SQL
// text as well, and a log hook keeps the inline form's statements out of the server log.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/sql_names.hpp"  // the core headers first (core/cpp_only.hpp)
#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/settings/settings_parts.hpp"

extern "C" {
#include "commands/dbcommands.h"
#include "catalog/pg_authid_d.h"
#include "storage/fd.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"  // (get_database_name from 19 on; commands/dbcommands.h before)
}

namespace idgen::pg::settings {

namespace {

// A secret has two forms: inline (idgen.token_secret = '...'), whose text passes through SQL when it
// is set with ALTER SYSTEM, and a file (idgen.token_secret_file = 'idgen_token_secret'), which
// never does. The file's check hook reads the file, at server start and at every reload (in the
// postmaster, and in each backend as it reloads), and keeps what it found as the "extra" data: the
// secret, or why there is none, which the functions that need the secret then raise. It never
// rejects the setting: a rejected setting would keep the secret of the file read before.
struct SecretFile {
  bool ok;
  char message[256];
  char detail[256];
  char hint[512];
  // Then the secret (when ok) and its NUL, in the same allocation: GUC frees extra data in one piece.
  const char* secret() const { return reinterpret_cast<const char*>(this + 1); }
};

// More is not a secret but a wrong file.
constexpr size_t kMaxSecretFileBytes = 8192;

struct SecretSetting {
  const char* name;
  const char* file_setting;  // the name of its file form
  size_t min_bytes;
  uint32_t consumers;      // for CheckConfigured
  const char* need;        // the detail of the error when it is unset
  const char* warning;     // the end of its hint
  const char* generate;    // a command that writes one
  char* stored;            // the GUC's value: always empty
  char* file_stored;       // the file form's value: the path, as given
  const char* value;       // the secret, from the check hook's extra data; nullptr when unset
  const SecretFile* file;  // what the file form read; nullptr when unset
  uint64_t generation;     // counts the assignments of either form, for what a consumer derives from it
};
SecretSetting secrets[] = {
    {"idgen.token_secret", "idgen.token_secret_file", 32, kTokens,
     "Signed tokens need a secret of at least 32 bytes, known only to the server.", "", "openssl rand -hex 32", nullptr,
     nullptr, nullptr, nullptr, 0},
    {"idgen.public_id_key", "idgen.public_id_key_file", 32, kPublicIds,
     "Public IDs are a permutation under a secret key of at least 32 bytes, known only to the server.",
     ". Never change it once public IDs are out: they would all change.", "openssl rand -hex 32", nullptr, nullptr,
     nullptr, nullptr, 0},
    // (its value is checked when it is used: sql/public_uuid.cpp reads the keys it holds)
    {"idgen.public_uuid_key", "idgen.public_uuid_key_file", 32, kPublicUuids,
     "Public UUIDs are façades made under a 128-bit key, known only to the server.",
     ". To change it later, keep the old key as a second line while its façades may come back.", "openssl rand -hex 16",
     nullptr, nullptr, nullptr, nullptr, 0},
};

template <Secret which>
bool CheckSecret(char** value, void** extra, GucSource) {
  const SecretSetting& s = secrets[static_cast<int>(which)];
  const size_t length = strlen(*value);
  if (length == 0) {
    *extra = nullptr;
    return true;
  }
  char* empty = compat::GucStrdup("");
  if (empty == nullptr) return false;
  char* secret = *value;  // becomes the extra data, or is wiped
  *value = empty;         // the stored value, and any error message that quotes it, never holds the secret
  if (length < s.min_bytes) {
    explicit_bzero(secret, length);
    compat::GucFree(secret);
    GUC_check_errdetail("%s must be at least %zu bytes long.", s.name, s.min_bytes);
    return false;
  }
  *extra = secret;
  return true;
}

template <Secret which>
void AssignSecret(const char*, void* extra) {
  SecretSetting& s = secrets[static_cast<int>(which)];
  s.value = static_cast<const char*>(extra);
  ++s.generation;
}

// What SHOW, current_setting() and pg_settings print, to every role, superusers included: whether
// the secret is set, never what it is (no screen, monitoring tool or support ticket gets it; the
// file form shows its path instead, in its own setting).
template <Secret which>
const char* ShowSecret() {
  return secrets[static_cast<int>(which)].value != nullptr ? "********" : "";
}

// Reads the secret file at path into buffer (kMaxSecretFileBytes + 1 bytes), trailing whitespace
// removed, with the checks PostgreSQL makes of ssl_key_file: a regular file, owned by the server's
// user with no group or world access, or by root with no more than group read. On failure, says
// why in report, never quoting the file's content.
bool ReadSecretFile(const SecretSetting& s, const char* path, char* buffer, size_t* length, SecretFile* report) {
  const auto fail = [&](const char* detail, const char* hint) {
    strlcpy(report->detail, detail, sizeof report->detail);
    strlcpy(report->hint, hint, sizeof report->hint);
    return false;
  };
  char hint[sizeof report->hint];
  struct stat st;
  // stat before opening: a FIFO would block the open.
  if (stat(path, &st) != 0) {
    snprintf(report->message, sizeof report->message, "could not access %s \"%s\": %s", s.file_setting, path,
             strerror(errno));
    snprintf(hint, sizeof hint,
             "Write the secret to %s, readable by the server's operating system user only (such as: openssl rand -hex "
             "32 > %s; chmod 600 %s), or correct %s; then reload the configuration.",
             path, path, path, s.file_setting);
    return fail("", hint);
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(report->message, sizeof report->message, "%s \"%s\" is not a regular file", s.file_setting, path);
    snprintf(hint, sizeof hint, "Point %s to a regular file that holds the secret, then reload the configuration.",
             s.file_setting);
    return fail("", hint);
  }
  FILE* file = AllocateFile(path, PG_BINARY_R);
  if (file == nullptr) {
    snprintf(report->message, sizeof report->message, "could not open %s \"%s\": %s", s.file_setting, path,
             strerror(errno));
    snprintf(hint, sizeof hint,
             "Make %s readable by the server's operating system user (and by no one else), or correct %s; then "
             "reload the configuration.",
             path, s.file_setting);
    return fail("", hint);
  }
  // The checks apply to the file opened, not to whatever the path names by now.
  if (fstat(fileno(file), &st) != 0 || !S_ISREG(st.st_mode)) {
    FreeFile(file);
    snprintf(report->message, sizeof report->message, "%s \"%s\" changed while it was read", s.file_setting, path);
    snprintf(hint, sizeof hint, "Reload the configuration once %s is in place.", path);
    return fail("", hint);
  }
  if (st.st_uid != geteuid() && st.st_uid != 0) {
    FreeFile(file);
    snprintf(report->message, sizeof report->message, "%s \"%s\" must be owned by the database user or root",
             s.file_setting, path);
    snprintf(hint, sizeof hint,
             "Give %s to the server's operating system user (chown), or correct %s; then reload the configuration.",
             path, s.file_setting);
    return fail("", hint);
  }
  if ((st.st_uid == geteuid() && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0) ||
      (st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)) != 0)) {
    FreeFile(file);
    snprintf(report->message, sizeof report->message, "%s \"%s\" has group or world access", s.file_setting, path);
    snprintf(hint, sizeof hint, "chmod 600 %s (named by %s), then reload the configuration.", path, s.file_setting);
    return fail(
        "File must have permissions u=rw (0600) or less if owned by the database user, or permissions u=rw,g=r "
        "(0640) or less if owned by root.",
        hint);
  }
  size_t n = fread(buffer, 1, kMaxSecretFileBytes + 1, file);
  const int error = errno;
  const bool failed = ferror(file) != 0;
  FreeFile(file);
  if (failed) {
    snprintf(report->message, sizeof report->message, "could not read %s \"%s\": %s", s.file_setting, path,
             strerror(error));
    snprintf(hint, sizeof hint, "Check the file that %s names, then reload the configuration.", s.file_setting);
    return fail("", hint);
  }
  snprintf(hint, sizeof hint,
           "Write a secret of at least %zu bytes to %s, and nothing else (such as: %s > %s), "
           "then reload the configuration; %s names that file.",
           s.min_bytes, path, s.generate, path, s.file_setting);
  char detail[sizeof report->detail];
  if (n > kMaxSecretFileBytes || memchr(buffer, '\0', n) != nullptr) {
    snprintf(report->message, sizeof report->message, "%s \"%s\" does not hold a secret", s.file_setting, path);
    snprintf(detail, sizeof detail, "A secret file holds one line of text, the secret, and at most %zu bytes.",
             kMaxSecretFileBytes);
    return fail(detail, hint);
  }
  while (n > 0 && (buffer[n - 1] == '\n' || buffer[n - 1] == '\r' || buffer[n - 1] == ' ' || buffer[n - 1] == '\t' ||
                   buffer[n - 1] == '\v' || buffer[n - 1] == '\f')) {
    --n;
  }
  if (n < s.min_bytes) {
    snprintf(report->message, sizeof report->message,
             n == 0 ? "%s \"%s\" is empty" : "the secret in %s \"%s\" is too short", s.file_setting, path);
    snprintf(detail, sizeof detail,
             "%s must be at least %zu bytes long, not counting the whitespace that ends the file.", s.name,
             s.min_bytes);
    return fail(detail, hint);
  }
  *length = n;
  return true;
}

template <Secret which>
bool CheckSecretFile(char** value, void** extra, GucSource) {
  const SecretSetting& s = secrets[static_cast<int>(which)];
  if (**value == '\0') {
    *extra = nullptr;
    return true;
  }
  // Relative to the data directory, as PostgreSQL's other file settings.
  char path[MAXPGPATH];
  if (is_absolute_path(*value) || DataDir == nullptr) {
    strlcpy(path, *value, sizeof path);
  } else {
    snprintf(path, sizeof path, "%s/%s", DataDir, *value);
  }
  SecretFile report{};
  char buffer[kMaxSecretFileBytes + 1];
  size_t length = 0;
  report.ok = ReadSecretFile(s, path, buffer, &length, &report);
  auto* out = static_cast<SecretFile*>(compat::GucMalloc(sizeof(SecretFile) + length + 1));
  if (out != nullptr) {
    *out = report;
    char* secret = reinterpret_cast<char*>(out + 1);
    memcpy(secret, buffer, length);
    secret[length] = '\0';
  }
  explicit_bzero(buffer, sizeof buffer);
  if (out == nullptr) return false;
  if (!report.ok) {
    // Once, in the postmaster's log (a backend that reads the file as it reloads says it at DEBUG2);
    // the functions that need the secret raise the same error until the file is corrected.
    ereport(IsUnderPostmaster ? DEBUG2 : LOG, errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("%s", report.message),
            report.detail[0] != '\0' ? errdetail("%s", report.detail) : 0, errhint("%s", report.hint));
  }
  *extra = out;
  return true;
}

template <Secret which>
void AssignSecretFile(const char*, void* extra) {
  SecretSetting& s = secrets[static_cast<int>(which)];
  s.file = static_cast<const SecretFile*>(extra);
  ++s.generation;
}

template <Secret which>
void DefineSecret(const char* title, const char* description, const char* long_description) {
  SecretSetting& s = secrets[static_cast<int>(which)];
  DefineCustomStringVariable(s.name, description, long_description, &s.stored, "", PGC_SIGHUP,
                             GUC_SUPERUSER_ONLY | GUC_NOT_IN_SAMPLE, CheckSecret<which>, AssignSecret<which>,
                             ShowSecret<which>);
  static char file_description[128];
  snprintf(file_description, sizeof file_description, "File that holds the %s.", title);
  DefineCustomStringVariable(s.file_setting, file_description,
                             "Read at server start and at every reload. Relative to the data directory; readable by "
                             "the server's operating system user only (0600). The secret is its content, trailing "
                             "whitespace removed: at least 32 bytes. Set this or the inline setting, not both.",
                             &s.file_stored, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY | GUC_NOT_IN_SAMPLE,
                             CheckSecretFile<which>, AssignSecretFile<which>, nullptr);
}

// ---- the server log: no text that may hold an inline secret ---------------------------------
//
// PostgreSQL writes statement text to the log in many places: log_statement ("statement: ..."),
// log_min_duration_statement ("duration: ... statement: ..."), the STATEMENT line of an error
// (log_min_error_statement), the parameters of the extended protocol (DETAIL), the context and
// internal query of an error in a function, auto_explain, pgaudit. A statement that sets a secret
// (ALTER SYSTEM SET idgen.token_secret = '...', or a SET, set_config() or ALTER DATABASE/ROLE
// ... SET that PostgreSQL refuses) would put it there. So any report that names an inline secret
// setting, in its statement or in any of its texts, under any spelling the lexer reads as that name
// (sql_names.hpp):
// - loses its STATEMENT line, its CONTEXT line (the client still gets the context) and its
//   internal query;
// - unless it comes from idgen or from PostgreSQL's settings code, which never quote a value (the
//   check hook empties a rejected one), has its texts replaced (Redacted): its detail in the log
//   only (detail_log); its message and hint, which go to the client too (there is no log-only field
//   for them), only where they may hold the value: the statement, a name, or a quote.
// It runs inside error reporting: no error, allocations in the error's context only.

emit_log_hook_type previous_emit_log_hook = nullptr;

constexpr std::string_view kInlineSecretNames[] = {"idgen.token_secret", "idgen.public_id_key",
                                                   "idgen.public_uuid_key"};
constexpr char kHidden[] = "(hidden by idgen: it names a secret setting, and may hold its value)";

bool NamesInlineSecret(const char* text) {
  return text != nullptr && sql_names::NamesAny(text, kInlineSecretNames, compat::StandardConformingStrings());
}

// Whether the report was made by idgen, or by PostgreSQL's code of the settings (guc.c,
// guc_funcs.c, guc-file.l), whose texts name a setting and quote no value of a secret. PostgreSQL
// keeps the base name of the file only: idgen's are its C++ files, PostgreSQL's are C.
bool FromTrustedCode(const ErrorData* edata) {
  const char* base = edata->filename;
  if (base == nullptr) return false;
  const size_t length = strlen(base);
  if (length > 4 && strcmp(base + length - 4, ".cpp") == 0) return true;
  return strncmp(base, "guc", 3) == 0 && (base[3] == '.' || base[3] == '_' || base[3] == '-');
}

// What the log gets of a text of a report that names a secret, made by code that may quote the
// statement: what precedes the statement, when the text holds it (PostgreSQL's own log lines);
// nothing of it, when the text names a secret itself or quotes anything (a token of the statement,
// a value); the text as it is otherwise (permission denied for view pg_file_settings), or nullptr
// where keep is false.
char* Redacted(const char* text, bool keep) {
  const char* statement = debug_query_string;
  const char* at = statement != nullptr && *statement != '\0' ? strstr(text, statement) : nullptr;
  if (at != nullptr) return psprintf("%.*s%s", static_cast<int>(at - text), text, kHidden);
  if (!keep || NamesInlineSecret(text) || strpbrk(text, "\"'") != nullptr) return pstrdup(kHidden);
  return nullptr;
}

void HideSecrets(ErrorData* edata) {
  const bool statement = NamesInlineSecret(debug_query_string) || NamesInlineSecret(edata->internalquery);
  if (statement || NamesInlineSecret(edata->message) || NamesInlineSecret(edata->detail) ||
      NamesInlineSecret(edata->detail_log) || NamesInlineSecret(edata->hint) || NamesInlineSecret(edata->context)) {
    edata->hide_stmt = true;
    edata->hide_ctx = true;
    if (edata->internalquery != nullptr) {
      pfree(edata->internalquery);
      edata->internalquery = nullptr;
      edata->internalpos = 0;
    }
    if (!FromTrustedCode(edata)) {
      // (the message and the hint go to the client too: they are kept where they may; the detail
      // is replaced for the log only)
      if (edata->message != nullptr) {
        if (char* redacted = Redacted(edata->message, true)) edata->message = redacted;
      }
      if (edata->detail_log != nullptr || edata->detail != nullptr) {
        edata->detail_log = Redacted(edata->detail_log != nullptr ? edata->detail_log : edata->detail, false);
      }
      if (NamesInlineSecret(edata->hint)) edata->hint = pstrdup(kHidden);
    }
  }
  if (previous_emit_log_hook != nullptr) previous_emit_log_hook(edata);
}

}  // namespace

bool MayReadHiddenSettings() { return superuser() || has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS); }

namespace {

// The secret as the key scope gives it (idgen.key_scope): the configuration's itself for the server,
// or a key derived from it and this database's name, so that what a database owner makes with it
// (a token, a public ID) is this database's alone. Derived once per secret and scope.
std::string_view Scoped(Secret which, std::string_view secret) {
  if (key_scope == kKeyScopeServer) return secret;
  static uint8_t keys[2][32];
  static uint64_t derived_for[2] = {0, 0};  // SecretGeneration + 1 (0: none)
  const int i = static_cast<int>(which);
  const uint64_t generation = SecretGeneration(which) + 1;
  if (derived_for[i] != generation) {
    char message[NAMEDATALEN + 64];
    char* database = get_database_name(MyDatabaseId);
    const int length =
        snprintf(message, sizeof message, "idgen key scope: database %s", database != nullptr ? database : "");
    pfree(database);
    HmacSha256(secret, std::string_view(message, static_cast<size_t>(std::min<int>(length, sizeof message - 1))),
               keys[i]);
    derived_for[i] = generation;
  }
  return std::string_view(reinterpret_cast<const char*>(keys[i]), sizeof keys[i]);
}

}  // namespace

std::string_view RequireSecret(Secret which) {
  const SecretSetting& s = secrets[static_cast<int>(which)];
  CheckConfigured(s.consumers);
  char message[128];
  char hint[512];
  if (s.file != nullptr && s.value != nullptr) {
    snprintf(message, sizeof message, "%s and %s are both set", s.name, s.file_setting);
    snprintf(hint, sizeof hint,
             "Set one of them: remove %s from postgresql.conf (or ALTER SYSTEM RESET %s) and keep %s, then reload.",
             s.name, s.name, s.file_setting);
    Raise(ErrorKind::kPrerequisite, message, "idgen will not choose between two secrets.", hint);
  }
  if (s.file != nullptr) {
    if (s.file->ok) return Scoped(which, s.file->secret());
    // The file's path is part of the setting, which only superusers and pg_read_all_settings read.
    if (MayReadHiddenSettings()) Raise(ErrorKind::kPrerequisite, s.file->message, s.file->detail, s.file->hint);
    snprintf(message, sizeof message, "the file named by %s cannot be used", s.file_setting);
    Raise(ErrorKind::kPrerequisite, message,
          "It is missing, unreadable, open to other users or holds no secret: the server log says which, and so "
          "does this error for a superuser or a member of pg_read_all_settings.",
          "Ask the administrator of the server to correct the file, then reload the configuration.");
  }
  if (s.value == nullptr) {
    // The file the README names: idgen_token_secret for idgen.token_secret.
    char file[NAMEDATALEN];
    strlcpy(file, s.name, sizeof file);
    for (char* c = file; *c != '\0'; ++c) {
      if (*c == '.') *c = '_';
    }
    snprintf(message, sizeof message, "%s is not set", s.name);
    snprintf(hint, sizeof hint,
             "Write a secret to a file that only the server's operating system user can read (%s > "
             "$PGDATA/%s; chmod 600 $PGDATA/%s), set %s = '%s' in postgresql.conf and reload%s",
             s.generate, file, file, s.file_setting, file, s.warning);
    Raise(ErrorKind::kPrerequisite, message, s.need, hint);
  }
  // A secret written in the configuration is a secret only where the postmaster knows it is one:
  // until a session loads idgen, PostgreSQL shows an idgen.* setting it does not know to every role
  // (SHOW), and logs its new value at each reload.
  if (!LoadedByPreload()) {
    snprintf(message, sizeof message, "%s is written in the configuration, and idgen is not preloaded", s.name);
    snprintf(hint, sizeof hint,
             "Move the secret to a file that only the server's operating system user can read (%s), or add idgen "
             "to shared_preload_libraries and restart; then change the secret: it may have been read.",
             s.file_setting);
    Raise(ErrorKind::kPrerequisite, message,
          "Until a session loads idgen, PostgreSQL shows a setting it does not know yet to every role (SHOW, "
          "current_setting) and writes its new value to the server log at each reload: this secret is not secret.",
          hint);
  }
  return Scoped(which, s.value);
}

// (the scope is part of what a derived key depends on: a reload that changes only the scope derives
// again)
uint64_t SecretGeneration(Secret which) { return secrets[static_cast<int>(which)].generation * 2 + key_scope; }

void DefineSecrets() {
  if (emit_log_hook != HideSecrets) {
    previous_emit_log_hook = emit_log_hook;
    emit_log_hook = HideSecrets;
  }
  DefineSecret<Secret::kTokenSecret>(
      "secret key of idgen.signed_token() and idgen.verify_token()",
      "Secret key of idgen.signed_token() and idgen.verify_token().",
      "At least 32 bytes, set in the server configuration only; shown as ******** to everyone. Changing it "
      "invalidates every token signed before. Prefer idgen.token_secret_file: a value set with ALTER SYSTEM passes "
      "through SQL text (pg_stat_statements).");
  DefineSecret<Secret::kPublicIdKey>(
      "secret key of idgen.public_id() and idgen.private_id()",
      "Secret key of idgen.public_id() and idgen.private_id().",
      "At least 32 bytes, set in the server configuration only; shown as ******** to everyone. Changing it "
      "changes every public ID. Prefer idgen.public_id_key_file: a value set with ALTER SYSTEM passes through SQL "
      "text (pg_stat_statements).");
  DefineSecret<Secret::kPublicUuidKey>(
      "key of idgen.public_uuid() and idgen.private_uuid()", "Key of idgen.public_uuid() and idgen.private_uuid().",
      "One or two 128-bit keys in hexadecimal (32 digits each, uuidv47's form), separated by white space: the first "
      "makes and reads façades, the second (while keys rotate) only reads them; \"opaque:\" before a key gives it "
      "idgen's opaque mapping. Set in the server configuration only; shown as ******** to everyone. Prefer "
      "idgen.public_uuid_key_file.");
}

}  // namespace idgen::pg::settings
