// The marks of Instagram's logical shards (shard_marks.hpp): read with the latest committed state
// (and this transaction's own rows), never with the transaction's snapshot, so that a REPEATABLE
// READ or SERIALIZABLE insert sees the marks that others committed since it began, and takes no
// predicate lock on them; written by this transaction alone (a row of its own), so that no insert
// waits for another.
#include "pg/sql/shard_marks.hpp"

#include <algorithm>
#include <climits>

#include "core/protocol.hpp"
#include "pg/compat.hpp"
#include "pg/sql/instagram_shard.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_opclass_d.h"
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

// A marks table as idgen makes it, and nothing else: a plain, permanent heap table whose only
// columns are shard (integer), id (bigint), mark (timestamptz) and mark_server (bigint), and whose
// only index is its primary key (shard, id) with the built-in operator classes, no expression, no
// predicate, checked at once. The table lives in its owner's schema, and she may attach anything to
// it; idgen reads and writes it only through the heap and that one index, so that nothing of hers
// is ever evaluated in the session of whoever makes the IDs (a superuser among them): no trigger,
// rule, default, CHECK, policy or generated column fires on a direct heap insert, and an index, an
// index expression, a predicate or an operator class of hers is refused instead of maintained.
// idgen 1.2's layout (one row per shard, keyed by the shard alone, without id) is recognised only to
// be converted (Convert), never written.
struct Description {
  Oid relid;  // the key
  uint64 generation;
  bool legacy;  // idgen 1.2's layout, sealed as 1.2 made it
  AttrNumber shard, id, mark, server;
  Oid index;  // the primary key
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
  OnRelationChange(ForgetRelation);
  callbacks_registered = true;
}

const char* SchemaOf(Oid marks) {
  const char* name = get_namespace_name(get_rel_namespace(marks));
  return quote_identifier(name != nullptr ? name : "?");
}

[[noreturn]] void RaiseNotMarks(Oid marks, const char* why) {
  char message[300], hint[400];
  snprintf(message, sizeof message, "%s.%s is not a table of Instagram shard marks as idgen makes it", SchemaOf(marks),
           kTable);
  snprintf(hint, sizeof hint,
           "idgen writes the marks only into the table idgen.bind_instagram_shard made, as it made it: undo the "
           "change (a table of the shard's marks needs no other index, column or layout).");
  Raise(ErrorKind::kPrerequisite, message, why, hint);
}

[[noreturn]] void RaiseLegacy(Oid marks) {
  char message[300], hint[400];
  snprintf(message, sizeof message, "%s.%s has the layout of idgen 1.2", SchemaOf(marks), kTable);
  snprintf(hint, sizeof hint,
           "ALTER EXTENSION idgen UPDATE converts the marks tables of a database; a table restored from a dump of "
           "idgen 1.2 since is converted by binding its schema again: SELECT idgen.bind_instagram_shard(%s, <shard>);",
           quote_literal_cstr(get_namespace_name(get_rel_namespace(marks))));
  Raise(ErrorKind::kPrerequisite, message, "idgen never writes a mark into a table of 1.2's layout.", hint);
}

