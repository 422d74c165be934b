// Instagram's logical shards bound to schemas (instagram_shard.hpp, docs/citus.md): the trigger
// idgen.instagram_shard_id(), idgen.bind_instagram_shard and the registry of bindings.
//
// The trigger does its table's work once and keeps it until the catalog changes (a relcache
// invalidation of the table, of its marks, or of the Citus table they belong to): which columns
// hold the ID and the shard, which relation on this node holds the marks (the schema's
// idgen_instagram_shard, or on Citus its shard colocated with the row's), and the checks that
// 1.2 made on every row. A row then costs the reading of its ID and shard, an ID from the shard's
// state word, and a comparison with the marks this backend read in this transaction
// (shard_marks.cpp).
#include "pg/instagram_shard.hpp"

#include <cstdlib>
#include <cstring>

#include "pg/citus_meta.hpp"
#include "pg/compat.hpp"
#include "pg/mark.hpp"
#include "pg/pg.hpp"
#include "pg/shard_marks.hpp"
#include "pg/shared.hpp"

extern "C" {
#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class.h"
#include "catalog/pg_database.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "storage/bufmgr.h"
#include "parser/parse_func.h"
#include "utils/array.h"
}

namespace idgen::pg::instagram_shard {

namespace {

constexpr int32 kMaxShard = 8191;
constexpr const char* kRegistry = "instagram_shard_schemas";

// ---- the tables the trigger fires on ------------------------------------------------------------

// What one trigger (CREATE TRIGGER ... idgen.instagram_shard_id(...)) needs of its table, checked.
struct Table {
  Oid trigger;  // the key
  bool valid;
  Oid relid;
  AttrNumber id_column;
  AttrNumber shard_column;  // 0: the schema's shard
  Oid shard_type;
  Oid marks;       // the relation on this node that holds the marks
  Oid watched[4];  // relations whose invalidation makes this stale: the table, its marks, their Citus tables
};
HTAB* tables = nullptr;
Table* last = nullptr;  // the table of the previous row, most often the next one's

// The registry's rows on this node (RegistryHere), kept until a relation changes.
struct Registry {
  bool known = false;
  Oid relid = InvalidOid;  // idgen.instagram_shard_schemas
  Oid here = InvalidOid;   // the relation that holds its rows here
  bool citus_table = false;
};
Registry registry;
uint64 registry_changes = 0;  // relcache invalidations of the registry: every row is read again

void ForgetTables(Datum, Oid relid) {
  if (relid == InvalidOid || relid == registry.relid || relid == registry.here) {
    registry.known = false;
    ++registry_changes;
  }
  if (tables == nullptr) return;
  HASH_SEQ_STATUS status;
  hash_seq_init(&status, tables);
  Table* table;
  while ((table = static_cast<Table*>(hash_seq_search(&status))) != nullptr) {
    if (relid == InvalidOid || table->watched[0] == relid || table->watched[1] == relid || table->watched[2] == relid ||
        table->watched[3] == relid) {
      table->valid = false;
    }
  }
}

// The caches above, and the callback that forgets them when the catalog changes.
void Watch() {
  if (tables != nullptr) return;
  HASHCTL ctl = {};
  ctl.keysize = sizeof(Oid);
  ctl.entrysize = sizeof(Table);
  tables = hash_create("idgen instagram_shard_id tables", 16, &ctl, HASH_ELEM | HASH_BLOBS);
  CacheRegisterRelcacheCallback(ForgetTables, 0);
}

[[noreturn]] void RaiseKind() {
  ereport(
      ERROR, errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
      errmsg("idgen.instagram_shard_id() must be a BEFORE INSERT ... FOR EACH ROW trigger with at most two arguments"),
      errhint("CREATE TRIGGER ... BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id'), "
              "or ('id', 'shard') to take the shard from a column."));
}

const char* Qualified(Relation rel) {
  return quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)), RelationGetRelationName(rel));
}

AttrNumber ColumnNamed(Relation rel, const char* name) {
  const TupleDesc desc = RelationGetDescr(rel);
  for (int i = 0; i < desc->natts; ++i) {
    const Form_pg_attribute att = TupleDescAttr(desc, i);
    if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0) return att->attnum;
  }
  ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
          errmsg("table %s.%s has no column \"%s\"", get_namespace_name(RelationGetNamespace(rel)),
                 RelationGetRelationName(rel), name),
          errhint("The trigger's arguments name the bigint column that takes the ID ('id' when there is none) and, "
                  "where the row names its shard, the column that holds it."));
  pg_unreachable();
}

[[noreturn]] void RaiseMarksElsewhere(Relation rel, const char* why) {
  const char* schema = get_namespace_name(RelationGetNamespace(rel));
  char hint[600];
  snprintf(hint, sizeof hint,
           "Distribute %s.%s by shard, colocated with the table: SELECT create_distributed_table('%s.%s', 'shard', "
           "colocate_with => '%s'); or, for a schema per shard, bind it before citus_schema_distribute.",
           quote_identifier(schema), shard_marks::kTable, quote_identifier(schema), shard_marks::kTable,
           Qualified(rel));
  ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
          errmsg("the marks of schema %s do not lie with table %s on this node", quote_identifier(schema),
                 RelationGetRelationName(rel)),
          errdetail("%s", why), errhint("%s", hint));
  pg_unreachable();
}

