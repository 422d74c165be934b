#include "core/decimal_id.hpp"

#include <string>

#include "core/error.hpp"

namespace idgen::decimal_id {

namespace {

constexpr uint64_t kCounterMask = 0xFFFFFFFF;

[[noreturn]] void ThrowField(const char* field, int64_t value, int64_t low, int64_t high) {
  throw Error(
      ErrorKind::kNumericOutOfRange,
      std::string("DecimalId ") + field + " " + std::to_string(value) + " is out of range",
      std::string("A DecimalId ") + field + " is from " + std::to_string(low) + " to " + std::to_string(high) + ".");
}

}  // namespace

void CheckLaunch(int64_t launch_id) {
  if (launch_id < 0 || launch_id > kMaxLaunch) {
    throw Error(ErrorKind::kBadArgument, "DecimalId launch id " + std::to_string(launch_id) + " is out of range",
                "A launch id is from 1 to 99999 (0 in tests).");
  }
}

int64_t Compose(const Parts& p) {
  if (p.counter < 1 || p.counter > kMaxCounter) ThrowField("counter", p.counter, 1, kMaxCounter);
  if (p.generator_id < 0 || p.generator_id > kMaxGenerator)
    ThrowField("generator id", p.generator_id, 0, kMaxGenerator);
  if (p.launch_id < 0 || p.launch_id > kMaxLaunch) ThrowField("launch id", p.launch_id, 0, kMaxLaunch);
  return p.counter * kCounterUnit + p.generator_id * kGeneratorUnit + p.launch_id;
}

Parts Decompose(int64_t id) {
  if (id < 0) {
    throw Error(ErrorKind::kBadArgument, std::to_string(id) + " is not a DecimalId", "DecimalIds are positive.");
  }
  const Parts parts{id / kCounterUnit, id / kGeneratorUnit % kGeneratorUnit, id % kGeneratorUnit};
  if (parts.counter == 0) {
    throw Error(ErrorKind::kBadArgument, std::to_string(id) + " is not a DecimalId",
                "A DecimalId's counter, the digits above the last ten, starts at 1.");
  }
  if (parts.counter > kMaxCounter) ThrowField("counter", parts.counter, 1, kMaxCounter);
  return parts;
}

Next Advance(std::atomic<uint64_t>& state, int64_t launch_id) {
  const uint64_t old = state.load(std::memory_order_acquire);
  if (old == 0 || (old & kCounterMask) >= static_cast<uint64_t>(kMaxCounter)) return Next{false, 0, old};
  const uint64_t taken = state.fetch_add(1, std::memory_order_acq_rel) + 1;
  const uint64_t counter = taken & kCounterMask;
  // Callers that found the last counters left race for them: those past the end take nothing.
  if (counter > static_cast<uint64_t>(kMaxCounter)) return Next{false, 0, taken};
  const auto generator_id = static_cast<int64_t>(taken >> 32) - 1;
  return Next{true, Compose(Parts{static_cast<int64_t>(counter), generator_id, launch_id}), 0};
}

bool Install(std::atomic<uint64_t>& state, uint64_t seen, int64_t generator_id) {
  const uint64_t fresh = static_cast<uint64_t>(generator_id + 1) << 32;
  return state.compare_exchange_strong(seen, fresh, std::memory_order_acq_rel);
}

}  // namespace idgen::decimal_id
