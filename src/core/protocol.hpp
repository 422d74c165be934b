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

// ---- the routes of earlier releases, reopened in the simulator's build only ----------------------

enum Route : uint8_t {
  kRouteNone = 0,
  kRouteRestartClockBack,       // 1.0: a start does not raise the words to the leases
  kRouteHotStandby,             // 1.0: a standby generates from its own clock
  kRouteRestoreByOwner,         // 1.1: a restored copy is not honored
  kRouteDropCreate,             // 1.1: DROP EXTENSION forgets a copy the server has not passed
  kRouteAsyncFailover,          // 1.1: no failover margin
  kRouteIdentityPerDatabase,    // 1.2: restart_at_clock() ignores an identity set per database
  kRouteRestartSameIdentity,    // 1.2: restart_at_clock() under the identity of the last values
  kRouteRestoreIntoClone,       // 1.2: a copy is ours when the system identifier matches
  kRouteSessionIdentity,        // 1.3: a session generates under its own identity snapshot
  kRouteRetiredInMemory,        // 1.3: a retired identity lease is not written to disk
  kRouteSessionBeforeRestore,   // 1.3: a session reads its copy once, never again
  kRouteRenamedShardSchema,     // 1.3: a shard's marks are found by the schema's name
  kRouteTagBeforeBothWaited,    // 1.3: a copy becomes this run's after one group alone waited for it
  kRouteLeaseOfOldIdentity,     // 1.3: a new identity's values lie below a lease written under the old one
  kRouteStaleIdentityLease,     // 1.3: an identity lease the start found invalid names the last identity
  kRouteReloadKeepsCovered,     // 1.3: a reload inside a transaction keeps what its sessions had covered
  kRouteMarginAtPromotionOnly,  // 1.3: the failover margin is added only by the start that promotes
  kRouteCopyPassedByClock,      // 1.3: a copy the clock has passed is covered, the words left below it
  kRouteCreateStartsAtZero,     // 1.3: CREATE EXTENSION starts the copy at 0
  kRouteDropForgetsPassedCopy,  // 1.3: DROP EXTENSION forgets a copy the clock has passed
  kRouteRaisedCopyKeepsWriter,  // 1.3: a copy raised before both groups waited keeps its writer's run
  kRouteCount
};
#ifdef IDGEN_SIM_ROUTES
extern Route sim_route;
inline bool Reopened(Route route) { return sim_route == route; }
#else
constexpr bool Reopened(Route) { return false; }
#endif

// How long a lease runs ahead of the values it covers: one flush per second of generating.
inline constexpr uint64_t kLeaseMs = 1000;
// The identity lease of a server that has none (restart_at_clock() has not moved its families).
inline constexpr uint64_t kNoLease = ~uint64_t{0};

// The settings that make a server's IDs its own, in 24 bits, a part each: idgen.node_id with
// idgen.node_id_source (12 bits), idgen.uid20_server (4 bits) and a hash of
// idgen.instagram_shards (8 bits). The marks record it, and the decisions compare it part by part.
inline constexpr unsigned kIdentityBits = 24;
inline constexpr uint64_t kIdentityMask = (uint64_t{1} << kIdentityBits) - 1;
inline constexpr uint32_t kNodePart = 0xFFF000;
inline constexpr uint32_t kUid20Part = 0x000F00;
inline constexpr uint32_t kShardsPart = 0x0000FF;
// The identity of a lease written by idgen 1.2, which hashed the identity as a whole: no identity
// equals it, and no part differs from it.
inline constexpr uint32_t kUnknownIdentity = ~uint32_t{0};

// An origin's value (idgen_mark, idgen_mark_identity): the top bit set, the lease end in 10 ms (39
// bits, to 2144), and the identity it was written under. idgen 1.2 wrote the lease in 40 bits above
// a hash of the identity as a whole (top bit clear): its lease reads as it was, its identity as
// kUnknownIdentity.
inline constexpr uint64_t kPartsFormat = uint64_t{1} << 63;
inline constexpr uint64_t kMaxLeaseMs = ((uint64_t{1} << (63 - kIdentityBits)) - 1) * 10;
constexpr uint64_t Pack(uint64_t lease_ms, uint32_t identity) {
  const uint64_t units = (lease_ms + 9) / 10;
  return kPartsFormat | (units < kMaxLeaseMs / 10 ? units : kMaxLeaseMs / 10) << kIdentityBits |
         (identity & kIdentityMask);
}
constexpr uint64_t LeaseMsOf(uint64_t packed) { return ((packed & ~kPartsFormat) >> kIdentityBits) * 10; }
constexpr uint32_t IdentityOf(uint64_t packed) {
  return (packed & kPartsFormat) != 0 ? static_cast<uint32_t>(packed & kIdentityMask) : kUnknownIdentity;
}
// Whether every part of two identities differs: IDs made under one cannot repeat IDs made under the
// other in any family. An unknown identity differs in no part.
constexpr bool EveryPartDiffers(uint32_t a, uint32_t b) {
  if (a == kUnknownIdentity || b == kUnknownIdentity) return false;
  return ((a ^ b) & kNodePart) != 0 && ((a ^ b) & kUid20Part) != 0 && ((a ^ b) & kShardsPart) != 0;
}

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

