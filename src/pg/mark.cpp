// Durable marks (mark.hpp): the server's leases in the replication origins idgen_mark and
// idgen_mark_identity, each database's copy in idgen.mark, idgen.mark_server and
// idgen.decimal_id_generator (pages written with generic WAL), and the DecimalId generator ids in
// idgen_decimal_id.
#include "pg/mark.hpp"

#include <algorithm>
#include <limits>

#include "core/decimal_id.hpp"
#include "core/uid20.hpp"
#include "core/uuidv7.hpp"
#include "pg/generator.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/origin.hpp"
#include "pg/settings.hpp"

extern "C" {
#include "utils/guc.h"
#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/extension.h"
#include "commands/sequence.h"
#include "storage/bufmgr.h"
#include "catalog/pg_db_role_setting.h"
#include "executor/spi.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idgen::pg::marks {

uint64_t Pack(uint64_t lease_ms) {
  return kPartsFormat | std::min((lease_ms + 9) / 10, kMaxLeaseMs / 10) << kIdentityBits |
         (settings::IdentityHash() & kIdentityMask);
}

uint64_t NowMs() { return static_cast<uint64_t>(std::max<int64_t>(WallClock().NowNs() / 1000000, 0)); }

// The extension is gone from this database (dropped, perhaps while this call ran), or older than
// 1.2: both are said as they are.
[[noreturn]] void RaiseMissing(const char* what) {
  char message[160];
  if (!OidIsValid(get_extension_oid("idgen", true))) {
    snprintf(message, sizeof message, "extension \"idgen\" does not exist in this database");
    Raise(ErrorKind::kPrerequisite, message,
          "It was dropped while this statement ran, or before: its generators keep a copy of the server's "
          "durable mark in the extension's objects (the server's own mark is kept, and holds the IDs of a "
          "re-created extension above the dropped one's).",
          "Create the extension in this database (CREATE EXTENSION idgen).");
  }
  snprintf(message, sizeof message, "the durable mark idgen.%s does not exist in this database", what);
  Raise(ErrorKind::kPrerequisite, message,
        "The extension in this database is older than the library: from idgen 1.2 on, each database keeps a "
        "copy of the durable mark, which its 64-bit families need (UUIDv7 goes on without it).",
        "Run ALTER EXTENSION idgen UPDATE in this database.");
}

namespace {

// ---- who wrote a copy ---------------------------------------------------------------------------

// idgen.mark_server from 1.3 on: the top bit set (idgen 1.2 wrote the system identifier, whose top
// bit is clear), 39 bits of the writer's run (SharedState::instance: a random number drawn at each
// start of the server, which a pg_basebackup clone does not share) and the 24-bit hash of the node
// identity it wrote under.
constexpr uint64_t kTagged = uint64_t{1} << 63;
constexpr uint64_t kRunMask = (uint64_t{1} << 39) - 1;

uint64_t RunBits(const SharedState& state) { return (state.instance >> 25) & kRunMask; }

int64 OwnTag(const SharedState& state) {
  return static_cast<int64>(kTagged | RunBits(state) << kIdentityBits | (settings::IdentityHash() & kIdentityMask));
}

// idgen.decimal_id_generator from 1.3 on: run * 10^10 + launch id * 10^5 + generator id, where run is
// 29 bits of the writer's run, never 0 (1.2 wrote launch id * 10^5 + generator id).
constexpr int64 kDecimalRunUnit = decimal_id::kGeneratorUnit * decimal_id::kGeneratorUnit;
int64 DecimalRun(const SharedState& state) { return static_cast<int64>((state.instance >> 35) | (uint64_t{1} << 28)); }

// ---- this backend ---------------------------------------------------------------------------

}  // namespace

Hot hot;

namespace {

enum Group { kTimeOnly, kWithIdentity };
constexpr Group GroupOf(Family family) { return HasIdentity(family) ? kWithIdentity : kTimeOnly; }
static_assert(kTimeOnly == 0 && kWithIdentity == 1, "Hot::covered_ms is indexed by HasIdentity");

struct Backend {
  const SharedState* state = nullptr;  // the state the rest was checked against
  Oid database = InvalidOid;
  uint64_t generation = 0;         // the state's generation when the copy was read
  bool has_copy = false;           // this database has idgen.mark (idgen 1.2 and later)
  uint64_t copy_ms = 0;            // this database's copy, as this backend last read or wrote it
  bool has_identity_copy = false;  // this database has idgen.mark_identity (1.3 and later)
  uint64_t copy_identity_ms = 0;   // the copy's bound of the families with a node identity
  bool tag_is_ours = false;        // idgen.mark_server names this run of the server
  uint64_t wait_ms[2] = {};        // per group: the clock must pass this before a value (0: nothing to wait for)
  bool decimal_checked = false;
  int64 decimal_copy = -1;  // the DecimalId copy, as this backend last wrote it
  // The copy was read in this transaction, and its sequences have not changed since (DROP and
  // CREATE EXTENSION, or a restore, in another session or this one).
  bool fresh = false;
  Oid copies[4] = {};  // the sequences read: mark, mark_server, mark_identity, decimal_id_generator
};
Backend me;

// The copy is read again in each transaction: a restore (its setval) sends no invalidation, and a
// session that connected before it must honor it before its next value. The common call in a
// transaction that has read it costs nothing more.
void ForgetCopyAtXactEnd(XactEvent event, void*) {
  if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT || event == XACT_EVENT_PREPARE) {
    me.fresh = false;
    hot.ready = 0;
  }
}

// A sequence of the copy dropped or made again (DROP/CREATE EXTENSION, in this transaction too).
void ForgetCopy(Datum, Oid relid) {
  for (const Oid copy : me.copies) {
    if (relid == InvalidOid || (OidIsValid(copy) && relid == copy)) {
      me.fresh = false;
      hot.ready = 0;
      return;
    }
  }
}

bool copy_callbacks = false;

// ---- the database's copy: sequences of the extension, their page 0 read and written directly ---

// The magic number in the special space of a sequence page (SEQ_MAGIC, commands/sequence.c).
constexpr uint32 kSequenceMagic = 0x1717;

Oid SequenceNamed(const char* name) {
  const Oid schema = get_namespace_oid("idgen", true);
  if (!OidIsValid(schema)) return InvalidOid;
  const Oid relation = get_relname_relid(name, schema);
  return OidIsValid(relation) && get_rel_relkind(relation) == RELKIND_SEQUENCE ? relation : InvalidOid;
}

// The sequence data on a page of a sequence relation.
Form_pg_sequence_data SequenceData(Relation relation, Page page) {
  if (reinterpret_cast<const uint32*>(PageGetSpecialPointer(page))[0] != kSequenceMagic) {
    elog(ERROR, "bad magic number in sequence \"%s\"", RelationGetRelationName(relation));
  }
  const ItemId item = PageGetItemId(page, FirstOffsetNumber);
  if (!ItemIdIsNormal(item)) elog(ERROR, "sequence \"%s\" has no tuple", RelationGetRelationName(relation));
  auto* tuple = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
  return reinterpret_cast<Form_pg_sequence_data>(reinterpret_cast<char*>(tuple) + tuple->t_hoff);
}

// Opens a sequence of the copy (nullptr when it does not exist: the caller says why).
Relation OpenCopy(const char* name, LOCKMODE mode) {
  const Oid relation_id = SequenceNamed(name);
  if (!OidIsValid(relation_id)) return nullptr;
  Relation relation = try_relation_open(relation_id, mode);
  if (relation != nullptr && relation->rd_rel->relkind != RELKIND_SEQUENCE) {  // the OID was reused
    relation_close(relation, mode);
    return nullptr;
  }
  return relation;
}

int64 ReadCopy(const char* name) {
  Relation relation = OpenCopy(name, AccessShareLock);
  if (relation == nullptr) RaiseMissing(name);
  const Buffer buffer = ReadBuffer(relation, 0);
  LockBuffer(buffer, BUFFER_LOCK_SHARE);
  const int64 value = SequenceData(relation, BufferGetPage(buffer))->last_value;
  UnlockReleaseBuffer(buffer);
  relation_close(relation, AccessShareLock);
  return value;
}

// Sets the sequence's value with generic WAL (no transaction ID, works in read-only transactions),
// to max(value, current), or to value itself when exact is true; returns the end of the record
// (0 when nothing changed). The caller flushes.
XLogRecPtr WriteCopy(const char* name, int64 value, bool exact = false) {
  Relation relation = OpenCopy(name, RowExclusiveLock);
  if (relation == nullptr) RaiseMissing(name);
  const Buffer buffer = ReadBuffer(relation, 0);
  LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
  XLogRecPtr lsn = 0;
  const int64 current = SequenceData(relation, BufferGetPage(buffer))->last_value;
  if (value > current || (exact && value != current)) {
    GenericXLogState* xlog = GenericXLogStart(relation);
    Form_pg_sequence_data data = SequenceData(relation, GenericXLogRegisterBuffer(xlog, buffer, 0));
    data->last_value = value;
    data->log_cnt = 0;
    data->is_called = true;
    lsn = GenericXLogFinish(xlog);
  }
  UnlockReleaseBuffer(buffer);
  relation_close(relation, RowExclusiveLock);
  return lsn;
}

// ---- raising the state words to a floor -----------------------------------------------------------

// The first tick of a layout at or after floor_ms: every value before the floor is in an earlier
// tick, so the word raised to (tick << seq_bits) goes on with sequence 1 of that tick.
uint64_t TickAtOrAfter(int64_t epoch_ms, int64_t unit_ms, uint64_t floor_ms) {
  const int64_t since = static_cast<int64_t>(floor_ms) - epoch_ms;
  return since <= 0 ? 0 : static_cast<uint64_t>(since / unit_ms);
}

}  // namespace

