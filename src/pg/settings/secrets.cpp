// The secrets of idgen: idgen.token_secret, idgen.public_id_key and idgen.public_uuid_key, each given
// inline or by a file (idgen.token_secret_file, idgen.public_id_key_file, idgen.public_uuid_key_file). A secret is set
// only in the server's configuration and never lives in the GUC machinery: the check hook keeps it as "extra" data and
// stores an empty value, so that pg_settings, pg_db_role_setting and the reload log ("parameter ...
// changed to ...") never see it, and the show hook prints a mask; its file form keeps it out of SQL
// text as well, and a log hook keeps the inline form's statements out of the server log.
//
// Two rules make every call agree on the key:
// - one server, one key: where idgen is preloaded, the postmaster reads the files as it processes a
//   reload (its hooks run there first) and publishes what it found, with the inline values and the
//   key scope, in shared memory; every backend takes the secrets from there and never reads a file
//   itself, so no session can use a file written after the reload that the others did not see.
//   (Where idgen is not preloaded, there is no postmaster's reading: each session reads the files
//   as it processes a reload.)
// - one transaction, one key: a secret is taken at its first use in a transaction and kept until
//   the transaction ends, so that every call of a statement, of a cursor's fetches and of the
//   transaction's other statements uses the same key, whatever reloads happen meanwhile.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>

#include "core/public_uuid.hpp"
#include "core/sql_names.hpp"  // the core headers first (core/cpp_only.hpp)
#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/settings/settings_parts.hpp"

extern "C" {
#include "access/xact.h"
#include "catalog/pg_authid_d.h"
#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"  // (get_database_name from 19 on; commands/dbcommands.h before)
}

