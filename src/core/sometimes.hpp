// "Sometimes" counters: IDGEN_SOMETIMES("name") at a branch of the engine or the protocol counts how
// often the simulator reached it, so that its report shows every rare branch exercised (a branch a
// run never reached is a branch it did not test). Outside the simulator's build (IDGEN_SIM) it is
// nothing at all: no code, no data.
//
// Each site is a constant in a section of its own, there from the start, so that the report lists
// the sites a run never reached too (with 0).
#pragma once

#include "core/cpp_only.hpp"

#include <cstdint>

#ifdef IDGEN_SIM
namespace idgen::sometimes {
struct Site {
  const char* name;
  const char* file;
  int line;
  uint64_t count;
};
}  // namespace idgen::sometimes
#define IDGEN_SOMETIMES(name)                                                                                     \
  do {                                                                                                            \
    [[gnu::section("idgen_sometimes"), gnu::used]] static ::idgen::sometimes::Site idgen_site_ = {name, __FILE__, \
                                                                                                  __LINE__, 0};   \
    ++idgen_site_.count;                                                                                          \
  } while (0)
#else
#define IDGEN_SOMETIMES(name) \
  do {                        \
  } while (0)
#endif