// The relation on this node that holds the marks of the rows of rel: the schema's
// idgen_instagram_shard, or, where rel is a Citus shard, that table's shard colocated with it
// (watched: the relations whose change moves it). InvalidOid: the schema has no marks table.
Oid MarksOf(Relation rel, Oid* watched) {
  const Oid schema_table = get_relname_relid(shard_marks::kTable, RelationGetNamespace(rel));
  if (!OidIsValid(schema_table)) return InvalidOid;
  watched[1] = schema_table;
  citus::Shard shard;
  if (citus::ShardOfRelation(RelationGetRelid(rel), &shard)) {
    watched[2] = shard.logical;
    if (!citus::IsCitusTable(schema_table)) {
      RaiseMarksElsewhere(rel, "The table is a Citus shard, but its schema's marks table is not a Citus table.");
    }
    citus::Shard marks;
    if (!citus::ColocatedShard(schema_table, shard, &marks)) {
      RaiseMarksElsewhere(rel, "The marks table has no shard colocated with this one.");
    }
    const Oid local = citus::ShardRelation(marks);
    if (!OidIsValid(local)) RaiseMarksElsewhere(rel, "The marks table's colocated shard is not on this node.");
    watched[3] = local;
    return local;
  }
  if (citus::IsCitusTable(schema_table)) {
    RaiseMarksElsewhere(rel, "The marks table is a Citus table, whose rows live in its shards, but this table is not.");
  }
  return schema_table;
}

Table& TableOf(TriggerData* data) {
  const Trigger* trigger = data->tg_trigger;
  if (last != nullptr && last->trigger == trigger->tgoid && last->valid) return *last;
  Watch();
  bool found = false;
  auto* table = static_cast<Table*>(hash_search(tables, &trigger->tgoid, HASH_ENTER, &found));
  if (found && table->valid) return *(last = table);
  table->valid = false;
  Relation rel = data->tg_relation;
  Table now{};
  now.trigger = trigger->tgoid;
  now.relid = RelationGetRelid(rel);
  now.watched[0] = now.relid;
  const char* id_name = trigger->tgnargs >= 1 ? trigger->tgargs[0] : "id";
  now.id_column = ColumnNamed(rel, id_name);
  if (trigger->tgnargs >= 2) {
    now.shard_column = ColumnNamed(rel, trigger->tgargs[1]);
    now.shard_type = TupleDescAttr(RelationGetDescr(rel), now.shard_column - 1)->atttypid;
  }
  // The ID column is a bigint that nothing else fills (a double would round IDs into duplicates; a
  // default or an identity would leave the trigger nothing to fill).
  const Form_pg_attribute id = TupleDescAttr(RelationGetDescr(rel), now.id_column - 1);
  const bool filled_elsewhere = id->atthasdef || id->attidentity != '\0' || id->attgenerated != '\0';
  if (id->atttypid != INT8OID || filled_elsewhere) {
    ereport(
        ERROR, errcode(ERRCODE_DATATYPE_MISMATCH),
        errmsg("column \"%s\" of table %s.%s cannot take Instagram IDs from idgen.instagram_shard_id()", id_name,
               get_namespace_name(RelationGetNamespace(rel)), RelationGetRelationName(rel)),
        filled_elsewhere
            ? errdetail("It has a default, an identity or a generation expression, which fills it before the trigger.")
            : errdetail("It is %s; Instagram IDs are bigint.", format_type_be(id->atttypid)),
        errhint("Make the ID column a plain bigint with no default: the trigger fills it."));
  }
  now.marks = MarksOf(rel, now.watched);
  if (OidIsValid(now.marks)) {
    // Only a plain table of the owner of this table is read: a view that another role with CREATE on
    // the schema put there would run its code as the inserter.
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(now.marks));
    if (!HeapTupleIsValid(tuple)) elog(ERROR, "cache lookup failed for relation %u", now.marks);
    const auto* form = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple));
    const bool trusted = form->relkind == RELKIND_RELATION && form->relowner == rel->rd_rel->relowner;
    ReleaseSysCache(tuple);
    if (!trusted) {
      const char* schema = quote_identifier(get_namespace_name(RelationGetNamespace(rel)));
      ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
              errmsg("%s.%s is not a table of the owner of %s.%s", schema, shard_marks::kTable, schema,
                     quote_identifier(RelationGetRelationName(rel))),
              errhint("idgen_instagram_shard is made by idgen.bind_instagram_shard, as the role that owns the schema's "
                      "tables: drop the impostor, bind again as that role."));
    }
    now.valid = true;  // a table without marks is looked at again: a binding may come later
  }
  *table = now;
  last = table;
  return *table;
}

// The shard a row names: an integer column (any other type through its text).
int64 ShardOfRow(const Table& table, Datum value) {
  int64 shard;
  switch (table.shard_type) {
    case INT2OID:
      shard = DatumGetInt16(value);
      break;
    case INT4OID:
      shard = DatumGetInt32(value);
      break;
    case INT8OID:
      shard = DatumGetInt64(value);
      break;
    default: {
      Oid output;
      bool varlena;
      getTypeOutputInfo(table.shard_type, &output, &varlena);
      const char* text = OidOutputFunctionCall(output, value);
      shard = pg_strtoint32(text);  // 22P02 or 22003 for what is not an integer, as a cast says
    }
  }
  return shard;
}

// ---- the registry: which schema each shard is bound to -------------------------------------------

// The relation on this node that holds the registry's rows: the table, or on Citus (a reference
// table) its shard here. InvalidOid: no registry (an extension older than 1.3 in this database).
Oid RegistryHere(bool* citus_table) {
  if (!registry.known) {
    Watch();
    Registry now;
    const Oid schema = get_namespace_oid("idgen", true);
    now.relid = OidIsValid(schema) ? get_relname_relid(kRegistry, schema) : InvalidOid;
    now.citus_table = OidIsValid(now.relid) && citus::IsCitusTable(now.relid);
    now.here = now.relid;
    if (now.citus_table) {
      citus::Shard shard;
      const citus::Shard any;
      now.here = citus::ColocatedShard(now.relid, any, &shard) ? citus::ShardRelation(shard) : InvalidOid;
    }
    // Only what was found is kept: the extension's update or Citus may bring it later.
    now.known = OidIsValid(now.here);
    registry = now;
  }
  *citus_table = registry.citus_table;
  return registry.here;
}