uint64_t WordAt(Family family, uint64_t floor_ms) {
  switch (family) {
    case kFamilyUuidv7:
      return (floor_ms << uuidv7::kFractionBits) << uuidv7::kCounterBits;
    case kFamilyUid20:
      return TickAtOrAfter(settings::EpochMs(family), uid20::kMillis.unit_ms, floor_ms) << uid20::kMillis.seq_bits;
    case kFamilyUid20Sec:
      return TickAtOrAfter(settings::EpochMs(family), uid20::kSeconds.unit_ms, floor_ms) << uid20::kSeconds.seq_bits;
    case kFamilyNsId:
      return floor_ms * 1000000;
    case kFamilyDecimalId:
      return 0;  // not a time: its generator ids are the origin's
    default: {
      const Layout& layout = *kLayouts[family];
      return TickAtOrAfter(settings::EpochMs(family), layout.unit_ms, floor_ms) << layout.seq_bits;
    }
  }
}

namespace {

// Raises the words of the families of a group to floor_ms, of which self_made_ms (the lease, the
// failover margin) the server made itself: a gap up to that much is waited out or carried on, not
// refused, and no regression (core/state.hpp, FamilyStats::floor_word).
void RaiseWords(SharedState& state, Group group, uint64_t floor_ms, uint64_t self_made_ms) {
  for (int f = 0; f < kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    if (family == kFamilyDecimalId || GroupOf(family) != group) continue;
    const uint64_t word = WordAt(family, floor_ms);
    for (StateWord& w : state.words(family)) RaiseTo(w, word);
    const uint64_t below = WordAt(family, floor_ms - std::min(floor_ms, self_made_ms));
    SetFloor(state.stats[family], floor_ms == 0 ? 0 : word, word - std::min(word, below));
  }
}

// ---- the server's marks ---------------------------------------------------------------------------

// Writes the leases that are not 0 (never lowering them), flushes and confirms them, then publishes
// them. False when restart_at_clock() moved the words since generation was read.
bool RenewLeases(SharedState& state, uint64_t lease_ms, uint64_t identity_lease_ms, uint64_t generation) {
  // Catalog reads come before the lock.
  const compat::OriginId mark = origin::Id(origin::kMark);
  const compat::OriginId identity = identity_lease_ms != 0 ? origin::Id(origin::kIdentityMark) : mark;
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_SHARED);
  if (state.mark.generation.load(std::memory_order_acquire) != generation) {
    LWLockRelease(lock);
    return false;
  }
  XLogRecPtr lsn = 0;
  if (lease_ms != 0) {
    lsn = origin::Advance(mark, Pack(lease_ms), false);
    state.mark.lease_identity.store(settings::IdentityHash() & kIdentityMask, std::memory_order_release);
  }
  if (identity_lease_ms != 0) lsn = std::max(lsn, origin::Advance(identity, Pack(identity_lease_ms), false));
  LWLockRelease(lock);
  origin::FlushAndConfirm(lsn);
  if (lease_ms != 0) RaiseAtomic(state.mark.lease_end_ms, lease_ms);
  if (identity_lease_ms != 0) {
    // (kNoLease stands for "none": only a lease that exists is renewed, and only restart_at_clock sets one)
    uint64_t old = state.mark.identity_lease_end_ms.load(std::memory_order_acquire);
    while (old != kNoLease && old < identity_lease_ms &&
           !state.mark.identity_lease_end_ms.compare_exchange_weak(old, identity_lease_ms, std::memory_order_acq_rel)) {
    }
  }
  return true;
}

