// The drop guard's view of the statement under way (drop_guard.cpp).
#pragma once

namespace idgen::pg {

// Installs the ProcessUtility_hook that records the utility statements under way (_PG_init).
void RecordUtilityStatements();

}  // namespace idgen::pg
