// Values a COPY brings: a table moved from another server (pg_dump -t, a restore that leaves out
// idgen's own copy, psql's \copy) carries IDs that this server may make again, and no copy of the
// durable mark says so. After a COPY FROM that gives the values of a column whose default is a
// coordinated generator of the 64-bit layouts, UID20 or DecimalId, the column is read once (the
// table and its partitions, every row version, from the pages: nothing of the table's owner runs)
// and what its values hold joins this database's copy (engine::HoldMovedValues): the next value of
// each family waits for them or refuses, where its part meets theirs. UUIDv7, ULID, typeid and ns_id
// carry random bits that no later value repeats: a moved table of those is not read.
#include "pg/effects/moved.hpp"

#include <cstring>

#include "core/decimal_id.hpp"
#include "core/identity.hpp"
#include "core/uid20.hpp"
#include "pg/family.hpp"
#include "pg/effects/mark.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "access/genam.h"
#include "access/heapam.h"
#include "access/relation.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_inherits.h"
#include "commands/extension.h"
#include "nodes/nodeFuncs.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
}

namespace idgen::pg::moved {

namespace {

ProcessUtility_hook_type previous_hook = nullptr;

// The family a column's default makes (kFamilyCount: none of these), by the function it calls in
// idgen's schema, under the casts and domains around it.
Family FamilyOfDefault(Node* expr, Oid schema) {
  while (expr != nullptr) {
    if (IsA(expr, RelabelType)) {
      expr = reinterpret_cast<Node*>(reinterpret_cast<RelabelType*>(expr)->arg);
    } else if (IsA(expr, CoerceToDomain)) {
      expr = reinterpret_cast<Node*>(reinterpret_cast<CoerceToDomain*>(expr)->arg);
    } else {
      break;
    }
  }
  if (expr == nullptr || !IsA(expr, FuncExpr)) return kFamilyCount;
  const Oid function = reinterpret_cast<FuncExpr*>(expr)->funcid;
  if (get_func_namespace(function) != schema) return kFamilyCount;
  const char* name = get_func_name(function);
  if (name == nullptr) return kFamilyCount;
  struct Named {
    const char* name;
    Family family;
  };
  static constexpr Named kNamed[] = {
      {"snowflake_id", kFamilySnowflake}, {"sonyflake_id", kFamilySonyflake},
      {"trace_id", kFamilyTrace},         {"js_id", kFamilyJs},
      {"instagram_id", kFamilyInstagram}, {"uid20", kFamilyUid20},
      {"uid20_sec", kFamilyUid20Sec},     {"decimal_id", kFamilyDecimalId},
  };
  for (const Named& n : kNamed) {
    if (strcmp(n.name, name) == 0) return n.family;
  }
  return kFamilyCount;
}

// What a column's values hold: the latest instant and the parts (the DecimalIds of this server's
// launch id: the largest generator id).
struct Held {
  bool any = false;
  uint64_t ms = 0;
  identity::Parts parts = identity::NoParts();
  int64_t generator = -1;
};

void Take(Family family, int64_t id, int64_t now_ms, Held* held) {
  if (id <= 0) return;  // (no ID of these families)
  if (family == kFamilyDecimalId) {
    const int64_t launch = id % decimal_id::kGeneratorUnit;
    if (launch != settings::launch_id || id / decimal_id::kCounterUnit == 0) return;
    held->generator = std::max(held->generator, id / decimal_id::kGeneratorUnit % decimal_id::kGeneratorUnit);
    held->any = true;
    return;
  }
  uint64_t ms;
  if (family == kFamilyUid20 || family == kFamilyUid20Sec) {
    const uid20::Variant& v = family == kFamilyUid20 ? uid20::kMillis : uid20::kSeconds;
    const uid20::Parts p = uid20::Decompose(v, settings::EpochMs(family), static_cast<uid20::Value>(id));
    ms = static_cast<uint64_t>(std::max<int64_t>(p.unix_ms + v.unit_ms - 1, 0));
    held->parts.digits = static_cast<uint16_t>(held->parts.digits | 1u << p.server);
  } else {
    const Layout& layout = *kLayouts[family];
    const auto bits = static_cast<uint64_t>(id);
    if (!layout.time_wraps && (bits >> layout.time_shift()) > (uint64_t{1} << layout.time_bits) - 1) return;
    const layout::Parts p = layout::Decompose(layout, settings::EpochMs(family), id, now_ms);
    ms = static_cast<uint64_t>(std::max<int64_t>(p.unix_ms + layout.unit_ms - 1, 0));
    identity::Ranges& ranges = family == kFamilyInstagram ? held->parts.shards : held->parts.nodes;
    (void)ranges.Add(static_cast<uint32_t>(p.node), static_cast<uint32_t>(p.node));
  }
  held->ms = std::max(held->ms, ms);
  held->any = true;
}

// Reads the column of one relation (a table, or a leaf partition), every row version.
void ReadColumn(Oid relid, const char* column, Family family, int64_t now_ms, Held* held) {
  Relation rel = relation_open(relid, AccessShareLock);
  const AttrNumber attnum = get_attnum(relid, column);
  if (attnum == InvalidAttrNumber || !RELKIND_HAS_STORAGE(rel->rd_rel->relkind) ||
      TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid != INT8OID) {
    relation_close(rel, AccessShareLock);
    return;
  }
  // (a sequential scan of the table's pages, as the catalogs' own scans are made: no index, no
  // function of the table's owner)
  SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, SnapshotAny, 0, nullptr);
  HeapTuple tuple;
  while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
    bool isnull = true;
    const Datum value = heap_getattr(tuple, attnum, RelationGetDescr(rel), &isnull);
    if (!isnull) Take(family, DatumGetInt64(value), now_ms, held);
  }
  systable_endscan(scan);
  relation_close(rel, AccessShareLock);
}

