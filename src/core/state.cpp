#include "core/state.hpp"

namespace idgen {

void RecordRegression(FamilyStats& stats, uint64_t regression_ticks, const AdvanceRules& rules) noexcept {
  stats.regressions.fetch_add(1, std::memory_order_relaxed);
  const auto us = static_cast<uint64_t>(static_cast<double>(regression_ticks) * rules.tick_us);
  uint64_t seen = stats.max_regression_us.load(std::memory_order_relaxed);
  while (us > seen && !stats.max_regression_us.compare_exchange_weak(seen, us, std::memory_order_relaxed)) {
  }
}

}  // namespace idgen
