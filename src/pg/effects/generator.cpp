#include "pg/effects/generator.hpp"

#include "pg/compat.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"

extern "C" {
#include "access/xlog.h"
#include "storage/latch.h"
#include "utils/wait_event.h"
}

namespace idgen::pg {

void CheckRecoveryAndShared(const char* title, const StateRef& ref) {
  char message[160], detail[320];
  // A standby has its primary's settings: the IDs of these families made here could repeat the
  // primary's. (ns_id checks its random bits instead: idgen_ns_id.)
  if (RecoveryInProgress()) {
    snprintf(message, sizeof message, "cannot generate %s IDs during recovery", title);
    snprintf(detail, sizeof detail,
             "A standby has its primary's settings and marks: %s IDs made here could repeat the primary's.", title);
    Raise(ErrorKind::kPrerequisite, message, detail,
          "Generate them on the primary. Once this server is promoted, it generates above every ID whose durable "
          "mark reached it, plus idgen.failover_margin.");
  }
  if (!ref.shared) {
    snprintf(message, sizeof message, "idgen must be loaded via shared_preload_libraries to generate %s IDs", title);
    snprintf(detail, sizeof detail,
             "%s IDs are kept unique across sessions by state in shared memory, which on PostgreSQL 15 and 16 only a "
             "preloaded library has.",
             title);
    Raise(ErrorKind::kPrerequisite, message, detail,
          "Add idgen to shared_preload_libraries in postgresql.conf and restart the server.");
  }
}

void WaitForClock(int64_t until_ns) {
  const uint32 event = compat::ClockWaitEvent();
  for (;;) {
    const int64_t wait_ns = until_ns - WallClock().NowNs();
    if (wait_ns <= 0) return;
    if (wait_ns >= 1000000) {
      (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, static_cast<long>(wait_ns / 1000000),
                      event);
      ResetLatch(MyLatch);
    } else {
      pgstat_report_wait_start(event);
      pg_usleep(static_cast<long>(wait_ns / 1000) + 1);
      pgstat_report_wait_end();
    }
    CHECK_FOR_INTERRUPTS();
  }
}

}  // namespace idgen::pg
