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
// recovery (a standby has its primary's node id, shards and server digits; ns_id, unique by its
// random bits, works there), and the family's state is shared by every session (preloaded, or
// PostgreSQL 17 and later). C zone.
void CheckCanGenerate(Family family, const char* title, const StateRef& state);

// Waits for the clock's next tick, holding nothing: on the latch (a cancel wakes it at once) for a
// millisecond or more, a plain sleep below that; pg_stat_activity shows the wait either way.
void WaitForClock(int64_t wait_us);

// The loop of every coordinated generator, once CheckCanGenerate has passed: the next value from
// the core (next() returns a Generated<Value>, under the error door), covered by the family's
// durable mark before it is returned, and counted; or the wait the core asks for.
template <typename Next>
auto Generate(Family family, const StateRef& ref, Next&& next) {
  DatabaseLeases* leases = marks::Prepare(family, ref);
  for (;;) {
    const auto out = Guarded(next);
    if (out.issued) {
      marks::Cover(family, ref, leases, out.mark);
      CountIssued(family);
      return out.value;
    }
    if (out.wait_us > 0) {
      WaitForClock(out.wait_us);
    } else {
      CHECK_FOR_INTERRUPTS();
    }
  }
}

}  // namespace idgen::pg
