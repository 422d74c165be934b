// A deterministic simulator of idgen's durable-state protocol (core/protocol.hpp): servers
// (primaries, synchronous and asynchronous standbys, clones), databases, sessions with their own
// settings snapshot and caches, a clock per server that jumps both ways, crashes between a write,
// its flush and its publication; dumps and restores, DROP/CREATE EXTENSION, pg_upgrade,
// pg_basebackup clones, reloads, restart_at_clock(), Instagram shard schemas bound, renamed and
// moved. The decisions are core/protocol.cpp's own; what src/pg does with them (origins, sequences,
// state words, latches) is modelled here, in the order mark.cpp does it. After every step it checks
// the invariants (docs/design.md). A schedule is a list of steps, each a few bytes: any bytes make a
// schedule (the fuzz target feeds them), and a failing one shrinks by dropping steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace idgen::sim {

struct Step {
  uint8_t kind = 0;  // Event, modulo kEventCount
  uint8_t a = 0, b = 0, c = 0;
  uint32_t x = 0;
};

struct Outcome {
  bool violated = false;
  std::string what;     // the invariant broken, and how
  size_t at_step = 0;   // the step after which it was found
  uint64_t values = 0;  // values returned
  uint64_t refusals = 0;
};

// The violations found in the real protocol and not yet fixed (docs/design.md, "Open findings") are
// kept out of the schedules unless this is set (SIM_OPEN_FINDINGS=1).
extern bool open_findings;

// Runs a schedule from a fresh world (one primary, one database, one session). trace: prints each
// step as it is replayed, in words and SQL.
Outcome Run(const std::vector<Step>& steps, bool trace = false);

std::vector<Step> RandomSchedule(uint64_t seed, size_t length);
std::vector<Step> FromBytes(const uint8_t* data, size_t size);

// The shortest schedule found that still breaks an invariant (any: the first of the original run's
// kind where it can).
std::vector<Step> Shrink(const std::vector<Step>& steps);

// Prints a schedule, one step a line: what to do on a real server to replay it.
void Print(const std::vector<Step>& steps);

}  // namespace idgen::sim
