// Values a COPY brings (moved.cpp): the hook that reads them into this database's copy.
#pragma once

namespace idgen::pg::moved {

// Installs the ProcessUtility hook (_PG_init).
void InstallCopyHook();

}  // namespace idgen::pg::moved
