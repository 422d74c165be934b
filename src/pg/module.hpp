// What the module (src/pg/module.cpp) gives the fmgr files: the wall clock and this process's pool
// of random bytes.
#pragma once

#include "core/clock.hpp"
#include "core/random.hpp"

namespace idgen::pg {

// The system clock (clock_gettime through std::chrono).
Clock& WallClock();

// This process's pool of CSPRNG bytes (pg_strong_random); callers pass MyProcPid as the owner.
RandomPool& BackendRandom();

}  // namespace idgen::pg
