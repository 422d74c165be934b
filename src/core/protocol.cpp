#include "core/protocol.hpp"

#include <algorithm>

namespace idgen::protocol {

#ifdef IDGEN_SIM_ROUTES
Route sim_route = kRouteNone;
#endif

// ---- the start of the server ------------------------------------------------------------------------

// The origins' values, raised by the failover margin on a promoted server (an asynchronous standby
// may have missed its primary's last leases), become the floors of the words. The identity lease
// counts while the server has the identity it was written under; under another identity the
// families with one lie below the server's lease, as before restart_at_clock().
Load DecideLoad(uint64_t mark_raw, uint64_t identity_raw, uint64_t decimal_raw, uint32_t identity, bool promoted,
                uint32_t timeline, uint64_t margin_ms) {
  Load load;
  const uint64_t stored_ms = LeaseMsOf(mark_raw);
  // Promoted now, or the leases were loaded last under an earlier timeline (a promoted server
  // restarted, or cloned, before its first ID): the leases are what a standby replayed.
  const bool before_this_timeline =
      timeline > 1 && stored_ms != 0 && TimelineOf(decimal_raw) < timeline && !Reopened(kRouteMarginAtPromotionOnly);
  load.after_failover = promoted || before_this_timeline;
  const uint64_t margin = load.after_failover && !Reopened(kRouteAsyncFailover) ? margin_ms : 0;
  load.identity_valid = identity_raw != 0 && IdentityOf(identity_raw) == (identity & kIdentityMask);
  load.retire_identity = identity_raw != 0 && !load.identity_valid && !Reopened(kRouteRetiredInMemory) &&
                         !Reopened(kRouteStaleIdentityLease);
  const uint64_t identity_ms = load.identity_valid ? std::min(LeaseMsOf(identity_raw), stored_ms) : stored_ms;
  load.floor_ms = stored_ms == 0 ? 0 : stored_ms + margin;
  load.identity_floor_ms = identity_ms == 0 ? 0 : identity_ms + margin;
  if (Reopened(kRouteRestartClockBack)) load.floor_ms = load.identity_floor_ms = 0;
  load.self_made_ms = kLeaseMs + margin;
  load.decimal_next = DecimalNextOf(decimal_raw) + (load.after_failover ? kDecimalFailoverSkip : 0);
  load.renew = load.after_failover && stored_ms != 0;
  load.renew_identity_ms = load.renew && load.identity_valid ? load.identity_floor_ms : 0;
  // (timeline 1 writes no timeline: a server never promoted keeps idgen_decimal_id as it was)
  load.timeline_before = TimelineOf(decimal_raw);
  load.decimal_timeline = timeline > 1 ? timeline : load.timeline_before;
  load.write_decimal = load.decimal_timeline != load.timeline_before || load.after_failover;
  return load;
}

void ApplyLoad(ServerMark& mark, const Load& load, uint64_t mark_raw, uint64_t identity_raw) {
  mark.decimal_id_next = load.decimal_next;
  mark.decimal_id_floor = load.decimal_next;
  mark.decimal_timeline = load.timeline_before;
  mark.lease_end_ms = LeaseMsOf(mark_raw);
  mark.lease_identity = IdentityOf(mark_raw);
  mark.identity_lease_hash = IdentityOf(identity_raw);
  mark.identity_lease_end_ms = load.identity_valid ? LeaseMsOf(identity_raw) : kNoLease;
  mark.floor_ms = load.floor_ms;
  mark.identity_floor_ms = load.identity_floor_ms;
  mark.loaded = true;
}

void FinishLoad(ServerMark& mark, const Load& load) { mark.decimal_timeline = load.decimal_timeline; }

// ---- renewing the leases ---------------------------------------------------------------------------

// A lease is written under the identity of the server's configuration, and a value is returned only
// under the identity of the lease that covers it: a reload that changed the identity drops the
// value. So does a generation moved since the session's checks (restart_at_clock(), a dropped
// identity lease). A value at or past a lease renews it a second beyond the value or the clock; a
// value of a family with an identity under another identity than the server's lease was written
// under writes the lease again first (restart_at_clock() compares that identity), one unit (10 ms)
// beyond itself; a value at or past the database's copy writes the copy.
CoverDecision DecideCover(const ServerMark& mark, Group group, uint64_t hot_generation, bool identity_changed,
                          uint32_t identity, const CopyState& copy, uint64_t ms, uint64_t now_ms) {
  CoverDecision decision;
  if (identity_changed || mark.generation != hot_generation) {
    decision.retake = true;
    return decision;
  }
  const bool with_identity = group == kWithIdentity;
  const uint64_t lease = mark.lease_end_ms;
  const uint64_t identity_lease = with_identity ? mark.identity_lease_end_ms : kNoLease;
  const uint64_t copy_ms = with_identity ? copy.copy_identity_ms : copy.copy_ms;
  const bool new_identity =
      with_identity && mark.lease_identity != (identity & kIdentityMask) && !Reopened(kRouteLeaseOfOldIdentity);
  if (ms >= lease || ms >= identity_lease || new_identity) {
    const uint64_t next = std::max(std::max(ms, now_ms) + kLeaseMs, new_identity ? lease + 10 : 0);
    if (next > kMaxLeaseMs) {
      decision.beyond_max = true;
      return decision;
    }
    decision.renew_lease_ms = ms >= lease || new_identity ? next : 0;
    decision.renew_identity_ms = ms >= identity_lease ? next : 0;
  }
  decision.write_copy = copy.has_copy && ms >= copy_ms;
  return decision;
}

bool RenewalStillValid(const ServerMark& mark, uint64_t generation) { return mark.generation == generation; }

void PublishRenewal(ServerMark& mark, uint64_t lease_ms, uint64_t identity_lease_ms, uint32_t identity) {
  if (lease_ms != 0) {
    mark.lease_identity = identity & kIdentityMask;
    mark.lease_end_ms = std::max(mark.lease_end_ms, lease_ms);
  }
  if (identity_lease_ms != 0) {
    mark.identity_lease_end_ms = RenewedIdentityLease(mark.identity_lease_end_ms, identity_lease_ms);
  }
}

// ---- the identity lease of another identity ------------------------------------------------------

// Another identity than the lease's (one put back after restart_at_clock() gave the server a new
// one, or any change without it) makes the families with an identity lie below the server's lease
// again, which holds every value ever made here: their words go up to it, and they wait or refuse
// until the clock passes it (else a node id put back after the recovery would repeat, in another
// database, the IDs made under it while the clock was ahead).
bool MustDropIdentityLease(const ServerMark& mark, uint32_t identity) {
  return mark.identity_lease_end_ms != kNoLease && mark.identity_lease_hash != (identity & kIdentityMask);
}

DropIdentity BeginDropIdentityLease(ServerMark& mark) {
  DropIdentity drop;
  mark.generation += 1;            // values taken meanwhile are taken again
  mark.identity_lease_end_ms = 0;  // no value passes until it is retired
  drop.raise_identity_words_to_ms = mark.lease_end_ms;
  mark.identity_floor_ms = mark.floor_ms;
  // Retired on disk before anything reads "no lease": a restart must not find the old lease under
  // the identity it names (the server may have that identity again by then).
  drop.retire_on_disk = !Reopened(kRouteRetiredInMemory);
  return drop;
}

void FinishDropIdentityLease(ServerMark& mark) { mark.identity_lease_end_ms = kNoLease; }

// ---- each database's copy --------------------------------------------------------------------------

// Covered: this run wrote it; or it lies at or below what this run raised the words to; or (the
// families with an identity) it was written under an identity that differs from this server's in
// every part (node, UID20 digit, shards), whose IDs theirs cannot repeat in any family (a copy of
// this server's made before restart_at_clock gave it a new one, or another server's). A copy of a
// server that shares one part with this one holds the families of that part as any copy does. A
// copy of 1.2 (the system identifier) predates every identity lease, and the identity it was
// written under.
bool Covered(const ServerMark& mark, const Self& self, Group group, uint64_t copy_ms, int64_t tag) {
  const auto bits = static_cast<uint64_t>(tag);
  if ((bits & kTagged) != 0 && (bits >> kIdentityBits & kRunMask) == (self.run_bits & kRunMask)) return true;
  if (Reopened(kRouteRestoreIntoClone) && tag == self.system_identifier) return true;
  const uint64_t floor = group == kWithIdentity ? mark.identity_floor_ms : mark.floor_ms;
  if (copy_ms <= floor) return true;
  if (group != kWithIdentity) return false;
  if ((bits & kTagged) != 0) {
    return EveryPartDiffers(static_cast<uint32_t>(bits & kIdentityMask), self.identity & kIdentityMask);
  }
  return tag == self.system_identifier && mark.identity_lease_end_ms != kNoLease;
}

uint64_t CopyIdentityMs(const CopyRead& read) {
  const bool tagged = (static_cast<uint64_t>(read.server) & kTagged) != 0;
  return static_cast<uint64_t>(std::max<int64_t>(tagged && read.has_identity ? read.mark_identity : read.mark, 0));
}

// A copy that is not covered is waited for by each group, even one the clock has passed already:
// its first value raises the group's words to it (RaiseAfterCopyWait).
CopyState DecideCopy(const ServerMark& mark, const Self& self, const CopyRead& read) {
  CopyState copy;
  copy.has_copy = read.has_mark && read.has_server;
  copy.has_identity_copy = read.has_identity;
  if (!copy.has_copy) return copy;
  copy.copy_ms = static_cast<uint64_t>(std::max<int64_t>(read.mark, 0));
  const int64_t tag = read.server;
  copy.copy_identity_ms = CopyIdentityMs(read);
  copy.tag_is_ours = tag == OwnTag(self.run_bits, self.identity);
  copy.tag = tag;
  if (Reopened(kRouteRestoreByOwner)) return copy;
  copy.wait_ms[kTimeOnly] = Covered(mark, self, kTimeOnly, copy.copy_ms, tag) ? 0 : copy.copy_ms;
  copy.wait_ms[kWithIdentity] =
      Covered(mark, self, kWithIdentity, copy.copy_identity_ms, tag) ? 0 : copy.copy_identity_ms;
  return copy;
}

// The copy is read again in each transaction: a restore (its setval) sends no invalidation, and a
// session that connected before it must honor it before its next value. (A database without the
// copy is read again at each call: the copy comes with ALTER EXTENSION idgen UPDATE, perhaps in
// another session.)
bool MustReadCopy(bool same_state_and_database, bool has_copy, bool fresh, uint64_t seen_generation,
                  uint64_t generation) {
  if (Reopened(kRouteSessionBeforeRestore) && same_state_and_database && has_copy) fresh = true;
  return !same_state_and_database || !has_copy || !fresh || seen_generation != generation;
}

// Values that may repeat what the copy records wait for the clock to pass it, or are refused when it
// is further ahead than idgen.max_clock_regression.
Wait DecideWait(uint64_t wait_ms, uint64_t now_ms, uint64_t max_clock_regression_ms) {
  Wait wait;
  if (wait_ms <= now_ms) return wait;
  wait.gap_ms = wait_ms - now_ms;
  wait.until_ms = wait_ms;
  wait.kind = wait.gap_ms > max_clock_regression_ms ? Wait::kRefuse : Wait::kWait;
  return wait;
}

uint64_t RaiseAfterCopyWait(const Wait& wait, uint64_t wait_ms) {
  return wait.kind == Wait::kRefuse || Reopened(kRouteCopyPassedByClock) ? 0 : wait_ms;
}

// The server's lease, which lies above every value returned on this server, and the lease of the
// families with an identity (set exactly: it drops only what older identities made, which no server
// makes again), under this run's tag. The copy becomes this run's (which covers both groups) only
// once neither group has a wait left for the copy another writer left: until then it is only
// raised, and keeps its writer, so that the group that has not waited yet still honors it.
CopyWrite DecideCopyWrite(const ServerMark& mark, const Self& self, const CopyState& copy, uint64_t now_ms) {
  CopyWrite write;
  const uint64_t lease_ms = mark.lease_end_ms;
  // (0 while restart_at_clock() moves the identity lease: the server's lease bounds them then)
  const uint64_t identity_lease = mark.identity_lease_end_ms;
  const uint64_t identity_ms = identity_lease == 0 ? lease_ms : std::min(lease_ms, identity_lease);
  const bool settled = copy.tag_is_ours ||
                       (copy.wait_ms[kTimeOnly] <= now_ms && copy.wait_ms[kWithIdentity] <= now_ms) ||
                       Reopened(kRouteTagBeforeBothWaited);
  write.mark = static_cast<int64_t>(lease_ms);
  write.write_identity = copy.has_identity_copy;
  write.mark_identity = static_cast<int64_t>(identity_ms);
  write.identity_exact = settled;
  write.write_tag = !copy.tag_is_ours && settled;
  write.claims = write.write_tag;
  write.tag = Reopened(kRouteRestoreIntoClone) ? self.system_identifier : OwnTag(self.run_bits, self.identity);
  // Raised before both groups waited, the copy holds this run's values above what its writer made:
  // it is no run's any more (run 0), so that its writer, given it back, honors it too. Its identity
  // stays: the families with one have not made values here yet.
  const auto old_tag = static_cast<uint64_t>(copy.tag);
  if (!copy.tag_is_ours && !settled && (old_tag & kTagged) != 0 && (old_tag >> kIdentityBits & kRunMask) != 0 &&
      !Reopened(kRouteRaisedCopyKeepsWriter)) {
    write.write_tag = true;
    write.tag = static_cast<int64_t>(kTagged | (old_tag & kIdentityMask));
  }
  if (write.claims && !Reopened(kRouteCopyPassedByClock)) {
    // (never beyond the clock: what an owner set ahead moves nothing of the server's)
    for (const Group group : {kTimeOnly, kWithIdentity}) {
      write.raise_ms[group] = copy.wait_ms[group] <= now_ms ? copy.wait_ms[group] : 0;
    }
  }
  return write;
}

void AfterCopyWrite(CopyState& copy, const CopyWrite& write) {
  copy.copy_ms = std::max(copy.copy_ms, static_cast<uint64_t>(write.mark));
  const auto identity_ms = static_cast<uint64_t>(write.mark_identity);
  copy.copy_identity_ms = copy.has_identity_copy
                              ? (write.identity_exact ? identity_ms : std::max(copy.copy_identity_ms, identity_ms))
                              : copy.copy_ms;
  copy.tag_is_ours = copy.tag_is_ours || write.claims;
  if (write.write_tag) copy.tag = write.tag;
  if (write.claims) copy.wait_ms[kTimeOnly] = copy.wait_ms[kWithIdentity] = 0;
}

CopyWrite DecideCopyAtCreate(const ServerMark& mark, const Self& self) {
  if (Reopened(kRouteCreateStartsAtZero)) return CopyWrite{};
  CopyState fresh;
  fresh.has_copy = fresh.has_identity_copy = true;
  return DecideCopyWrite(mark, self, fresh, 0);
}

uint64_t CoveredMs(const ServerMark& mark, const CopyState& copy, Group group, uint32_t identity) {
  const uint64_t lease = mark.lease_end_ms;
  if (group == kTimeOnly) return copy.has_copy ? std::min(lease, copy.copy_ms) : lease;
  if (mark.lease_identity != (identity & kIdentityMask) && !Reopened(kRouteLeaseOfOldIdentity)) return 0;
  const uint64_t with_identity = std::min(lease, mark.identity_lease_end_ms);
  return copy.has_copy ? std::min(with_identity, copy.copy_identity_ms) : with_identity;
}

// ---- idgen.restart_at_clock() -----------------------------------------------------------------------

// After a clock that jumped ahead and back, once the server has a new identity (every part new), the
// families with a node identity carry on from the clock. The identity of their last values: the
// identity lease in force, or else the server's lease.
Restart::Kind RestartPrecondition(const RestartInput& in) {
  if (!in.superuser) return Restart::kRefusePermission;
  if (!in.shared_primary) return Restart::kRefuseNotPrimary;
  // Sessions under an identity set per database or role would generate under it: this call could not
  // see whether it is new.
  if (in.identity_set_per_database_or_role && !Reopened(kRouteIdentityPerDatabase)) {
    return Restart::kRefuseIdentityPerDatabase;
  }
  // With the node id from Citus, a new identity is a new group id, which this call cannot see.
  if (in.node_id_from_citus) return Restart::kRefuseCitus;
  return Restart::kMove;
}

Restart DecideRestart(const ServerMark& mark, const RestartInput& in) {
  Restart restart;
  restart.kind = RestartPrecondition(in);
  if (restart.kind != Restart::kMove) return restart;
  const uint64_t active = mark.identity_lease_end_ms;
  restart.old_ms = active != kNoLease ? active : LeaseMsOf(in.mark_raw);
  const bool use_identity_lease = (active != kNoLease || Reopened(kRouteStaleIdentityLease)) && in.identity_raw != 0;
  const uint32_t last_identity = IdentityOf(use_identity_lease ? in.identity_raw : in.mark_raw);
  if (restart.old_ms <= in.now_ms + kLeaseMs) return restart.kind = Restart::kNothingToDo, restart;
  if (last_identity == kUnknownIdentity) return restart.kind = Restart::kRefuseUnknownIdentity, restart;
  const uint32_t current = in.identity & kIdentityMask;
  if (!EveryPartDiffers(last_identity, current) && !Reopened(kRouteRestartSameIdentity)) {
    restart.same_parts = ~(last_identity ^ current) & kIdentityMask;
    return restart.kind = Restart::kRefuseSameIdentity, restart;
  }
  restart.kind = Restart::kMove;
  restart.lease_ms = in.now_ms + kLeaseMs;
  restart.floor_ms = in.now_ms;
  return restart;
}

void BeginRestart(ServerMark& mark, uint32_t identity) {
  mark.generation += 1;
  mark.identity_lease_end_ms = 0;  // no value passes until it is written
  mark.identity_lease_hash = identity & kIdentityMask;
}

void FinishRestart(ServerMark& mark, const Restart& restart) {
  mark.identity_lease_end_ms = restart.lease_ms;
  mark.identity_floor_ms = restart.floor_ms;
}

// ---- DecimalId -------------------------------------------------------------------------------------

// Whether this database's DecimalIds can be repeated by this server's from now on: not when this run
// wrote it, nor under another launch id, nor when the server's next generator ids lie beyond its.
bool DecimalIdCopyCovered(const ServerMark& mark, int64_t decimal_run, int64_t copy, int launch_id,
                          int64_t* generator) {
  const int64_t run = copy / kDecimalRunUnit;
  const int64_t low = copy % kDecimalRunUnit;
  *generator = low % kDecimalUnit;
  if (copy <= 0 || run == decimal_run) return true;
  if (low / kDecimalUnit != launch_id) return true;
  return static_cast<uint64_t>(*generator) < mark.decimal_id_floor;
}

// ---- DROP EXTENSION --------------------------------------------------------------------------------

bool DropKeepsNothing(const ServerMark& mark, const Self& self, const DropInput& in) {
  if (!in.read.has_mark || !in.read.has_server) return true;
  if (Reopened(kRouteDropCreate)) return true;
  const uint64_t copy_ms = static_cast<uint64_t>(std::max<int64_t>(in.read.mark, 0));
  const int64_t tag = in.read.server;
  const bool tagged = (static_cast<uint64_t>(tag) & kTagged) != 0;
  const uint64_t identity_ms = CopyIdentityMs(in.read);
  if (copy_ms <= in.now_ms) return true;
  if (in.recovery) return false;
  if (in.shared) {
    return Covered(mark, self, kTimeOnly, copy_ms, tag) && Covered(mark, self, kWithIdentity, identity_ms, tag);
  }
  // No shared state: the server's leases as its origins keep them, which a preloaded start loads.
  const uint64_t stored_ms = LeaseMsOf(in.mark_raw);
  const bool same_identity = IdentityOf(in.identity_raw) == (self.identity & kIdentityMask);
  const uint64_t identity_lease_ms =
      in.identity_raw != 0 && same_identity ? std::min(LeaseMsOf(in.identity_raw), stored_ms) : stored_ms;
  const bool other_identity =
      tagged && EveryPartDiffers(static_cast<uint32_t>(static_cast<uint64_t>(tag) & kIdentityMask),
                                 self.identity & kIdentityMask);
  return copy_ms <= stored_ms && (identity_ms <= identity_lease_ms || other_identity);
}

DropAdopt DecideDropAdopt(const ServerMark& mark, const Self& self, const DropInput& in) {
  DropAdopt adopt;
  if (!in.read.has_mark || !in.read.has_server || !in.shared || in.recovery || Reopened(kRouteDropForgetsPassedCopy)) {
    return adopt;
  }
  const uint64_t copy_ms = static_cast<uint64_t>(std::max<int64_t>(in.read.mark, 0));
  const uint64_t identity_ms = CopyIdentityMs(in.read);
  const int64_t tag = in.read.server;
  // (never beyond the clock: what an owner set ahead moves nothing of the server's)
  if (!Covered(mark, self, kTimeOnly, copy_ms, tag) && copy_ms <= in.now_ms) adopt.raise_ms[kTimeOnly] = copy_ms;
  if (!Covered(mark, self, kWithIdentity, identity_ms, tag) && identity_ms <= in.now_ms) {
    adopt.raise_ms[kWithIdentity] = identity_ms;
  }
  const uint64_t top = std::max(adopt.raise_ms[kTimeOnly], adopt.raise_ms[kWithIdentity]);
  if (top > mark.lease_end_ms) adopt.lease_ms = top;
  if (mark.identity_lease_end_ms != kNoLease && adopt.raise_ms[kWithIdentity] > mark.identity_lease_end_ms) {
    adopt.identity_lease_ms = adopt.raise_ms[kWithIdentity];
  }
  return adopt;
}

// ---- who generates, under which identity ------------------------------------------------------------

bool MayGenerate(bool recovery, bool shared) { return shared && (!recovery || Reopened(kRouteHotStandby)); }

uint32_t SessionIdentity(uint32_t server_identity, bool database_sets_one, uint32_t database_identity,
                         bool session_sets_one, uint32_t session_identity) {
  if (session_sets_one && Reopened(kRouteSessionIdentity)) return session_identity;
  if (database_sets_one && Reopened(kRouteIdentityPerDatabase)) return database_identity;
  return server_identity;
}

ShardHolder DecideShardHolder(const ShardRow& row) {
  if (!row.found) return ShardHolder::kNone;
  if (row.own && row.oid_exists && !Reopened(kRouteRenamedShardSchema)) return ShardHolder::kByOid;
  if (row.own && !Reopened(kRouteRenamedShardSchema)) {
    return row.named_exists && row.named_has_marks ? ShardHolder::kByName : ShardHolder::kNone;
  }
  if (!row.named_exists) return row.own ? ShardHolder::kNone : ShardHolder::kUnknown;
  return ShardHolder::kByName;
}

ShardValue DecideShardValue(int64_t id_us, int64_t cover_us, int64_t foreign_us, bool reloaded) {
  ShardValue value;
  if (id_us < cover_us) return value;
  if (!reloaded) return value.kind = ShardValue::kReload, value;
  if (id_us < foreign_us) return value.kind = ShardValue::kRetake, value;
  value.kind = ShardValue::kMark;
  value.mark_us = id_us + static_cast<int64_t>(kLeaseMs) * 1000;
  return value;
}

Wait DecideShardWait(uint64_t mark_ms, uint64_t now_ms, uint64_t max_clock_regression_ms, uint64_t self_made_ms) {
  return DecideWait(mark_ms, now_ms, max_clock_regression_ms + self_made_ms);
}

}  // namespace idgen::protocol