// idgen_decimal_id: the next free DecimalId generator id (the low 32 bits) and, on a server whose
// WAL timeline is past the first (it, or a server it descends from, was promoted), the timeline
// under which the server's leases were last loaded (the high 32 bits; 0 before 1.3 and on timeline
// 1). A lease that a later timeline finds was written before its promotion: an asynchronous
// standby may have missed its primary's last leases, whether the promoted server is restarted, or
// copied by pg_basebackup, before its first ID.
constexpr uint64_t PackDecimalOrigin(uint32_t timeline, uint64_t next) {
  return uint64_t{timeline} << 32 | (next & 0xFFFFFFFF);
}
constexpr uint64_t DecimalNextOf(uint64_t raw) { return raw & 0xFFFFFFFF; }
constexpr uint32_t TimelineOf(uint64_t raw) { return static_cast<uint32_t>(raw >> 32); }

// The families without a node identity (UUIDv7, ns_id) and with one (the 64-bit layouts, UID20,
// Instagram): restart_at_clock() moves the second group alone.
enum Group : uint8_t { kTimeOnly = 0, kWithIdentity = 1 };

// What this server is, as the decisions compare it: the run (drawn at each start; a clone has its
// own; never 0, which names no run), the identity of its configuration (24 bits), the system identifier (which a clone
// shares: only copies of 1.2 are compared with it), the DecimalId run.
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
  uint32_t lease_identity = 0;                // the identity lease_end_ms was last written under
  uint64_t identity_lease_end_ms = kNoLease;  // the families with an identity, after restart_at_clock
  uint32_t identity_lease_hash = 0;           // the identity it was written under
  uint64_t floor_ms = 0;                      // the words were raised to these at the start
  uint64_t identity_floor_ms = 0;
  uint64_t generation = 0;  // bumped when the words of the families with an identity move back
  uint64_t decimal_id_next = 0;
  uint64_t decimal_id_floor = 0;
  uint32_t decimal_timeline = 0;  // the high bits of every write of idgen_decimal_id (PackDecimalOrigin)
};

// ---- the start of the server (LoadServerMark) -----------------------------------------------------

struct Load {
  uint64_t floor_ms = 0;           // raise the words of the time-only families to it
  uint64_t identity_floor_ms = 0;  // ... and those with an identity to this
  uint64_t self_made_ms = 0;       // of the gap to the clock, how much the server made itself
  bool identity_valid = false;     // the identity lease counts (written under this identity)
  // An identity lease of another identity counts no more: write 0 to idgen_mark_identity (flushed
  // before any value), so that nothing (a restart, restart_at_clock) reads it again as the last one.
  bool retire_identity = false;
  uint64_t decimal_next = 0;
  // After a failover, the server writes its floors (with the margin) as its leases, flushed, before
  // any value: a crash before its first lease must not forget the margin.
  bool after_failover = false;
  bool renew = false;
  uint64_t renew_identity_ms = 0;  // (the identity lease it writes then; 0: none)
  // Then (after the leases, flushed) idgen_decimal_id: the next generator id past the failover,
  // under this timeline (FinishLoad, DecimalOriginValue). Until then every write of it keeps the
  // timeline it had: a crash before the leases are written must find the failover again.
  bool write_decimal = false;
  uint32_t timeline_before = 0;
  uint32_t decimal_timeline = 0;
};
// mark_raw, identity_raw, decimal_raw: what the origins hold; promoted: this start ends a recovery
// by promotion; timeline: the server's WAL timeline; margin_ms: idgen.failover_margin.
Load DecideLoad(uint64_t mark_raw, uint64_t identity_raw, uint64_t decimal_raw, uint32_t identity, bool promoted,
                uint32_t timeline, uint64_t margin_ms);
