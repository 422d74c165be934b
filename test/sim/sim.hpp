// A deterministic simulator of idgen's durable state: the product's own engine (core/engine.cpp,
// core/protocol.cpp, core/identity.cpp) and value makers (the state words and layouts of src/core)
// run in sessions on fibers, against simulated servers (sim.cpp implements engine::Effects over
// them, as src/pg/effects/mark.cpp does over PostgreSQL). A schedule is a list of steps: a session's call
// goes on to its next effect, a call starts, the clock ticks or jumps, a server reloads, crashes,
// restarts, gets a standby, is promoted, cloned or upgraded, a database is dumped, restored or set
// by its owner. The invariants are on the values themselves (docs/design.md, "The simulator").
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace idgen::sim {

// The schedules that reach a hole known and not closed yet are drawn only when this is set
// (SIM_OPEN=1; sim.cpp lists them).
extern bool open_findings;

struct Step {
  uint8_t kind = 0;  // Kind (sim.cpp), modulo their count
  uint8_t a = 0, b = 0, c = 0;
  uint32_t x = 0;
};

struct Outcome {
  bool violated = false;
  std::string what;     // the invariant broken, and how
  size_t at_step = 0;   // the step during which it broke
  uint64_t steps = 0;   // steps applied
  uint64_t calls = 0, values = 0, refusals = 0, effects = 0;
  // Repeats between servers that the operator gave one node id, digit, shard set or launch id (the
  // docs' rule: every server its own), counted and reported, never a failure; the first, in words.
  uint64_t excused = 0;
  std::string excused_what;
};

// Runs the steps from a fresh world (a step that does not apply to the world as it is then does
// nothing). trace: prints the steps as they apply, numbered, with what each session's call did.
Outcome Run(const std::vector<Step>& steps, bool trace = false);
// Draws up to length steps from seed, each among what the world allows when it is drawn, and runs
// them; taken gets the steps run (a violation ends the run).
Outcome Explore(uint64_t seed, size_t length, std::vector<Step>* taken);
// The fewest steps found that still break an invariant of the same kind.
std::vector<Step> Shrink(const std::vector<Step>& steps);
// A schedule as hex (two digits a byte, eight bytes a step), and back; and any bytes as steps (a
// fuzzer's input).
std::string ToHex(const std::vector<Step>& steps);
std::vector<Step> FromHex(const std::string& hex);
std::vector<Step> FromBytes(const uint8_t* data, size_t size);

// The "sometimes" counters: each event and effect of the simulation, and each IDGEN_SOMETIMES site
// of the engine and the protocol, with how often it was reached since the program started.
void PrintSometimes(FILE* out);
// The sites never reached (names), for a summary line.
std::vector<std::string> NeverReached();

}  // namespace idgen::sim
