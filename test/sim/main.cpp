// make sim: schedules drawn from SIM_SEED (1) on, SIM_LENGTH steps each (3000), until SIM_STEPS steps
// (250 million) have run; every invariant checked at every value and every effect. A violation is
// shrunk and printed as the numbered steps that make it, with the line that replays it. Then the
// "sometimes" counters: how often each event, effect and decision branch was reached.
//
//   build/sim/sim                     explore (the environment above)
//   build/sim/sim --replay HEX        replay a printed schedule, step by step
//   build/sim/sim --find FILE         explore quietly; a violation: its schedule into FILE, exit 1
//                                     (test/sim/selftest.sh and mutants.py use it)
//   SIM_SHOW=n build/sim/sim          print schedule n of the run, step by step, and stop
//   SIM_PLOT=n build/sim/sim          every schedule follows plot n (what one kind of history reaches)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "sim/sim.hpp"

namespace {

using idgen::sim::Step;

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 0) : fallback;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Replay(const std::string& hex) {
  const std::vector<Step> steps = idgen::sim::FromHex(hex);
  const idgen::sim::Outcome out = idgen::sim::Run(steps, true);
  if (out.violated) {
    printf("VIOLATION at step %zu: %s\n", out.at_step + 1, out.what.c_str());
    return 1;
  }
  printf("no violation (%llu steps applied, %llu values)\n", static_cast<unsigned long long>(out.steps),
         static_cast<unsigned long long>(out.values));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::strcmp(argv[1], "--replay") == 0) return Replay(argv[2]);
  if (const char* hex = std::getenv("SIM_REPLAY"); hex != nullptr && *hex != '\0') return Replay(hex);
  const char* found_file = argc > 2 && std::strcmp(argv[1], "--find") == 0 ? argv[2] : nullptr;

  idgen::sim::open_findings = EnvOr("SIM_OPEN", 0) != 0;
  const uint64_t seed = EnvOr("SIM_SEED", 1);
  const uint64_t length = EnvOr("SIM_LENGTH", 3000);
  const uint64_t budget = EnvOr("SIM_STEPS", 250000000);
  const auto show = static_cast<int64_t>(EnvOr("SIM_SHOW", ~uint64_t{0}));
  const auto start = std::chrono::steady_clock::now();
  idgen::sim::Outcome total;
  uint64_t schedules = 0;
  std::vector<Step> steps;
  for (uint64_t i = 0; total.steps < budget; ++i) {
    const uint64_t schedule_seed = seed * 1000003 + i;
    const idgen::sim::Outcome out = idgen::sim::Explore(schedule_seed, length, &steps);
    if (show >= 0 && static_cast<uint64_t>(show) == i) {
      idgen::sim::Run(steps, true);  // (SIM_SHOW=n: schedule n, step by step)
      return 0;
    }
    ++schedules;
    total.steps += out.steps;
    total.calls += out.calls;
    total.values += out.values;
    total.refusals += out.refusals;
    total.effects += out.effects;
    total.excused += out.excused;
    if (total.excused_what.empty()) total.excused_what = out.excused_what;
    if (!out.violated) continue;
    if (found_file != nullptr) {
      const std::vector<Step> shrunk = idgen::sim::Shrink(steps);
      std::ofstream(found_file) << idgen::sim::ToHex(shrunk) << "\n";
      printf("found after %llu steps (%.1f s), %zu steps shrunk: %s\n",
             static_cast<unsigned long long>(total.steps), Seconds(start), shrunk.size(), out.what.c_str());
      return 1;
    }
    printf("sim: VIOLATION in schedule %llu (seed %llu), after %llu steps in all: %s\n",
           static_cast<unsigned long long>(i), static_cast<unsigned long long>(schedule_seed),
           static_cast<unsigned long long>(total.steps), out.what.c_str());
    const std::vector<Step> shrunk = idgen::sim::Shrink(steps);
    printf("sim: the schedule, shrunk to %zu steps:\n", shrunk.size());
    const idgen::sim::Outcome replayed = idgen::sim::Run(shrunk, true);
    printf("sim: %s\n", replayed.what.c_str());
    printf("sim: replay it with: build/sim/sim --replay %s\n", idgen::sim::ToHex(shrunk).c_str());
    return 1;
  }
  const double seconds = Seconds(start);
  if (found_file != nullptr) {
    printf("not found in %llu steps (%.1f s)\n", static_cast<unsigned long long>(total.steps), seconds);
    return 0;
  }
  printf(
      "sim: seed %llu, %llu schedules of %llu steps, %llu steps in %.1f s: %llu calls, %llu values, %llu refused or "
      "failed, %llu effects\n",
      static_cast<unsigned long long>(seed), static_cast<unsigned long long>(schedules),
      static_cast<unsigned long long>(length), static_cast<unsigned long long>(total.steps), seconds,
      static_cast<unsigned long long>(total.calls), static_cast<unsigned long long>(total.values),
      static_cast<unsigned long long>(total.refusals), static_cast<unsigned long long>(total.effects));
  if (total.excused != 0) {
    printf("sim: %llu repeats between servers the operator gave one part (the docs' rule broken, reported, not "
           "failures); the first: %s\n",
           static_cast<unsigned long long>(total.excused), total.excused_what.c_str());
  }
  if (EnvOr("SIM_QUIET", 0) == 0) idgen::sim::PrintSometimes(stdout);
  const std::vector<std::string> never = idgen::sim::NeverReached();
  printf("sim: no violation; %zu decision branches never reached%s\n", never.size(), never.empty() ? "" : ":");
  for (const std::string& name : never) printf("  %s\n", name.c_str());
  return 0;
}
