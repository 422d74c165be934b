// The replication origins that hold the server's durable state (origin.hpp), the background
// worker that creates them, and the flush (and synchronous standby confirmation) of what was
// written.
#include "pg/effects/origin.hpp"

#include "pg/compat.hpp"

extern "C" {
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_replication_origin_d.h"
#include "postmaster/bgworker.h"
#include "replication/origin.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lwlock.h"
#include "utils/inval.h"

PGDLLEXPORT void idgen_origin_worker(Datum);
}

namespace idgen::pg::origin {

namespace {

// The lock under which one backend at a time starts the worker and waits for it: a heavyweight
// lock on object 0 of pg_replication_origin (no origin has id 0, InvalidRepOriginId; PostgreSQL
// locks an origin by its own id when it drops it), in no database, so that every session of the
// server meets the same lock. A lock wait answers cancel, terminate, statement_timeout and
// lock_timeout, and the deadlock detector sees it; taking it accepts the invalidations that the
// worker's commit sent, so that a session that waited finds the origins in the catalog.
void LockOriginCreation() { LockSharedObject(ReplicationOriginRelationId, InvalidOid, 0, ExclusiveLock); }
void UnlockOriginCreation() { UnlockSharedObject(ReplicationOriginRelationId, InvalidOid, 0, ExclusiveLock); }

// Starts the worker that creates the missing origins, and waits for it (a cancel interrupts the
// wait; the worker finishes on its own). A worker slot that other workers hold (parallel queries)
// is waited for up to a second, on the latch.
void CreateOrigins(const char* named = nullptr) {
  BackgroundWorker worker;
  memset(&worker, 0, sizeof worker);
  // (bgw_extra: one more origin to make, by name)
  if (named != nullptr) strlcpy(worker.bgw_extra, named, sizeof worker.bgw_extra);
  strlcpy(worker.bgw_name, "idgen origins", sizeof worker.bgw_name);
  strlcpy(worker.bgw_type, "idgen origins", sizeof worker.bgw_type);
  worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
  worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
  worker.bgw_restart_time = BGW_NEVER_RESTART;
  strlcpy(worker.bgw_library_name, "idgen", sizeof worker.bgw_library_name);
  strlcpy(worker.bgw_function_name, "idgen_origin_worker", sizeof worker.bgw_function_name);
  worker.bgw_notify_pid = MyProcPid;
  worker.bgw_main_arg = ObjectIdGetDatum(MyDatabaseId);
  BackgroundWorkerHandle* handle = nullptr;
  for (int attempt = 0; !RegisterDynamicBackgroundWorker(&worker, &handle) && attempt < 100; ++attempt) {
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
    CHECK_FOR_INTERRUPTS();
  }
  if (handle == nullptr) {
    ereport(ERROR, errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
            errmsg("could not start the background worker that creates idgen's replication origins"),
            errdetail("idgen keeps its durable mark in the replication origins idgen_mark and idgen_decimal_id, made "
                      "once per server by a background worker."),
            errhint("Raise max_worker_processes, or retry when a worker slot is free."));
  }
  if (WaitForBackgroundWorkerShutdown(handle) == BGWH_POSTMASTER_DIED) {
    ereport(FATAL, errcode(ERRCODE_ADMIN_SHUTDOWN), errmsg("postmaster exited while idgen created its origins"));
  }
  AcceptInvalidationMessages();  // the worker's commit: the origins are in the catalog now
}

}  // namespace

compat::OriginId Id(Which which) {
  compat::OriginId id = replorigin_by_name(kNames[which], true);
  if (id == compat::kInvalidOriginId) {
    // Many sessions may meet a new server at once: one starts the worker, the others wait for it on
    // the lock and find the origins it made (an error releases the lock with the transaction).
    LockOriginCreation();
    id = replorigin_by_name(kNames[which], true);
    if (id == compat::kInvalidOriginId) {
      CreateOrigins();
      id = replorigin_by_name(kNames[which], true);
    }
    UnlockOriginCreation();
    if (id == compat::kInvalidOriginId) {
      ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
              errmsg("replication origin \"%s\" does not exist", kNames[which]),
              errdetail("idgen's background worker could not create it; the server log says why."),
              errhint("A superuser can create it: SELECT pg_replication_origin_create('%s');", kNames[which]));
    }
  }
  return id;
}

