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

uint64_t Pack(uint64_t lease_ms) { return protocol::Pack(lease_ms, settings::IdentityHash()); }

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

// ---- what the protocol compares (core/protocol.hpp) -----------------------------------------------

// This server as the decisions see it: the run (SharedState::instance, a random number drawn at each
// start of the server, which a pg_basebackup clone does not share), the identity of the
// configuration, the system identifier, the DecimalId run (29 bits of the run, never 0).
// (29 bits of the run, never 0: what a DecimalId copy records; on every DecimalId, so kept cheap)
inline int64_t DecimalRun(const SharedState& state) {
  return static_cast<int64_t>((state.instance >> 35) | (uint64_t{1} << 28));
}

protocol::Self SelfOf(const SharedState& state) {
  protocol::Self self;
  self.run_bits = ((state.instance >> 25) & protocol::kRunMask) | 1;  // (never 0: 0 names no run)
  self.identity = settings::IdentityHash() & kIdentityMask;
  self.system_identifier = static_cast<int64_t>(GetSystemIdentifier());
  self.decimal_run = DecimalRun(state);
  return self;
}

// The server's marks as the sessions share them, read once for a decision.
protocol::ServerMark Snapshot(const SharedState& state) {
  const SharedMark& m = state.mark;
  protocol::ServerMark mark;
  mark.loaded = m.loaded.load(std::memory_order_acquire);
  mark.generation = m.generation.load(std::memory_order_acquire);
  mark.lease_end_ms = m.lease_end_ms.load(std::memory_order_acquire);
  mark.lease_identity = m.lease_identity.load(std::memory_order_acquire);
  mark.identity_lease_end_ms = m.identity_lease_end_ms.load(std::memory_order_acquire);
  mark.identity_lease_hash = m.identity_lease_hash.load(std::memory_order_acquire);
  mark.floor_ms = m.floor_ms.load(std::memory_order_acquire);
  mark.identity_floor_ms = m.identity_floor_ms.load(std::memory_order_acquire);
  mark.decimal_id_next = m.decimal_id_next.load(std::memory_order_acquire);
  mark.decimal_id_floor = m.decimal_id_floor.load(std::memory_order_acquire);
  mark.decimal_timeline = m.decimal_timeline.load(std::memory_order_acquire);
  return mark;
}

// ---- this backend ---------------------------------------------------------------------------

Hot hot;

