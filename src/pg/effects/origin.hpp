// The server's own durable state: replication origins (idgen_mark, idgen_decimal_id and, after
// idgen.restart_at_clock(), idgen_mark_identity), whose
// 64-bit "remote LSN" idgen uses as a value. Why origins (docs/design.md says more): they are the
// one 64-bit value per server that an extension can keep in core's WAL without a resource manager
// of its own, so that a standby replays it with or without idgen, a crash recovers it, a checkpoint
// keeps it, and it belongs to the server rather than to a database (DROP EXTENSION, DROP DATABASE
// and a thousand databases leave it alone). Each that holds a value takes one replication state slot
// (max_replication_slots before 18, max_active_replication_origins from 18).
#pragma once

#include <cstdint>

#include "pg/compat.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "access/xlogdefs.h"
#include "replication/origin.h"
}

namespace idgen::pg::origin {

enum Which { kMark, kDecimalId, kIdentityMark, kDecimalTake, kOriginCount };

inline constexpr const char* kNames[kOriginCount] = {"idgen_mark", "idgen_decimal_id", "idgen_mark_identity",
                                                     "idgen_decimal_take"};

// The origin's id. Creates the origins first where they do not exist (a new server, or one that
// pg_upgrade made), by a background worker: in a transaction of their own, committed whatever
// becomes of the caller's. C zone: a catalog read, never under a lock of idgen's.
compat::OriginId Id(Which which);

// The registry of parts (core/identity.hpp): an origin named kPartsPrefix and the parts' text, made
// when missing (by the same worker, committed before it is returned), whose id is the parts'
// handle. Names are at most kMaxNamedLength bytes (the worker's extra bytes carry one). C zone; never
// under a lock of idgen's.
inline constexpr const char* kPartsPrefix = "idgen_parts ";
inline constexpr size_t kMaxNamedLength = 120;
compat::OriginId IdNamed(const char* name);
// The name of an origin id (false: no such origin), into out.
bool NameOf(compat::OriginId id, char* out, size_t size);

// The origin's value (0 when it was never set).
uint64_t Read(compat::OriginId id);

// Sets the origin's value, WAL-logged: never lowers it unless backward. Returns the end of the WAL
// record, which FlushAndConfirm must reach before anything that relies on the value is returned.
XLogRecPtr Advance(compat::OriginId id, uint64_t value, bool backward);

// Flushes WAL up to lsn and, where synchronous standbys are configured, waits until they have
// flushed it too, whatever the session's synchronous_commit. The wait answers cancel, terminate
// and statement_timeout; an unconfirmed wait is an error (57014), never a silent return. C zone.
void FlushAndConfirm(XLogRecPtr lsn);

}  // namespace idgen::pg::origin