void AfterCopy(CopyStmt* copy) {
  if (!copy->is_from || copy->relation == nullptr || RecoveryInProgress()) return;
  const Oid extension = get_extension_oid("idgen", true);
  if (!OidIsValid(extension)) return;
  const StateRef ref = GeneratorState();
  if (!ref.shared) return;  // (no durable marks here: the families refuse)
  const Oid relid = RangeVarGetRelid(copy->relation, NoLock, true);
  if (!OidIsValid(relid)) return;
  const Oid schema = get_namespace_oid("idgen", true);  // (the extension's, which it always makes)
  Relation rel = relation_open(relid, AccessShareLock);
  const TupleDesc desc = RelationGetDescr(rel);
  struct Column {
    char name[NAMEDATALEN];
    Family family;
  };
  Column columns[8];
  int count = 0;
  for (int i = 0; desc->constr != nullptr && i < desc->constr->num_defval && count < 8; ++i) {
    const AttrDefault& def = desc->constr->defval[i];
    const char* name = NameStr(TupleDescAttr(desc, def.adnum - 1)->attname);
    bool given = copy->attlist == NIL;
    ListCell* cell;
    foreach (cell, copy->attlist) {
      given = given || strcmp(strVal(lfirst(cell)), name) == 0;
    }
    if (!given) continue;
    const Family family = FamilyOfDefault(static_cast<Node*>(stringToNode(def.adbin)), schema);
    if (family == kFamilyCount) continue;
    strlcpy(columns[count].name, name, NAMEDATALEN);
    columns[count++].family = family;
  }
  relation_close(rel, AccessShareLock);
  if (count == 0) return;
  List* leaves = find_all_inheritors(relid, AccessShareLock, nullptr);
  const auto now_ms = static_cast<int64_t>(marks::NowMs());
  for (int c = 0; c < count; ++c) {
    Held held;
    ListCell* cell;
    foreach (cell, leaves) {
      ReadColumn(lfirst_oid(cell), columns[c].name, columns[c].family, now_ms, &held);
    }
    if (!held.any) continue;
    if (columns[c].family == kFamilyDecimalId) {
      marks::HoldMovedDecimalIds(ref, settings::launch_id, held.generator);
    } else {
      marks::HoldMovedValues(ref, static_cast<protocol::Kin>(marks::KinOf(columns[c].family)), held.ms, held.parts);
    }
  }
}

void OnUtility(PlannedStmt* pstmt, const char* query, bool read_only_tree, ProcessUtilityContext context,
               ParamListInfo params, QueryEnvironment* env, DestReceiver* dest, QueryCompletion* qc) {
  if (previous_hook != nullptr) {
    previous_hook(pstmt, query, read_only_tree, context, params, env, dest, qc);
  } else {
    standard_ProcessUtility(pstmt, query, read_only_tree, context, params, env, dest, qc);
  }
  if (IsA(pstmt->utilityStmt, CopyStmt)) AfterCopy(reinterpret_cast<CopyStmt*>(pstmt->utilityStmt));
}

}  // namespace

void InstallCopyHook() {
  previous_hook = ProcessUtility_hook;
  ProcessUtility_hook = OnUtility;
}

}  // namespace idgen::pg::moved
