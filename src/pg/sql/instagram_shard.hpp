// Instagram's logical shards bound to schemas (docs/citus.md): the trigger idgen.instagram_shard_id()
// that fills a row's ID where the row is stored, the marks that move with the schema, the binding
// (idgen.bind_instagram_shard and the registry idgen.instagram_shard_schemas), and what
// idgen.instagram_id(shard) does for a bound shard.
#pragma once

#include <cstdint>

namespace idgen::pg {

// sql/layout.cpp: the next Instagram ID of a shard (CheckCanGenerate, the shard setting, the
// server's durable mark), and the wait for a shard's IDs made elsewhere (not_before_ms: the first
// Unix millisecond a new ID may hold; refuses 55000 beyond idgen.max_clock_regression). C zone.
int64_t NextInstagramId(int64_t shard);
void WaitForShardMark(int64_t shard, int64_t not_before_ms);
// The Unix millisecond of an Instagram ID (under the current epoch).
int64_t InstagramMs(int64_t id);

namespace instagram_shard {

// For idgen.instagram_id(shard[, not_before]): false when no schema is bound to the shard (the
// caller makes a plain ID); for a bound shard whose schema lives on this node, an ID made under the
// shard's marks, as the trigger makes them (true, *id); refuses (55000) a bound shard that lives on
// another node, saying where. C zone.
bool MakeBoundId(int64_t shard, int64_t not_before_ms, int64_t* id);

// Refuses (22023, as the generator does) a shard outside 0-8191, whichever function names it:
// idgen.instagram_id, the trigger's shard column, idgen.bind_instagram_shard. C zone.
[[noreturn]] void RaiseShardOutOfRange(int64_t shard);

}  // namespace instagram_shard
}  // namespace idgen::pg