// Once per server start, by the first backend that generates: the origins' values, raised by the
// failover margin on a promoted server, become the floors of the words.
void LoadServerMark(SharedState& state) {
  // Catalog reads (and, on a new server, the worker that creates the origins) come first, outside
  // the lock.
  const compat::OriginId mark = origin::Id(origin::kMark);
  const compat::OriginId decimal = origin::Id(origin::kDecimalId);
  const compat::OriginId identity = origin::Id(origin::kIdentityMark);
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  if (state.mark.loaded.load(std::memory_order_acquire)) {
    LWLockRelease(lock);
    return;
  }
  const bool promoted = PromoteIsTriggered();
  const uint64_t margin_ms = promoted ? static_cast<uint64_t>(settings::failover_margin_ms) : 0;
  const uint64_t mark_raw = origin::Read(mark);
  const uint64_t stored_ms = LeaseMsOf(mark_raw);
  // The identity lease counts while the server has the identity it was written under (another
  // identity since: the families with one lie below the server's lease, as before restart_at_clock).
  const uint64_t identity_raw = origin::Read(identity);
  const bool identity_valid =
      identity_raw != 0 && IdentityOf(identity_raw) == (settings::IdentityHash() & kIdentityMask);
  const uint64_t identity_ms = identity_valid ? std::min(LeaseMsOf(identity_raw), stored_ms) : stored_ms;
  const uint64_t floor_ms = stored_ms == 0 ? 0 : stored_ms + margin_ms;
  const uint64_t identity_floor_ms = identity_ms == 0 ? 0 : identity_ms + margin_ms;
  RaiseWords(state, kTimeOnly, floor_ms, kLeaseMs + margin_ms);
  RaiseWords(state, kWithIdentity, identity_floor_ms, kLeaseMs + margin_ms);
  const uint64_t decimal_next = origin::Read(decimal) + (promoted ? decimal_id::kFailoverSkip : 0);
  state.mark.decimal_id_next.store(decimal_next, std::memory_order_release);
  state.mark.decimal_id_floor.store(decimal_next, std::memory_order_release);
  state.mark.lease_end_ms.store(stored_ms, std::memory_order_release);
  state.mark.lease_identity.store(IdentityOf(mark_raw), std::memory_order_release);
  state.mark.identity_lease_hash.store(IdentityOf(identity_raw), std::memory_order_release);
  // An identity lease of another identity than the server's counts no more: retired on disk before
  // any value, so that nothing (a restart, restart_at_clock) reads it again as the last one.
  const XLogRecPtr retired = identity_raw != 0 && !identity_valid ? origin::Advance(identity, 0, true) : 0;
  state.mark.identity_lease_end_ms.store(identity_valid ? LeaseMsOf(identity_raw) : kNoLease,
                                         std::memory_order_release);
  state.mark.floor_ms.store(floor_ms, std::memory_order_release);
  state.mark.identity_floor_ms.store(identity_floor_ms, std::memory_order_release);
  state.mark.loaded.store(true, std::memory_order_release);
  LWLockRelease(lock);
  if (retired != 0) origin::FlushAndConfirm(retired);
  if (promoted && stored_ms != 0) {
    // Before any value: the floors with their margin are this server's own now, so that a crash
    // before its first lease does not forget the margin.
    const uint64_t generation = state.mark.generation.load(std::memory_order_acquire);
    origin::FlushAndConfirm(origin::Advance(decimal, decimal_next, false));
    (void)RenewLeases(state, floor_ms, identity_valid ? identity_floor_ms : 0, generation);
  }
}

