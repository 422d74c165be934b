// Helpers that every fmgr file shares (pg.hpp).
#include "pg/pg.hpp"

extern "C" {
#include "access/htup_details.h"
}

namespace idgen::pg {

Datum RowDatum(FunctionCallInfo fcinfo, const Datum* values, int count) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE || desc->natts != count) {
    elog(ERROR, "return type must be a row type of %d columns", count);
  }
  bool nulls[16] = {};
  Assert(count <= 16);
  return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), const_cast<Datum*>(values), nulls));
}

}  // namespace idgen::pg
