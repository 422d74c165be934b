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
#include "pg/sql/instagram_shard.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>

#include "core/protocol.hpp"
#include "pg/settings/citus_meta.hpp"
#include "pg/compat.hpp"
#include "pg/effects/mark.hpp"
#include "pg/pg.hpp"
#include "pg/sql/shard_marks.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
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
  OnRelationChange(ForgetTables);
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
      // An integer, however long, is a shard (out of range: 22023, as for an integer column);
      // anything else is 22P02, as a cast says.
      const char* p = text;
      while (isspace(static_cast<unsigned char>(*p))) ++p;
      const bool negative = *p == '-';
      if (*p == '-' || *p == '+') ++p;
      const char* digits = p;
      while (isdigit(static_cast<unsigned char>(*p))) ++p;
      const char* end = p;
      while (isspace(static_cast<unsigned char>(*p))) ++p;
      if (end == digits || *p != '\0') {
        shard = pg_strtoint32(text);
      } else {
        while (*digits == '0' && end - digits > 1) ++digits;
        if (end - digits > 18) {
          ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("shard %s is out of range for Instagram IDs", text),
                  errdetail("Instagram shards are between 0 and 8191."));
        }
        shard = strtoll(digits, nullptr, 10);
        if (negative) shard = -shard;
      }
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
// A shard's row of the registry, as read here.
struct Row {
  bool found;
  bool own;  // its OID was written in this database (oid_space): the OID decides, else the name
  Oid oid;
  char name[NAMEDATALEN];
};
struct Bound {
  int32 shard;       // the key
  bool read;         // the registry's row was read
  uint64 bindings;   // ... under this value of the shared counter
  uint64 read_xact;  // ... in this transaction (Citus)
  uint64 xact;       // the lookups below were made in this transaction (0: never)
  Row row;
  Binding binding;
  Oid marks;
  int64 citus_shard;         // on Citus: the shard of the marks that holds it (0: not a Citus table)
  Oid owner;                 // ... and its owner
  uint64 locked_xact;        // the transaction that holds Citus's lock on it
  char schema[NAMEDATALEN];  // its name now
  char where[200];
};
HTAB* bound = nullptr;  // the shards this backend found bound
// The shards it found unbound: a byte per shard, good under one value of the counter (and, on
// Citus, in one transaction); a new value clears them all. What idgen.instagram_id(shard) of an
// unbound shard checks on every call: three loads. (8 kB, where the counter per shard it once
// kept held 196 kB in every backend that ever called it.)
struct Unbound {
  uint64 bindings;  // the counter + 1 the bytes were read under (0: none read)
  uint64 xact;
  bool citus;                  // read on a Citus node: good for its transaction only (making the registry a Citus
                               // table invalidates it on every node, which changes `bindings`)
  uint8 known[kMaxShard + 1];  // 1: read as bound to no schema
};
Unbound unbound;
uint64 xact_count = 1;
bool xact_callback = false;
// The counter of bindings that this transaction bumps when it commits (it bound a shard), found
// when it bound: a commit callback runs after the commit record, where nothing may fail (finding
// the shared state may attach a segment, which can).
std::atomic<uint64>* bound_in_xact = nullptr;

void NextXact(XactEvent event, void*) {
  if (event == XACT_EVENT_COMMIT && bound_in_xact != nullptr) {
    bound_in_xact->fetch_add(1, std::memory_order_acq_rel);
  }
  if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT || event == XACT_EVENT_PREPARE ||
      event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT) {
    ++xact_count;
    bound_in_xact = nullptr;
  }
}

void Setup() {
  if (bound == nullptr) {
    HASHCTL ctl = {};
    ctl.keysize = sizeof(int32);
    ctl.entrysize = sizeof(Bound);
    bound = hash_create("idgen instagram shard bindings", 16, &ctl, HASH_ELEM | HASH_BLOBS);
  }
  if (!xact_callback) {
    RegisterXactCallback(NextXact, nullptr);
    xact_callback = true;
  }
}

