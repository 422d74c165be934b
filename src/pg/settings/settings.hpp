// The settings of idgen (GUCs named idgen.*): their values, and what idgen does when the
// configuration gives one that it cannot use. Defined in settings.cpp, secrets.cpp,
// setting_check.cpp and debug_fault.cpp (settings_parts.hpp: what those files share).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/identity.hpp"
#include "core/protocol.hpp"
#include "pg/family.hpp"

extern "C" {
#include "postgres.h"

#include "postmaster/interrupt.h"
#include "utils/timestamp.h"
}

namespace idgen::pg::settings {

// _PG_init: defines every setting, then checks the idgen.* lines that the configuration gave
// before the library was loaded, and reserves the prefix.
void Define();

// What reads settings, for CheckConfigured: each family with state, and the keyed functions.
inline constexpr uint32_t Of(Family family) { return uint32_t{1} << family; }
inline constexpr uint32_t kTokens = uint32_t{1} << 24;
inline constexpr uint32_t kPublicIds = uint32_t{1} << 25;
inline constexpr uint32_t kPublicUuids = uint32_t{1} << 26;

// Refuses (55000, with the file, line and value in the message) when the configuration gave a
// setting that one of these consumers reads and PostgreSQL rejected it, or an idgen.* setting that
// does not exist: a generator never falls back to a default that could repeat another server's IDs.
// Every value is taken under the configuration of the last reload this backend was signalled, and
// only once that reload's files were checked: a reload pending, or read (between two statements)
// but not checked yet, is caught up with first (CatchUpWithReload), so that no session takes one
// more value under a line the reload rejected or a default that a misspelt line left in force.
// (Inline: every call of a generator asks; only a reload or a configuration with a problem goes
// further.)
extern uint32_t problem_consumers;  // the consumers that some problem of the configuration refuses
extern TimestampTz checked_reload;  // the reload whose files this backend checked (its PgReloadTime)
void CheckConfiguredSlow(uint32_t consumers);
inline void CheckConfigured(uint32_t consumers) {
  if (__builtin_expect(
          (problem_consumers & consumers) != 0 || ConfigReloadPending != 0 || checked_reload != PgReloadTime, 0)) {
    CheckConfiguredSlow(consumers);
  }
}

// Brings this backend's settings up to the server's configuration before a decision that depends on
// them (a value of a family, a lease written under the node identity): a reload that this backend
// was signalled but has not yet read (a statement in flight) is read now, and, after any reload, the
// idgen.* lines of the configuration files are checked again, so that a value the reload rejected,
// or a misspelt name, makes the generators that read it refuse as at start. C zone; no lock held.
void CatchUpWithReload();

enum NodeIdSource { kNodeIdFromSetting, kNodeIdFromCitus };
extern int node_id;  // idgen.node_id: 0..65535, each family checks its own width
enum KeyScope { kKeyScopeServer, kKeyScopeDatabase };
extern int key_scope;                   // idgen.key_scope: whose secrets are (RequireSecret)
extern int node_id_source;              // idgen.node_id_source: where node_identity.cpp takes the node id
extern int max_clock_regression_ms;     // idgen.max_clock_regression
extern int max_clock_lead_ms;           // idgen.max_clock_lead
extern int failover_margin_ms;          // idgen.failover_margin
extern int64_t epoch_ms[kFamilyCount];  // idgen.<family>_epoch_ms, parsed (idgen.uid20_epoch_ms for both UID20s)
inline int64_t EpochMs(Family family) { return epoch_ms[family]; }
// Refuses (55000) to generate under an epoch set for a session, a database or a role: decoding may
// use one, generating takes the server's. C zone. (Inline: every call of a family with an epoch.)
extern bool epoch_is_servers[kFamilyCount];
[[noreturn]] void RaiseEpochNotTheServers(Family family);
inline void CheckEpochIsTheServers(Family family) {
  if (__builtin_expect(!epoch_is_servers[family], 0)) RaiseEpochNotTheServers(family);
}
extern int uid20_server;  // idgen.uid20_server: 0..9
extern int launch_id;     // idgen.launch_id: -1 (not set) or 0..99999

// idgen.instagram_shards: whether this server owns the shard, and the setting's text for messages.
// (Inline: Instagram asks on every call.)
inline constexpr int kShards = 8192;
struct ShardSet {
  uint8_t bits[kShards / 8];
  identity::Ranges ranges;  // the same set, as the identity keeps it
};
extern const ShardSet* owned_shards;  // nullptr: every shard
inline bool OwnsShard(int64_t shard) {
  return owned_shards == nullptr ||
         (shard >= 0 && shard < kShards && (owned_shards->bits[shard / 8] >> (shard % 8) & 1) != 0);
}
const char* InstagramShards();

// The settings that make this server's IDs its own, a part each, exactly (core/identity.hpp): the
// node id (idgen.node_id, or any node with idgen.node_id_source = 'citus'), the UID20 digit
// (idgen.uid20_server) and the shards (idgen.instagram_shards). What the durable mark records, and
// what idgen.restart_at_clock() and a database's copy compare part by part.
identity::Identity Identity();
// The same settings as idgen 1.3 hashed them into 24 bits, by which its marks named an identity: an
// identity lease of 1.3 is judged by it until the next write.
uint32_t LegacyIdentityHash();

// The secrets (idgen.token_secret, idgen.public_id_key, idgen.public_uuid_key), given inline or,
// better, by a file that only the server's OS user reads (idgen.token_secret_file, ...: read at server
// start and at each reload, by the postmaster where idgen is preloaded). The GUC machinery never
// holds them: SHOW, pg_settings and the reload log see a mask or the file's path. RequireSecret
// refuses (55000, saying how to set it) while the secret is unset, its setting was rejected, its file
// cannot be used (missing, open to others, too short, not holding keys), or both forms are set:
// never a value under an empty or a stale key. What it returns is the secret as the key scope gives
// it for this database (idgen.key_scope), and the same for the rest of the transaction: every call
// of a transaction uses the key of its first, whatever reloads happen meanwhile; where idgen is
// preloaded, every backend takes what the postmaster read at the last reload, never a file of its
// own reading. C zone.
enum class Secret { kTokenSecret, kPublicIdKey, kPublicUuidKey };
struct SecretInUse {
  std::string_view value;  // valid until the transaction ends
  // Changes whenever what the secret is may have changed (a reload, the scope): what a consumer
  // derives from it is derived again, since a new secret can sit at the address of an old one.
  // Never 0.
  uint64_t generation;
};
SecretInUse RequireSecret(Secret which);

#ifdef IDGEN_DEBUG_FAULT
// idgen.debug_fault: makes the random source fail, for the tests of the error door (or, 'retake',
// every generated value dropped, for the test of the retake loop). Only in a build
// for the tests (make IDGEN_DEBUG=1): a release build does not know the setting.
enum DebugFault { kNoFault, kFaultRandom, kFaultMemory, kFaultInternal, kFaultRetake };
int DebugFaultNow();
#endif

}  // namespace idgen::pg::settings
