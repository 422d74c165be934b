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
#include "storage/backendid.h"
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

// idgen.<family>_epoch_ms: text settings (a bigint does not fit an integer GUC), parsed once.
char* epoch_text[kFamilyCount];
int64_t epoch_ms[kFamilyCount];
constexpr int64_t kLatestEpochMs = 4102444800000;  // 2100-01-01

bool CheckEpoch(char** value, void** extra, GucSource) {
  char* end = nullptr;
  errno = 0;
  const long long ms = strtoll(*value, &end, 10);
  if (errno != 0 || end == *value || *end != '\0' || ms < 0 || ms > kLatestEpochMs) {
    GUC_check_errdetail("An epoch is a whole number of milliseconds since 1970-01-01 00:00:00 UTC, before 2100.");
    return false;
  }
  auto* parsed = static_cast<int64_t*>(malloc(sizeof(int64_t)));
  if (parsed == nullptr) return false;
  *parsed = ms;
  *extra = parsed;
  return true;
}

template <Family family>
void AssignEpoch(const char*, void* extra) {
  epoch_ms[family] = *static_cast<int64_t*>(extra);
}

template <Family family>
void DefineEpoch() {
  static char default_text[24];
  snprintf(default_text, sizeof default_text, "%lld", static_cast<long long>(kLayouts[family]->epoch_ms));
  static char name[64], description[128];
  snprintf(name, sizeof name, "idgen.%s_epoch_ms", kLayouts[family]->family);
  snprintf(description, sizeof description, "Epoch of %s IDs, in milliseconds since 1970-01-01 00:00:00 UTC.",
           kLayouts[family]->title);
  DefineCustomStringVariable(name, description,
                             "Changing it on a live system changes how existing IDs decode; moving it later "
                             "can make new IDs repeat old ones.",
                             &epoch_text[family], default_text, PGC_SUSET, 0, CheckEpoch, AssignEpoch<family>,
                             nullptr);
}

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

// The values issued by one backend, per family.
struct alignas(64) Counters {
  std::atomic<uint64_t> issued[kFamilyCount];
};

State* shared_state = nullptr;
Counters* shared_counters = nullptr;  // MaxBackends of them, after the shared state
int shared_counter_count = 0;
State local_state;  // when not preloaded
Counters local_counters;

shmem_request_hook_type previous_shmem_request = nullptr;
shmem_startup_hook_type previous_shmem_startup = nullptr;

size_t SharedSize() { return alignof(State) + sizeof(State) + sizeof(Counters) * static_cast<size_t>(MaxBackends); }

void RequestSharedMemory() {
  if (previous_shmem_request != nullptr) previous_shmem_request();
  RequestAddinShmemSpace(SharedSize());
}

void StartSharedMemory() {
  if (previous_shmem_startup != nullptr) previous_shmem_startup();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  const size_t size = SharedSize();
  void* raw = ShmemInitStruct("idgen", size, &found);
  size_t space = size;
  void* aligned = std::align(alignof(State), size - alignof(State), raw, space);
  auto* counters = reinterpret_cast<Counters*>(static_cast<State*>(aligned) + 1);
  if (!found) {
    new (aligned) State();
    for (int i = 0; i < MaxBackends; ++i) new (&counters[i]) Counters();
  }
  shared_state = static_cast<State*>(aligned);
  shared_counters = counters;
  shared_counter_count = MaxBackends;
  LWLockRelease(AddinShmemInitLock);
}

}  // namespace

int node_id = 0;
char* token_secret = nullptr;
int max_clock_regression_ms = 5000;

std::span<Slot> State::slots(Family family) {
  switch (family) {
    case kFamilyUuidv7:
      return {&uuidv7, 1};
    case kFamilyInstagram:
      return instagram;
    case kFamilySnowflake:
      return {&snowflake, 1};
    case kFamilySonyflake:
      return {&sonyflake, 1};
    case kFamilyTrace:
      return {&trace, 1};
    case kFamilyCount:
      break;
  }
  return {};
}

int64_t EpochMs(Family family) { return epoch_ms[family]; }
void CountIssued(Family family) {
  Counters& mine = shared_counters != nullptr && MyBackendId >= 1 && MyBackendId <= shared_counter_count
                       ? shared_counters[MyBackendId - 1]
                       : local_counters;
  std::atomic<uint64_t>& n = mine.issued[family];
  n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

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
    uint64_t issued = local_counters.issued[family].load(std::memory_order_relaxed);
    for (int i = 0; i < shared_counter_count; ++i) issued += shared_counters[i].issued[family].load(std::memory_order_relaxed);
    const idgen::Stats& stats = state.stats[family];
    auto* max_regression = static_cast<Interval*>(palloc0(sizeof(Interval)));
    max_regression->time = static_cast<int64>(stats.max_regression_us.load(std::memory_order_relaxed));
    Datum values[6] = {
        CStringGetTextDatum(kFamilyNames[family]),
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
  DefineCustomIntVariable("idgen.node_id", "Node id of this server in Snowflake, Sonyflake and TraceId IDs.",
                          "Give every server that generates these IDs its own node id.", &node_id, 0, 0,
                          idgen::kSnowflake.max_node(), PGC_SUSET, 0, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("idgen.max_clock_regression",
                          "How far the system clock may step back before 64-bit ID generators refuse.",
                          "Up to this, they carry on from the last time issued; beyond it, they raise an error.",
                          &max_clock_regression_ms, 5000, 0, 3600000, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr,
                          nullptr);
  DefineEpoch<kFamilyInstagram>();
  DefineEpoch<kFamilySnowflake>();
  DefineEpoch<kFamilySonyflake>();
  DefineEpoch<kFamilyTrace>();
  DefineCustomStringVariable("idgen.token_secret", "Secret key of idgen.signed_token() and idgen.verify_token().",
                             "At least 32 bytes; only superusers can set or see it. Changing it invalidates every "
                             "token signed before.",
                             &token_secret, "", PGC_SUSET, GUC_SUPERUSER_ONLY | GUC_NOT_IN_SAMPLE, nullptr, nullptr,
                             nullptr);
  MarkGUCPrefixReserved("idgen");

  if (process_shared_preload_libraries_in_progress) {
    previous_shmem_request = shmem_request_hook;
    shmem_request_hook = RequestSharedMemory;
    previous_shmem_startup = shmem_startup_hook;
    shmem_startup_hook = StartSharedMemory;
  }
}
