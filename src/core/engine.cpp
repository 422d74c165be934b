#include "core/engine.hpp"

#include <algorithm>

namespace idgen::engine {

using namespace protocol;
using identity::Parts;

namespace {

// ---- the parts behind the leases ----------------------------------------------------------------

// The parts a lease origin's value names: none where nothing was ever written, not known where 1.3
// or 1.2 wrote it, else the registry's (resolved once per handle: a registration never changes).
// The callers keep what it returns where it caches: a value of no handle leaves no handle cached.
Parts PartsOfRaw(Effects& fx, uint64_t raw, uint16_t* cached_handle, Parts* cached) {
  // (kNoLease, all ones, reads as a lease of 1.4's format: it names no handle)
  const uint16_t handle = raw != 0 && raw != kNoLease && IsFormat14(raw) ? PartsHandleOf(raw) : 0;
  if (handle == 0) *cached_handle = 0;
  if (raw == 0 || raw == kNoLease) return identity::NoParts();
  if (!IsFormat14(raw)) return Parts{};
  if (handle == 0) return identity::NoParts();  // (a lease of no value with a part)
  if (handle != *cached_handle) {
    *cached = fx.PartsOf(handle);
    *cached_handle = handle;
  }
  return *cached;
}

// The session's parts of the leases the mark publishes. A catalog read at most: outside the lock.
void Resolve(Effects& fx, Session& s, const ServerMark& m) {
  s.parts.server = PartsOfRaw(fx, m.lease_raw, &s.server_handle, &s.parts.server);
  const uint64_t identity_raw = m.identity_lease_raw == kMoving ? kNoLease : m.identity_lease_raw;
  s.parts.identity = PartsOfRaw(fx, identity_raw, &s.identity_handle, &s.parts.identity);
}

// The same, for raw values read from the origins (a load, a drop without shared state).
LeaseParts PartsOfOrigins(Effects& fx, Session& s, uint64_t mark_raw, uint64_t identity_raw) {
  LeaseParts parts;
  parts.server = PartsOfRaw(fx, mark_raw, &s.server_handle, &s.parts.server);
  parts.identity = PartsOfRaw(fx, identity_raw, &s.identity_handle, &s.parts.identity);
  return parts;
}

// ---- renewing the leases -----------------------------------------------------------------------------

// The parts a lease origin's value names (PartsOfRaw, without a session's cache).
Parts PartsOfWritten(Effects& fx, uint64_t raw) {
  if (raw == 0 || raw == kNoLease) return identity::NoParts();
  if (!IsFormat14(raw)) return Parts{};
  const uint16_t handle = PartsHandleOf(raw);
  return handle == 0 ? identity::NoParts() : fx.PartsOf(handle);
}

// How often a renewal reads again the leases that other renewals wrote between its read and its
// write before it gives up (the value is then taken again).
constexpr int kMaxRenewalReads = 100;

// Writes the leases a decision names (never lowering them) under the parts it names and the parts
// of the lease each writes over, while the clock the decision read has not passed that lease's end
// (another renewal's, perhaps not published yet: its values may lie ahead of the clock, and a
// lease's parts forget only what the clock has passed); flushes and confirms them, then publishes
// what the origins hold, which is durable then. The write is one renewal's at a time, and only over
// the lease whose parts it read: one written meanwhile is read again. False when restart_at_clock()
// (or a dropped identity lease) moved the words since generation was read.
bool RenewLeasesImpl(Effects& fx, const CoverDecision& d, uint64_t generation) {
  for (int read = 0; read < kMaxRenewalReads; ++read) {
    const uint64_t written = d.renew_lease_ms != 0 ? fx.ReadOrigin(Origin::kMark) : 0;
    const uint64_t written_identity = d.renew_identity_ms != 0 ? fx.ReadOrigin(Origin::kIdentityMark) : 0;
    Parts lease_parts = d.lease_parts;
    Parts identity_parts = d.identity_parts;
    if (written != 0 && d.now_ms < LeaseMsOf(written)) {
      lease_parts = identity::Union(lease_parts, PartsOfWritten(fx, written));
    }
    if (written_identity != 0 && d.now_ms < LeaseMsOf(written_identity)) {
      identity_parts = identity::Union(identity_parts, PartsOfWritten(fx, written_identity));
    }
    // Registrations are catalog writes: before the lock.
    const uint16_t lease_handle = d.renew_lease_ms != 0 ? fx.Register(lease_parts) : 0;
    const uint16_t identity_handle = d.renew_identity_ms != 0 ? fx.Register(identity_parts) : 0;
    fx.LockMark(true);
    // An identity lease is renewed only while the one published is in force: a retirement or a
    // restart_at_clock() that began before this renewal read the generation (a start's renewal
    // reads it after its own load) has made it moving, and what it writes must not be undone.
    const ServerMark seen = fx.ReadMark();
    if (seen.generation != generation || (d.renew_identity_ms != 0 && !seen.IdentityLeaseInForce())) {
      fx.UnlockMark();
      return false;
    }
    if ((d.renew_lease_ms != 0 && fx.ReadOrigin(Origin::kMark) != written) ||
        (d.renew_identity_ms != 0 && fx.ReadOrigin(Origin::kIdentityMark) != written_identity)) {
      fx.UnlockMark();
      continue;
    }
    uint64_t held_lease = 0, held_identity = 0;
    if (d.renew_lease_ms != 0) {
      (void)fx.AdvanceOrigin(Origin::kMark, Pack(d.renew_lease_ms, lease_handle), false);
      held_lease = fx.ReadOrigin(Origin::kMark);  // (the larger lease written before, if it was larger)
    }
    if (d.renew_identity_ms != 0) {
      (void)fx.AdvanceOrigin(Origin::kIdentityMark, Pack(d.renew_identity_ms, identity_handle), false);
      held_identity = fx.ReadOrigin(Origin::kIdentityMark);
    }
    // (past every record whose value was read: what another renewal wrote is durable with this one)
    const uint64_t position = fx.WrittenUpTo();
    fx.UnlockMark();
    fx.FlushAndConfirm(position);
    fx.LockMark(false);
    ServerMark m = fx.ReadMark();
    if (m.generation != generation) {
      fx.UnlockMark();
      return false;
    }
    uint32_t fields = 0;
    if (held_lease != 0) {
      m.lease_raw = held_lease;
      fields |= kFieldLease;
    }
    if (held_identity != 0) {
      m.identity_lease_raw = held_identity;
      fields |= kFieldIdentityLease;  // (raised, and only while an identity lease is in force)
    }
    fx.WriteMark(m, fields);
    fx.UnlockMark();
    return true;
  }
  return false;
}

// ---- the start of the server ------------------------------------------------------------------------

// Once per server start, by the first session that generates: the origins' values, raised by the
// failover margin on a promoted server, become the floors of the words. Origins that were never
// written (a new server, or one that pg_upgrade made, whose databases carry the copies of the old
// server's values) start from every database's copy, written as leases before any value.
// Everything it publishes is durable first.
void LoadServerMark(Effects& fx, Session& s) {
  for (;;) {
    const uint64_t seen_mark = fx.ReadOrigin(Origin::kMark);
    const uint64_t seen_identity = fx.ReadOrigin(Origin::kIdentityMark);
    Rebuilt rebuilt;
    uint16_t rebuilt_handle = 0;
    // (origins this server never wrote: a server that made DecimalIds alone has none of idgen_mark,
    // but it took generator ids, and is not new. idgen_decimal_id alone does not say so: the start
    // from the copies writes it before the lease, and the WAL writer may flush it alone before a
    // crash, after which the copies must be read again)
    const bool never_written = seen_mark == 0 && seen_identity == 0 && fx.ReadOrigin(Origin::kDecimalTake) == 0;
    if (never_written) {
      rebuilt = fx.RebuildFromCopies(s.config.launch_id);
      if (rebuilt.any) {
        // Values above the copies' bounds only once the clock has passed them, as a database's copy
        // is waited for (a gap beyond idgen.max_clock_regression refused): never a start that runs
        // every database's values ahead of the clock because one copy lies there.
        const uint64_t top = std::max(rebuilt.mark_ms, rebuilt.identity_ms);
        const Wait wait = DecideWait(top, fx.NowMs(), s.config.max_clock_regression_ms);
        if (wait.kind == Wait::kRefuse) {
          fx.Refuse(Refusal{Refusal::kRebuildAhead, wait.gap_ms, static_cast<int64_t>(rebuilt.source)});
        }
        if (wait.kind == Wait::kWait) fx.WaitUntilMs(wait.until_ms);
        rebuilt_handle = fx.Register(rebuilt.parts);
      }
    }
    const LeaseParts parts = PartsOfOrigins(fx, s, seen_mark, seen_identity);
    const Self self = fx.Me(s.config);
    // An identity lease this start retires (its identity is no longer this server's) may cover
    // values ahead of the clock: the server lease takes its parts before it goes (below), under a
    // handle registered here, outside the lock.
    uint16_t kept_handle = 0;
    if (seen_identity != 0 && seen_mark != 0 && !IdentityLeaseCounts(seen_identity, parts, self)) {
      kept_handle = fx.Register(identity::Union(parts.server, parts.identity));
    }
    fx.LockMark(true);
    ServerMark m = fx.ReadMark();
    if (m.loaded) {
      fx.UnlockMark();
      return;
    }
    uint64_t mark_raw = fx.ReadOrigin(Origin::kMark);
    const uint64_t identity_raw = fx.ReadOrigin(Origin::kIdentityMark);
    if (mark_raw != seen_mark || identity_raw != seen_identity) {
      fx.UnlockMark();  // (written meanwhile: their parts are read again)
      continue;
    }
    const uint64_t decimal_read = fx.ReadOrigin(Origin::kDecimalId);
    uint64_t decimal_raw = decimal_read;
    const uint64_t take_ms = fx.ReadOrigin(Origin::kDecimalTake);
    const bool from_copies = never_written && mark_raw == 0 && rebuilt.any;
    if (from_copies) {
      mark_raw = Pack(std::max(rebuilt.mark_ms, rebuilt.identity_ms), rebuilt_handle);
      decimal_raw =
          PackDecimalOrigin(TimelineOf(decimal_raw), std::max(DecimalNextOf(decimal_raw), rebuilt.decimal_next));
    }
    // (from the copies, as after a promotion: a promoted server's copies miss what its old primary
    // wrote that it never received, and pg_upgrade drops the origins that would tell the start)
    Load load = DecideLoad(mark_raw, identity_raw, decimal_raw, parts, self, fx.PromoteTriggered() || from_copies,
                           fx.Timeline(), s.config.failover_margin_ms);
    // From the copies: their lease (with the margin) is this server's, written with the first flush,
    // before anything is published: what the start publishes (the floors a DROP EXTENSION trusts to
    // let a copy go) is durable then, and a crash before it finds the copies again.
    uint64_t written_mark = mark_raw;
    if (from_copies) {
      load.renew = false;
      load.write_decimal = true;
      written_mark = Pack(load.floor_ms, rebuilt_handle);
    }
    fx.RaiseWords(kTimeKins, load.floor_ms, load.self_made_ms, true);
    fx.RaiseWords(kIdentityKins, load.identity_floor_ms, load.self_made_ms, true);
    ApplyLoad(m, load, written_mark, identity_raw, take_ms);
    if (load.retire_identity && kept_handle != 0 && !from_copies && LeaseMsOf(identity_raw) > fx.NowMs()) {
      // The parts of values that lie ahead of the clock are never forgotten: retired alone, the
      // identity lease's parts would be lost, and restart_at_clock() under an identity that meets
      // them, finding every lease disjoint, would move that identity back below its own values. The
      // server lease takes them first, in the same flush, one unit beyond both.
      written_mark = Pack(std::max(LeaseMsOf(written_mark), LeaseMsOf(identity_raw)) + 10, kept_handle);
      (void)fx.AdvanceOrigin(Origin::kMark, written_mark, false);
      written_mark = fx.ReadOrigin(Origin::kMark);
      m.lease_raw = written_mark;
    }
    if (load.retire_identity) (void)fx.AdvanceOrigin(Origin::kIdentityMark, 0, true);
    // From the copies: the DecimalId generator ids they hold, and the skip past those the copies may
    // lack, are passed on disk with the first flush, before the lease makes idgen_mark other than 0
    // (after which no start, this server's next or a session's that loads meanwhile, reads the
    // copies again), under the timeline the origin had (a failover is still found by the next start).
    const uint64_t decimal_passed = PackDecimalOrigin(TimelineOf(decimal_read), load.decimal_next);
    if (from_copies && decimal_passed != decimal_read)
      (void)fx.AdvanceOrigin(Origin::kDecimalId, decimal_passed, false);
    // (the lease last: once idgen_mark is other than 0, no start reads the copies again)
    if (from_copies) (void)fx.AdvanceOrigin(Origin::kMark, written_mark, false);
    const uint64_t position = fx.WrittenUpTo();
    fx.UnlockMark();
    // Published once durable: a retired identity lease is retired on disk before anything reads
    // "no lease" (a restart must not find it again under an identity that changed back), and what
    // another session wrote meanwhile is durable too.
    fx.FlushAndConfirm(position);
    fx.LockMark(true);
    ServerMark now = fx.ReadMark();
    // (another session's load may have written the origins meanwhile, under a configuration read
    // after a reload: it retired the identity lease this one found valid; what is published is only
    // what the origins hold, so this load is made again)
    if (!now.loaded && (fx.ReadOrigin(Origin::kMark) != written_mark ||
                        fx.ReadOrigin(Origin::kIdentityMark) != (load.retire_identity ? 0 : identity_raw))) {
      fx.UnlockMark();
      continue;
    }
    if (!now.loaded) {
      fx.WriteMark(m, kFieldDecimal | kFieldDecimalTake | kFieldLease | kFieldIdentityLease | kFieldFloors);
      now = m;
      now.loaded = true;
      fx.WriteMark(now, kFieldLoaded);
    }
    const uint64_t generation = now.generation;  // (the words as published, under the lock)
    fx.UnlockMark();
    if (load.renew) {
      // After a failover: the floors written as the leases, flushed, before any value (a crash
      // before the first lease must not forget the margin).
      CoverDecision renew;
      renew.renew_lease_ms = load.floor_ms;
      renew.lease_parts = parts.server;
      renew.renew_identity_ms = load.renew_identity_ms;
      renew.identity_parts = parts.identity;
      // The margin reaches the disk before idgen_decimal_id names this timeline (after which no
      // start adds it again). A restart_at_clock() or a retirement that moved the words meanwhile
      // made the identity lease its own (or none): the server lease alone is renewed then, under the
      // generation read again. Never renewed: the timeline stays unrecorded, and the next start adds
      // the margin again.
      bool renewed = RenewLeasesImpl(fx, renew, generation);
      renew.renew_identity_ms = 0;
      for (int read = 0; read < kMaxRenewalReads && !renewed; ++read) {
        renewed = RenewLeasesImpl(fx, renew, fx.ReadMark().generation);
      }
      if (!renewed) return;
    }
    if (load.write_decimal) {
      // After the leases: until idgen_decimal_id names this timeline, a start finds the failover again.
      fx.LockMark(true);
      ServerMark d = fx.ReadMark();
      FinishLoad(d, load);
      const uint64_t next = d.decimal_id_next;
      (void)fx.AdvanceOrigin(Origin::kDecimalId, DecimalOriginValue(d, next), false);
      fx.WriteMark(d, kFieldDecimal);
      const uint64_t written = fx.WrittenUpTo();
      fx.UnlockMark();
      fx.FlushAndConfirm(written);
    }
    return;
  }
}

// ---- the identity lease that counts no more ----------------------------------------------------

// An identity lease that is retired or replaced (by a session under an identity it does not count
// for, or restart_at_clock() under another) while it lies ahead of the clock first passes its parts,
// and its end, to the server lease, durably: the values it covered stay covered under any identity
// that meets them, and restart_at_clock() refuses such an identity while they lie ahead. true: the
// server lease was renewed, or moved meanwhile: the caller reads the marks again.
bool PassIdentityLeaseParts(Effects& fx, const Session& s, const ServerMark& seen) {
  if (!seen.IdentityLeaseInForce() || seen.IdentityLeaseMs() <= fx.NowMs()) return false;
  const Parts both = identity::Union(s.parts.server, s.parts.identity);
  if (both == s.parts.server && seen.LeaseMs() > seen.IdentityLeaseMs()) return false;
  CoverDecision renew;
  renew.now_ms = fx.NowMs();
  renew.renew_lease_ms = std::max(seen.LeaseMs(), seen.IdentityLeaseMs()) + 10;
  renew.lease_parts = both;
  (void)RenewLeasesImpl(fx, renew, seen.generation);
  return true;
}

void DropIdentityLease(Effects& fx, Session& s, const Self& self) {
  for (;;) {
    const ServerMark seen = fx.ReadMark();
    Resolve(fx, s, seen);
    if (MustDropIdentityLease(seen, s.parts, self) && PassIdentityLeaseParts(fx, s, seen)) continue;
    fx.LockMark(true);
    ServerMark m = fx.ReadMark();
    if (m.lease_raw != seen.lease_raw || m.identity_lease_raw != seen.identity_lease_raw) {
      fx.UnlockMark();
      continue;
    }
    if (!MustDropIdentityLease(m, s.parts, self)) {
      fx.UnlockMark();
      return;
    }
    const DropIdentity drop = BeginDropIdentityLease(m);
    fx.WriteMark(m, kFieldGeneration | kFieldIdentityLease | kFieldFloors);
    fx.RaiseWords(kIdentityKins, drop.raise_identity_words_to_ms, 0, true);
    // Retired on disk before anything reads "no lease": a restart must not find the old lease under
    // an identity it could meet again.
    (void)fx.AdvanceOrigin(Origin::kIdentityMark, 0, true);
    const uint64_t position = fx.WrittenUpTo();
    const uint64_t generation = m.generation;
    fx.UnlockMark();
    fx.FlushAndConfirm(position);
    fx.LockMark(true);
    ServerMark now = fx.ReadMark();
    if (now.generation == generation && now.identity_lease_raw == kMoving) {
      FinishDropIdentityLease(now);
      fx.WriteMark(now, kFieldIdentityLease);
    }
    fx.UnlockMark();
    return;
  }
}

// ---- the database's copy --------------------------------------------------------------------------

// Once per session, database and transaction (and again after restart_at_clock(), and while the
// database has no copy): this database's copy of the mark.
void ReadDatabaseCopy(Effects& fx, Session& s) {
  s.copy = CopyState{};
  s.hot = Hot{};  // nothing is ready, nothing covered, until Prepare and Cover say so again
  s.decimal_checked = false;
  s.decimal_copy = -1;
  s.placed = true;
  s.place = fx.Place();
  const ServerMark m = fx.ReadMark();
  s.generation = m.generation;
  // (fresh first: an invalidation that arrives while the copy is read makes it read again)
  s.fresh = true;
  const CopyRead read = fx.ReadCopy();
  const Self self = fx.Me(s.config);
  s.decimal_run = self.decimal_run;
  Theirs theirs;
  const bool known = read.has_parts && fx.RecallTheirs(read, &theirs);
  s.copy = DecideCopy(m, self, read, known ? &theirs : nullptr);
  s.copy_identity = self.identity;
}

// Writes this database's copy as the protocol decides (DecideCopyWrite), flushed.
void WriteDatabaseCopy(Effects& fx, Session& s, Kin kin) {
  const ServerMark m = fx.ReadMark();
  Resolve(fx, s, m);
  const CopyWrite write = DecideCopyWrite(m, s.parts, fx.Me(s.config), s.copy, kin, fx.NowMs());
  for (int k = 0; k < kKinCount; ++k) {
    if (write.raise_ms[k] != 0) fx.RaiseWords(KinBit(static_cast<Kin>(k)), write.raise_ms[k], 0, false);
  }
  // (remembered first: a session that reads the new copy finds it)
  if (write.remember_theirs) fx.RememberTheirs(write);
  const uint64_t position = fx.WriteCopy(write);
  if (position != 0) fx.FlushAndConfirm(position);
  AfterCopyWrite(s.copy, write);
}

// Values of a kin that may repeat what the database's copy records wait for the clock to pass it,
// or are refused when it is further ahead than idgen.max_clock_regression.
void WaitForCopy(Effects& fx, Session& s, Kin kin) {
  const Wait wait = DecideWait(s.copy.wait_ms[kin], fx.NowMs(), s.config.max_clock_regression_ms);
  if (wait.kind == Wait::kRefuse) fx.Refuse(Refusal{Refusal::kCopyAhead, wait.gap_ms, kin});
  if (wait.kind == Wait::kWait) fx.WaitUntilMs(wait.until_ms);
  const uint64_t raise = RaiseAfterCopyWait(wait, s.copy.wait_ms[kin]);
  if (raise != 0) fx.RaiseWords(KinBit(kin), raise, 0, false);
  s.copy.wait_ms[kin] = 0;
}

// What the next values may lie below without calling Cover.
void RefreshCovered(Effects& fx, Session& s) {
  const ServerMark m = fx.ReadMark();
  Resolve(fx, s, m);
  s.hot.covered_ms[kTimeOnly] = CoveredMs(m, s.parts, s.copy, kTimeOnly, s.config.identity);
  s.hot.covered_ms[kWithIdentity] = CoveredMs(m, s.parts, s.copy, kWithIdentity, s.config.identity);
}

// A value the marks did not cover is dropped; the next one goes through Prepare again. A call that
// keeps dropping values ends in a refusal, never a loop without end.
bool Retake(Effects& fx, Session& s) {
  s.hot = Hot{};
  if (++s.retakes > kMaxRetakes) {
    s.retakes = 0;
    fx.Refuse(Refusal{Refusal::kTooManyRetakes, static_cast<uint64_t>(kMaxRetakes), 0});
  }
  return false;
}

bool PrepareImpl(Effects& fx, Session& s, int kin, uint32_t family_bit) {
  // The server's configuration as it is now (a reload in flight is read), before anything is
  // decided under it.
  s.config = fx.ReadConfig();
  // A setting the family reads that the last reload rejected, or a misspelt name: the value would be
  // made under one the operator did not set (a default the setting fell back to).
  if ((s.config.refused_families & family_bit) != 0) fx.Refuse(Refusal{Refusal::kSettingRejected, family_bit, 0});
  if (!MayGenerate(fx.Recovery(), fx.Shared())) return false;
  ServerMark m = fx.ReadMark();
  // (a copy is judged for an identity, kin by kin: one a reload changed since is judged again)
  if (!(s.copy_identity == s.config.identity)) s.fresh = false;
  if (MustReadCopy(s.placed && s.place == fx.Place(), s.copy.has_copy, s.fresh, s.generation, m.generation)) {
    if (!m.loaded) LoadServerMark(fx, s);
    ReadDatabaseCopy(fx, s);
  }
  const bool decimal = kin == kDecimal;
  const Kin k = decimal ? kTime : static_cast<Kin>(kin);
  // Without the copy (an extension older than 1.2 in this database), the families that are unique
  // by their random bits work on; the others would leave a dump without the copy that keeps a
  // restored database from repeating them.
  if (decimal ? !s.copy.has_copy : RefuseWithoutCopy(s.copy.has_copy, k)) {
    fx.Refuse(Refusal{Refusal::kMissingCopy, 0, 0});
  }
  if (!decimal && s.copy.wait_ms[k] != 0) WaitForCopy(fx, s, k);
  if (!decimal && WithIdentity(k)) {
    m = fx.ReadMark();
    Resolve(fx, s, m);
    const Self self = fx.Me(s.config);
    if (MustDropIdentityLease(m, s.parts, self)) DropIdentityLease(fx, s, self);
  }
  s.hot.generation = s.generation;
  if (s.copy.has_copy) s.hot.ready |= family_bit;
  return true;
}

}  // namespace

bool Prepare(Effects& fx, Session& s, int kin, uint32_t family_bit) { return PrepareImpl(fx, s, kin, family_bit); }

bool Cover(Effects& fx, Session& s, Kin kin, uint64_t ms) {
  // A lease is written under parts that hold the identity of the configuration, and a value is
  // returned only under a lease that covers it so: a reload read here that changed the identity
  // drops the value, which is taken again under the new one.
  const identity::Identity before = s.config.identity;
  s.config = fx.ReadConfig();
  const bool identity_changed = !(s.config.identity == before);
  // The generation this session's checks (Prepare) were made under: restart_at_clock() or a dropped
  // identity lease since moved the words, and the value is taken again after Prepare.
  const uint64_t generation = s.hot.generation;
  ServerMark m = fx.ReadMark();
  Resolve(fx, s, m);
  const CoverDecision decision =
      DecideCover(m, s.parts, kin, generation, identity_changed, s.config.identity, s.copy, ms, fx.NowMs());
  if (decision.retake) return Retake(fx, s);
  if (decision.beyond_max) fx.Refuse(Refusal{Refusal::kBeyondMaxLease, 0, 0});
  if ((decision.renew_lease_ms != 0 || decision.renew_identity_ms != 0) && !RenewLeasesImpl(fx, decision, generation)) {
    return Retake(fx, s);
  }
  m = fx.ReadMark();
  Resolve(fx, s, m);
  // (a renewal of another session, under parts without this identity, may have won the origin)
  if (!CoveredBy(m, s.parts, kin, s.config.identity, ms)) return Retake(fx, s);
  if (decision.write_copy) WriteDatabaseCopy(fx, s, kin);
  RefreshCovered(fx, s);
  s.retakes = 0;
  return true;
}

// ---- idgen.restart_at_clock() -----------------------------------------------------------------------

// After a clock that jumped ahead and back, once the families with a part have parts that meet
// nothing they made ahead of the clock, they carry on from the clock: their lease (the one write of
// a mark that goes back) and their words move to the clock, and the values that calls took before
// are dropped (the generation). UUIDv7 and ns_id have no part: they carry on, above every value
// they made, and the server's lease stays above them. The database it is called in is not read:
// its copy holds the database's values, not the server's.
Restart RestartAtClock(Effects& fx, Session& s, RestartInput in) {
  Restart restart;
  restart.kind = RestartPrecondition(in);
  if (restart.kind != Restart::kMove) return restart;
  s.config = fx.ReadConfig();
  in.identity = s.config.identity;
  if (!fx.ReadMark().loaded) LoadServerMark(fx, s);
  const uint16_t handle = fx.Register(identity::Of(in.identity));
  for (;;) {
    const ServerMark seen = fx.ReadMark();
    Resolve(fx, s, seen);
    in.now_ms = fx.NowMs();
    restart = DecideRestart(seen, s.parts, in);
    if (restart.kind != Restart::kMove) return restart;
    if (PassIdentityLeaseParts(fx, s, seen)) continue;  // (the lease it replaces, ahead of the clock)
    fx.LockMark(true);
    ServerMark m = fx.ReadMark();
    if (m.lease_raw != seen.lease_raw || m.identity_lease_raw != seen.identity_lease_raw ||
        m.generation != seen.generation) {
      fx.UnlockMark();
      continue;
    }
    BeginRestart(m);
    fx.WriteMark(m, kFieldGeneration | kFieldIdentityLease);
    fx.SetWords(kIdentityKins, restart.floor_ms);
    const uint64_t identity_raw = Pack(restart.lease_ms, handle);
    (void)fx.AdvanceOrigin(Origin::kIdentityMark, identity_raw, true);
    const uint64_t position = fx.WrittenUpTo();
    const uint64_t generation = m.generation;
    fx.UnlockMark();
    fx.FlushAndConfirm(position);
    fx.LockMark(true);
    ServerMark now = fx.ReadMark();
    if (now.generation == generation) {
      FinishRestart(now, restart, identity_raw);
      fx.WriteMark(now, kFieldIdentityLease | kFieldFloors);
    }
    fx.UnlockMark();
    return restart;
  }
}

// ---- CREATE and DROP EXTENSION ----------------------------------------------------------------------

void StartCopy(Effects& fx, Session& s, bool created_now) {
  s.config = fx.ReadConfig();
  // Only a copy this CREATE EXTENSION made (a value the install made may have written it already,
  // before its parts could be recorded), or one nothing set: one an update keeps, or a restore set,
  // stays as it is.
  if (!created_now && !fx.ReadCopy().mark_never_set) return;
  // (a server that never made a value, whose origins may not even exist: the first value writes it;
  // one that made DecimalIds alone has no lease, but its generator ids go into the copy)
  if (!(fx.Shared() && fx.ReadMark().loaded) && fx.ReadOrigin(Origin::kMark) == 0 &&
      fx.ReadOrigin(Origin::kDecimalId) == 0) {
    return;
  }
  ServerMark m;
  if (fx.Shared() && !fx.Recovery()) {
    if (!fx.ReadMark().loaded) LoadServerMark(fx, s);
    m = fx.ReadMark();
  } else {
    // No shared state (15 and 16 without the preload): the leases as the origins hold them.
    m.lease_raw = fx.ReadOrigin(Origin::kMark);
    const uint64_t identity_raw = fx.ReadOrigin(Origin::kIdentityMark);
    m.identity_lease_raw = identity_raw == 0 ? kNoLease : identity_raw;
  }
  const Self self = fx.Me(s.config);
  // DecimalId's part of the copy likewise, at every generator id the server has taken: a DROP
  // EXTENSION forgot the DecimalIds the database holds (a dump, or a start from the copies after
  // pg_upgrade, reads them there).
  const uint64_t decimal_next =
      fx.Shared() && !fx.Recovery() ? m.decimal_id_next : DecimalNextOf(fx.ReadOrigin(Origin::kDecimalId));
  const int64_t decimal_copy = DecimalCopyAtCreate(decimal_next, self.decimal_run, s.config.launch_id);
  if (decimal_copy > fx.ReadDecimalCopy()) {
    const uint64_t position = fx.WriteDecimalCopy(decimal_copy);
    if (position != 0) fx.FlushAndConfirm(position);
  }
  if (m.LeaseMs() == 0) return;  // (a server that never made a value: the first one writes the copy)
  Resolve(fx, s, m);
  const CopyWrite write = DecideCopyAtCreate(m, s.parts, self);
  const uint64_t position = fx.WriteCopy(write);
  if (position != 0) fx.FlushAndConfirm(position);
  s.fresh = false;  // (the copy this session knew is not the new one)
}

void CheckDrop(Effects& fx, Session& s) {
  s.config = fx.ReadConfig();
  const Self self = fx.Me(s.config);
  DropInput in;
  in.read = fx.ReadCopy();
  if (!in.read.has_mark || !in.read.has_server) return;
  in.theirs_known = in.read.has_parts && fx.RecallTheirs(in.read, &in.theirs);
  in.now_ms = fx.NowMs();
  in.recovery = fx.Recovery();
  in.shared = fx.Shared();
  const uint64_t copy_ms = static_cast<uint64_t>(std::max<int64_t>(std::max(in.read.mark, in.read.mark_identity), 0));
  ServerMark m;
  if (copy_ms > in.now_ms && !in.recovery) {
    if (in.shared) {
      if (!fx.ReadMark().loaded) LoadServerMark(fx, s);
    } else {
      // No shared state: the server's leases as its origins keep them, which a preloaded start loads.
      in.mark_raw = fx.ReadOrigin(Origin::kMark);
      in.identity_raw = fx.ReadOrigin(Origin::kIdentityMark);
    }
  }
  LeaseParts parts;
  if (in.shared) {
    m = fx.ReadMark();
    Resolve(fx, s, m);
    parts = s.parts;
  } else {
    parts = PartsOfOrigins(fx, s, in.mark_raw, in.identity_raw);
  }
  if (!DropKeepsNothing(m, parts, self, in)) {
    fx.Refuse(Refusal{Refusal::kDropCopyAhead, std::max<uint64_t>(copy_ms, 0), 0});
  }
  if (in.shared && !in.recovery) {
    // What the copy held that the clock has passed, adopted before the copy goes.
    if (!fx.ReadMark().loaded) LoadServerMark(fx, s);
    m = fx.ReadMark();
    Resolve(fx, s, m);
    const DropAdopt adopt = DecideDropAdopt(m, s.parts, self, in);
    for (int k = 0; k < kKinCount; ++k) {
      if (adopt.raise_ms[k] != 0) fx.RaiseWords(KinBit(static_cast<Kin>(k)), adopt.raise_ms[k], 0, false);
    }
    if (adopt.lease_ms != 0 || adopt.identity_lease_ms != 0) {
      CoverDecision renew;
      renew.renew_lease_ms = adopt.lease_ms;
      renew.lease_parts = s.parts.server;
      renew.renew_identity_ms = adopt.identity_lease_ms;
      renew.identity_parts = s.parts.identity;
      (void)RenewLeasesImpl(fx, renew, m.generation);
    }
  }
  if (s.config.launch_id >= 0 && in.shared) {
    if (!fx.ReadMark().loaded) LoadServerMark(fx, s);
    int64_t generator = 0;
    if (!DecimalIdCopyCovered(fx.ReadMark(), self.decimal_run, fx.ReadDecimalCopy(), s.config.launch_id, &generator)) {
      fx.Refuse(Refusal{Refusal::kDropDecimalAhead, static_cast<uint64_t>(generator), s.config.launch_id});
    }
  }
}

// ---- values a COPY brought ------------------------------------------------------------------------------

void HoldMovedValues(Effects& fx, Session& s, Kin kin, uint64_t ms, const identity::Parts& parts) {
  s.config = fx.ReadConfig();
  ReadDatabaseCopy(fx, s);
  if (MovedValuesHeld(s.copy, kin, ms, parts)) return;
  const CopyWrite write = DecideMovedValues(s.copy, fx.Me(s.config), kin, ms, parts);
  if (write.remember_theirs) fx.RememberTheirs(write);
  const uint64_t position = fx.WriteCopy(write);
  if (position != 0) fx.FlushAndConfirm(position);
  s.fresh = false;
  s.hot = Hot{};
}

void HoldMovedDecimalIds(Effects& fx, Session& s, int launch_id, int64_t generator) {
  const int64_t copy = DecimalMovedCopy(fx.ReadDecimalCopy(), launch_id, generator);
  if (copy == 0) return;
  const uint64_t position = fx.WriteDecimalCopy(copy);
  if (position != 0) fx.FlushAndConfirm(position);
  s.fresh = false;
  s.hot = Hot{};
}

// ---- idgen.adopt_copy() --------------------------------------------------------------------------------

// The time-only words and their floor first (no value passes below them from now on), then the
// server's lease written and flushed, then the DecimalId generator ids raised. The copy is left as
// it is: the families with a part still honor it, unless their part is new.
Adopt AdoptCopy(Effects& fx, Session& s, uint64_t accepted_lead_ms) {
  s.config = fx.ReadConfig();
  if (!fx.ReadMark().loaded) LoadServerMark(fx, s);
  ReadDatabaseCopy(fx, s);
  const Self self = fx.Me(s.config);
  ServerMark m = fx.ReadMark();
  int64_t generator = 0;
  const bool decimal_covered = s.config.launch_id < 0 || DecimalIdCopyCovered(m, self.decimal_run, fx.ReadDecimalCopy(),
                                                                              s.config.launch_id, &generator);
  const Adopt adopt = DecideAdopt(m, s.copy, decimal_covered, generator, fx.NowMs(), accepted_lead_ms);
  if (adopt.further_than_accepted) {
    fx.Refuse(Refusal{Refusal::kAdoptFurther, adopt.lead_ms, static_cast<int64_t>(accepted_lead_ms)});
  }
  if (adopt.decimal_beyond_shared) {
    fx.Refuse(Refusal{Refusal::kAdoptDecimalShared, static_cast<uint64_t>(generator), s.config.launch_id});
  }
  if (adopt.time_ms != 0) {
    // (a floor the server made itself: UUIDv7 and ns_id carry on from it, ahead of the clock, and
    // no regression is counted for the gap)
    fx.RaiseWords(kTimeKins, adopt.time_ms, adopt.time_ms, true);
    fx.LockMark(true);
    ServerMark f = fx.ReadMark();
    f.floor_ms = std::max(f.floor_ms, adopt.time_ms);
    fx.WriteMark(f, kFieldFloors);
    fx.UnlockMark();
  }
  while (adopt.lease_ms != 0) {
    m = fx.ReadMark();
    Resolve(fx, s, m);
    CoverDecision renew;
    renew.renew_lease_ms = adopt.lease_ms;
    renew.lease_parts = s.parts.server;
    if (RenewLeasesImpl(fx, renew, m.generation)) break;
  }
  if (adopt.decimal_next != 0) {
    fx.LockMark(true);
    ServerMark d = fx.ReadMark();
    if (d.decimal_id_next < adopt.decimal_next) {
      d.decimal_id_next = adopt.decimal_next;
      d.decimal_id_floor = std::max(d.decimal_id_floor, adopt.decimal_next);
      (void)fx.AdvanceOrigin(Origin::kDecimalId, DecimalOriginValue(d, adopt.decimal_next), false);
      fx.WriteMark(d, kFieldDecimal);
    }
    const uint64_t position = fx.WrittenUpTo();
    fx.UnlockMark();
    fx.FlushAndConfirm(position);
  }
  s.fresh = false;  // (read again: the time-only families are covered by the floor now)
  s.hot = Hot{};
  return adopt;
}

// ---- DecimalId -------------------------------------------------------------------------------------

int64_t TakeGeneratorId(Effects& fx, Session& s) {
  for (;;) {
    const Wait wait = DecideDecimalTake(fx.ReadMark(), fx.NowMs(), s.config.max_clock_regression_ms);
    if (wait.kind == Wait::kRefuse) fx.Refuse(Refusal{Refusal::kDecimalTakeAhead, wait.gap_ms, 0});
    if (wait.kind == Wait::kWait) {
      fx.WaitUntilMs(wait.until_ms);
      continue;
    }
    // One take at a time, at least the take interval apart (a promoted server skips as many as its
    // primary could have taken in the failover margin).
    fx.LockMark(true);
    ServerMark m = fx.ReadMark();
    const uint64_t now_ms = fx.NowMs();
    if (DecideDecimalTake(m, now_ms, s.config.max_clock_regression_ms).kind != Wait::kGo) {
      fx.UnlockMark();
      continue;
    }
    const uint64_t taken = fx.TakeGeneratorId();
    if (taken > static_cast<uint64_t>(kDecimalUnit - 1)) {
      fx.UnlockMark();
      fx.Refuse(Refusal{Refusal::kDecimalExhausted, 0, 0});
    }
    (void)fx.AdvanceOrigin(Origin::kDecimalId, DecimalOriginValue(m, taken + 1), false);
    (void)fx.AdvanceOrigin(Origin::kDecimalTake, now_ms, false);
    m.decimal_take_ms = std::max(m.decimal_take_ms, now_ms);
    fx.WriteMark(m, kFieldDecimalTake);
    const uint64_t position = fx.WrittenUpTo();
    fx.UnlockMark();
    fx.FlushAndConfirm(position);
    return static_cast<int64_t>(taken);
  }
}

void CoverDecimalIdSlow(Effects& fx, Session& s, int launch_id, int64_t id) {
  const int64_t copy = DecimalCopyValue(s.decimal_run, launch_id, id);
  if (copy == s.decimal_copy) return;
  const uint64_t position = fx.WriteDecimalCopy(copy);
  if (position != 0) fx.FlushAndConfirm(position);
  s.decimal_copy = copy;
}

void CheckDecimalIdCopySlow(Effects& fx, Session& s, int launch_id) {
  s.decimal_checked = true;
  int64_t generator = 0;
  if (!DecimalIdCopyCovered(fx.ReadMark(), s.decimal_run, fx.ReadDecimalCopy(), launch_id, &generator)) {
    fx.Refuse(Refusal{Refusal::kDecimalCopyAhead, static_cast<uint64_t>(generator), launch_id});
  }
}

}  // namespace idgen::engine
