// The durable-state engine: the sequences that keep the coordinated families from repeating a
// value across restarts, crashes, failovers, restores and upgrades, written once against the
// effects they have on the world (Effects, below). src/pg/effects/mark.cpp implements the effects with
// PostgreSQL's calls (replication origins, sequence pages, shared memory, latches, errors); the
// simulator (test/sim) implements them over simulated servers, and may switch sessions, crash a
// server or jump a clock at any effect. The decisions each step takes are core/protocol.hpp's.
//
// The engine's frames hold only plain data: an effect may end the call by PostgreSQL's error (a
// longjmp) or by the simulator abandoning the session, and nothing is left to destroy either way.
// It never throws and never catches.
#pragma once

#include "core/cpp_only.hpp"

#include <cstdint>

#include "core/identity.hpp"
#include "core/protocol.hpp"

namespace idgen::engine {

using protocol::CopyRead;
using protocol::CopyState;
using protocol::CopyWrite;
using protocol::Kin;
using protocol::ServerMark;

// The server's durable values: replication origins (server-wide, WAL-logged, replayed by standbys,
// outliving DROP EXTENSION and DROP DATABASE).
enum class Origin : uint8_t {
  kMark,          // idgen_mark: the server lease
  kIdentityMark,  // idgen_mark_identity: the identity lease (0: none)
  kDecimalId,     // idgen_decimal_id: the next DecimalId generator id, and the timeline
  kDecimalTake,   // idgen_decimal_take: when the last DecimalId generator id was taken (Unix ms)
};

// The configuration as the session reads it now (a reload it was signalled and has not read yet is
// read first).
struct Config {
  identity::Identity identity;
  uint32_t legacy_hash = 0;  // the identity as idgen 1.3 hashed it
  bool citus = false;        // idgen.node_id_source = 'citus'
  uint64_t failover_margin_ms = 10000;
  uint64_t max_clock_regression_ms = 5000;
  int launch_id = -1;
  // The families (bits as the caller numbers them, Prepare's family_bit) that a setting the last
  // reload rejected, or a misspelt idgen.* name, refuses: no value is made under a default that a
  // rejected line fell back to.
  uint32_t refused_families = 0;
};

// The fields of the shared mark a write stores (ServerMark's).
enum MarkField : uint32_t {
  kFieldLoaded = 1u << 0,
  kFieldLease = 1u << 1,          // lease_raw: raised, never lowered
  kFieldIdentityLease = 1u << 2,  // identity_lease_raw: set (from a lease to a larger one: raised)
  kFieldFloors = 1u << 3,         // floor_ms, identity_floor_ms
  kFieldGeneration = 1u << 4,
  kFieldDecimal = 1u << 5,      // decimal_id_next, decimal_id_floor, decimal_timeline
  kFieldDecimalTake = 1u << 6,  // decimal_take_ms: raised
};

// The kins whose words an effect raises, a bit each (1 << Kin).
inline constexpr uint8_t KinBit(Kin kin) { return static_cast<uint8_t>(1u << kin); }
inline constexpr uint8_t kTimeKins = 1u << protocol::kTime;
inline constexpr uint8_t kIdentityKins = static_cast<uint8_t>(0xF & ~kTimeKins);

// Why a call refuses: src/pg words each as a PostgreSQL error (its SQLSTATE, message, detail and
// hint), the simulator counts them.
struct Refusal {
  enum Kind : uint8_t {
    kMissingCopy,         // this database has no copy (an extension older than 1.2, or dropped)
    kCopyAhead,           // this database's copy lies a further than max_clock_regression ahead
    kBeyondMaxLease,      // a lease would pass what an origin can hold
    kTooManyRetakes,      // the retake loop ran past its bound
    kDecimalTakeAhead,    // the last DecimalId generator id was taken a ahead of the clock
    kDecimalExhausted,    // every DecimalId generator id is used
    kDecimalCopyAhead,    // this database holds DecimalIds of launch id b, generator ids up to a
    kDropCopyAhead,       // DROP EXTENSION: the copy holds IDs up to a this server has not passed
    kDropDecimalAhead,    // DROP EXTENSION: DecimalIds of launch id b, generator ids up to a
    kRebuildAhead,        // the first start of the origins: a copy lies a ahead of the clock
    kSettingRejected,     // a setting the family a reads was rejected at a reload, or misspelt
    kAdoptFurther,        // adopt_copy(): the copy lies a ahead of the clock, more than the b ms accepted
    kAdoptDecimalShared,  // adopt_copy(): DecimalIds of launch id b up to generator id a, past the shared half
  } kind;
  uint64_t a = 0;
  int64_t b = 0;
};

using protocol::Rebuilt;

class Effects {
 public:
  // The clock, and a wait that holds nothing and that a cancel ends (with an error).
  virtual uint64_t NowMs() = 0;
  virtual void WaitUntilMs(uint64_t until_ms) = 0;
  virtual Config ReadConfig() = 0;
  // Where the session is: state shared by every session, recovery, a promotion this start ends, the
  // WAL timeline, this server (its run, its system identifier, its DecimalId run), and an opaque
  // name of the state and database (a session that moves to another reads its copy again).
  virtual bool Shared() = 0;
  virtual bool Recovery() = 0;
  virtual bool PromoteTriggered() = 0;
  virtual uint32_t Timeline() = 0;
  virtual protocol::Self Me(const Config& config) = 0;
  virtual uint64_t Place() = 0;
  // The origins. Advance returns a position in the WAL past its record; WrittenUpTo one past every
  // record written so far; FlushAndConfirm waits until what lies before a position is durable (and,
  // with synchronous standbys, confirmed), holding nothing.
  virtual uint64_t ReadOrigin(Origin origin) = 0;
  virtual uint64_t AdvanceOrigin(Origin origin, uint64_t value, bool backward) = 0;
  virtual uint64_t WrittenUpTo() = 0;
  virtual void FlushAndConfirm(uint64_t position) = 0;
  // The registry of parts (core/identity.hpp): the handle of parts (made when missing, durably,
  // before it is returned; never under the lock), and the parts of a handle (not known for 0).
  virtual uint16_t Register(const identity::Parts& parts) = 0;
  virtual identity::Parts PartsOf(uint16_t handle) = 0;
  // What every database's copy holds, read once, when the server's origins start (outside the lock).
  // (launch_id: the DecimalIds of that launch id only, the ones this server's could repeat; -1: none)
  virtual Rebuilt RebuildFromCopies(int launch_id) = 0;
  // The lock that orders the writes of the shared mark: never held across a flush, a wait or a
  // registration.
  virtual void LockMark(bool exclusive) = 0;
  virtual void UnlockMark() = 0;
  virtual ServerMark ReadMark() = 0;
  virtual void WriteMark(const ServerMark& mark, uint32_t fields) = 0;
  // One DecimalId generator id from the shared mark (its next, then one more).
  virtual uint64_t TakeGeneratorId() = 0;
  // The state words of the kins (bits of 1 << Kin) raised to the first value at or after ms
  // (floor: and the regression counted from there, less self_made_ms, RaiseWords's); Set: set to
  // it, whatever they held (restart_at_clock()).
  virtual void RaiseWords(uint8_t kins, uint64_t ms, uint64_t self_made_ms, bool floor) = 0;
  virtual void SetWords(uint8_t kins, uint64_t ms) = 0;
  // This database's copy: read, and written (every sequence a write names in one record; the tag and
  // the parts as protocol::JoinCopyParts joins them with those the copy holds, under the pages' locks).
  virtual CopyRead ReadCopy() = 0;
  virtual uint64_t WriteCopy(const CopyWrite& write) = 0;
  // What this server remembers of a copy it wrote (protocol::CopyWrite::theirs), in this database:
  // recalled for a copy of the same tag and parts words whose bounds lie at or below those written
  // (a copy raised since by another writer, a restore, is not the one remembered); lost at a restart
  // (the copy is waited for as a whole then).
  virtual void RememberTheirs(const CopyWrite& write) = 0;
  virtual bool RecallTheirs(const CopyRead& read, protocol::Theirs* theirs) = 0;
  virtual int64_t ReadDecimalCopy() = 0;
  virtual uint64_t WriteDecimalCopy(int64_t value) = 0;
  [[noreturn]] virtual void Refuse(const Refusal& refusal) = 0;

