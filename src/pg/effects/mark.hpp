// Durable marks: a coordinated generator never repeats a value across a restart, a crash, DROP
// EXTENSION, a failover to a standby, a dump restored elsewhere or pg_upgrade, even with the clock
// behind where it was. The sequences that keep that promise are core/engine.cpp's, and every
// decision in them core/protocol.cpp's; this file carries them out with PostgreSQL's calls
// (mark.cpp: the effects) and is what the SQL functions call.
//
// The server's marks. Every value a coordinated family returns on this server lies below a lease
// end, in Unix milliseconds, that the replication origin idgen_mark holds (origin.hpp): written
// about a second ahead of the values, WAL-logged, flushed and confirmed by synchronous standbys
// before a value beyond the previous lease end is returned, and published to the sessions only
// then, as the origin holds it; it never goes back. With the lease it records the parts of the
// identity (the node ids, UID20 digits and Instagram shards) that the values it covers were made
// under (core/identity.hpp), by a handle: the id of a replication origin whose name is their text.
// The families with a part that idgen.restart_at_clock() moved back to the clock lie below a second
// lease, in idgen_mark_identity, from then on. The first value after the server starts reads them
// and raises every family's state words to them: whatever the clock says, new values lie above
// every value returned before.
//
// Each database's copy. idgen.mark holds the lease end under which this database's values were
// made, idgen.mark_identity that of the families with a part, idgen.mark_server who wrote it (this
// run of this server) and, with idgen.mark_parts, the parts of the values it holds, and
// idgen.decimal_id_generator the DecimalId generator of the last DecimalId made here: pg_dump,
// pg_restore and pg_upgrade carry them with the rows. A copy that this run did not write is honored
// where it could hold values this server could repeat.
//
// DecimalId generator ids come from the replication origin idgen_decimal_id: the next free one,
// durable before it is used, taken at least a second after the last (idgen_decimal_take).
#pragma once

#include <cstdint>

#include "core/engine.hpp"
#include "core/protocol.hpp"
#include "core/uid20.hpp"
#include "core/uuidv7.hpp"
#include "pg/family.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

namespace idgen::pg::marks {

uint64_t NowMs();

// The kin of a family (core/protocol.hpp): which part of the identity its IDs carry, and what a
// database's copy is waited for by. DecimalId has its own (engine::kDecimal).
constexpr int KinOf(Family family) {
  switch (family) {
    case kFamilyUuidv7:
    case kFamilyNsId:
      return protocol::kTime;
    case kFamilyInstagram:
      return protocol::kShard;
    case kFamilyUid20:
    case kFamilyUid20Sec:
      return protocol::kDigit;
    case kFamilyDecimalId:
      return engine::kDecimal;
    default:
      return protocol::kNode;
  }
}
// The families whose IDs carry a part of this server's identity (idgen.node_id,
// idgen.instagram_shards, idgen.uid20_server): the ones idgen.restart_at_clock() moves back to the
// clock. UUIDv7 and ns_id have none: they always carry on above every value made before.
constexpr bool HasIdentity(Family family) {
  return KinOf(family) != protocol::kTime && KinOf(family) != engine::kDecimal;
}

// The state word of a family whose every value lies at or after floor_ms, and above every value
// before it.
uint64_t WordAt(Family family, uint64_t floor_ms);

// Before taking a value of the family (C zone: may wait, may raise errors): engine::Prepare.
// Returns false where marks do not apply: no shared state, or recovery.
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
// After taking a value of the family whose last instant is ms, before returning it (C zone):
// engine::Cover. False: drop the value and take another, after Prepare.
bool Cover(Family family, const StateRef& state, uint64_t ms);

// This backend's knowledge of its database's copy and of what is covered (engine::Session): the
// common call of a coordinated generator reads its Hot without a function call.
extern engine::Session session;
// Prepare has passed for the family in this backend: recovery is over and the state is shared.
inline bool Ready(Family family) { return (session.hot.ready & (uint32_t{1} << family)) != 0; }
// Whether a value of the family may be taken without Prepare: it passed, and (a family with a part)
// no identity lease is in force, which Prepare judges against the identity of the configuration.
inline bool ReadyToTake(Family family, const StateRef& ref) {
  return Ready(family) && (!HasIdentity(family) ||
                           ref.state.mark.identity_lease_raw.load(std::memory_order_acquire) == protocol::kNoLease);
}
// Cover for the value at mark (Generated::mark), without a function call when it lies below what
// this backend knows to be covered.
inline bool CoverValue(Family family, const StateRef& ref, uint64_t mark) {
  const uint64_t ms = MarkMs(family, mark);
  if (__builtin_expect(ms < session.hot.covered_ms[HasIdentity(family) ? 1 : 0] &&
                           ref.state.mark.generation.load(std::memory_order_acquire) == session.hot.generation,
                       1)) {
    return true;
  }
  return Cover(family, ref, ms);
}
// A new DecimalId generator id for this server, durable before it is returned. C zone.
int64_t TakeGeneratorId(const StateRef& state);
// Before returning a DecimalId (C zone): this database's copy records its generator id.
void CoverDecimalIdSlow(const StateRef& state, int launch_id, int64_t id);
inline void CoverDecimalId(const StateRef& state, int launch_id, int64_t id) {
  if (!session.copy.has_copy) return;
  if (__builtin_expect(protocol::DecimalCopyValue(session.decimal_run, launch_id, id) == session.decimal_copy, 1)) {
    return;
  }
  CoverDecimalIdSlow(state, launch_id, id);
}
// Before this backend's first DecimalId in this database, in a transaction: refuses (55000) when the
// database holds DecimalIds that another server (or run) made under this launch id with a generator
// id this server has not passed. C zone.
void CheckDecimalIdCopySlow(const StateRef& state, int launch_id);
inline void CheckDecimalIdCopy(const StateRef& state, int launch_id) {
  if (__builtin_expect(
          (!session.decimal_checked || session.decimal_checked_launch != launch_id) && session.copy.has_copy, 0)) {
    CheckDecimalIdCopySlow(state, launch_id);
  }
  session.decimal_checked = true;
  session.decimal_checked_launch = launch_id;
}
// DROP EXTENSION idgen (and DROP OWNED BY its owner), from the event trigger idgen_drop_guard:
// refuses (55000) while this database holds a copy that the server has not passed. C zone.
void CheckDropKeepsNothing(const StateRef& state);
// CREATE EXTENSION: a copy never set starts at the server's leases (engine::StartCopy). C zone.
void StartCopy(const StateRef& state);
// After a COPY that gave values of coordinated families (moved.cpp): engine::HoldMovedValues and
// HoldMovedDecimalIds. C zone.
void HoldMovedValues(const StateRef& state, protocol::Kin kin, uint64_t ms, const identity::Parts& parts);
void HoldMovedDecimalIds(const StateRef& state, int launch_id, int64_t generator);
// idgen.adopt_copy(): engine::AdoptCopy. C zone.
protocol::Adopt AdoptCopy(const StateRef& state, uint64_t accepted_lead_ms);
// idgen.restart_at_clock(): engine::RestartAtClock. C zone.
protocol::Restart RestartAtClock(const StateRef& state, const protocol::RestartInput& in);
// This database's copy as its sequences hold it (read from their pages: nothing of the database's
// owner runs), and its DecimalId generator copy (0 where there is none).
protocol::CopyRead ReadCopyHere();
int64_t ReadDecimalCopyHere();
// Raises the error of a database whose copy named `what` is missing: the extension dropped (perhaps
// while the call ran) or older than 1.2.
[[noreturn]] void RaiseMissing(const char* what);

}  // namespace idgen::pg::marks