// The space of the schema OIDs that this database writes into the registry: this cluster (its
// system identifier: a pg_basebackup clone shares it, with the same OIDs; initdb, so pg_upgrade,
// and every Citus node make their own), this database, and the registry table itself (made anew
// when a dump is restored, even into the database it came from, whose schemas have new OIDs).
int64 OidSpace(Oid registry_relid) {
  uint64 space = GetSystemIdentifier();
  space ^= (static_cast<uint64>(MyDatabaseId) + UINT64CONST(0x9E3779B97F4A7C15)) * UINT64CONST(0xBF58476D1CE4E5B9);
  space ^= (static_cast<uint64>(registry_relid) + UINT64CONST(0x94D049BB133111EB)) * UINT64CONST(0x9E3779B97F4A7C15);
  return static_cast<int64>(space);
}

// Which schema holds a registry row's shard here (protocol::DecideShardHolder says which rule).
enum class Held : uint8 { kNone, kSchema, kUnknown };
Held HolderOf(const Row& row, Oid* schema) {
  *schema = InvalidOid;
  protocol::ShardRow in;
  in.found = row.found;
  if (!row.found) return Held::kNone;
  in.own = row.own;
  in.oid_exists = row.own && SearchSysCacheExists1(NAMESPACEOID, ObjectIdGetDatum(row.oid));
  const Oid named = get_namespace_oid(row.name, true);
  in.named_exists = OidIsValid(named);
  in.named_has_marks = in.named_exists && OidIsValid(get_relname_relid(shard_marks::kTable, named));
  switch (protocol::DecideShardHolder(in)) {
    case protocol::ShardHolder::kByOid:
      *schema = row.oid;
      return Held::kSchema;
    case protocol::ShardHolder::kByName:
      *schema = named;
      return Held::kSchema;
    case protocol::ShardHolder::kUnknown:
      return Held::kUnknown;
    case protocol::ShardHolder::kNone:
      break;
  }
  return Held::kNone;
}

[[noreturn]] void RaiseHolderNotFound(int32 shard, const char* name) {
  char message[300], hint[600];
  snprintf(message, sizeof message, "Instagram shard %d is bound to schema %s, which this node does not find",
           static_cast<int>(shard), quote_identifier(name));
  snprintf(hint, sizeof hint,
           "Bind the schema that holds the shard again, under its name now (on Citus, on the coordinator): SELECT "
           "idgen.bind_instagram_shard('<schema>', %d); if it was dropped, a superuser deletes the binding: DELETE "
           "FROM idgen.instagram_shard_schemas WHERE shard = %d;",
           static_cast<int>(shard), static_cast<int>(shard));
  Raise(ErrorKind::kPrerequisite, message,
        "The binding was written where the schema's OID meant another schema (a Citus coordinator, a cluster dumped "
        "or upgraded since), and no schema has its name here: it was renamed or dropped.",
        hint);
}