// What this backend knows of a shard's binding. The registry's row is read again when a binding
// may have changed: on one server, when a transaction that bound a shard commits (a counter in shared
// memory); on Citus, whose coordinator writes the registry of every node, once per transaction. The
// schema and its marks are looked up once per transaction (a schema may be dropped).
enum class Binding : uint8 { kUnbound, kHere, kElsewhere };
struct Bound {
  int32 shard;       // the key
  bool read;         // the registry's row was read
  uint64 bindings;   // ... under this value of the shared counter
  uint64 read_xact;  // ... in this transaction (Citus)
  uint64 xact;       // the lookups below were made in this transaction (0: never)
  Binding binding;
  Oid marks;
  int64 citus_shard;   // on Citus: the shard of the marks that holds it (0: not a Citus table)
  Oid owner;           // ... and its owner
  uint64 locked_xact;  // the transaction that holds Citus's lock on it
  char schema[NAMEDATALEN];
  char where[200];
};
HTAB* bound = nullptr;  // the shards this backend found bound
// The shards it found unbound, by shard: the counter (and, on Citus, the transaction) it read them
// under. What idgen.instagram_id(shard) of an unbound shard checks on every call: two loads.
struct Unbound {
  uint64 bindings;  // 0: not read
  uint64 xact;
  bool citus;  // read on a Citus node: good for its transaction only (making the registry a Citus
               // table invalidates it on every node, which changes `bindings`)
};
Unbound* unbound = nullptr;
uint64 xact_count = 1;
bool xact_callback = false;
bool bound_in_xact = false;  // this transaction bound a shard

void NextXact(XactEvent event, void*) {
  if (event == XACT_EVENT_COMMIT && bound_in_xact) {
    GeneratorState().state.shard_bindings.fetch_add(1, std::memory_order_acq_rel);
  }
  if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT || event == XACT_EVENT_PREPARE ||
      event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT) {
    ++xact_count;
    bound_in_xact = false;
  }
}

void Setup() {
  if (bound == nullptr) {
    HASHCTL ctl = {};
    ctl.keysize = sizeof(int32);
    ctl.entrysize = sizeof(Bound);
    bound = hash_create("idgen instagram shard bindings", 16, &ctl, HASH_ELEM | HASH_BLOBS);
    unbound = static_cast<Unbound*>(MemoryContextAllocZero(TopMemoryContext, sizeof(Unbound) * (kMaxShard + 1)));
  }
  if (!xact_callback) {
    RegisterXactCallback(NextXact, nullptr);
    xact_callback = true;
  }
}

// The schema bound to a shard in the registry ('' when none), by the registry's rows here.
void RegisteredSchema(int32 shard, char* out) {
  out[0] = '\0';
  bool citus_table = false;
  const Oid here = RegistryHere(&citus_table);
  if (!OidIsValid(here)) {
    if (citus_table) {
      Raise(ErrorKind::kPrerequisite, "the Instagram shard bindings of this Citus cluster have no copy on this node",
            "idgen.instagram_shard_schemas is a reference table; each node reads its own copy.",
            "On the coordinator: SELECT replicate_reference_tables();");
    }
    return;
  }
  // The registry is the extension's: a DROP EXTENSION that committed since it was found leaves its
  // OID behind until the lock brings the invalidation in. Found once more, or the drop is said.
  Relation rel = try_relation_open(here, AccessShareLock);
  if (rel == nullptr) {
    registry.known = false;
    const Oid again = RegistryHere(&citus_table);
    rel = OidIsValid(again) ? try_relation_open(again, AccessShareLock) : nullptr;
    if (rel == nullptr) marks::RaiseMissing(kRegistry);
  }
  if (RelationGetNumberOfBlocks(rel) > 0) {
    ScanKeyData key;
    ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(shard));
    Oid index = InvalidOid;
    List* indexes = RelationGetIndexList(rel);
    if (indexes != NIL) index = linitial_oid(indexes);
    SysScanDesc scan = systable_beginscan(rel, index, OidIsValid(index), SnapshotSelf, 1, &key);
    HeapTuple tuple;
    while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
      bool isnull = false;
      const Datum s = heap_getattr(tuple, 1, RelationGetDescr(rel), &isnull);
      if (isnull || DatumGetInt32(s) != shard) continue;
      const Datum name = heap_getattr(tuple, 2, RelationGetDescr(rel), &isnull);
      if (!isnull) strlcpy(out, NameStr(*DatumGetName(name)), NAMEDATALEN);
      break;
    }
    systable_endscan(scan);
  }
  table_close(rel, AccessShareLock);
}

Oid OwnerOf(Oid relid) {
  HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
  if (!HeapTupleIsValid(tuple)) elog(ERROR, "cache lookup failed for relation %u", relid);
  const Oid owner = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relowner;
  ReleaseSysCache(tuple);
  return owner;
}

