// The idgen.* settings that the configuration gives but idgen cannot use: a name that does not
// exist (misspelt), or a value that PostgreSQL rejected. Either makes the generators that read the
// setting refuse instead of using a default that could repeat another server's IDs.
#include <cstring>
#include <optional>

#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/settings/settings_parts.hpp"

extern "C" {
#include "miscadmin.h"
#include "postmaster/interrupt.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
}

namespace idgen::pg::settings {

namespace {

// Which consumers read each setting.
struct Reader {
  const char* name;
  uint32_t consumers;
};
constexpr Reader kReaders[] = {
    {"idgen.node_id", Of(kFamilySnowflake) | Of(kFamilySonyflake) | Of(kFamilyTrace) | Of(kFamilyJs)},
    {"idgen.node_id_source", Of(kFamilySnowflake) | Of(kFamilySonyflake) | Of(kFamilyTrace) | Of(kFamilyJs)},
    {"idgen.max_clock_regression", kLayoutFamilies | kUid20Families},
    {"idgen.max_clock_lead", Of(kFamilyUuidv7) | Of(kFamilyNsId)},
    {"idgen.failover_margin", kEveryConsumer & ~(kTokens | kPublicIds | kPublicUuids)},
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
    {"idgen.key_scope", kTokens | kPublicIds | kPublicUuids},
    {"idgen.public_id_key", kPublicIds},
    {"idgen.public_id_key_file", kPublicIds},
    {"idgen.public_uuid_key", kPublicUuids},
    {"idgen.public_uuid_key_file", kPublicUuids},
#ifdef IDGEN_DEBUG_FAULT
    {"idgen.debug_fault", 0},  // a release build does not know it: there, it is a misspelt setting
#endif
};

// A setting the configuration gave that idgen cannot use. Plain data, allocated once per process.
struct Problem {
  uint32_t consumers;
  bool from_file;  // a line of the configuration files: checked again at each reload
  char message[256];
  char detail[512];         // where it is set: the file and line, for superusers and pg_read_all_settings
  char public_detail[256];  // the same without the file, for every other role
};
constexpr int kMaxProblems = 8;
Problem* problems = nullptr;
int problem_count = 0;
bool loaded_by_preload = false;

// A placeholder for an idgen.* name, seen before the library defined its settings.
struct Given {
  char name[NAMEDATALEN];
  char value[128];
  char where[MAXPGPATH + 32];
  GucSource source;
  bool from_file;
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

// Whether a setting's name is a secret's, or its file's, or a misspelling that starts like one: its
// value is never repeated in a message (the paths of the files are for superusers and
// pg_read_all_settings only).
bool NamesSecret(const char* name) {
  return pg_strncasecmp(name, "idgen.token_secret", 18) == 0 || pg_strncasecmp(name, "idgen.public_id_key", 19) == 0 ||
         pg_strncasecmp(name, "idgen.public_uuid_key", 21) == 0;
}

int CollectGiven(Given* given, int max) {
  int count = 0, total = 0;
  config_generic** vars = compat::GucVariables(&total);
  for (int i = 0; i < total && count < max; ++i) {
    const config_generic* g = vars[i];
    if ((g->flags & GUC_CUSTOM_PLACEHOLDER) == 0 || pg_strncasecmp(g->name, "idgen.", 6) != 0) continue;
    Given& out = given[count++];
    strlcpy(out.name, g->name, sizeof out.name);
    const char* value = compat::GucStringValue(g);
    // (the secrets, and the paths of their files, which only superusers and pg_read_all_settings read)
    const bool secret = NamesSecret(g->name);
    strlcpy(out.value, secret ? "(hidden)" : value != nullptr ? value : "", sizeof out.value);
    out.source = g->source;
    out.from_file = g->sourcefile != nullptr;
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
  p.from_file = given.from_file;
  if (unknown) {
    snprintf(p.message, sizeof p.message, "\"%s\" is not an idgen setting", given.name);
  } else {
    snprintf(p.message, sizeof p.message, "invalid value for %s: \"%s\"", given.name, given.value);
  }
  // (a secret's line refused: the secret before it is still in force, and would be used without it)
  const char* kWhy = (consumers & ~(kTokens | kPublicIds | kPublicUuids)) == 0
                         ? "idgen refuses rather than go on with the key that was in force before this line."
                         : "idgen refuses to make IDs that depend on its settings rather than fall back to a default "
                           "that could repeat another server's IDs.";
  snprintf(p.detail, sizeof p.detail, "It is set in %s. %s", given.where, kWhy);
  snprintf(p.public_detail, sizeof p.public_detail, "It is set in %s. %s", SourceName(given.source), kWhy);
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

// After a reload: the idgen.* lines of the configuration files, as the reload read them (the last
// line of each name wins, postgresql.auto.conf after postgresql.conf), each checked as the reload
// checked it. The problems of the files are replaced; those of other sources (a database's or a
// role's, given before the library loaded) stay.
// Whether a setting that makes the IDs of a family (a part of the identity, the launch id, an
// epoch) holds what the files give now, as a reload applies them: the value of its last line, or,
// without a line, its default. One that a database, a role or the command line sets is not the
// files' to judge. A difference means the files changed after the reload that this backend applied
// (the next reload's signal is on its way): the values in force are not the operator's any more.
bool InForceAsGiven(const char* name, const char* given) {
  const config_generic* record = Defined(name);
  if (record == nullptr) return true;
  if (record->source != PGC_S_DEFAULT && record->source != PGC_S_DYNAMIC_DEFAULT && record->source != PGC_S_FILE) {
    return true;
  }
  if (given == nullptr) return record->source != PGC_S_FILE;
  // (a line the reload rejected is a problem of its own, RecheckFiles's: the value in force is the
  // one before it)
  if (set_config_option(record->name, given, PGC_SIGHUP, PGC_S_FILE, GUC_ACTION_SET, false, DEBUG5, true) == 0) {
    return true;
  }
  if (pg_strcasecmp(name, "idgen.instagram_shards") == 0) {
    const std::optional<identity::Ranges> ranges = identity::ParseShards(given);
    return ranges && *ranges == Identity().shards;
  }
  int number = 0;
  if (pg_strcasecmp(name, "idgen.node_id") == 0) return parse_int(given, &number, 0, nullptr) && number == node_id;
  if (pg_strcasecmp(name, "idgen.uid20_server") == 0) {
    return parse_int(given, &number, 0, nullptr) && number == uid20_server;
  }
  if (pg_strcasecmp(name, "idgen.launch_id") == 0) return parse_int(given, &number, 0, nullptr) && number == launch_id;
  const char* now = GetConfigOption(name, true, false);
  return now != nullptr && pg_strcasecmp(now, given) == 0;  // (node_id_source, the epochs: as written)
}

constexpr const char* kGivingIds[] = {
    "idgen.node_id",        "idgen.node_id_source",     "idgen.uid20_server",       "idgen.instagram_shards",
    "idgen.launch_id",      "idgen.instagram_epoch_ms", "idgen.snowflake_epoch_ms", "idgen.sonyflake_epoch_ms",
    "idgen.trace_epoch_ms", "idgen.js_epoch_ms",        "idgen.uid20_epoch_ms",
};

// Returns false when the files no longer give what is in force (InForceAsGiven).
bool RecheckFiles() {
  ConfigVariable* head = nullptr;
  ConfigVariable* tail = nullptr;
  // (a file that does not parse is not applied by the reload either: the settings, and what was
  // found wrong with them, stay as they were)
  if (!ParseConfigFile(ConfigFileName, true, nullptr, 0, 0, DEBUG2, &head, &tail)) {
    FreeConfigVariables(head);
    return true;
  }
  if (DataDir != nullptr && !ParseConfigFile(PG_AUTOCONF_FILENAME, false, nullptr, 0, 0, DEBUG2, &head, &tail)) {
    FreeConfigVariables(head);
    return true;
  }
  bool as_given = true;
  for (const char* name : kGivingIds) {
    const char* given = nullptr;
    for (ConfigVariable* item = head; item != nullptr; item = item->next) {
      if (!item->ignore && item->name != nullptr && pg_strcasecmp(item->name, name) == 0) given = item->value;
    }
    as_given = as_given && InForceAsGiven(name, given);
  }
  int kept = 0;
  uint32_t consumers = 0;
  for (int i = 0; i < problem_count; ++i) {
    if (problems[i].from_file) continue;
    problems[kept++] = problems[i];
    consumers |= problems[i].consumers;
  }
  problem_count = kept;
  problem_consumers = consumers;
  for (ConfigVariable* item = head; item != nullptr; item = item->next) {
    if (item->ignore || item->name == nullptr || pg_strncasecmp(item->name, "idgen.", 6) != 0) continue;
    bool superseded = false;  // a later line of the same name is the one the reload used
    for (ConfigVariable* later = item->next; later != nullptr && !superseded; later = later->next) {
      superseded = !later->ignore && later->name != nullptr && pg_strcasecmp(later->name, item->name) == 0;
    }
    if (superseded) continue;
    Given given = {};
    strlcpy(given.name, item->name, sizeof given.name);
    const bool secret = NamesSecret(item->name);
    strlcpy(given.value, secret ? "(hidden)" : item->value != nullptr ? item->value : "", sizeof given.value);
    snprintf(given.where, sizeof given.where, "%s line %d", item->filename, item->sourceline);
    given.source = PGC_S_FILE;
    given.from_file = true;
    const Reader* reader = nullptr;
    for (const Reader& r : kReaders) {
      if (pg_strcasecmp(r.name, item->name) == 0) reader = &r;
    }
    if (reader == nullptr) {
      AddProblem(kEveryConsumer, given, true);
      continue;
    }
    // Checked as the reload checked it (the value parsed, its range, its check hook), without
    // applying it: a line edited in place keeps the file and line of the value it replaced, so
    // where the setting came from cannot tell a rejected line from an applied one.
    const bool valid = set_config_option(reader->name, item->value != nullptr ? item->value : "", PGC_SIGHUP,
                                         PGC_S_FILE, GUC_ACTION_SET, false, DEBUG5, true) != 0;
    if (!valid && reader->consumers != 0) AddProblem(reader->consumers, given, false);
  }
  FreeConfigVariables(head);
  return as_given;
}

}  // namespace

uint32_t problem_consumers = 0;
TimestampTz checked_reload = 0;

// The files are read twice, by the reload and by the check: when they changed in between, the
// reload is applied again (the signal of the change is on its way), until what is in force is what
// the files that were checked give.
void CatchUpWithReload() {
  for (int round = 0;; ++round) {
    if (ConfigReloadPending) {
      ConfigReloadPending = false;
      ProcessConfigFile(PGC_SIGHUP);
    }
    if (checked_reload == PgReloadTime) return;
    checked_reload = PgReloadTime;
    if (RecheckFiles()) return;
    if (round == 3) {
      // (files that keep changing: the generators refuse until a reload finds them still)
      Given moving = {};
      strlcpy(moving.name, "idgen.*", sizeof moving.name);
      strlcpy(moving.where, "the configuration files, which changed while they were read", sizeof moving.where);
      moving.source = PGC_S_FILE;
      moving.from_file = true;
      AddProblem(kEveryConsumer, moving, false);
      return;
    }
    ProcessConfigFile(PGC_SIGHUP);
  }
}

void RaiseConfigured(uint32_t consumers) {
  for (int i = 0; i < problem_count; ++i) {
    if ((problems[i].consumers & consumers) == 0) continue;
    Raise(ErrorKind::kPrerequisite, problems[i].message,
          MayReadHiddenSettings() ? problems[i].detail : problems[i].public_detail,
          problems[i].from_file ? "Correct that line of the configuration, then reload it (SELECT pg_reload_conf())."
          : loaded_by_preload
              ? "Correct that setting, then restart the server."
              : "Correct that setting, then restart the server (where idgen is not preloaded, a new session reads "
                "the configuration again).");
  }
}

void CheckConfiguredSlow(uint32_t consumers) {
  CatchUpWithReload();
  if ((problem_consumers & consumers) != 0) RaiseConfigured(consumers);
}

void DefineChecked(void (*define)()) {
  loaded_by_preload = process_shared_preload_libraries_in_progress;
  constexpr int kMaxGiven = 32;
  Given given[kMaxGiven];
  const int given_count = CollectGiven(given, kMaxGiven);
  define();
  CheckGiven(given, given_count);
  checked_reload = PgReloadTime;
}

bool LoadedByPreload() { return loaded_by_preload; }

}  // namespace idgen::pg::settings