// The shape of the relation, or why it is not a marks table as idgen makes it (a static string, or
// one made with a column's or an index's name). rel is open and locked: the invalidations that
// the lock brought in have been received, so what is read here is what an insert would maintain.
const char* Shape(Relation rel, Description* out) {
  const Form_pg_class form = rel->rd_rel;
  if (form->relkind != RELKIND_RELATION || form->relam != HEAP_TABLE_AM_OID) return "It is not a plain heap table.";
  if (form->relpersistence != RELPERSISTENCE_PERMANENT) return "It is not a permanent table: a crash would lose it.";
  if (OidIsValid(form->reloftype)) return "It is a typed table.";
  if (form->relispartition || form->relhassubclass || has_superclass(RelationGetRelid(rel))) {
    return "It takes part in inheritance or partitioning.";
  }
  // Statistics objects are the owner's expressions too: the planner folds them whenever it
  // plans for the table (an index build of the conversion does).
  List* statistics = RelationGetStatExtList(rel);
  const bool has_statistics = statistics != NIL;
  list_free(statistics);
  if (has_statistics) return "It has a statistics object.";
  const TupleDesc desc = RelationGetDescr(rel);
  struct Column {
    const char* name;
    Oid type;
    AttrNumber* number;
  } columns[] = {{"shard", INT4OID, &out->shard},
                 {"id", INT8OID, &out->id},
                 {"mark", TIMESTAMPTZOID, &out->mark},
                 {"mark_server", INT8OID, &out->server}};
  for (int i = 0; i < desc->natts; ++i) {
    const Form_pg_attribute att = TupleDescAttr(desc, i);
    if (att->attisdropped) continue;
    Column* known = nullptr;
    for (Column& c : columns) {
      if (strcmp(NameStr(att->attname), c.name) == 0) known = &c;
    }
    if (known == nullptr || att->atttypid != known->type || att->atttypmod != -1 || att->attgenerated != '\0') {
      return psprintf("Its column %s is not one of shard integer, id bigint, mark timestamptz and mark_server bigint.",
                      quote_identifier(NameStr(att->attname)));
    }
    *known->number = att->attnum;
  }
  for (const Column& c : columns) {
    if (*c.number == InvalidAttrNumber && strcmp(c.name, "id") != 0) return psprintf("It has no column %s.", c.name);
  }
  // Its one index: the primary key, on (shard, id), or on the shard alone in 1.2's layout.
  out->legacy = out->id == InvalidAttrNumber;
  List* indexes = RelationGetIndexList(rel);
  const char* why = nullptr;
  if (list_length(indexes) != 1) {
    why = list_length(indexes) == 0 ? "It has no primary key." : "It has an index besides its primary key.";
  } else {
    const Oid index = linitial_oid(indexes);
    HeapTuple tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(index));
    if (!HeapTupleIsValid(tuple)) elog(ERROR, "cache lookup failed for index %u", index);
    const auto* ix = reinterpret_cast<Form_pg_index>(GETSTRUCT(tuple));
    bool isnull = false;
    const Datum classes = SysCacheGetAttr(INDEXRELID, tuple, Anum_pg_index_indclass, &isnull);
    const auto* opclass = reinterpret_cast<oidvector*>(DatumGetPointer(classes));
    const int columns_wanted = out->legacy ? 1 : 2;
    bool exact = !isnull && ix->indisprimary && ix->indisunique && ix->indimmediate && ix->indnatts == columns_wanted &&
                 ix->indnkeyatts == columns_wanted && ix->indkey.values[0] == out->shard &&
                 opclass->values[0] == INT4_BTREE_OPS_OID && heap_attisnull(tuple, Anum_pg_index_indexprs, nullptr) &&
                 heap_attisnull(tuple, Anum_pg_index_indpred, nullptr);
    if (exact && !out->legacy) exact = ix->indkey.values[1] == out->id && opclass->values[1] == INT8_BTREE_OPS_OID;
    ReleaseSysCache(tuple);
    if (exact) {
      HeapTuple cls = SearchSysCache1(RELOID, ObjectIdGetDatum(index));
      if (!HeapTupleIsValid(cls)) elog(ERROR, "cache lookup failed for index %u", index);
      exact = reinterpret_cast<Form_pg_class>(GETSTRUCT(cls))->relam == BTREE_AM_OID;
      ReleaseSysCache(cls);
    }
    if (exact)
      out->index = index;
    else
      why = out->legacy ? "Its index is not idgen 1.2's primary key (shard)."
                        : "Its index is not the primary key (shard, id).";
  }
  list_free(indexes);
  return why;
}

// The description of an open, locked marks table; refuses (55000) a table that is not one as idgen
// makes it, and, unless legacy_too, one of 1.2's layout.
const Description& Describe(Relation rel, bool legacy_too = false) {
  const Oid marks = RelationGetRelid(rel);
  bool found = false;
  auto* d = static_cast<Description*>(hash_search(descriptions, &marks, HASH_ENTER, &found));
  if (!found || d->generation != layouts) {
    Description now{};
    now.relid = marks;
    d->generation = 0;
    if (const char* why = Shape(rel, &now)) RaiseNotMarks(marks, why);
    now.generation = layouts;
    *d = now;
  }
  if (d->legacy && !legacy_too) RaiseLegacy(marks);
  return *d;
}

// ---- reading ------------------------------------------------------------------------------------

