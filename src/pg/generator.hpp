// What every coordinated generator (the families with a state word) does around its core: the
// checks before it touches the state, and the wait for the clock's next tick.
#pragma once

#include <cstdint>

#include "pg/family.hpp"
#include "pg/shared.hpp"

namespace idgen::pg {

// Refuses (55000) unless the settings this family reads were taken as given, the server is not in
// recovery (a standby has its primary's node id, shards and server digits; ns_id, unique by its
// random bits, works there), and the family's state is shared by every session (preloaded, or
// PostgreSQL 17 and later). C zone.
void CheckCanGenerate(Family family, const char* title, const StateRef& state);

// Waits for the clock's next tick, holding nothing: on the latch (a cancel wakes it at once) for a
// millisecond or more, a plain sleep below that; pg_stat_activity shows the wait either way.
void WaitForClock(int64_t wait_us);

}  // namespace idgen::pg
