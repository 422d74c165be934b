// What every coordinated generator (the families with a state word) does around its core: the
// checks before it touches the state, the durable mark, and the wait for the clock's next tick.
#pragma once

#include <cstdint>

#include "pg/family.hpp"
#include "pg/guard.hpp"
#include "pg/mark.hpp"
#include "pg/shared.hpp"

extern "C" {
#include "miscadmin.h"
}

namespace idgen::pg {

// Refuses (55000) unless the settings this family reads were taken as given, the server is not in
// recovery (a standby has its primary's node id, shards and server digits), and the family's state
// is shared by every session (preloaded, or PostgreSQL 17 and later). C zone.
void CheckCanGenerate(Family family, const char* title, const StateRef& state);

// Waits until the clock reaches until_ns (Unix nanoseconds), holding nothing: on the latch (a
// cancel wakes it at once) for a millisecond or more, a plain sleep below that; pg_stat_activity
// shows the wait either way.
void WaitForClock(int64_t until_ns);

// What every coordinated generator does once CheckCanGenerate has passed: the next value from the
// core (next() returns a Generated<Value>, under the error door), covered by the durable mark, and,
// when the core says so, held until the clock reaches it; then counted and returned.
template <typename Next>
auto Generate(Family family, const StateRef& ref, Next&& next) {
  const bool durable = marks::Prepare(family, ref);
  for (;;) {
    const uint64_t generation = ref.state.mark.generation.load(std::memory_order_acquire);
    const auto out = Guarded(next);
    // (A value that idgen.restart_at_clock() overtook is dropped: another is taken.)
    if (durable && !marks::Cover(family, ref, marks::MarkMs(family, out.mark), generation)) continue;
    if (out.wait_until_ns != 0) WaitForClock(out.wait_until_ns);
    CountIssued(family);
    return out.value;
  }
}

}  // namespace idgen::pg
