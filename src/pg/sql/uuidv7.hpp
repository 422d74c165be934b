// The UUIDv7 generator, for the families whose values are UUIDv7s (typeid bodies).
#pragma once

#include <cstdint>

#include "core/uuid.hpp"

namespace idgen::pg {

// The next UUIDv7 of the server (of the session where nothing is shared), covered by the
// database's durable mark. shift_steps moves the time written into it (idgen.uuidv7(shift)). C zone.
Uuid NextUuidv7(int64_t shift_steps = 0);

}  // namespace idgen::pg