// Takes Citus's lock on a shard's placement (its metadata lock, in share mode, to the end of the
// transaction), as every write through Citus does: a move of the shard waits for this transaction,
// and its marks move with the rows. By Citus's own lock_shard_metadata, as the marks' owner (it
// checks that).
void LockCitusShard(int64 shard, Oid owner) {
  Oid args[2] = {INT4OID, INT8ARRAYOID};
  List* name = list_make2(makeString(pstrdup("pg_catalog")), makeString(pstrdup("lock_shard_metadata")));
  const Oid function = LookupFuncName(name, 2, args, true);
  if (!OidIsValid(function)) {
    Raise(ErrorKind::kPrerequisite, "Citus has no function lock_shard_metadata(integer, bigint[])",
          "idgen takes Citus's lock on a shard's placement before it makes an ID of a bound shard.",
          "Use a Citus release that has it (11 and later).");
  }
  Datum ids[1] = {Int64GetDatum(shard)};
  ArrayType* array = construct_array(ids, 1, INT8OID, sizeof(int64), true, TYPALIGN_DOUBLE);
  Oid user;
  int context;
  GetUserIdAndSecContext(&user, &context);
  SetUserIdAndSecContext(owner, context | SECURITY_LOCAL_USERID_CHANGE);
  (void)OidFunctionCall2(function, Int32GetDatum(ShareLock), PointerGetDatum(array));
  SetUserIdAndSecContext(user, context);
}

// The binding of a shard: nullptr when it is bound to no schema.
const Bound* BindingOf(int32 shard) {
  Setup();
  const uint64 bindings = GeneratorState().state.shard_bindings.load(std::memory_order_acquire) + registry_changes;
  Unbound& u = unbound[shard];
  if (u.bindings == bindings + 1 && (!u.citus || u.xact == xact_count)) return nullptr;
  const bool citus = citus::Installed();
  bool found = false;
  Bound& b = *static_cast<Bound*>(hash_search(bound, &shard, HASH_ENTER, &found));
  if (!found) {
    memset(&b, 0, sizeof b);
    b.shard = shard;
  }
  if (!b.read || b.bindings != bindings || (citus && b.read_xact != xact_count)) {
    b.read = false;
    b.xact = 0;
    RegisteredSchema(shard, b.schema);
    b.read = true;
    b.bindings = bindings;
    b.read_xact = xact_count;
  }
  if (b.schema[0] == '\0') {
    u = Unbound{bindings + 1, xact_count, citus};
    return nullptr;
  }
  u.bindings = 0;
  if (b.xact == xact_count) return b.binding == Binding::kUnbound ? nullptr : &b;
  b.binding = Binding::kUnbound;
  b.citus_shard = 0;
  const Oid schema = get_namespace_oid(b.schema, true);
  const Oid marks = OidIsValid(schema) ? get_relname_relid(shard_marks::kTable, schema) : InvalidOid;
  // A binding whose schema or table is gone binds nothing any more.
  if (OidIsValid(marks)) {
    b.binding = Binding::kHere;
    b.marks = marks;
    // Only a plain table of the schema's owner holds its marks (as bind made it): another role's
    // would let that role move them back.
    HeapTuple ns = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(schema));
    const Oid schema_owner =
        HeapTupleIsValid(ns) ? reinterpret_cast<Form_pg_namespace>(GETSTRUCT(ns))->nspowner : InvalidOid;
    if (HeapTupleIsValid(ns)) ReleaseSysCache(ns);
    if (get_rel_relkind(marks) != RELKIND_RELATION || !has_privs_of_role(OwnerOf(marks), schema_owner)) {
      b.xact = 0;
      ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
              errmsg("%s.%s is not a table of the owner of schema %s", quote_identifier(b.schema), shard_marks::kTable,
                     quote_identifier(b.schema)),
              errhint("idgen_instagram_shard is made by idgen.bind_instagram_shard, as the schema's owner: drop the "
                      "impostor, bind again as that role."));
    }
    if (citus::IsCitusTable(marks)) {
      citus::Shard placed;
      if (!citus::ShardOfValue(marks, shard, &placed)) {
        b.binding = Binding::kElsewhere;
        snprintf(b.where, sizeof b.where, "no node (its marks table has no shard for it)");
      } else {
        const int32 group = citus::PlacementGroup(placed.id);
        b.citus_shard = placed.id;
        b.owner = OwnerOf(marks);
        b.marks = group == citus::LocalGroup() ? citus::ShardRelation(placed) : InvalidOid;
        if (!OidIsValid(b.marks)) {
          b.binding = Binding::kElsewhere;
          citus::NodeOfGroup(group, b.where, sizeof b.where);
        }
      }
    }
  }
  b.xact = xact_count;
  return b.binding == Binding::kUnbound ? nullptr : &b;
}

// ---- binding --------------------------------------------------------------------------------------

// Runs a statement through SPI (connected by the caller); the rows it returned.
uint64 Execute(const char* sql, int nargs = 0, Oid* types = nullptr, Datum* values = nullptr) {
  const int rc = SPI_execute_with_args(sql, nargs, types, values, nullptr, false, 0);
  if (rc < 0) elog(ERROR, "could not run \"%s\": SPI error %d", sql, rc);
  return SPI_processed;
}

bool DistributedSchema(Oid schema) {
  if (!OidIsValid(get_relname_relid("pg_dist_schema", PG_CATALOG_NAMESPACE))) return false;
  Oid types[1] = {OIDOID};
  Datum values[1] = {ObjectIdGetDatum(schema)};
  Execute("SELECT FROM pg_catalog.pg_dist_schema WHERE schemaid OPERATOR(pg_catalog.=) $1", 1, types, values);
  return SPI_processed > 0;
}

// The role whose tables a schema's are: its owner, or for a schema of pg_database_owner (public)
// the database's owner.
Oid SchemaTablesOwner(Oid schema) {
  HeapTuple ns = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(schema));
  if (!HeapTupleIsValid(ns)) elog(ERROR, "cache lookup failed for schema %u", schema);
  Oid owner = reinterpret_cast<Form_pg_namespace>(GETSTRUCT(ns))->nspowner;
  ReleaseSysCache(ns);
  if (owner == ROLE_PG_DATABASE_OWNER) {
    HeapTuple db = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
    if (!HeapTupleIsValid(db)) elog(ERROR, "cache lookup failed for database %u", MyDatabaseId);
    owner = reinterpret_cast<Form_pg_database>(GETSTRUCT(db))->datdba;
    ReleaseSysCache(db);
  }
  return owner;
}

