// Fakes for the impure inputs of the cores: a clock that only moves when told to, a random source
// that hands out a known byte sequence or fails on demand, and the inputs of a generator together.
// And a UUID from its text.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/random.hpp"
#include "core/state.hpp"
#include "core/uuid.hpp"

namespace idgen::testing {

struct FakeClock final : Clock {
  int64_t ns = 0;
  int64_t NowNs() override { return ns; }
  void SetMs(int64_t ms) { ns = ms * 1000000; }
};

struct FakeRandom final : RandomSource {
  enum class Mode { kCount, kFail, kThrow } mode = Mode::kCount;
  int fills = 0;
  uint8_t next = 0;
  bool Fill(uint8_t* out, size_t n) override {
    ++fills;
    if (mode == Mode::kFail) return false;
    if (mode == Mode::kThrow) throw std::runtime_error("fake source fault");
    // Consecutive bytes; each block after the first is offset, so that blocks differ.
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(next++ ^ ((fills - 1) * 0x5B));
    return true;
  }
};

// What a generator's Next reads and writes, faked: a clock that moves when told, a counting random
// source behind a pool, one state word and its statistics.
struct GeneratorInputs {
  FakeClock clock;
  FakeRandom source;
  RandomPool pool{source};
  StateWord word;
  FamilyStats stats;
};

// "017f22e2-79b0-7cc3-98c4-dc0c0c07398f" -> its 16 bytes.
inline Uuid UuidFromText(const std::string& text) {
  std::string hex;
  for (char c : text)
    if (c != '-') hex += c;
  Uuid id;
  for (size_t i = 0; i < 16; ++i) id.bytes[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return id;
}

// The kind of the Error that call() throws; a test failure if it throws none.
inline ErrorKind KindOf(auto&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no error";
  return ErrorKind::kInternal;
}

}  // namespace idgen::testing
