// The durable-state protocol of the coordinated families, free of PostgreSQL: what the server's
// leases (the replication origins idgen_mark and idgen_mark_identity), each database's copy
// (idgen.mark, idgen.mark_identity, idgen.mark_server, idgen.mark_parts,
// idgen.decimal_id_generator) and the calls that read and write them decide. Events come in as
// plain values (what an origin or a sequence holds, the clock, the server's identity and run,
// whether it was promoted); decisions go out as plain values (raise the words to a floor; write
// lease L under parts P and flush it before any value past the old one; wait until t; refuse, and
// why; take the value again). core/engine.cpp runs them in order against the world's effects
// (src/pg's, or the simulator's); docs/design.md draws the states and says the invariants.
//
// Every function here is pure: it reads its arguments and returns a decision, or updates the
// ServerMark or CopyState it is given, nothing else.
#pragma once

#include "core/cpp_only.hpp"

#include <cstdint>

#include "core/identity.hpp"

namespace idgen::protocol {

using identity::Identity;
using identity::Parts;

// How long a lease runs ahead of the values it covers: one flush per second of generating.
inline constexpr uint64_t kLeaseMs = 1000;

// ---- what the origins hold ------------------------------------------------------------------------

// A lease origin's value (idgen_mark, idgen_mark_identity) from 1.4 on: the two top bits set, the
// lease end in 10 ms units (46 bits), and the handle of the parts of the values it covers (16 bits:
// the id of the replication origin whose name is their registry text, core/identity.hpp; 0: no
// part, a lease of no value with a part). The handle is in the low bits, so that a larger value is always a later lease
// (origins advance to the larger value). idgen 1.3 wrote a 24-bit hash under the top bit, 1.2 a hash with the top bit
// clear: their leases read as they were, their parts as not known.
inline constexpr uint64_t kFormat14 = uint64_t{3} << 62;
inline constexpr uint64_t kLeaseUnitsMax = (uint64_t{1} << 46) - 1;
inline constexpr uint64_t kMaxLeaseMs = kLeaseUnitsMax * 10;
constexpr bool IsFormat14(uint64_t raw) { return (raw & kFormat14) == kFormat14; }
constexpr uint64_t Pack(uint64_t lease_ms, uint16_t parts) {
  const uint64_t units = (lease_ms + 9) / 10;
  return kFormat14 | (units < kLeaseUnitsMax ? units : kLeaseUnitsMax) << 16 | parts;
}
constexpr uint64_t LeaseMsOf(uint64_t raw) {
  if (IsFormat14(raw)) return (raw >> 16 & kLeaseUnitsMax) * 10;
  return ((raw & ~(uint64_t{1} << 63)) >> 24) * 10;  // (1.3, 1.2)
}
constexpr uint16_t PartsHandleOf(uint64_t raw) { return IsFormat14(raw) ? static_cast<uint16_t>(raw & 0xFFFF) : 0; }
// The 24-bit hash that idgen 1.3 wrote under a lease (~0: none, or 1.2's): only an identity lease of
// 1.3 is still judged by it, as 1.3 judged it, until the next write.
constexpr uint32_t LegacyHashOf(uint64_t raw) {
  return (raw >> 63) != 0 && !IsFormat14(raw) ? static_cast<uint32_t>(raw & 0xFFFFFF) : ~uint32_t{0};
}

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

// DecimalId generator ids are taken at least this far apart (idgen_decimal_take holds the time of
// the last take), so that a promoted server knows how many its primary may have taken that never
// reached it: one per interval of idgen.failover_margin, and one more.
inline constexpr uint64_t kDecimalTakeIntervalMs = 1000;
constexpr uint64_t DecimalFailoverSkip(uint64_t margin_ms) {
  return (margin_ms + kDecimalTakeIntervalMs - 1) / kDecimalTakeIntervalMs + 1;
}

// idgen.decimal_id_generator from 1.3 on: run * 10^10 + launch id * 10^5 + generator id.
inline constexpr int64_t kDecimalUnit = 100000;
inline constexpr int64_t kDecimalRunUnit = kDecimalUnit * kDecimalUnit;
// A database's DecimalId copy raises the server's generator ids (at a start from the copies, or by
// adopt_copy()) only where its generator id lies below this: a copy in the upper half of the range
// counts in its own database alone, whose DecimalIds then refuse as where any copy lies ahead of the
// server. What one database's owner can write never spends the generator ids of every database.
inline constexpr int64_t kDecimalSharedLimit = kDecimalUnit / 2;

// ---- the families as the marks see them ----------------------------------------------------------

// The families without a node identity (UUIDv7, ns_id: unique by their random bits too) and those
// whose IDs carry a part of it: the node families (Snowflake, Sonyflake, TraceId, JS-safe), UID20
// (the digit), Instagram (the shard). A database's copy is waited for by kin; the identity lease of
// restart_at_clock() moves the three kins with a part together.
enum Kin : uint8_t { kTime = 0, kNode = 1, kDigit = 2, kShard = 3, kKinCount = 4 };
constexpr bool WithIdentity(Kin kin) { return kin != kTime; }
constexpr identity::Part PartOf(Kin kin) {
  return kin == kNode ? identity::Part::kNode : kin == kDigit ? identity::Part::kDigit : identity::Part::kShards;
}
// The words, the floors and what a value covers come in two groups: time only, and with a part.
enum Group : uint8_t { kTimeOnly = 0, kWithIdentity = 1 };
constexpr Group GroupOf(Kin kin) { return kin == kTime ? kTimeOnly : kWithIdentity; }

// ---- the server ------------------------------------------------------------------------------------

// What this server is, as the decisions compare it: the run (drawn at each start; a clone has its
// own; never 0, which names no run), the identity of its configuration, the system identifier
// (which a clone shares: only copies of 1.2 are compared with it), the DecimalId run.
struct Self {
  uint64_t run_bits = 0;
  Identity identity;
  uint32_t legacy_hash = 0;  // the identity as idgen 1.3 hashed it (an identity lease of 1.3 names it)
  int64_t system_identifier = 0;
  int64_t decimal_run = 0;
};

// The identity lease's states besides a lease: none (restart_at_clock() has not moved the families
// with a part), and moving (being written or retired: no value of those families passes).
inline constexpr uint64_t kNoLease = ~uint64_t{0};
inline constexpr uint64_t kMoving = 0;

// The server's marks as its sessions share them. The leases are published as the origins hold them,
// once durable: lease_raw is what idgen_mark holds (its lease and its parts' handle), and
// identity_lease_raw what idgen_mark_identity holds, or kNoLease, or kMoving.
struct ServerMark {
  bool loaded = false;
  uint64_t lease_raw = 0;  // every value of every family lies below its lease
  uint64_t identity_lease_raw = kNoLease;
  uint64_t floor_ms = 0;  // the words were raised to these at the start
  uint64_t identity_floor_ms = 0;
  uint64_t generation = 0;  // bumped when the words of the families with a part move back
  uint64_t decimal_id_next = 0;
  uint64_t decimal_id_floor = 0;
  uint32_t decimal_timeline = 0;  // the high bits of every write of idgen_decimal_id
  uint64_t decimal_take_ms = 0;   // the last DecimalId generator id was taken then