// Whether the registry binds a shard to the schema: its marks table is one that idgen made.
bool SchemaIsBound(const char* schema) {
  Oid types[1] = {NAMEOID};
  NameData name;
  namestrcpy(&name, schema);
  Datum values[1] = {NameGetDatum(&name)};
  return Execute("SELECT FROM idgen.instagram_shard_schemas WHERE schema_name OPERATOR(pg_catalog.=) $1 LIMIT 1", 1,
                 types, values) > 0;
}

// Binds the shard in the registry (as the registry's owner: no one else writes it), refusing a shard
// that another existing schema holds. On Citus the registry is a reference table, made one here on
// the first binding, so that every node reads every binding.
void Register(int32 shard, const char* schema) {
  const Oid idgen = get_namespace_oid("idgen", false);
  const Oid registry = get_relname_relid(kRegistry, idgen);
  if (!OidIsValid(registry)) {
    Raise(ErrorKind::kPrerequisite, "idgen.instagram_shard_schemas does not exist in this database", "",
          "Run ALTER EXTENSION idgen UPDATE in this database.");
  }
  Oid user;
  int context;
  GetUserIdAndSecContext(&user, &context);
  HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(registry));
  if (!HeapTupleIsValid(tuple)) elog(ERROR, "cache lookup failed for relation %u", registry);
  const Oid owner = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relowner;
  ReleaseSysCache(tuple);
  SetUserIdAndSecContext(owner, context | SECURITY_LOCAL_USERID_CHANGE);
  if (citus::Installed() && !citus::IsCitusTable(registry)) {
    if (citus::LocalGroup() != 0) {
      Raise(ErrorKind::kPrerequisite, "Instagram shards are bound on the Citus coordinator",
            "The bindings are a reference table that the coordinator makes and Citus copies to every node.",
            "Run idgen.bind_instagram_shard on the coordinator.");
    }
    Execute("SELECT pg_catalog.create_reference_table('idgen.instagram_shard_schemas'::pg_catalog.regclass)");
  }
  Setup();
  bound_in_xact = true;
  Oid types[2] = {INT4OID, NAMEOID};
  NameData name;
  namestrcpy(&name, schema);
  Datum values[2] = {Int32GetDatum(shard), NameGetDatum(&name)};
  if (Execute("INSERT INTO idgen.instagram_shard_schemas (shard, schema_name) VALUES ($1, $2) ON CONFLICT (shard) DO "
              "NOTHING RETURNING shard",
              2, types, values) == 0) {
    Execute("SELECT schema_name FROM idgen.instagram_shard_schemas WHERE shard OPERATOR(pg_catalog.=) $1 FOR UPDATE", 1,
            types, values);
    bool isnull = true;
    const Datum held = SPI_processed > 0 ? SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull) : 0;
    const char* holder = isnull ? "" : pstrdup(NameStr(*DatumGetName(held)));
    if (strcmp(holder, schema) != 0) {
      // A schema that was dropped binds nothing any more.
      if (holder[0] != '\0' && OidIsValid(get_namespace_oid(holder, true))) {
        char message[300], detail[400], hint[400];
        snprintf(message, sizeof message, "Instagram shard %d is bound to schema %s", static_cast<int>(shard),
                 quote_identifier(holder));
        snprintf(detail, sizeof detail,
                 "A shard has one schema, whose node alone makes its IDs: two schemas of one shard would make the "
                 "same IDs.");
        snprintf(hint, sizeof hint, "Bind schema %s to a shard of its own, or drop schema %s first.",
                 quote_identifier(schema), quote_identifier(holder));
        Raise(ErrorKind::kPrerequisite, message, detail, hint);
      }
      Execute("UPDATE idgen.instagram_shard_schemas SET schema_name = $2 WHERE shard OPERATOR(pg_catalog.=) $1", 2,
              types, values);
    }
  }
  SetUserIdAndSecContext(user, context);
}

// Only the owner writes the marks: a role that may insert (the trigger needs no right on them) can
// neither rebind the shard nor move its mark back.
void RevokeWrites(const char* table) {
  char sql[800];
  snprintf(sql, sizeof sql,
           "SELECT DISTINCT CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC' ELSE "
           "pg_catalog.quote_ident(r.rolname) END FROM pg_catalog.pg_class c CROSS JOIN LATERAL "
           "pg_catalog.aclexplode(c.relacl) a LEFT JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) "
           "a.grantee WHERE c.oid OPERATOR(pg_catalog.=) %s::pg_catalog.regclass AND a.grantee OPERATOR(pg_catalog.<>) "
           "c.relowner AND a.privilege_type OPERATOR(pg_catalog.=) ANY ('{INSERT,UPDATE,DELETE,TRUNCATE}')",
           quote_literal_cstr(table));
  Execute(sql);
  const uint64 count = SPI_processed;
  char** roles = static_cast<char**>(palloc(sizeof(char*) * (count + 1)));
  for (uint64 i = 0; i < count; ++i) roles[i] = pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
  for (uint64 i = 0; i < count; ++i) {
    snprintf(sql, sizeof sql, "REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON TABLE %s FROM %s CASCADE", table, roles[i]);
    Execute(sql);
  }
}

}  // namespace

