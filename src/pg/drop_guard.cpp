// The drop guard (mark.hpp: CheckDropKeepsNothing) and the statement it judges. The event trigger
// idgen_drop_guard runs a PL/pgSQL function (sql/idgen--1.2--1.3.sql) so that a missing or foreign
// library never blocks an uninstall; the function calls idgen_drop_guard_check, which has no
// EventTriggerData. What the statement drops is read from the parse tree that ProcessUtility_hook
// records: the innermost utility statement under way. When this session loaded the library during
// the statement itself, the statement was not recorded, and it is checked as if it dropped idgen.
#include "pg/drop_guard.hpp"

#include <cstring>

#include "pg/mark.hpp"
#include "pg/pg.hpp"
#include "pg/shared.hpp"

extern "C" {
#include "executor/spi.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"
#include "utils/acl.h"
}

namespace idgen::pg {

namespace {

// A utility statement under way: a frame on the C stack of the hook's call, unlinked as the call
// returns or its error passes (PG_FINALLY).
struct Statement {
  Node* tree;
  Statement* outer;
};

Statement* innermost = nullptr;
ProcessUtility_hook_type previous_hook = nullptr;

void RecordStatement(PlannedStmt* pstmt, const char* query, bool read_only_tree, ProcessUtilityContext context,
                     ParamListInfo params, QueryEnvironment* env, DestReceiver* dest, QueryCompletion* qc) {
  Statement statement{pstmt->utilityStmt, innermost};
  innermost = &statement;
  PG_TRY();
  {
    if (previous_hook != nullptr) {
      previous_hook(pstmt, query, read_only_tree, context, params, env, dest, qc);
    } else {
      standard_ProcessUtility(pstmt, query, read_only_tree, context, params, env, dest, qc);
    }
  }
  PG_FINALLY();
  { innermost = statement.outer; }
  PG_END_TRY();
}

Oid ExtensionOwner() {
  Oid owner = InvalidOid;
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  if (SPI_execute("SELECT e.extowner FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) "
                  "'idgen'::pg_catalog.name",
                  true, 1) == SPI_OK_SELECT &&
      SPI_processed > 0) {
    bool isnull = true;
    const Datum value = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
    if (!isnull) owner = DatumGetObjectId(value);
  }
  SPI_finish();
  return owner;
}

// Whether the statement drops idgen: DROP EXTENSION naming it, or DROP OWNED BY its owner.
bool DropsIdgen(Node* tree) {
  if (IsA(tree, DropStmt)) {
    ListCell* cell;
    foreach (cell, reinterpret_cast<DropStmt*>(tree)->objects) {
      if (strcmp(strVal(lfirst(cell)), "idgen") == 0) return true;
    }
    return false;
  }
  const Oid owner = ExtensionOwner();
  ListCell* cell;
  foreach (cell, reinterpret_cast<DropOwnedStmt*>(tree)->roles) {
    if (OidIsValid(owner) && get_rolespec_oid(static_cast<RoleSpec*>(lfirst(cell)), true) == owner) return true;
  }
  return false;
}

void UnrecordedContext(void*) {
  errcontext(
      "idgen's library was loaded by this very statement, which was therefore checked as if it dropped idgen; "
      "if it does not, run it again in this session");
}

}  // namespace

void RecordUtilityStatements() {
  previous_hook = ProcessUtility_hook;
  ProcessUtility_hook = RecordStatement;
}

// idgen.drop_guard_check(command_tag, probe): called by the event trigger's function idgen.drop_guard()
// (ddl_command_start of DROP EXTENSION and DROP OWNED). A probe only proves that the library loads.
IDGEN_FUNCTION(idgen_drop_guard_check) {
  if (PG_GETARG_BOOL(1)) PG_RETURN_VOID();
  const char* tag = text_to_cstring(PG_GETARG_TEXT_PP(0));
  Node* tree = innermost != nullptr ? innermost->tree : nullptr;
  const bool known = tree != nullptr && ((strcmp(tag, "DROP EXTENSION") == 0 && IsA(tree, DropStmt) &&
                                          reinterpret_cast<DropStmt*>(tree)->removeType == OBJECT_EXTENSION) ||
                                         (strcmp(tag, "DROP OWNED") == 0 && IsA(tree, DropOwnedStmt)));
  if (known) {
    if (DropsIdgen(tree)) marks::CheckDropKeepsNothing(GeneratorState());
    PG_RETURN_VOID();
  }
  // Not the statement that fired the trigger (the library loaded during it, or a direct call):
  // checked as if it dropped idgen, never let through unchecked.
  ErrorContextCallback context{error_context_stack, UnrecordedContext, nullptr};
  error_context_stack = &context;
  marks::CheckDropKeepsNothing(GeneratorState());
  error_context_stack = context.previous;
  PG_RETURN_VOID();
}

}  // namespace idgen::pg