// The identity lease counts while the server has the identity it was written under. Another one
// (an identity put back after restart_at_clock gave the server a new one, or any other change
// without it) makes the families with an identity lie below the server's lease again, which holds
// every value ever made here: their words go up to it, and they wait or refuse until the clock
// passes it (else a node id put back after the recovery would repeat, in another database, the
// IDs made under it while the clock was ahead).
void DropIdentityLease(SharedState& state) {
  const compat::OriginId identity = origin::Id(origin::kIdentityMark);  // (a catalog read, before the lock)
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  if (state.mark.identity_lease_end_ms.load(std::memory_order_acquire) == kNoLease ||
      state.mark.identity_lease_hash.load(std::memory_order_acquire) == (settings::IdentityHash() & kIdentityMask)) {
    LWLockRelease(lock);
    return;
  }
  state.mark.generation.fetch_add(1, std::memory_order_acq_rel);         // (values taken meanwhile are taken again)
  state.mark.identity_lease_end_ms.store(0, std::memory_order_release);  // no value passes until it is retired
  RaiseWords(state, kWithIdentity, state.mark.lease_end_ms.load(std::memory_order_acquire), 0);
  state.mark.identity_floor_ms.store(state.mark.floor_ms.load(std::memory_order_acquire), std::memory_order_release);
  // Retired on disk before anything reads "no lease": a restart must not find the old lease under
  // the identity it names (the server may have that identity again by then), and start its
  // families below what they made meanwhile from the server's lease.
  const XLogRecPtr lsn = origin::Advance(identity, 0, true);
  LWLockRelease(lock);
  origin::FlushAndConfirm(lsn);
  state.mark.identity_lease_end_ms.store(kNoLease, std::memory_order_release);
}

// ---- the database's copy --------------------------------------------------------------------------

// Whether the copy (copy_ms, written by tag) is covered for the families of a group: every value
// they make from now on lies above every value it records. This run wrote it; or it lies at or
// below what this run raised the words to; or (the families with an identity) it was written under
// an identity that differs from this server's in every part (node, UID20 digit, shards), whose IDs
// theirs cannot repeat in any family (a copy of this server's made before restart_at_clock gave it
// a new one, or another server's). A copy of a server that shares one part with this one holds the
// families of that part as any copy does.
bool Covered(const SharedState& state, Group group, uint64_t copy_ms, int64 tag) {
  const auto bits = static_cast<uint64_t>(tag);
  if ((bits & kTagged) != 0 && (bits >> kIdentityBits & kRunMask) == RunBits(state)) return true;
  const uint64_t floor = group == kWithIdentity ? state.mark.identity_floor_ms.load(std::memory_order_acquire)
                                                : state.mark.floor_ms.load(std::memory_order_acquire);
  if (copy_ms <= floor) return true;
  if (group != kWithIdentity) return false;
  if ((bits & kTagged) != 0) {
    return EveryPartDiffers(static_cast<uint32_t>(bits & kIdentityMask), settings::IdentityHash() & kIdentityMask);
  }
  // A copy of idgen 1.2 (the system identifier), from before this server's restart_at_clock: only
  // 1.3 writes the identity lease, so it predates it, and the identity it was written under.
  return tag == static_cast<int64>(GetSystemIdentifier()) &&
         state.mark.identity_lease_end_ms.load(std::memory_order_acquire) != kNoLease;
}

// Once per backend and database (and again after restart_at_clock(), and while the database has no
// copy): this database's copy of the mark.
void CheckDatabaseCopy(const StateRef& ref) {
  if (!copy_callbacks) {
    RegisterXactCallback(ForgetCopyAtXactEnd, nullptr);
    OnRelationChange(ForgetCopy);
    copy_callbacks = true;
  }
  me = Backend{};
  hot = Hot{};  // nothing is ready, nothing covered, until Prepare and Cover say so again
  me.state = &ref.state;
  me.generation = ref.state.mark.generation.load(std::memory_order_acquire);
  // (fresh first: an invalidation that arrives while the copy is read makes it read again)
  me.fresh = true;
  me.copies[0] = SequenceNamed("mark");
  me.copies[1] = SequenceNamed("mark_server");
  me.copies[2] = SequenceNamed("mark_identity");
  me.copies[3] = SequenceNamed("decimal_id_generator");
  me.has_copy = OidIsValid(me.copies[0]) && OidIsValid(me.copies[1]);
  me.has_identity_copy = OidIsValid(me.copies[2]);
  if (me.has_copy) {
    me.copy_ms = static_cast<uint64_t>(std::max<int64>(ReadCopy("mark"), 0));
    const int64 tag = ReadCopy("mark_server");
    // The families with an identity lie below idgen.mark_identity where a writer of 1.3 put it
    // (after restart_at_clock, below the server's lease), below idgen.mark where 1.2 wrote it.
    const bool tagged = (static_cast<uint64_t>(tag) & kTagged) != 0;
    me.copy_identity_ms = tagged && me.has_identity_copy
                              ? static_cast<uint64_t>(std::max<int64>(ReadCopy("mark_identity"), 0))
                              : me.copy_ms;
    me.tag_is_ours = tag == OwnTag(ref.state);
    // (a copy the clock has passed needs no wait: every value from now on lies above it)
    const uint64_t now_ms = NowMs();
    me.wait_ms[kTimeOnly] = Covered(ref.state, kTimeOnly, me.copy_ms, tag) || me.copy_ms <= now_ms ? 0 : me.copy_ms;
    me.wait_ms[kWithIdentity] =
        Covered(ref.state, kWithIdentity, me.copy_identity_ms, tag) || me.copy_identity_ms <= now_ms
            ? 0
            : me.copy_identity_ms;
  }
  me.database = MyDatabaseId;
}