int64_t MarkUs(Datum mark) {
  const TimestampTz ts = DatumGetTimestampTz(mark);
  if (TIMESTAMP_IS_NOBEGIN(ts)) return INT64_MIN / 2;
  if (TIMESTAMP_IS_NOEND(ts)) return INT64_MAX / 2;
  // A mark near the end of timestamptz's range (year 294,276) lies beyond every ID: it saturates
  // as infinity does, never wrapping to a mark far in the past.
  int64_t unix_us = 0;
  if (__builtin_add_overflow(ts, kUnixToPostgresUs, &unix_us) || unix_us > INT64_MAX / 2) return INT64_MAX / 2;
  return unix_us;
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

// Reads the marks of the state's shard into it (and, for a schema's table, finds the shard).
void Load(Oid marks, State* state) {
  Relation rel = table_open(marks, AccessShareLock);
  const Description& d = Describe(rel);
  Reading r;
  Read(rel, d, state->key.shard, &r);
  table_close(rel, AccessShareLock);
  const bool schema = state->key.shard == kSchemaShard;
  const int32 shard = schema ? r.shard : state->key.shard;
  if (schema && r.shards != 1) RaiseNoShardOfSchema(marks, r);
  if (!schema && r.shards == 0) RaiseNotBound(marks, shard);
  if (r.null_mark) {
    char message[300];
    snprintf(message, sizeof message, "the mark of Instagram shard %d in %s.%s is NULL", static_cast<int>(shard),
             SchemaOf(marks), kTable);
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

// A row of the marks table, written by this transaction into the heap and the primary key alone
// (the table's shape allows no other index): nothing else runs.
void InsertRow(Relation rel, const Description& d, int32 shard, int64_t id, int64_t mark_us, CommandId cid) {
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
  TupleTableSlot* slot = MakeSingleTupleTableSlot(desc, &TTSOpsHeapTuple);
  ExecStoreHeapTuple(tuple, slot, false);
  table_tuple_insert(rel, slot, cid, 0, nullptr);
  // The key's columns, as the key orders them.
  Relation index = index_open(d.index, RowExclusiveLock);
  Datum key[2] = {Int32GetDatum(shard), Int64GetDatum(id)};
  bool key_nulls[2] = {false, false};
  (void)index_insert(index, key, key_nulls, &slot->tts_tid, rel, UNIQUE_CHECK_YES, false, BuildIndexInfo(index));
  index_close(index, RowExclusiveLock);
  ExecDropSingleTupleTableSlot(slot);
}

void RefuseWriteHere() {
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
}

// A mark of this transaction's own: its row, and the committed rows below the highest committed
// mark deleted, each only if no other transaction holds it.
void InsertMark(Oid marks, int32 shard, int64_t id, int64_t mark_us) {
  RefuseWriteHere();
  Relation rel = table_open(marks, RowExclusiveLock);
  const Description& d = Describe(rel);
  // The committed rows, to be pruned below the highest.
  Reading r;
  Read(rel, d, shard, &r);
  const CommandId cid = GetCurrentCommandId(true);
  InsertRow(rel, d, shard, id, mark_us, cid);
  for (int i = 0; i < r.stale; ++i) {
    if (r.stale_us[i] >= r.committed_us) continue;  // the highest committed mark stays
    // Another transaction deleting or locking it: left to it, never waited for.
    (void)compat::DeleteTupleNoWait(rel, &r.stale_tids[i], cid);
  }
  table_close(rel, NoLock);
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

// Runs a statement through SPI (connected by the caller).
void Execute(const char* sql) {
  const int rc = SPI_execute(sql, false, 0);
  if (rc < 0) elog(ERROR, "could not run \"%s\": SPI error %d", sql, rc);
}

}  // namespace

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
  State* state;
  if (schema_shard) {
    // The schema's one shard, found by reading the whole table once per generation; then the
    // shard's own state, from that same reading.
    State* schema = Find(marks, kSchemaShard);
    const bool fresh = schema->generation != generation;
    if (fresh) Load(marks, schema);
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
    if (state->generation != generation) Load(marks, state);
  }
  if (not_before_ms > 0) WaitForShardMark(state->shard, not_before_ms);
  for (;;) {
    WaitForForeign(*state);
    const int64_t id = NextInstagramId(state->shard);
    const int64_t id_us = InstagramMs(id) * 1000;
    protocol::ShardValue value = protocol::DecideShardValue(id_us, state->cover_us, state->foreign_us, false);
    if (value.kind == protocol::ShardValue::kReload) {
      // (past the marks this backend knows: another transaction may have committed a higher one)
      Load(marks, state);
      value = protocol::DecideShardValue(id_us, state->cover_us, state->foreign_us, true);
    }
    if (value.kind == protocol::ShardValue::kRetake) continue;  // (WaitForForeign waits for that mark first)
    if (value.kind == protocol::ShardValue::kMark) {
      InsertMark(marks, state->shard, id, value.mark_us);
      state->cover_us = value.mark_us;
    }
    return id;
  }
}

Kind Check(Oid marks) {
  Setup();
  Relation rel = table_open(marks, AccessShareLock);
  const bool legacy = Describe(rel, true).legacy;
  table_close(rel, AccessShareLock);
  return legacy ? Kind::kLegacy : Kind::kCurrent;
}

bool AddShard(Oid marks, int32 shard) {
  Setup();
  RefuseWriteHere();
  Relation rel = table_open(marks, RowExclusiveLock);
  const Description& d = Describe(rel);
  Reading r;
  Read(rel, d, shard, &r);
  const bool add = r.shards == 0;
  // No ID of the shard yet: a mark at the Unix epoch holds no server back.
  if (add) InsertRow(rel, d, shard, 0, 0, GetCurrentCommandId(true));
  table_close(rel, NoLock);
  return add;
}

const char* Unfit(Oid marks, Kind* kind) {
  Setup();
  Relation rel = table_open(marks, AccessShareLock);
  Description d{};
  const char* why = Shape(rel, &d);
  table_close(rel, AccessShareLock);
  *kind = d.legacy ? Kind::kLegacy : Kind::kCurrent;
  return why;
}

int ShardsOf(Oid marks, int32* shards) {
  Setup();
  Relation rel = table_open(marks, AccessShareLock);
  const Description& d = Describe(rel);
  bool* seen = static_cast<bool*>(palloc0(sizeof(bool) * 8192));
  int count = 0;
  SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, SnapshotSelf, 0, nullptr);
  HeapTuple tuple;
  while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
    bool isnull = false;
    const Datum s = heap_getattr(tuple, d.shard, RelationGetDescr(rel), &isnull);
    const int32 shard = isnull ? -1 : DatumGetInt32(s);
    if (shard < 0 || shard > 8191 || seen[shard]) continue;
    seen[shard] = true;
    shards[count++] = shard;
  }
  systable_endscan(scan);
  table_close(rel, AccessShareLock);
  pfree(seen);
  return count;
}

