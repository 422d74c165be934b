// idgen.debug_fault: makes idgen's random source fail, so that idgen's own tests (sql/debug_fault.sql)
// reach the error door's every kind. Compiled only into a build for the tests (make IDGEN_DEBUG=1,
// which defines IDGEN_DEBUG_FAULT): a release build does not know the setting.
#ifdef IDGEN_DEBUG_FAULT

#include "pg/module.hpp"  // the core headers first (core/cpp_only.hpp)
#include "pg/compat.hpp"
#include "pg/settings/settings_parts.hpp"

extern "C" {
#include "utils/guc.h"
}

namespace idgen::pg::settings {

namespace {

const config_enum_entry kDebugFaults[] = {
    {"none", kNoFault, false},           {"random", kFaultRandom, false}, {"out_of_memory", kFaultMemory, false},
    {"internal", kFaultInternal, false}, {"retake", kFaultRetake, false}, {nullptr, 0, false},
};
int debug_fault = kNoFault;

}  // namespace

int DebugFaultNow() { return debug_fault; }

void DefineDebugFault() {
  DefineCustomEnumVariable(
      "idgen.debug_fault", "Makes idgen's random source fail, to test error reporting.", "For idgen's own tests only.",
      &debug_fault, kNoFault, kDebugFaults, PGC_SUSET, GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr,
      [](int, void*) { BackendRandom().Discard(); }, nullptr);
}

}  // namespace idgen::pg::settings

#endif  // IDGEN_DEBUG_FAULT