// Writes this database's copy: the server's lease, which lies above every value returned on this
// server, and the lease of the families with an identity (set exactly: it drops only what older
// identities made, which no server makes again), under this run's tag.
void WriteDatabaseCopy(SharedState& state) {
  const uint64_t lease_ms = state.mark.lease_end_ms.load(std::memory_order_acquire);
  // (0 while restart_at_clock() moves the identity lease: the server's lease bounds them then)
  const uint64_t identity_lease = state.mark.identity_lease_end_ms.load(std::memory_order_acquire);
  const uint64_t identity_ms = identity_lease == 0 ? lease_ms : std::min(lease_ms, identity_lease);
  // The copy becomes this run's (which covers both groups) only once neither group has a wait left
  // for the copy another writer left: until then it is only raised, and keeps its writer, so that
  // the group that has not waited yet still honors it.
  const uint64_t now_ms = NowMs();
  const bool settled = me.tag_is_ours || (me.wait_ms[kTimeOnly] <= now_ms && me.wait_ms[kWithIdentity] <= now_ms);
  XLogRecPtr lsn = WriteCopy("mark", static_cast<int64>(lease_ms));
  if (me.has_identity_copy) {
    lsn = std::max(lsn, WriteCopy("mark_identity", static_cast<int64>(identity_ms), settled));
  }
  if (!me.tag_is_ours && settled) lsn = std::max(lsn, WriteCopy("mark_server", OwnTag(state), true));
  if (lsn != 0) origin::FlushAndConfirm(lsn);
  me.copy_ms = std::max(me.copy_ms, lease_ms);
  me.copy_identity_ms =
      me.has_identity_copy ? (settled ? identity_ms : std::max(me.copy_identity_ms, identity_ms)) : me.copy_ms;
  me.tag_is_ours = settled;
}

// Values of a family whose group may repeat what the database's copy records wait for the clock to
// pass it, or are refused when it is further ahead than idgen.max_clock_regression.
void WaitForCopy(Group group) {
  const uint64_t copy_ms = me.wait_ms[group];
  const uint64_t now_ms = NowMs();
  if (copy_ms > now_ms) {
    const uint64_t gap_ms = copy_ms - now_ms;
    if (gap_ms > static_cast<uint64_t>(settings::max_clock_regression_ms)) {
      char message[200];
      snprintf(message, sizeof message, "the durable mark of this database lies %s ahead of the system clock",
               FormatDuration(static_cast<int64_t>(gap_ms)).c_str());
      Raise(ErrorKind::kClockRegression, message,
            "This database holds IDs made by another server, or by this one before its marks were lost (a restored "
            "dump, a cluster that pg_upgrade made, a copy of this server): IDs made here before the clock passes them "
            "could repeat them.",
            "Check the system clock. IDs resume by themselves once it passes the mark; idgen.max_clock_regression "
            "is the largest gap that idgen waits out instead of refusing.");
    }
    WaitForClock(static_cast<int64_t>(copy_ms) * 1000000);
  }
  me.wait_ms[group] = 0;
}

}  // namespace

bool Prepare(Family family, const StateRef& ref) {
  // The server's configuration as it is now (a reload in flight is read), before anything is
  // decided under it.
  settings::CatchUpWithReload();
  settings::CheckConfigured(settings::Of(family));
  if (!ref.shared || RecoveryInProgress()) return false;
  SharedState& state = ref.state;
  // (A database without the copy is checked again at each call: the copy comes with
  // ALTER EXTENSION idgen UPDATE, perhaps in another session, and this session must see it.)
  if (unlikely(me.state != &state || me.database != MyDatabaseId || !me.has_copy || !me.fresh ||
               me.generation != state.mark.generation.load(std::memory_order_acquire))) {
    if (!state.mark.loaded.load(std::memory_order_acquire)) LoadServerMark(state);
    CheckDatabaseCopy(ref);
  }
  // Without the copy (an extension older than 1.2 in this database), the families that are unique
  // by their random bits work on; the others would leave a dump without the copy that keeps a
  // restored database from repeating them.
  if (unlikely(!me.has_copy) && family != kFamilyUuidv7) RaiseMissing("mark");
  if (unlikely(me.wait_ms[GroupOf(family)] != 0) && family != kFamilyDecimalId) WaitForCopy(GroupOf(family));
  if (HasIdentity(family) && unlikely(state.mark.identity_lease_end_ms.load(std::memory_order_acquire) != kNoLease) &&
      state.mark.identity_lease_hash.load(std::memory_order_acquire) != (settings::IdentityHash() & kIdentityMask)) {
    DropIdentityLease(state);
  }
  // The next calls of this family in this backend skip Prepare (marks::ReadyToTake) while the
  // database has its copy (without it, Prepare looks for the copy again at each call).
  hot.generation = me.generation;
  if (likely(me.has_copy)) hot.ready |= uint32_t{1} << family;
  return true;
}

namespace {

// What the next values may lie below without calling Cover (marks::CoverValue): the server's lease,
// the identity lease for the families with an identity, and this database's copy.
void RefreshCovered(const SharedState& state) {
  const uint64_t lease = state.mark.lease_end_ms.load(std::memory_order_acquire);
  const uint64_t with_identity = std::min(lease, state.mark.identity_lease_end_ms.load(std::memory_order_acquire));
  hot.covered_ms[kTimeOnly] = me.has_copy ? std::min(lease, me.copy_ms) : lease;
  hot.covered_ms[kWithIdentity] = me.has_copy ? std::min(with_identity, me.copy_identity_ms) : with_identity;
}

}  // namespace

