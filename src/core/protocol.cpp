#include "core/protocol.hpp"

#include <algorithm>

namespace idgen::protocol {

using identity::DisjointInEveryPart;
using identity::Includes;
using identity::Meets;
using identity::NoParts;
using identity::Union;

// ---- the start of the server ------------------------------------------------------------------------

// The identity lease counts only under the identity it was written for (its parts hold the
// configuration's), and while that identity meets nothing the server lease holds of the families
// with a part (what was made before restart_at_clock() moved them): then every value those families
// make from the identity lease lies above every value theirs could repeat. The server lease's parts
// are not enough alone: they forget what the clock had passed, and a clock that stepped back since
// finds values of an identity they forgot above it (configuration management putting an old node id
// back). An identity lease that idgen 1.3 wrote counts as 1.3 counted it, under the identity it names.
bool IdentityLeaseCounts(uint64_t identity_raw, const LeaseParts& parts, const Self& self) {
  if (!IsFormat14(identity_raw)) return LegacyHashOf(identity_raw) == self.legacy_hash;
  return DisjointInEveryPart(parts.server, self.identity) && Includes(parts.identity, self.identity);
}

// The origins' values, raised by the failover margin on a promoted server (an asynchronous standby
// may have missed its primary's last leases), become the floors of the words. The identity lease
// lowers the floor of the families with a part while it counts; otherwise they lie below the server
// lease, as before restart_at_clock().
Load DecideLoad(uint64_t mark_raw, uint64_t identity_raw, uint64_t decimal_raw, const LeaseParts& parts,
                const Self& self, bool promoted, uint32_t timeline, uint64_t margin_ms) {
  Load load;
  const uint64_t stored_ms = LeaseMsOf(mark_raw);
  // Promoted now, or the leases were loaded last under an earlier timeline (a promoted server
  // restarted, or cloned, before its first ID): the leases are what a standby replayed.
  // (a server that made DecimalIds alone has no lease, and its generator ids are what a standby may
  // have missed then)
  const bool before_this_timeline =
      timeline > 1 && (stored_ms != 0 || DecimalNextOf(decimal_raw) != 0) && TimelineOf(decimal_raw) < timeline;
  load.after_failover = promoted || before_this_timeline;
  const uint64_t margin = load.after_failover ? margin_ms : 0;
  load.identity_valid = identity_raw != 0 && IdentityLeaseCounts(identity_raw, parts, self);
  load.retire_identity = identity_raw != 0 && !load.identity_valid;
  const uint64_t identity_ms = load.identity_valid ? std::min(LeaseMsOf(identity_raw), stored_ms) : stored_ms;
  load.floor_ms = stored_ms == 0 ? 0 : stored_ms + margin;
  load.identity_floor_ms = identity_ms == 0 ? 0 : identity_ms + margin;
  load.self_made_ms = kLeaseMs + margin;
  // The generator ids the primary may have taken that never reached this server: one a take
  // interval of the margin, and one more; and as many for each promotion since the timeline
  // idgen_decimal_id names, whose own skip did not reach this server either (a promoted server's
  // standby, promoted before its primary wrote the skip it started from).
  const uint32_t recorded = std::max<uint32_t>(TimelineOf(decimal_raw), 1);
  const uint64_t promotions = timeline > recorded ? timeline - recorded : 1;
  load.decimal_next =
      DecimalNextOf(decimal_raw) + (load.after_failover ? DecimalFailoverSkip(margin_ms) * promotions : 0);
  load.renew = load.after_failover && stored_ms != 0;
  load.renew_identity_ms = load.renew && load.identity_valid ? load.identity_floor_ms : 0;
  // (timeline 1 writes no timeline: a server never promoted keeps idgen_decimal_id as it was)
  load.timeline_before = TimelineOf(decimal_raw);
  load.decimal_timeline = timeline > 1 ? timeline : load.timeline_before;
  load.write_decimal = load.decimal_timeline != load.timeline_before || load.after_failover;
  return load;
}

void ApplyLoad(ServerMark& mark, const Load& load, uint64_t mark_raw, uint64_t identity_raw, uint64_t take_ms) {
  mark.decimal_id_next = load.decimal_next;
  mark.decimal_id_floor = load.decimal_next;
  mark.decimal_timeline = load.timeline_before;
  mark.decimal_take_ms = take_ms;
  mark.lease_raw = mark_raw;
  mark.identity_lease_raw = load.identity_valid ? identity_raw : kNoLease;
  mark.floor_ms = load.floor_ms;
  mark.identity_floor_ms = load.identity_floor_ms;
  mark.loaded = true;
}

void FinishLoad(ServerMark& mark, const Load& load) { mark.decimal_timeline = load.decimal_timeline; }

// ---- the first start of the origins -------------------------------------------------------------------

Rebuilt RebuiltOf(const CopyRead& read, int64_t decimal_copy, int /*launch_id*/) {
  Rebuilt one;
  one.parts = identity::NoParts();
  if (read.has_mark && read.has_server) {
    one.mark_ms = static_cast<uint64_t>(std::max<int64_t>(read.mark, 0));
    one.identity_ms = CopyIdentityMs(read);
    const auto tag = static_cast<uint64_t>(read.server);
    if (read.has_parts && identity::WrittenByCopyWords(read.parts)) {
      one.parts = identity::DecodeCopy(identity::CopyWords{read.parts, static_cast<uint32_t>(tag & kShardBitsMask)});
    } else if (read.server != 0) {
      one.parts = Parts{};  // (1.3's hash, or 1.2's system identifier: not known)
    }
    one.any = one.mark_ms != 0 || one.identity_ms != 0;
  }
  // Every launch id's generator ids count, not only the one this start runs under: the server's
  // generator ids are one sequence whatever the launch id, and a reload may set it to a launch id a
  // copy records (or set it at all, where this start had none). But for a copy in the upper half
  // (kDecimalSharedLimit), which counts in its own database alone.
  if (decimal_copy > 0 && decimal_copy % kDecimalUnit < kDecimalSharedLimit) {
    one.decimal_next = static_cast<uint64_t>(decimal_copy % kDecimalUnit) + 1;
    one.any = true;
  }
  return one;
}

void Merge(Rebuilt& into, const Rebuilt& one) {
  if (!one.any) return;
  into.parts = into.any ? identity::Union(into.parts, one.parts) : one.parts;
  if (!into.any || std::max(one.mark_ms, one.identity_ms) > std::max(into.mark_ms, into.identity_ms)) {
    into.source = one.source;
  }
  into.any = true;
  into.mark_ms = std::max(into.mark_ms, one.mark_ms);
  into.identity_ms = std::max(into.identity_ms, one.identity_ms);
  into.decimal_next = std::max(into.decimal_next, one.decimal_next);
}

// ---- renewing the leases ---------------------------------------------------------------------------

// A value is returned only under a lease that covers it, written under parts that hold its identity:
// the families with a part under the identity lease where one counts, else under the server lease.
// A value at or past a lease renews it a second beyond the value or the clock; a value whose identity
// the covering lease's parts do not hold writes that lease again first, one unit (10 ms) beyond
// itself, under the parts it had and this identity (restart_at_clock() reads them). The parts of a
// lease forget what lies below the clock: a renewal at or past the old lease's end starts them over.
// A value at or past the database's copy, or whose identity the copy's parts do not hold, writes
// the copy. A reload that changed the identity, or a generation moved since the session's checks
// (restart_at_clock(), a dropped identity lease), drops the value.
CoverDecision DecideCover(const ServerMark& mark, const LeaseParts& parts, Kin kin, uint64_t hot_generation,
                          bool identity_changed, const Identity& identity, const CopyState& copy, uint64_t ms,
                          uint64_t now_ms) {
  CoverDecision decision;
  decision.now_ms = now_ms;
  if (identity_changed || mark.generation != hot_generation) {
    decision.retake = true;
    return decision;
  }
  const bool with_identity = WithIdentity(kin);
  const uint64_t lease = mark.LeaseMs();
  const bool under_identity_lease = with_identity && mark.HasIdentityLease();
  // No value of a family with a part passes under an identity lease that moves (restart_at_clock(),
  // or its retirement, is writing it), nor under one that counts no more for this identity
  // (IdentityLeaseCounts: Prepare drops it first): renewed under this identity's parts, it would let
  // this identity's values below values of its own that the server lease covers.
  if (under_identity_lease && (mark.identity_lease_raw == kMoving ||
                               (IsFormat14(mark.identity_lease_raw) && !(DisjointInEveryPart(parts.server, identity) &&
                                                                         Includes(parts.identity, identity))))) {
    decision.retake = true;
    return decision;
  }
  const uint64_t identity_lease = under_identity_lease ? mark.IdentityLeaseMs() : kNoLease;
  const Parts& covering = under_identity_lease ? parts.identity : parts.server;
  const bool new_identity = with_identity && !Includes(covering, identity);
  const bool renew_server = ms >= lease || (new_identity && !under_identity_lease);
  const bool renew_identity = under_identity_lease && (ms >= identity_lease || new_identity);
  if (renew_server || renew_identity) {
    const uint64_t covering_lease = under_identity_lease ? identity_lease : lease;
    const uint64_t next = std::max(std::max(ms, now_ms) + kLeaseMs, new_identity ? covering_lease + 10 : 0);
    if (next > kMaxLeaseMs) {
      decision.beyond_max = true;
      return decision;
    }
    if (renew_server) {
      decision.renew_lease_ms = std::max(next, lease + 10);
      // (a value with a part under the server lease writes its identity into the parts, the others
      // keep them as they are: the parts shrink only when a value with a part finds that the clock
      // has passed every value of the old lease)
      decision.lease_parts = parts.server;
      if (with_identity && !under_identity_lease) {
        decision.lease_parts = now_ms >= lease ? identity::Of(identity) : Union(parts.server, identity::Of(identity));
      }
    }
    if (renew_identity) {
      decision.renew_identity_ms = next;
      decision.identity_parts =
          now_ms >= identity_lease ? identity::Of(identity) : Union(parts.identity, identity::Of(identity));
    }
  }
  const uint64_t copy_ms = with_identity ? copy.copy_identity_ms : copy.copy_ms;
  decision.write_copy =
      copy.has_copy && (ms >= copy_ms || (with_identity && copy.has_parts_copy && !Includes(copy.parts, identity)));
  return decision;
}

bool CoveredBy(const ServerMark& mark, const LeaseParts& parts, Kin kin, const Identity& identity, uint64_t ms) {
  if (ms >= mark.LeaseMs()) return false;
  if (!WithIdentity(kin)) return true;
  if (mark.HasIdentityLease()) return ms < mark.IdentityLeaseMs() && Includes(parts.identity, identity);
  return Includes(parts.server, identity);
}

// ---- the identity lease that counts no more ----------------------------------------------------

bool MustDropIdentityLease(const ServerMark& mark, const LeaseParts& parts, const Self& self) {
  return mark.IdentityLeaseInForce() && !IdentityLeaseCounts(mark.identity_lease_raw, parts, self);
}

DropIdentity BeginDropIdentityLease(ServerMark& mark) {
  DropIdentity drop;
  mark.generation += 1;               // values taken meanwhile are taken again
  mark.identity_lease_raw = kMoving;  // no value passes until it is retired
  drop.raise_identity_words_to_ms = mark.LeaseMs();
  mark.identity_floor_ms = mark.floor_ms;
  return drop;
}

void FinishDropIdentityLease(ServerMark& mark) { mark.identity_lease_raw = kNoLease; }

// ---- each database's copy --------------------------------------------------------------------------

// Covered: this run wrote it; or it lies at or below what this run raised the words to; or (a kin
// with a part) the kin's part of this server's identity meets nothing the copy's parts hold (a copy
// of this server's made before restart_at_clock gave it a new one, or another server's). A copy of
// 1.2 (the system identifier) predates every identity lease, and the identity it was written under.
namespace {

// Whether this run wrote the copy's tag, in whichever layout it has.
bool OurRun(const Self& self, const CopyState& copy) {
  return copy.run != 0 && copy.run == (self.run_bits & (copy.layout14 ? kRunMask : kLegacyRunMask));
}

}  // namespace

bool Covered(const ServerMark& mark, const Self& self, Kin kin, uint64_t copy_ms, const CopyState& copy) {
  if (OurRun(self, copy)) return true;
  const uint64_t floor = WithIdentity(kin) ? mark.identity_floor_ms : mark.floor_ms;
  if (copy_ms <= floor) return true;
  if (!WithIdentity(kin)) return false;
  if ((static_cast<uint64_t>(copy.tag) & kTagged) == 0) {
    return copy.tag == self.system_identifier && mark.HasIdentityLease();
  }
  return !Meets(copy.theirs_known ? copy.theirs.parts : copy.parts, self.identity, PartOf(kin));
}

namespace {

// Everything in the copy, as another writer's.
Theirs AllTheirs(const CopyState& copy) {
  Theirs theirs;
  theirs.ms = copy.copy_ms;
  theirs.identity_ms = copy.copy_identity_ms;
  theirs.parts = copy.parts;
  return theirs;
}

}  // namespace

uint64_t CopyIdentityMs(const CopyRead& read) {
  const bool tagged = (static_cast<uint64_t>(read.server) & kTagged) != 0;
  return static_cast<uint64_t>(std::max<int64_t>(tagged && read.has_identity ? read.mark_identity : read.mark, 0));
}

// A copy that is not covered is waited for by each kin, even one the clock has passed already: its
// first value raises the kin's words to it (RaiseAfterCopyWait).
CopyState DecideCopy(const ServerMark& mark, const Self& self, const CopyRead& read, const Theirs* theirs) {
  CopyState copy;
  copy.has_copy = read.has_mark && read.has_server;
  copy.has_identity_copy = read.has_identity;
  copy.has_parts_copy = read.has_parts;
  if (!copy.has_copy) return copy;
  copy.copy_ms = static_cast<uint64_t>(std::max<int64_t>(read.mark, 0));
  copy.copy_identity_ms = CopyIdentityMs(read);
  copy.tag = read.server;
  const auto tag = static_cast<uint64_t>(read.server);
  copy.layout14 = read.has_parts && identity::WrittenByCopyWords(read.parts);
  if (copy.layout14) {
    copy.run = tag >> 26 & kRunMask;
    copy.parts = identity::DecodeCopy(identity::CopyWords{read.parts, static_cast<uint32_t>(tag & kShardBitsMask)});
  } else if ((tag & kTagged) != 0) {
    copy.run = tag >> 24 & kLegacyRunMask;  // (1.3's layout: the parts are not known)
  } else if (read.server == 0) {
    copy.parts = identity::NoParts();  // (never written: it holds no value of a family with a part)
  }                                    // (else 1.2's system identifier: the parts are not known)
  copy.tag_is_ours = OurRun(self, copy) && Includes(copy.parts, self.identity);
  if (theirs != nullptr && copy.layout14 && !copy.tag_is_ours) {
    copy.theirs_known = true;
    copy.theirs = *theirs;
  }
  for (int k = 0; k < kKinCount; ++k) {
    const auto kin = static_cast<Kin>(k);
    // (where this server remembers another writer's values apart from its own, only theirs are
    // waited for)
    const uint64_t bound = copy.theirs_known ? (WithIdentity(kin) ? copy.theirs.identity_ms : copy.theirs.ms)
                                             : (WithIdentity(kin) ? copy.copy_identity_ms : copy.copy_ms);
    copy.wait_ms[k] = Covered(mark, self, kin, bound, copy) ? 0 : bound;
  }
  return copy;
}

// The copy is read again in each transaction: a restore (its setval) sends no invalidation, and a
// session that connected before it must honor it before its next value. (A database without the
// copy is read again at each call: the copy comes with ALTER EXTENSION idgen UPDATE, perhaps in
// another session.)
bool MustReadCopy(bool same_state_and_database, bool has_copy, bool fresh, uint64_t seen_generation,
                  uint64_t generation) {
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

uint64_t RaiseAfterCopyWait(const Wait& wait, uint64_t wait_ms) { return wait.kind == Wait::kRefuse ? 0 : wait_ms; }

// The server's lease, which lies above every value returned on this server, and the lease of the
// families with a part (set exactly: it drops only what older identities made, which no server
// makes again), under this run's tag, with the parts of the values the database holds. The copy
// becomes this run's (which covers every kin) only once no kin has a wait left for the copy another
// writer left: until then it is only raised, and keeps no run, so that the kin that has not waited
// yet still honors it, and so does its writer, given it back.
CopyWrite DecideCopyWrite(const ServerMark& mark, const LeaseParts& parts, const Self& self, const CopyState& copy,
                          Kin kin, uint64_t now_ms) {
  (void)parts;
  CopyWrite write;
  const uint64_t lease_ms = mark.LeaseMs();
  // (0 while restart_at_clock() moves the identity lease: the server's lease bounds them then)
  const uint64_t identity_lease = mark.IdentityLeaseMs();
  const uint64_t identity_ms = identity_lease == 0 ? lease_ms : std::min(lease_ms, identity_lease);
  bool settled = copy.tag_is_ours;
  if (!settled) {
    settled = true;
    for (const uint64_t wait : copy.wait_ms) settled = settled && wait <= now_ms;
  }
  write.mark = static_cast<int64_t>(lease_ms);
  write.write_identity = copy.has_identity_copy;
  write.mark_identity = static_cast<int64_t>(identity_ms);
  write.identity_exact = settled;
  // The parts the copy holds (not known where 1.3 wrote it), with this identity once a value of a
  // kin with a part is written here. A database whose extension has no idgen.mark_parts yet keeps
  // 1.3's layout of the tag.
  const Parts next_parts = WithIdentity(kin) ? Union(copy.parts, identity::Of(self.identity)) : copy.parts;
  const bool parts_change = copy.has_parts_copy && !(copy.layout14 && next_parts == copy.parts);
  write.claims = !copy.tag_is_ours && settled;
  const identity::CopyWords words = identity::EncodeCopy(next_parts);
  const auto tag_of = [&](uint64_t run) {
    return copy.has_parts_copy ? Tag(run, words.shard_bits) : LegacyTag(run, self.legacy_hash);
  };
  if (write.claims || (settled && parts_change)) {
    write.write_tag = true;
    write.tag = tag_of(self.run_bits);
  } else if (!settled && (copy.run != 0 || parts_change)) {
    // Raised before every kin waited, the copy holds this run's values above what its writer made:
    // it is no run's any more (run 0), so that its writer, given it back, honors it too.
    write.write_tag = true;
    write.tag = tag_of(0);
  }
  write.parts = words.parts;
  write.holds_mark = std::max(write.mark, static_cast<int64_t>(copy.copy_ms));
  write.holds_identity = write.identity_exact
                             ? write.mark_identity
                             : std::max(write.mark_identity, static_cast<int64_t>(copy.copy_identity_ms));
  if (!settled && !copy.tag_is_ours && copy.layout14) {
    // (the other writer's values are those the copy held before this server's first write, of any
    // family: each write remembers them again, for the copy as it writes it)
    write.remember_theirs = true;
    write.theirs = copy.theirs_known ? copy.theirs : AllTheirs(copy);
  }
  if (write.claims) {
    // (never beyond the clock: what an owner set ahead moves nothing of the server's)
    for (int k = 0; k < kKinCount; ++k) write.raise_ms[k] = copy.wait_ms[k] <= now_ms ? copy.wait_ms[k] : 0;
  }
  return write;
}

void AfterCopyWrite(CopyState& copy, const CopyWrite& write) {
  copy.copy_ms = std::max(copy.copy_ms, static_cast<uint64_t>(write.mark));
  const auto identity_ms = static_cast<uint64_t>(write.mark_identity);
  copy.copy_identity_ms = copy.has_identity_copy
                              ? (write.identity_exact ? identity_ms : std::max(copy.copy_identity_ms, identity_ms))
                              : copy.copy_ms;
  if (write.write_tag) {
    copy.tag = write.tag;
    const auto tag = static_cast<uint64_t>(write.tag);
    copy.layout14 = copy.has_parts_copy;
    copy.run = copy.layout14 ? tag >> 26 & kRunMask : tag >> 24 & kLegacyRunMask;
    if (copy.layout14) {
      copy.parts = identity::DecodeCopy(identity::CopyWords{write.parts, static_cast<uint32_t>(tag & kShardBitsMask)});
    }
  }
  copy.tag_is_ours = copy.tag_is_ours || write.claims;
  if (write.remember_theirs) {
    copy.theirs_known = true;
    copy.theirs = write.theirs;
  }
  if (write.claims) copy.theirs_known = false;
  if (write.claims) {
    for (uint64_t& wait : copy.wait_ms) wait = 0;
  }
}

CopyTagParts JoinCopyParts(int64_t held_tag, int64_t held_parts, int64_t tag, int64_t parts) {
  CopyTagParts out{tag, parts};
  if (!identity::WrittenByCopyWords(held_parts) || !identity::WrittenByCopyWords(parts)) return out;
  const auto shard_bits = [](int64_t t) { return static_cast<uint32_t>(static_cast<uint64_t>(t) & kShardBitsMask); };
  const Parts held = identity::DecodeCopy(identity::CopyWords{held_parts, shard_bits(held_tag)});
  const Parts mine = identity::DecodeCopy(identity::CopyWords{parts, shard_bits(tag)});
  const identity::CopyWords joined = identity::EncodeCopy(Union(held, mine));
  out.tag = static_cast<int64_t>((static_cast<uint64_t>(tag) & ~kShardBitsMask) | joined.shard_bits);
  out.parts = joined.parts;
  return out;
}

CopyWrite DecideCopyAtCreate(const ServerMark& mark, const LeaseParts& parts, const Self& self) {
  CopyState fresh;
  fresh.has_copy = fresh.has_identity_copy = fresh.has_parts_copy = true;
  // (the values the server lease holds of the families with a part, and this identity's)
  fresh.parts = parts.server;
  fresh.layout14 = true;
  return DecideCopyWrite(mark, parts, self, fresh, kNode, 0);
}

bool MovedValuesHeld(const CopyState& copy, Kin kin, uint64_t ms, const Parts& parts) {
  if (!copy.has_copy) return true;  // (no copy to hold them: the families refuse without one)
  const uint64_t bound = WithIdentity(kin) ? copy.copy_identity_ms : copy.copy_ms;
  if (ms >= bound) return false;
  // (below the bound, a kin with a part holds them where the copy's parts do: a 1.3 copy's, not
  // known, hold every part)
  return !WithIdentity(kin) || !copy.has_parts_copy || identity::Union(copy.parts, parts) == copy.parts;
}

CopyWrite DecideMovedValues(const CopyState& copy, const Self& self, Kin kin, uint64_t ms, const Parts& parts) {
  CopyWrite write;
  // (the first instant past them: a value at the bound was not made yet)
  const uint64_t past = ms + 1;
  write.mark = static_cast<int64_t>(std::max(copy.copy_ms, past));
  write.write_identity = copy.has_identity_copy;
  write.mark_identity =
      static_cast<int64_t>(WithIdentity(kin) ? std::max(copy.copy_identity_ms, past) : copy.copy_identity_ms);
  write.identity_exact = false;
  // No run: this run did not make them, and whichever did must honor them too.
  write.write_tag = true;
  const Parts next_parts = WithIdentity(kin) ? Union(copy.parts, parts) : copy.parts;
  const identity::CopyWords words = identity::EncodeCopy(next_parts);
  write.tag = copy.has_parts_copy ? Tag(0, words.shard_bits) : LegacyTag(0, self.legacy_hash);
  write.parts = words.parts;
  write.holds_mark = write.mark;
  write.holds_identity = write.mark_identity;
  if (copy.has_parts_copy) {
    // (this server's own values stay its own: a copy it claimed holds only its values, one it did
    // not holds the other writer's it remembers, or else everything in it is another's)
    Theirs theirs = copy.tag_is_ours ? Theirs{} : copy.theirs_known ? copy.theirs : AllTheirs(copy);
    if (copy.tag_is_ours) theirs.parts = identity::NoParts();
    theirs.ms = std::max(theirs.ms, past);
    if (WithIdentity(kin)) {
      theirs.identity_ms = std::max(theirs.identity_ms, past);
      theirs.parts = Union(theirs.parts, parts);
    }
    write.remember_theirs = true;
    write.theirs = theirs;
  }
  return write;
}

uint64_t CoveredMs(const ServerMark& mark, const LeaseParts& parts, const CopyState& copy, Group group,
                   const Identity& identity) {
  const uint64_t lease = mark.LeaseMs();
  if (group == kTimeOnly) return copy.has_copy ? std::min(lease, copy.copy_ms) : lease;
  const bool under_identity_lease = mark.HasIdentityLease();
  if (!Includes(under_identity_lease ? parts.identity : parts.server, identity)) return 0;
  if (copy.has_parts_copy && copy.has_copy && !Includes(copy.parts, identity)) return 0;
  const uint64_t with_identity = under_identity_lease ? std::min(lease, mark.IdentityLeaseMs()) : lease;
  return copy.has_copy ? std::min(with_identity, copy.copy_identity_ms) : with_identity;
}

// ---- idgen.restart_at_clock() -----------------------------------------------------------------------

// After a clock that jumped ahead and back, once the server's families with a part have parts that
// meet nothing they made ahead of the clock, they carry on from the clock.
Restart::Kind RestartPrecondition(const RestartInput& in) {
  if (!in.superuser) return Restart::kRefusePermission;
  if (!in.shared_primary) return Restart::kRefuseNotPrimary;
  // Sessions under an identity set per database or role would generate under it: this call could not
  // see whether it is new.
  if (in.identity_set_per_database_or_role) return Restart::kRefuseIdentityPerDatabase;
  // With the node id from Citus, a new identity is a new group id, which this call cannot see.
  if (in.node_id_from_citus) return Restart::kRefuseCitus;
  return Restart::kMove;
}

Restart DecideRestart(const ServerMark& mark, const LeaseParts& parts, const RestartInput& in) {
  Restart restart;
  restart.kind = RestartPrecondition(in);
  if (restart.kind != Restart::kMove) return restart;
  const bool active = mark.IdentityLeaseInForce();
  const uint64_t server_ms = mark.LeaseMs();
  const uint64_t identity_ms = active ? mark.IdentityLeaseMs() : 0;
  restart.old_ms = active ? identity_ms : server_ms;
  if (restart.old_ms <= in.now_ms + kLeaseMs) return restart.kind = Restart::kNothingToDo, restart;
  // What the families with a part made ahead of the clock: under the identity lease, and under the
  // server lease before it (where each lies ahead).
  Parts ahead = NoParts();
  if (active && identity_ms > in.now_ms) ahead = Union(ahead, parts.identity);
  if (server_ms > in.now_ms) ahead = Union(ahead, parts.server);
  if (!ahead.known) return restart.kind = Restart::kRefuseUnknownIdentity, restart;
  bool any = false;
  for (int p = 0; p < identity::kPartCount; ++p) {
    restart.shares[p] = Meets(ahead, in.identity, static_cast<identity::Part>(p));
    any = any || restart.shares[p];
  }
  if (any) return restart.kind = Restart::kRefuseSameIdentity, restart;
  restart.kind = Restart::kMove;
  restart.lease_ms = in.now_ms + kLeaseMs;
  restart.floor_ms = in.now_ms;
  return restart;
}

void BeginRestart(ServerMark& mark) {
  mark.generation += 1;
  mark.identity_lease_raw = kMoving;  // no value passes until it is written
}

void FinishRestart(ServerMark& mark, const Restart& restart, uint64_t identity_raw) {
  mark.identity_lease_raw = identity_raw;
  mark.identity_floor_ms = restart.floor_ms;
}

// ---- DecimalId -------------------------------------------------------------------------------------

int64_t DecimalCopyAtCreate(uint64_t decimal_next, int64_t decimal_run, int launch_id) {
  if (decimal_next == 0 || launch_id < 0) return 0;
  return decimal_run * kDecimalRunUnit + static_cast<int64_t>(launch_id) * kDecimalUnit +
         static_cast<int64_t>(std::min<uint64_t>(decimal_next - 1, kDecimalUnit - 1));
}

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

Wait DecideDecimalTake(const ServerMark& mark, uint64_t now_ms, uint64_t max_clock_regression_ms) {
  if (mark.decimal_take_ms == 0) return Wait{};
  // (a clock behind the last take by the interval is the server's own wait; beyond that, a clock
  // stepped back, which the usual limit bounds)
  return DecideWait(mark.decimal_take_ms + kDecimalTakeIntervalMs, now_ms,
                    max_clock_regression_ms + kDecimalTakeIntervalMs);
}

// ---- DROP EXTENSION --------------------------------------------------------------------------------

namespace {

// The copy as DecideCopy reads it, and whether every kin is covered.
bool CopyCoveredEverywhere(const ServerMark& mark, const Self& self, const DropInput& in) {
  const CopyState copy = DecideCopy(mark, self, in.read, in.theirs_known ? &in.theirs : nullptr);
  for (const uint64_t wait : copy.wait_ms) {
    if (wait != 0) return false;
  }
  return true;
}

}  // namespace

bool DropKeepsNothing(const ServerMark& mark, const LeaseParts& parts, const Self& self, const DropInput& in) {
  if (!in.read.has_mark || !in.read.has_server) return true;
  const uint64_t copy_ms = static_cast<uint64_t>(std::max<int64_t>(in.read.mark, 0));
  const uint64_t identity_ms = CopyIdentityMs(in.read);
  if (std::max(copy_ms, identity_ms) <= in.now_ms) return true;
  if (in.recovery) return false;
  if (in.shared) return CopyCoveredEverywhere(mark, self, in);
  // No shared state: the server's leases as its origins keep them, which a preloaded start loads.
  ServerMark stored;
  stored.loaded = true;
  stored.lease_raw = in.mark_raw;
  const bool identity_counts = in.identity_raw != 0 && IdentityLeaseCounts(in.identity_raw, parts, self);
  stored.identity_lease_raw = identity_counts ? in.identity_raw : kNoLease;
  stored.floor_ms = LeaseMsOf(in.mark_raw);
  stored.identity_floor_ms = identity_counts ? std::min(LeaseMsOf(in.identity_raw), stored.floor_ms) : stored.floor_ms;
  return CopyCoveredEverywhere(stored, self, in);
}

DropAdopt DecideDropAdopt(const ServerMark& mark, const LeaseParts& parts, const Self& self, const DropInput& in) {
  (void)parts;
  DropAdopt adopt;
  if (!in.read.has_mark || !in.read.has_server || !in.shared || in.recovery) return adopt;
  const CopyState copy = DecideCopy(mark, self, in.read, in.theirs_known ? &in.theirs : nullptr);
  uint64_t top = 0, top_identity = 0;
  for (int k = 0; k < kKinCount; ++k) {
    // (never beyond the clock: what an owner set ahead moves nothing of the server's)
    if (copy.wait_ms[k] != 0 && copy.wait_ms[k] <= in.now_ms) {
      adopt.raise_ms[k] = copy.wait_ms[k];
      top = std::max(top, copy.wait_ms[k]);
      if (WithIdentity(static_cast<Kin>(k))) top_identity = std::max(top_identity, copy.wait_ms[k]);
    }
  }
  if (top > mark.LeaseMs()) adopt.lease_ms = top;
  if (mark.HasIdentityLease() && top_identity > mark.IdentityLeaseMs()) adopt.identity_lease_ms = top_identity;
  return adopt;
}

// ---- idgen.adopt_copy() --------------------------------------------------------------------------------

Adopt DecideAdopt(const ServerMark& mark, const CopyState& copy, bool decimal_covered, int64_t decimal_generator,
                  uint64_t now_ms, uint64_t accepted_lead_ms) {
  Adopt adopt;
  const uint64_t time_ms = copy.wait_ms[kTime];
  adopt.lead_ms = time_ms > now_ms ? time_ms - now_ms : 0;
  adopt.further_than_accepted = adopt.lead_ms > accepted_lead_ms;
  adopt.decimal_beyond_shared = !decimal_covered && decimal_generator >= kDecimalSharedLimit;
  if (adopt.further_than_accepted || adopt.decimal_beyond_shared) return adopt;
  adopt.time_ms = time_ms;
  if (adopt.time_ms > mark.LeaseMs()) adopt.lease_ms = adopt.time_ms;
  if (!decimal_covered) adopt.decimal_next = static_cast<uint64_t>(decimal_generator) + 1;
  return adopt;
}

// ---- who generates ----------------------------------------------------------------------------------

bool MayGenerate(bool recovery, bool shared) { return shared && !recovery; }

// ---- Instagram's bound shards ---------------------------------------------------------------------

ShardHolder DecideShardHolder(const ShardRow& row) {
  if (!row.found) return ShardHolder::kNone;
  if (row.own && row.oid_exists) return ShardHolder::kByOid;
  if (row.own) return row.named_exists && row.named_has_marks ? ShardHolder::kByName : ShardHolder::kNone;
  if (!row.named_exists) return ShardHolder::kUnknown;
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

Wait DecideShardWait(uint64_t mark_ms, uint64_t now_ms, uint64_t max_clock_regression_ms, uint64_t run_ahead_ms,
                     uint64_t failover_margin_ms) {
  return DecideWait(mark_ms, now_ms, max_clock_regression_ms + kLeaseMs + run_ahead_ms + failover_margin_ms);
}

}  // namespace idgen::protocol
