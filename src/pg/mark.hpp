// Durable marks: a coordinated generator never repeats a value across a restart, a crash, DROP
// EXTENSION, a failover to a standby, a dump restored elsewhere or pg_upgrade, even with the clock
// behind where it was.
//
// The server's marks. Every value a coordinated family returns on this server lies below a lease
// end, in Unix milliseconds, that the replication origin idgen_mark holds (origin.hpp): written
// about a second ahead of the values, WAL-logged, flushed and confirmed by synchronous standbys
// before a value beyond the previous lease end is returned; it never goes back. The families with
// a node identity (HasIdentity: the node id, the shards, the server digit) that
// idgen.restart_at_clock() moved back to the clock under a new identity lie below a second lease,
// in idgen_mark_identity, from then on. The first value after the server starts reads them and
// raises every family's state words to them: whatever the clock says, new values lie above every
// value returned before. The gap between these floors and the clock that the server made itself
// (the lease, and on a promoted server idgen.failover_margin, which it adds to what it replayed:
// an asynchronous standby may have missed its primary's last leases) is waited out, never refused.
//
// Each database's copy. idgen.mark holds the lease end under which this database's values were
// made, idgen.mark_server who wrote it (this run of this server, and the node identity it had), and
// idgen.decimal_id_generator the DecimalId generator of the last DecimalId made here (with the
// launch id and its writer's run): pg_dump, pg_restore and pg_upgrade carry them with the rows. A
// copy that this run of the server did not write and that lies above what its words were raised to
// (a restored dump, a cluster pg_upgrade made, a dump restored into a clone of its server) is
// honored: values of the families it may hold wait for the clock to pass it (up to
// idgen.max_clock_regression), or are refused beyond that. A copy never moves the server's own
// state: a database owner who sets it makes her own database wait or refuse, and nothing else.
// While a database holds such a copy, DROP EXTENSION idgen is refused (it would forget it).
//
// DecimalId generator ids come from the replication origin idgen_decimal_id: the next free one,
// durable before it is used.
#pragma once

#include <cstdint>

#include "core/protocol.hpp"
#include "core/uid20.hpp"
#include "core/uuidv7.hpp"
#include "pg/family.hpp"
#include "pg/settings.hpp"
#include "pg/shared.hpp"

namespace idgen::pg::marks {

// The lease, the packing of the origins' values (the lease end and the identity it was written
// under) and the comparison of identities part by part are the protocol's (core/protocol.hpp).
using protocol::EveryPartDiffers;
using protocol::IdentityOf;
using protocol::kIdentityBits;
using protocol::kIdentityMask;
using protocol::kLeaseMs;
using protocol::kMaxLeaseMs;
using protocol::kNoLease;
using protocol::kPartsFormat;
using protocol::kUnknownIdentity;
using protocol::LeaseMsOf;
// The value of an origin: lease_ms under the identity of the server's configuration.
uint64_t Pack(uint64_t lease_ms);

uint64_t NowMs();

// The server's marks as its sessions share them, read once for a decision of the protocol, and
// this server as the decisions compare it.
protocol::ServerMark Snapshot(const SharedState& state);
protocol::Self SelfOf(const SharedState& state);

// The families whose IDs carry this server's node identity (idgen.node_id, idgen.instagram_shards,
// idgen.uid20_server): the ones idgen.restart_at_clock() moves back to the clock. UUIDv7 and ns_id
// have none: they always carry on above every value made before.
constexpr bool HasIdentity(Family family) {
  return family != kFamilyUuidv7 && family != kFamilyNsId && family != kFamilyDecimalId;
}

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

// After taking a value of the family whose last instant is ms, before returning it (C zone): renews
// the leases when ms reaches them (and this database's copy when ms reaches that). False when
// idgen.restart_at_clock() (or a dropped identity lease) moved the state words since this backend's
// checks (Prepare): the value must not be returned; take another one, after Prepare.
bool Cover(Family family, const StateRef& state, uint64_t ms);

// What the common call of a coordinated generator needs, in this backend, without a function call
// (Generate, generator.hpp): the families whose Prepare passed in a database that has its copy
// (which also means that the server is not in recovery and the state is shared: both last), under
// which generation of the shared state, and, for the families without and with a node identity
// (HasIdentity), the instant below which every value is covered: the server's lease (and the
// identity lease), and this database's copy, as this backend last read or wrote them. The leases
// only grow but when restart_at_clock() lowers the identity lease or a changed identity drops it,
// and both bump the generation: a value is covered by the cached figure while the generation read
// after it was taken is the same.
struct Hot {
  uint32_t ready = 0;               // a bit per family (1 << family)
  uint64_t generation = 0;          // the shared state's mark.generation when Prepare last passed
  uint64_t covered_ms[2] = {0, 0};  // [HasIdentity(family)]: values whose last instant lies below it are covered
};
extern Hot hot;

// Prepare has passed for the family in this backend: recovery is over and the state is shared.
inline bool Ready(Family family) { return (hot.ready & (uint32_t{1} << family)) != 0; }

// Whether a value of the family may be taken without Prepare: it passed, and (a family with an
// identity) no identity lease is in force, whose identity Prepare compares with the server's.
inline bool ReadyToTake(Family family, const StateRef& ref) {
  return Ready(family) &&
         (!HasIdentity(family) || ref.state.mark.identity_lease_end_ms.load(std::memory_order_acquire) == kNoLease);
}

// Cover for the value at mark (Generated::mark), without a function call when it lies below what
// this backend knows to be covered.
inline bool CoverValue(Family family, const StateRef& ref, uint64_t mark) {
  const uint64_t ms = MarkMs(family, mark);
  if (__builtin_expect(ms < hot.covered_ms[HasIdentity(family) ? 1 : 0] &&
                           ref.state.mark.generation.load(std::memory_order_acquire) == hot.generation,
                       1)) {
    return true;
  }
  return Cover(family, ref, ms);
}

// A new DecimalId generator id for this server, durable before it is returned. C zone.
int64_t TakeGeneratorId(const StateRef& state);

// Before returning a DecimalId (C zone): this database's copy records its generator id.
void CoverDecimalId(const StateRef& state, int launch_id, int64_t id);

// Before this backend's first DecimalId in this database: refuses (55000) when the database holds
// DecimalIds that another server (or run) made under this launch id with a generator id this server
// has not passed. C zone.
void CheckDecimalIdCopy(const StateRef& state, int launch_id);

// DROP EXTENSION idgen (and DROP OWNED BY its owner), from the event trigger idgen_drop_guard:
// refuses (55000) while this database holds a copy that the server has not passed. C zone.
void CheckDropKeepsNothing(const StateRef& state);

// Raises the error of a database whose copy named `what` is missing: the extension dropped (perhaps
// while the call ran) or older than 1.2.
[[noreturn]] void RaiseMissing(const char* what);

}  // namespace idgen::pg::marks
