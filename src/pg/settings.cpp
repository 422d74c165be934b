// The settings of idgen. Three rules run through this file:
// - anything whose change could make two servers issue the same ID is the superuser's;
// - a secret is set only in the server's configuration and never lives in the GUC machinery: the
//   check hook keeps it as "extra" data and stores an empty value, so that SHOW, pg_settings,
//   pg_db_role_setting and the reload log ("parameter ... changed to ...") never see it;
// - a setting that the configuration gives but PostgreSQL rejects, or an idgen.* name that does not
//   exist, makes the generators that read it refuse instead of using a default.
#include "pg/settings.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/decimal_id.hpp"
#include "core/uid20.hpp"
#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"

extern "C" {
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

struct SecretSetting {
  const char* name;
  size_t min_bytes;
  uint32_t consumers;     // for CheckConfigured
  const char* need;       // the detail of the error when it is unset
  const char* warning;    // the end of its hint
  char* stored;           // the GUC's value: always empty
  const char* value;      // the secret, from the check hook's extra data; nullptr when unset
};
SecretSetting secrets[] = {
    {"idgen.token_secret", 32, kTokens, "Signed tokens need a secret of at least 32 bytes, known only to the server.",
     "", nullptr, nullptr},
    {"idgen.public_id_key", 32, kPublicIds,
     "Public IDs are a permutation under a secret key of at least 32 bytes, known only to the server.",
     ". Never change it once public IDs are out: they would all change.", nullptr, nullptr},
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
  secrets[static_cast<int>(which)].value = static_cast<const char*>(extra);
}

template <Secret which>
const char* ShowSecret() {
  const char* value = secrets[static_cast<int>(which)].value;
  if (value == nullptr) return "";
  return superuser() ? value : "********";
}

template <Secret which>
void DefineSecret(const char* description, const char* long_description) {
  DefineCustomStringVariable(secrets[static_cast<int>(which)].name, description, long_description,
                             &secrets[static_cast<int>(which)].stored, "", PGC_SIGHUP,
                             GUC_SUPERUSER_ONLY | GUC_NOT_IN_SAMPLE, CheckSecret<which>, AssignSecret<which>,
                             ShowSecret<which>);
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
    {"idgen.public_id_key", kPublicIds},
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
  if (s.value == nullptr) {
    char message[64];
    char hint[256];
    snprintf(message, sizeof message, "%s is not set", s.name);
    snprintf(hint, sizeof hint,
             "Set %s in postgresql.conf (or with ALTER SYSTEM) and reload, e.g. to the output of: openssl rand -hex "
             "32%s",
             s.name, s.warning);
    Raise(ErrorKind::kPrerequisite, message, s.need, hint);
  }
  return s.value;
}

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
      "Secret key of idgen.signed_token() and idgen.verify_token().",
      "At least 32 bytes, set in the server configuration only; only superusers can see it. Changing it invalidates "
      "every token signed before.");
  DefineSecret<Secret::kPublicIdKey>(
      "Secret key of idgen.public_id() and idgen.private_id().",
      "At least 32 bytes, set in the server configuration only; only superusers can see it. Changing it changes every "
      "public ID.");

  CheckGiven(given, given_count);
  MarkGUCPrefixReserved("idgen");
}

}  // namespace idgen::pg::settings
