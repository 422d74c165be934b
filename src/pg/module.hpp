// What the module (src/pg/module.cpp) gives the fmgr files: the generators' state, shared by the
// cluster when the library is preloaded, the clock, the random pool, and the settings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/clock.hpp"
#include "core/layout.hpp"
#include "core/random.hpp"
#include "core/state.hpp"

namespace idgen::pg {

// The families with a state word, in the order idgen.stats lists them.
enum Family : int { kFamilyUuidv7, kFamilyInstagram, kFamilySnowflake, kFamilySonyflake, kFamilyTrace, kFamilyCount };
inline constexpr const char* kFamilyNames[kFamilyCount] = {"uuidv7", "instagram", "snowflake", "sonyflake", "trace"};
// The layout of each 64-bit family (none for UUIDv7).
inline constexpr const Layout* kLayouts[kFamilyCount] = {nullptr, &kInstagram, &kSnowflake, &kSonyflake, &kTrace};

struct State {
  Slot uuidv7;
  Slot instagram[kInstagram.max_node() + 1];  // one per shard
  Slot snowflake;                             // this server is one node
  Slot sonyflake;
  Slot trace;
  Stats stats[kFamilyCount];

  std::span<Slot> slots(Family family);
};

// Counts one value issued by this backend for idgen.stats. Each backend counts on its own cache
// line in shared memory (plain stores, one writer), so counting adds no contended atomic.
void CountIssued(Family family);

// True when the library was loaded by shared_preload_libraries and its shared memory exists.
bool Preloaded();

// The shared state when preloaded, otherwise this process's own.
State& CurrentState();

Clock& TheClock();

// The random pool of this process; callers pass MyProcPid as the owner.
RandomPool& ThePool();

// Settings (GUCs).
extern int node_id;                  // idgen.node_id
extern int max_clock_regression_ms;  // idgen.max_clock_regression
int64_t EpochMs(Family family);      // idgen.<family>_epoch_ms
extern char* token_secret;           // idgen.token_secret

}  // namespace idgen::pg