namespace {

// MakeBoundId for a shard that may be bound (the frame of the messages and the lookups).
[[gnu::noinline]] bool MakeBoundIdSlow(int64_t shard, int64_t not_before_ms, int64_t* id) {
  const Bound* found = BindingOf(static_cast<int32>(shard));
  if (found == nullptr) return false;
  const Bound& b = *found;
  if (b.binding == Binding::kElsewhere) {
    char message[400], detail[400], hint[400];
    snprintf(message, sizeof message, "Instagram shard %lld is bound to schema %s, which lives on %s",
             static_cast<long long>(shard), quote_identifier(b.schema), b.where);
    snprintf(detail, sizeof detail,
             "A bound shard's IDs are made only where its schema is placed, so that two nodes never make the same "
             "ID.");
    snprintf(hint, sizeof hint,
             "Insert into the schema's tables (their trigger idgen.instagram_shard_id() makes the ID where the row is "
             "stored), or call idgen.instagram_id(%lld) on that node.",
             static_cast<long long>(shard));
    Raise(ErrorKind::kPrerequisite, message, detail, hint);
  }
  if (b.citus_shard != 0 && b.locked_xact != xact_count) {
    // On Citus, the shard's placement under Citus's lock: a move waits for this transaction, or has
    // moved the shard before it (then it is made elsewhere now).
    LockCitusShard(b.citus_shard, b.owner);
    Bound& locked = *const_cast<Bound*>(found);
    const int32 group = citus::PlacementGroup(b.citus_shard);
    if (group != citus::LocalGroup()) {
      char where[200], message[400];
      citus::NodeOfGroup(group, where, sizeof where);
      snprintf(message, sizeof message, "Instagram shard %lld is bound to schema %s, which moved to %s",
               static_cast<long long>(shard), quote_identifier(b.schema), where);
      locked.xact = 0;  // looked up again
      Raise(ErrorKind::kPrerequisite, message,
            "A bound shard's IDs are made only where its schema is placed, so that two nodes never make the same ID.",
            "Call idgen.instagram_id on that node, or insert into the schema's tables.");
    }
    locked.locked_xact = xact_count;
  }
  int32 s = static_cast<int32>(shard);
  *id = shard_marks::Make(b.marks, false, &s, not_before_ms);
  return true;
}

}  // namespace

bool MakeBoundId(int64_t shard, int64_t not_before_ms, int64_t* id) {
  if (shard < 0 || shard > kMaxShard) return false;  // refused by the generator (22023)
  // The common case, on every idgen.instagram_id() call: a shard this backend read as bound to no
  // schema under the same bindings (and, on Citus, in this transaction), BindingOf's first test,
  // without its frame (this test is on the path of every call: its instructions count).
  if (likely(unbound != nullptr && xact_callback)) {
    const Unbound& u = unbound[shard];
    const uint64 bindings = GeneratorState().state.shard_bindings.load(std::memory_order_acquire) + registry_changes;
    if (u.bindings == bindings + 1 && (!u.citus || u.xact == xact_count)) return false;
  }
  return MakeBoundIdSlow(shard, not_before_ms, id);
}

// idgen.instagram_shard_id(): BEFORE INSERT ... FOR EACH ROW; arguments: the ID column (default
// id) and, optionally, the column that holds the row's shard.
IDGEN_FUNCTION(idgen_instagram_shard_id) {
  if (!CALLED_AS_TRIGGER(fcinfo)) RaiseKind();
  auto* data = reinterpret_cast<TriggerData*>(fcinfo->context);
  const TriggerEvent event = data->tg_event;
  if (!TRIGGER_FIRED_BEFORE(event) || !TRIGGER_FIRED_FOR_ROW(event) || !TRIGGER_FIRED_BY_INSERT(event) ||
      data->tg_trigger->tgnargs > 2) {
    RaiseKind();
  }
  const Table& table = TableOf(data);
  Relation rel = data->tg_relation;
  const TupleDesc desc = RelationGetDescr(rel);
  HeapTuple row = data->tg_trigtuple;
  bool isnull = false;
  (void)heap_getattr(row, table.id_column, desc, &isnull);
  if (!isnull) return PointerGetDatum(row);  // an ID given by the statement is kept, as over a default
  int32 shard = -1;
  if (table.shard_column != 0) {
    const Datum value = heap_getattr(row, table.shard_column, desc, &isnull);
    if (isnull) {
      ereport(ERROR, errcode(ERRCODE_NOT_NULL_VIOLATION),
              errmsg("column \"%s\" of table %s.%s holds no shard", data->tg_trigger->tgargs[1],
                     get_namespace_name(RelationGetNamespace(rel)), RelationGetRelationName(rel)),
              errhint("Insert the row's logical shard (for a user's rows, user_id %% 2000, say) with it."));
    }
    const int64 named = ShardOfRow(table, value);
    // A shard out of range is bound to no schema (the marks table's CHECK keeps it out).
    if (named < 0 || named > kMaxShard) shard_marks::RaiseNotBound(table.marks, named);
    shard = static_cast<int32>(named);
  }
  if (!OidIsValid(table.marks)) {
    const char* schema = get_namespace_name(RelationGetNamespace(rel));
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("schema %s is not bound to one Instagram shard", quote_identifier(schema)),
            errdetail("Its table %s does not exist.", shard_marks::kTable),
            errhint("Bind it to its shard, once: SELECT idgen.bind_instagram_shard(%s, <shard>);",
                    quote_literal_cstr(schema)));
  }
  Datum id = Int64GetDatum(shard_marks::Make(table.marks, table.shard_column == 0, &shard, 0));
  int column = table.id_column;
  bool nulls[1] = {false};
  // (const only from PostgreSQL 16)
  return PointerGetDatum(heap_modify_tuple_by_cols(row, desc, 1, &column, &id, nulls));
}

