// The node id of the coordinated families. With idgen.node_id_source = 'setting' (the default) it is
// idgen.node_id. With 'citus' it is the group id that Citus gave this node: the coordinator's
// group is 0, each worker's the number citus_add_node gave it (pg_dist_local_group on every node,
// pg_dist_node listing the groups of the cluster). So no operator sets node ids by hand, and no two
// nodes of a cluster share one.
//
// Citus starts every node with group 0 in pg_dist_local_group, the coordinator's: a worker that no
// coordinator added yet would make the coordinator's IDs. So a group counts as this node's only when
// pg_dist_node lists it; until then (and when Citus is not installed in this database) the
// coordinated families refuse (55000) rather than use 0.
//
// Both catalogs are read by their OIDs in pg_catalog (a schema where no role but a superuser with
// allow_system_table_mods creates relations: no search_path, no name a user could plant), with a
// catalog scan (no SQL). The result is cached per backend until Citus invalidates either relation
// (its triggers on both send a relcache invalidation on every change) or the setting changes.
#include "pg/settings/node_identity.hpp"

#include <cstdio>

#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idgen::pg {

namespace {

struct CitusIdentity {
  bool valid = false;
  Oid local_group = InvalidOid;  // pg_catalog.pg_dist_local_group, InvalidOid when absent
  Oid nodes = InvalidOid;        // pg_catalog.pg_dist_node
  int32 group = -1;              // this node's group id
  bool listed = false;           // pg_dist_node lists that group
};
CitusIdentity cached;
bool callback_registered = false;

void Invalidate(Datum, Oid relid) {
  if (relid == InvalidOid || relid == cached.local_group || relid == cached.nodes) cached.valid = false;
}

// The int4 column attno of relation rel, checked: a relation of that name that is not Citus's is
// no identity.
bool IsInt4Column(Relation rel, int attno) {
  const TupleDesc desc = RelationGetDescr(rel);
  return desc->natts >= attno && TupleDescAttr(desc, attno - 1)->atttypid == INT4OID &&
         !TupleDescAttr(desc, attno - 1)->attisdropped;
}

// Calls each(group) for the int4 column attno of every row of the relation, until it returns true.
template <typename Each>
bool ScanGroups(Oid relid, int attno, Each each) {
  Relation rel = table_open(relid, AccessShareLock);
  bool found = false;
  if (IsInt4Column(rel, attno)) {
    SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, nullptr, 0, nullptr);
    HeapTuple tuple;
    while (!found && HeapTupleIsValid(tuple = systable_getnext(scan))) {
      bool isnull = false;
      const Datum value = heap_getattr(tuple, attno, RelationGetDescr(rel), &isnull);
      if (!isnull) found = each(DatumGetInt32(value));
    }
    systable_endscan(scan);
  }
  table_close(rel, AccessShareLock);
  return found;
}

const CitusIdentity& ReadCitus() {
  if (!callback_registered) {
    OnRelationChange(Invalidate);
    callback_registered = true;
  }
  if (cached.valid) return cached;
  CitusIdentity now;
  now.local_group = get_relname_relid("pg_dist_local_group", PG_CATALOG_NAMESPACE);
  now.nodes = get_relname_relid("pg_dist_node", PG_CATALOG_NAMESPACE);
  if (OidIsValid(now.local_group) && OidIsValid(now.nodes)) {
    ScanGroups(now.local_group, 1, [&](int32 group) {
      now.group = group;
      return true;
    });
    if (now.group >= 0) now.listed = ScanGroups(now.nodes, 2, [&](int32 group) { return group == now.group; });
  }
  // Only a found identity is kept: a CREATE EXTENSION citus later in this session makes relations
  // whose invalidations name no cached OID, so an absent one is looked up again at the next call
  // (which refuses in any case: no hot path).
  now.valid = OidIsValid(now.local_group) && OidIsValid(now.nodes);
  cached = now;
  return cached;
}

int64_t CitusNodeId(const Layout& layout) {
  const CitusIdentity& citus = ReadCitus();
  char message[200], detail[400], hint[400];
  if (!OidIsValid(citus.local_group) || !OidIsValid(citus.nodes)) {
    const char* db = get_database_name(MyDatabaseId);
    snprintf(message, sizeof message, "idgen.node_id_source is \"citus\" but Citus is not installed in database \"%s\"",
             db != nullptr ? db : "?");
    snprintf(detail, sizeof detail, "%s IDs take this node's Citus group id (pg_dist_local_group), which it lacks.",
             layout.title);
    Raise(ErrorKind::kPrerequisite, message, detail,
          "Preload citus before idgen (shared_preload_libraries = 'citus,idgen') and CREATE EXTENSION citus in this "
          "database, or set idgen.node_id_source = 'setting' and give this server its own idgen.node_id.");
  }
  if (citus.group < 0 || !citus.listed) {
    snprintf(message, sizeof message, "this Citus node has no node identity yet: %s IDs are refused", layout.title);
    snprintf(detail, sizeof detail,
             "Its group id in pg_dist_local_group is %d, and pg_dist_node lists no node of that group: every Citus "
             "node starts with the coordinator's group 0 until it joins a cluster.",
             static_cast<int>(citus.group));
    Raise(ErrorKind::kPrerequisite, message, detail,
          "On the coordinator, run SELECT citus_set_coordinator_host(host, port) for the coordinator and SELECT "
          "citus_add_node(host, port) for each worker; a worker takes its group id when it is added.");
  }
  if (citus.group > layout.max_node()) {
    snprintf(message, sizeof message, "this node's Citus group id %d does not fit %s IDs",
             static_cast<int>(citus.group), layout.title);
    snprintf(detail, sizeof detail, "%s IDs hold a %u-bit %s: 0 to %lld (idgen.node_id_source is \"citus\").",
             layout.title, layout.node_bits, layout.node_field, static_cast<long long>(layout.max_node()));
    snprintf(hint, sizeof hint,
             "Use a family with a wider node field on this cluster (Sonyflake or TraceId: 0 to 65535), or set "
             "idgen.node_id_source = 'setting' and give every node its own idgen.node_id from 0 to %lld.",
             static_cast<long long>(layout.max_node()));
    Raise(ErrorKind::kPrerequisite, message, detail, hint);
  }
  return citus.group;
}

}  // namespace

int64_t NodeIdSlow(const Layout& layout) {
  if (settings::node_id_source == settings::kNodeIdFromCitus) return CitusNodeId(layout);
  const int64_t node = settings::node_id;
  if (node > layout.max_node()) {
    char message[160], detail[320], hint[320];
    snprintf(message, sizeof message, "idgen.node_id %lld does not fit %s IDs", static_cast<long long>(node),
             layout.title);
    snprintf(detail, sizeof detail, "%s IDs hold a %u-bit %s: 0 to %lld.", layout.title, layout.node_bits,
             layout.node_field, static_cast<long long>(layout.max_node()));
    snprintf(hint, sizeof hint, "Give this server an idgen.node_id from 0 to %lld.",
             static_cast<long long>(layout.max_node()));
    Raise(ErrorKind::kPrerequisite, message, detail, hint);
  }
  return node;
}

}  // namespace idgen::pg
