// What every coordinated generator (the families with a state word) does around its core: the
// checks before it touches the state, the durable mark, and the wait for the clock's next tick.
#pragma once

#include <cstdint>

#include "pg/family.hpp"
#include "pg/guard.hpp"
#include "pg/effects/mark.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "miscadmin.h"
}

namespace idgen::pg {

// Refuses (55000) unless the settings this family reads were taken as given (and, for a family with
// an epoch, its epoch is the server's), the server is not in recovery (a standby has its primary's
// node id, shards and server digits), and the family's state is shared by every session
// (preloaded, or PostgreSQL 17 and later). C zone. Inline: once this backend's Prepare has passed
// for the family (marks::Ready), neither recovery nor shared state needs asking again (a server
// never returns to recovery; shared state stays), and only the settings are looked at.
void CheckRecoveryAndShared(const char* title, const StateRef& state);
inline void CheckCanGenerate(Family family, const char* title, const StateRef& state) {
  settings::CheckConfigured(settings::Of(family));
  if (kLayouts[family] != nullptr || family == kFamilyUid20 || family == kFamilyUid20Sec) {
    settings::CheckEpochIsTheServers(family);
  }
  if (__builtin_expect(!marks::Ready(family), 0)) CheckRecoveryAndShared(title, state);
}

// Waits until the clock reaches until_ns (Unix nanoseconds), holding nothing: on the latch (a
// cancel wakes it at once) for a millisecond or more, a plain sleep below that; pg_stat_activity
// shows the wait either way.
void WaitForClock(int64_t until_ns);

// What every coordinated generator does once CheckCanGenerate has passed: the next value from the
// core (next() returns a Generated<Value>, under the error door), covered by the durable mark, and,
// when the core says so, held until the clock reaches it; then counted and returned. The common
// call makes no function call of its own but the core's: Prepare has passed in this backend, and
// the value lies below what the lease and the database's copy cover (marks::Hot). A value the
// durable mark did not cover (restart_at_clock moved the words, or a reload read meanwhile changed
// the node identity) is dropped, and refresh() (C zone) reads again what next() takes from the
// settings before another is taken, and after every Prepare.
inline void NothingToRefresh() {}
inline bool Covered(Family family, const StateRef& ref, uint64_t mark) {
#ifdef IDGEN_DEBUG_FAULT
  // (idgen.debug_fault = 'retake': every value is dropped, for the test of the loop's interrupt check)
  if (__builtin_expect(settings::DebugFaultNow() == settings::kFaultRetake, 0)) return false;
#endif
  return marks::CoverValue(family, ref, mark);
}
// A value dropped is taken again after an interrupt check: a cancel or a terminate ends a call that
// keeps dropping values at once, and the engine refuses one that drops more than
// protocol::kMaxRetakes.
template <typename Next, typename Refresh = void (*)()>
auto Generate(Family family, const StateRef& ref, Next&& next, Refresh&& refresh = NothingToRefresh) {
  for (;;) {
    bool durable = marks::ReadyToTake(family, ref);
    if (!durable) {
      durable = marks::Prepare(family, ref);
      // Prepare read the configuration as it is now (a reload in flight included), and the engine
      // covers the value under that identity: what next() takes from the settings is read after it.
      refresh();
    }
    const auto out = Guarded(next);
    if (durable && !Covered(family, ref, out.mark)) {
      refresh();
      CHECK_FOR_INTERRUPTS();
      continue;
    }
    if (__builtin_expect(out.wait_until_ns != 0, 0)) WaitForClock(out.wait_until_ns);
    CountIssued(family);
    return out.value;
  }
}

}  // namespace idgen::pg