// idgen.bind_instagram_shard(schema, shard): as its caller, who owns the schema.
IDGEN_FUNCTION(idgen_bind_instagram_shard) {
  const Oid schema = PG_GETARG_OID(0);
  const int32 shard = PG_GETARG_INT32(1);
  if (shard < 0 || shard > kMaxShard) {
    char message[120];
    snprintf(message, sizeof message, "shard %d is out of range for Instagram IDs", static_cast<int>(shard));
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", message),
            errhint("Instagram shards are between 0 and 8191."));
  }
  const char* name = get_namespace_name(schema);
  if (name == nullptr) {
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_SCHEMA), errmsg("schema with OID %u does not exist", schema));
  }
  if (!compat::OwnsSchema(schema, GetUserId())) {
    ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
            errmsg("must be owner of schema %s", quote_identifier(name)),
            errdetail("Binding a schema to an Instagram shard claims the shard's IDs for the schema."));
  }
  // Not the schemas of the system or of idgen, whoever asks (a superuser owns every schema: her bind
  // would make tables in idgen or information_schema).
  if (IsCatalogNamespace(schema) || IsToastNamespace(schema) || isAnyTempNamespace(schema) ||
      strcmp(name, "information_schema") == 0 || strcmp(name, "idgen") == 0) {
    ereport(
        ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
        errmsg("schema %s cannot hold an Instagram shard", quote_identifier(name)),
        errdetail("A shard is bound to a schema of the application: not to a schema of PostgreSQL's or of idgen's."),
        errhint("Bind a schema that holds the shard's tables."));
  }
  char table[2 * NAMEDATALEN + 8];
  strlcpy(table, quote_qualified_identifier(name, shard_marks::kTable), sizeof table);
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  Oid marks = get_relname_relid(shard_marks::kTable, schema);
  char sql[1200];
  if (!OidIsValid(marks)) {
    // Citus makes a table created in a distributed schema one of the schema's only at the top
    // level, not in a function: here it would stay on the coordinator, away from the schema's tables.
    if (DistributedSchema(schema)) {
      const char* literal = quote_literal_cstr(name);
      ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
              errmsg("schema %s is already distributed by Citus", quote_identifier(name)),
              errdetail("Citus adds a table created by a function to no distributed schema: the shard's table would "
                        "stay on the coordinator."),
              errhint("Bind a schema before Citus distributes it: SELECT citus_schema_undistribute(%s); SELECT "
                      "idgen.bind_instagram_shard(%s, %d); SELECT citus_schema_distribute(%s);",
                      literal, literal, static_cast<int>(shard), literal));
    }
    snprintf(sql, sizeof sql,
             "CREATE TABLE %s (shard pg_catalog.int4 NOT NULL CHECK (shard OPERATOR(pg_catalog.>=) 0 AND shard "
             "OPERATOR(pg_catalog.<=) 8191), id pg_catalog.int8 NOT NULL, mark pg_catalog.timestamptz NOT NULL, "
             "mark_server pg_catalog.int8 NOT NULL, PRIMARY KEY (shard, id))",
             table);
    Execute(sql);
    snprintf(
        sql, sizeof sql,
        "COMMENT ON TABLE %s IS 'the marks of the Instagram shards bound to this schema (idgen.bind_instagram_shard): "
        "every ID made for a shard lies before its highest mark; a row per raise (the ID that reached the marks, a "
        "mark a second beyond it, and idgen.server_instance() of the server run that wrote it)'",
        table);
    Execute(sql);
    // The schema's owner's, whoever binds (a superuser binding her schema): the trigger on her tables
    // reads only marks of their owner. A schema of pg_database_owner (public) is the database owner's.
    const Oid owner = SchemaTablesOwner(schema);
    if (owner != GetUserId()) {
      snprintf(sql, sizeof sql, "ALTER TABLE %s OWNER TO %s", table, quote_identifier(GetUserNameFromId(owner, false)));
      Execute(sql);
    }
    marks = get_relname_relid(shard_marks::kTable, schema);
  } else {
    // A table of that name that another role made there (with CREATE on the schema) is not taken
    // over: its owner could move the marks back.
    HeapTuple ns = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(schema));
    const Oid schema_owner =
        HeapTupleIsValid(ns) ? reinterpret_cast<Form_pg_namespace>(GETSTRUCT(ns))->nspowner : InvalidOid;
    if (HeapTupleIsValid(ns)) ReleaseSysCache(ns);
    if (!has_privs_of_role(OwnerOf(marks), schema_owner)) {
      ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("%s is not a table of the schema's owner", table),
              errhint("idgen_instagram_shard is made by idgen.bind_instagram_shard: drop the one there, then bind "
                      "again."));
    }
    if (get_rel_relkind(marks) != RELKIND_RELATION) {
      ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s is not a table", table),
              errhint("idgen_instagram_shard is made by idgen.bind_instagram_shard: drop the one there, then bind "
                      "again."));
    }
    // Through Citus, a row would be written by a distributed statement, whose work (on the node that
    // holds it, or in this session) idgen does not control: shards are bound before the marks are
    // distributed.
    if (citus::IsCitusTable(marks)) {
      ereport(
          ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE), errmsg("%s is a Citus table", table),
          errdetail("A shard is bound in the marks table before Citus distributes it."),
          errhint("Undistribute it (citus_schema_undistribute, or undistribute_table for a marks table distributed by "
                  "shard), bind the shards, then distribute it again."));
    }
    // A table idgen made when it bound the schema, or one of idgen 1.2 (a dump of 1.2 restored
    // since the update), converted; never one of 1.3's layout that idgen did not make.
    if (shard_marks::Check(marks) == shard_marks::Kind::kLegacy) {
      shard_marks::Convert(marks);
    } else if (!SchemaIsBound(name)) {
      ereport(ERROR, errcode(ERRCODE_DUPLICATE_TABLE), errmsg("%s exists, but idgen did not make it", table),
              errdetail("idgen makes a schema's marks table when it binds the schema's first shard, and never takes "
                        "over one made before."),
              errhint("Drop it, then bind the schema again."));
    }
  }
  (void)shard_marks::AddShard(marks, shard);
  RevokeWrites(table);
  Register(shard, name);
  SPI_finish();
  PG_RETURN_VOID();
}

}  // namespace idgen::pg::instagram_shard

