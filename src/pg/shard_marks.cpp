// The marks of Instagram's logical shards (shard_marks.hpp): read with the latest committed state
// (and this transaction's own rows), never with the transaction's snapshot, so that a REPEATABLE
// READ or SERIALIZABLE insert sees the marks that others committed since it began, and takes no
// predicate lock on them; written by this transaction alone (a row of its own), so that no insert
// waits for another.
#include "pg/shard_marks.hpp"

#include <algorithm>
#include <climits>

#include "pg/compat.hpp"
#include "pg/instagram_shard.hpp"
#include "pg/shared.hpp"

extern "C" {
#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "nodes/execnodes.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

namespace idgen::pg::shard_marks {

namespace {

// ---- what this backend knows, and until when --------------------------------------------------

// Everything cached below holds for one generation: a new one begins at every end of a transaction
// (the marks that others committed are read again, once per transaction and shard), at the abort
// of a subtransaction (its rows are gone), and when a marks table changes (ALTER, TRUNCATE, DROP).
uint64 generation = 1;
// The layouts of the marks tables hold until one of them changes (a relcache invalidation).
uint64 layouts = 1;
bool callbacks_registered = false;

void NewGeneration(XactEvent event, void*) {
  if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT || event == XACT_EVENT_PREPARE ||
      event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT) {
    ++generation;
  }
}

void NewGenerationAtSubAbort(SubXactEvent event, SubTransactionId, SubTransactionId, void*) {
  if (event == SUBXACT_EVENT_ABORT_SUB) ++generation;
}

// The layout of a marks table: its columns (the id column only from 1.3 on) and the index led by
// the shard.
struct Description {
  Oid relid;  // the key
  uint64 generation;
  bool legacy;
  AttrNumber shard, id, mark, server;
  Oid index;  // led by shard (the primary key), InvalidOid when there is none
  Oid owner;
};
HTAB* descriptions = nullptr;

// What this backend knows of one shard in one marks table.
struct Key {
  Oid marks;
  int32 shard;  // kSchemaShard: the schema's one shard
};
constexpr int32 kSchemaShard = INT32_MIN;
struct State {
  Key key;
  uint64 generation;
  int32 shard;         // for key.shard = -1: the shard the schema is bound to
  int64_t cover_us;    // the highest mark committed, or written by this transaction (Unix microseconds)
  int64_t foreign_us;  // the highest mark that another run of a server wrote
};
HTAB* states = nullptr;

void ForgetRelation(Datum, Oid relid) {
  // A change to a marks table (or, InvalidOid, to any relation): read everything again.
  if (relid == InvalidOid ||
      (descriptions != nullptr && hash_search(descriptions, &relid, HASH_FIND, nullptr) != nullptr)) {
    ++generation;
    ++layouts;
  }
}

void Setup() {
  if (callbacks_registered) return;
  HASHCTL ctl = {};
  ctl.keysize = sizeof(Oid);
  ctl.entrysize = sizeof(Description);
  descriptions = hash_create("idgen shard marks tables", 16, &ctl, HASH_ELEM | HASH_BLOBS);
  ctl.keysize = sizeof(Key);
  ctl.entrysize = sizeof(State);
  states = hash_create("idgen shard marks", 64, &ctl, HASH_ELEM | HASH_BLOBS);
  RegisterXactCallback(NewGeneration, nullptr);
  RegisterSubXactCallback(NewGenerationAtSubAbort, nullptr);
  CacheRegisterRelcacheCallback(ForgetRelation, 0);
  callbacks_registered = true;
}

const char* SchemaOf(Oid marks) {
  const char* name = get_namespace_name(get_rel_namespace(marks));
  return quote_identifier(name != nullptr ? name : "?");
}

[[noreturn]] void RaiseNotMarks(Oid marks, const char* why) {
  char message[300], hint[300];
  snprintf(message, sizeof message, "%s.%s is not a table of Instagram shard marks", SchemaOf(marks), kTable);
  snprintf(hint, sizeof hint,
           "idgen.bind_instagram_shard makes it, as the role that owns the schema's tables: drop this one and bind "
           "the schema again.");
  Raise(ErrorKind::kPrerequisite, message, why, hint);
}

AttrNumber ColumnOf(TupleDesc desc, const char* name, Oid type, Oid marks, bool required) {
  for (int i = 0; i < desc->natts; ++i) {
    const Form_pg_attribute att = TupleDescAttr(desc, i);
    if (att->attisdropped || strcmp(NameStr(att->attname), name) != 0) continue;
    if (att->atttypid != type) {
      char why[200];
      snprintf(why, sizeof why, "Its column %s is %s.", name, format_type_be(att->atttypid));
      RaiseNotMarks(marks, why);
    }
    return att->attnum;
  }
  if (required) {
    char why[200];
    snprintf(why, sizeof why, "It has no column %s.", name);
    RaiseNotMarks(marks, why);
  }
  return InvalidAttrNumber;
}

Oid AccessMethodOf(Oid relid) {
  HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
  if (!HeapTupleIsValid(tuple)) return InvalidOid;
  const Oid am = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relam;
  ReleaseSysCache(tuple);
  return am;
}

const Description& Describe(Oid marks) {
  bool found = false;
  auto* d = static_cast<Description*>(hash_search(descriptions, &marks, HASH_ENTER, &found));
  if (found && d->generation == layouts) return *d;
  d->generation = 0;
  Relation rel = table_open(marks, AccessShareLock);
  if (rel->rd_rel->relkind != RELKIND_RELATION || rel->rd_rel->relam != HEAP_TABLE_AM_OID) {
    table_close(rel, AccessShareLock);
    RaiseNotMarks(marks, "It is not a plain heap table.");
  }
  const TupleDesc desc = RelationGetDescr(rel);
  Description now{};
  now.relid = marks;
  now.shard = ColumnOf(desc, "shard", INT4OID, marks, true);
  now.mark = ColumnOf(desc, "mark", TIMESTAMPTZOID, marks, true);
  now.server = ColumnOf(desc, "mark_server", INT8OID, marks, true);
  now.id = ColumnOf(desc, "id", INT8OID, marks, false);
  now.owner = rel->rd_rel->relowner;
  // The index led by the shard: the primary key, (shard, id) from 1.3 on, (shard) in 1.2. A key on
  // the shard alone is 1.2's layout, whose one row per shard every raise updates.
  bool unique_on_shard = false;
  List* indexes = RelationGetIndexList(rel);
  ListCell* cell;
  foreach (cell, indexes) {
    const Oid index = lfirst_oid(cell);
    HeapTuple tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(index));
    if (!HeapTupleIsValid(tuple)) continue;
    const auto* form = reinterpret_cast<Form_pg_index>(GETSTRUCT(tuple));
    if (form->indnatts >= 1 && form->indkey.values[0] == now.shard && AccessMethodOf(index) == BTREE_AM_OID &&
        heap_attisnull(tuple, Anum_pg_index_indpred, nullptr) &&
        heap_attisnull(tuple, Anum_pg_index_indexprs, nullptr)) {
      if (!OidIsValid(now.index) || form->indisprimary) now.index = index;
      if (form->indisunique && form->indnkeyatts == 1) unique_on_shard = true;
    }
    ReleaseSysCache(tuple);
  }
  list_free(indexes);
  table_close(rel, AccessShareLock);
  now.legacy = unique_on_shard || now.id == InvalidAttrNumber;
  if (!now.legacy && (!OidIsValid(now.index) || ColumnOf(desc, "id", INT8OID, marks, false) == 0)) {
    RaiseNotMarks(marks, "It has no primary key on (shard, id).");
  }
  now.generation = layouts;
  *d = now;
  return *d;
}

// ---- reading ------------------------------------------------------------------------------------

int64_t MarkUs(Datum mark) {
  const TimestampTz ts = DatumGetTimestampTz(mark);
  if (TIMESTAMP_IS_NOBEGIN(ts)) return INT64_MIN / 2;
  if (TIMESTAMP_IS_NOEND(ts)) return INT64_MAX / 2;
  return ts + kUnixToPostgresUs;
}

int64 Instance() { return static_cast<int64>(GeneratorState().state.instance); }

struct Reading {
  int shards = 0;    // distinct shards seen (up to 2)
  int32 shard = -1;  // the first one
  bool null_mark = false;
  int64_t cover_us = INT64_MIN;
  int64_t foreign_us = INT64_MIN;
  int64_t committed_us = INT64_MIN;  // the highest mark of a committed row
  int stale = 0;                     // committed rows below it, of which
  ItemPointerData stale_tids[32];    // these
  int64_t stale_us[32];
};

// The rows of the table (of one shard, when shard >= 0) as they are now: committed, or this
// transaction's. A non-MVCC snapshot: no predicate lock (SERIALIZABLE), no transaction snapshot
// (REPEATABLE READ keeps seeing what others commit).
void Read(Relation rel, const Description& d, int32 shard, Reading* out) {
  ScanKeyData key;
  int nkeys = 0;
  if (shard != kSchemaShard) {
    ScanKeyInit(&key, d.shard, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(shard));
    nkeys = 1;
  }
  const TupleDesc desc = RelationGetDescr(rel);
  const int64 here = Instance();
  SysScanDesc scan = systable_beginscan(rel, d.index, OidIsValid(d.index), SnapshotSelf, nkeys, &key);
  HeapTuple tuple;
  while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
    bool isnull = false;
    const Datum s = heap_getattr(tuple, d.shard, desc, &isnull);
    if (isnull) continue;
    const int32 row_shard = DatumGetInt32(s);
    if (shard != kSchemaShard && row_shard != shard) continue;
    if (out->shards == 0) {
      out->shard = row_shard;
      out->shards = 1;
    } else if (row_shard != out->shard) {
      out->shards = 2;
    }
    bool mark_null = false, server_null = false;
    const Datum mark = heap_getattr(tuple, d.mark, desc, &mark_null);
    const Datum server = heap_getattr(tuple, d.server, desc, &server_null);
    if (mark_null || server_null) {
      out->null_mark = true;
      continue;
    }
    const int64_t mark_us = MarkUs(mark);
    const bool own = TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data));
    out->cover_us = std::max(out->cover_us, mark_us);
    if (!own && DatumGetInt64(server) != here) out->foreign_us = std::max(out->foreign_us, mark_us);
    if (!own) {
      out->committed_us = std::max(out->committed_us, mark_us);
      if (out->stale < 32) {
        out->stale_tids[out->stale] = tuple->t_self;
        out->stale_us[out->stale] = mark_us;
        ++out->stale;
      }
    }
  }
  systable_endscan(scan);
}

