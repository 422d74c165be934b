#include "core/state.hpp"

#include <string>

#include "core/error.hpp"

namespace idgen {

namespace {
std::string Milliseconds(uint64_t ticks, const Policy& policy) {
  return std::to_string(static_cast<uint64_t>(static_cast<double>(ticks) * policy.tick_us / 1000.0)) + " ms";
}
}  // namespace

void ThrowClockRegression(uint64_t regression_ticks, const Policy& policy) {
  throw Error(ErrorKind::kClockRegression,
              "system clock is " + Milliseconds(regression_ticks, policy) + " behind the last ID issued",
              "IDs made from this clock could repeat IDs already issued, so none are made.",
              "Check the system clock and its time synchronisation. idgen.max_clock_regression (now " +
                  Milliseconds(policy.max_regression, policy) + ") is the largest step back that idgen rides out.");
}

void RecordRegression(Stats& stats, uint64_t regression_ticks, const Policy& policy) noexcept {
  stats.regressions.fetch_add(1, std::memory_order_relaxed);
  const auto us = static_cast<uint64_t>(static_cast<double>(regression_ticks) * policy.tick_us);
  uint64_t seen = stats.max_regression_us.load(std::memory_order_relaxed);
  while (us > seen && !stats.max_regression_us.compare_exchange_weak(seen, us, std::memory_order_relaxed)) {
  }
}

}  // namespace idgen
