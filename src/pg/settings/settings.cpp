// The settings of idgen (GUCs named idgen.*): their definitions. Two rules run through the files
// of the settings:
// - anything whose change could make two servers issue the same ID is the superuser's, and the node
//   identity (idgen.node_id, node_id_source, uid20_server, instagram_shards) is the server
//   configuration's alone (PGC_SIGHUP): no session, database or role has one of its own;
// - a setting that the configuration gives but PostgreSQL rejects, or an idgen.* name that does not
//   exist, makes the generators that read it refuse instead of using a default (setting_check.cpp).
// The secrets are in secrets.cpp, the test fault of a build for the tests in debug_fault.cpp.
#include "pg/settings/settings.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "core/decimal_id.hpp"
#include "core/identity.hpp"
#include "core/uid20.hpp"
#include "pg/compat.hpp"
#include "pg/effects/mark.hpp"
#include "pg/settings/settings_parts.hpp"

extern "C" {
#include "utils/guc.h"
}

namespace idgen::pg::settings {

int node_id = 0;
int key_scope = kKeyScopeServer;
int node_id_source = kNodeIdFromSetting;
int max_clock_regression_ms = 5000;
int max_clock_lead_ms = 600000;
int failover_margin_ms = 10000;
int uid20_server = 0;
int launch_id = -1;
int64_t epoch_ms[kFamilyCount];
// Whether the epoch in use is the server's (postgresql.conf, ALTER SYSTEM, the command line, the
// default) rather than a session's, a database's or a role's: IDs made under an earlier epoch of a
// session lie above what the durable mark, in time, holds for the server's epoch, and sessions on the
// server's epoch would repeat them after a restart.
bool epoch_is_servers[kFamilyCount];
const ShardSet* owned_shards = nullptr;

namespace {

const struct config_enum_entry kKeyScopes[] = {
    {"server", kKeyScopeServer, false},
    {"database", kKeyScopeDatabase, false},
    {nullptr, 0, false},
};

const struct config_enum_entry kNodeIdSources[] = {
    {"setting", kNodeIdFromSetting, false}, {"citus", kNodeIdFromCitus, false}, {nullptr, 0, false}};

// ---- epochs: text settings (a bigint does not fit an integer GUC), parsed once -----------------

char* epoch_text[kFamilyCount];
struct ParsedEpoch {
  int64_t ms;
  bool servers;
};
constexpr int64_t kLatestEpochMs = 4102444800000;  // 2100-01-01

bool CheckEpoch(char** value, void** extra, GucSource source) {
  char* end = nullptr;
  errno = 0;
  const long long ms = strtoll(*value, &end, 10);
  if (errno != 0 || end == *value || *end != '\0' || ms < 0 || ms > kLatestEpochMs) {
    GUC_check_errdetail("An epoch is a whole number of milliseconds since 1970-01-01 00:00:00 UTC, before 2100.");
    return false;
  }
  auto* parsed = static_cast<ParsedEpoch*>(compat::GucMalloc(sizeof(ParsedEpoch)));
  if (parsed == nullptr) return false;
  *parsed = ParsedEpoch{ms, source <= PGC_S_ARGV};
  *extra = parsed;
  return true;
}

template <Family family>
void AssignEpoch(const char*, void* extra) {
  const auto* parsed = static_cast<const ParsedEpoch*>(extra);
  epoch_ms[family] = parsed->ms;
  epoch_is_servers[family] = parsed->servers;
  if (family == kFamilyUid20) {  // one setting for both
    epoch_ms[kFamilyUid20Sec] = parsed->ms;
    epoch_is_servers[kFamilyUid20Sec] = parsed->servers;
  }
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
                             &epoch_text[family], default_text, PGC_SUSET, 0, CheckEpoch, AssignEpoch<family>, nullptr);
}

template <Family family>
void DefineEpoch() {
  DefineEpoch<family>(kLayouts[family]->family, kLayouts[family]->epoch_ms, kLayouts[family]->title);
}

// ---- idgen.instagram_shards: "0-2047", "5,9,100-199" -------------------------------------------

static_assert(kShards == kInstagram.max_node() + 1);
char* shards_text = nullptr;

bool CheckShards(char** value, void** extra, GucSource) {
  identity::ShardsProblem problem;
  const std::optional<identity::Ranges> ranges = identity::ParseShards(*value, &problem);
  if (!ranges) {
    switch (problem) {
      case identity::ShardsProblem::kOutOfRange:
        GUC_check_errdetail("Shards are numbers from 0 to %d; a range is \"low-high\" with low <= high.", kShards - 1);
        break;
      case identity::ShardsProblem::kTooManyRanges:
        GUC_check_errdetail("The list holds more than %d ranges: give this server fewer, wider ranges.",
                            identity::kMaxRanges);
        break;
      default:
        GUC_check_errdetail(
            "List the shards this server owns as numbers and ranges separated by commas, such as \"0-2047\" or "
            "\"5,9,100-199\" (an empty list: none).");
    }
    return false;
  }
  auto* set = static_cast<ShardSet*>(compat::GucMalloc(sizeof(ShardSet)));
  if (set == nullptr) return false;
  memset(set->bits, 0, sizeof set->bits);
  set->ranges = *ranges;
  for (int r = 0; r < ranges->count; ++r) {
    for (uint32_t s = ranges->lo[r]; s <= ranges->hi[r]; ++s) set->bits[s / 8] |= static_cast<uint8_t>(1u << (s % 8));
  }
  *extra = set;
  return true;
}

// A reload that assigns an identity setting drops what this session had found covered (its Hot):
// its next value, in an open transaction too, goes through Prepare and Cover, which write the
// server's lease under parts that hold the new identity before it is returned.
bool legacy_hash_known = false;
void ForgetIdentity() {
  legacy_hash_known = false;
  marks::session.hot = engine::Hot{};
}
void IdentityChanged(int, void*) { ForgetIdentity(); }

void AssignKeyScope(int scope, void*) { KeyScopeAssigned(scope); }

void AssignShards(const char*, void* extra) {
  owned_shards = static_cast<const ShardSet*>(extra);
  ForgetIdentity();
}

}  // namespace