 protected:
  ~Effects() = default;
};

// What a session needs on every value without a call: the families whose Prepare passed (a bit
// each, as the caller numbers them), under which generation, and, per group, the instant below
// which every value is covered.
struct Hot {
  uint32_t ready = 0;
  uint64_t generation = 0;
  uint64_t covered_ms[2] = {0, 0};
};

// One session's knowledge of its database's copy and of the leases' parts.
struct Session {
  Hot hot;
  bool placed = false;
  uint64_t place = 0;
  uint64_t generation = 0;  // the shared generation when the copy was read
  CopyState copy;
  // The copy was read in this transaction, and its sequences have not changed since (the caller
  // clears it at the end of each transaction and when a sequence of the copy is invalidated).
  bool fresh = false;
  identity::Identity copy_identity;  // the identity the copy was judged under (DecideCopy's self)
  bool decimal_checked = false;
  // (the launch id it was checked under: a reload within the transaction that changes it checks the
  // copy again, for DecimalIds the copy records under the new one)
  int decimal_checked_launch = -1;
  int64_t decimal_copy = -1;
  int64_t decimal_run = 0;  // this server's DecimalId run (protocol::Self)
  Config config;            // as last read (Cover compares the identity with it)
  // The parts of the leases' handles, as last resolved.
  uint16_t server_handle = 0, identity_handle = 0;
  protocol::LeaseParts parts;
  int retakes = 0;
};

// ---- the calls the glue makes -------------------------------------------------------------------------

// Before taking a value of a family of this kin (or DecimalId, kDecimal; the family's bit in
// Hot::ready): reads the server's mark once after the state was created, this database's copy once
// per transaction, waits for it or refuses, drops an identity lease that counts no more. False where
// marks do not apply (no shared state, or recovery).
inline constexpr int kDecimal = protocol::kKinCount;
bool Prepare(Effects& fx, Session& session, int kin, uint32_t family_bit);
// After taking a value of the kin whose last instant is ms, before returning it: renews the leases
// (durable, then published) and writes the copy where the value reaches them. False: drop the value
// and take another after Prepare (the identity changed, the generation moved, or the lease that won
// does not cover it); past protocol::kMaxRetakes in one call, a refusal.
bool Cover(Effects& fx, Session& session, Kin kin, uint64_t ms);

// idgen.restart_at_clock(): the decision, carried out when it is kMove.
protocol::Restart RestartAtClock(Effects& fx, Session& session, protocol::RestartInput in);
// CREATE EXTENSION: the new copy at the server's leases, under this run and the parts of the server
// lease (nothing on a server that never made a value). created_now: the copy's sequences were made
// in this transaction.
void StartCopy(Effects& fx, Session& session, bool created_now);
// DROP EXTENSION idgen: refuses while the copy holds what the server has not passed; adopts what the
// clock has passed.
void CheckDrop(Effects& fx, Session& session);
// After a COPY brought values of a kin into this database (protocol::DecideMovedValues): the latest's
// instant and their parts join the copy, flushed; every session reads it again before its next value.
void HoldMovedValues(Effects& fx, Session& session, Kin kin, uint64_t ms, const identity::Parts& parts);
void HoldMovedDecimalIds(Effects& fx, Session& session, int launch_id, int64_t generator);
// idgen.adopt_copy(): the server carries on above this database's copy, however far ahead
// (protocol::DecideAdopt); the copy is this run's after it. Returns what it adopted.
protocol::Adopt AdoptCopy(Effects& fx, Session& session, uint64_t accepted_lead_ms);

// DecimalId: a new generator id, durable before it is returned, taken at least a take interval after
// the last one; the database's copy of the last DecimalId; the check of the copy before a session's
// first DecimalId in a transaction.
int64_t TakeGeneratorId(Effects& fx, Session& session);
void CoverDecimalIdSlow(Effects& fx, Session& session, int launch_id, int64_t id);
void CheckDecimalIdCopySlow(Effects& fx, Session& session, int launch_id);
// (on every DecimalId: the common call writes nothing and makes no call)
inline void CoverDecimalId(Effects& fx, Session& session, int launch_id, int64_t id) {
  if (!session.copy.has_copy) return;
  if (__builtin_expect(protocol::DecimalCopyValue(session.decimal_run, launch_id, id) == session.decimal_copy, 1))
    return;
  CoverDecimalIdSlow(fx, session, launch_id, id);
}
inline void CheckDecimalIdCopy(Effects& fx, Session& session, int launch_id) {
  if (__builtin_expect(
          (!session.decimal_checked || session.decimal_checked_launch != launch_id) && session.copy.has_copy, 0))
    CheckDecimalIdCopySlow(fx, session, launch_id);
  session.decimal_checked = true;
  session.decimal_checked_launch = launch_id;
}

}  // namespace idgen::engine