// The registry's row of a shard (row->found: there is one), by the registry's rows here.
void ReadRow(int32 shard, Row* row) {
  memset(row, 0, sizeof *row);
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
    const TupleDesc desc = RelationGetDescr(rel);
    while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
      bool isnull = false;
      const Datum s = heap_getattr(tuple, 1, desc, &isnull);
      if (isnull || DatumGetInt32(s) != shard) continue;
      const Datum name = heap_getattr(tuple, 2, desc, &isnull);
      if (isnull) break;
      row->found = true;
      strlcpy(row->name, NameStr(*DatumGetName(name)), NAMEDATALEN);
      bool oid_null = true, space_null = true;
      const Datum oid = desc->natts >= 4 ? heap_getattr(tuple, 3, desc, &oid_null) : 0;
      const Datum space = desc->natts >= 4 ? heap_getattr(tuple, 4, desc, &space_null) : 0;
      row->oid = oid_null ? InvalidOid : DatumGetObjectId(oid);
      row->own = !oid_null && !space_null && DatumGetInt64(space) == OidSpace(registry.relid);
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

Oid SchemaTablesOwner(Oid schema);

bool KnownUnbound(int32 shard, uint64 bindings) {
  return unbound.bindings == bindings + 1 && unbound.known[shard] != 0 &&
         (!unbound.citus || unbound.xact == xact_count);
}

// Remembers whether a shard is bound (under this counter and transaction).
void SetUnbound(int32 shard, uint64 bindings, bool citus, bool is_unbound) {
  if (unbound.bindings != bindings + 1 || unbound.citus != citus || (citus && unbound.xact != xact_count)) {
    memset(unbound.known, 0, sizeof unbound.known);
    unbound.bindings = bindings + 1;
    unbound.xact = xact_count;
    unbound.citus = citus;
  }
  unbound.known[shard] = is_unbound ? 1 : 0;
}

// The binding of a shard: nullptr when it is bound to no schema.
const Bound* BindingOf(int32 shard) {
  Setup();
  const uint64 bindings = GeneratorState().state.shard_bindings.load(std::memory_order_acquire) + registry_changes;
  if (KnownUnbound(shard, bindings)) return nullptr;
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
    ReadRow(shard, &b.row);
    b.read = true;
    b.bindings = bindings;
    b.read_xact = xact_count;
  }
  SetUnbound(shard, bindings, citus, !b.row.found);
  if (!b.row.found) return nullptr;
  if (b.xact == xact_count) return b.binding == Binding::kUnbound ? nullptr : &b;
  b.binding = Binding::kUnbound;
  b.citus_shard = 0;
  Oid schema;
  const Held held = HolderOf(b.row, &schema);
  if (held == Held::kUnknown) RaiseHolderNotFound(shard, b.row.name);
  // A binding whose schema was dropped binds nothing any more.
  if (held == Held::kSchema) {
    const char* name = get_namespace_name(schema);
    strlcpy(b.schema, name != nullptr ? name : b.row.name, sizeof b.schema);
    const Oid marks = get_relname_relid(shard_marks::kTable, schema);
    // A schema that lost its marks table lost what kept the shard's IDs above those made before:
    // refused, as the trigger on its tables refuses, never taken as unbound.
    if (!OidIsValid(marks)) {
      char message[300], hint[500];
      snprintf(message, sizeof message, "Instagram shard %d is bound to schema %s, which has no table %s",
               static_cast<int>(shard), quote_identifier(b.schema), shard_marks::kTable);
      snprintf(hint, sizeof hint,
               "Restore %s.%s from a backup, or bind the schema again, which makes an empty one: SELECT "
               "idgen.bind_instagram_shard(%s, %d);",
               quote_identifier(b.schema), shard_marks::kTable, quote_literal_cstr(quote_identifier(b.schema)),
               static_cast<int>(shard));
      Raise(ErrorKind::kPrerequisite, message,
            "The shard's marks, which keep its new IDs above those made before, are gone with it.", hint);
    }
    b.binding = Binding::kHere;
    b.marks = marks;
    // Only a plain table of the schema's owner holds its marks (as bind made it): another role's
    // would let that role move them back.
    if (get_rel_relkind(marks) != RELKIND_RELATION || !has_privs_of_role(OwnerOf(marks), SchemaTablesOwner(schema))) {
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

// The registry's relation (the table, on Citus too) in this database, and its OID space.
Oid RegistryTable(int64* space) {
  const Oid idgen = get_namespace_oid("idgen", false);
  const Oid relid = get_relname_relid(kRegistry, idgen);
  if (!OidIsValid(relid)) {
    Raise(ErrorKind::kPrerequisite, "idgen.instagram_shard_schemas does not exist in this database", "",
          "Run ALTER EXTENSION idgen UPDATE in this database.");
  }
  *space = OidSpace(relid);
  return relid;
}

// The row of the i-th result of a query of (schema_name, schema_oid, oid_space), in this space.
Row RowOfResult(uint64 i, int64 space) {
  Row row{};
  bool isnull = true;
  const Datum name = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);
  if (isnull) return row;
  row.found = true;
  strlcpy(row.name, NameStr(*DatumGetName(name)), NAMEDATALEN);
  bool oid_null = true, space_null = true;
  const Datum oid = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &oid_null);
  const Datum written = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 3, &space_null);
  row.oid = oid_null ? InvalidOid : DatumGetObjectId(oid);
  row.own = !oid_null && !space_null && DatumGetInt64(written) == space;
  return row;
}