void RaiseEpochNotTheServers(Family family) {
  const char* name = family == kFamilyUid20 || family == kFamilyUid20Sec ? "uid20" : kLayouts[family]->family;
  char message[160], hint[200];
  snprintf(message, sizeof message, "idgen.%s_epoch_ms is set for this session, database or role", name);
  snprintf(hint, sizeof hint,
           "Decode IDs of another epoch under it; make IDs under the server's (RESET idgen.%s_epoch_ms, or set it in "
           "postgresql.conf).",
           name);
  Raise(ErrorKind::kPrerequisite, message,
        "IDs are made under the epoch of the server's configuration only: made under another one, their time "
        "fields lie where the durable mark does not hold them, and the server could repeat them after a restart.",
        hint);
}

const char* InstagramShards() { return shards_text != nullptr ? shards_text : ""; }

identity::Identity Identity() {
  identity::Identity id;
  id.node = node_id_source == kNodeIdFromSetting ? node_id : identity::kNodeFromCitus;
  id.digit = static_cast<uint8_t>(uid20_server);
  if (owned_shards != nullptr) {
    id.shards = owned_shards->ranges;
  } else {
    (void)id.shards.Add(0, kShards - 1);
  }
  return id;
}

uint32_t LegacyIdentityHash() {
  static uint32_t known = 0;
  if (legacy_hash_known) return known;
  // The node: its id, folded into 12 bits (exact below 4096), the source mixed into the fold (the
  // default source mixes nothing).
  uint32_t node = static_cast<uint32_t>(node_id);
  if (node_id_source != kNodeIdFromSetting) node ^= 0x800u | static_cast<uint32_t>(node_id_source) << 12;
  node = (node ^ (node >> 12)) & 0xFFF;
  // The shards: FNV-1a over the set (not its spelling), folded into 8 bits.
  uint32_t hash = 2166136261u;
  for (int i = 0; i < kShards / 8; ++i)
    hash = (hash ^ (owned_shards != nullptr ? owned_shards->bits[i] : 0xFF)) * 16777619u;
  const uint32_t shards = (hash ^ hash >> 8 ^ hash >> 16 ^ hash >> 24) & 0xFF;
  known = node << 12 | static_cast<uint32_t>(uid20_server & 0xF) << 8 | shards;
  legacy_hash_known = true;
  return known;
}

