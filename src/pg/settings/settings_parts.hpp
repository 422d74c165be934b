// What the files of idgen's settings share, for settings.cpp's Define() to put them together:
// settings.cpp (the GUC definitions), secrets.cpp (the secret keys and their file forms),
// setting_check.cpp (the idgen.* lines given before the library loaded, and the refusals they
// cause) and debug_fault.cpp (idgen's own test fault, only in a build with IDGEN_DEBUG_FAULT).
#pragma once

#include <cstdint>

#include "pg/settings/settings.hpp"

namespace idgen::pg::settings {

// Who reads what, for CheckConfigured.
inline constexpr uint32_t kLayoutFamilies =
    Of(kFamilyInstagram) | Of(kFamilySnowflake) | Of(kFamilySonyflake) | Of(kFamilyTrace) | Of(kFamilyJs);
inline constexpr uint32_t kUid20Families = Of(kFamilyUid20) | Of(kFamilyUid20Sec);
inline constexpr uint32_t kEveryConsumer = Of(kFamilyUuidv7) | kLayoutFamilies | kUid20Families | Of(kFamilyNsId) |
                                           Of(kFamilyDecimalId) | kTokens | kPublicIds | kPublicUuids;

// secrets.cpp: idgen.token_secret, idgen.public_id_key, idgen.public_uuid_key and their _file forms
// (and, where idgen is preloaded, the shared memory where the postmaster publishes them).
void DefineSecrets();
// idgen.key_scope's assign hook: the secrets as each database uses them change with it.
void KeyScopeAssigned(int scope);

// Whether the current role may read what PostgreSQL shows superusers and pg_read_all_settings only
// (a GUC_SUPERUSER_ONLY setting such as a secret file's path, pg_settings.sourcefile): errors name
// such things to these roles only. Catalog access: a backend in a transaction.
bool MayReadHiddenSettings();

// setting_check.cpp: notes the idgen.* placeholders that the configuration gave before the library
// was loaded, runs define (which defines every setting), then records a problem for each given
// setting that does not exist or whose value PostgreSQL rejected.
void DefineChecked(void (*define)());

// Whether shared_preload_libraries loaded the library: only then does the postmaster know idgen's
// settings, and with them which ones are secrets.
bool LoadedByPreload();

#ifdef IDGEN_DEBUG_FAULT
// debug_fault.cpp: idgen.debug_fault.
void DefineDebugFault();
#endif

}  // namespace idgen::pg::settings
