// The shared state of the generators, the per-backend counters, and idgen.stats().
#include "pg/effects/shared.hpp"

#include <memory>
#include <new>

#include "pg/compat.hpp"
#include "pg/guard.hpp"

extern "C" {
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
}

namespace idgen::pg {

namespace {

// The values issued by one backend, per family.
struct alignas(64) Counters {
  std::atomic<uint64_t> issued[kFamilyCount];
};

Counters* shared_counters = nullptr;  // MaxBackends of them, after the shared state
int shared_counter_count = 0;
SharedState local_state;  // PostgreSQL 15 and 16 without preload
Counters local_counters;

size_t SharedSize() { return alignof(SharedState) + sizeof(SharedState) + sizeof(Counters) * MaxBackends; }

// The random name of this run of the server (SharedState::instance): never 0.
uint64_t NewInstance() {
  uint64_t value = 0;
  if (!pg_strong_random(&value, sizeof value))
    value = static_cast<uint64_t>(GetCurrentTimestamp()) ^ (uint64_t{1} << 63);
  return value == 0 ? 1 : value;
}

// Lays the state out in raw memory of SharedSize() bytes, once for the whole server.
void Initialize(void* raw) {
  size_t space = SharedSize();
  void* aligned = std::align(alignof(SharedState), sizeof(SharedState), raw, space);
  auto* state = new (aligned) SharedState();
  state->instance = NewInstance();
  state->lock_tranche = compat::NewTranche("idgen");
  LWLockInitialize(&state->mark_lock.lock, state->lock_tranche);
  auto* counters = reinterpret_cast<Counters*>(state + 1);
  for (int i = 0; i < MaxBackends; ++i) new (&counters[i]) Counters();
}

void Attach(void* raw) {
  size_t space = SharedSize();
  void* aligned = std::align(alignof(SharedState), sizeof(SharedState), raw, space);
  attached_state = static_cast<SharedState*>(aligned);
  shared_counters = reinterpret_cast<Counters*>(attached_state + 1);
  shared_counter_count = MaxBackends;
  compat::RegisterTranche(attached_state->lock_tranche, "idgen");
}

// ---- PostgreSQL 15 and 16: shared memory of a preloaded library --------------------------------

shmem_request_hook_type previous_shmem_request = nullptr;
shmem_startup_hook_type previous_shmem_startup = nullptr;

void RequestShmem() {
  if (previous_shmem_request != nullptr) previous_shmem_request();
  RequestAddinShmemSpace(SharedSize());
}

void StartShmem() {
  if (previous_shmem_startup != nullptr) previous_shmem_startup();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  void* raw = ShmemInitStruct("idgen", SharedSize(), &found);
  if (!found) Initialize(raw);
  Attach(raw);
  LWLockRelease(AddinShmemInitLock);
}

// ---- PostgreSQL 17 and later: a named DSM segment, preloaded or not ------------------------------

void AttachSegment() {
  bool found = false;
  void* raw = compat::NamedSegment("idgen", SharedSize(), Initialize, &found);
  if (raw != nullptr) Attach(raw);
}

}  // namespace

void RequestSharedState() {
  if (compat::kHasNamedSegments) return;  // 17 and later attach to a named segment on first use
  previous_shmem_request = shmem_request_hook;
  shmem_request_hook = RequestShmem;
  previous_shmem_startup = shmem_startup_hook;
  shmem_startup_hook = StartShmem;
}

SharedState* attached_state = nullptr;
std::atomic<uint64_t>* my_issued = nullptr;

StateRef GeneratorStateSlow() {
  if (compat::kHasNamedSegments && IsUnderPostmaster) {
    AttachSegment();
    if (attached_state != nullptr) return {*attached_state, true};
  }
  if (local_state.instance == 0) local_state.instance = NewInstance();  // (this process's run)
  return {local_state, false};
}

std::atomic<uint64_t>* FindIssued() {
  const int index = compat::ProcIndex();
  if (index >= 0 && index < shared_counter_count) {
    my_issued = shared_counters[index].issued;  // a backend keeps its slot for its life
    return my_issued;
  }
  return local_counters.issued;  // (not kept: the shared counters may be attached later)
}

// idgen.stats(): per family, the values issued and the rare events, cluster-wide when shared.
IDGEN_FUNCTION(idgen_stats) {
  InitMaterializedSRF(fcinfo, 0);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  const StateRef ref = GeneratorState();
  for (int family = 0; family < kFamilyCount; ++family) {
    uint64_t issued = local_counters.issued[family].load(std::memory_order_relaxed);
    for (int i = 0; i < shared_counter_count; ++i) {
      issued += shared_counters[i].issued[family].load(std::memory_order_relaxed);
    }
    const idgen::FamilyStats& stats = ref.state.stats[family];
    auto* max_regression = static_cast<Interval*>(palloc0(sizeof(Interval)));
    max_regression->time = static_cast<int64>(stats.max_regression_us.load(std::memory_order_relaxed));
    auto* max_lead = static_cast<Interval*>(palloc0(sizeof(Interval)));
    max_lead->time = static_cast<int64>(stats.max_lead_us.load(std::memory_order_relaxed));
    Datum values[7] = {
        CStringGetTextDatum(kFamilyNames[family]),
        CStringGetTextDatum(ref.shared ? "cluster" : "backend"),
        Int64GetDatum(static_cast<int64>(issued)),
        Int64GetDatum(static_cast<int64>(stats.waits.load(std::memory_order_relaxed))),
        Int64GetDatum(static_cast<int64>(stats.regressions.load(std::memory_order_relaxed))),
        IntervalPGetDatum(max_regression),
        IntervalPGetDatum(max_lead),
    };
    bool nulls[7] = {};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
  }
  PG_RETURN_NULL();
}

}  // namespace idgen::pg