namespace idgen::pg::settings {

namespace {

constexpr int kSecrets = 3;

// More is not a secret but a wrong file (or setting).
constexpr size_t kMaxSecretBytes = 8192;

// A secret has two forms: inline (idgen.token_secret = '...'), whose text passes through SQL when it
// is set with ALTER SYSTEM, and a file (idgen.token_secret_file = 'idgen_token_secret'), which
// never does. The file's check hook reads the file, at server start and at every reload, and keeps
// what it found as the "extra" data: the secret, or why there is none, which the functions that need
// the secret then raise. It never rejects the setting: a rejected setting would keep the secret of
// the file read before. (In a backend of a server that preloads idgen it reads nothing: the
// postmaster's reading is the one every backend uses.)
struct SecretFile {
  bool ok;
  char message[256];
  char detail[256];
  char hint[512];
  // Then the secret (when ok) and its NUL, in the same allocation: GUC frees extra data in one piece.
  const char* secret() const { return reinterpret_cast<const char*>(this + 1); }
};

struct SecretSetting {
  const char* name;
  const char* file_setting;  // the name of its file form
  size_t min_bytes;
  uint32_t consumers;      // for CheckConfigured
  const char* need;        // the detail of the error when it is unset
  const char* warning;     // the end of its hint
  const char* generate;    // a command that writes one (to a file named after it)
  const char* what;        // what a valid one is, for the hints
  char* stored;            // the GUC's value: always empty
  char* file_stored;       // the file form's value: the path, as given
  const char* value;       // the secret, from the check hook's extra data; nullptr when unset
  const SecretFile* file;  // what the file form read; nullptr when unset
  uint64_t generation;     // of what this process knows of it (either form assigned, or the scope)
};
SecretSetting secrets[kSecrets] = {
    {"idgen.token_secret", "idgen.token_secret_file", 32, kTokens,
     "Signed tokens need a secret of at least 32 bytes, known only to the server.", "", "openssl rand -hex 32",
     "a secret of at least 32 bytes", nullptr, nullptr, nullptr, nullptr, 0},
    {"idgen.public_id_key", "idgen.public_id_key_file", 32, kPublicIds,
     "Public IDs are a permutation under a secret key of at least 32 bytes, known only to the server.",
     ". Never change it once public IDs are out: they would all change.", "openssl rand -hex 32",
     "a secret of at least 32 bytes", nullptr, nullptr, nullptr, nullptr, 0},
    // (a key is 32 hexadecimal digits, which the key text's own check says: CheckContent)
    {"idgen.public_uuid_key", "idgen.public_uuid_key_file", 1, kPublicUuids,
     "Public UUIDs are façades made under a 128-bit key, known only to the server.",
     ". To change it later, keep the old key as a second line while its façades may come back.", "openssl rand -hex 16",
     "a key of 32 hexadecimal digits", nullptr, nullptr, nullptr, nullptr, 0},
};

// Generations are never reused by a process, and never 0 (the consumers' "none").
uint64_t last_generation = 0;

// What is wrong with a secret's text beyond its length, for the check hooks (so that the server log
// says it at start and at each reload, and an inline value is rejected): the public UUID key's text
// must hold keys. Never quotes the text.
struct ContentProblem {
  const char* detail;  // nullptr: none
  int key;             // which key (1 or 2), 0 for the text as a whole
};
ContentProblem CheckContent(Secret which, std::string_view text) {
  if (which != Secret::kPublicUuidKey) return {nullptr, 0};
  public_uuid::KeyRing ring;
  const public_uuid::KeyParse parse = public_uuid::ParseKeys(text, ring);
  explicit_bzero(&ring, sizeof ring);
  if (parse.problem == public_uuid::KeyProblem::kNone) return {nullptr, 0};
  return {public_uuid::Explain(parse.problem), parse.key};
}

const char* KeyOrdinal(int key) { return key == 1 ? "first key" : "second key"; }

// ---- what this process knows of a secret, and what the postmaster published ---------------------

// A secret's state: which forms are given, what the file holds or why it cannot be used, and the key
// scope. Plain data, copied whole into and out of shared memory.
struct SecretState {
  uint64_t generation;  // 0: never built
  bool inline_set;
  bool file_set;
  bool file_ok;
  int key_scope;
  char message[256];  // why the file cannot be used
  char detail[256];
  char hint[512];
  uint32_t length;  // of the secret in force: the inline value, or the file's (when only one form is set)
  char secret[kMaxSecretBytes + 1];
  size_t used() const { return offsetof(SecretState, secret) + length + 1; }
};

void BuildState(Secret which, int scope, SecretState& out) {
  const SecretSetting& s = secrets[static_cast<int>(which)];
  out.generation = s.generation;
  out.inline_set = s.value != nullptr;
  out.file_set = s.file != nullptr;
  out.file_ok = s.file != nullptr && s.file->ok;
  out.key_scope = scope;
  out.message[0] = out.detail[0] = out.hint[0] = '\0';
  if (s.file != nullptr && !s.file->ok) {
    strlcpy(out.message, s.file->message, sizeof out.message);
    strlcpy(out.detail, s.file->detail, sizeof out.detail);
    strlcpy(out.hint, s.file->hint, sizeof out.hint);
  }
  const char* secret = out.inline_set && !out.file_set  ? s.value
                       : out.file_ok && !out.inline_set ? s.file->secret()
                                                        : "";
  out.length = static_cast<uint32_t>(std::min(strlen(secret), kMaxSecretBytes));
  memcpy(out.secret, secret, out.length);
  out.secret[out.length] = '\0';
}

// Where idgen is preloaded: the postmaster's state of each secret, in shared memory, under a
// sequence number that is odd while the postmaster writes it (only the postmaster writes: it takes
// no lock, and a backend copies the state again when the number moved while it copied).
struct PublishedSlot {
  std::atomic<uint64_t> sequence;
  SecretState state;
};
struct Published {
  PublishedSlot slot[kSecrets];
};
Published* published = nullptr;

// The process that publishes: the postmaster (or a single-user server), where the hooks run first.
bool Publishes() { return !IsUnderPostmaster; }

// The scope the postmaster publishes (idgen.key_scope as it assigns it).
int publishing_scope = kKeyScopeServer;

// When a reload gives both forms, the postmaster's log says so, once per reload (the hooks of both
// forms run at each one; PgReloadTime is the previous reload's until this one ends).
TimestampTz both_logged[kSecrets] = {-1, -1, -1};

void Publish(Secret which) {
  if (!Publishes()) return;
  const int i = static_cast<int>(which);
  const SecretSetting& s = secrets[i];
  if (s.value != nullptr && s.file != nullptr && both_logged[i] != PgReloadTime) {
    both_logged[i] = PgReloadTime;
    ereport(LOG, errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("%s and %s are both set", s.name, s.file_setting),
            errdetail("idgen will not choose between two secrets: the functions that need it refuse until one is "
                      "removed."),
            errhint("Remove %s from postgresql.conf (or ALTER SYSTEM RESET %s) and keep %s, then reload.", s.name,
                    s.name, s.file_setting));
  }
  if (published == nullptr) return;  // (before shared memory exists: its startup publishes)
  static SecretState built;
  BuildState(which, publishing_scope, built);
  PublishedSlot& slot = published->slot[i];
  const uint64_t sequence = slot.sequence.load(std::memory_order_relaxed);
  slot.sequence.store(sequence + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  memcpy(&slot.state, &built, built.used());
  slot.sequence.store(sequence + 2, std::memory_order_release);
  explicit_bzero(built.secret, built.length);
}

// Copies the published state of a secret into out, unless the copy there is of the same sequence
// number already (*sequence). False if the postmaster kept writing it all along.
bool CopyPublished(Secret which, SecretState& out, uint64_t* sequence) {
  const PublishedSlot& slot = published->slot[static_cast<int>(which)];
  for (int attempt = 0; attempt < 10000; ++attempt) {
    const uint64_t before = slot.sequence.load(std::memory_order_acquire);
    if ((before & 1) == 0) {
      if (before == *sequence) return true;
      memcpy(&out, &slot.state, offsetof(SecretState, secret));
      out.length = std::min<uint32_t>(out.length, kMaxSecretBytes);
      memcpy(out.secret, slot.state.secret, out.length);
      out.secret[out.length] = '\0';
      std::atomic_thread_fence(std::memory_order_acquire);
      if (slot.sequence.load(std::memory_order_relaxed) == before) {
        *sequence = before;
        return true;
      }
    }
    if (attempt > 100) pg_usleep(100);
  }
  return false;
}

shmem_request_hook_type previous_shmem_request = nullptr;
shmem_startup_hook_type previous_shmem_startup = nullptr;

void RequestPublished() {
  if (previous_shmem_request != nullptr) previous_shmem_request();
  RequestAddinShmemSpace(sizeof(Published));
}

void StartPublished() {
  if (previous_shmem_startup != nullptr) previous_shmem_startup();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  void* raw = ShmemInitStruct("idgen secrets", sizeof(Published), &found);
  if (!found) {
    auto* fresh = static_cast<Published*>(raw);
    for (PublishedSlot& slot : fresh->slot) {
      new (&slot.sequence) std::atomic<uint64_t>(0);
      memset(&slot.state, 0, sizeof slot.state);
    }
  }
  published = static_cast<Published*>(raw);
  LWLockRelease(AddinShmemInitLock);
  // (at start, and when the postmaster makes shared memory again after a crash)
  if (Publishes()) {
    for (int i = 0; i < kSecrets; ++i) Publish(static_cast<Secret>(i));
  }
}

// ---- the hooks of the settings ------------------------------------------------------------------

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
  const ContentProblem problem = CheckContent(which, std::string_view(secret, length));
  if (length < s.min_bytes || length > kMaxSecretBytes || problem.detail != nullptr) {
    explicit_bzero(secret, length);
    compat::GucFree(secret);
    if (problem.detail != nullptr) {
      if (problem.key == 0) {
        GUC_check_errdetail("%s", problem.detail);
      } else {
        GUC_check_errdetail("Its %s is not a key as idgen reads it. %s", KeyOrdinal(problem.key), problem.detail);
      }
      GUC_check_errhint(
          "Give one or two keys of 32 hexadecimal digits (%s writes one), the key that makes façades "
          "first; better, in the file that %s names.",
          s.generate, s.file_setting);
    } else {
      GUC_check_errdetail(
          length > kMaxSecretBytes ? "%s must be at most %zu bytes long." : "%s must be at least %zu bytes long.",
          s.name, length > kMaxSecretBytes ? kMaxSecretBytes : s.min_bytes);
    }
    return false;
  }
  *extra = secret;
  return true;
}

template <Secret which>
void AssignSecret(const char*, void* extra) {
  SecretSetting& s = secrets[static_cast<int>(which)];
  s.value = static_cast<const char*>(extra);
  s.generation = ++last_generation;
  Publish(which);
}

// What SHOW, current_setting() and pg_settings print, to every role, superusers included: whether
// the secret is set, never what it is (no screen, monitoring tool or support ticket gets it; the
// file form shows its path instead, in its own setting).
template <Secret which>
const char* ShowSecret() {
  return secrets[static_cast<int>(which)].value != nullptr ? "********" : "";
}

// Reads the secret file at path into buffer (kMaxSecretBytes + 1 bytes), trailing whitespace
// removed, with the checks PostgreSQL makes of ssl_key_file: a regular file, owned by the server's
// user with no group or world access, or by root with no more than group read; then the checks of
// its content. On failure, says why in report, never quoting the file's content.
bool ReadSecretFile(Secret which, const char* path, char* buffer, size_t* length, SecretFile* report) {
  const SecretSetting& s = secrets[static_cast<int>(which)];
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
             "Write %s to %s, readable by the server's operating system user only (such as: %s > %s; chmod 600 %s), "
             "or correct %s; then reload the configuration.",
             which == Secret::kPublicUuidKey ? "a key" : "a secret", path, s.generate, path, path, s.file_setting);
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
  size_t n = fread(buffer, 1, kMaxSecretBytes + 1, file);
  const int error = errno;
  const bool failed = ferror(file) != 0;
  FreeFile(file);
  if (failed) {
    snprintf(report->message, sizeof report->message, "could not read %s \"%s\": %s", s.file_setting, path,
             strerror(error));
    snprintf(hint, sizeof hint, "Check the file that %s names, then reload the configuration.", s.file_setting);
    return fail("", hint);
  }
  if (which == Secret::kPublicUuidKey) {
    snprintf(hint, sizeof hint,
             "Write one key a line to %s, at most two, the key that makes façades first (such as: %s > %s), then "
             "reload the configuration; %s names that file.",
             path, s.generate, path, s.file_setting);
  } else {
    snprintf(hint, sizeof hint,
             "Write %s to %s, and nothing else (such as: %s > %s), then reload the configuration; %s names that "
             "file.",
             s.what, path, s.generate, path, s.file_setting);
  }
  char detail[sizeof report->detail];
  if (n > kMaxSecretBytes || memchr(buffer, '\0', n) != nullptr) {
    snprintf(report->message, sizeof report->message, "%s \"%s\" does not hold a secret", s.file_setting, path);
    snprintf(detail, sizeof detail, "A secret file holds text, the secret, and at most %zu bytes.", kMaxSecretBytes);
    return fail(detail, hint);
  }
  while (n > 0 && (buffer[n - 1] == '\n' || buffer[n - 1] == '\r' || buffer[n - 1] == ' ' || buffer[n - 1] == '\t' ||
                   buffer[n - 1] == '\v' || buffer[n - 1] == '\f')) {
    --n;
  }
  if (n < s.min_bytes || n == 0) {
    snprintf(report->message, sizeof report->message,
             n == 0 ? "%s \"%s\" is empty" : "the secret in %s \"%s\" is too short", s.file_setting, path);
    snprintf(detail, sizeof detail,
             "%s must be at least %zu bytes long, not counting the whitespace that ends the file.", s.name,
             s.min_bytes);
    return fail(n == 0 ? "" : detail, hint);
  }
  const ContentProblem problem = CheckContent(which, std::string_view(buffer, n));
  if (problem.detail != nullptr) {
    if (problem.key == 0) {
      snprintf(report->message, sizeof report->message, "%s \"%s\" does not hold keys as idgen reads them",
               s.file_setting, path);
    } else {
      snprintf(report->message, sizeof report->message, "the %s in %s \"%s\" is not a key as idgen reads it",
               KeyOrdinal(problem.key), s.file_setting, path);
    }
    return fail(problem.detail, hint);
  }
  *length = n;
  return true;
}

template <Secret which>
bool CheckSecretFile(char** value, void** extra, GucSource) {
  if (**value == '\0') {
    *extra = nullptr;
    return true;
  }
  SecretFile report{};
  size_t length = 0;
  if (IsUnderPostmaster && published != nullptr) {
    // A backend of a server that preloads idgen: the postmaster's reading is the one in use.
    strlcpy(report.message, "(read by the postmaster)", sizeof report.message);
  } else {
    // Relative to the data directory, as PostgreSQL's other file settings.
    char path[MAXPGPATH];
    if (is_absolute_path(*value) || DataDir == nullptr) {
      strlcpy(path, *value, sizeof path);
    } else {
      snprintf(path, sizeof path, "%s/%s", DataDir, *value);
    }
    static char buffer[kMaxSecretBytes + 1];
    report.ok = ReadSecretFile(which, path, buffer, &length, &report);
    if (!report.ok) {
      length = 0;
      // In the postmaster's log, at start and at each reload (a backend that reads the file as it
      // reloads says it at DEBUG2); the functions that need the secret raise the same error until
      // the file is corrected.
      ereport(Publishes() ? LOG : DEBUG2, errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("%s", report.message),
              report.detail[0] != '\0' ? errdetail("%s", report.detail) : 0, errhint("%s", report.hint));
    }
    auto* out = static_cast<SecretFile*>(compat::GucMalloc(sizeof(SecretFile) + length + 1));
    if (out != nullptr) {
      *out = report;
      char* secret = reinterpret_cast<char*>(out + 1);
      memcpy(secret, buffer, length);
      secret[length] = '\0';
    }
    explicit_bzero(buffer, sizeof buffer);
    if (out == nullptr) return false;
    *extra = out;
    return true;
  }
  auto* out = static_cast<SecretFile*>(compat::GucMalloc(sizeof(SecretFile) + 1));
  if (out == nullptr) return false;
  *out = report;
  reinterpret_cast<char*>(out + 1)[0] = '\0';
  *extra = out;
  return true;
}

template <Secret which>
void AssignSecretFile(const char*, void* extra) {
  SecretSetting& s = secrets[static_cast<int>(which)];
  s.file = static_cast<const SecretFile*>(extra);
  s.generation = ++last_generation;
  Publish(which);
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
                             "Read at server start and at every reload (by the postmaster where idgen is preloaded, "
                             "and every session uses what it read). An absolute path, or relative to the data "
                             "directory (which pg_basebackup copies); readable by the server's operating system user "
                             "only (0600). Set this or the inline setting, not both.",
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

// ---- the secret a transaction uses ---------------------------------------------------------------

// A secret as this backend took it: the state it was taken from, and the secret in use (the key
// scope applied), fixed from its first use in a transaction until the transaction ends.
struct Taken {
  bool in_transaction;        // taken in the current transaction: every call returns it as it is
  uint64_t sequence = ~0ULL;  // of the published state copied into state (~0: none)
  SecretState state;          // the postmaster's (copied), or this process's own
  uint64_t scoped_for;        // the generation of state that scoped holds the key of (0: none)
  char scoped[std::max<size_t>(32, public_uuid::kMaxKeyText) + 1];
  std::string_view in_use;
};
Taken taken[kSecrets];
bool xact_callback_registered = false;

void EndOfTransaction(XactEvent event, void*) {
  if (event == XACT_EVENT_PRE_COMMIT || event == XACT_EVENT_PARALLEL_PRE_COMMIT || event == XACT_EVENT_PRE_PREPARE) {
    return;
  }
  for (Taken& t : taken) t.in_transaction = false;
}

// The message from which a database's keys are derived (idgen.key_scope = 'database'): the keys of
// a database are the same on every server with the same secret (a restore, a standby), and another
// name's are unrelated.
int ScopeMessage(char (&message)[NAMEDATALEN + 64]) {
  char* database = get_database_name(MyDatabaseId);
  const int length =
      snprintf(message, sizeof message, "idgen key scope: database %s", database != nullptr ? database : "");
  if (database != nullptr) pfree(database);
  return std::min<int>(length, sizeof message - 1);
}

// The secret as the key scope gives it (idgen.key_scope): the configuration's itself for the server,
// or keys derived from it and this database's name, so that what a database owner makes with them (a
// token, a public ID, a façade) is this database's alone and reads nowhere else. A token secret or a
// public-ID key becomes HMAC-SHA256(secret, message); each key of the public UUID key text becomes the
// first 16 bytes of HMAC-SHA256(its 16 bytes, message), in the same text (its mapping kept). Derived
// once per state taken.
void Scope(Secret which, Taken& t) {
  const std::string_view secret(t.state.secret, t.state.length);
  if (t.state.key_scope != kKeyScopeDatabase) {
    t.in_use = secret;
    return;
  }
  if (t.scoped_for != t.state.generation) {
    char message[NAMEDATALEN + 64];
    const std::string_view by(message, static_cast<size_t>(ScopeMessage(message)));
    if (which != Secret::kPublicUuidKey) {
      uint8_t key[32];
      HmacSha256(secret, by, key);
      memcpy(t.scoped, key, sizeof key);
      explicit_bzero(key, sizeof key);
      t.in_use = std::string_view(t.scoped, sizeof key);
    } else {
      public_uuid::KeyRing ring;
      if (public_uuid::ParseKeys(secret, ring).problem != public_uuid::KeyProblem::kNone) {
        // (no key to derive from: the consumer refuses the text, never reading it as a key)
        t.in_use = secret;
        t.scoped_for = t.state.generation;
        return;
      }
      for (int k = 0; k < ring.count; ++k) {
        uint8_t bytes[16], derived[32];
        public_uuid::KeyBytes(ring.keys[k].key, bytes);
        HmacSha256(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes), by, derived);
        uint8_t first[16];
        memcpy(first, derived, sizeof first);
        ring.keys[k].key = public_uuid::KeyOfBytes(first);
        explicit_bzero(bytes, sizeof bytes);
        explicit_bzero(derived, sizeof derived);
        explicit_bzero(first, sizeof first);
      }
      char text[public_uuid::kMaxKeyText + 1];
      const size_t n = public_uuid::WriteKeys(ring, text);
      memcpy(t.scoped, text, n + 1);
      explicit_bzero(text, sizeof text);
      explicit_bzero(&ring, sizeof ring);
      t.in_use = std::string_view(t.scoped, n);
    }
    t.scoped_for = t.state.generation;
  }
}

// The state of a secret now: the postmaster's where idgen is preloaded, this process's otherwise.
void TakeState(Secret which, Taken& t) {
  if (published != nullptr) {
    if (!CopyPublished(which, t.state, &t.sequence)) {
      Raise(ErrorKind::kInternal, "could not read the secrets that the postmaster published",
            "The postmaster kept writing them while this session read them.", "Try again.");
    }
    return;
  }
  if (t.state.generation != secrets[static_cast<int>(which)].generation || t.state.key_scope != key_scope) {
    BuildState(which, key_scope, t.state);
  }
}

}  // namespace