[[noreturn]] void RaiseNoShardOfSchema(Oid marks, const Reading& r) {
  char message[300], detail[300], hint[300];
  snprintf(message, sizeof message, "schema %s is not bound to one Instagram shard", SchemaOf(marks));
  snprintf(detail, sizeof detail, "Its table %s holds %s shards.", kTable, r.shards == 0 ? "no" : "several");
  snprintf(hint, sizeof hint, "Bind it to its shard, once: SELECT idgen.bind_instagram_shard(%s, <shard>);",
           quote_literal_cstr(get_namespace_name(get_rel_namespace(marks))));
  Raise(ErrorKind::kPrerequisite, message, detail, hint);
}

// The marks table is its owner's, and so is whatever runs when idgen reads or writes it (its
// indexes' expressions, predicates and operator classes): that runs as the owner, in a restricted
// operation, with search_path pg_catalog, pg_temp and every setting it changes undone, as
// PostgreSQL maintains an index (never as the role that makes the IDs, who may be a superuser).
struct AsOwner {
  Oid user;
  int context;
  int nest;
};
void EnterOwner(Oid owner, AsOwner* saved) {
  GetUserIdAndSecContext(&saved->user, &saved->context);
  SetUserIdAndSecContext(owner, saved->context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
  saved->nest = NewGUCNestLevel();
  (void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
                          false);
}
void LeaveOwner(const AsOwner& saved) {
  AtEOXact_GUC(false, saved.nest);
  SetUserIdAndSecContext(saved.user, saved.context);
}

// Reads the marks of the state's shard into it (and, for a schema's table, finds the shard).
void Load(const Description& d, State* state) {
  AsOwner saved;
  EnterOwner(d.owner, &saved);
  Relation rel = table_open(d.relid, AccessShareLock);
  Reading r;
  Read(rel, d, state->key.shard, &r);
  table_close(rel, AccessShareLock);
  LeaveOwner(saved);
  const bool schema = state->key.shard == kSchemaShard;
  const int32 shard = schema ? r.shard : state->key.shard;
  if (schema && r.shards != 1) RaiseNoShardOfSchema(d.relid, r);
  if (!schema && r.shards == 0) RaiseNotBound(d.relid, shard);
  if (r.null_mark) {
    char message[300];
    snprintf(message, sizeof message, "the mark of Instagram shard %d in %s.%s is NULL", static_cast<int>(shard),
             SchemaOf(d.relid), kTable);
    Raise(ErrorKind::kPrerequisite, message, "",
          "Its IDs cannot be placed above the ones made before: set the mark back to the last one (at least), and "
          "its columns NOT NULL.");
  }
  state->shard = shard;
  state->cover_us = r.cover_us;
  state->foreign_us = r.foreign_us;
  state->generation = generation;
}

// ---- writing ------------------------------------------------------------------------------------

// A mark of this transaction's own: its row, inserted with the indexes kept, and the committed rows
// below the highest committed mark deleted, each only if no other transaction holds it.
void InsertMark(const Description& d, int32 shard, int64_t id, int64_t mark_us) {
  if (IsInParallelMode()) {
    Raise(ErrorKind::kPrerequisite, "cannot raise an Instagram shard's mark in a parallel worker",
          "The shard's IDs passed its mark, which a row of this transaction must raise.",
          "Make the shard's IDs outside a parallel query (SET max_parallel_workers_per_gather = 0).");
  }
  if (XactReadOnly) {
    ereport(ERROR, errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
            errmsg("cannot raise an Instagram shard's mark in a read-only transaction"),
            errdetail("The shard's IDs passed its mark, which a row of this transaction must raise."),
            errhint("Make the shard's IDs in a read-write transaction."));
  }
  AsOwner saved;
  EnterOwner(d.owner, &saved);
  Relation rel = table_open(d.relid, RowExclusiveLock);
  // The committed rows, to be pruned below the highest.
  Reading r;
  Read(rel, d, shard, &r);
  const TupleDesc desc = RelationGetDescr(rel);
  Datum* values = static_cast<Datum*>(palloc0(sizeof(Datum) * desc->natts));
  bool* nulls = static_cast<bool*>(palloc(sizeof(bool) * desc->natts));
  for (int i = 0; i < desc->natts; ++i) nulls[i] = true;
  values[d.shard - 1] = Int32GetDatum(shard);
  nulls[d.shard - 1] = false;
  values[d.id - 1] = Int64GetDatum(id);
  nulls[d.id - 1] = false;
  values[d.mark - 1] = TimestampTzGetDatum(mark_us - kUnixToPostgresUs);
  nulls[d.mark - 1] = false;
  values[d.server - 1] = Int64GetDatum(Instance());
  nulls[d.server - 1] = false;
  HeapTuple tuple = heap_form_tuple(desc, values, nulls);

  EState* estate = CreateExecutorState();
  ResultRelInfo* info = makeNode(ResultRelInfo);
  InitResultRelInfo(info, rel, 1, nullptr, 0);
  ExecOpenIndices(info, false);
  TupleTableSlot* slot = ExecInitExtraTupleSlot(estate, desc, &TTSOpsHeapTuple);
  ExecStoreHeapTuple(tuple, slot, false);
  const CommandId cid = GetCurrentCommandId(true);
  table_tuple_insert(rel, slot, cid, 0, nullptr);
  compat::InsertIndexTuples(info, slot, estate);
  ExecCloseIndices(info);
  ExecResetTupleTable(estate->es_tupleTable, false);
  FreeExecutorState(estate);

  for (int i = 0; i < r.stale; ++i) {
    if (r.stale_us[i] >= r.committed_us) continue;  // the highest committed mark stays
    // Another transaction deleting or locking it: left to it, never waited for.
    (void)compat::DeleteTupleNoWait(rel, &r.stale_tids[i], cid);
  }
  table_close(rel, RowExclusiveLock);
  LeaveOwner(saved);
}

// idgen 1.2's one row per shard: raised in this transaction, which holds it until it ends (1.2's
// behaviour, kept for a table that idgen.bind_instagram_shard has not converted yet).
void UpdateLegacyMark(const Description& d, int32 shard, int64_t mark_us) {
  Relation rel = table_open(d.relid, RowExclusiveLock);
  char* name = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)), RelationGetRelationName(rel));
  table_close(rel, NoLock);
  char query[600];
  snprintf(query, sizeof query,
           "UPDATE %s SET mark = GREATEST(mark, $1), mark_server = $2 WHERE shard OPERATOR(pg_catalog.=) $3", name);
  AsOwner saved;
  EnterOwner(d.owner, &saved);
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  Oid types[3] = {TIMESTAMPTZOID, INT8OID, INT4OID};
  Datum args[3] = {TimestampTzGetDatum(mark_us - kUnixToPostgresUs), Int64GetDatum(Instance()), Int32GetDatum(shard)};
  if (SPI_execute_with_args(query, 3, types, args, nullptr, false, 0) != SPI_OK_UPDATE) {
    elog(ERROR, "could not raise the mark of Instagram shard %d", static_cast<int>(shard));
  }
  SPI_finish();
  LeaveOwner(saved);
}