bool Cover(Family family, const StateRef& ref, uint64_t ms) {
  SharedState& state = ref.state;
  // A lease is written under the identity of the server's configuration, and a value is returned
  // only under the identity of the lease that covers it: a reload read here that changed the
  // identity drops the value, which is taken again under the new one.
  const uint32_t identity_before = settings::IdentityHash();
  settings::CatchUpWithReload();
  if (settings::IdentityHash() != identity_before) {
    hot = Hot{};
    return false;
  }
  // The generation this backend's checks (Prepare) were made under: restart_at_clock() or a dropped
  // identity lease since moved the words, and the value is taken again after Prepare.
  const uint64_t generation = hot.generation;
  if (state.mark.generation.load(std::memory_order_acquire) != generation) {
    hot = Hot{};
    return false;
  }
  const bool identity = HasIdentity(family);
  const uint64_t lease = state.mark.lease_end_ms.load(std::memory_order_acquire);
  const uint64_t identity_lease =
      identity ? state.mark.identity_lease_end_ms.load(std::memory_order_acquire) : kNoLease;
  const uint64_t copy_ms = identity ? me.copy_identity_ms : me.copy_ms;
  // A value of a family with an identity is returned only under the identity the server's lease
  // was written under: a new identity writes it again first (restart_at_clock compares it).
  const bool new_identity = identity && state.mark.lease_identity.load(std::memory_order_acquire) !=
                                            (settings::IdentityHash() & kIdentityMask);
  if (ms >= lease || ms >= identity_lease || new_identity) {
    // (a new identity alone moves the lease one unit, 10 ms, beyond itself: enough to write it under
    // the new identity, not a second more per change)
    const uint64_t next = std::max(std::max(ms, NowMs()) + kLeaseMs, new_identity ? lease + 10 : 0);
    if (next > kMaxLeaseMs) {
      Raise(ErrorKind::kPrerequisite, "the durable mark cannot hold a lease past the year 2144",
            "A value of this family lies, or the system clock is, beyond the last lease the mark can write.",
            "Check the system clock.");
    }
    if (!RenewLeases(state, ms >= lease || new_identity ? next : 0, ms >= identity_lease ? next : 0, generation)) {
      hot = Hot{};
      return false;
    }
  }
  if (me.has_copy && ms >= copy_ms) WriteDatabaseCopy(state);
  RefreshCovered(state);
  return true;
}

int64_t TakeGeneratorId(const StateRef& ref) {
  SharedState& state = ref.state;
  const uint64_t taken = state.mark.decimal_id_next.fetch_add(1, std::memory_order_acq_rel);
  if (taken > static_cast<uint64_t>(decimal_id::kMaxGenerator)) {
    ereport(ERROR, errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
            errmsg("every DecimalId generator id of this server is used"),
            errdetail("A generator id is taken at each start of the server and whenever a counter runs out; there "
                      "are 100000, and none is ever used twice."),
            errhint("Give this deployment a new idgen.launch_id: its IDs then differ from every earlier one."));
  }
  origin::FlushAndConfirm(origin::Advance(origin::Id(origin::kDecimalId), taken + 1, false));
  return static_cast<int64_t>(taken);
}

void CoverDecimalId(const StateRef& ref, int launch_id, int64_t id) {
  if (!me.has_copy) return;
  const int64 copy = DecimalRun(ref.state) * kDecimalRunUnit +
                     static_cast<int64>(launch_id) * decimal_id::kGeneratorUnit +
                     id / decimal_id::kGeneratorUnit % decimal_id::kGeneratorUnit;
  if (likely(copy == me.decimal_copy)) return;
  const XLogRecPtr lsn = WriteCopy("decimal_id_generator", copy, true);
  if (lsn != 0) origin::FlushAndConfirm(lsn);
  me.decimal_copy = copy;
}

namespace {

// Whether this database's DecimalIds (its copy: the last one's generator id, launch id and writer)
// can be repeated by this server's from now on: not when this run wrote it, nor under another
// launch id, nor when the server's next generator ids lie beyond its (they never go back).
bool DecimalIdCopyCovered(const SharedState& state, int64 copy, int launch_id, int64* generator) {
  const int64 run = copy / kDecimalRunUnit;
  const int64 low = copy % kDecimalRunUnit;
  *generator = low % decimal_id::kGeneratorUnit;
  if (copy <= 0 || run == DecimalRun(state)) return true;
  if (low / decimal_id::kGeneratorUnit != launch_id) return true;
  return static_cast<uint64_t>(*generator) < state.mark.decimal_id_floor.load(std::memory_order_acquire);
}

}  // namespace

// A copy of DecimalIds that this server could repeat makes this database refuse DecimalIds: it never
// moves the server's generator ids (an owner may set her copy; other databases must not care).
void CheckDecimalIdCopy(const StateRef& ref, int launch_id) {
  if (me.decimal_checked || !me.has_copy) {
    me.decimal_checked = true;
    return;
  }
  const int64 copy = ReadCopy("decimal_id_generator");
  int64 generator = 0;
  if (!DecimalIdCopyCovered(ref.state, copy, launch_id, &generator)) {
    char message[200], detail[400];
    snprintf(message, sizeof message, "this database holds DecimalIds of launch id %d that this server could repeat",
             launch_id);
    snprintf(detail, sizeof detail,
             "They were made by another server (a restored dump, a copy of this server) or set by hand, with generator "
             "ids up to %lld, which this server has not passed: its own DecimalIds here could repeat them.",
             static_cast<long long>(generator));
    Raise(ErrorKind::kPrerequisite, message, detail,
          "Give this server its own idgen.launch_id (the launch id separates deployments, and a restored copy is "
          "one), and reload.");
  }
  me.decimal_checked = true;
}