compat::OriginId IdNamed(const char* name) {
  compat::OriginId id = replorigin_by_name(name, true);
  if (id == compat::kInvalidOriginId) {
    LockOriginCreation();
    id = replorigin_by_name(name, true);
    if (id == compat::kInvalidOriginId) {
      CreateOrigins(name);
      id = replorigin_by_name(name, true);
    }
    UnlockOriginCreation();
    if (id == compat::kInvalidOriginId) {
      ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
              errmsg("replication origin \"%s\" does not exist", name),
              errdetail("idgen's background worker could not create it; the server log says why."),
              errhint("A superuser can create it: SELECT pg_replication_origin_create('%s');", name));
    }
  }
  return id;
}

bool NameOf(compat::OriginId id, char* out, size_t size) {
  char* name = nullptr;
  if (!replorigin_by_oid(id, true, &name) || name == nullptr) return false;
  strlcpy(out, name, size);
  return true;
}

namespace {

// Whether WAL must reach synchronous standbys before it counts: synchronous_standby_names names
// some, as the checkpointer has published it (or, before it has, as this backend reads it).
bool SyncStandbysConfigured() { return max_wal_senders != 0 && compat::SyncStandbysDefined(); }

bool ConfirmedBySyncStandbys(XLogRecPtr lsn) {
  LWLockAcquire(SyncRepLock, LW_SHARED);
  const bool confirmed = lsn <= WalSndCtl->lsn[SYNC_REP_WAIT_FLUSH];
  LWLockRelease(SyncRepLock);
  return confirmed;
}

}  // namespace

uint64_t Read(compat::OriginId id) { return replorigin_get_progress(id, false); }

XLogRecPtr Advance(compat::OriginId id, uint64_t value, bool backward) {
  replorigin_advance(id, value, InvalidXLogRecPtr, backward, true);
  return XactLastRecEnd;  // the end of the record just inserted
}

void FlushAndConfirm(XLogRecPtr lsn) {
  XLogFlush(lsn);
  // Waits on the latch, a millisecond at a time, holding nothing: the walsenders publish how far
  // the synchronous standbys have flushed.
  while (SyncStandbysConfigured() && !ConfirmedBySyncStandbys(lsn)) {
    if (QueryCancelPending || ProcDiePending) {
      CHECK_FOR_INTERRUPTS();  // a terminate ends the backend here; a cancel or a timeout raises its error
    }
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, compat::SyncStandbyWaitEvent());
    ResetLatch(MyLatch);
    CHECK_FOR_INTERRUPTS();
  }
}

}  // namespace idgen::pg::origin

// The background worker: creates the origins that do not exist, in a transaction of its own, in
// the database of the backend that started it (as the bootstrap superuser).
void idgen_origin_worker(Datum database) {
  BackgroundWorkerUnblockSignals();
  BackgroundWorkerInitializeConnectionByOid(DatumGetObjectId(database), InvalidOid, 0);
  StartTransactionCommand();
  for (const char* name : idgen::pg::origin::kNames) {
    if (replorigin_by_name(name, true) == idgen::pg::compat::kInvalidOriginId) (void)replorigin_create(name);
  }
  const char* named = MyBgworkerEntry->bgw_extra;
  if (named[0] != '\0' && strnlen(named, BGW_EXTRALEN) < BGW_EXTRALEN &&
      replorigin_by_name(named, true) == idgen::pg::compat::kInvalidOriginId) {
    (void)replorigin_create(named);
  }
  CommitTransactionCommand();
}
