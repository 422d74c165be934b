// SQL functions of the typeid family: prefixed IDs with a base36 (or TypeID-spec base32) body.
#include "core/typeid.hpp"
#include "core/uuidv7.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "access/htup_details.h"
}

using namespace idgen;
using namespace idgen::pg;

IDGEN_FUNCTION(idgen_typeid) {
  const std::string_view prefix = View(PG_GETARG_TEXT_PP(0));
  const bool ordered = PG_GETARG_BOOL(1);
  const std::string_view encoding = View(PG_GETARG_TEXT_PP(2));
  State& state = CurrentState();
  const type_id::Text out = Guarded([&] {
    type_id::CheckPrefix(prefix);
    const type_id::Encoding enc = type_id::EncodingNamed(encoding);
    const Uuid id = ordered ? uuidv7::Next(state.uuidv7, state.stats[kFamilyUuidv7], TheClock(), ThePool(), MyProcPid)
                            : type_id::RandomBody(ThePool(), MyProcPid);
    return type_id::Format(prefix, id, enc);
  });
  if (ordered) CountIssued(kFamilyUuidv7);
  return TextDatum(out.view());
}

IDGEN_FUNCTION(idgen_typeid_parse) {
  const std::string_view value = View(PG_GETARG_TEXT_PP(0));
  const type_id::Parsed parsed = Guarded([&] { return type_id::ParseOrThrow(value); });
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) elog(ERROR, "return type must be a row type");
  Datum values[2] = {TextDatum(parsed.prefix), ToDatum(parsed.id)};
  bool nulls[2] = {};
  PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

IDGEN_FUNCTION(idgen_typeid_uuid) {
  const std::string_view value = View(PG_GETARG_TEXT_PP(0));
  const std::string_view prefix = View(PG_GETARG_TEXT_PP(1));
  return ToDatum(Guarded([&] { return type_id::ParseExpecting(value, prefix).id; }));
}

IDGEN_FUNCTION(idgen_typeid_from_uuid) {
  const std::string_view prefix = View(PG_GETARG_TEXT_PP(0));
  const Uuid id = FromPg(PG_GETARG_UUID_P(1));
  const std::string_view encoding = View(PG_GETARG_TEXT_PP(2));
  const type_id::Text out = Guarded([&] {
    type_id::CheckPrefix(prefix);
    return type_id::Format(prefix, id, type_id::EncodingNamed(encoding));
  });
  return TextDatum(out.view());
}

IDGEN_FUNCTION(idgen_typeid_time) {
  const std::string_view value = View(PG_GETARG_TEXT_PP(0));
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(Guarded([&] { return type_id::TimeUs(value); })));
}

IDGEN_FUNCTION(idgen_typeid_is_valid) {
  const std::string_view value = View(PG_GETARG_TEXT_PP(0));
  const std::string_view prefix = View(PG_GETARG_TEXT_PP(1));
  PG_RETURN_BOOL(Guarded([&] {
    type_id::Parsed parsed{};
    return type_id::Parse(value, parsed) == type_id::Problem::kNone && parsed.prefix == prefix;
  }));
}
