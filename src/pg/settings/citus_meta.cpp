// Citus's metadata, read by catalog scans (citus_meta.hpp).
#include "pg/settings/citus_meta.hpp"

#include <cstdlib>
#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_namespace.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idgen::pg::citus {

namespace {

// The catalogs, by name in pg_catalog (where only a superuser creates relations), looked up again
// until found: CREATE EXTENSION citus may come later in the session.
struct Catalogs {
  Oid partition = InvalidOid, partition_index = InvalidOid;  // pg_dist_partition (logicalrelid)
  Oid shard = InvalidOid, shard_id_index = InvalidOid, shard_rel_index = InvalidOid;  // pg_dist_shard
  Oid placement = InvalidOid, placement_index = InvalidOid;                           // pg_dist_placement (shardid)
  Oid node = InvalidOid, local_group = InvalidOid;  // pg_dist_node, pg_dist_local_group
  bool found = false;
};
Catalogs catalogs;
bool callback_registered = false;

void Forget(Datum, Oid relid) {
  // A dropped catalog (DROP EXTENSION citus) is looked up again.
  if (relid == InvalidOid || relid == catalogs.partition || relid == catalogs.shard || relid == catalogs.placement ||
      relid == catalogs.node || relid == catalogs.local_group) {
    catalogs.found = false;
  }
}

Oid InCatalog(const char* name) { return get_relname_relid(name, PG_CATALOG_NAMESPACE); }

const Catalogs& Find() {
  if (!callback_registered) {
    OnRelationChange(Forget);
    callback_registered = true;
  }
  if (catalogs.found) return catalogs;
  Catalogs c;
  c.partition = InCatalog("pg_dist_partition");
  c.partition_index = InCatalog("pg_dist_partition_logical_relid_index");
  c.shard = InCatalog("pg_dist_shard");
  c.shard_id_index = InCatalog("pg_dist_shard_shardid_index");
  c.shard_rel_index = InCatalog("pg_dist_shard_logical_relid_index");
  c.placement = InCatalog("pg_dist_placement");
  c.placement_index = InCatalog("pg_dist_placement_shardid_index");
  c.node = InCatalog("pg_dist_node");
  c.local_group = InCatalog("pg_dist_local_group");
  c.found = OidIsValid(c.partition) && OidIsValid(c.shard) && OidIsValid(c.placement) && OidIsValid(c.node) &&
            OidIsValid(c.local_group);
  catalogs = c;
  return catalogs;
}

// The attribute number of a column of a catalog, checked against its type (0: none such).
AttrNumber Column(Relation rel, const char* name, Oid type) {
  const TupleDesc desc = RelationGetDescr(rel);
  for (int i = 0; i < desc->natts; ++i) {
    const Form_pg_attribute att = TupleDescAttr(desc, i);
    if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0) {
      return att->atttypid == type ? att->attnum : 0;
    }
  }
  return 0;
}

// Calls each(tuple, desc) for every row of the catalog whose column `key` equals value (by the
// index where it is there), until it returns true. False when a column is missing (not Citus's).
template <typename Each>
bool Scan(Oid catalog, Oid index, const char* key, Oid key_type, RegProcedure eq, Datum value, Each each) {
  Relation rel = table_open(catalog, AccessShareLock);
  const AttrNumber attno = key != nullptr ? Column(rel, key, key_type) : 0;
  bool found = false;
  if (key == nullptr || attno != 0) {
    ScanKeyData skey;
    if (key != nullptr) ScanKeyInit(&skey, attno, BTEqualStrategyNumber, eq, value);
    SysScanDesc scan = systable_beginscan(rel, index, OidIsValid(index) && key != nullptr, nullptr,
                                          key != nullptr ? 1 : 0, key != nullptr ? &skey : nullptr);
    HeapTuple tuple;
    while (!found && HeapTupleIsValid(tuple = systable_getnext(scan))) found = each(rel, tuple);
    systable_endscan(scan);
  }
  table_close(rel, AccessShareLock);
  return found;
}

