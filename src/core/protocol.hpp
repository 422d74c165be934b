// The durable-state protocol of the coordinated families, free of PostgreSQL: what the server's
// leases (the replication origins idgen_mark and idgen_mark_identity), each database's copy
// (idgen.mark, idgen.mark_identity, idgen.mark_server, idgen.decimal_id_generator) and the calls
// that read and write them decide. Events come in as plain values (what an origin or a sequence
// holds, the clock, the server's identity hash and run, whether it was promoted); decisions go out
// as plain values (raise the words to a floor; write lease L and flush it before any value past the
// old one; wait until t; refuse, and why; take the value again). src/pg/mark.cpp carries them out
// with origins, sequences, latches and errors; test/sim drives them with many servers, databases
// and sessions (docs/design.md draws the states and says the invariants).
//
// Every function here is pure: it reads its arguments and returns a decision, or updates the
// ServerMark or CopyState it is given, nothing else. The simulator's build (IDGEN_SIM_ROUTES)
// can reopen, one at a time, each route by which an earlier release repeated values (Route,
// below); in every other build those switches do not exist.
#pragma once

#include "core/cpp_only.hpp"

#include <cstdint>

namespace idgen::protocol {

// How long a lease runs ahead of the values it covers: one flush per second of generating.
inline constexpr uint64_t kLeaseMs = 1000;
// The identity lease of a server that has none (restart_at_clock() has not moved its families).
inline constexpr uint64_t kNoLease = ~uint64_t{0};

// An origin's value: the lease end in 10 ms (40 bits) above a 24-bit hash of the identity.
inline constexpr unsigned kIdentityBits = 24;
inline constexpr uint64_t kIdentityMask = (uint64_t{1} << kIdentityBits) - 1;
constexpr uint64_t Pack(uint64_t lease_ms, uint32_t identity_hash) {
  return ((lease_ms + 9) / 10) << kIdentityBits | (identity_hash & kIdentityMask);
}
constexpr uint64_t LeaseMsOf(uint64_t packed) { return (packed >> kIdentityBits) * 10; }
constexpr uint32_t IdentityOf(uint64_t packed) { return static_cast<uint32_t>(packed & kIdentityMask); }

// idgen.mark_server from 1.3 on: the top bit, 39 bits of the writer's run, the 24-bit identity hash
// (idgen 1.2 wrote the system identifier, whose top bit is clear).
inline constexpr uint64_t kTagged = uint64_t{1} << 63;
inline constexpr uint64_t kRunMask = (uint64_t{1} << 39) - 1;
constexpr int64_t OwnTag(uint64_t run_bits, uint32_t identity_hash) {
  return static_cast<int64_t>(kTagged | (run_bits & kRunMask) << kIdentityBits | (identity_hash & kIdentityMask));
}

// idgen.decimal_id_generator from 1.3 on: run * 10^10 + launch id * 10^5 + generator id.
inline constexpr int64_t kDecimalUnit = 100000;
inline constexpr int64_t kDecimalRunUnit = kDecimalUnit * kDecimalUnit;
inline constexpr uint64_t kDecimalFailoverSkip = 10;

// The families without a node identity (UUIDv7, ns_id) and with one (the 64-bit layouts, UID20,
// Instagram): restart_at_clock() moves the second group alone.
enum Group : uint8_t { kTimeOnly = 0, kWithIdentity = 1 };

// What this server is, as the decisions compare it: the run (drawn at each start; a clone has its
// own), the identity hash of the configuration (masked to 24 bits), the system identifier (which a
// clone shares: only copies of 1.2 are compared with it), the DecimalId run.
struct Self {
  uint64_t run_bits = 0;
  uint32_t identity = 0;
  int64_t system_identifier = 0;
  int64_t decimal_run = 0;
};

// The server's marks as its sessions share them (SharedState::mark).
struct ServerMark {
  bool loaded = false;
  uint64_t lease_end_ms = 0;                  // every value of every family lies below it
  uint64_t identity_lease_end_ms = kNoLease;  // the families with an identity, after restart_at_clock
  uint32_t identity_lease_hash = 0;           // the identity it was written under
  uint64_t floor_ms = 0;                      // the words were raised to these at the start
  uint64_t identity_floor_ms = 0;
  uint64_t generation = 0;  // bumped when the words of the families with an identity move back
  uint64_t decimal_id_next = 0;
  uint64_t decimal_id_floor = 0;
};

// ---- the start of the server (LoadServerMark) -----------------------------------------------------

struct Load {
  uint64_t floor_ms = 0;           // raise the words of the time-only families to it
  uint64_t identity_floor_ms = 0;  // ... and those with an identity to this
  uint64_t self_made_ms = 0;       // of the gap to the clock, how much the server made itself
  bool identity_valid = false;     // the identity lease counts (written under this identity)
  uint64_t decimal_next = 0;
  // A promoted server writes its floors (with the margin) as its leases, and the DecimalId origin,
  // flushed, before any value.
  bool renew = false;
};
// mark_raw, identity_raw, decimal_raw: what the origins hold; margin_ms: idgen.failover_margin.
Load DecideLoad(uint64_t mark_raw, uint64_t identity_raw, uint64_t decimal_raw, uint32_t identity, bool promoted,
                uint64_t margin_ms);
// Publishes a Load (once the words are raised).
void ApplyLoad(ServerMark& mark, const Load& load, uint64_t mark_raw, uint64_t identity_raw);

// ---- renewing the leases (Cover, RenewLeases) ----------------------------------------------------

struct CopyState;

struct CoverDecision {
  bool retake = false;          // drop the value, take another after Prepare
  uint64_t renew_lease_ms = 0;  // write, flush and confirm these (0: not this one), then publish
  uint64_t renew_identity_ms = 0;
  bool write_copy = false;  // then write this database's copy (DecideCopyWrite)
};
// A value of the family (group) whose last instant is ms, taken under hot_generation, by a session
// whose identity a reload read now changed (identity_changed), at now_ms.
CoverDecision DecideCover(const ServerMark& mark, Group group, uint64_t hot_generation, bool identity_changed,
                          const CopyState& copy, uint64_t ms, uint64_t now_ms);
// After the leases were flushed: false when the generation moved meanwhile (retake; nothing was
// published). Leases only grow; an identity lease only while one exists.
bool RenewalStillValid(const ServerMark& mark, uint64_t generation);
void PublishRenewal(ServerMark& mark, uint64_t lease_ms, uint64_t identity_lease_ms);

// ---- the identity lease of another identity (DropIdentityLease) ----------------------------------

bool MustDropIdentityLease(const ServerMark& mark, uint32_t identity);
struct DropIdentity {
  uint64_t raise_identity_words_to_ms = 0;  // the server's lease: every value ever made here lies below
  bool retire_on_disk = true;               // write 0 to idgen_mark_identity, flushed, before publishing
};
// Bumps the generation and closes the identity lease (no value passes until Finish).
DropIdentity BeginDropIdentityLease(ServerMark& mark);
void FinishDropIdentityLease(ServerMark& mark);

// ---- each database's copy --------------------------------------------------------------------------

// What the sequences hold (has_*: the sequence exists).
struct CopyRead {
  bool has_mark = false, has_server = false, has_identity = false;
  int64_t mark = 0, server = 0, mark_identity = 0;
};
// What a session knows of its database's copy (Backend in mark.cpp).
struct CopyState {
  bool has_copy = false;
  bool has_identity_copy = false;
  uint64_t copy_ms = 0;
  uint64_t copy_identity_ms = 0;
  bool tag_is_ours = false;
  uint64_t wait_ms[2] = {0, 0};  // per group: the clock must pass this before a value (0: nothing)
};
// Whether a copy written by tag up to copy_ms is covered for a group: every value the server makes
// from now on lies above every value it records.
bool Covered(const ServerMark& mark, const Self& self, Group group, uint64_t copy_ms, int64_t tag);
CopyState DecideCopy(const ServerMark& mark, const Self& self, const CopyRead& read);

// Whether a session reads its database's copy again before a value: another database or state, no
// copy yet, a new transaction or an invalidation (fresh false), or the generation moved.
bool MustReadCopy(bool same_state_and_database, bool has_copy, bool fresh, uint64_t seen_generation,
                  uint64_t generation);
// Whether the family refuses for want of a copy (only UUIDv7 goes on without one).
inline bool RefuseWithoutCopy(bool has_copy, bool is_uuidv7) { return !has_copy && !is_uuidv7; }

struct Wait {
  enum Kind : uint8_t { kGo, kWait, kRefuse } kind = kGo;
  uint64_t until_ms = 0;
  uint64_t gap_ms = 0;
};
Wait DecideWait(uint64_t wait_ms, uint64_t now_ms, uint64_t max_clock_regression_ms);

struct CopyWrite {
  int64_t mark = 0;  // raised to (never lowered)
  bool write_identity = false;
  int64_t mark_identity = 0;  // set exactly
  bool write_tag = false;
  int64_t tag = 0;  // set exactly
};
CopyWrite DecideCopyWrite(const ServerMark& mark, const Self& self, const CopyState& copy);
void AfterCopyWrite(CopyState& copy, const ServerMark& mark, const CopyWrite& write);

// What a value may lie below without Cover (Hot::covered_ms), per group.
uint64_t CoveredMs(const ServerMark& mark, const CopyState& copy, Group group);

// ---- idgen.restart_at_clock() -----------------------------------------------------------------------

struct RestartInput {
  bool superuser = true;
  bool shared_primary = true;  // shared state, not in recovery
  bool identity_set_per_database_or_role = false;
  bool node_id_from_citus = false;
  uint64_t mark_raw = 0, identity_raw = 0;  // the origins
  uint32_t identity = 0;
  uint64_t now_ms = 0;
};
struct Restart {
  enum Kind : uint8_t {
    kRefusePermission,
    kRefuseNotPrimary,
    kRefuseIdentityPerDatabase,
    kRefuseCitus,
    kNothingToDo,
    kRefuseSameIdentity,
    kMove
  } kind = kNothingToDo;
  uint64_t old_ms = 0;
  uint64_t lease_ms = 0;  // kMove: the identity lease, written exactly under the identity
  uint64_t floor_ms = 0;  // kMove: the words of the families with an identity are set to it
};
Restart DecideRestart(const ServerMark& mark, const RestartInput& in);
// kMove, under the lock: the generation, no identity lease until Finish.
void BeginRestart(ServerMark& mark, uint32_t identity);
void FinishRestart(ServerMark& mark, const Restart& restart);

// ---- DecimalId -------------------------------------------------------------------------------------

int64_t DecimalCopyValue(int64_t decimal_run, int launch_id, int64_t id);
bool DecimalIdCopyCovered(const ServerMark& mark, int64_t decimal_run, int64_t copy, int launch_id, int64_t* generator);

// ---- DROP EXTENSION (CheckDropKeepsNothing) ------------------------------------------------------

struct DropInput {
  CopyRead read;
  uint64_t now_ms = 0;
  bool shared = true, recovery = false;
  uint64_t mark_raw = 0, identity_raw = 0;  // the origins (read without shared state)
};
// Whether dropping the extension keeps nothing this server has not passed (the mark part; mark must
// be loaded when shared).
bool DropKeepsNothing(const ServerMark& mark, const Self& self, const DropInput& in);

// ---- who generates, under which identity ------------------------------------------------------------

// Whether a coordinated family may generate: on a primary with shared state (a standby has its
// primary's identity and marks).
bool MayGenerate(bool recovery, bool shared);
// The identity a session generates under: the server's configuration, as a reload read it (the
// identity settings are the server's; one set per database or per session is not taken).
uint32_t SessionIdentity(uint32_t server_identity, bool database_sets_one, uint32_t database_identity,
                         bool session_sets_one, uint32_t session_identity);

// Instagram's shard marks: the marks table of a bound schema travels with it and is found by the
// schema's OID; whether the marks of a schema apply to a value made in the schema (now named
// name_now, bound under name_bound).
bool ShardMarksApply(bool same_oid, bool same_name);
// A shard mark written by another run of a server (or another server) that lies ahead of now: wait
// for it (up to max_clock_regression_ms) or refuse.
Wait DecideShardWait(uint64_t mark_ms, bool written_by_this_run, uint64_t now_ms, uint64_t max_clock_regression_ms);

// ---- the routes of earlier releases, reopened in the simulator's build only ----------------------

enum Route : uint8_t {
  kRouteNone = 0,
  kRouteRestartClockBack,      // 1.0: a start does not raise the words to the leases
  kRouteHotStandby,            // 1.0: a standby generates from its own clock
  kRouteRestoreByOwner,        // 1.1: a restored copy is not honored
  kRouteDropCreate,            // 1.1: DROP EXTENSION forgets a copy the server has not passed
  kRouteAsyncFailover,         // 1.1: no failover margin
  kRouteIdentityPerDatabase,   // 1.2: restart_at_clock() ignores an identity set per database
  kRouteRestartSameIdentity,   // 1.2: restart_at_clock() under the identity of the last values
  kRouteRestoreIntoClone,      // 1.2: a copy is ours when the system identifier matches
  kRouteSessionIdentity,       // 1.3: a session generates under its own identity snapshot
  kRouteRetiredInMemory,       // 1.3: a retired identity lease is not written to disk
  kRouteSessionBeforeRestore,  // 1.3: a session reads its copy once, never again
  kRouteRenamedShardSchema,    // 1.3: a shard's marks are found by the schema's name
  kRouteCount
};
#ifdef IDGEN_SIM_ROUTES
extern Route sim_route;
inline bool Reopened(Route route) { return sim_route == route; }
#else
constexpr bool Reopened(Route) { return false; }
#endif

}  // namespace idgen::protocol