SecretInUse RequireSecret(Secret which) {
  const int i = static_cast<int>(which);
  Taken& t = taken[i];
  if (t.in_transaction) [[likely]]
    return SecretInUse{t.in_use, t.state.generation};
  const SecretSetting& s = secrets[i];
  CheckConfigured(s.consumers);
  TakeState(which, t);
  const SecretState& state = t.state;
  char message[128];
  char hint[512];
  if (state.file_set && state.inline_set) {
    snprintf(message, sizeof message, "%s and %s are both set", s.name, s.file_setting);
    snprintf(hint, sizeof hint,
             "Set one of them: remove %s from postgresql.conf (or ALTER SYSTEM RESET %s) and keep %s, then reload.",
             s.name, s.name, s.file_setting);
    Raise(ErrorKind::kPrerequisite, message, "idgen will not choose between two secrets.", hint);
  }
  if (state.file_set && !state.file_ok) {
    // The file's path is part of the setting, which only superusers and pg_read_all_settings read.
    if (MayReadHiddenSettings()) Raise(ErrorKind::kPrerequisite, state.message, state.detail, state.hint);
    snprintf(message, sizeof message, "the file named by %s cannot be used", s.file_setting);
    Raise(ErrorKind::kPrerequisite, message,
          "It is missing, unreadable, open to other users or holds no secret: the server log says which, and so "
          "does this error for a superuser or a member of pg_read_all_settings.",
          "Ask the administrator of the server to correct the file, then reload the configuration.");
  }
  if (!state.file_set && !state.inline_set) {
    // The file the README names: idgen_token_secret for idgen.token_secret.
    char file[NAMEDATALEN];
    strlcpy(file, s.name, sizeof file);
    for (char* c = file; *c != '\0'; ++c) {
      if (*c == '.') *c = '_';
    }
    snprintf(message, sizeof message, "%s is not set", s.name);
    snprintf(hint, sizeof hint,
             "Write %s to a file that only the server's operating system user can read (such as: %s > "
             "$PGDATA/%s; chmod 600 $PGDATA/%s), set %s = '%s' in postgresql.conf and reload%s",
             s.what, s.generate, file, file, s.file_setting, file, s.warning);
    Raise(ErrorKind::kPrerequisite, message, s.need, hint);
  }
  // A secret written in the configuration is a secret only where the postmaster knows it is one:
  // until a session loads idgen, PostgreSQL shows an idgen.* setting it does not know to every role
  // (SHOW), and logs its new value at each reload.
  if (state.inline_set && !LoadedByPreload()) {
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
  Scope(which, t);
  if (!xact_callback_registered) {
    RegisterXactCallback(EndOfTransaction, nullptr);
    xact_callback_registered = true;
  }
  t.in_transaction = true;
  return SecretInUse{t.in_use, t.state.generation};
}

void KeyScopeAssigned(int scope) {
  publishing_scope = scope;
  for (int i = 0; i < kSecrets; ++i) {
    secrets[i].generation = ++last_generation;
    Publish(static_cast<Secret>(i));
  }
}

void DefineSecrets() {
  if (emit_log_hook != HideSecrets) {
    previous_emit_log_hook = emit_log_hook;
    emit_log_hook = HideSecrets;
  }
  publishing_scope = key_scope;
  static bool shared_memory_asked = false;
  if (process_shared_preload_libraries_in_progress && !shared_memory_asked) {
    shared_memory_asked = true;
    previous_shmem_request = shmem_request_hook;
    shmem_request_hook = RequestPublished;
    previous_shmem_startup = shmem_startup_hook;
    shmem_startup_hook = StartPublished;
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
