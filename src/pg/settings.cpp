// The settings of idgen. Three rules run through this file:
// - anything whose change could make two servers issue the same ID is the superuser's;
// - a secret is set only in the server's configuration and never lives in the GUC machinery: the
//   check hook keeps it as "extra" data and stores an empty value, so that SHOW, pg_settings,
//   pg_db_role_setting and the reload log ("parameter ... changed to ...") never see it; its file
//   form (idgen.token_secret_file) keeps it out of SQL text as well;
// - a setting that the configuration gives but PostgreSQL rejects, or an idgen.* name that does not
//   exist, makes the generators that read it refuse instead of using a default.
#include "pg/settings.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/decimal_id.hpp"
#include "core/uid20.hpp"
#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"

extern "C" {
#include "storage/fd.h"
#include "utils/guc.h"
}

namespace idgen::pg::settings {

int node_id = 0;
int max_clock_regression_ms = 5000;
int max_clock_lead_ms = 600000;
int failover_margin_ms = 10000;
int uid20_server = 0;
int launch_id = -1;

namespace {

constexpr uint32_t kLayoutFamilies =
    Of(kFamilyInstagram) | Of(kFamilySnowflake) | Of(kFamilySonyflake) | Of(kFamilyTrace) | Of(kFamilyJs);
constexpr uint32_t kUid20Families = Of(kFamilyUid20) | Of(kFamilyUid20Sec);
constexpr uint32_t kEveryConsumer =
    Of(kFamilyUuidv7) | kLayoutFamilies | kUid20Families | Of(kFamilyNsId) | Of(kFamilyDecimalId) | kTokens | kPublicIds;

// ---- epochs: text settings (a bigint does not fit an integer GUC), parsed once -----------------

char* epoch_text[kFamilyCount];
int64_t epoch_ms[kFamilyCount];
constexpr int64_t kLatestEpochMs = 4102444800000;  // 2100-01-01

bool CheckEpoch(char** value, void** extra, GucSource) {
  char* end = nullptr;
  errno = 0;
  const long long ms = strtoll(*value, &end, 10);
  if (errno != 0 || end == *value || *end != '\0' || ms < 0 || ms > kLatestEpochMs) {
    GUC_check_errdetail("An epoch is a whole number of milliseconds since 1970-01-01 00:00:00 UTC, before 2100.");
    return false;
  }
  auto* parsed = static_cast<int64_t*>(compat::GucMalloc(sizeof(int64_t)));
  if (parsed == nullptr) return false;
  *parsed = ms;
  *extra = parsed;
  return true;
}

template <Family family>
void AssignEpoch(const char*, void* extra) {
  epoch_ms[family] = *static_cast<int64_t*>(extra);
  if (family == kFamilyUid20) epoch_ms[kFamilyUid20Sec] = epoch_ms[family];  // one setting for both
}

// idgen.<name>_epoch_ms, defaulting to the published epoch of the scheme.
template <Family family>
void DefineEpoch(const char* name_part, int64_t default_ms, const char* title) {
  static char default_text[24], name[64], description[128];
  snprintf(default_text, sizeof default_text, "%lld", static_cast<long long>(default_ms));
  snprintf(name, sizeof name, "idgen.%s_epoch_ms", name_part);
  snprintf(description, sizeof description, "Epoch of %s IDs, in milliseconds since 1970-01-01 00:00:00 UTC.", title);
  DefineCustomStringVariable(name, description,
                             "Changing it on a live system changes how existing IDs decode; moving it later "
                             "can make new IDs repeat old ones.",
                             &epoch_text[family], default_text, PGC_SUSET, 0, CheckEpoch, AssignEpoch<family>,
                             nullptr);
}

template <Family family>
void DefineEpoch() {
  DefineEpoch<family>(kLayouts[family]->family, kLayouts[family]->epoch_ms, kLayouts[family]->title);
}

// ---- idgen.instagram_shards: "0-2047", "5,9,100-199" -------------------------------------------

constexpr int kShards = kInstagram.max_node() + 1;
struct ShardSet {
  uint8_t bits[kShards / 8];
};
char* shards_text = nullptr;
const ShardSet* owned_shards = nullptr;

bool CheckShards(char** value, void** extra, GucSource) {
  auto* set = static_cast<ShardSet*>(compat::GucMalloc(sizeof(ShardSet)));
  if (set == nullptr) return false;
  memset(set, 0, sizeof *set);
  const char* p = *value;
  for (;;) {
    while (*p == ' ') ++p;
    char* end = nullptr;
    errno = 0;
    const long first = strtol(p, &end, 10);
    if (end == p || errno != 0) break;
    long last = first;
    p = end;
    while (*p == ' ') ++p;
    if (*p == '-') {
      const char* from = p + 1;
      errno = 0;
      last = strtol(from, &end, 10);
      if (end == from || errno != 0) break;
      p = end;
      while (*p == ' ') ++p;
    }
    if (first < 0 || last >= kShards || first > last) {
      GUC_check_errdetail("Shards are numbers from 0 to %d; a range is \"low-high\" with low <= high.", kShards - 1);
      compat::GucFree(set);
      return false;
    }
    for (long s = first; s <= last; ++s) set->bits[s / 8] |= static_cast<uint8_t>(1u << (s % 8));
    if (*p == '\0') {
      *extra = set;
      return true;
    }
    if (*p != ',') break;
    ++p;
  }
  GUC_check_errdetail("List the shards this server owns as numbers and ranges separated by commas, such as "
                      "\"0-2047\" or \"5,9,100-199\".");
  compat::GucFree(set);
  return false;
}

void AssignShards(const char*, void* extra) { owned_shards = static_cast<const ShardSet*>(extra); }

// ---- secrets -----------------------------------------------------------------------------------

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
  char* stored;            // the GUC's value: always empty
  char* file_stored;       // the file form's value: the path, as given
  const char* value;       // the secret, from the check hook's extra data; nullptr when unset
  const SecretFile* file;  // what the file form read; nullptr when unset
  uint64_t generation;     // counts the assignments of either form, for what a consumer derives from it
};
SecretSetting secrets[] = {
    {"idgen.token_secret", "idgen.token_secret_file", 32, kTokens,
     "Signed tokens need a secret of at least 32 bytes, known only to the server.", "", nullptr, nullptr, nullptr,
     nullptr, 0},
    {"idgen.public_id_key", "idgen.public_id_key_file", 32, kPublicIds,
     "Public IDs are a permutation under a secret key of at least 32 bytes, known only to the server.",
     ". Never change it once public IDs are out: they would all change.", nullptr, nullptr, nullptr, nullptr, 0},
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

template <Secret which>
const char* ShowSecret() {
  const char* value = secrets[static_cast<int>(which)].value;
  if (value == nullptr) return "";
  return superuser() ? value : "********";
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
           "Write a secret of at least %zu bytes to %s, and nothing else (such as: openssl rand -hex 32 > %s), "
           "then reload the configuration; %s names that file.",
           s.min_bytes, path, path, s.file_setting);
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

// ---- the debug fault ---------------------------------------------------------------------------

const config_enum_entry kDebugFaults[] = {
    {"none", kNoFault, false},
    {"random", kFaultRandom, false},
    {"out_of_memory", kFaultMemory, false},
    {"internal", kFaultInternal, false},
    {nullptr, 0, false},
};
int debug_fault = kNoFault;

// ---- the configuration's idgen.* lines ---------------------------------------------------------

// Which consumers read each setting.
struct Reader {
  const char* name;
  uint32_t consumers;
};
constexpr Reader kReaders[] = {
    {"idgen.node_id", Of(kFamilySnowflake) | Of(kFamilySonyflake) | Of(kFamilyTrace) | Of(kFamilyJs)},
    {"idgen.max_clock_regression", kLayoutFamilies | kUid20Families},
    {"idgen.max_clock_lead", Of(kFamilyUuidv7) | Of(kFamilyNsId)},
    {"idgen.failover_margin", kEveryConsumer & ~(kTokens | kPublicIds)},
    {"idgen.instagram_epoch_ms", Of(kFamilyInstagram)},
    {"idgen.snowflake_epoch_ms", Of(kFamilySnowflake)},
    {"idgen.sonyflake_epoch_ms", Of(kFamilySonyflake)},
    {"idgen.trace_epoch_ms", Of(kFamilyTrace)},
    {"idgen.js_epoch_ms", Of(kFamilyJs)},
    {"idgen.uid20_epoch_ms", kUid20Families},
    {"idgen.uid20_server", kUid20Families},
    {"idgen.launch_id", Of(kFamilyDecimalId)},
    {"idgen.instagram_shards", Of(kFamilyInstagram)},
    {"idgen.token_secret", kTokens},
    {"idgen.token_secret_file", kTokens},
    {"idgen.public_id_key", kPublicIds},
    {"idgen.public_id_key_file", kPublicIds},
    {"idgen.debug_fault", 0},
};

// A setting the configuration gave that idgen cannot use. Plain data, allocated once per process.
struct Problem {
  uint32_t consumers;
  char message[256];
  char detail[512];
};
constexpr int kMaxProblems = 8;
Problem* problems = nullptr;
int problem_count = 0;
bool loaded_by_preload = false;
uint32_t problem_consumers = 0;

// A placeholder for an idgen.* name, seen before the library defined its settings.
struct Given {
  char name[NAMEDATALEN];
  char value[128];
  char where[MAXPGPATH + 32];
  GucSource source;
};

const char* SourceName(GucSource source) {
  switch (source) {
    case PGC_S_FILE:
      return "the configuration file";
    case PGC_S_DATABASE:
    case PGC_S_USER:
    case PGC_S_DATABASE_USER:
      return "ALTER DATABASE or ALTER ROLE ... SET";
    case PGC_S_CLIENT:
      return "the connection's options";
    default:
      return "a SET before idgen was loaded";
  }
}

int CollectGiven(Given* given, int max) {
  int count = 0, total = 0;
  config_generic** vars = compat::GucVariables(&total);
  for (int i = 0; i < total && count < max; ++i) {
    const config_generic* g = vars[i];
    if ((g->flags & GUC_CUSTOM_PLACEHOLDER) == 0 || pg_strncasecmp(g->name, "idgen.", 6) != 0) continue;
    Given& out = given[count++];
    strlcpy(out.name, g->name, sizeof out.name);
    const char* value = *reinterpret_cast<const config_string*>(g)->variable;
    const bool secret = pg_strcasecmp(g->name, "idgen.token_secret") == 0 || pg_strcasecmp(g->name, "idgen.public_id_key") == 0;
    strlcpy(out.value, secret ? "(hidden)" : value != nullptr ? value : "", sizeof out.value);
    out.source = g->source;
    if (g->sourcefile != nullptr) {
      snprintf(out.where, sizeof out.where, "%s line %d", g->sourcefile, g->sourceline);
    } else {
      strlcpy(out.where, SourceName(g->source), sizeof out.where);
    }
  }
  return count;
}

const config_generic* Defined(const char* name) {
  int total = 0;
  config_generic** vars = compat::GucVariables(&total);
  for (int i = 0; i < total; ++i) {
    if ((vars[i]->flags & GUC_CUSTOM_PLACEHOLDER) == 0 && pg_strcasecmp(vars[i]->name, name) == 0) return vars[i];
  }
  return nullptr;
}

void AddProblem(uint32_t consumers, const Given& given, bool unknown) {
  if (problems == nullptr) {
    problems = static_cast<Problem*>(MemoryContextAllocZero(TopMemoryContext, sizeof(Problem) * kMaxProblems));
  }
  if (problem_count == kMaxProblems) return;
  Problem& p = problems[problem_count++];
  p.consumers = consumers;
  if (unknown) {
    snprintf(p.message, sizeof p.message, "\"%s\" is not an idgen setting", given.name);
  } else {
    snprintf(p.message, sizeof p.message, "invalid value for %s: \"%s\"", given.name, given.value);
  }
  snprintf(p.detail, sizeof p.detail,
           "It is set in %s. idgen refuses to make IDs that depend on its settings rather than fall back to a "
           "default that could repeat another server's IDs.",
           given.where);
  problem_consumers |= consumers;
}

void CheckGiven(const Given* given, int count) {
  for (int i = 0; i < count; ++i) {
    const Reader* reader = nullptr;
    for (const Reader& r : kReaders) {
      if (pg_strcasecmp(r.name, given[i].name) == 0) reader = &r;
    }
    if (reader == nullptr) {
      AddProblem(kEveryConsumer, given[i], true);
      continue;
    }
    const config_generic* defined = Defined(reader->name);
    // Applied, the value carries the placeholder's source; rejected, the setting kept its default.
    if (defined != nullptr && defined->source != given[i].source && reader->consumers != 0) {
      AddProblem(reader->consumers, given[i], false);
    }
  }
}

}  // namespace

int64_t EpochMs(Family family) { return epoch_ms[family]; }

bool OwnsShard(int64_t shard) {
  return owned_shards == nullptr ||
         (shard >= 0 && shard < kShards && (owned_shards->bits[shard / 8] >> (shard % 8) & 1) != 0);
}

const char* InstagramShards() { return shards_text != nullptr ? shards_text : ""; }

uint32_t IdentityHash() {
  // FNV-1a over the node id, the server digit and the owned shards (the set, not its spelling).
  uint32_t hash = 2166136261u;
  const auto mix = [&hash](uint8_t byte) { hash = (hash ^ byte) * 16777619u; };
  for (int shift = 0; shift < 32; shift += 8) mix(static_cast<uint8_t>(node_id >> shift));
  mix(static_cast<uint8_t>(uid20_server));
  for (int i = 0; i < kShards / 8; ++i) mix(owned_shards != nullptr ? owned_shards->bits[i] : 0xFF);
  return hash;
}

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
    if (!s.file->ok) Raise(ErrorKind::kPrerequisite, s.file->message, s.file->detail, s.file->hint);
    return s.file->secret();
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
             "Write a secret to a file that only the server's operating system user can read (openssl rand -hex 32 > "
             "$PGDATA/%s; chmod 600 $PGDATA/%s), set %s = '%s' in postgresql.conf and reload%s",
             file, file, s.file_setting, file, s.warning);
    Raise(ErrorKind::kPrerequisite, message, s.need, hint);
  }
  return s.value;
}

