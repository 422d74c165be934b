// What idgen reads of Citus's metadata to find where a logical shard's marks live: a relation that
// is a Citus shard (a placement of a distributed, tenant-schema or reference table), the shard of
// another table colocated with it, the group that holds a shard and the node of a group. Read by
// the catalogs' OIDs in pg_catalog (never through the search path) with catalog scans (no SQL:
// callers run inside queries on shards, where Citus refuses distributed queries). Where Citus is not
// installed in the database, every relation is a plain one.
#pragma once

#include <cstdint>

#include "pg/pg.hpp"

namespace idgen::pg::citus {

// Citus's catalogs in this database (InvalidOid each when Citus is not installed).
bool Installed();

// A Citus shard: its id, the distributed table it belongs to, and its hash range (both empty for a
// single-shard table: a tenant schema's, or a reference table's).
struct Shard {
  int64_t id = 0;
  Oid logical = InvalidOid;
  char min[24] = "";
  char max[24] = "";
  bool has_range = false;
};

// Whether the relation is a shard that Citus placed on this node ("<table>_<shardid>" next to its
// table): then *shard describes it.
bool ShardOfRelation(Oid relid, Shard* shard);

// Whether the relation is a Citus table (distributed, tenant schema, reference or Citus local): the
// logical table, whose rows live in its shards.
bool IsCitusTable(Oid relid);

// The shard of the Citus table `logical` colocated with `with` (the same hash range, or the only
// shard), or the one that holds the hash of an integer value; false when it has none.
bool ColocatedShard(Oid logical, const Shard& with, Shard* out);
bool ShardOfValue(Oid logical, int32 value, Shard* out);

// The relation of a shard on this node ("<table>_<shardid>" in the table's schema), InvalidOid
// when this node has none.
Oid ShardRelation(const Shard& shard);

// The group of the node that holds the shard's placement (-1: none), this node's group, and
// "host:port" of a group's node for messages.
int32 PlacementGroup(int64_t shardid);
int32 LocalGroup();
void NodeOfGroup(int32 group, char* out, size_t size);

}  // namespace idgen::pg::citus