// Whether the registry binds a shard to the schema (by its OID, or its name where the OID means
// nothing), or a shard that its marks table holds to a schema found nowhere (written elsewhere, and
// renamed since: this one): its marks table is one that idgen made.
bool SchemaIsBound(Oid schema, const char* schema_name, Oid marks) {
  int64 space;
  (void)RegistryTable(&space);
  Oid types[2] = {OIDOID, NAMEOID};
  NameData name;
  namestrcpy(&name, schema_name);
  Datum values[2] = {ObjectIdGetDatum(schema), NameGetDatum(&name)};
  const uint64 n = Execute(
      "SELECT schema_name, schema_oid, oid_space FROM idgen.instagram_shard_schemas WHERE schema_oid "
      "OPERATOR(pg_catalog.=) $1 OR schema_name OPERATOR(pg_catalog.=) $2",
      2, types, values);
  for (uint64 i = 0; i < n; ++i) {
    Oid holder;
    const Row row = RowOfResult(i, space);
    if (HolderOf(row, &holder) == Held::kSchema && holder == schema) return true;
  }
  Oid types_space[1] = {INT8OID};
  Datum values_space[1] = {Int64GetDatum(space)};
  const uint64 foreign = Execute(
      "SELECT schema_name, schema_oid, oid_space, shard FROM idgen.instagram_shard_schemas WHERE oid_space "
      "OPERATOR(pg_catalog.<>) $1",
      1, types_space, values_space);
  if (foreign == 0) return false;
  SPITupleTable* rows = SPI_tuptable;
  bool* unknown = static_cast<bool*>(palloc0(sizeof(bool) * (kMaxShard + 1)));
  for (uint64 i = 0; i < foreign; ++i) {
    Oid holder;
    const Row row = RowOfResult(i, space);
    bool isnull = true;
    const int32 shard = DatumGetInt32(SPI_getbinval(rows->vals[i], rows->tupdesc, 4, &isnull));
    if (!isnull && shard >= 0 && shard <= kMaxShard && HolderOf(row, &holder) == Held::kUnknown) unknown[shard] = true;
  }
  int32* shards = static_cast<int32*>(palloc(sizeof(int32) * (kMaxShard + 1)));
  const int count = shard_marks::ShardsOf(marks, shards);
  for (int i = 0; i < count; ++i) {
    if (unknown[shards[i]]) return true;
  }
  return false;
}

// Whether the registry binds this shard to the schema already.
bool HoldsShard(int32 shard, Oid schema) {
  int64 space;
  (void)RegistryTable(&space);
  Oid types[1] = {INT4OID};
  Datum values[1] = {Int32GetDatum(shard)};
  if (Execute("SELECT schema_name, schema_oid, oid_space FROM idgen.instagram_shard_schemas WHERE shard "
              "OPERATOR(pg_catalog.=) $1",
              1, types, values) == 0) {
    return false;
  }
  Oid holder;
  return HolderOf(RowOfResult(0, space), &holder) == Held::kSchema && holder == schema;
}

