// What the module (src/pg/module.cpp) gives the fmgr files: the generators' state, shared by the
// cluster when the library is preloaded, the clock, the random pool, and the settings.
#pragma once

#include <cstddef>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/state.hpp"

namespace idgen::pg {

// The families with a state word, in the order idgen.stats lists them.
enum Family : int { kUuidv7, kFamilyCount };

struct State {
  Slot uuidv7;
  Stats stats[kFamilyCount];
};

// True when the library was loaded by shared_preload_libraries and its shared memory exists.
bool Preloaded();

// The shared state when preloaded, otherwise this process's own.
State& CurrentState();

Clock& TheClock();

// The random pool of this process; TakeRandom and friends pass MyProcPid as the owner.
RandomPool& ThePool();

}  // namespace idgen::pg
