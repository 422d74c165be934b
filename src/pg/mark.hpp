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

#include "core/uid20.hpp"
#include "core/uuidv7.hpp"
#include "pg/family.hpp"
#include "pg/settings.hpp"
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
inline uint64_t MarkMs(Family family, uint64_t mark) {
  const auto end_of_tick = [&](int64_t unit_ms) {
    return static_cast<uint64_t>(settings::EpochMs(family)) + (mark + 1) * static_cast<uint64_t>(unit_ms) - 1;
  };
  switch (family) {
    case kFamilyUuidv7:
      return mark >> uuidv7::kFractionBits;
    case kFamilyUid20:
      return end_of_tick(uid20::kMillis.unit_ms);
    case kFamilyUid20Sec:
      return end_of_tick(uid20::kSeconds.unit_ms);
    case kFamilyNsId:
      return mark / 1000000;
    case kFamilyDecimalId:
      return 0;
    default:
      return end_of_tick(kLayouts[family]->unit_ms);
  }
}

// After taking a value whose last instant is ms, before returning it (C zone): renews the lease
// when ms reaches it (and this database's copy when ms reaches that). False when
// idgen.restart_at_clock() moved the state words since this backend's checks (Prepare): the value
// must not be returned; take another one, after Prepare.
bool Cover(const StateRef& state, uint64_t ms);

// What the common call of a coordinated generator needs, in this backend, without a function call
// (Generate, generator.hpp): the families whose Prepare passed (which also means that the server is
// not in recovery and the state is shared: both last), under which generation of the shared
// state, and the instant below which every value is covered: the lease and this database's copy
// as this backend last read or wrote them. The lease only grows but when restart_at_clock() lowers
// it, which bumps the generation: a value is covered by the cached figure while the generation
// read after it was taken is the same.
struct Hot {
  uint32_t ready = 0;       // a bit per family (1 << family)
  uint64_t generation = 0;  // the shared state's mark.generation when the bits were set
  uint64_t covered_ms = 0;  // values whose last instant lies below it are covered
};
extern Hot hot;

inline bool Ready(Family family) { return (hot.ready & (uint32_t{1} << family)) != 0; }

// Cover, without a function call when the value lies below what this backend knows to be covered.
inline bool Covered(const StateRef& ref, Family family, uint64_t mark) {
  const uint64_t ms = MarkMs(family, mark);
  if (__builtin_expect(
          ms < hot.covered_ms && ref.state.mark.generation.load(std::memory_order_acquire) == hot.generation, 1)) {
    return true;
  }
  return Cover(ref, ms);
}

// A new DecimalId generator id for this server, durable before it is returned. C zone.
int64_t TakeGeneratorId(const StateRef& state);

// Before returning a DecimalId (C zone): this database's copy records its generator id.
void CoverDecimalId(const StateRef& state, int launch_id, int64_t id);

// Before this backend's first DecimalId in this database: refuses (55000) when the database holds
// DecimalIds that another server made under this launch id with generator ids this server has not
// passed. C zone.
void CheckDecimalIdCopy(int launch_id);

}  // namespace idgen::pg::marks