  uint64_t LeaseMs() const { return LeaseMsOf(lease_raw); }
  bool HasIdentityLease() const { return identity_lease_raw != kNoLease; }
  // A lease, neither none nor moving: only such a lease is renewed, retired or moved back.
  bool IdentityLeaseInForce() const { return identity_lease_raw != kNoLease && identity_lease_raw != kMoving; }
  // The identity lease's end: kNoLease when there is none, 0 while it moves.
  uint64_t IdentityLeaseMs() const {
    return identity_lease_raw == kNoLease  ? kNoLease
           : identity_lease_raw == kMoving ? 0
                                           : LeaseMsOf(identity_lease_raw);
  }
};

// The parts behind the two leases, as the registry gives them for their handles.
struct LeaseParts {
  Parts server;    // of the values made under the server lease alone (no identity lease in force)
  Parts identity;  // of the values made under the identity lease
};

// ---- the start of the server (LoadServerMark) -----------------------------------------------------

struct Load {
  uint64_t floor_ms = 0;           // raise the words of the time-only families to it
  uint64_t identity_floor_ms = 0;  // ... and those with a part to this
  uint64_t self_made_ms = 0;       // of the gap to the clock, how much the server made itself
  bool identity_valid = false;     // the identity lease counts
  // An identity lease that counts no more: write 0 to idgen_mark_identity (flushed before any
  // value), so that nothing (a restart, restart_at_clock) reads it again.
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
// mark_raw, identity_raw, decimal_raw, take_ms: what the origins hold; parts: their parts; promoted:
// this start ends a recovery by promotion; timeline: the server's WAL timeline; margin_ms:
// idgen.failover_margin.
Load DecideLoad(uint64_t mark_raw, uint64_t identity_raw, uint64_t decimal_raw, const LeaseParts& parts,
                const Self& self, bool promoted, uint32_t timeline, uint64_t margin_ms);
// Publishes a Load (once the words are raised).
void ApplyLoad(ServerMark& mark, const Load& load, uint64_t mark_raw, uint64_t identity_raw, uint64_t take_ms);
// Once the leases of a failover are written: the timeline that idgen_decimal_id carries from now on.
void FinishLoad(ServerMark& mark, const Load& load);
// What a write of idgen_decimal_id holds: the next free generator id, under the mark's timeline.
constexpr uint64_t DecimalOriginValue(const ServerMark& mark, uint64_t next) {
  return PackDecimalOrigin(mark.decimal_timeline, next);
}

// ---- the first start of the origins (a cluster that pg_upgrade made, or a new one) ----------------

struct CopyRead;
// The origins were never written, and the databases may hold copies of another server's values (a
// cluster that pg_upgrade made carries every database's copy, none of the old server's origins):
// before the first value, every database's copy is read, and the leases that a server holding them
// all had written are rebuilt from them: the largest of the copies' bounds, under the union of their
// parts (a database whose copy is of 1.3 or before: not known), and the DecimalId generator ids past
// every copy's. A database created later holds no copy of those values, and a database that made no
// DecimalId none of those generator ids: only the server's rebuilt leases keep their values apart.
struct Rebuilt {
  bool any = false;
  uint64_t mark_ms = 0, identity_ms = 0;
  Parts parts;  // of every copy
  uint64_t decimal_next = 0;
  // Where the latest bound, and the largest DecimalId generator id, came from (the caller's name of
  // a database: a refusal names it, so that a copy set ahead by hand is found and set right).
  uint64_t source = 0;
};
// One database's copy as it counts in the rebuilt leases (has_mark false: nothing; decimal_copy:
// idgen.decimal_id_generator, 0 or less when it holds none).
// (launch_id: the launch id of this start; the DecimalIds of every launch id count all the same)
Rebuilt RebuiltOf(const CopyRead& read, int64_t decimal_copy, int launch_id);
void Merge(Rebuilt& into, const Rebuilt& one);

// ---- renewing the leases (Cover) ----------------------------------------------------------------

struct CopyState;

struct CoverDecision {
  bool retake = false;          // drop the value, take another after Prepare
  bool beyond_max = false;      // refuse: the lease would pass what the mark can hold
  uint64_t renew_lease_ms = 0;  // write these under these parts, flush and confirm (0: not this one),
  Parts lease_parts;            // then publish what the origins hold
  uint64_t renew_identity_ms = 0;
  Parts identity_parts;
  bool write_copy = false;  // then write this database's copy (DecideCopyWrite)
  // The clock the decision read: a lease written over another whose end it has not passed keeps
  // that lease's parts too (the renewal reads the lease it writes over just before it writes).
  uint64_t now_ms = 0;
};
// A value of the kin whose last instant is ms, taken under hot_generation, by a session whose
// identity a reload read now changed (identity_changed), at now_ms, under identity.
CoverDecision DecideCover(const ServerMark& mark, const LeaseParts& parts, Kin kin, uint64_t hot_generation,
                          bool identity_changed, const Identity& identity, const CopyState& copy, uint64_t ms,
                          uint64_t now_ms);
// Once durable, what the origins hold is published, never more: the lease only grows. A value is
// returned only under a lease that covers it under parts that include its identity: false when the
// published lease does not (a renewal under another identity won meanwhile), and the value is taken
// again.
bool CoveredBy(const ServerMark& mark, const LeaseParts& parts, Kin kin, const Identity& identity, uint64_t ms);

// ---- the identity lease that counts no more (DropIdentityLease) -------------------------------------

// The identity lease counts while the identity of the configuration meets nothing of what the server
// lease covers above it: the families with a part then lie above every value that could repeat theirs.
bool IdentityLeaseCounts(uint64_t identity_raw, const LeaseParts& parts, const Self& self);
bool MustDropIdentityLease(const ServerMark& mark, const LeaseParts& parts, const Self& self);
struct DropIdentity {
  uint64_t raise_identity_words_to_ms = 0;  // the server's lease: every value ever made here lies below
};
// Bumps the generation and closes the identity lease (no value passes until Finish); the caller
// writes 0 to idgen_mark_identity and flushes it before Finish.
DropIdentity BeginDropIdentityLease(ServerMark& mark);
void FinishDropIdentityLease(ServerMark& mark);

// ---- each database's copy --------------------------------------------------------------------------

// What the sequences hold (has_*: the sequence exists).
struct CopyRead {
  bool has_mark = false, has_server = false, has_identity = false, has_parts = false;
  int64_t mark = 0, server = 0, mark_identity = 0, parts = 0;
  bool mark_never_set = false;  // idgen.mark as CREATE EXTENSION made it (no value, no setval)
};

// idgen.mark_server: the top bit, then (from 1.4, where idgen.mark_parts says the parts are known)
// 37 bits of the writer's run and 26 bits of its shards (identity::CopyWords); idgen 1.3 wrote 39
// bits of the run and a 24-bit hash, 1.2 the system identifier (top bit clear).
inline constexpr uint64_t kTagged = uint64_t{1} << 63;
inline constexpr uint64_t kRunMask = (uint64_t{1} << 37) - 1;
inline constexpr uint64_t kShardBitsMask = (uint64_t{1} << 26) - 1;
constexpr int64_t Tag(uint64_t run_bits, uint32_t shard_bits) {
  return static_cast<int64_t>(kTagged | (run_bits & kRunMask) << 26 | (shard_bits & kShardBitsMask));
}
// 1.3's layout, which a database whose extension is not updated yet (no idgen.mark_parts) keeps.
inline constexpr uint64_t kLegacyRunMask = (uint64_t{1} << 39) - 1;
constexpr int64_t LegacyTag(uint64_t run_bits, uint32_t legacy_hash) {
  return static_cast<int64_t>(kTagged | (run_bits & kLegacyRunMask) << 24 | (legacy_hash & 0xFFFFFF));
}

// The values of another writer in a copy this server added its own values to: their bounds (of the
// time-only families, of those with a part) and their parts.
struct Theirs {
  uint64_t ms = 0, identity_ms = 0;
  Parts parts;
};

// What a session knows of its database's copy.
struct CopyState {
  bool has_copy = false;
  bool has_identity_copy = false;
  bool has_parts_copy = false;
  uint64_t copy_ms = 0;
  uint64_t copy_identity_ms = 0;
  bool layout14 = false;     // idgen.mark_server has 1.4's layout (idgen.mark_parts says so), else 1.3's
  uint64_t run = 0;          // the writer's run (0: no run, or a tag of 1.2)
  Parts parts;               // of the values it holds of the families with a part (1.3's: not known)
  bool tag_is_ours = false;  // this run wrote it, and its parts hold this server's identity
  int64_t tag = 0;           // idgen.mark_server as read or written
  // Of a copy another writer's values still lie ahead in (no run claimed it), the bounds and the
  // parts of those values alone, where this server remembers them: it added values of its own
  // since (their parts, and leases above its words), which are no wait of its own. Not known
  // (false): everything in the copy is another writer's.
  bool theirs_known = false;
  struct Theirs theirs;
  uint64_t wait_ms[kKinCount] = {0, 0, 0, 0};  // per kin: the clock must pass this before a value (0: nothing)
};
// Whether a copy written by its writer up to copy_ms is covered for a kin: every value the server
// makes from now on lies above every value it records that the kin's IDs could repeat.
bool Covered(const ServerMark& mark, const Self& self, Kin kin, uint64_t copy_ms, const CopyState& copy);
// The copy's bound of the families with a part: idgen.mark_identity where a writer of 1.3 or later
// put it, idgen.mark where 1.2 wrote it.
uint64_t CopyIdentityMs(const CopyRead& read);
// theirs: what this server remembers of another writer's values in exactly this copy
// (CopyWrite::theirs), or nullptr.
CopyState DecideCopy(const ServerMark& mark, const Self& self, const CopyRead& read, const Theirs* theirs = nullptr);

// Whether a session reads its database's copy again before a value: another database or state, no
// copy yet, a new transaction or an invalidation (fresh false), or the generation moved.
bool MustReadCopy(bool same_state_and_database, bool has_copy, bool fresh, uint64_t seen_generation,
                  uint64_t generation);
// Whether the kin refuses for want of a copy (only the time-only families go on without one).
inline bool RefuseWithoutCopy(bool has_copy, Kin kin) { return !has_copy && kin != kTime; }

struct Wait {
  enum Kind : uint8_t { kGo, kWait, kRefuse } kind = kGo;
  uint64_t until_ms = 0;
  uint64_t gap_ms = 0;
};
Wait DecideWait(uint64_t wait_ms, uint64_t now_ms, uint64_t max_clock_regression_ms);
// Once the clock has passed a kin's copy (it waited, or had passed it already), the kin's words are
// raised to it (0: nothing to raise): its values then lie above the copy even when the clock goes
// back before the kin's next value. The copy lies at or below the clock then, so an owner who set
// it moves nothing ahead of the clock.
uint64_t RaiseAfterCopyWait(const Wait& wait, uint64_t wait_ms);

struct CopyWrite {
  int64_t mark = 0;  // raised to (never lowered)
  bool write_identity = false;
  int64_t mark_identity = 0;
  bool identity_exact = false;  // set exactly (else raised)
  bool write_tag = false;       // idgen.mark_server and idgen.mark_parts, together
  int64_t tag = 0;              // set exactly
  int64_t parts = 0;            // set exactly (identity::CopyWords::parts)
  bool claims = false;          // the tag names this run
  // Before the tag names this run (which covers every kin from then on): the words of each kin
  // whose wait the clock has passed without a value, raised to that wait (at or below the clock).
  uint64_t raise_ms[kKinCount] = {0, 0, 0, 0};
  // A copy that stays another writer's while this server adds values of its own to it: the other
  // writer's values, which this server remembers for the copy exactly as it writes it, so that its
  // own values (their parts, its leases above its words) do not make it wait for the other's.
  bool remember_theirs = false;
  Theirs theirs;
  // The bounds the copy holds after the write, as far as the writer knows (mark and mark_identity
  // are raised, not set): what the memory of theirs is kept for.
  int64_t holds_mark = 0, holds_identity = 0;
};
// kin: the value that writes the copy (its identity joins the copy's parts when it has a part).
CopyWrite DecideCopyWrite(const ServerMark& mark, const LeaseParts& parts, const Self& self, const CopyState& copy,
                          Kin kin, uint64_t now_ms);
void AfterCopyWrite(CopyState& copy, const CopyWrite& write);
// The tag and the parts a copy holds once a write of them (CopyWrite::tag, parts) lands on the tag
// and parts it held: the run as written, the parts (idgen.mark_parts, and the shard bits of the tag)
// joined with those it held, which only grow. Each session writes the copy from its own view of it:
// one that read the copy before another's write would drop that write's parts, and the values the
// other made under them would be held by no copy (a dump, or the start after pg_upgrade, reads it).
struct CopyTagParts {
  int64_t tag = 0;
  int64_t parts = 0;
};
CopyTagParts JoinCopyParts(int64_t held_tag, int64_t held_parts, int64_t tag, int64_t parts);
// CREATE EXTENSION: the new copy starts at the server's leases, under this run and the parts the
// server lease holds with this server's identity, so that a dump made before the database's next ID
// still covers the rows it held before a DROP EXTENSION (a restore then sets the copy it carries).
CopyWrite DecideCopyAtCreate(const ServerMark& mark, const LeaseParts& parts, const Self& self);

// Values that a COPY brought into this database (a table moved from another server by pg_dump -t,
// a restore without the extension's copy): for a kin, the instant of the latest and the parts they
// carry. The database's copy holds them from then on, as another writer's (no run: whichever server
// made them, each kin waits for them or refuses where its part meets theirs); nothing is written
// where the copy holds them already.
bool MovedValuesHeld(const CopyState& copy, Kin kin, uint64_t ms, const Parts& parts);
CopyWrite DecideMovedValues(const CopyState& copy, const Self& self, Kin kin, uint64_t ms, const Parts& parts);

// What a value may lie below without Cover (Hot::covered_ms), per group, for a session under
// identity: nothing of the families with a part while the lease that covers them was written under
// parts without this identity (their next value writes it again, DecideCover).
uint64_t CoveredMs(const ServerMark& mark, const LeaseParts& parts, const CopyState& copy, Group group,
                   const Identity& identity);

// ---- idgen.restart_at_clock() -----------------------------------------------------------------------

struct RestartInput {
  bool superuser = true;
  bool shared_primary = true;  // shared state, not in recovery
  bool identity_set_per_database_or_role = false;
  bool node_id_from_citus = false;
  Identity identity;
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
  bool shares[identity::kPartCount] = {};  // kRefuseSameIdentity: the parts the identity shares
  uint64_t lease_ms = 0;                   // kMove: the identity lease, under the identity alone
  uint64_t floor_ms = 0;                   // kMove: the words of the families with a part are set to it
};
// Who may call it and where: the first refusal of the caller, the server, the identity settings
// (kMove when they allow it). DecideRestart checks them first too.
Restart::Kind RestartPrecondition(const RestartInput& in);
// Every family with a part must get one that meets nothing it made above the clock: the parts of the
// identity lease's values and of the server lease's, each where its lease lies ahead.
Restart DecideRestart(const ServerMark& mark, const LeaseParts& parts, const RestartInput& in);
// kMove, under the lock: the generation, no identity lease until Finish.
void BeginRestart(ServerMark& mark);
void FinishRestart(ServerMark& mark, const Restart& restart, uint64_t identity_raw);

// ---- DecimalId -------------------------------------------------------------------------------------

// (on every DecimalId: inline)
constexpr int64_t DecimalCopyValue(int64_t decimal_run, int launch_id, int64_t id) {
  return decimal_run * kDecimalRunUnit + static_cast<int64_t>(launch_id) * kDecimalUnit +
         id / kDecimalUnit % kDecimalUnit;
}
// CREATE EXTENSION: the new copy of DecimalId at every generator id this server has taken (under
// its launch id), which covers any DecimalId the database held before a DROP EXTENSION (0: none
// taken, or no launch id: nothing to write).
int64_t DecimalCopyAtCreate(uint64_t decimal_next, int64_t decimal_run, int launch_id);
// DecimalIds that a COPY brought (of a launch id, the largest generator id among them): the copy
// that holds them from then on (no run: another server's), or 0 where the copy holds them already
// (another server's, of the same launch id, a generator id at or above; this run's own says nothing
// of another server's generator ids).
constexpr int64_t DecimalMovedCopy(int64_t copy, int launch_id, int64_t generator) {
  const int64_t low = copy > 0 ? copy % kDecimalRunUnit : 0;
  if (copy > 0 && copy / kDecimalRunUnit == 0 && low / kDecimalUnit == launch_id && low % kDecimalUnit >= generator) {
    return 0;
  }
  return static_cast<int64_t>(launch_id) * kDecimalUnit + generator;
}
// Whether this database's DecimalIds (its copy) can be repeated by this server's from now on.
bool DecimalIdCopyCovered(const ServerMark& mark, int64_t decimal_run, int64_t copy, int launch_id, int64_t* generator);
// A new generator id may be taken now, or once the clock reaches until_ms (the last take plus the
// interval), or never (a clock so far behind the last take: refuse).
Wait DecideDecimalTake(const ServerMark& mark, uint64_t now_ms, uint64_t max_clock_regression_ms);

// ---- DROP EXTENSION (CheckDropKeepsNothing) ------------------------------------------------------

struct DropInput {
  CopyRead read;
  bool theirs_known = false;  // what this server remembers of the copy (CopyState::theirs)
  Theirs theirs;
  uint64_t now_ms = 0;
  bool shared = true, recovery = false;
  uint64_t mark_raw = 0, identity_raw = 0;  // the origins (read without shared state)
};
// Whether dropping the extension keeps nothing this server has not passed (the mark part; mark must
// be loaded when shared).
bool DropKeepsNothing(const ServerMark& mark, const LeaseParts& parts, const Self& self, const DropInput& in);
// When the drop goes on (shared state): the server adopts what the copy held that the clock has
// passed but the server had not (another server's, a clone's), before the copy goes: the words of
// each kin raised to it and the leases written to it (0: nothing), so that a clock stepped back
// later, or a restart, keeps the database's next values above the rows the copy covered.
struct DropAdopt {
  uint64_t raise_ms[kKinCount] = {0, 0, 0, 0};
  uint64_t lease_ms = 0, identity_lease_ms = 0;
};
DropAdopt DecideDropAdopt(const ServerMark& mark, const LeaseParts& parts, const Self& self, const DropInput& in);

// ---- idgen.adopt_copy(): the way out of a copy far ahead ---------------------------------------------

// A copy further ahead of the clock than idgen.max_clock_regression (a database restored from a
// server whose clock ran ahead) is refused until the clock passes it, however long. The ways out
// that keep every promise: the families with a part carry on at once under a part the copy's IDs
// do not carry (another node id, UID20 digit or shards: the copy is another identity's for them);
// UUIDv7, ULID, typeid and ns_id, whose order has no part to change, carry on above the copy, ahead
// of the clock, once the server adopts it: their words, their floor and the server's lease raised to
// it. DecimalId generator ids are raised past the copy's.
struct Adopt {
  uint64_t time_ms = 0;       // the time-only families carry on from here (0: nothing to adopt)
  uint64_t lease_ms = 0;      // the server's lease written to it (0: it lies there already)
  uint64_t decimal_next = 0;  // (0: nothing)
  // Refused, nothing moved: the copy lies lead_ms ahead of the clock, further than the caller
  // accepted; or its DecimalIds lie in the upper half of the generator ids (kDecimalSharedLimit).
  bool further_than_accepted = false;
  bool decimal_beyond_shared = false;
  uint64_t lead_ms = 0;
};
// accepted_lead_ms: how far ahead of the clock the caller lets every database's time-only families
// run (adopt_copy()'s argument): the server moves for all, so its operator states the amount.
Adopt DecideAdopt(const ServerMark& mark, const CopyState& copy, bool decimal_covered, int64_t decimal_generator,
                  uint64_t now_ms, uint64_t accepted_lead_ms);

// ---- who generates ----------------------------------------------------------------------------------

// Whether a coordinated family may generate: on a primary with shared state (a standby has its
// primary's identity and marks).
bool MayGenerate(bool recovery, bool shared);

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
// puts its own marks ahead by itself: the shard mark's lease (kLeaseMs), the ticks a burst runs
// ahead of the clock (run_ahead_ms), and the failover margin (a promoted server raises its words by
// it, and its marks follow its IDs).
Wait DecideShardWait(uint64_t mark_ms, uint64_t now_ms, uint64_t max_clock_regression_ms, uint64_t run_ahead_ms,
                     uint64_t failover_margin_ms);

// ---- ticket and range sequences (idgen.sequence_nextval) --------------------------------------------

// A sequence's values are PostgreSQL's, WAL-logged a few values ahead: an asynchronous standby may
// not have received the last ones its primary gave, and nothing tells how many (a counter has no
// clock to bound them). So a sequence whose page was last written before this server's WAL timeline
// began (a promotion, or a recovery to a point in time) gives nothing through idgen until the
// operator has set it past what the old primary gave (idgen.sequence_resume(), or setval(), which
// write its page on this timeline); and one that is not WAL-logged (unlogged, temporary), which a
// crash or a failover resets to its start, never. timeline_begin: where this timeline's WAL began
// (0 on the first timeline, or where the history that would say is missing).
enum class SequenceCheck : uint8_t { kGo, kRefuseBeforeFailover, kRefuseNotLogged };
constexpr SequenceCheck DecideSequence(bool wal_logged, uint64_t page_lsn, uint64_t timeline_begin) {
  if (!wal_logged) return SequenceCheck::kRefuseNotLogged;
  return page_lsn < timeline_begin ? SequenceCheck::kRefuseBeforeFailover : SequenceCheck::kGo;
}

// ---- the retake loop ---------------------------------------------------------------------------------

// A value the marks did not cover is taken again; a call that has taken this many refuses instead
// (a loop that never ends is a bug, never a wait).
inline constexpr int kMaxRetakes = 1000;

}  // namespace idgen::protocol
