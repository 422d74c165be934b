// make sim: random schedules (SIM_SEED, SIM_STEPS) until 30 million steps, every invariant after
// every step; a violation is shrunk and printed as steps to replay. make sim-selftest (--selftest):
// each route of an earlier release, reopened alone (the simulator's build only), must be found.
// SIM_REPLAY=<hex> replays a printed schedule step by step.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/protocol.hpp"
#include "sim/sim.hpp"

namespace {

using idgen::sim::Step;

constexpr size_t kScheduleLength = 2000;

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 0) : fallback;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Runs schedules from seed on until steps have run or one breaks an invariant; the steps it took.
struct Search {
  bool found = false;
  uint64_t steps = 0, schedules = 0, values = 0, refusals = 0;
  uint64_t seed = 0;
  std::vector<Step> failing;
  std::string what;
};
Search Explore(uint64_t seed, uint64_t budget) {
  Search search;
  for (uint64_t i = 0; search.steps < budget; ++i) {
    const std::vector<Step> steps = idgen::sim::RandomSchedule(seed * 1000003 + i, kScheduleLength);
    const idgen::sim::Outcome outcome = idgen::sim::Run(steps);
    ++search.schedules;
    search.values += outcome.values;
    search.refusals += outcome.refusals;
    bool attributable = outcome.violated;
#ifdef IDGEN_SIM_ROUTES
    // (under a reopened route, only a violation that the same schedule does not meet without it counts)
    if (attributable && idgen::protocol::sim_route != idgen::protocol::kRouteNone) {
      const auto route = idgen::protocol::sim_route;
      idgen::protocol::sim_route = idgen::protocol::kRouteNone;
      attributable = !idgen::sim::Run(steps).violated;
      idgen::protocol::sim_route = route;
    }
#endif
    if (attributable) {
      search.steps += outcome.at_step + 1;
      search.found = true;
      search.seed = seed * 1000003 + i;
      search.failing = steps;
      search.what = outcome.what;
      return search;
    }
    search.steps += steps.size();
  }
  return search;
}

const char* kRouteNames[idgen::protocol::kRouteCount] = {
    "none",
    "1.0: restart with the clock back",
    "1.0: a hot standby generates",
    "1.1: dump and restore by an owner",
    "1.1: DROP/CREATE EXTENSION",
    "1.1: asynchronous failover",
    "1.2: an identity per database",
    "1.2: restart_at_clock() under the same identity",
    "1.2: a restore into a clone",
    "1.3: a session's identity",
    "1.3: a retired lease kept in memory",
    "1.3: a session connected before a restore",
    "1.3: a renamed shard schema",
    "1.3: a copy made this run's after one group waited",
    "1.3: a new identity below the old identity's lease",
    "1.3: a stale identity lease names the last identity",
    "1.3: a reload inside a transaction keeps the cover",
    "1.3: the failover margin only at promotion",
    "1.3: a copy the clock passed leaves the words below",
    "1.3: CREATE EXTENSION starts the copy at 0",
    "1.3: DROP EXTENSION forgets a copy the clock passed",
    "1.3: a copy raised before both groups waited",
};

int SelfTest(uint64_t seed, uint64_t budget) {
#ifdef IDGEN_SIM_ROUTES
  int missed = 0;
  printf("%-52s %12s %8s  %s\n", "route", "steps", "shrunk", "invariant");
  const auto start = std::chrono::steady_clock::now();
  for (int r = 1; r < idgen::protocol::kRouteCount; ++r) {
    idgen::protocol::sim_route = static_cast<idgen::protocol::Route>(r);
    const Search search = Explore(seed, budget);
    if (!search.found) {
      printf("%-52s %12s %8s  MISSED within %llu steps\n", kRouteNames[r], "-", "-",
             static_cast<unsigned long long>(budget));
      ++missed;
      continue;
    }
    const std::vector<Step> shrunk = idgen::sim::Shrink(search.failing);
    printf("%-52s %12llu %8zu  %s\n", kRouteNames[r], static_cast<unsigned long long>(search.steps), shrunk.size(),
           search.what.c_str());
    if (std::getenv("SIM_VERBOSE") != nullptr) idgen::sim::Print(shrunk);
  }
  idgen::protocol::sim_route = idgen::protocol::kRouteNone;
  printf("self-test: %d of %d routes found in %.1f s\n", idgen::protocol::kRouteCount - 1 - missed,
         idgen::protocol::kRouteCount - 1, Seconds(start));
  return missed == 0 ? 0 : 1;
#else
  (void)seed;
  (void)budget;
  fprintf(stderr, "the self-test needs the simulator's build (IDGEN_SIM_ROUTES)\n");
  return 2;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t seed = EnvOr("SIM_SEED", 1);
  idgen::sim::open_findings = EnvOr("SIM_OPEN_FINDINGS", 0) != 0;
  // A fuzzer's input (test/fuzz/sim_fuzz.cpp: the raw bytes of a schedule), shrunk and printed.
  if (const char* file = std::getenv("SIM_REPLAY_FILE"); file != nullptr && *file != '\0') {
    std::vector<uint8_t> bytes;
    if (FILE* in = std::fopen(file, "rb"); in != nullptr) {
      for (int c = std::fgetc(in); c != EOF; c = std::fgetc(in)) bytes.push_back(static_cast<uint8_t>(c));
      std::fclose(in);
    }
    const auto steps = idgen::sim::Shrink(idgen::sim::FromBytes(bytes.data(), bytes.size()));
    idgen::sim::Print(steps);
    return idgen::sim::Run(steps).violated ? 1 : 0;
  }
  if (const char* replay = std::getenv("SIM_REPLAY"); replay != nullptr && *replay != '\0') {
    std::vector<uint8_t> bytes;
    for (size_t i = 0; replay[i] != '\0' && replay[i + 1] != '\0'; i += 2) {
      bytes.push_back(static_cast<uint8_t>(std::stoul(std::string(replay + i, 2), nullptr, 16)));
    }
    // (printed as kind a b c and x big-endian: back to the byte order FromBytes reads)
    for (size_t i = 0; i + 8 <= bytes.size(); i += 8)
      std::swap(bytes[i + 4], bytes[i + 7]), std::swap(bytes[i + 5], bytes[i + 6]);
    const auto steps = idgen::sim::FromBytes(bytes.data(), bytes.size());
    idgen::sim::Print(steps);
    return idgen::sim::Run(steps).violated ? 1 : 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--selftest") == 0) return SelfTest(seed, EnvOr("SIM_BUDGET", 200000000));
  const uint64_t budget = EnvOr("SIM_STEPS", 30000000);
  const auto start = std::chrono::steady_clock::now();
  const Search search = Explore(seed, budget);
  const double seconds = Seconds(start);
  printf(
      "sim: seed %llu, %llu schedules of up to %zu steps, %llu steps in %.1f s (%.0f steps/s), %llu values, %llu "
      "refusals\n",
      static_cast<unsigned long long>(seed), static_cast<unsigned long long>(search.schedules), kScheduleLength,
      static_cast<unsigned long long>(search.steps), seconds, static_cast<double>(search.steps) / seconds,
      static_cast<unsigned long long>(search.values), static_cast<unsigned long long>(search.refusals));
  if (!search.found) {
    printf("sim: no violation\n");
    return 0;
  }
  printf("sim: VIOLATION in the schedule of seed %llu: %s\n", static_cast<unsigned long long>(search.seed),
         search.what.c_str());
  idgen::sim::Print(idgen::sim::Shrink(search.failing));
  return 1;
}