// A column's value in a row of a catalog (isnull when absent or NULL).
Datum Get(Relation rel, HeapTuple tuple, const char* name, Oid type, bool* isnull) {
  const AttrNumber attno = Column(rel, name, type);
  if (attno == 0) {
    *isnull = true;
    return 0;
  }
  return heap_getattr(tuple, attno, RelationGetDescr(rel), isnull);
}

void CopyText(Relation rel, HeapTuple tuple, const char* name, char* out, size_t size, bool* present) {
  bool isnull = false;
  const Datum value = Get(rel, tuple, name, TEXTOID, &isnull);
  out[0] = '\0';
  if (!isnull) text_to_cstring_buffer(DatumGetTextPP(value), out, size);
  *present = !isnull;
}

// The row of pg_dist_shard of a shard id.
bool ReadShard(int64_t shardid, Shard* out) {
  const Catalogs& c = Find();
  return Scan(c.shard, c.shard_id_index, "shardid", INT8OID, F_INT8EQ, Int64GetDatum(shardid),
              [&](Relation rel, HeapTuple tuple) {
                bool isnull = false;
                const Datum logical = Get(rel, tuple, "logicalrelid", REGCLASSOID, &isnull);
                if (isnull) return false;
                out->id = shardid;
                out->logical = DatumGetObjectId(logical);
                bool has_min = false, has_max = false;
                CopyText(rel, tuple, "shardminvalue", out->min, sizeof out->min, &has_min);
                CopyText(rel, tuple, "shardmaxvalue", out->max, sizeof out->max, &has_max);
                out->has_range = has_min && has_max;
                return true;
              });
}

}  // namespace

bool Installed() { return Find().found; }

bool IsCitusTable(Oid relid) {
  const Catalogs& c = Find();
  if (!c.found) return false;
  return Scan(c.partition, c.partition_index, "logicalrelid", REGCLASSOID, F_OIDEQ, ObjectIdGetDatum(relid),
              [](Relation, HeapTuple) { return true; });
}

bool ShardOfRelation(Oid relid, Shard* shard) {
  if (!Installed()) return false;
  const char* name = get_rel_name(relid);
  if (name == nullptr) return false;
  const char* underscore = strrchr(name, '_');
  if (underscore == nullptr || underscore[1] == '\0') return false;
  for (const char* p = underscore + 1; *p != '\0'; ++p) {
    if (*p < '0' || *p > '9') return false;
  }
  char* end = nullptr;
  const long long id = strtoll(underscore + 1, &end, 10);
  if (id <= 0 || !ReadShard(id, shard)) return false;
  // "<table>_<shardid>" in the table's schema: the name says which table it is a shard of.
  const char* table = get_rel_name(shard->logical);
  return table != nullptr && strlen(table) == static_cast<size_t>(underscore - name) &&
         strncmp(table, name, underscore - name) == 0 && get_rel_namespace(shard->logical) == get_rel_namespace(relid);
}

bool ColocatedShard(Oid logical, const Shard& with, Shard* out) {
  const Catalogs& c = Find();
  if (!c.found) return false;
  int count = 0;
  Shard only;
  const bool found =
      Scan(c.shard, c.shard_rel_index, "logicalrelid", REGCLASSOID, F_OIDEQ, ObjectIdGetDatum(logical),
           [&](Relation rel, HeapTuple tuple) {
             bool isnull = false;
             const Datum id = Get(rel, tuple, "shardid", INT8OID, &isnull);
             if (isnull) return false;
             Shard s;
             s.id = DatumGetInt64(id);
             s.logical = logical;
             bool has_min = false, has_max = false;
             CopyText(rel, tuple, "shardminvalue", s.min, sizeof s.min, &has_min);
             CopyText(rel, tuple, "shardmaxvalue", s.max, sizeof s.max, &has_max);
             s.has_range = has_min && has_max;
             ++count;
             only = s;
             if (with.has_range && s.has_range && strcmp(s.min, with.min) == 0 && strcmp(s.max, with.max) == 0) {
               *out = s;
               return true;
             }
             return false;
           });
  if (found) return true;
  // A single-shard table (a tenant schema's, a reference table) beside another.
  if (count == 1 && !only.has_range && !with.has_range) {
    *out = only;
    return true;
  }
  return false;
}

