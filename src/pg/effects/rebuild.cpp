// The rebuild of the server's leases from every database's copy (engine::LoadServerMark, when the
// origins were never written: a cluster that pg_upgrade made, or a new one). A backend connects to
// one database only, so a background worker per database reads its copy, as the bootstrap
// superuser, from the sequences' pages (nothing of a database's owner runs), into a slot of a
// dynamic shared memory segment; the backend waits for them, a few at a time, and merges.
#include "pg/effects/rebuild.hpp"

#include <cstring>

#include "pg/effects/mark.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_database.h"
#include "catalog/pg_replication_origin.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"

PGDLLEXPORT void idgen_rebuild_worker(Datum slot);
}

namespace idgen::pg::rebuild {

namespace {

struct Slot {
  Oid database;
  bool done;  // the worker read the database (with idgen, or without)
  protocol::Rebuilt one;
};
struct Slots {
  int count;
  int launch_id;
  Slot slot[FLEXIBLE_ARRAY_MEMBER];
};

// Workers at once: a few, so that parallel queries and other extensions keep theirs.
constexpr int kAtOnce = 4;

// The databases of the cluster, but those a DROP DATABASE left invalid (datconnlimit -2, which no
// one can connect to and which hold nothing that will be used again).
List* Databases() {
  List* databases = NIL;
  Relation rel = table_open(DatabaseRelationId, AccessShareLock);
  SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, nullptr, 0, nullptr);
  HeapTuple tuple;
  while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
    const auto* db = reinterpret_cast<Form_pg_database>(GETSTRUCT(tuple));
    if (db->datconnlimit == -2) continue;
    databases = lappend_oid(databases, db->oid);
  }
  systable_endscan(scan);
  table_close(rel, AccessShareLock);
  return databases;
}

BackgroundWorkerHandle* Start(dsm_segment* segment, int index) {
  BackgroundWorker worker;
  memset(&worker, 0, sizeof worker);
  const dsm_handle handle = dsm_segment_handle(segment);
  memcpy(worker.bgw_extra, &handle, sizeof handle);
  strlcpy(worker.bgw_name, "idgen rebuild", sizeof worker.bgw_name);
  strlcpy(worker.bgw_type, "idgen rebuild", sizeof worker.bgw_type);
  worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
  worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
  worker.bgw_restart_time = BGW_NEVER_RESTART;
  strlcpy(worker.bgw_library_name, "idgen", sizeof worker.bgw_library_name);
  strlcpy(worker.bgw_function_name, "idgen_rebuild_worker", sizeof worker.bgw_function_name);
  worker.bgw_notify_pid = MyProcPid;
  worker.bgw_main_arg = Int32GetDatum(index);
  BackgroundWorkerHandle* started = nullptr;
  // (a slot that other workers hold is waited for, up to a second)
  for (int attempt = 0; !RegisterDynamicBackgroundWorker(&worker, &started) && attempt < 100; ++attempt) {
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
    CHECK_FOR_INTERRUPTS();
  }
  if (started == nullptr) {
    ereport(ERROR, errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
            errmsg("could not start the background worker that reads a database's copy of idgen's durable mark"),
            errdetail("This server's marks are new (a cluster that pg_upgrade made, or a new one): before its first "
                      "ID, idgen reads every database's copy, a background worker per database."),
            errhint("Raise max_worker_processes, or retry when a worker slot is free."));
  }
  return started;
}

}  // namespace

