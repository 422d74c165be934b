// The generator families that keep state (a state word and a durable mark), the same names in every
// layer: idgen.<family>_id() or idgen.<family>(), idgen.<family>_mark, idgen.stats.
#pragma once

#include "core/layout.hpp"

namespace idgen::pg {

enum Family : int { kFamilyUuidv7, kFamilyInstagram, kFamilySnowflake, kFamilySonyflake, kFamilyTrace, kFamilyCount };

inline constexpr const char* kFamilyNames[kFamilyCount] = {"uuidv7", "instagram", "snowflake", "sonyflake", "trace"};

// The layout of each 64-bit family (none for UUIDv7).
inline constexpr const Layout* kLayouts[kFamilyCount] = {nullptr, &kInstagram, &kSnowflake, &kSonyflake, &kTrace};

}  // namespace idgen::pg