// Publishes a Load (once the words are raised).
void ApplyLoad(ServerMark& mark, const Load& load, uint64_t mark_raw, uint64_t identity_raw);
// Once the leases of a failover are written: the timeline that idgen_decimal_id carries from now on.
void FinishLoad(ServerMark& mark, const Load& load);
// What a write of idgen_decimal_id holds: the next free generator id, under the mark's timeline.
constexpr uint64_t DecimalOriginValue(const ServerMark& mark, uint64_t next) {
  return PackDecimalOrigin(mark.decimal_timeline, next);
}

// ---- renewing the leases (Cover, RenewLeases) ----------------------------------------------------

struct CopyState;

struct CoverDecision {
  bool retake = false;          // drop the value, take another after Prepare
  bool beyond_max = false;      // refuse: the lease would pass what the mark can hold (2144)
  uint64_t renew_lease_ms = 0;  // write, flush and confirm these (0: not this one), then publish
  uint64_t renew_identity_ms = 0;
  bool write_copy = false;  // then write this database's copy (DecideCopyWrite)
};
// A value of the family (group) whose last instant is ms, taken under hot_generation, by a session
// whose identity a reload read now changed (identity_changed), at now_ms, under identity.
CoverDecision DecideCover(const ServerMark& mark, Group group, uint64_t hot_generation, bool identity_changed,
                          uint32_t identity, const CopyState& copy, uint64_t ms, uint64_t now_ms);
// After the leases were written, flushed and confirmed, unless the generation moved meanwhile
// (retake; nothing is published). The server's lease records the identity it was written under.
bool RenewalStillValid(const ServerMark& mark, uint64_t generation);
void PublishRenewal(ServerMark& mark, uint64_t lease_ms, uint64_t identity_lease_ms, uint32_t identity);
// The identity lease after a renewal to proposed: leases only grow, and an identity lease only while
// one exists (kNoLease: none; 0: restart_at_clock() or a retirement is writing it).
constexpr uint64_t RenewedIdentityLease(uint64_t current, uint64_t proposed) {
  return current != kNoLease && current < proposed ? proposed : current;
}

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
  int64_t tag = 0;               // idgen.mark_server as read or written
  uint64_t wait_ms[2] = {0, 0};  // per group: the clock must pass this before a value (0: nothing)
};
// Whether a copy written by tag up to copy_ms is covered for a group: every value the server makes
// from now on lies above every value it records.
bool Covered(const ServerMark& mark, const Self& self, Group group, uint64_t copy_ms, int64_t tag);
// The copy's bound of the families with an identity: idgen.mark_identity where a writer of 1.3 put
// it, idgen.mark where 1.2 wrote it.
uint64_t CopyIdentityMs(const CopyRead& read);
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
// Once the clock has passed a group's copy (it waited, or had passed it already), the group's words
// are raised to it (0: nothing to raise): its values then lie above the copy even when the clock
// goes back before the group's next value. The copy lies at or below the clock then, so an owner who
// set it moves nothing ahead of the clock.
uint64_t RaiseAfterCopyWait(const Wait& wait, uint64_t wait_ms);

struct CopyWrite {
  int64_t mark = 0;  // raised to (never lowered)
  bool write_identity = false;
  int64_t mark_identity = 0;
  bool identity_exact = false;  // set exactly (else raised)
  bool write_tag = false;
  int64_t tag = 0;      // set exactly
  bool claims = false;  // the tag names this run
  // Before the tag names this run (which covers both groups from then on): the words of each group
  // whose wait the clock has passed without a value, raised to that wait (at or below the clock).
  uint64_t raise_ms[2] = {0, 0};
};
CopyWrite DecideCopyWrite(const ServerMark& mark, const Self& self, const CopyState& copy, uint64_t now_ms);
void AfterCopyWrite(CopyState& copy, const CopyWrite& write);
// CREATE EXTENSION: the new copy starts at the server's leases, under this run, so that a dump made
// before the database's next ID still covers the rows it held before a DROP EXTENSION (a restore
// then sets the copy it carries). Nothing (0) without shared state.
CopyWrite DecideCopyAtCreate(const ServerMark& mark, const Self& self);

// What a value may lie below without Cover (Hot::covered_ms), per group, for a session under
// identity: nothing of the families with an identity while the server's lease was last written
// under another (their next value writes it again, DecideCover).
uint64_t CoveredMs(const ServerMark& mark, const CopyState& copy, Group group, uint32_t identity);