uint64_t SecretGeneration(Secret which) { return secrets[static_cast<int>(which)].generation; }

int DebugFaultNow() { return debug_fault; }

void CheckConfigured(uint32_t consumers) {
  if ((problem_consumers & consumers) == 0) return;
  for (int i = 0; i < problem_count; ++i) {
    if ((problems[i].consumers & consumers) == 0) continue;
    Raise(ErrorKind::kPrerequisite, problems[i].message, problems[i].detail,
          loaded_by_preload
              ? "Correct that setting, then restart the server."
              : "Correct that setting, then restart the server (where idgen is not preloaded, a new session reads "
                "the configuration again).");
  }
}

void Define() {
  loaded_by_preload = process_shared_preload_libraries_in_progress;
  constexpr int kMaxGiven = 32;
  Given given[kMaxGiven];
  const int given_count = CollectGiven(given, kMaxGiven);

  DefineCustomEnumVariable("idgen.debug_fault", "Makes idgen's random source fail, to test error reporting.",
                           "For idgen's own tests only.", &debug_fault, kNoFault, kDebugFaults, PGC_SUSET,
                           GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr,
                           [](int, void*) { BackendRandom().Discard(); }, nullptr);
  DefineCustomIntVariable("idgen.node_id", "Node id of this server in Snowflake, Sonyflake and TraceId IDs.",
                          "Give every server that generates these IDs its own node id. Snowflake holds 0 to 1023, "
                          "Sonyflake and TraceId 0 to 65535.",
                          &node_id, 0, 0, 65535, PGC_SUSET, 0, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("idgen.max_clock_regression",
                          "How far the system clock may step back before 64-bit ID generators refuse.",
                          "Up to this, they carry on from the last time issued; beyond it, they raise an error.",
                          &max_clock_regression_ms, 5000, 0, 3600000, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr,
                          nullptr);
  DefineCustomIntVariable("idgen.max_clock_lead",
                          "How far ahead of the system clock UUIDv7, typeid and ns_id carry on after the clock stepped "
                          "back.",
                          "Up to this, they carry on from the last ID, keeping their order; beyond it (a clock that was "
                          "set years ahead and back), they return to the clock, unique by their random bits.",
                          &max_clock_lead_ms, 600000, 0, INT_MAX, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("idgen.failover_margin",
                          "How far beyond the last durable mark it received a promoted standby starts generating.",
                          "An asynchronous standby may lack its primary's last leases: make this longer than the "
                          "replication lag (and the clock skew between the servers) you allow.",
                          &failover_margin_ms, 10000, 0, INT_MAX, PGC_SIGHUP, GUC_UNIT_MS, nullptr, nullptr, nullptr);
  DefineEpoch<kFamilyInstagram>();
  DefineEpoch<kFamilySnowflake>();
  DefineEpoch<kFamilySonyflake>();
  DefineEpoch<kFamilyTrace>();
  DefineEpoch<kFamilyJs>();
  DefineEpoch<kFamilyUid20>("uid20", uid20::kDefaultEpochMs, "UID20");
  DefineCustomIntVariable("idgen.uid20_server", "The server digit of this server's UID20 IDs.",
                          "The last digit of idgen.uid20() and idgen.uid20_sec(): give every server its own.",
                          &uid20_server, 0, 0, uid20::kMaxServer, PGC_SUSET, 0, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("idgen.launch_id", "The launch id of this deployment's DecimalIds (1 to 99999).",
                          "The last five digits of idgen.decimal_id(); -1, the default, means not set: DecimalIds are "
                          "refused until it is. 0 is for tests.",
                          &launch_id, -1, -1, decimal_id::kMaxLaunch, PGC_SUSET, 0, nullptr, nullptr, nullptr);
  DefineCustomStringVariable("idgen.instagram_shards", "The Instagram shards this server owns, such as 0-2047.",
                             "idgen.instagram_id(shard) refuses any other shard. Give every server its own range.",
                             &shards_text, "0-8191", PGC_SUSET, 0, CheckShards, AssignShards, nullptr);
  DefineSecret<Secret::kTokenSecret>(
      "secret key of idgen.signed_token() and idgen.verify_token()",
      "Secret key of idgen.signed_token() and idgen.verify_token().",
      "At least 32 bytes, set in the server configuration only; only superusers can see it. Changing it invalidates "
      "every token signed before. Prefer idgen.token_secret_file: a value set with ALTER SYSTEM passes through SQL "
      "text (pg_stat_statements, the statement log).");
  DefineSecret<Secret::kPublicIdKey>(
      "secret key of idgen.public_id() and idgen.private_id()",
      "Secret key of idgen.public_id() and idgen.private_id().",
      "At least 32 bytes, set in the server configuration only; only superusers can see it. Changing it changes every "
      "public ID. Prefer idgen.public_id_key_file: a value set with ALTER SYSTEM passes through SQL text "
      "(pg_stat_statements, the statement log).");

  CheckGiven(given, given_count);
  MarkGUCPrefixReserved("idgen");
}

}  // namespace idgen::pg::settings
