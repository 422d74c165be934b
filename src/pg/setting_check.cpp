// The idgen.* settings that the configuration gives but idgen cannot use: a name that does not
// exist (misspelt), or a value that PostgreSQL rejected. Either makes the generators that read the
// setting refuse instead of using a default that could repeat another server's IDs.
#include <cstring>

#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/settings_parts.hpp"

extern "C" {
#include "utils/guc.h"
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
#ifdef IDGEN_DEBUG_FAULT
    {"idgen.debug_fault", 0},  // a release build does not know it: there, it is a misspelt setting
#endif
};

// A setting the configuration gave that idgen cannot use. Plain data, allocated once per process.
struct Problem {
  uint32_t consumers;
  char message[256];
  char detail[512];         // where it is set: the file and line, for superusers and pg_read_all_settings
  char public_detail[256];  // the same without the file, for every other role
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
    const char* value = compat::GucStringValue(g);
    // (the secrets, and the paths of their files, which only superusers and pg_read_all_settings read)
    const bool secret = pg_strncasecmp(g->name, "idgen.token_secret", 18) == 0 ||
                        pg_strncasecmp(g->name, "idgen.public_id_key", 19) == 0;
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
  constexpr const char* kWhy =
      "idgen refuses to make IDs that depend on its settings rather than fall back to a default that could repeat "
      "another server's IDs.";
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

}  // namespace

void CheckConfigured(uint32_t consumers) {
  if ((problem_consumers & consumers) == 0) return;
  for (int i = 0; i < problem_count; ++i) {
    if ((problems[i].consumers & consumers) == 0) continue;
    Raise(ErrorKind::kPrerequisite, problems[i].message,
          MayReadHiddenSettings() ? problems[i].detail : problems[i].public_detail,
          loaded_by_preload
              ? "Correct that setting, then restart the server."
              : "Correct that setting, then restart the server (where idgen is not preloaded, a new session reads "
                "the configuration again).");
  }
}

void DefineChecked(void (*define)()) {
  loaded_by_preload = process_shared_preload_libraries_in_progress;
  constexpr int kMaxGiven = 32;
  Given given[kMaxGiven];
  const int given_count = CollectGiven(given, kMaxGiven);
  define();
  CheckGiven(given, given_count);
}

bool LoadedByPreload() { return loaded_by_preload; }

}  // namespace idgen::pg::settings
