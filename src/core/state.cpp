#include "core/state.hpp"

namespace idgen {

namespace {
void RaiseMax(std::atomic<uint64_t>& max, uint64_t value) noexcept {
  uint64_t seen = max.load(std::memory_order_relaxed);
  while (value > seen && !max.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}
}  // namespace

void RecordRegression(FamilyStats& stats, uint64_t regression_ticks, const AdvanceRules& rules) noexcept {
  stats.regressions.fetch_add(1, std::memory_order_relaxed);
  RaiseMax(stats.max_regression_us, static_cast<uint64_t>(static_cast<double>(regression_ticks) * rules.tick_us));
}

void RecordLead(FamilyStats& stats, uint64_t lead_ticks, const AdvanceRules& rules) noexcept {
  RaiseMax(stats.max_lead_us, static_cast<uint64_t>(static_cast<double>(lead_ticks) * rules.tick_us));
}

}  // namespace idgen
