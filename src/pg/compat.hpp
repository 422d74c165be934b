// Every difference between the PostgreSQL majors that idgen builds for (15 to 19), in one
// place: the rest of src/pg calls these and never tests PG_VERSION_NUM itself.
#pragma once

#include "pg/pg.hpp"

extern "C" {
#include "utils/guc_tables.h"
#include "catalog/pg_namespace.h"
#include "storage/lwlock.h"
#include "utils/acl.h"
#include "utils/wait_event.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "access/xlogdefs.h"
#include "executor/executor.h"
#include "parser/parser.h"
#include "replication/origin.h"
#include "replication/syncrep.h"
#include "replication/walsender_private.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#include "storage/procnumber.h"
#else
#include "storage/backendid.h"
#endif
}

namespace idgen::pg::compat {

// A replication origin's id (19 renames the type RepOriginId to ReplOriginId).
#if PG_VERSION_NUM >= 190000
using OriginId = ReplOriginId;
inline constexpr OriginId kInvalidOriginId = InvalidReplOriginId;
#else
using OriginId = RepOriginId;
inline constexpr OriginId kInvalidOriginId = InvalidRepOriginId;
#endif

// The end of the WAL this backend and others have inserted so far, for a flush of what it wrote.
// 15 (from its 15.x releases) and 17 on have GetXLogInsertEndRecPtr(); the 16 idgen builds has
// only the insert position, which is the same but on a page boundary, where a flush stops at what
// was inserted.
inline XLogRecPtr InsertedUpTo() {
#if PG_VERSION_NUM >= 160000 && PG_VERSION_NUM < 170000
  return GetXLogInsertRecPtr();
#else
  return GetXLogInsertEndRecPtr();
#endif
}

// The index of this process among the MaxBackends backends (0-based), or -1 when it has none.
inline int ProcIndex() {
#if PG_VERSION_NUM >= 170000
  return MyProcNumber;  // INVALID_PROC_NUMBER is -1
#else
  return MyBackendId == InvalidBackendId ? -1 : MyBackendId - 1;
#endif
}

// Memory for GUC values and "extra" data: PostgreSQL 16 and later free it with their own
// allocator, 15 with free().
inline void* GucMalloc(size_t size) {
#if PG_VERSION_NUM >= 160000
  return guc_malloc(LOG, size);
#else
  return malloc(size);
#endif
}

inline char* GucStrdup(const char* text) {
#if PG_VERSION_NUM >= 160000
  return guc_strdup(LOG, text);
#else
  return strdup(text);
#endif
}

inline void GucFree(void* pointer) {
#if PG_VERSION_NUM >= 160000
  guc_free(pointer);
#else
  free(pointer);
#endif
}

// Every GUC record of this process, placeholders included.
inline config_generic** GucVariables(int* count) {
#if PG_VERSION_NUM >= 160000
  return get_guc_variables(count);
#else
  *count = GetNumConfigOptions();
  return get_guc_variables();
#endif
}

// The current value of a string GUC record (a placeholder's included): 19 keeps the fields of each
// type in a union inside config_generic, earlier majors put config_generic first in config_string.
inline const char* GucStringValue(const config_generic* record) {
#if PG_VERSION_NUM >= 190000
  return *record->_string.variable;
#else
  return *reinterpret_cast<const config_string*>(record)->variable;
#endif
}

// The wait event of a session waiting for the clock: its own name from PostgreSQL 17 (custom wait
// events), the generic "Extension" before.
inline uint32 ClockWaitEvent() {
#if PG_VERSION_NUM >= 170000
  static uint32 event = 0;
  if (event == 0) event = WaitEventExtensionNew("IdgenWaitForClock");
  return event;
#else
  return PG_WAIT_EXTENSION;
#endif
}

// A tranche of LWLocks for the shared state: its id, made once by the process that lays the state
// out, and its name (what pg_stat_activity.wait_event shows), registered in every process that
// attaches before 19, kept in shared memory with the id from 19 on.
inline int NewTranche(const char* name) {
#if PG_VERSION_NUM >= 190000
  return LWLockNewTrancheId(name);
#else
  (void)name;
  return LWLockNewTrancheId();
#endif
}
inline void RegisterTranche(int tranche, const char* name) {
#if PG_VERSION_NUM >= 190000
  (void)tranche, (void)name;
#else
  LWLockRegisterTranche(tranche, name);
#endif
}

// The wait event of a session waiting for synchronous standbys to confirm idgen's durable mark.
inline uint32 SyncStandbyWaitEvent() {
#if PG_VERSION_NUM >= 170000
  static uint32 event = 0;
  if (event == 0) event = WaitEventExtensionNew("IdgenWaitForSyncStandby");
  return event;
#else
  return PG_WAIT_EXTENSION;
#endif
}

// Whether synchronous_standby_names names standbys. Minor releases 15.13, 16.9 and 17.5 (and 18)
// publish it with an "initialised" flag (sync_standbys_status, SYNC_STANDBY_INIT), detected from the
// headers: once the checkpointer has published it, its word; before, this backend's reading. Older
// minors have only a boolean that reads false until the checkpointer has set it: standbys count
// when either it or this backend's reading names them.
inline bool SyncStandbysDefined() {
  const bool named_here = SyncRepStandbyNames != nullptr && SyncRepStandbyNames[0] != '\0';
#ifdef SYNC_STANDBY_INIT
  const uint8 status = static_cast<volatile WalSndCtlData*>(WalSndCtl)->sync_standbys_status;
  if ((status & SYNC_STANDBY_INIT) != 0) return (status & SYNC_STANDBY_DEFINED) != 0;
  return named_here;
#else
  return static_cast<volatile WalSndCtlData*>(WalSndCtl)->sync_standbys_defined || named_here;
#endif
}

// A named DSM segment shared by every backend (PostgreSQL 17's DSM registry), or nullptr before 17,
// where shared state needs shared_preload_libraries.
inline constexpr bool kHasNamedSegments = PG_VERSION_NUM >= 170000;

inline void* NamedSegment(const char* name, size_t size, void (*init)(void*), bool* found) {
#if PG_VERSION_NUM >= 190000
  // 19 passes the initialiser an argument of the caller's: here, the initialiser itself.
  struct Init {
    void (*init)(void*);
    static void Call(void* ptr, void* arg) { static_cast<Init*>(arg)->init(ptr); }
  } call{init};
  return GetNamedDSMSegment(name, size, Init::Call, found, &call);
#elif PG_VERSION_NUM >= 170000
  return GetNamedDSMSegment(name, size, init, found);
#else
  (void)name, (void)size, (void)init, (void)found;
  return nullptr;
#endif
}

// Abbreviated sort keys of 8 bytes need a Datum of 8 bytes (64-bit platforms).
inline constexpr bool kDatumHoldsEightBytes = SIZEOF_DATUM == 8;

// Input functions report bad text with ereturn() (soft errors from PostgreSQL 16); before 16 it
// is a plain ereport.
#if PG_VERSION_NUM < 160000
#define ereturn(context, dummy_value, ...) ereport(ERROR, __VA_ARGS__)
#endif

// Inserts a new heap tuple's index entries (no speculative insertion, no arbiter): 16 added
// onlySummarizing, 19 folds the booleans into flags.
inline void InsertIndexTuples(ResultRelInfo* info, TupleTableSlot* slot, EState* estate) {
#if PG_VERSION_NUM >= 190000
  (void)ExecInsertIndexTuples(info, estate, 0, slot, NIL, nullptr);
#elif PG_VERSION_NUM >= 160000
  (void)ExecInsertIndexTuples(info, slot, estate, false, false, nullptr, NIL, false);
#else
  (void)ExecInsertIndexTuples(info, slot, estate, false, false, nullptr, NIL);
#endif
}

// Deletes a tuple unless another transaction holds it (then returns what holds it, without waiting):
// 19 replaces changingPart by an options word.
inline TM_Result DeleteTupleNoWait(Relation rel, ItemPointer tid, CommandId cid) {
  TM_FailureData failure;
#if PG_VERSION_NUM >= 190000
  return table_tuple_delete(rel, tid, cid, 0, InvalidSnapshot, InvalidSnapshot, false, &failure);
#else
  return table_tuple_delete(rel, tid, cid, InvalidSnapshot, InvalidSnapshot, false, &failure, false);
#endif
}

// A sequential scan of a table under a snapshot: 19 adds the scan's option flags.
inline TableScanDesc BeginTableScan(Relation rel, Snapshot snapshot) {
#if PG_VERSION_NUM >= 190000
  return table_beginscan(rel, snapshot, 0, nullptr, SO_NONE);
#else
  return table_beginscan(rel, snapshot, 0, nullptr);
#endif
}

// Whether the role may look objects up in the schema (object_aclcheck from 16 on).
inline bool HasSchemaUsage(Oid schema, Oid role) {
#if PG_VERSION_NUM >= 160000
  return object_aclcheck(NamespaceRelationId, schema, role, ACL_USAGE) == ACLCHECK_OK;
#else
  return pg_namespace_aclcheck(schema, role, ACL_USAGE) == ACLCHECK_OK;
#endif
}

// Whether the role owns the schema (object_ownercheck from 16 on).
inline bool OwnsSchema(Oid schema, Oid role) {
#if PG_VERSION_NUM >= 160000
  return object_ownercheck(NamespaceRelationId, schema, role);
#else
  return pg_namespace_ownercheck(schema, role);
#endif
}

// Whether '...' reads backslashes as text (19 reads them so always: standard_conforming_strings is
// kept as a setting that is always on).
inline bool StandardConformingStrings() {
#if PG_VERSION_NUM >= 190000
  return true;
#else
  return standard_conforming_strings;
#endif
}

}  // namespace idgen::pg::compat