namespace idgen::pg::instagram_shard {

namespace {

// Converts one marks table of 1.2 for the update: its layout, its writes, its shards registered.
void ConvertForUpdate(Oid marks, const char* schema, const char* table, int32* shards) {
  shard_marks::Convert(marks);
  RevokeWrites(table);
  const int n = shard_marks::ShardsOf(marks, shards);
  for (int j = 0; j < n; ++j) {
    Oid types[2] = {INT4OID, NAMEOID};
    NameData name;
    namestrcpy(&name, schema);
    Datum values[2] = {Int32GetDatum(shards[j]), NameGetDatum(&name)};
    if (Execute("INSERT INTO idgen.instagram_shard_schemas (shard, schema_name) VALUES ($1, $2) ON CONFLICT (shard) "
                "DO NOTHING RETURNING shard",
                2, types, values) == 0) {
      ereport(WARNING, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
              errmsg("Instagram shard %d of schema %s is bound to another schema", static_cast<int>(shards[j]),
                     quote_identifier(schema)),
              errdetail("Two schemas of one shard make the same IDs; idgen.instagram_shard_schemas names the one that "
                        "holds it."),
              errhint("Give one of them a shard of its own."));
    }
  }
}

}  // namespace

// idgen.convert_instagram_shard_marks(), which only the update from an earlier release defines,
// runs and drops: converts every marks table of idgen 1.2's layout, as 1.2 made it, to 1.3's,
// leaves its writes to its owner and registers its shards (a shard that another schema holds
// already is said in a warning). A table of 1.2's layout that is not exactly as 1.2 made it is
// left as it is, with a warning: idgen writes no mark into it.
IDGEN_FUNCTION(idgen_convert_instagram_shard_marks) {
  if (!creating_extension) {
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("idgen.convert_instagram_shard_marks() is run by ALTER EXTENSION idgen UPDATE only"));
  }
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  Execute(
      "SELECT c.oid, n.nspname, c.relkind OPERATOR(pg_catalog.=) 'r' AND pg_catalog.pg_has_role(c.relowner, "
      "n.nspowner, 'USAGE') FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) "
      "c.relnamespace WHERE c.relname OPERATOR(pg_catalog.=) 'idgen_instagram_shard' ORDER BY n.nspname");
  const uint64 count = SPI_processed;
  Oid* tables = static_cast<Oid*>(palloc(sizeof(Oid) * (count + 1)));
  char** schemas = static_cast<char**>(palloc(sizeof(char*) * (count + 1)));
  bool* owned = static_cast<bool*>(palloc(sizeof(bool) * (count + 1)));
  for (uint64 i = 0; i < count; ++i) {
    bool isnull = false;
    tables[i] = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
    schemas[i] = pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2));
    owned[i] = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 3, &isnull));
  }
  const bool worker = citus::Installed() && citus::LocalGroup() != 0;
  int32* shards = static_cast<int32*>(palloc(sizeof(int32) * (kMaxShard + 1)));
  for (uint64 i = 0; i < count; ++i) {
    // On a Citus worker the coordinator's update converts a distributed table, through Citus.
    if (worker && citus::IsCitusTable(tables[i])) continue;
    char table[2 * NAMEDATALEN + 8];
    strlcpy(table, quote_qualified_identifier(schemas[i], shard_marks::kTable), sizeof table);
    if (!owned[i]) {
      ereport(WARNING, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
              errmsg("%s is not converted to the marks of idgen 1.3", table),
              errdetail("It is not a plain table of the schema's owner."),
              errhint("idgen makes no ID under it. If it holds a shard's marks, its owner is the schema's: bind the "
                      "schema's shards again once it is."));
      continue;
    }
    shard_marks::Kind kind;
    if (const char* why = shard_marks::Unfit(tables[i], &kind)) {
      ereport(WARNING, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
              errmsg("%s is not converted to the marks of idgen 1.3", table), errdetail("%s", why),
              errhint("idgen writes no mark into it: drop what was added to it, then bind the schema's shards "
                      "again (SELECT idgen.bind_instagram_shard(...)), which converts it."));
      continue;
    }
    if (kind != shard_marks::Kind::kLegacy) continue;
    // Each table in a subtransaction of its own: what PostgreSQL refuses for one table (a view or
    // another table's foreign key on its key, a grant made by another role) leaves it unconverted,
    // with a warning, and the update goes on.
    const MemoryContext context = CurrentMemoryContext;
    const ResourceOwner owner = CurrentResourceOwner;
    BeginInternalSubTransaction(nullptr);
    MemoryContextSwitchTo(context);
    PG_TRY();
    {
      ConvertForUpdate(tables[i], schemas[i], table, shards);
      ReleaseCurrentSubTransaction();
      MemoryContextSwitchTo(context);
      CurrentResourceOwner = owner;
    }
    PG_CATCH();
    {
      MemoryContextSwitchTo(context);
      ErrorData* error = CopyErrorData();
      FlushErrorState();
      RollbackAndReleaseCurrentSubTransaction();
      MemoryContextSwitchTo(context);
      CurrentResourceOwner = owner;
      ereport(WARNING, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
              errmsg("%s is not converted to the marks of idgen 1.3", table), errdetail("%s", error->message),
              errhint("idgen writes no mark into it: undo what stands in the way, then bind the schema's shards "
                      "again (SELECT idgen.bind_instagram_shard(...)), which converts it."));
    }
    PG_END_TRY();
  }
  SPI_finish();
  PG_RETURN_VOID();
}

}  // namespace idgen::pg::instagram_shard