void Convert(Oid marks) {
  Setup();
  // Sealed as 1.2 made it, under the lock that the conversion keeps: then no statement below
  // evaluates anything of the owner's (no index of hers is rebuilt or folded by the index build's
  // planning, no statistics object of hers folded, no column of hers filled, no table of hers
  // inherits the change).
  Relation rel = table_open(marks, AccessExclusiveLock);
  const Description& d = Describe(rel, true);
  const bool legacy = d.legacy;
  const Oid key = d.index;
  char* table = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)), RelationGetRelationName(rel));
  table_close(rel, NoLock);
  if (!legacy) return;
  const Oid constraint = get_index_constraint(key);
  const char* name = OidIsValid(constraint) ? get_constraint_name(constraint) : nullptr;
  if (name == nullptr) RaiseNotMarks(marks, "Its primary key is not a constraint.");
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  // The new column's default, a constant, is never evaluated per row nor kept.
  Execute(psprintf("ALTER TABLE %s ADD COLUMN id pg_catalog.int8 NOT NULL DEFAULT 0", table));
  Execute(psprintf("ALTER TABLE %s ALTER COLUMN id DROP DEFAULT", table));
  Execute(psprintf("ALTER TABLE %s DROP CONSTRAINT %s", table, quote_identifier(name)));
  Execute(psprintf("ALTER TABLE %s ADD PRIMARY KEY (shard, id)", table));
  SPI_finish();
}

}  // namespace idgen::pg::shard_marks
