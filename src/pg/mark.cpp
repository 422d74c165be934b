// Durable marks (mark.hpp): the server's lease in the replication origin idgen_mark, each
// database's copy in idgen.mark and idgen.mark_server (pages written with generic WAL), and the
// DecimalId generator ids in idgen_decimal_id.
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
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idgen::pg::marks {

uint64_t Pack(uint64_t lease_ms) {
  return ((lease_ms + 9) / 10) << kIdentityBits | (settings::IdentityHash() & kIdentityMask);
}

uint64_t NowMs() { return static_cast<uint64_t>(std::max<int64_t>(WallClock().NowNs() / 1000000, 0)); }

namespace {

// ---- this backend ---------------------------------------------------------------------------

}  // namespace

Hot hot;

namespace {

struct Backend {
  const SharedState* state = nullptr;  // the state the rest was checked against
  Oid database = InvalidOid;
  bool has_copy = false;      // this database has idgen.mark (idgen 1.2)
  uint64_t copy_ms = 0;       // this database's copy, as this backend last read or wrote it
  bool copy_is_ours = false;  // idgen.mark_server names this server
  uint64_t generation = 0;    // the state's generation when the copy was read
  bool lower_copy = false;    // the copy lies above the server's lease: restart_at_clock() lowered it
  bool decimal_checked = false;
  int64 decimal_copy = -1;  // the copy of the DecimalId generator, as this backend last wrote it
};
Backend me;

// ---- the database's copy: sequences of the extension, their page 0 read and written directly ---

// The magic number in the special space of a sequence page (SEQ_MAGIC, commands/sequence.c).
constexpr uint32 kSequenceMagic = 0x1717;

Oid SequenceNamed(const char* name) {
  const Oid schema = get_namespace_oid("idgen", true);
  if (!OidIsValid(schema)) return InvalidOid;
  const Oid relation = get_relname_relid(name, schema);
  return OidIsValid(relation) && get_rel_relkind(relation) == RELKIND_SEQUENCE ? relation : InvalidOid;
}

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
        "The extension in this database is older than the library: idgen 1.2 keeps a copy of its durable mark in "
        "each database.",
        "Run ALTER EXTENSION idgen UPDATE in this database.");
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
// to max(value, current), or to value itself when lower is true; returns the end of the record
// (0 when nothing changed). The caller flushes.
XLogRecPtr WriteCopy(const char* name, int64 value, bool lower = false) {
  Relation relation = OpenCopy(name, RowExclusiveLock);
  if (relation == nullptr) RaiseMissing(name);
  const Buffer buffer = ReadBuffer(relation, 0);
  LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
  XLogRecPtr lsn = 0;
  const int64 current = SequenceData(relation, BufferGetPage(buffer))->last_value;
  if (value > current || (lower && value != current)) {
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

int64 OwnServer() { return static_cast<int64>(GetSystemIdentifier()); }

}  // namespace

// ---- raising the state words to a floor -----------------------------------------------------------

namespace {

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

void RaiseWords(SharedState& state, uint64_t floor_ms) {
  for (int f = 0; f < kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    if (family == kFamilyDecimalId) continue;
    const uint64_t word = WordAt(family, floor_ms);
    for (StateWord& w : state.words(family)) RaiseTo(w, word);
  }
}

// ---- the server's mark ----------------------------------------------------------------------------

// Writes a lease ending at lease_ms (never lowering it), flushes and confirms it, then publishes
// it. False when restart_at_clock() moved the words since generation was read.
bool RenewLease(SharedState& state, uint64_t lease_ms, uint64_t generation) {
  const compat::OriginId id = origin::Id(origin::kMark);  // a catalog read: before the lock
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_SHARED);
  if (state.mark.generation.load(std::memory_order_acquire) != generation) {
    LWLockRelease(lock);
    return false;
  }
  const XLogRecPtr lsn = origin::Advance(id, Pack(lease_ms), false);
  LWLockRelease(lock);
  origin::FlushAndConfirm(lsn);
  RaiseAtomic(state.mark.lease_end_ms, lease_ms);
  return true;
}

// Once per server start, by the first backend that generates: the origins' values, raised by the
// failover margin on a promoted server, become the floor of every word.
void LoadServerMark(SharedState& state) {
  // Catalog reads (and, on a new server, the worker that creates the origins) come first, outside
  // the lock.
  const compat::OriginId mark = origin::Id(origin::kMark);
  const compat::OriginId decimal = origin::Id(origin::kDecimalId);
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  if (state.mark.loaded.load(std::memory_order_acquire)) {
    LWLockRelease(lock);
    return;
  }
  const bool promoted = PromoteIsTriggered();
  const uint64_t stored_ms = LeaseMsOf(origin::Read(mark));
  const uint64_t floor_ms =
      stored_ms == 0 ? 0 : stored_ms + (promoted ? static_cast<uint64_t>(settings::failover_margin_ms) : 0);
  RaiseWords(state, floor_ms);
  const uint64_t decimal_next = origin::Read(decimal) + (promoted ? decimal_id::kFailoverSkip : 0);
  state.mark.decimal_id_next.store(decimal_next, std::memory_order_release);
  state.mark.lease_end_ms.store(stored_ms, std::memory_order_release);
  state.mark.loaded.store(true, std::memory_order_release);
  LWLockRelease(lock);
  if (promoted && stored_ms != 0) {
    // Before any value: the floor with its margin is this server's own now, so that a crash before
    // its first lease does not forget the margin.
    const uint64_t generation = state.mark.generation.load(std::memory_order_acquire);
    origin::FlushAndConfirm(origin::Advance(decimal, decimal_next, false));
    (void)RenewLease(state, floor_ms, generation);
  }
}

// DecimalIds of generator ids up to the copy's (launch_id * 100000 + generator) were made elsewhere (a restored copy,
// another server's, under the same launch id or not): this server's next generator id goes beyond it, durably, and a
// generator in use at or below it is retired, so that no DecimalId made from now on by this server can repeat one of
// the copy. (Generator ids are plenty: 100,000 per launch id.)
void MoveDecimalIdBeyond(const StateRef& ref, int64 copy) {
  if (copy <= 0) return;  // no DecimalId was made under the copy
  const int64 copy_generator = copy % decimal_id::kGeneratorUnit;
  SharedState& state = ref.state;
  const uint64_t beyond = static_cast<uint64_t>(copy_generator) + 1;
  uint64_t next = state.mark.decimal_id_next.load(std::memory_order_acquire);
  while (next < beyond) {
    if (state.mark.decimal_id_next.compare_exchange_weak(next, beyond, std::memory_order_acq_rel)) {
      origin::FlushAndConfirm(origin::Advance(origin::Id(origin::kDecimalId), beyond, false));
      break;
    }
  }
  std::atomic<uint64_t>& word = state.decimal_id.value;
  uint64_t in_use = word.load(std::memory_order_acquire);
  while (in_use != 0 && static_cast<int64>(in_use >> 32) - 1 <= copy_generator) {
    if (word.compare_exchange_weak(in_use, 0, std::memory_order_acq_rel)) break;
  }
}

// Once per backend (and again after restart_at_clock()): this database's copy of the mark.
void CheckDatabaseCopy(const StateRef& ref) {
  // Not checked until the end: a refusal below leaves it unchecked, so that the next call in this
  // session refuses too (it used to pass, below the copy).
  me.database = InvalidOid;
  hot = Hot{};  // nothing is ready, nothing covered, until Prepare and Cover say so again
  me.state = &ref.state;
  me.has_copy = OidIsValid(SequenceNamed("mark")) && OidIsValid(SequenceNamed("mark_server"));
  me.copy_ms = 0;
  me.copy_is_ours = false;
  me.lower_copy = false;
  me.decimal_checked = false;
  me.decimal_copy = -1;
  me.generation = ref.state.mark.generation.load(std::memory_order_acquire);
  if (!me.has_copy) {
    me.database = MyDatabaseId;
    return;
  }
  // The DecimalId copy before mark_server: CoverDecimalId writes them in the other order, so a
  // DecimalId copy of this server's is never read as another server's.
  const int64 decimal_copy = ReadCopy("decimal_id_generator");
  const uint64_t copy_ms = static_cast<uint64_t>(std::max<int64>(ReadCopy("mark"), 0));
  me.copy_is_ours = ReadCopy("mark_server") == OwnServer();
  if (me.copy_is_ours) {
    // This server's own copy lies at or below its lease, but when restart_at_clock() lowered the
    // lease: then the next lease this backend covers replaces it.
    me.lower_copy = copy_ms > ref.state.mark.lease_end_ms.load(std::memory_order_acquire);
    me.copy_ms = me.lower_copy ? 0 : copy_ms;
    me.database = MyDatabaseId;
    return;
  }
  // Another server's copy (restored, upgraded, or from idgen 1.1): its DecimalIds were made by
  // generator ids up to the copy's; this server's go beyond them before any ID is made here.
  MoveDecimalIdBeyond(ref, decimal_copy);
  // Every value made here from now on must lie above the copy of the mark. The words never lie behind the clock, so
  // once the clock has passed the copy, they are above it; until then, wait for the clock, or refuse when it is too far
  // behind.
  const uint64_t now_ms = NowMs();
  if (copy_ms > now_ms) {
    const uint64_t gap_ms = copy_ms - now_ms;
    if (gap_ms > static_cast<uint64_t>(settings::max_clock_regression_ms)) {
      char message[200];
      snprintf(message, sizeof message, "the durable mark of this database lies %s ahead of the system clock",
               FormatDuration(static_cast<int64_t>(gap_ms)).c_str());
      Raise(ErrorKind::kClockRegression, message,
            "This database holds IDs made by another server (a restored dump, or a cluster that pg_upgrade made) "
            "whose clock was ahead of this one's: IDs made here before the clock passes them could repeat them.",
            "Check the system clock. IDs resume by themselves once it passes the mark; idgen.max_clock_regression "
            "is the largest gap that idgen waits out instead of refusing.");
    }
    WaitForClock(static_cast<int64_t>(copy_ms) * 1000000);
  }
  // The copy is adopted at the next lease this backend covers.
  me.database = MyDatabaseId;
}

}  // namespace

bool Prepare(Family family, const StateRef& ref) {
  if (!ref.shared || RecoveryInProgress()) return false;
  SharedState& state = ref.state;
  if (unlikely(me.state != &state || me.database != MyDatabaseId ||
               me.generation != state.mark.generation.load(std::memory_order_acquire))) {
    if (!state.mark.loaded.load(std::memory_order_acquire)) LoadServerMark(state);
    CheckDatabaseCopy(ref);
  }
  // Without the copy (an extension older than 1.2 in this database), the families that are unique
  // by their random bits work on; the others would leave a dump without the copy that keeps a
  // restored database from repeating them.
  if (unlikely(!me.has_copy) && family != kFamilyUuidv7) RaiseMissing("mark");
  hot.ready |= uint32_t{1} << family;
  hot.generation = me.generation;
  return true;
}

bool Cover(const StateRef& ref, uint64_t ms) {
  SharedState& state = ref.state;
  const uint64_t generation = hot.generation;
  if (state.mark.generation.load(std::memory_order_acquire) != generation) {
    hot = Hot{};  // restart_at_clock() moved the words: Prepare again, and take another value
    return false;
  }
  if (ms >= state.mark.lease_end_ms.load(std::memory_order_acquire)) {
    if (!RenewLease(state, std::max(ms, NowMs()) + kLeaseMs, generation)) {
      hot = Hot{};
      return false;
    }
  }
  if (me.has_copy && ms >= me.copy_ms) {
    // The copy: the lease end, which lies above every value returned on this server.
    const uint64_t lease_ms = state.mark.lease_end_ms.load(std::memory_order_acquire);
    XLogRecPtr lsn = WriteCopy("mark", static_cast<int64>(lease_ms), me.lower_copy);
    if (!me.copy_is_ours) lsn = std::max(lsn, WriteCopy("mark_server", OwnServer(), true));
    if (lsn != 0) origin::FlushAndConfirm(lsn);
    me.copy_ms = lease_ms;
    me.copy_is_ours = true;
    me.lower_copy = false;
  }
  // What the next values may lie below without coming here (Covered).
  const uint64_t lease_ms = state.mark.lease_end_ms.load(std::memory_order_acquire);
  hot.covered_ms = me.has_copy ? std::min(lease_ms, me.copy_ms) : lease_ms;
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

void CoverDecimalId(const StateRef&, int launch_id, int64_t id) {
  if (!me.has_copy) return;
  const int64 copy = static_cast<int64>(launch_id) * decimal_id::kGeneratorUnit +
                     id / decimal_id::kGeneratorUnit % decimal_id::kGeneratorUnit;
  if (likely(copy == me.decimal_copy)) return;
  // The copy is this server's from now on (CheckDatabaseCopy waited for the clock to pass another
  // server's mark, and moved the DecimalId generator ids beyond its, before this value was made):
  // later sessions must not take this server's own generator for another server's. So mark_server
  // first, then the DecimalId copy (CheckDatabaseCopy reads them in the other order).
  XLogRecPtr lsn = me.copy_is_ours ? InvalidXLogRecPtr : WriteCopy("mark_server", OwnServer(), true);
  lsn = std::max(lsn, WriteCopy("decimal_id_generator", copy));
  if (lsn != 0) origin::FlushAndConfirm(lsn);
  me.copy_is_ours = true;
  me.decimal_copy = copy;
}

// A foreign copy moved this server's generator ids beyond its own (MoveDecimalIdBeyond) before
// any ID was made in this database; what is left to refuse: a copy whose generator ids reached the
// end of the launch id's space.
void CheckDecimalIdCopy(int launch_id) {
  if (me.decimal_checked || !me.has_copy) {
    me.decimal_checked = true;
    return;
  }
  const int64 copy = ReadCopy("decimal_id_generator");
  const int64 copy_generator = copy % decimal_id::kGeneratorUnit;
  if (copy > 0 && copy / decimal_id::kGeneratorUnit == launch_id && copy_generator >= decimal_id::kMaxGenerator) {
    char message[200];
    snprintf(message, sizeof message, "this database holds DecimalIds of every generator id of launch id %d",
             launch_id);
    Raise(ErrorKind::kPrerequisite, message, "DecimalIds made here under the same launch id could repeat them.",
          "Give this server its own idgen.launch_id: the launch id separates deployments, and a restored copy is one.");
  }
  me.decimal_checked = true;
}

}  // namespace idgen::pg::marks

namespace idgen::pg {

// idgen.restart_at_clock(): after a clock that jumped ahead and back, once the server has a new
// identity, every generator carries on from the clock. The lease is lowered (the one write of it
// that goes back), every word is set to the clock, and the values that calls took before are
// dropped (the generation).
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
  // The identity every session will generate under: the server's configuration, not a SET in this
  // session (another session would still make IDs under the old identity, from the clock).
  for (const char* name : {"idgen.node_id", "idgen.node_id_source", "idgen.uid20_server", "idgen.instagram_shards"}) {
    const char* now = GetConfigOption(name, false, false);
    const char* server = GetConfigOptionResetString(name);
    if (now != nullptr && server != nullptr && strcmp(now, server) != 0) {
      char message[200];
      snprintf(message, sizeof message, "%s is set in this session only", name);
      Raise(ErrorKind::kPrerequisite, message,
            "Every session generates under the server's configuration: it is the identity that must be new.",
            "Set it with ALTER SYSTEM and SELECT pg_reload_conf(), then call idgen.restart_at_clock() in a new "
            "session.");
    }
  }
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
  const compat::OriginId id = origin::Id(origin::kMark);
  const uint64_t packed = origin::Read(id);
  const uint64_t old_ms = marks::LeaseMsOf(packed);
  const uint64_t now_ms = marks::NowMs();
  char text[400];
  if (old_ms <= now_ms + marks::kLeaseMs) {
    snprintf(text, sizeof text, "the durable mark (%s) is not ahead of the clock: nothing to do",
             FormatUtc(static_cast<int64_t>(old_ms)).c_str());
    return TextDatum(text);
  }
  if (marks::IdentityOf(packed) == (settings::IdentityHash() & marks::kIdentityMask)) {
    char detail[400];
    snprintf(detail, sizeof detail,
             "The durable mark lies %s ahead of the clock, under the idgen.node_id, idgen.uid20_server and "
             "idgen.instagram_shards this server has now: IDs made from the clock under them could repeat those "
             "made while the clock was ahead.",
             FormatDuration(static_cast<int64_t>(old_ms - now_ms)).c_str());
    Raise(ErrorKind::kPrerequisite, "this server still has the identity under which its last IDs were made", detail,
          "Give this server an idgen.node_id, an idgen.uid20_server and idgen.instagram_shards that no server has "
          "used (ALTER SYSTEM, then SELECT pg_reload_conf()), then call idgen.restart_at_clock() again.");
  }
  const uint64_t lease_ms = now_ms + marks::kLeaseMs;
  LWLock* lock = &state.mark_lock.lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  state.mark.generation.fetch_add(1, std::memory_order_acq_rel);
  state.mark.lease_end_ms.store(0, std::memory_order_release);
  for (int f = 0; f < kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    if (family == kFamilyDecimalId) continue;  // not a time
    const uint64_t word = marks::WordAt(family, now_ms);
    for (StateWord& w : state.words(family)) w.value.store(word, std::memory_order_release);
  }
  const XLogRecPtr lsn = origin::Advance(id, marks::Pack(lease_ms), true);
  LWLockRelease(lock);
  origin::FlushAndConfirm(lsn);
  RaiseAtomic(state.mark.lease_end_ms, lease_ms);
  snprintf(text, sizeof text, "the durable mark moved back from %s to %s; every generator carries on from the clock",
           FormatUtc(static_cast<int64_t>(old_ms)).c_str(), FormatUtc(static_cast<int64_t>(now_ms)).c_str());
  return TextDatum(text);
}

}  // namespace idgen::pg
