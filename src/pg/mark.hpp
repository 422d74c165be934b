// Durable marks: a coordinated generator never repeats a value across a restart, a crash, DROP
// EXTENSION, a failover to a standby, a dump restored elsewhere or pg_upgrade, even with the clock
// behind where it was.
//
// The server's mark. Every value a coordinated family returns on this server lies below a lease
// end, in Unix milliseconds, that the replication origin idgen_mark holds (origin.hpp): written
// about a second ahead of the values, WAL-logged, flushed and confirmed by synchronous standbys
// before a value beyond the previous lease end is returned. The first value after the server
// starts reads it and raises every family's state words to it: whatever the clock says, new values
// lie above every value returned before. A server that was promoted adds idgen.failover_margin to
// what it replayed (an asynchronous standby may have missed the last leases of its primary), and
// makes that durable before its first value.
//
// Each database's copy. idgen.mark holds the lease end under which this database's values were
// made, and idgen.mark_server the system identifier of the server that wrote it: pg_dump,
// pg_restore and pg_upgrade carry both with the rows. A copy from another server (a restored dump,
// a cluster pg_upgrade made, a database whose copy idgen 1.1 left) is honored: the database waits
// for the clock to pass it (up to idgen.max_clock_regression), or refuses beyond that; its values
// then lie above the copy's, and the copy becomes this server's. It never moves the server's own
// state, so that a database owner who sets it affects her database only.
//
// DecimalId generator ids come from the replication origin idgen_decimal_id: the next free one,
// durable before it is used. idgen.decimal_id_generator holds launch_id * 100000 + the largest
// generator id of the DecimalIds made in this database.
#pragma once

#include <cstdint>

#include "pg/family.hpp"
#include "pg/shared.hpp"

namespace idgen::pg::marks {

// How long a lease runs ahead of the values it covers: one flush per second of generating.
inline constexpr uint64_t kLeaseMs = 1000;

// The value of idgen_mark: the lease end in 10 ms (40 bits, to 2318) above a 24-bit hash of the
// identity settings it was written under (what idgen.restart_at_clock() checks).
inline constexpr unsigned kIdentityBits = 24;
inline constexpr uint64_t kIdentityMask = (uint64_t{1} << kIdentityBits) - 1;
uint64_t Pack(uint64_t lease_ms);
inline uint64_t LeaseMsOf(uint64_t packed) { return (packed >> kIdentityBits) * 10; }
inline uint32_t IdentityOf(uint64_t packed) { return static_cast<uint32_t>(packed & kIdentityMask); }

uint64_t NowMs();

// The state word of a family whose every value lies at or after floor_ms, and above every value
// before it.
uint64_t WordAt(Family family, uint64_t floor_ms);

// Before taking a value of the family (C zone: may wait, may raise errors): reads the server's mark
// once after the state was created, and this database's copy once per backend. Returns false where
// marks do not apply: no shared state, or recovery.
bool Prepare(Family family, const StateRef& state);

// The last Unix millisecond of the tick that a family's mark position (Generated::mark) names.
uint64_t MarkMs(Family family, uint64_t mark);

// After taking a value whose last instant is ms, before returning it (C zone): renews the lease
// when ms reaches it (and this database's copy when ms reaches that). False when
// idgen.restart_at_clock() moved the state words since generation was read: the value must not be
// returned; take another one.
bool Cover(const StateRef& state, uint64_t ms, uint64_t generation);

// A new DecimalId generator id for this server, durable before it is returned. C zone.
int64_t TakeGeneratorId(const StateRef& state);

// Before returning a DecimalId (C zone): this database's copy records its generator id.
void CoverDecimalId(const StateRef& state, int launch_id, int64_t id);

// Before this backend's first DecimalId in this database: refuses (55000) when the database holds
// DecimalIds that another server made under this launch id with generator ids this server has not
// passed. C zone.
void CheckDecimalIdCopy(int launch_id);

}  // namespace idgen::pg::marks