protocol::Rebuilt FromEveryDatabase(SharedState& state, int launch_id) {
  // One session rebuilds at a time (many may meet a new server at once): a lock on object 1 of
  // pg_replication_origin, in no database (origin.cpp takes object 0 to create the origins), which
  // a cancel, a timeout and the deadlock detector see. A session that waited finds the marks loaded,
  // and rebuilds nothing.
  LockSharedObject(ReplicationOriginRelationId, InvalidOid, 1, ExclusiveLock);
  if (state.mark.loaded.load(std::memory_order_acquire)) {
    UnlockSharedObject(ReplicationOriginRelationId, InvalidOid, 1, ExclusiveLock);
    return protocol::Rebuilt{};
  }
  List* databases = Databases();
  const int count = list_length(databases);
  dsm_segment* segment = dsm_create(offsetof(Slots, slot) + sizeof(Slot) * static_cast<size_t>(count), 0);
  auto* slots = static_cast<Slots*>(dsm_segment_address(segment));
  slots->count = count;
  slots->launch_id = launch_id;
  for (int i = 0; i < count; ++i) {
    slots->slot[i].database = list_nth_oid(databases, i);
    slots->slot[i].done = false;
    slots->slot[i].one = protocol::Rebuilt{};
    // This database's copy is read here: a worker would wait for the locks this session holds (a
    // DROP EXTENSION whose guard asked for the marks), and this session for the worker.
    if (slots->slot[i].database == MyDatabaseId) {
      slots->slot[i].one = protocol::RebuiltOf(marks::ReadCopyHere(), marks::ReadDecimalCopyHere(), launch_id);
      slots->slot[i].one.source = MyDatabaseId;
      slots->slot[i].done = true;
    }
  }
  for (int first = 0; first < count; first += kAtOnce) {
    BackgroundWorkerHandle* running[kAtOnce] = {};
    const int last = std::min(count, first + kAtOnce);
    for (int i = first; i < last; ++i) {
      if (!slots->slot[i].done) running[i - first] = Start(segment, i);
    }
    for (int i = first; i < last; ++i) {
      if (running[i - first] == nullptr) continue;
      if (WaitForBackgroundWorkerShutdown(running[i - first]) == BGWH_POSTMASTER_DIED) {
        ereport(FATAL, errcode(ERRCODE_ADMIN_SHUTDOWN), errmsg("postmaster exited while idgen read the copies"));
      }
    }
  }
  protocol::Rebuilt merged;
  merged.parts = identity::NoParts();
  for (int i = 0; i < count; ++i) {
    const Slot& slot = slots->slot[i];
    if (!slot.done) {
      char message[200];
      snprintf(message, sizeof message, "could not read the copy of idgen's durable mark in database with OID %u",
               slot.database);
      Raise(ErrorKind::kPrerequisite, message,
            "This server's marks are new (a cluster that pg_upgrade made, or a new one): before its first ID, idgen "
            "reads every database's copy, which may hold IDs this server's new IDs could repeat.",
            "See the server log for why the background worker could not read it (a lock another session held on "
            "its copy, for one), and retry.");
    }
    protocol::Merge(merged, slot.one);
  }
  dsm_detach(segment);
  list_free(databases);
  UnlockSharedObject(ReplicationOriginRelationId, InvalidOid, 1, ExclusiveLock);
  return merged;
}

}  // namespace idgen::pg::rebuild

// The worker: connects to its slot's database (one that does not allow connections too), reads the
// copy where idgen is installed, and marks the slot done.
void idgen_rebuild_worker(Datum slot_index) {
  BackgroundWorkerUnblockSignals();
  dsm_handle handle;
  memcpy(&handle, MyBgworkerEntry->bgw_extra, sizeof handle);
  dsm_segment* segment = dsm_attach(handle);
  if (segment == nullptr) return;  // (the backend is gone)
  auto* slots = static_cast<idgen::pg::rebuild::Slots*>(dsm_segment_address(segment));
  const int index = DatumGetInt32(slot_index);
  if (index < 0 || index >= slots->count) return;
  idgen::pg::rebuild::Slot& slot = slots->slot[index];
  BackgroundWorkerInitializeConnectionByOid(slot.database, InvalidOid, BGWORKER_BYPASS_ALLOWCONN);
  // (a sequence of the copy locked by a session that itself waits for the session that started this
  // worker, on a lock the deadlock detector cannot see through the worker: the worker gives up, and
  // that session refuses, to be retried, rather than both waiting for ever)
  SetConfigOption("lock_timeout", "1000", PGC_SUSET, PGC_S_OVERRIDE);
  StartTransactionCommand();
  PushActiveSnapshot(GetTransactionSnapshot());
  if (OidIsValid(get_extension_oid("idgen", true))) {
    const idgen::protocol::CopyRead read = idgen::pg::marks::ReadCopyHere();
    slot.one = idgen::protocol::RebuiltOf(read, idgen::pg::marks::ReadDecimalCopyHere(), slots->launch_id);
    slot.one.source = slot.database;
  }
  PopActiveSnapshot();
  CommitTransactionCommand();
  slot.done = true;
}
