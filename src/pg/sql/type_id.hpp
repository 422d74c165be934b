// What other SQL functions need of the idgen.type_id type (type_id.cpp): a value's prefix and
// UUID, a new value, and a prefix argument under the spec's rule.
#pragma once

#include <string_view>

#include "core/typeid.hpp"
#include "pg/pg.hpp"

namespace idgen::pg::type_id_datum {

// The prefix and UUID of argument n (XX001 for bytes idgen never writes).
type_id::Value Arg(FunctionCallInfo fcinfo, int n);
// The type_id of a prefix (ValidSpecPrefix) and a UUID.
Datum Make(std::string_view prefix, const Uuid& id);
// Argument n as a prefix under the spec's rule (the empty prefix included), or 22023.
std::string_view PrefixArg(FunctionCallInfo fcinfo, int n);

}  // namespace idgen::pg::type_id_datum