namespace {

using protocol::Group;
using protocol::kTimeOnly;
using protocol::kWithIdentity;
constexpr Group GroupOf(Family family) { return HasIdentity(family) ? kWithIdentity : kTimeOnly; }
static_assert(kTimeOnly == 0 && kWithIdentity == 1, "Hot::covered_ms is indexed by HasIdentity");

struct Backend {
  const SharedState* state = nullptr;  // the state the rest was checked against
  Oid database = InvalidOid;
  uint64_t generation = 0;  // the state's generation when the copy was read
  // This database's copy, as this backend last read or wrote it, and what it waits for.
  protocol::CopyState copy;
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

// Raises the words of the families of a group to ms, nothing else (no floor: the clock has passed it).
void RaiseGroupWords(SharedState& state, Group group, uint64_t ms) {
  for (int f = 0; f < kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    if (family == kFamilyDecimalId || GroupOf(family) != group) continue;
    const uint64_t word = WordAt(family, ms);
    for (StateWord& w : state.words(family)) RaiseTo(w, word);
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
    uint64_t old = state.mark.identity_lease_end_ms.load(std::memory_order_acquire);
    while (protocol::RenewedIdentityLease(old, identity_lease_ms) != old &&
           !state.mark.identity_lease_end_ms.compare_exchange_weak(
               old, protocol::RenewedIdentityLease(old, identity_lease_ms), std::memory_order_acq_rel)) {
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
  const uint64_t mark_raw = origin::Read(mark);
  const uint64_t identity_raw = origin::Read(identity);
  const protocol::Load load =
      protocol::DecideLoad(mark_raw, identity_raw, origin::Read(decimal), settings::IdentityHash(), promoted,
                           GetWALInsertionTimeLine(), static_cast<uint64_t>(settings::failover_margin_ms));
  RaiseWords(state, kTimeOnly, load.floor_ms, load.self_made_ms);
  RaiseWords(state, kWithIdentity, load.identity_floor_ms, load.self_made_ms);
  protocol::ServerMark loaded = Snapshot(state);
  protocol::ApplyLoad(loaded, load, mark_raw, identity_raw);
  state.mark.decimal_id_next.store(loaded.decimal_id_next, std::memory_order_release);
  state.mark.decimal_id_floor.store(loaded.decimal_id_floor, std::memory_order_release);
  state.mark.decimal_timeline.store(loaded.decimal_timeline, std::memory_order_release);
  state.mark.lease_end_ms.store(loaded.lease_end_ms, std::memory_order_release);
  state.mark.lease_identity.store(loaded.lease_identity, std::memory_order_release);
  state.mark.identity_lease_hash.store(loaded.identity_lease_hash, std::memory_order_release);
  const XLogRecPtr retired = load.retire_identity ? origin::Advance(identity, 0, true) : 0;
  state.mark.identity_lease_end_ms.store(loaded.identity_lease_end_ms, std::memory_order_release);
  state.mark.floor_ms.store(loaded.floor_ms, std::memory_order_release);
  state.mark.identity_floor_ms.store(loaded.identity_floor_ms, std::memory_order_release);
  state.mark.loaded.store(true, std::memory_order_release);
  LWLockRelease(lock);
  if (retired != 0) origin::FlushAndConfirm(retired);
  if (load.renew) {
    const uint64_t generation = state.mark.generation.load(std::memory_order_acquire);
    (void)RenewLeases(state, load.floor_ms, load.renew_identity_ms, generation);
  }
  if (load.write_decimal) {
    // After the leases: until idgen_decimal_id names this timeline, a start finds the failover again.
    LWLockAcquire(lock, LW_EXCLUSIVE);
    protocol::ServerMark m = Snapshot(state);
    protocol::FinishLoad(m, load);
    state.mark.decimal_timeline.store(m.decimal_timeline, std::memory_order_release);
    const XLogRecPtr lsn = origin::Advance(
        decimal, protocol::DecimalOriginValue(m, state.mark.decimal_id_next.load(std::memory_order_acquire)), false);
    LWLockRelease(lock);
    origin::FlushAndConfirm(lsn);
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
  protocol::ServerMark m = Snapshot(state);
  if (!protocol::MustDropIdentityLease(m, settings::IdentityHash())) {
    LWLockRelease(lock);
    return;
  }
  const protocol::DropIdentity drop = protocol::BeginDropIdentityLease(m);
  // (every writer of the generation and of these holds the lock exclusively)
  state.mark.generation.store(m.generation, std::memory_order_release);
  state.mark.identity_lease_end_ms.store(m.identity_lease_end_ms, std::memory_order_release);
  RaiseWords(state, kWithIdentity, drop.raise_identity_words_to_ms, 0);
  state.mark.identity_floor_ms.store(m.identity_floor_ms, std::memory_order_release);
  const XLogRecPtr lsn = drop.retire_on_disk ? origin::Advance(identity, 0, true) : 0;
  LWLockRelease(lock);
  if (lsn != 0) origin::FlushAndConfirm(lsn);
  protocol::FinishDropIdentityLease(m);
  state.mark.identity_lease_end_ms.store(m.identity_lease_end_ms, std::memory_order_release);
}

// ---- the database's copy --------------------------------------------------------------------------

// Once per backend, database and transaction (and again after restart_at_clock(), and while the
// database has no copy): this database's copy of the mark.
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
  protocol::CopyRead read;
  read.has_mark = OidIsValid(me.copies[0]);
  read.has_server = OidIsValid(me.copies[1]);
  read.has_identity = OidIsValid(me.copies[2]);
  if (read.has_mark && read.has_server) {
    read.mark = ReadCopy("mark");
    read.server = ReadCopy("mark_server");
    if (read.has_identity && (static_cast<uint64_t>(read.server) & protocol::kTagged) != 0) {
      read.mark_identity = ReadCopy("mark_identity");
    }
  }
  me.copy = protocol::DecideCopy(Snapshot(ref.state), SelfOf(ref.state), read);
  me.database = MyDatabaseId;
}

// Writes this database's copy as the protocol decides (DecideCopyWrite), flushed.
void WriteDatabaseCopy(SharedState& state) {
  const protocol::CopyWrite write = protocol::DecideCopyWrite(Snapshot(state), SelfOf(state), me.copy, NowMs());
  XLogRecPtr lsn = WriteCopy("mark", write.mark);
  if (write.write_identity) {
    lsn = std::max(lsn, WriteCopy("mark_identity", write.mark_identity, write.identity_exact));
  }
  for (const Group group : {kTimeOnly, kWithIdentity}) {
    if (write.raise_ms[group] != 0) RaiseGroupWords(state, group, write.raise_ms[group]);
  }
  if (write.write_tag) lsn = std::max(lsn, WriteCopy("mark_server", write.tag, true));
  if (lsn != 0) origin::FlushAndConfirm(lsn);
  protocol::AfterCopyWrite(me.copy, write);
}

// Values of a family whose group may repeat what the database's copy records wait for the clock to
// pass it, or are refused when it is further ahead than idgen.max_clock_regression.
void WaitForCopy(SharedState& state, Group group) {
  const protocol::Wait wait =
      protocol::DecideWait(me.copy.wait_ms[group], NowMs(), static_cast<uint64_t>(settings::max_clock_regression_ms));
  if (wait.kind == protocol::Wait::kRefuse) {
    char message[200];
    snprintf(message, sizeof message, "the durable mark of this database lies %s ahead of the system clock",
             FormatDuration(static_cast<int64_t>(wait.gap_ms)).c_str());
    Raise(ErrorKind::kClockRegression, message,
          "This database holds IDs made by another server, or by this one before its marks were lost (a restored "
          "dump, a cluster that pg_upgrade made, a copy of this server): IDs made here before the clock passes them "
          "could repeat them.",
          "Check the system clock. IDs resume by themselves once it passes the mark; idgen.max_clock_regression "
          "is the largest gap that idgen waits out instead of refusing.");
  }
  if (wait.kind == protocol::Wait::kWait) WaitForClock(static_cast<int64_t>(wait.until_ms) * 1000000);
  const uint64_t raise = protocol::RaiseAfterCopyWait(wait, me.copy.wait_ms[group]);
  if (raise != 0) RaiseGroupWords(state, group, raise);
  me.copy.wait_ms[group] = 0;
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
  if (unlikely(protocol::MustReadCopy(me.state == &state && me.database == MyDatabaseId, me.copy.has_copy, me.fresh,
                                      me.generation, state.mark.generation.load(std::memory_order_acquire)))) {
    if (!state.mark.loaded.load(std::memory_order_acquire)) LoadServerMark(state);
    CheckDatabaseCopy(ref);
  }
  // Without the copy (an extension older than 1.2 in this database), the families that are unique
  // by their random bits work on; the others would leave a dump without the copy that keeps a
  // restored database from repeating them.
  if (unlikely(protocol::RefuseWithoutCopy(me.copy.has_copy, family == kFamilyUuidv7))) RaiseMissing("mark");
  if (unlikely(me.copy.wait_ms[GroupOf(family)] != 0) && family != kFamilyDecimalId)
    WaitForCopy(state, GroupOf(family));
  if (HasIdentity(family) && protocol::MustDropIdentityLease(Snapshot(state), settings::IdentityHash())) {
    DropIdentityLease(state);
  }
  // The next calls of this family in this backend skip Prepare (marks::ReadyToTake) while the
  // database has its copy (without it, Prepare looks for the copy again at each call).
  hot.generation = me.generation;
  if (likely(me.copy.has_copy)) hot.ready |= uint32_t{1} << family;
  return true;
}

namespace {

// What the next values may lie below without calling Cover (marks::CoverValue): the server's lease,
// the identity lease for the families with an identity, and this database's copy.
void RefreshCovered(const SharedState& state) {
  const protocol::ServerMark mark = Snapshot(state);
  const uint32_t identity = settings::IdentityHash();
  hot.covered_ms[kTimeOnly] = protocol::CoveredMs(mark, me.copy, kTimeOnly, identity);
  hot.covered_ms[kWithIdentity] = protocol::CoveredMs(mark, me.copy, kWithIdentity, identity);
}

}  // namespace

bool Cover(Family family, const StateRef& ref, uint64_t ms) {
  SharedState& state = ref.state;
  // A lease is written under the identity of the server's configuration, and a value is returned
  // only under the identity of the lease that covers it: a reload read here that changed the
  // identity drops the value, which is taken again under the new one.
  const uint32_t identity_before = settings::IdentityHash();
  settings::CatchUpWithReload();
  const bool identity_changed = settings::IdentityHash() != identity_before;
  // The generation this backend's checks (Prepare) were made under: restart_at_clock() or a dropped
  // identity lease since moved the words, and the value is taken again after Prepare.
  const uint64_t generation = hot.generation;
  const protocol::CoverDecision decision = protocol::DecideCover(
      Snapshot(state), GroupOf(family), generation, identity_changed, settings::IdentityHash(), me.copy, ms, NowMs());
  if (decision.retake) {
    hot = Hot{};
    return false;
  }
  if (decision.beyond_max) {
    Raise(ErrorKind::kPrerequisite, "the durable mark cannot hold a lease past the year 2144",
          "A value of this family lies, or the system clock is, beyond the last lease the mark can write.",
          "Check the system clock.");
  }
  if ((decision.renew_lease_ms != 0 || decision.renew_identity_ms != 0) &&
      !RenewLeases(state, decision.renew_lease_ms, decision.renew_identity_ms, generation)) {
    hot = Hot{};
    return false;
  }
  if (decision.write_copy) WriteDatabaseCopy(state);
  RefreshCovered(state);
  return true;
}

int64_t TakeGeneratorId(const StateRef& ref) {
  SharedState& state = ref.state;
  const compat::OriginId decimal = origin::Id(origin::kDecimalId);  // (a catalog read, before the lock)
  // (shared: the timeline its write carries changes only under the lock held exclusively)
  LWLockAcquire(&state.mark_lock.lock, LW_SHARED);
  const uint64_t taken = state.mark.decimal_id_next.fetch_add(1, std::memory_order_acq_rel);
  const XLogRecPtr lsn =
      taken > static_cast<uint64_t>(decimal_id::kMaxGenerator)
          ? 0
          : origin::Advance(decimal, protocol::DecimalOriginValue(Snapshot(state), taken + 1), false);
  LWLockRelease(&state.mark_lock.lock);
  if (taken > static_cast<uint64_t>(decimal_id::kMaxGenerator)) {
    ereport(ERROR, errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
            errmsg("every DecimalId generator id of this server is used"),
            errdetail("A generator id is taken at each start of the server and whenever a counter runs out; there "
                      "are 100000, and none is ever used twice."),
            errhint("Give this deployment a new idgen.launch_id: its IDs then differ from every earlier one."));
  }
  origin::FlushAndConfirm(lsn);
  return static_cast<int64_t>(taken);
}

void CoverDecimalId(const StateRef& ref, int launch_id, int64_t id) {
  if (!me.copy.has_copy) return;
  static_assert(protocol::kDecimalUnit == decimal_id::kGeneratorUnit);
  const int64 copy = protocol::DecimalCopyValue(DecimalRun(ref.state), launch_id, id);
  if (likely(copy == me.decimal_copy)) return;
  const XLogRecPtr lsn = WriteCopy("decimal_id_generator", copy, true);
  if (lsn != 0) origin::FlushAndConfirm(lsn);
  me.decimal_copy = copy;
}

namespace {

bool DecimalIdCopyCovered(const SharedState& state, int64 copy, int launch_id, int64* generator) {
  return protocol::DecimalIdCopyCovered(Snapshot(state), SelfOf(state).decimal_run, copy, launch_id, generator);
}

}  // namespace

// A copy of DecimalIds that this server could repeat makes this database refuse DecimalIds: it never
// moves the server's generator ids (an owner may set her copy; other databases must not care).
namespace {

// The first DecimalId of a backend in a transaction: out of line, so that the check every later
// DecimalId makes (CheckDecimalIdCopy) saves no registers for it.
[[gnu::noinline]] void CheckDecimalIdCopyOnce(const StateRef& ref, int launch_id) {
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
}

}  // namespace

void CheckDecimalIdCopy(const StateRef& ref, int launch_id) {
  if (unlikely(!me.decimal_checked && me.copy.has_copy)) CheckDecimalIdCopyOnce(ref, launch_id);
  me.decimal_checked = true;
}

void CheckDropKeepsNothing(const StateRef& ref) {
  protocol::DropInput in;
  in.read.has_mark = OidIsValid(SequenceNamed("mark"));
  in.read.has_server = OidIsValid(SequenceNamed("mark_server"));
  in.read.has_identity = OidIsValid(SequenceNamed("mark_identity"));
  if (!in.read.has_mark || !in.read.has_server) return;
  in.read.mark = ReadCopy("mark");
  in.read.server = ReadCopy("mark_server");
  if (in.read.has_identity && (static_cast<uint64_t>(in.read.server) & protocol::kTagged) != 0) {
    in.read.mark_identity = ReadCopy("mark_identity");
  }
  const uint64_t copy_ms = static_cast<uint64_t>(std::max<int64>(in.read.mark, 0));
  in.now_ms = NowMs();
  in.recovery = RecoveryInProgress();
  in.shared = ref.shared;
  if (copy_ms > in.now_ms && !in.recovery) {
    if (ref.shared) {
      if (!ref.state.mark.loaded.load(std::memory_order_acquire)) LoadServerMark(ref.state);
    } else {
      // No shared state (15 and 16 without preload): the server's leases as its origins keep them,
      // which is what a preloaded start will load.
      in.mark_raw = origin::Read(origin::Id(origin::kMark));
      in.identity_raw = origin::Read(origin::Id(origin::kIdentityMark));
    }
  }
  const bool kept =
      protocol::DropKeepsNothing(ref.shared ? Snapshot(ref.state) : protocol::ServerMark{}, SelfOf(ref.state), in);
  if (kept && ref.shared && !in.recovery) {
    // What the copy held that the clock has passed, adopted before the copy goes.
    if (!ref.state.mark.loaded.load(std::memory_order_acquire)) LoadServerMark(ref.state);
    const protocol::ServerMark mark = Snapshot(ref.state);
    const protocol::DropAdopt adopt = protocol::DecideDropAdopt(mark, SelfOf(ref.state), in);
    for (const Group group : {kTimeOnly, kWithIdentity}) {
      if (adopt.raise_ms[group] != 0) RaiseGroupWords(ref.state, group, adopt.raise_ms[group]);
    }
    if (adopt.lease_ms != 0 || adopt.identity_lease_ms != 0) {
      (void)RenewLeases(ref.state, adopt.lease_ms, adopt.identity_lease_ms, mark.generation);
    }
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

// Whether a database or a role sets an identity setting (ALTER DATABASE/ROLE ... SET), and where
// (the first one found, into where). C zone.
bool IdentitySetPerDatabaseOrRole(char* where, size_t size) {
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
  const bool found = SPI_processed > 0;
  if (found) {
    snprintf(where, size, "%s is set for %s, %s", SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1),
             SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2),
             SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3));
  }
  SPI_finish();
  return found;
}

}  // namespace

// idgen.restart_at_clock(): after a clock that jumped ahead and back, once the server has a new
// identity, the families with a node identity carry on from the clock. Their lease (the one write
// of a mark that goes back) and their words move to the clock, and the values that calls took
// before are dropped (the generation). UUIDv7 and ns_id have no identity to change: they carry on,
// above every value they made, and the server's lease stays above them.
IDGEN_FUNCTION(idgen_restart_at_clock) {
  const StateRef ref = GeneratorState();
  protocol::RestartInput in;
  in.superuser = superuser();
  in.shared_primary = ref.shared && !RecoveryInProgress();
  char where[300] = "";
  if (in.superuser && in.shared_primary) {
    // The identity every session generates under is the server's configuration (the settings are
    // PGC_SIGHUP): the one this call checks is the configuration's as it is now.
    settings::CatchUpWithReload();
    in.identity_set_per_database_or_role = IdentitySetPerDatabaseOrRole(where, sizeof where);
    in.node_id_from_citus = settings::node_id_source == settings::kNodeIdFromCitus;
  }
  switch (protocol::RestartPrecondition(in)) {
    case protocol::Restart::kRefusePermission:
      ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to restart idgen at the clock"),
              errdetail("Only a superuser may lower idgen's durable mark."));
      pg_unreachable();
    case protocol::Restart::kRefuseNotPrimary:
      Raise(ErrorKind::kPrerequisite, "idgen.restart_at_clock() needs the shared state of a primary",
            "It moves the state that every session of this server shares, and the durable mark, which a standby "
            "replays from its primary.",
            "Run it on the primary, with idgen preloaded (on PostgreSQL 15 and 16).");
    case protocol::Restart::kRefuseIdentityPerDatabase:
      Raise(ErrorKind::kPrerequisite, where,
            "A node identity set per database or per role (ALTER DATABASE ... SET, ALTER ROLE ... SET) makes the "
            "sessions there generate under it: idgen.restart_at_clock() cannot see whether their identity is new, and "
            "lowered to the clock they could repeat the IDs made while the clock was ahead.",
            "Set the identity in the server's configuration only (ALTER SYSTEM, then SELECT pg_reload_conf()): remove "
            "it with ALTER DATABASE ... RESET or ALTER ROLE ... RESET, then call idgen.restart_at_clock() again.");
    case protocol::Restart::kRefuseCitus:
      // With the node id from Citus, a new identity is a new group id, which only Citus gives and this
      // function cannot see: idgen.node_id would change the hash and nothing else.
      Raise(ErrorKind::kPrerequisite,
            "idgen.restart_at_clock() cannot see a new identity under idgen.node_id_source = 'citus'",
            "Snowflake, Sonyflake, TraceId and JS-safe IDs take this node's Citus group id, which stays the same: "
            "lowered to the clock, they would repeat the IDs made while the clock was ahead.",
            "Wait for the clock to pass the mark, or give this server idgen.node_id_source = 'setting' and an "
            "idgen.node_id that no server has used (above every Citus group id), reload, then call it again.");
    default:
      break;
  }
  SharedState& state = ref.state;
  (void)marks::Prepare(kFamilyUuidv7, ref);
  in.mark_raw = origin::Read(origin::Id(origin::kMark));
  in.identity_raw = origin::Read(origin::Id(origin::kIdentityMark));
  in.identity = settings::IdentityHash();
  in.now_ms = marks::NowMs();
  const uint64_t now_ms = in.now_ms;
  const protocol::Restart restart = protocol::DecideRestart(marks::Snapshot(state), in);
  const uint64_t old_ms = restart.old_ms;
  char text[400];
  switch (restart.kind) {
    case protocol::Restart::kNothingToDo:
      snprintf(text, sizeof text, "the durable mark (%s) is not ahead of the clock: nothing to do",
               FormatUtc(static_cast<int64_t>(old_ms)).c_str());
      return TextDatum(text);
    case protocol::Restart::kRefuseUnknownIdentity: {
      char detail[400];
      snprintf(detail, sizeof detail,
               "The durable mark lies %s ahead of the clock, written by idgen 1.2, which recorded the identity as a "
               "whole: whether each of idgen.node_id, idgen.uid20_server and idgen.instagram_shards is new cannot be "
               "told, and a family whose setting is not new would repeat the IDs made while the clock was ahead.",
               FormatDuration(static_cast<int64_t>(old_ms - now_ms)).c_str());
      Raise(ErrorKind::kPrerequisite, "the identity of this server's last IDs is not known setting by setting", detail,
            "Wait for the clock to pass the mark (the families resume by themselves).");
    }
    case protocol::Restart::kRefuseSameIdentity: {
      char names[200] = "";
      const auto add = [&](uint32_t part, const char* name) {
        if ((restart.same_parts & part) != part) return;
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
            "used, each of the three (ALTER SYSTEM, then SELECT pg_reload_conf()), then call "
            "idgen.restart_at_clock() again.");
    }
    case protocol::Restart::kMove:
      break;
    default:  // (the preconditions passed above)
      elog(ERROR, "idgen.restart_at_clock(): unexpected decision %d", static_cast<int>(restart.kind));
  }
  const compat::OriginId identity = origin::Id(origin::kIdentityMark);
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  protocol::ServerMark m = marks::Snapshot(state);
  protocol::BeginRestart(m, settings::IdentityHash());
  state.mark.generation.store(m.generation, std::memory_order_release);
  state.mark.identity_lease_end_ms.store(m.identity_lease_end_ms, std::memory_order_release);
  for (int f = 0; f < kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    if (!marks::HasIdentity(family)) continue;
    const uint64_t word = marks::WordAt(family, restart.floor_ms);
    for (StateWord& w : state.words(family)) w.value.store(word, std::memory_order_release);
    SetFloor(state.stats[family], 0, 0);
  }
  const XLogRecPtr lsn = origin::Advance(identity, marks::Pack(restart.lease_ms), true);
  state.mark.identity_lease_hash.store(m.identity_lease_hash, std::memory_order_release);
  LWLockRelease(lock);
  origin::FlushAndConfirm(lsn);
  protocol::FinishRestart(m, restart);
  state.mark.identity_lease_end_ms.store(m.identity_lease_end_ms, std::memory_order_release);
  state.mark.identity_floor_ms.store(m.identity_floor_ms, std::memory_order_release);
  snprintf(text, sizeof text,
           "the durable mark of the IDs with a node identity moved back from %s to %s: they carry on from the clock "
           "(UUIDv7 and ns_id carry on above their last IDs)",
           FormatUtc(static_cast<int64_t>(old_ms)).c_str(), FormatUtc(static_cast<int64_t>(now_ms)).c_str());
  return TextDatum(text);
}

}  // namespace idgen::pg
