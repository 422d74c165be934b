// The first start of the server's origins (protocol::Rebuilt): every database's copy, read by a
// background worker per database.
#pragma once

#include "core/protocol.hpp"
#include "pg/effects/shared.hpp"

namespace idgen::pg::rebuild {

// What every database's copy holds, merged (protocol::RebuiltOf, Merge). Refuses (55000) when a
// database cannot be read: a guess could repeat its values. C zone; holds no lock.
protocol::Rebuilt FromEveryDatabase(SharedState& state, int launch_id);

}  // namespace idgen::pg::rebuild