State* Find(Oid marks, int32 shard) {
  Key key{marks, shard};
  bool found = false;
  auto* state = static_cast<State*>(hash_search(states, &key, HASH_ENTER, &found));
  if (!found) state->generation = 0;
  return state;
}

// Waits until the clock has passed every mark that another run of a server wrote (refuses beyond
// idgen.max_clock_regression): IDs made elsewhere lie before their marks.
void WaitForForeign(const State& state) {
  if (state.foreign_us == INT64_MIN) return;
  const int64_t ms = state.foreign_us / 1000 + (state.foreign_us % 1000 > 0 ? 1 : 0);
  WaitForShardMark(state.shard, ms);
}

}  // namespace

bool IsLegacy(Oid marks) {
  Setup();
  return Describe(marks).legacy;
}

void RaiseNotBound(Oid marks, int64_t shard) {
  char message[300], hint[300];
  snprintf(message, sizeof message, "Instagram shard %lld is not bound to schema %s", static_cast<long long>(shard),
           SchemaOf(marks));
  snprintf(hint, sizeof hint,
           "Bind each shard the rows use, once: SELECT idgen.bind_instagram_shard(%s, s) FROM generate_series(0, "
           "1999) s;",
           quote_literal_cstr(get_namespace_name(get_rel_namespace(marks))));
  Raise(ErrorKind::kPrerequisite, message, "", hint);
}

