#include "core/state.hpp"

namespace idgen {

void RecordRegression(FamilyStats& stats, uint64_t regression_ticks, const AdvanceRules& rules) noexcept {
  stats.regressions.fetch_add(1, std::memory_order_relaxed);
  RaiseAtomic(stats.max_regression_us, static_cast<uint64_t>(static_cast<double>(regression_ticks) * rules.tick_us));
}

}  // namespace idgen