void CheckDropKeepsNothing(const StateRef& ref) {
  if (!OidIsValid(SequenceNamed("mark")) || !OidIsValid(SequenceNamed("mark_server"))) return;
  const uint64_t copy_ms = static_cast<uint64_t>(std::max<int64>(ReadCopy("mark"), 0));
  const int64 tag = ReadCopy("mark_server");
  const uint64_t identity_ms = (static_cast<uint64_t>(tag) & kTagged) != 0 && OidIsValid(SequenceNamed("mark_identity"))
                                   ? static_cast<uint64_t>(std::max<int64>(ReadCopy("mark_identity"), 0))
                                   : copy_ms;
  const uint64_t now_ms = NowMs();
  bool kept = copy_ms <= now_ms;
  if (!kept && ref.shared && !RecoveryInProgress()) {
    if (!ref.state.mark.loaded.load(std::memory_order_acquire)) LoadServerMark(ref.state);
    kept = Covered(ref.state, kTimeOnly, copy_ms, tag) && Covered(ref.state, kWithIdentity, identity_ms, tag);
  } else if (!kept && !RecoveryInProgress()) {
    // No shared state (15 and 16 without preload): the server's leases as its origins keep them,
    // which is what a preloaded start will load.
    const uint64_t stored_ms = LeaseMsOf(origin::Read(origin::Id(origin::kMark)));
    const uint64_t identity_raw = origin::Read(origin::Id(origin::kIdentityMark));
    const bool same_identity = IdentityOf(identity_raw) == (settings::IdentityHash() & kIdentityMask);
    const uint64_t identity_lease_ms =
        identity_raw != 0 && same_identity ? std::min(LeaseMsOf(identity_raw), stored_ms) : stored_ms;
    const bool other_identity = (static_cast<uint64_t>(tag) & kTagged) != 0 &&
                                EveryPartDiffers(static_cast<uint32_t>(static_cast<uint64_t>(tag) & kIdentityMask),
                                                 settings::IdentityHash() & kIdentityMask);
    kept = copy_ms <= stored_ms && (identity_ms <= identity_lease_ms || other_identity);
  }
  char detail[400];
  if (!kept) {
    snprintf(detail, sizeof detail,
             "This database holds IDs made up to %s by another server, or by this one before its marks were lost (a "
             "restored dump, a copy of this server), ahead of this server's clock: the copy of the mark that keeps "
             "its new IDs above them goes with the extension.",
             FormatUtc(static_cast<int64_t>(copy_ms)).c_str());
    Raise(ErrorKind::kPrerequisite,
          "extension \"idgen\" cannot be dropped while it holds IDs this server has not passed", detail,
          "Drop it once the system clock has passed that time (nothing else is needed).");
  }
  if (SequenceNamed("decimal_id_generator") != InvalidOid && ref.shared && settings::launch_id >= 0) {
    if (!ref.state.mark.loaded.load(std::memory_order_acquire)) LoadServerMark(ref.state);
    int64 generator = 0;
    if (!DecimalIdCopyCovered(ref.state, ReadCopy("decimal_id_generator"), settings::launch_id, &generator)) {
      snprintf(detail, sizeof detail,
               "This database holds DecimalIds of launch id %d with generator ids up to %lld, which this server has "
               "not passed: the copy that keeps it from repeating them goes with the extension.",
               settings::launch_id, static_cast<long long>(generator));
      Raise(ErrorKind::kPrerequisite,
            "extension \"idgen\" cannot be dropped while it holds DecimalIds this server "
            "could repeat",
            detail, "Give this server its own idgen.launch_id, reload, then drop it.");
    }
  }
}

}  // namespace idgen::pg::marks

namespace idgen::pg {

namespace {

// Refuses when a database or a role sets an identity setting (ALTER DATABASE/ROLE ... SET): the
// sessions there would generate under another identity than the one this call checks, and repeat
// their IDs once the mark is lowered. C zone.
void CheckIdentityIsTheServers() {
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  const int rc = SPI_execute(
      "SELECT pg_catalog.split_part(c, '=', 1), coalesce(d.datname, 'every database'), "
      "coalesce(r.rolname, 'every role') FROM pg_catalog.pg_db_role_setting s "
      "CROSS JOIN LATERAL pg_catalog.unnest(s.setconfig) c "
      "LEFT JOIN pg_catalog.pg_database d ON d.oid OPERATOR(pg_catalog.=) s.setdatabase "
      "LEFT JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) s.setrole "
      "WHERE pg_catalog.split_part(c, '=', 1) OPERATOR(pg_catalog.=) ANY "
      "('{idgen.node_id,idgen.node_id_source,idgen.uid20_server,idgen.instagram_shards}'::pg_catalog.text[]) "
      "LIMIT 1",
      true, 1);
  if (rc != SPI_OK_SELECT) elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(rc));
  if (SPI_processed > 0) {
    char message[300];
    snprintf(message, sizeof message, "%s is set for %s, %s",
             SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1),
             SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2),
             SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3));
    SPI_finish();
    Raise(
        ErrorKind::kPrerequisite, message,
        "A node identity set per database or per role (ALTER DATABASE ... SET, ALTER ROLE ... SET) makes the sessions "
        "there generate under it: idgen.restart_at_clock() cannot see whether their identity is new, and lowered to "
        "the clock they could repeat the IDs made while the clock was ahead.",
        "Set the identity in the server's configuration only (ALTER SYSTEM, then SELECT pg_reload_conf()): remove "
        "it with ALTER DATABASE ... RESET or ALTER ROLE ... RESET, then call idgen.restart_at_clock() again.");
  }
  SPI_finish();
}

}  // namespace