int64_t Make(Oid marks, bool schema_shard, int32* shard, int64_t not_before_ms) {
  Setup();
  const Description& d = Describe(marks);
  State* state;
  if (schema_shard) {
    // The schema's one shard, found by reading the whole table once per generation; then the
    // shard's own state, from that same reading.
    State* schema = Find(marks, kSchemaShard);
    const bool fresh = schema->generation != generation;
    if (fresh) Load(d, schema);
    state = Find(marks, schema->shard);
    if (fresh || state->generation != generation) {
      state->shard = schema->shard;
      state->cover_us = schema->cover_us;
      state->foreign_us = schema->foreign_us;
      state->generation = generation;
    }
    *shard = schema->shard;
  } else {
    state = Find(marks, *shard);
    if (state->generation != generation) Load(d, state);
  }
  if (not_before_ms > 0) WaitForShardMark(state->shard, not_before_ms);
  for (;;) {
    WaitForForeign(*state);
    const int64_t id = NextInstagramId(state->shard);
    const int64_t id_us = InstagramMs(id) * 1000;
    if (id_us < state->cover_us) return id;
    // Past the marks this backend knows: another transaction may have committed a higher one.
    Load(d, state);
    if (id_us < state->foreign_us) continue;  // a mark another server wrote lies above it: wait, take another
    if (id_us < state->cover_us) return id;
    const int64_t mark_us = id_us + kLeaseMs * 1000;
    if (d.legacy) {
      UpdateLegacyMark(d, state->shard, mark_us);
    } else {
      InsertMark(d, state->shard, id, mark_us);
    }
    state->cover_us = mark_us;
    return id;
  }
}

}  // namespace idgen::pg::shard_marks
