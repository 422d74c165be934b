// What the module (src/pg/module.cpp) gives the fmgr files: the wall clock and this process's pool
// of random bytes.
#pragma once

#include "core/clock.hpp"
#include "core/random.hpp"

namespace idgen::pg {

extern SystemClock system_clock;  // (module.cpp)
extern RandomPool random_pool;

// The system clock (clock_gettime). Inline and of its final type, so that a generator's clock
// reading is no call through a virtual table.
inline SystemClock& WallClock() { return system_clock; }

// This process's pool of CSPRNG bytes (pg_strong_random); callers pass MyProcPid as the owner.
inline RandomPool& BackendRandom() { return random_pool; }

}  // namespace idgen::pg