bool ShardOfValue(Oid logical, int32 value, Shard* out) {
  const Catalogs& c = Find();
  if (!c.found) return false;
  // Citus places a row by the hash function of its distribution column's type: hashint4 here.
  const int32 hash = DatumGetInt32(DirectFunctionCall1(hashint4, Int32GetDatum(value)));
  int count = 0;
  Shard only;
  const bool found =
      Scan(c.shard, c.shard_rel_index, "logicalrelid", REGCLASSOID, F_OIDEQ, ObjectIdGetDatum(logical),
           [&](Relation rel, HeapTuple tuple) {
             bool isnull = false;
             const Datum id = Get(rel, tuple, "shardid", INT8OID, &isnull);
             if (isnull) return false;
             Shard s;
             s.id = DatumGetInt64(id);
             s.logical = logical;
             bool has_min = false, has_max = false;
             CopyText(rel, tuple, "shardminvalue", s.min, sizeof s.min, &has_min);
             CopyText(rel, tuple, "shardmaxvalue", s.max, sizeof s.max, &has_max);
             s.has_range = has_min && has_max;
             ++count;
             only = s;
             if (s.has_range && strtoll(s.min, nullptr, 10) <= hash && hash <= strtoll(s.max, nullptr, 10)) {
               *out = s;
               return true;
             }
             return false;
           });
  if (found) return true;
  if (count == 1 && !only.has_range) {
    *out = only;
    return true;
  }
  return false;
}

Oid ShardRelation(const Shard& shard) {
  const char* table = get_rel_name(shard.logical);
  if (table == nullptr) return InvalidOid;
  char name[NAMEDATALEN + 24];
  snprintf(name, sizeof name, "%s_%lld", table, static_cast<long long>(shard.id));
  if (strlen(name) >= NAMEDATALEN) return InvalidOid;  // Citus shortens such names: not one of ours
  return get_relname_relid(name, get_rel_namespace(shard.logical));
}

int32 PlacementGroup(int64_t shardid) {
  const Catalogs& c = Find();
  int32 group = -1;
  if (!c.found) return group;
  Scan(c.placement, c.placement_index, "shardid", INT8OID, F_INT8EQ, Int64GetDatum(shardid),
       [&](Relation rel, HeapTuple tuple) {
         bool isnull = false;
         const Datum g = Get(rel, tuple, "groupid", INT4OID, &isnull);
         if (!isnull) group = DatumGetInt32(g);
         return !isnull;
       });
  return group;
}

int32 LocalGroup() {
  const Catalogs& c = Find();
  int32 group = -1;
  if (!c.found) return group;
  Scan(c.local_group, InvalidOid, nullptr, InvalidOid, InvalidOid, 0, [&](Relation rel, HeapTuple tuple) {
    bool isnull = false;
    const Datum g = Get(rel, tuple, "groupid", INT4OID, &isnull);
    if (!isnull) group = DatumGetInt32(g);
    return !isnull;
  });
  return group;
}

void NodeOfGroup(int32 group, char* out, size_t size) {
  const Catalogs& c = Find();
  snprintf(out, size, "the node of Citus group %d", static_cast<int>(group));
  if (!c.found) return;
  Scan(c.node, InvalidOid, nullptr, InvalidOid, InvalidOid, 0, [&](Relation rel, HeapTuple tuple) {
    bool isnull = false;
    const Datum g = Get(rel, tuple, "groupid", INT4OID, &isnull);
    if (isnull || DatumGetInt32(g) != group) return false;
    char host[256];
    bool present = false;
    CopyText(rel, tuple, "nodename", host, sizeof host, &present);
    const Datum port = Get(rel, tuple, "nodeport", INT4OID, &isnull);
    if (!present || isnull) return false;
    snprintf(out, size, "%s:%d (Citus group %d)", host, static_cast<int>(DatumGetInt32(port)), static_cast<int>(group));
    return true;
  });
}

}  // namespace idgen::pg::citus
