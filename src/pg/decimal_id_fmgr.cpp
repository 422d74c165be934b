// SQL functions of DecimalIds: idgen.decimal_id() and idgen.decimal_parse().
#include "core/decimal_id.hpp"
#include "pg/generator.hpp"
#include "pg/guard.hpp"
#include "pg/mark.hpp"
#include "pg/pg.hpp"
#include "pg/settings.hpp"
#include "pg/shared.hpp"

using namespace idgen;
using namespace idgen::pg;

IDGEN_FUNCTION(idgen_decimal_id) {
  const StateRef ref = GeneratorState();
  CheckCanGenerate(kFamilyDecimal, "DecimalId", ref);
  const int launch = settings::launch_id;
  if (launch < 0) {
    Raise(ErrorKind::kPrerequisite, "idgen.launch_id is not set",
          "DecimalIds end with the launch id of the deployment, which idgen does not guess.",
          "Set idgen.launch_id (1 to 99999) in postgresql.conf for this deployment, and reload.");
  }
  DatabaseLeases& db = MyDatabaseLeases(ref.state);
  for (;;) {
    const decimal_id::Next next = Guarded([&] { return decimal_id::Advance(db.decimal, launch); });
    if (next.issued) {
      CountIssued(kFamilyDecimal);
      PG_RETURN_INT64(next.id);
    }
    // No generator yet (since the server started), or its counter ran out: a new generator id,
    // durable before its first ID is returned. Another session may have installed one meanwhile.
    if (db.decimal.load(std::memory_order_acquire) == next.seen) {
      const int64_t generator_id = marks::TakeGeneratorId(ref);
      (void)decimal_id::Install(db.decimal, next.seen, generator_id);
    }
  }
}

IDGEN_FUNCTION(idgen_decimal_parse) {
  const int64 id = PG_GETARG_INT64(0);
  const decimal_id::Parts parts = Guarded([&] { return decimal_id::Decompose(id); });
  const Datum values[3] = {Int64GetDatum(parts.counter), Int32GetDatum(static_cast<int32>(parts.generator_id)),
                           Int32GetDatum(static_cast<int32>(parts.launch_id))};
  return RowDatum(fcinfo, values, 3);
}