// idgen.restart_at_clock(): after a clock that jumped ahead and back, once the server has a new
// identity, the families with a node identity carry on from the clock. Their lease (the one write
// of a mark that goes back) and their words move to the clock, and the values that calls took
// before are dropped (the generation). UUIDv7 and ns_id have no identity to change: they carry on,
// above every value they made, and the server's lease stays above them.
IDGEN_FUNCTION(idgen_restart_at_clock) {
  if (!superuser()) {
    ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to restart idgen at the clock"),
            errdetail("Only a superuser may lower idgen's durable mark."));
  }
  const StateRef ref = GeneratorState();
  if (!ref.shared || RecoveryInProgress()) {
    Raise(ErrorKind::kPrerequisite, "idgen.restart_at_clock() needs the shared state of a primary",
          "It moves the state that every session of this server shares, and the durable mark, which a standby "
          "replays from its primary.",
          "Run it on the primary, with idgen preloaded (on PostgreSQL 15 and 16).");
  }
  // The identity every session generates under is the server's configuration (the settings are
  // PGC_SIGHUP): the one this call checks is the configuration's as it is now.
  settings::CatchUpWithReload();
  CheckIdentityIsTheServers();
  // With the node id from Citus, a new identity is a new group id, which only Citus gives and this
  // function cannot see: idgen.node_id would change the hash and nothing else.
  if (settings::node_id_source == settings::kNodeIdFromCitus) {
    Raise(ErrorKind::kPrerequisite,
          "idgen.restart_at_clock() cannot see a new identity under idgen.node_id_source = 'citus'",
          "Snowflake, Sonyflake, TraceId and JS-safe IDs take this node's Citus group id, which stays the same: "
          "lowered to the clock, they would repeat the IDs made while the clock was ahead.",
          "Wait for the clock to pass the mark, or give this server idgen.node_id_source = 'setting' and an "
          "idgen.node_id that no server has used (above every Citus group id), reload, then call it again.");
  }
  SharedState& state = ref.state;
  (void)marks::Prepare(kFamilyUuidv7, ref);
  const compat::OriginId mark = origin::Id(origin::kMark);
  const compat::OriginId identity = origin::Id(origin::kIdentityMark);
  const uint64_t identity_raw = origin::Read(identity);
  const uint64_t mark_raw = origin::Read(mark);
  // The lease that the families with an identity lie below, and the identity of their last values.
  const uint64_t active = state.mark.identity_lease_end_ms.load(std::memory_order_acquire);
  const uint64_t old_ms = active != marks::kNoLease ? active : marks::LeaseMsOf(mark_raw);
  // (the identity lease in force, or else the server's lease: what the last values were made under)
  const uint32_t last_identity =
      marks::IdentityOf(active != marks::kNoLease && identity_raw != 0 ? identity_raw : mark_raw);
  const uint64_t now_ms = marks::NowMs();
  char text[400];
  if (old_ms <= now_ms + marks::kLeaseMs) {
    snprintf(text, sizeof text, "the durable mark (%s) is not ahead of the clock: nothing to do",
             FormatUtc(static_cast<int64_t>(old_ms)).c_str());
    return TextDatum(text);
  }
  const uint32_t current = settings::IdentityHash() & marks::kIdentityMask;
  if (last_identity == marks::kUnknownIdentity) {
    char detail[400];
    snprintf(detail, sizeof detail,
             "The durable mark lies %s ahead of the clock, written by idgen 1.2, which recorded the identity as a "
             "whole: whether each of idgen.node_id, idgen.uid20_server and idgen.instagram_shards is new cannot be "
             "told, and a family whose setting is not new would repeat the IDs made while the clock was ahead.",
             FormatDuration(static_cast<int64_t>(old_ms - now_ms)).c_str());
    Raise(ErrorKind::kPrerequisite, "the identity of this server's last IDs is not known setting by setting", detail,
          "Wait for the clock to pass the mark (the families resume by themselves).");
  }
  if (!marks::EveryPartDiffers(last_identity, current)) {
    const uint32_t same = ~(last_identity ^ current);
    char names[200] = "";
    const auto add = [&](uint32_t part, const char* name) {
      if ((same & part) != part) return;
      if (names[0] != '\0') strlcat(names, ", ", sizeof names);
      strlcat(names, name, sizeof names);
    };
    add(settings::kNodePart, "idgen.node_id");
    add(settings::kUid20Part, "idgen.uid20_server");
    add(settings::kShardsPart, "idgen.instagram_shards");
    char message[300], detail[400];
    snprintf(message, sizeof message, "this server still has the %s under which its last IDs were made", names);
    snprintf(detail, sizeof detail,
             "The durable mark lies %s ahead of the clock: IDs made from the clock under a setting that is not new "
             "could repeat those made while the clock was ahead, in the families that carry it.",
             FormatDuration(static_cast<int64_t>(old_ms - now_ms)).c_str());
    Raise(ErrorKind::kPrerequisite, message, detail,
          "Give this server an idgen.node_id, an idgen.uid20_server and idgen.instagram_shards that no server has "
          "used, each of the three (ALTER SYSTEM, then SELECT pg_reload_conf()), then call idgen.restart_at_clock() "
          "again.");
  }
  const uint64_t lease_ms = now_ms + marks::kLeaseMs;
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  state.mark.generation.fetch_add(1, std::memory_order_acq_rel);
  state.mark.identity_lease_end_ms.store(0, std::memory_order_release);  // no value passes until it is written
  for (int f = 0; f < kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    if (!marks::HasIdentity(family)) continue;
    const uint64_t word = marks::WordAt(family, now_ms);
    for (StateWord& w : state.words(family)) w.value.store(word, std::memory_order_release);
    SetFloor(state.stats[family], 0, 0);
  }
  const XLogRecPtr lsn = origin::Advance(identity, marks::Pack(lease_ms), true);
  state.mark.identity_lease_hash.store(settings::IdentityHash() & marks::kIdentityMask, std::memory_order_release);
  LWLockRelease(lock);
  origin::FlushAndConfirm(lsn);
  state.mark.identity_lease_end_ms.store(lease_ms, std::memory_order_release);
  state.mark.identity_floor_ms.store(now_ms, std::memory_order_release);
  snprintf(text, sizeof text,
           "the durable mark of the IDs with a node identity moved back from %s to %s: they carry on from the clock "
           "(UUIDv7 and ns_id carry on above their last IDs)",
           FormatUtc(static_cast<int64_t>(old_ms)).c_str(), FormatUtc(static_cast<int64_t>(now_ms)).c_str());
  return TextDatum(text);
}

}  // namespace idgen::pg