namespace {

void DefineAll() {
#ifdef IDGEN_DEBUG_FAULT
  DefineDebugFault();
#endif
  DefineCustomIntVariable("idgen.node_id", "Node id of this server in Snowflake, Sonyflake and TraceId IDs.",
                          "Give every server that generates these IDs its own node id. Snowflake holds 0 to 1023, "
                          "Sonyflake and TraceId 0 to 65535.",
                          &node_id, 0, 0, 65535, PGC_SIGHUP, 0, nullptr, IdentityChanged, nullptr);
  DefineCustomEnumVariable(
      "idgen.node_id_source", "Where Snowflake, Sonyflake, TraceId and JsId IDs take their node id.",
      "\"setting\": idgen.node_id. \"citus\": this node's Citus group id (the coordinator's is 0, "
      "each worker's is given by citus_add_node); a node that is in no Citus cluster yet refuses.",
      &node_id_source, kNodeIdFromSetting, kNodeIdSources, PGC_SIGHUP, 0, nullptr, IdentityChanged, nullptr);
  // Every value of the two limits below keeps the order and never refuses a clock that is fine: they
  // count beyond the lead the state word has of its own (a tick whose sequence ran out, UUIDv7's
  // millisecond ahead), and round up to whole ticks (layout::RegressionTicks, uuidv7::RulesFor).
  DefineCustomIntVariable(
      "idgen.max_clock_regression", "How far the system clock may step back before 64-bit ID generators refuse.",
      "Up to this, they carry on from the last time issued, waiting for the clock; beyond it, they raise an error. "
      "Counted in whole ticks of each family (Sonyflake's are 10 ms, TraceId's 1 s), beyond the tick that a used-up "
      "sequence runs ahead: 0 refuses any step back that idgen can tell from the IDs' own lead.",
      &max_clock_regression_ms, 5000, 0, 3600000, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr, nullptr);
  // The server's, not a session's: one session that sent the shared word back to the clock would
  // break the order of every other session's UUIDs.
  DefineCustomIntVariable(
      "idgen.max_clock_lead",
      "How far ahead of the system clock UUIDv7, typeid and ULID carry on after the clock stepped back.",
      "Up to this, they carry on from the last ID, keeping their order; beyond it (a clock that was set years ahead "
      "and back), they return to the clock, unique by their random bits. Counted beyond the millisecond they may "
      "run ahead of a clock that is fine: 0 returns to the clock at any step back beyond it. Set in the server "
      "configuration: every session shares the state it moves.",
      &max_clock_lead_ms, 600000, 0, INT_MAX, PGC_SIGHUP, GUC_UNIT_MS, nullptr, nullptr, nullptr);
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
                          &uid20_server, 0, 0, uid20::kMaxServer, PGC_SIGHUP, 0, nullptr, IdentityChanged, nullptr);
  DefineCustomIntVariable("idgen.launch_id", "The launch id of this deployment's DecimalIds (1 to 99999).",
                          "The last five digits of idgen.decimal_id(); -1, the default, means not set: DecimalIds are "
                          "refused until it is. 0 is for tests.",
                          &launch_id, -1, -1, decimal_id::kMaxLaunch, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
  DefineCustomStringVariable("idgen.instagram_shards", "The Instagram shards this server owns, such as 0-2047.",
                             "idgen.instagram_id(shard) refuses any other shard. Give every server its own range.",
                             &shards_text, "0-8191", PGC_SIGHUP, 0, CheckShards, AssignShards, nullptr);
  // Whose secrets: the server's, the same in every database (a token signed in one verifies in
  // every other, a public ID and a façade read back in every other, and uuidv47's libraries read
  // the façades under the key as written), or each database's, derived from the secret and the
  // database's name. A database owner may sign tokens and make public IDs and façades (the
  // installer's to grant): under 'server', those of every database of the server.
  DefineCustomEnumVariable("idgen.key_scope", "Whose idgen secrets are: the server's or each database's.",
                           "\"server\" (the default): tokens, public IDs and façades are made under the same keys "
                           "in every database (uuidv47's libraries read the façades under the key as written). "
                           "\"database\": each database's keys are its own, derived from the secret and the "
                           "database's name.",
                           &key_scope, kKeyScopeServer, kKeyScopes, PGC_SIGHUP, 0, nullptr, AssignKeyScope, nullptr);
  DefineSecrets();
}

}  // namespace

void Define() {
  DefineChecked(DefineAll);
  MarkGUCPrefixReserved("idgen");
}

}  // namespace idgen::pg::settings
