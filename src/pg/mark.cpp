// Durable marks (mark.hpp): read and written on page 0 of the family's sequence idgen.<family>_mark.
#include "pg/mark.hpp"

#include <algorithm>
#include <limits>

#include "core/decimal_id.hpp"
#include "core/uid20.hpp"
#include "core/uuidv7.hpp"
#include "pg/guard.hpp"

extern "C" {
#include "access/generic_xlog.h"
#include "access/relation.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/sequence.h"
#include "replication/syncrep.h"
#include "storage/bufmgr.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idgen::pg::marks {

namespace {

// The magic number in the special space of a sequence page (SEQ_MAGIC, commands/sequence.c).
constexpr uint32 kSequenceMagic = 0x1717;

// About a second of the family's ticks: one small WAL flush per second per database, not per ID.
uint64_t LeaseTicks(Family family) {
  switch (family) {
    case kFamilyUuidv7:
      return uint64_t{1000} * uuidv7::kStepsPerMs;
    case kFamilyUid20:
      return 1000;
    case kFamilyUid20Sec:
      return 1;
    case kFamilyNs:
      return 1000000000;
    default:
      return static_cast<uint64_t>(std::max<int64_t>(1, 1000 / kLayouts[family]->unit_ms));
  }
}

// The state word of a durable mark: the mark's tick taken as the last one issued.
uint64_t WordAt(Family family, uint64_t mark) {
  switch (family) {
    case kFamilyUuidv7:
      return mark << uuidv7::kCounterBits;
    case kFamilyUid20:
      return mark << uid20::kMillis.seq_bits;
    case kFamilyUid20Sec:
      return mark << uid20::kSeconds.seq_bits;
    case kFamilyNs:
      return mark;
    default:
      return layout::WordAt(*kLayouts[family], mark);
  }
}

Oid SequenceNamed(const char* name) {
  const Oid schema = get_namespace_oid("idgen", true);
  if (!OidIsValid(schema)) return InvalidOid;
  const Oid relation = get_relname_relid(name, schema);
  return OidIsValid(relation) && get_rel_relkind(relation) == RELKIND_SEQUENCE ? relation : InvalidOid;
}

Oid MarkRelation(Family family) {
  char name[NAMEDATALEN];
  snprintf(name, sizeof name, "%s_mark", kFamilyNames[family]);
  return SequenceNamed(name);
}

[[noreturn]] void RaiseMissing(Family family) {
  char message[128];
  snprintf(message, sizeof message, "the durable mark idgen.%s_mark does not exist in this database",
           kFamilyNames[family]);
  Raise(ErrorKind::kPrerequisite, message,
        "idgen keeps a high-water mark of the IDs it issued in each database, so that a restart never repeats them.",
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

int64 ReadMark(Oid relation_id) {
  Relation relation = relation_open(relation_id, AccessShareLock);
  const Buffer buffer = ReadBuffer(relation, 0);
  LockBuffer(buffer, BUFFER_LOCK_SHARE);
  const int64 value = SequenceData(relation, BufferGetPage(buffer))->last_value;
  UnlockReleaseBuffer(buffer);
  relation_close(relation, AccessShareLock);
  return value;
}

// Writes the mark with generic WAL, flushes it, and waits for synchronous standbys to have it.
void WriteMark(Oid relation_id, int64 value) {
  Relation relation = relation_open(relation_id, RowExclusiveLock);
  const Buffer buffer = ReadBuffer(relation, 0);
  LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
  (void)SequenceData(relation, BufferGetPage(buffer));  // checks the page before logging a change of it
  GenericXLogState* xlog = GenericXLogStart(relation);
  Form_pg_sequence_data data = SequenceData(relation, GenericXLogRegisterBuffer(xlog, buffer, 0));
  data->last_value = value;
  data->log_cnt = 0;
  data->is_called = true;
  const XLogRecPtr lsn = GenericXLogFinish(xlog);
  UnlockReleaseBuffer(buffer);
  relation_close(relation, RowExclusiveLock);
  XLogFlush(lsn);
  SyncRepWaitForLSN(lsn, false);
}

void RaiseWords(Family family, SharedState& state, uint64_t mark) {
  for (StateWord& word : state.words(family)) RaiseTo(word, WordAt(family, mark));
}

}  // namespace

DatabaseLeases* Prepare(Family family, const StateRef& ref) {
  if (!ref.shared || RecoveryInProgress()) return nullptr;
  DatabaseLeases& leases = MyDatabaseLeases(ref.state);
  if (likely(leases.lease_end[family].load(std::memory_order_acquire) != 0)) return &leases;
  LWLock* lock = &ref.state.family_locks[family].lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  if (leases.lease_end[family].load(std::memory_order_acquire) == 0) {
    const Oid relation = MarkRelation(family);
    if (!OidIsValid(relation)) {
      LWLockRelease(lock);
      // UUIDv7 still works without a mark (its random bits keep it unique): only the order across
      // a restart is lost, in a database whose extension predates marks.
      if (family != kFamilyUuidv7) RaiseMissing(family);
      leases.lease_end[family].store(std::numeric_limits<uint64_t>::max(), std::memory_order_release);
      return &leases;
    }
    const int64 mark = std::max<int64>(ReadMark(relation), 0);
    RaiseWords(family, ref.state, static_cast<uint64_t>(mark));
    leases.lease_end[family].store(std::max<uint64_t>(static_cast<uint64_t>(mark), 1), std::memory_order_release);
  }
  LWLockRelease(lock);
  return &leases;
}

void Renew(Family family, const StateRef& ref, DatabaseLeases& leases, uint64_t tick) {
  LWLock* lock = &ref.state.family_locks[family].lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  if (tick >= leases.lease_end[family].load(std::memory_order_acquire)) {
    const Oid relation = MarkRelation(family);
    if (!OidIsValid(relation)) {
      LWLockRelease(lock);
      RaiseMissing(family);
    }
    const uint64_t end = tick + LeaseTicks(family);
    WriteMark(relation, static_cast<int64>(end));
    leases.lease_end[family].store(end, std::memory_order_release);
  }
  LWLockRelease(lock);
}

int64_t TakeGeneratorId(const StateRef& ref) {
  LWLock* lock = &ref.state.family_locks[kFamilyDecimal].lock;
  LWLockAcquire(lock, LW_EXCLUSIVE);
  const Oid relation = SequenceNamed("decimal_generator");
  if (!OidIsValid(relation)) {
    LWLockRelease(lock);
    Raise(ErrorKind::kPrerequisite, "the sequence idgen.decimal_generator does not exist in this database", "",
          "Run ALTER EXTENSION idgen UPDATE in this database.");
  }
  const int64 taken = ReadMark(relation);
  if (taken > decimal_id::kMaxGenerator) {
    LWLockRelease(lock);
    ereport(ERROR, errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
            errmsg("every DecimalId generator id of this database is used"),
            errdetail("A generator id is taken at each start of the server and whenever a counter runs out; there are "
                      "100000, and none is ever used twice."),
            errhint("Give this deployment a new idgen.launch_id: its IDs then differ from every earlier one."));
  }
  WriteMark(relation, taken + 1);
  LWLockRelease(lock);
  return taken;
}

}  // namespace idgen::pg::marks
