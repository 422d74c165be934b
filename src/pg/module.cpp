// The module: _PG_init, and the per-process clock and random pool.
#include "pg/module.hpp"

#include <new>
#include <stdexcept>

#include "pg/effects/drop_guard.hpp"
#include "pg/effects/moved.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "mb/pg_wchar.h"

PG_MODULE_MAGIC;
void _PG_init(void);
}

namespace idgen::pg {

namespace {

class PgRandomSource final : public RandomSource {
 public:
  bool Fill(uint8_t* out, size_t n) override {
#ifdef IDGEN_DEBUG_FAULT
    switch (settings::DebugFaultNow()) {
      case settings::kFaultRandom:
        return false;
      case settings::kFaultMemory:
        throw std::bad_alloc();
      case settings::kFaultInternal:
        throw std::logic_error("fault injected by idgen.debug_fault");
      default:
        break;
    }
#endif
    return pg_strong_random(out, n);
  }
};

PgRandomSource random_source;

// Messages quote user input cut on a character boundary of the database's encoding.
int DatabaseCharLength(const unsigned char* s) {
  return pg_encoding_mblen(GetDatabaseEncoding(), reinterpret_cast<const char*>(s));
}

}  // namespace

RandomPool random_pool(random_source);  // constant-initialised: filled on first use, in a backend
SystemClock system_clock;

}  // namespace idgen::pg

void _PG_init(void) {
  idgen::pg::settings::Define();
  if (process_shared_preload_libraries_in_progress) idgen::pg::RequestSharedState();
  idgen::SetCharLength(idgen::pg::DatabaseCharLength);
  idgen::pg::InstallDropGuard();
  idgen::pg::moved::InstallCopyHook();
}
