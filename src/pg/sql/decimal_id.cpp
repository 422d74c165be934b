// SQL functions of DecimalIds: idgen.decimal_id() and idgen.decimal_parse().
#include "core/decimal_id.hpp"
#include "pg/effects/generator.hpp"
#include "pg/guard.hpp"
#include "pg/effects/mark.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

namespace idgen::pg {

// One generator for the whole server: every database, every session. Its generator id is the
// server's (mark.hpp), a new one at each start of the server and whenever its counter runs out.
IDGEN_FUNCTION(idgen_decimal_id) {
  const StateRef ref = GeneratorState();
  CheckCanGenerate(kFamilyDecimalId, "DecimalId", ref);
  const int launch = settings::launch_id;
  if (launch < 0) {
    Raise(ErrorKind::kPrerequisite, "idgen.launch_id is not set",
          "DecimalIds end with the launch id of the deployment, which idgen does not guess.",
          "Set idgen.launch_id (1 to 99999) in postgresql.conf for this deployment, and reload.");
  }
  // Prepare once in this backend, and again after restart_at_clock() (a new generation), as
  // Generate does for the families of a clock: not a call on every value.
  if (!marks::Ready(kFamilyDecimalId) ||
      ref.state.mark.generation.load(std::memory_order_acquire) != marks::session.hot.generation) {
    (void)marks::Prepare(kFamilyDecimalId, ref);
  }
  marks::CheckDecimalIdCopy(ref, launch);
  std::atomic<uint64_t>& word = ref.state.decimal_id.value;
  for (;;) {
    const decimal_id::Next next = Guarded([&] { return decimal_id::Advance(word, launch); });
    if (next.issued) {
      marks::CoverDecimalId(ref, launch, next.id);
      CountIssued(kFamilyDecimalId);
      PG_RETURN_INT64(next.id);
    }
    // No generator yet (since the server started), or its counter ran out: a new generator id,
    // durable before its first ID is returned. Another session may have installed one meanwhile.
    if (word.load(std::memory_order_acquire) == next.seen) {
      const int64_t generator_id = marks::TakeGeneratorId(ref);
      (void)decimal_id::Install(word, next.seen, generator_id);
    }
    CHECK_FOR_INTERRUPTS();
  }
}

IDGEN_FUNCTION(idgen_decimal_parse) {
  const int64 id = PG_GETARG_INT64(0);
  const decimal_id::Parts parts = Guarded([&] { return decimal_id::Decompose(id); });
  const Datum values[3] = {Int64GetDatum(parts.counter), Int32GetDatum(static_cast<int32>(parts.generator_id)),
                           Int32GetDatum(static_cast<int32>(parts.launch_id))};
  return RowDatum(fcinfo, values, 3);
}

}  // namespace idgen::pg
