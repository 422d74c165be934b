// The simulator of the durable-state engine (test/sim) on a schedule made of the input's bytes, eight
// a step: any schedule keeps every invariant.
// (the simulator's own build: its counters' type, core/sometimes.hpp; the core objects of the fuzz
// build have no sites, and the counters read none)
#define IDGEN_SIM 1

#include <cstdlib>

#include "fuzz.hpp"
#include "sim/fiber.cpp"
#include "sim/sim.cpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8 * 4000) return 0;
  const idgen::sim::Outcome outcome = idgen::sim::Run(idgen::sim::FromBytes(data, size));
  if (outcome.violated) {
    fprintf(stderr, "violation: %s\n", outcome.what.c_str());
    std::abort();
  }
  return 0;
}