// Binds the shard in the registry (as the registry's owner: no one else writes it), by the schema's
// OID and name, refusing a shard that another existing schema holds, under whatever name. Binding
// the schema that holds it again writes its name now, and its OID in this database's space (a row
// written elsewhere: a restored dump, a pg_upgrade). held_before: the schema's marks held the shard
// before this call (a row that names a schema found nowhere is then this schema's, renamed). On
// Citus the registry is a reference table, made one here on the first binding, so that every node
// reads every binding.
void Register(int32 shard, Oid schema, const char* schema_name, bool held_before) {
  int64 space;
  const Oid registry = RegistryTable(&space);
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
  bound_in_xact = &GeneratorState().state.shard_bindings;
  Oid types[4] = {INT4OID, NAMEOID, OIDOID, INT8OID};
  NameData name;
  namestrcpy(&name, schema_name);
  Datum values[4] = {Int32GetDatum(shard), NameGetDatum(&name), ObjectIdGetDatum(schema), Int64GetDatum(space)};
  if (Execute("INSERT INTO idgen.instagram_shard_schemas (shard, schema_name, schema_oid, oid_space) VALUES ($1, $2, "
              "$3, $4) ON CONFLICT (shard) DO NOTHING RETURNING shard",
              4, types, values) == 0) {
    Execute(
        "SELECT schema_name, schema_oid, oid_space FROM idgen.instagram_shard_schemas WHERE shard "
        "OPERATOR(pg_catalog.=) $1 FOR UPDATE",
        1, types, values);
    const Row row = SPI_processed > 0 ? RowOfResult(0, space) : Row{};
    Oid holder;
    const Held held = HolderOf(row, &holder);
    // Another schema that exists, under whatever name: refused. A schema that was dropped binds
    // nothing any more.
    if (held == Held::kSchema && holder != schema) {
      const char* holder_name = get_namespace_name(holder);
      if (holder_name == nullptr) holder_name = row.name;
      char message[300], detail[400], hint[400];
      snprintf(message, sizeof message, "Instagram shard %d is bound to schema %s", static_cast<int>(shard),
               quote_identifier(holder_name));
      snprintf(detail, sizeof detail,
               "A shard has one schema, whose node alone makes its IDs: two schemas of one shard would make the "
               "same IDs.");
      snprintf(hint, sizeof hint, "Bind schema %s to a shard of its own, or drop schema %s first.",
               quote_identifier(schema_name), quote_identifier(holder_name));
      Raise(ErrorKind::kPrerequisite, message, detail, hint);
    }
    if (held == Held::kUnknown && !held_before) RaiseHolderNotFound(shard, row.name);
    if (!row.own || row.oid != schema || strcmp(row.name, schema_name) != 0) {
      Execute(
          "UPDATE idgen.instagram_shard_schemas SET schema_name = $2, schema_oid = $3, oid_space = $4 WHERE shard "
          "OPERATOR(pg_catalog.=) $1",
          4, types, values);
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

void RaiseShardOutOfRange(int64_t shard) {
  char message[120];
  snprintf(message, sizeof message, "shard %lld is out of range for Instagram IDs", static_cast<long long>(shard));
  Raise(ErrorKind::kBadArgument, message, "Instagram shards are between 0 and 8191.");
}

bool MakeBoundId(int64_t shard, int64_t not_before_ms, int64_t* id) {
  if (shard < 0 || shard > kMaxShard) RaiseShardOutOfRange(shard);
  // The common case, on every idgen.instagram_id() call: a shard this backend read as bound to no
  // schema under the same bindings (and, on Citus, in this transaction), BindingOf's first test,
  // without its frame (this test is on the path of every call: its instructions count).
  if (likely(unbound.bindings != 0)) {
    const uint64 bindings = GeneratorState().state.shard_bindings.load(std::memory_order_acquire) + registry_changes;
    if (KnownUnbound(static_cast<int32>(shard), bindings)) return false;
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
    if (named < 0 || named > kMaxShard) RaiseShardOutOfRange(named);
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
  if (shard < 0 || shard > kMaxShard) RaiseShardOutOfRange(shard);
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
  // One writer of the bindings in a Citus cluster: the coordinator, whose registry rows name its
  // schemas by its OIDs. A worker's bind would write its own (its OIDs, its marks table), and a
  // shard could be bound on two nodes at once.
  if (citus::Installed() && citus::LocalGroup() != 0) {
    Raise(ErrorKind::kPrerequisite, "Instagram shards are bound on the Citus coordinator",
          "The bindings are a reference table that the coordinator writes and Citus copies to every node; a "
          "worker's binding could bind a shard on two nodes.",
          "Run idgen.bind_instagram_shard on the coordinator.");
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
    if (!has_privs_of_role(OwnerOf(marks), SchemaTablesOwner(schema))) {
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
    // distributed. The schema's shard bound again (renamed since, say) writes its binding anew.
    if (citus::IsCitusTable(marks) && HoldsShard(shard, schema)) {
      Register(shard, schema, name, true);
      SPI_finish();
      PG_RETURN_VOID();
    }
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
    } else if (!SchemaIsBound(schema, name, marks)) {
      ereport(ERROR, errcode(ERRCODE_DUPLICATE_TABLE), errmsg("%s exists, but idgen did not make it", table),
              errdetail("idgen makes a schema's marks table when it binds the schema's first shard, and never takes "
                        "over one made before."),
              errhint("Drop it, then bind the schema again."));
    }
  }
  const bool held_before = !shard_marks::AddShard(marks, shard);
  RevokeWrites(table);
  Register(shard, schema, name, held_before);
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
  int64 space;
  (void)RegistryTable(&space);
  for (int j = 0; j < n; ++j) {
    Oid types[4] = {INT4OID, NAMEOID, OIDOID, INT8OID};
    NameData name;
    namestrcpy(&name, schema);
    Datum values[4] = {Int32GetDatum(shards[j]), NameGetDatum(&name), ObjectIdGetDatum(get_rel_namespace(marks)),
                       Int64GetDatum(space)};
    if (Execute("INSERT INTO idgen.instagram_shard_schemas (shard, schema_name, schema_oid, oid_space) VALUES ($1, "
                "$2, $3, $4) ON CONFLICT (shard) DO NOTHING RETURNING shard",
                4, types, values) == 0) {
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
