// The node id of the coordinated families (Snowflake, Sonyflake, TraceId, JsId): idgen.node_id, or,
// with idgen.node_id_source = 'citus', the Citus group id of this node (node_identity.cpp).
#pragma once

#include <cstdint>

#include "core/layout.hpp"

namespace idgen::pg {

// The node id under which this server makes IDs of the layout, or an error: 55000 when the id does
// not fit the layout's node field, when Citus is not installed in this database, or when this Citus
// node has no group of its own yet (never 0 in its place). C zone (it reads a catalog, in a
// transaction).
int64_t NodeId(const Layout& layout);

}  // namespace idgen::pg
