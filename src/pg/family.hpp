// The generator families that keep state (a state word, covered by the durable mark), the same
// names in every layer: idgen.<family>_id() or idgen.<family>(), the rows of idgen.stats.
#pragma once

#include "core/layout.hpp"

namespace idgen::pg {

enum Family : int {
  kFamilyUuidv7,
  kFamilyInstagram,
  kFamilySnowflake,
  kFamilySonyflake,
  kFamilyTrace,
  kFamilyJs,
  kFamilyUid20,
  kFamilyUid20Sec,
  kFamilyNsId,
  kFamilyDecimalId,
  kFamilyCount
};

inline constexpr const char* kFamilyNames[kFamilyCount] = {
    "uuidv7", "instagram", "snowflake", "sonyflake", "trace", "js", "uid20", "uid20_sec", "ns_id", "decimal_id"};

// The layout of each 64-bit layout family (none for the others).
inline constexpr const Layout* kLayouts[kFamilyCount] = {nullptr, &kInstagram, &kSnowflake, &kSonyflake, &kTrace,
                                                         &kJs,    nullptr,     nullptr,     nullptr,     nullptr};

}  // namespace idgen::pg