// A reload that assigns an identity setting drops what each session had found covered (Hot): the
// next value of a session in an open transaction goes through Prepare and Cover, which write the
// server's lease under the new identity before the value is returned.
inline bool ReloadDropsCovered() { return !Reopened(kRouteReloadKeepsCovered); }

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
    kRefuseUnknownIdentity,
    kRefuseSameIdentity,
    kMove
  } kind = kNothingToDo;
  uint64_t old_ms = 0;
  uint32_t same_parts = 0;  // kRefuseSameIdentity: the parts (kNodePart...) the identity still shares
  uint64_t lease_ms = 0;    // kMove: the identity lease, written exactly under the identity
  uint64_t floor_ms = 0;    // kMove: the words of the families with an identity are set to it
};
// Who may call it and where: the first refusal of the caller, the server, the identity settings
// (kMove when they allow it). DecideRestart checks them first too.
Restart::Kind RestartPrecondition(const RestartInput& in);
Restart DecideRestart(const ServerMark& mark, const RestartInput& in);
// kMove, under the lock: the generation, no identity lease until Finish.
void BeginRestart(ServerMark& mark, uint32_t identity);
void FinishRestart(ServerMark& mark, const Restart& restart);

// ---- DecimalId -------------------------------------------------------------------------------------

// (on every DecimalId: inline)
constexpr int64_t DecimalCopyValue(int64_t decimal_run, int launch_id, int64_t id) {
  return decimal_run * kDecimalRunUnit + static_cast<int64_t>(launch_id) * kDecimalUnit +
         id / kDecimalUnit % kDecimalUnit;
}
// Whether this database's DecimalIds (its copy) can be repeated by this server's from now on.
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
// When the drop goes on (shared state): the server adopts what the copy held that the clock has
// passed but the server had not (another server's, a clone's), before the copy goes: the words of
// each group raised to it and the leases written to it (0: nothing), so that a clock stepped back
// later, or a restart, keeps the database's next values above the rows the copy covered.
struct DropAdopt {
  uint64_t raise_ms[2] = {0, 0};
  uint64_t lease_ms = 0, identity_lease_ms = 0;
};
DropAdopt DecideDropAdopt(const ServerMark& mark, const Self& self, const DropInput& in);

// ---- who generates, under which identity ------------------------------------------------------------

// Whether a coordinated family may generate: on a primary with shared state (a standby has its
// primary's identity and marks).
bool MayGenerate(bool recovery, bool shared);
// The identity a session generates under: the server's configuration, as a reload read it (the
// identity settings are the server's; one set per database or per session is not taken).
uint32_t SessionIdentity(uint32_t server_identity, bool database_sets_one, uint32_t database_identity,
                         bool session_sets_one, uint32_t session_identity);

// ---- Instagram's bound shards (instagram_shard.cpp, shard_marks.cpp) -------------------------------

// Which schema holds a registry row's shard here. In the row's own OID space (written in this
// database) the OID decides for the schema's life, under whatever name; once no schema has it, the
// shard is free, unless a schema of the row's name with a marks table stands in its place (a dump
// of the schema restored into this database: its marks came back with it). Elsewhere (a restored
// dump, a pg_upgrade, a Citus worker reading the coordinator's row) the name decides; where it is
// no longer found, the schema may live on renamed: unknown, which is refused, never taken as free.
struct ShardRow {
  bool found = false;            // the registry has a row for the shard
  bool own = false;              // written in this database's OID space
  bool oid_exists = false;       // a schema has the row's OID
  bool named_exists = false;     // a schema has the row's name
  bool named_has_marks = false;  // ... with a marks table
};
enum class ShardHolder : uint8_t { kNone, kByOid, kByName, kUnknown };
ShardHolder DecideShardHolder(const ShardRow& row);

// An Instagram ID of a bound shard, at id_us, against the shard's marks as this backend knows them
// (cover_us: below it every ID is covered by a mark; foreign_us: the highest mark another run or
// server wrote) and after reading them again (reloaded): return it, read the marks again, take
// another (a mark another server wrote lies above it: wait for it first), or write a mark a lease
// beyond it (mark_us) and return it.
struct ShardValue {
  enum Kind : uint8_t { kReturn, kReload, kRetake, kMark } kind = kReturn;
  int64_t mark_us = 0;
};
ShardValue DecideShardValue(int64_t id_us, int64_t cover_us, int64_t foreign_us, bool reloaded);
// A shard mark written by another run of a server (or another server) that lies ahead of now: wait
// for it, or refuse when it lies further ahead than idgen.max_clock_regression beyond what a server
// puts its own marks ahead by itself (self_made_ms: the shard mark's lease, a burst's run ahead, the
// failover margin of a promoted server).
Wait DecideShardWait(uint64_t mark_ms, uint64_t now_ms, uint64_t max_clock_regression_ms, uint64_t self_made_ms);

}  // namespace idgen::protocol
