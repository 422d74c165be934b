// The node id of the coordinated families (Snowflake, Sonyflake, TraceId, JsId): idgen.node_id, or,
// with idgen.node_id_source = 'citus', the Citus group id of this node (node_identity.cpp).
#pragma once

#include <cstdint>

#include "core/layout.hpp"
#include "pg/settings/settings.hpp"

namespace idgen::pg {

// The node id under which this server makes IDs of the layout, or an error: 55000 when the id does
// not fit the layout's node field, when Citus is not installed in this database, or when this Citus
// node has no group of its own yet (never 0 in its place). C zone (it reads a catalog, in a
// transaction).
// (Inline: the common case, idgen.node_id that fits, on every call of these families.)
int64_t NodeIdSlow(const Layout& layout);
inline int64_t NodeId(const Layout& layout) {
  if (__builtin_expect(
          settings::node_id_source == settings::kNodeIdFromSetting && settings::node_id <= layout.max_node(), 1)) {
    return settings::node_id;
  }
  return NodeIdSlow(layout);
}

}  // namespace idgen::pg
