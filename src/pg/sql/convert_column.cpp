// idgen.column_max(tbl, col): the largest value of a bigint column, which idgen.convert_column
// needs above every new ID. Read from the heap of the table and of every table that inherits from it
// or is its partition, as committed now (and as this transaction changed it), never through a query: planning a query
// on a table folds its owner's immutable functions (in an index's expression or predicate, a statistics object), which
// would run in the session of whoever converts the column (a superuser among them). A Citus table's rows are on its
// nodes: its maximum is a distributed query, run only when the caller is the table's owner itself.
#include "pg/settings/citus_meta.hpp"
#include "pg/compat.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
}

namespace idgen::pg {

namespace {

// The maximum through a distributed query, as the table's owner runs it.
bool CitusMax(Oid relid, const char* column, int64* max) {
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  const char* sql =
      psprintf("SELECT pg_catalog.max(%s) FROM %s", quote_identifier(column),
               quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid)));
  if (SPI_execute(sql, true, 1) != SPI_OK_SELECT) elog(ERROR, "could not read the maximum of column \"%s\"", column);
  bool isnull = true;
  const Datum value = SPI_processed > 0 ? SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull) : 0;
  if (!isnull) *max = DatumGetInt64(value);
  SPI_finish();
  return !isnull;
}

}  // namespace

IDGEN_FUNCTION(idgen_column_max) {
  const Oid relid = PG_GETARG_OID(0);
  const char* column = NameStr(*PG_GETARG_NAME(1));
  Relation rel = try_relation_open(relid, AccessShareLock);
  if (rel == nullptr) {
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE), errmsg("relation with OID %u does not exist", relid));
  }
  const char kind = rel->rd_rel->relkind;
  const Oid owner = rel->rd_rel->relowner;
  const char* name = RelationGetRelationName(rel);
  if (kind != RELKIND_RELATION && kind != RELKIND_PARTITIONED_TABLE) {
    ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s is not a table", name),
            errhint("Convert the column of the table that holds the rows."));
  }
  const AttrNumber attnum = get_attnum(relid, column);
  if (attnum == InvalidAttrNumber) {
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN), errmsg("column \"%s\" of %s does not exist", column, name));
  }
  if (get_atttype(relid, attnum) != INT8OID) {
    ereport(ERROR, errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("column \"%s\" of %s is not bigint", column, name));
  }
  // A virtual generated column (PostgreSQL 18 on) has no value in the heap.
  if (TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attgenerated == 'v') {
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("column \"%s\" of %s is a virtual generated column", column, name));
  }
  // As a query would: the caller reaches the table's schema and reads the column, and no policy
  // hides rows from it.
  if (!compat::HasSchemaUsage(RelationGetNamespace(rel), GetUserId())) {
    aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_SCHEMA, get_namespace_name(RelationGetNamespace(rel)));
  }
  if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
      pg_attribute_aclcheck(relid, attnum, GetUserId(), ACL_SELECT) != ACLCHECK_OK) {
    aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype(kind), name);
  }
  if (check_enable_rls(relid, InvalidOid, false) == RLS_ENABLED) {
    ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
            errmsg("row-level security hides rows of %s from role %s", name, GetUserNameFromId(GetUserId(), false)),
            errdetail("New IDs must start above every existing value, the hidden ones too."));
  }
  bool found = false;
  int64 max = 0;
  if (citus::IsCitusTable(relid)) {
    if (GetUserId() != owner) {
      ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
              errmsg("the maximum of a Citus table is read by its owner only"),
              errdetail("Reading it is a distributed query, which would run what the owner attached to the table in "
                        "this session."),
              errhint("Run idgen.convert_column as the table's owner (SET ROLE %s).",
                      quote_identifier(GetUserNameFromId(owner, false))));
    }
    found = CitusMax(relid, column, &max);
  } else {
    // The rows committed now, not those of the transaction's snapshot: convert_column locked the
    // table against new rows first, and a REPEATABLE READ snapshot taken before the lock would miss
    // the rows committed between the two.
    Snapshot snapshot = RegisterSnapshot(GetLatestSnapshot());
    List* tables = find_all_inheritors(relid, AccessShareLock, nullptr);
    ListCell* cell;
    foreach (cell, tables) {
      const Oid child = lfirst_oid(cell);
      Relation table = table_open(child, NoLock);
      const char child_kind = table->rd_rel->relkind;
      if (child_kind == RELKIND_FOREIGN_TABLE) {
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("%s has a foreign table among its partitions or children", name),
                errdetail("The rows of %s lie on another server.", RelationGetRelationName(table)));
      }
      if (child_kind == RELKIND_RELATION) {
        const AttrNumber at = get_attnum(child, column);
        TableScanDesc scan = compat::BeginTableScan(table, snapshot);
        TupleTableSlot* slot = table_slot_create(table, nullptr);
        while (table_scan_getnextslot(scan, ForwardScanDirection, slot)) {
          bool isnull = true;
          const Datum value = slot_getattr(slot, at, &isnull);
          if (isnull) continue;
          const int64 v = DatumGetInt64(value);
          if (!found || v > max) max = v;
          found = true;
        }
        ExecDropSingleTupleTableSlot(slot);
        table_endscan(scan);
      }
      table_close(table, NoLock);
    }
    UnregisterSnapshot(snapshot);
  }
  relation_close(rel, NoLock);
  if (!found) PG_RETURN_NULL();
  PG_RETURN_INT64(max);
}

}  // namespace idgen::pg
