// The drop guard (drop_guard.cpp): the object access hook that checks each drop of what holds this
// database's copy of the durable mark.
#pragma once

namespace idgen::pg {

// Installs the hook (_PG_init).
void InstallDropGuard();

}  // namespace idgen::pg
