// The module: _PG_init, settings, shared memory, the per-process clock and random pool, and
// idgen.stats.
#include "pg/module.hpp"

#include <memory>
#include <new>
#include <stdexcept>

#include "pg/pg.hpp"

extern "C" {
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/tuplestore.h"

PG_MODULE_MAGIC;
void _PG_init(void);
}

namespace idgen::pg {

namespace {

// ---- settings --------------------------------------------------------------------------------

// idgen.debug_fault makes the random source fail, for the tests of the error door.
enum DebugFault { kNoFault, kFaultRandom, kFaultMemory, kFaultInternal };
const config_enum_entry kDebugFaults[] = {
    {"none", kNoFault, false},
    {"random", kFaultRandom, false},
    {"out_of_memory", kFaultMemory, false},
    {"internal", kFaultInternal, false},
    {nullptr, 0, false},
};
int debug_fault = kNoFault;

// ---- randomness and time ---------------------------------------------------------------------

class PgRandomSource final : public RandomSource {
 public:
  bool Fill(uint8_t* out, size_t n) override {
    switch (debug_fault) {
      case kFaultRandom:
        return false;
      case kFaultMemory:
        throw std::bad_alloc();
      case kFaultInternal:
        throw std::logic_error("fault injected by idgen.debug_fault");
      default:
        return pg_strong_random(out, n);
    }
  }
};

PgRandomSource random_source;
RandomPool random_pool(random_source);  // constant-initialised: filled on first use, in a backend
SystemClock system_clock;

// ---- state -----------------------------------------------------------------------------------

State* shared_state = nullptr;
State local_state;  // when not preloaded

shmem_request_hook_type previous_shmem_request = nullptr;
shmem_startup_hook_type previous_shmem_startup = nullptr;

constexpr size_t kSharedSize = sizeof(State) + alignof(State);

void RequestSharedMemory() {
  if (previous_shmem_request != nullptr) previous_shmem_request();
  RequestAddinShmemSpace(kSharedSize);
}

void StartSharedMemory() {
  if (previous_shmem_startup != nullptr) previous_shmem_startup();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  void* raw = ShmemInitStruct("idgen", kSharedSize, &found);
  size_t space = kSharedSize;
  void* aligned = std::align(alignof(State), sizeof(State), raw, space);
  if (!found) new (aligned) State();
  shared_state = static_cast<State*>(aligned);
  LWLockRelease(AddinShmemInitLock);
}

}  // namespace

bool Preloaded() { return shared_state != nullptr; }
State& CurrentState() { return shared_state != nullptr ? *shared_state : local_state; }
Clock& TheClock() { return system_clock; }
RandomPool& ThePool() { return random_pool; }

}  // namespace idgen::pg

using namespace idgen::pg;

// idgen.stats(): per family, the values issued and the rare events, cluster-wide when preloaded.
IDGEN_FUNCTION(idgen_stats) {
  InitMaterializedSRF(fcinfo, 0);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  State& state = CurrentState();
  for (int family = 0; family < kFamilyCount; ++family) {
    const char* name = "uuidv7";
    uint64_t issued = state.uuidv7.issued.load(std::memory_order_relaxed);
    const idgen::Stats& stats = state.stats[family];
    auto* max_regression = static_cast<Interval*>(palloc0(sizeof(Interval)));
    max_regression->time = static_cast<int64>(stats.max_regression_us.load(std::memory_order_relaxed));
    Datum values[6] = {
        CStringGetTextDatum(name),
        CStringGetTextDatum(Preloaded() ? "cluster" : "backend"),
        Int64GetDatum(static_cast<int64>(issued)),
        Int64GetDatum(static_cast<int64>(stats.waits.load(std::memory_order_relaxed))),
        Int64GetDatum(static_cast<int64>(stats.regressions.load(std::memory_order_relaxed))),
        IntervalPGetDatum(max_regression),
    };
    bool nulls[6] = {};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
  }
  PG_RETURN_NULL();
}

void _PG_init(void) {
  DefineCustomEnumVariable("idgen.debug_fault", "Makes idgen's random source fail, to test error reporting.",
                           "For idgen's own tests only.", &debug_fault, kNoFault, kDebugFaults, PGC_SUSET,
                           GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr,
                           [](int, void*) { random_pool.Discard(); }, nullptr);
  MarkGUCPrefixReserved("idgen");

  if (process_shared_preload_libraries_in_progress) {
    previous_shmem_request = shmem_request_hook;
    shmem_request_hook = RequestSharedMemory;
    previous_shmem_startup = shmem_startup_hook;
    shmem_startup_hook = StartSharedMemory;
  }
}
