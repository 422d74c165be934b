// Durable marks: a generator never repeats a value across a restart, a crash, or a failover to a
// standby, even when the clock is behind where it was.
//
// Each database that generates keeps, per family, a high-water mark in a sequence of the extension,
// idgen.<family>_mark, in the family's ticks: every value of that family ever returned in that
// database lies below it. The mark is written ahead of use, a lease of about a second, with generic
// WAL (core's own resource manager, replayed with or without idgen) and flushed, and with
// synchronous replication waited for, before a value beyond the previous mark is returned. After a
// restart (or on a promoted standby, where the marks replayed) the first value in a database reads
// its mark and raises the family's state words to it.
//
// Why a sequence written with generic WAL: it is a WAL-logged relation of the extension, so it
// replays on standbys and survives crashes without a custom resource manager (which would need
// idgen preloaded to replay, and could keep a server from starting without it); unlike nextval()
// or setval(), writing its page with generic WAL needs no transaction ID, works in read-only
// transactions and in parallel mode, and bypasses no privilege check that users rely on (the
// sequence is the extension's, and no role but a superuser may use it).
#pragma once

#include <cstdint>

#include "pg/family.hpp"
#include "pg/shared.hpp"

namespace idgen::pg::marks {

// Before taking a value of the family in this database (C zone: may raise errors). Reads the
// database's mark once after the state was created and raises the family's words to it. Returns
// the database's leases, or nullptr where marks do not apply (no shared state, or in recovery).
DatabaseLeases* Prepare(Family family, const StateRef& state);

// After taking a value at tick, before returning it: renews the lease when tick reaches its end.
void Renew(Family family, const StateRef& state, DatabaseLeases& leases, uint64_t tick);

// A new DecimalId generator id for this database: the next value of its sequence
// idgen.decimal_generator, written and flushed (as a mark) before it is used. C zone.
int64_t TakeGeneratorId(const StateRef& state);

inline void Cover(Family family, const StateRef& state, DatabaseLeases* leases, uint64_t tick) {
  if (leases != nullptr && tick >= leases->lease_end[family].load(std::memory_order_acquire)) {
    Renew(family, state, *leases, tick);
  }
}

}  // namespace idgen::pg::marks
