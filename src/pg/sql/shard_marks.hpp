// The marks of Instagram's logical shards (docs/citus.md, "The mark"): a schema's table
// idgen_instagram_shard, which moves with the schema's rows, holds for each shard bound to the
// schema the time before which every ID of the shard lies, and the server run that wrote it.
//
// From idgen 1.3 a transaction never updates a mark: each transaction whose IDs pass the committed
// marks inserts a row of its own (the shard, the ID that passed, a mark a second beyond it, this
// run of the server), committed with its IDs or not at all. So nothing an insert locks is needed by
// another insert: no wait, no deadlock, no serialization failure, and every committed ID lies
// before a committed mark. Rows below a committed higher mark are deleted as they are met, never
// waiting for a row another transaction holds. A table bound under idgen 1.2 (one row per shard,
// its key the shard alone) is never written: the update to 1.3 converts it (Convert), and so does
// idgen.bind_instagram_shard for one restored from a dump of 1.2.
#pragma once

#include <cstdint>

#include "pg/pg.hpp"

namespace idgen::pg::shard_marks {

// The name of the table in every bound schema.
inline constexpr const char* kTable = "idgen_instagram_shard";

// An ID of the shard made under the marks table `marks` (a relation on this node: the schema's
// table, or its Citus shard), after the marks that other server runs wrote and, where given,
// not_before_ms; covered by a committed mark when this transaction commits. schema_shard: the one
// shard bound to the table (a schema bound to one shard), returned in *shard. Refuses (55000) a
// shard the table does not bind, a NULL mark, a mark too far ahead of the clock. C zone.
int64_t Make(Oid marks, bool schema_shard, int32* shard, int64_t not_before_ms);

// Refuses (55000) a shard that the marks table does not bind.
[[noreturn]] void RaiseNotBound(Oid marks, int64_t shard);

// A marks table as idgen makes it (kCurrent), or as idgen 1.2 made it (kLegacy, to be converted);
// refuses (55000) anything else: a table with an index, a column or a layout of another's, whose
// code idgen would otherwise evaluate.
enum class Kind : uint8 { kCurrent, kLegacy };
Kind Check(Oid marks);

// Binds the shard in the marks table (kCurrent): its first row (ID 0, a mark at the Unix epoch),
// unless the table has rows of the shard already (false then).
bool AddShard(Oid marks, int32 shard);

// Converts a marks table of idgen 1.2's layout, exactly as 1.2 made it, to 1.3's (a column id, the
// key (shard, id)); does nothing to one of 1.3's. DDL through SPI as the caller, which evaluates
// nothing of the owner's.
void Convert(Oid marks);

// Why the table is not a marks table as idgen makes it, or as 1.2 made it (nullptr: it is one, of
// *kind), without raising.
const char* Unfit(Oid marks, Kind* kind);

// The shards that the rows of a marks table (kCurrent) name, into shards[8192]; their number.
int ShardsOf(Oid marks, int32* shards);

}  // namespace idgen::pg::shard_marks
