// SQL functions of the typeid family: prefixed IDs with a base36 (or TypeID-spec base32) body.
// They read with type_id::Parse and write with type_id::CheckFormat, as the type idgen.type_id
// does: one rule for the body's spelling and the empty prefix.
#include "core/typeid.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/sql/uuidv7.hpp"

namespace idgen::pg {

IDGEN_FUNCTION(idgen_typeid) {
  const std::string_view prefix = StringView(PG_GETARG_TEXT_PP(0));
  const bool ordered = PG_GETARG_BOOL(1);
  const std::string_view encoding = StringView(PG_GETARG_TEXT_PP(2));
  const type_id::Encoding enc = Guarded([&] {
    const type_id::Encoding named = type_id::EncodingNamed(encoding);
    type_id::CheckFormat(prefix, named);
    return named;
  });
  const Uuid id = ordered ? NextUuidv7() : Guarded([&] { return type_id::RandomBody(BackendRandom(), MyProcPid); });
  const type_id::Text out = Guarded([&] { return type_id::Format(prefix, id, enc); });
  return TextDatum(out.view());
}

IDGEN_FUNCTION(idgen_typeid_parse) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const type_id::Parsed parsed = Guarded([&] { return type_id::ParseOrThrow(value); });
  const Datum values[2] = {TextDatum(parsed.prefix), ToDatum(parsed.id)};
  return RowDatum(fcinfo, values, 2);
}

IDGEN_FUNCTION(idgen_typeid_uuid) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const std::string_view prefix = StringView(PG_GETARG_TEXT_PP(1));
  return ToDatum(Guarded([&] { return type_id::ParseExpecting(value, prefix).id; }));
}

IDGEN_FUNCTION(idgen_typeid_from_uuid) {
  const std::string_view prefix = StringView(PG_GETARG_TEXT_PP(0));
  const Uuid id = FromDatum<Uuid>(PG_GETARG_DATUM(1));
  const std::string_view encoding = StringView(PG_GETARG_TEXT_PP(2));
  const type_id::Text out = Guarded([&] {
    const type_id::Encoding named = type_id::EncodingNamed(encoding);
    type_id::CheckFormat(prefix, named);
    return type_id::Format(prefix, id, named);
  });
  return TextDatum(out.view());
}

IDGEN_FUNCTION(idgen_typeid_time) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(Guarded([&] { return type_id::TimeUs(value); })));
}

IDGEN_FUNCTION(idgen_typeid_is_valid) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const std::string_view prefix = StringView(PG_GETARG_TEXT_PP(1));
  PG_RETURN_BOOL(Guarded([&] {
    type_id::Parsed parsed{};
    return type_id::Parse(value, parsed) == ParseProblem::kNone && parsed.prefix == prefix;
  }));
}

}  // namespace idgen::pg
