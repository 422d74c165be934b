// The drop guard (mark.hpp: CheckDropKeepsNothing), at the drop of the objects that hold this
// database's copy of the durable mark: the extension idgen itself (DROP EXTENSION, DROP OWNED BY
// its owner, DROP SCHEMA ... CASCADE) and each sequence of the copy (a member dropped alone). The
// object access hook sees each object before it is gone, whatever dropped it and however: an event
// trigger disabled, event_triggers = off, single-user mode. The first such drop of a statement sees
// the copy whole, and refuses while it holds IDs this server has not passed. The event trigger
// idgen_drop_guard (ddl_command_start of the drops) only loads the library, so that the hook is in
// place in a session that has not loaded it yet (a server that does not preload idgen); where the
// library cannot be loaded, the trigger's function lets the drop go on with a warning.
#include "pg/effects/drop_guard.hpp"

#include <cstring>

#include "pg/effects/mark.hpp"
#include "pg/pg.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "access/xact.h"
#include "commands/extension.h"
#include "utils/lsyscache.h"
}

namespace idgen::pg {

namespace {

object_access_hook_type previous_hook = nullptr;

// The sequences of the copy (mark.cpp reads them by these names, in schema idgen).
constexpr const char* kCopySequences[] = {"mark", "mark_identity", "mark_server", "mark_parts", "decimal_id_generator"};

bool IsCopySequence(Oid relid) {
  if (get_rel_relkind(relid) != RELKIND_SEQUENCE) return false;
  const Oid schema = get_namespace_oid("idgen", true);
  if (!OidIsValid(schema) || get_rel_namespace(relid) != schema) return false;
  const char* name = get_rel_name(relid);
  if (name == nullptr) return false;
  for (const char* copy : kCopySequences) {
    if (strcmp(name, copy) == 0) return true;
  }
  return false;
}

void OnObjectAccess(ObjectAccessType access, Oid class_id, Oid object_id, int sub_id, void* arg) {
  if (previous_hook != nullptr) previous_hook(access, class_id, object_id, sub_id, arg);
  if (access != OAT_DROP) return;
  const bool copy = class_id == ExtensionRelationId
                        ? object_id == get_extension_oid("idgen", true)
                        : class_id == RelationRelationId && sub_id == 0 && IsCopySequence(object_id);
  if (!copy) return;
  const Oid extension = get_extension_oid("idgen", true);
  // Once per statement and extension: the first such drop sees the copy whole; the next ones, some
  // of its sequences gone, would not read it as it was. (An extension created again in the same
  // statement is another, checked again.)
  static TimestampTz checked_transaction = 0, checked_statement = 0;
  static Oid checked_extension = InvalidOid;
  if (checked_transaction == GetCurrentTransactionStartTimestamp() &&
      checked_statement == GetCurrentStatementStartTimestamp() && checked_extension == extension) {
    return;
  }
  marks::CheckDropKeepsNothing(GeneratorState());
  checked_transaction = GetCurrentTransactionStartTimestamp();
  checked_statement = GetCurrentStatementStartTimestamp();
  checked_extension = extension;
}

}  // namespace

void InstallDropGuard() {
  previous_hook = object_access_hook;
  object_access_hook = OnObjectAccess;
}

// idgen.drop_guard_check(command_tag, probe): called by the event trigger's function idgen.drop_guard()
// to load the library before the statement drops anything; the hook checks each drop.
IDGEN_FUNCTION(idgen_drop_guard_check) { PG_RETURN_VOID(); }

}  // namespace idgen::pg
