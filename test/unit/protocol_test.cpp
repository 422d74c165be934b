// The durable-state protocol's decisions (core/protocol.hpp), one by one: the origins' formats, the
// start, the leases and their parts, the database's copy and who wrote it, the waits and refusals,
// restart_at_clock(), DROP EXTENSION, DecimalId. The simulator (test/sim) runs them together, in the
// engine, against simulated servers.
#include "core/protocol.hpp"

#include <gtest/gtest.h>

#include <random>

namespace idgen::protocol {
namespace {

using identity::ParseShards;

Identity Id(int32_t node, uint8_t digit, std::string_view shards) {
  Identity id;
  id.node = node;
  id.digit = digit;
  id.shards = *ParseShards(shards);
  return id;
}

Self Server(uint64_t run, const Identity& identity) {
  Self self;
  self.run_bits = run;
  self.identity = identity;
  self.legacy_hash = 0xABCDEF;
  self.system_identifier = 0x1234;
  self.decimal_run = static_cast<int64_t>(run & 0xFFFF) + 1;
  return self;
}

LeaseParts Under(const Identity& server, const Identity* with_identity = nullptr) {
  LeaseParts parts;
  parts.server = identity::Of(server);
  parts.identity = with_identity != nullptr ? identity::Of(*with_identity) : identity::NoParts();
  return parts;
}

ServerMark Loaded(uint64_t mark_raw, uint64_t identity_raw, const LeaseParts& parts, const Self& self) {
  ServerMark mark;
  ApplyLoad(mark, DecideLoad(mark_raw, identity_raw, 0, parts, self, false, 1, 10000), mark_raw, identity_raw, 0);
  return mark;
}

const Identity kDefault = Id(0, 0, "0-8191");

// ---- the origins -----------------------------------------------------------------------------------

TEST(Origins, PackKeepsLeaseAndHandle) {
  const uint64_t packed = Pack(1234567, 42);
  EXPECT_TRUE(IsFormat14(packed));
  EXPECT_EQ(LeaseMsOf(packed), 1234570u);  // rounded up to 10 ms: never below the lease
  EXPECT_EQ(PartsHandleOf(packed), 42);
  EXPECT_EQ(LegacyHashOf(packed), ~uint32_t{0});
  EXPECT_EQ(LeaseMsOf(Pack(kMaxLeaseMs + 100000, 1)), kMaxLeaseMs);  // held at the most, never wrapped
}

// Origins advance to the larger value: a later lease must be a larger value whatever its handle.
TEST(Origins, ALaterLeaseIsALargerValue) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t a = rng() % kMaxLeaseMs, b = a + 10 + rng() % 100000;
    EXPECT_LT(Pack(a, static_cast<uint16_t>(rng())), Pack(b, static_cast<uint16_t>(rng())));
  }
}

TEST(Origins, ReadsTheFormatsOf12And13) {
  const uint64_t v13 = uint64_t{1} << 63 | uint64_t{5000} << 24 | 0x123456;  // 1.3: lease in 10 ms, hash
  EXPECT_EQ(LeaseMsOf(v13), 50000u);
  EXPECT_EQ(LegacyHashOf(v13), 0x123456u);
  EXPECT_EQ(PartsHandleOf(v13), 0);
  const uint64_t v12 = uint64_t{700} << 24 | 0x654321;
  EXPECT_EQ(LeaseMsOf(v12), 7000u);
  EXPECT_EQ(LegacyHashOf(v12), ~uint32_t{0});
}

TEST(Origins, DecimalOriginKeepsTheTimeline) {
  const uint64_t raw = PackDecimalOrigin(3, 17);
  EXPECT_EQ(DecimalNextOf(raw), 17u);
  EXPECT_EQ(TimelineOf(raw), 3u);
}

// ---- the start --------------------------------------------------------------------------------------

TEST(Load, RaisesFloorsToTheLeases) {
  const Self self = Server(5, kDefault);
  const Load load = DecideLoad(Pack(50000, 1), 0, 7, Under(kDefault), self, false, 1, 10000);
  EXPECT_EQ(load.floor_ms, 50000u);
  EXPECT_EQ(load.identity_floor_ms, 50000u);
  EXPECT_EQ(load.self_made_ms, kLeaseMs);
  EXPECT_FALSE(load.renew);
  EXPECT_FALSE(load.after_failover);
  EXPECT_EQ(load.decimal_next, 7u);
  EXPECT_EQ(DecideLoad(0, 0, 0, Under(kDefault), self, false, 1, 10000).floor_ms, 0u);
}

TEST(Load, PromotionAddsTheMarginAndRenews) {
  const Self self = Server(5, kDefault);
  const Load load = DecideLoad(Pack(50000, 1), 0, 7, Under(kDefault), self, true, 2, 3000);
  EXPECT_TRUE(load.after_failover);
  EXPECT_EQ(load.floor_ms, 53000u);
  EXPECT_EQ(load.self_made_ms, kLeaseMs + 3000);
  EXPECT_TRUE(load.renew);
  EXPECT_TRUE(load.write_decimal);
  EXPECT_EQ(load.decimal_timeline, 2u);
}

// A promoted server restarted (or cloned) before its first lease: the leases it holds were loaded last
// under an earlier timeline, and still miss what the old primary may have written.
TEST(Load, TheMarginFollowsTheTimelineNotThePromotion) {
  const Self self = Server(5, kDefault);
  const Load restarted = DecideLoad(Pack(50000, 1), 0, PackDecimalOrigin(1, 7), Under(kDefault), self, false, 2, 3000);
  EXPECT_TRUE(restarted.after_failover);
  EXPECT_EQ(restarted.floor_ms, 53000u);
  const Load again = DecideLoad(Pack(50000, 1), 0, PackDecimalOrigin(2, 7), Under(kDefault), self, false, 2, 3000);
  EXPECT_FALSE(again.after_failover);
  EXPECT_EQ(again.floor_ms, 50000u);
}

// A primary that made DecimalIds alone wrote no lease: its promoted standby still skips.
TEST(Load, DecimalIdsAloneStillSkipAfterAFailover) {
  const Load load = DecideLoad(0, 0, PackDecimalOrigin(1, 7), Under(kDefault), Server(5, kDefault), false, 2, 30000);
  EXPECT_TRUE(load.after_failover);
  EXPECT_EQ(load.decimal_next, 7 + DecimalFailoverSkip(30000));
}

// The generator ids a primary may have taken that its asynchronous standby never replayed: at most
// one per take interval over the margin, and the one in flight.
TEST(Load, DecimalSkipFollowsTheMargin) {
  for (const uint64_t margin : {0ull, 1ull, 999ull, 1000ull, 1001ull, 10000ull, 60000ull, 3600000ull}) {
    const uint64_t skip = DecimalFailoverSkip(margin);
    EXPECT_GE(skip * kDecimalTakeIntervalMs, margin + kDecimalTakeIntervalMs) << margin;
    EXPECT_LT((skip - 1) * kDecimalTakeIntervalMs, margin + kDecimalTakeIntervalMs) << margin;
    const Load load = DecideLoad(Pack(50000, 1), 0, 7, Under(kDefault), Server(5, kDefault), true, 2, margin);
    EXPECT_EQ(load.decimal_next, 7 + skip);
  }
}

// The identity lease counts while the identity in force meets nothing the server lease holds, in
// every part.
TEST(Load, IdentityLeaseCountsOnlyWhereEveryPartIsNew) {
  const Identity old_id = Id(1, 1, "0-2047"), new_id = Id(18, 3, "2048-4095");
  const uint64_t mark_raw = Pack(90000, 1), identity_raw = Pack(20000, 2);
  const LeaseParts parts = Under(old_id, &new_id);
  const Load fresh = DecideLoad(mark_raw, identity_raw, 0, parts, Server(5, new_id), false, 1, 0);
  EXPECT_TRUE(fresh.identity_valid);
  EXPECT_FALSE(fresh.retire_identity);
  EXPECT_EQ(fresh.identity_floor_ms, 20000u);
  EXPECT_EQ(fresh.floor_ms, 90000u);
  // Any one part that meets the old parts again: the lease counts no more, and is retired.
  for (const Identity& again : {Id(1, 3, "2048-4095"), Id(18, 1, "2048-4095"), Id(18, 3, "2047-4095")}) {
    const Load load = DecideLoad(mark_raw, identity_raw, 0, parts, Server(5, again), false, 1, 0);
    EXPECT_FALSE(load.identity_valid);
    EXPECT_TRUE(load.retire_identity);
    EXPECT_EQ(load.identity_floor_ms, 90000u);
    ServerMark mark;
    ApplyLoad(mark, load, mark_raw, identity_raw, 0);
    EXPECT_FALSE(mark.HasIdentityLease());
  }
}

TEST(Load, AnIdentityLeaseOf13CountsUnderItsHash) {
  const uint64_t v13 = uint64_t{1} << 63 | uint64_t{2000} << 24 | 0xABCDEF;
  const Self self = Server(5, kDefault);  // legacy_hash 0xABCDEF
  EXPECT_TRUE(DecideLoad(Pack(90000, 1), v13, 0, Under(kDefault), self, false, 1, 0).identity_valid);
  Self other = self;
  other.legacy_hash = 0x111111;
  EXPECT_FALSE(DecideLoad(Pack(90000, 1), v13, 0, Under(kDefault), other, false, 1, 0).identity_valid);
}

// The identity lease counts only where the identity meets the server lease's parts in no part at
// all, even when it is the very identity the lease was written for: a new node id alone is not
// enough, since UID20's digit or Instagram's shards in common with values the server lease covers
// would let those families repeat them from the identity lease's lower floor.
TEST(Load, AnIdentityLeaseCountsNotWhereADigitOrAShardMeetsTheServerLease) {
  const Identity old_id = Id(1, 1, "0-2047");
  const uint64_t mark_raw = Pack(90000, 1), identity_raw = Pack(20000, 2);
  for (const Identity& id : {Id(18, 1, "2048-4095"), Id(18, 3, "1024-4095")}) {
    const LeaseParts parts = Under(old_id, &id);
    EXPECT_FALSE(IdentityLeaseCounts(identity_raw, parts, Server(5, id)));
    const Load load = DecideLoad(mark_raw, identity_raw, 0, parts, Server(5, id), false, 1, 0);
    EXPECT_FALSE(load.identity_valid);
    EXPECT_EQ(load.identity_floor_ms, 90000u);
  }
  const Identity fresh = Id(18, 3, "2048-4095");
  EXPECT_TRUE(IdentityLeaseCounts(identity_raw, Under(old_id, &fresh), Server(5, fresh)));
}

// ---- renewing the leases ---------------------------------------------------------------------------

TEST(Cover, RenewsAtTheLeaseAndWritesTheCopy) {
  const Self self = Server(5, kDefault);
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(10000, 1), 0, parts, self);
  CopyState copy;
  copy.has_copy = true;
  copy.copy_ms = copy.copy_identity_ms = 10000;
  const CoverDecision below = DecideCover(mark, parts, kTime, 0, false, kDefault, copy, 9999, 9000);
  EXPECT_FALSE(below.retake);
  EXPECT_EQ(below.renew_lease_ms, 0u);
  EXPECT_FALSE(below.write_copy);
  const CoverDecision at = DecideCover(mark, parts, kTime, 0, false, kDefault, copy, 10000, 12000);
  EXPECT_EQ(at.renew_lease_ms, 12000 + kLeaseMs);
  EXPECT_EQ(at.renew_identity_ms, 0u);
  EXPECT_TRUE(at.write_copy);
  EXPECT_EQ(at.lease_parts, parts.server);  // a time-only renewal keeps the parts it found
}

TEST(Cover, AReloadOrAMovedGenerationRetakes) {
  const Self self = Server(5, kDefault);
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(10000, 1), 0, parts, self);
  const CopyState copy;
  EXPECT_TRUE(DecideCover(mark, parts, kNode, 0, true, kDefault, copy, 5, 5).retake);
  EXPECT_TRUE(DecideCover(mark, parts, kNode, 1, false, kDefault, copy, 5, 5).retake);
}

// A value whose identity the covering lease's parts do not hold writes that lease again past its
// end, under parts that hold it: restart_at_clock() must see every part that made a value ahead.
TEST(Cover, ANewIdentityWritesTheLeaseAgainUnderItsParts) {
  const Identity a = Id(1, 1, "0-99"), b = Id(2, 2, "100-199");
  const Self self = Server(5, b);
  const LeaseParts parts = Under(a);
  const ServerMark mark = Loaded(Pack(10000, 1), 0, parts, self);
  const CopyState copy;
  for (const Kin kin : {kNode, kDigit, kShard}) {
    const CoverDecision d = DecideCover(mark, parts, kin, 0, false, b, copy, 500, 600);
    EXPECT_EQ(d.renew_lease_ms, 10010u) << int{kin};
    EXPECT_EQ(d.lease_parts, identity::Union(identity::Of(a), identity::Of(b)));
    EXPECT_FALSE(CoveredBy(mark, parts, kin, b, 500));
  }
  // The time-only families carry no part: nothing to write.
  EXPECT_EQ(DecideCover(mark, parts, kTime, 0, false, b, copy, 500, 600).renew_lease_ms, 0u);
  EXPECT_TRUE(CoveredBy(mark, parts, kTime, b, 500));
  // Once the clock has passed the old lease, its parts are forgotten.
  const CoverDecision late = DecideCover(mark, parts, kNode, 0, false, b, copy, 10500, 10600);
  EXPECT_EQ(late.lease_parts, identity::Of(b));
}

TEST(Cover, UnderTheIdentityLease) {
  const Identity old_id = Id(1, 1, "0-99"), id = Id(2, 2, "100-199"), next = Id(3, 3, "200-299");
  const LeaseParts parts = Under(old_id, &id);
  const ServerMark mark = Loaded(Pack(90000, 1), Pack(20000, 2), parts, Server(5, id));
  ASSERT_TRUE(mark.HasIdentityLease());
  const CopyState copy;
  const CoverDecision at = DecideCover(mark, parts, kShard, 0, false, id, copy, 20000, 20000);
  EXPECT_EQ(at.renew_identity_ms, 21000u);
  EXPECT_EQ(at.renew_lease_ms, 0u);
  EXPECT_TRUE(CoveredBy(mark, parts, kShard, id, 19999));
  EXPECT_FALSE(CoveredBy(mark, parts, kShard, id, 20000));
  // Another identity: the identity lease counts only under the identity it was written for (the
  // server lease's parts forget values the clock passed, and a clock stepped back finds them above
  // it): the value is taken again, after Prepare has dropped the lease.
  const CoverDecision other = DecideCover(mark, parts, kShard, 0, false, next, copy, 100, 100);
  EXPECT_TRUE(other.retake);
  EXPECT_FALSE(CoveredBy(mark, parts, kShard, next, 100));
  EXPECT_FALSE(IdentityLeaseCounts(mark.identity_lease_raw, parts, Server(5, next)));
  EXPECT_TRUE(IdentityLeaseCounts(mark.identity_lease_raw, parts, Server(5, id)));
}

TEST(Cover, BeyondTheMostAnOriginHoldsRefuses) {
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(10000, 1), 0, parts, Server(5, kDefault));
  EXPECT_TRUE(DecideCover(mark, parts, kTime, 0, false, kDefault, CopyState{}, kMaxLeaseMs, 0).beyond_max);
}

// A value whose identity the lease's parts lack writes the lease again past its end (an origin
// advances only to a larger value, whatever the handle of the new parts): under a lease already at
// the most an origin holds, that cannot be written, and the value is refused rather than returned
// under parts that never say its identity.
TEST(Cover, ANewIdentityUnderTheLastLeaseAnOriginHoldsRefuses) {
  const Identity a = Id(1, 1, "0-99"), b = Id(2, 2, "100-199");
  const LeaseParts parts = Under(a);
  const ServerMark mark = Loaded(Pack(kMaxLeaseMs, 1), 0, parts, Server(5, b));
  ASSERT_EQ(mark.LeaseMs(), kMaxLeaseMs);
  const CoverDecision d = DecideCover(mark, parts, kNode, 0, false, b, CopyState{}, 500, 600);
  EXPECT_TRUE(d.beyond_max);
  EXPECT_EQ(d.renew_lease_ms, 0u);
  // (values that need no new parts go on under it)
  EXPECT_FALSE(DecideCover(mark, parts, kTime, 0, false, b, CopyState{}, 500, 600).beyond_max);
  EXPECT_FALSE(DecideCover(mark, parts, kNode, 0, false, a, CopyState{}, 500, 600).beyond_max);
}

// A lease's parts forget an identity only once the clock has passed the lease's end: until then the
// old identity's values may lie anywhere below it, ahead of the clock, and restart_at_clock() must
// still see their parts.
TEST(Cover, ALeasesPartsAreKeptUntilTheClockPassesItsEnd) {
  const Identity a = Id(1, 1, "0-99"), b = Id(2, 2, "100-199");
  const LeaseParts parts = Under(a);
  const ServerMark mark = Loaded(Pack(10000, 1), 0, parts, Server(5, b));
  const Parts both = identity::Union(identity::Of(a), identity::Of(b));
  for (const uint64_t now : {9000ull, 9500ull, 9990ull, 9999ull}) {
    const CoverDecision d = DecideCover(mark, parts, kNode, 0, false, b, CopyState{}, now, now);
    EXPECT_EQ(d.lease_parts, both) << now;
  }
  EXPECT_EQ(DecideCover(mark, parts, kNode, 0, false, b, CopyState{}, 10000, 10000).lease_parts, identity::Of(b));
}

// A value with a part whose identity the database's copy does not hold writes the copy, even below
// the copy's bound: the copy must name the parts of every value the database holds (a dump, or the
// start after pg_upgrade, rebuilds the leases' parts from it).
TEST(Cover, ACopyWithoutTheValuesPartIsWritten) {
  const Identity a = Id(1, 1, "0-99"), b = Id(2, 2, "100-199");
  const LeaseParts parts = Under(b);
  const ServerMark mark = Loaded(Pack(90000, 1), 0, parts, Server(5, b));
  CopyState copy;
  copy.has_copy = copy.has_identity_copy = copy.has_parts_copy = true;
  copy.copy_ms = copy.copy_identity_ms = 50000;
  copy.parts = identity::Of(a);
  for (const Kin kin : {kNode, kDigit, kShard}) {
    const CoverDecision d = DecideCover(mark, parts, kin, 0, false, b, copy, 1000, 1000);
    EXPECT_TRUE(d.write_copy) << int{kin};
    EXPECT_EQ(d.renew_lease_ms, 0u);  // (the lease holds b already)
  }
  // The time-only families carry no part; a copy that holds b needs nothing below its bound.
  EXPECT_FALSE(DecideCover(mark, parts, kTime, 0, false, b, copy, 1000, 1000).write_copy);
  copy.parts = identity::Union(identity::Of(a), identity::Of(b));
  EXPECT_FALSE(DecideCover(mark, parts, kNode, 0, false, b, copy, 1000, 1000).write_copy);
}

// A value at the lease's end is not covered: the lease is the first instant not yet made durable,
// and a value there, after a crash, could be made again by the next start.
TEST(Cover, AValueAtTheLeasesEndIsNotCovered) {
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(10000, 1), 0, parts, Server(5, kDefault));
  for (const Kin kin : {kTime, kNode, kDigit, kShard}) {
    EXPECT_TRUE(CoveredBy(mark, parts, kin, kDefault, 9999)) << int{kin};
    EXPECT_FALSE(CoveredBy(mark, parts, kin, kDefault, 10000)) << int{kin};
  }
}

// ---- the identity lease that counts no more ----------------------------------------------------

// Only an identity lease in force is dropped: one that moves (being retired, or written by
// restart_at_clock()) belongs to whoever moves it, and dropping it again would bump the generation
// and undo what restart_at_clock() is writing.
TEST(IdentityLease, OnlyALeaseInForceIsDropped) {
  const Identity old_id = Id(1, 1, "0-99"), id = Id(2, 2, "100-199");
  const LeaseParts parts = Under(old_id, &id);
  const Self back = Server(5, old_id);  // (the old identity put back: the lease counts no more)
  ServerMark mark = Loaded(Pack(90000, 1), Pack(20000, 2), parts, Server(5, id));
  ASSERT_TRUE(mark.IdentityLeaseInForce());
  EXPECT_FALSE(MustDropIdentityLease(mark, parts, Server(5, id)));
  EXPECT_TRUE(MustDropIdentityLease(mark, parts, back));
  ServerMark restarting = mark;
  BeginRestart(restarting);
  EXPECT_FALSE(MustDropIdentityLease(restarting, parts, back));
  BeginDropIdentityLease(mark);
  EXPECT_FALSE(MustDropIdentityLease(mark, parts, back));
  FinishDropIdentityLease(mark);
  EXPECT_FALSE(MustDropIdentityLease(mark, parts, back));
}

// ---- the copy: which writer's values a family can repeat ---------------------------------------

CopyRead Read14(int64_t mark, int64_t mark_identity, uint64_t run, const Parts& parts) {
  const identity::CopyWords words = identity::EncodeCopy(parts);
  CopyRead read;
  read.has_mark = read.has_server = read.has_identity = read.has_parts = true;
  read.mark = mark;
  read.mark_identity = mark_identity;
  read.server = Tag(run, words.shard_bits);
  read.parts = words.parts;
  return read;
}

// The class of "a copy of another identity": for each kin, a copy of another run is covered exactly
// where the kin's part of this identity meets nothing the copy holds, part by part, never by hash.
TEST(Copy, AnotherWritersCopyIsCoveredOnlyWhereTheKinsPartIsNew) {
  std::mt19937 rng(11);
  auto shards = [&] {
    const uint32_t lo = rng() % 8192, hi = std::min<uint32_t>(8191, lo + rng() % 3000);
    return Id(0, 0, std::to_string(lo) + "-" + std::to_string(hi)).shards;
  };
  for (int i = 0; i < 20000; ++i) {
    Identity writer{static_cast<int32_t>(rng() % 4), static_cast<uint8_t>(rng() % 3), shards()};
    Identity me{static_cast<int32_t>(rng() % 4), static_cast<uint8_t>(rng() % 3), shards()};
    const Self self = Server(99, me);
    const ServerMark mark = Loaded(Pack(1000, 1), 0, Under(me), self);
    const CopyState copy = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(writer)));
    EXPECT_EQ(copy.wait_ms[kTime], 50000u);
    EXPECT_EQ(copy.wait_ms[kNode] != 0, writer.node == me.node);
    EXPECT_EQ(copy.wait_ms[kDigit] != 0, writer.digit == me.digit);
    EXPECT_EQ(copy.wait_ms[kShard] != 0, writer.shards.Intersects(me.shards));
  }
}

// A restored database whose node id, digit and launch id all differ, but whose shard list overlaps.
TEST(Copy, OverlappingShardsWaitUnderEveryOtherNewPart) {
  const Identity source = Id(1, 1, "0-8191"), target = Id(2, 2, "2048-4095");
  const Self self = Server(99, target);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, Under(target), self);
  const CopyState copy = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(source)));
  EXPECT_EQ(copy.wait_ms[kShard], 50000u);
  EXPECT_EQ(copy.wait_ms[kNode], 0u);
  EXPECT_EQ(copy.wait_ms[kDigit], 0u);
  EXPECT_FALSE(copy.tag_is_ours);
}

TEST(Copy, ThisRunsCopyIsCoveredAndOursWhenItsPartsHoldTheIdentity) {
  const Self self = Server(7, kDefault);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, Under(kDefault), self);
  const CopyState ours = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(kDefault)));
  EXPECT_TRUE(ours.tag_is_ours);
  for (const uint64_t wait : ours.wait_ms) EXPECT_EQ(wait, 0u);
  const CopyState narrower = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(Id(0, 0, "0-10"))));
  EXPECT_FALSE(narrower.tag_is_ours);  // its next value of a kin with a part writes the parts
}

TEST(Copy, AtOrBelowTheFloorIsCovered) {
  const Self self = Server(99, kDefault);
  const ServerMark mark = Loaded(Pack(60000, 1), 0, Under(kDefault), self);
  const CopyState copy = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(kDefault)));
  for (const uint64_t wait : copy.wait_ms) EXPECT_EQ(wait, 0u);
}

// idgen 1.3's tag kept a hash: its parts are not known, and meet every identity.
TEST(Copy, A13CopyMeetsEveryIdentity) {
  const Self self = Server(99, Id(5, 5, "100-200"));
  const ServerMark mark = Loaded(Pack(1000, 1), 0, Under(self.identity), self);
  CopyRead read;
  read.has_mark = read.has_server = read.has_identity = true;
  read.mark = read.mark_identity = 50000;
  read.server = LegacyTag(7, 0x123456);
  const CopyState copy = DecideCopy(mark, self, read);
  EXPECT_FALSE(copy.parts.known);
  for (const uint64_t wait : copy.wait_ms) EXPECT_EQ(wait, 50000u);
}

TEST(Copy, WaitsOrRefusesByTheGap) {
  EXPECT_EQ(DecideWait(100, 200, 5000).kind, Wait::kGo);
  const Wait wait = DecideWait(3000, 1000, 5000);
  EXPECT_EQ(wait.kind, Wait::kWait);
  EXPECT_EQ(wait.until_ms, 3000u);
  EXPECT_EQ(DecideWait(7000, 1000, 5000).kind, Wait::kRefuse);
  EXPECT_EQ(DecideWait(6000, 1000, 5000).kind, Wait::kWait);  // (the limit itself is waited for)
}

// The copy becomes this run's only once every kin has waited for it; raised before, it names no run,
// so that neither this run nor its writer takes it for theirs.
TEST(Copy, ClaimedOnlyOnceEveryKinWaited) {
  const Identity source = Id(1, 1, "0-10"), me = Id(1, 2, "20-30");  // the node in common
  const Self self = Server(99, me);
  const LeaseParts parts = Under(me);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, parts, self);
  CopyState copy = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(source)));
  ASSERT_EQ(copy.wait_ms[kNode], 50000u);
  ASSERT_EQ(copy.wait_ms[kDigit], 0u);
  const CopyWrite early = DecideCopyWrite(mark, parts, self, copy, kDigit, 2000);
  EXPECT_FALSE(early.claims);
  EXPECT_TRUE(early.write_tag);
  EXPECT_EQ(static_cast<uint64_t>(early.tag) >> 26 & kRunMask, 0u);
  EXPECT_FALSE(early.identity_exact);
  AfterCopyWrite(copy, early);
  EXPECT_EQ(copy.run, 0u);
  EXPECT_TRUE(copy.parts.known);
  EXPECT_TRUE(identity::Includes(copy.parts, source) && identity::Includes(copy.parts, me));
  const CopyWrite late = DecideCopyWrite(mark, parts, self, copy, kNode, 60000);
  EXPECT_TRUE(late.claims);
  EXPECT_EQ(late.raise_ms[kNode], 50000u);
  EXPECT_EQ(late.raise_ms[kTime], 50000u);
  AfterCopyWrite(copy, late);
  EXPECT_TRUE(copy.tag_is_ours);
  EXPECT_EQ(copy.run, 99u);
}

// A copy another writer's values lie ahead in, under node 5: this server, under node 6, writes its
// own part into it (the copy must say its values hold node 6 too), and remembers node 5 as the other
// writer's: its next transaction does not wait for the other writer's bound. Without the memory (a
// restart, another server), node 6 meets the copy's parts and waits.
TEST(Copy, OwnPartsAddedToAnotherWritersCopyStayOwn) {
  const Identity theirs = Id(5, 0, "0-8191"), me = Id(6, 0, "0-8191");
  const Self self = Server(99, me);
  const LeaseParts parts = Under(me);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, parts, self);
  CopyState copy = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(theirs)));
  ASSERT_EQ(copy.wait_ms[kNode], 0u);
  ASSERT_NE(copy.wait_ms[kDigit], 0u);  // (the same digit: still waits)
  const CopyWrite write = DecideCopyWrite(mark, parts, self, copy, kNode, 2000);
  EXPECT_FALSE(write.claims);
  ASSERT_TRUE(write.remember_theirs);
  EXPECT_EQ(write.theirs.parts, identity::Of(theirs));
  EXPECT_EQ(write.theirs.identity_ms, 50000u);
  CopyRead after = Read14(50000, 50000, 0, identity::Of(theirs));
  after.server = write.tag;
  after.parts = write.parts;
  EXPECT_EQ(DecideCopy(mark, self, after, &write.theirs).wait_ms[kNode], 0u);
  EXPECT_EQ(DecideCopy(mark, self, after).wait_ms[kNode], 50000u);
  // Values a COPY brought join what is remembered as another writer's.
  const Parts moved = identity::Of(Id(7, 0, "0-8191"));
  const CopyWrite moved_write =
      DecideMovedValues(DecideCopy(mark, self, after, &write.theirs), self, kNode, 60000, moved);
  ASSERT_TRUE(moved_write.remember_theirs);
  EXPECT_TRUE(identity::Includes(moved_write.theirs.parts, Id(7, 0, "0-8191")));
  EXPECT_FALSE(identity::Meets(moved_write.theirs.parts, me, identity::Part::kNode));
  EXPECT_EQ(moved_write.theirs.identity_ms, 60001u);
}

// Its own leases raise the copy's bounds past the other writer's: what it waits for is still the
// other writer's bound (a floor the server adopted, idgen.adopt_copy(), covers it for good).
TEST(Copy, OwnLeasesRaiseTheCopyNotTheWait) {
  const Identity me = Id(6, 0, "0-8191");
  const Self self = Server(99, me);
  ServerMark mark = Loaded(Pack(1000, 1), 0, Under(me), self);
  mark.floor_ms = 50000;  // (adopted)
  Theirs theirs;
  theirs.ms = theirs.identity_ms = 50000;
  theirs.parts = identity::Of(Id(5, 0, "0-8191"));
  CopyRead read = Read14(90000, 90000, 0, identity::Union(theirs.parts, identity::Of(me)));
  EXPECT_EQ(DecideCopy(mark, self, read, &theirs).wait_ms[kTime], 0u);
  EXPECT_EQ(DecideCopy(mark, self, read).wait_ms[kTime], 90000u);
}

// Each group is judged against its own floor: under an identity lease that counts, the families
// with a part carry on from its lower floor, so a copy of the same identity that lies between the
// two floors is covered for the time-only families but waited for by those with a part.
TEST(Copy, TheFamiliesWithAPartAreJudgedAgainstTheirOwnFloor) {
  const Identity old_id = Id(1, 1, "0-99"), id = Id(2, 2, "100-199");
  const Self self = Server(99, id);
  const ServerMark mark = Loaded(Pack(90000, 1), Pack(20000, 2), Under(old_id, &id), self);
  ASSERT_EQ(mark.floor_ms, 90000u);
  ASSERT_EQ(mark.identity_floor_ms, 20000u);
  const CopyState copy = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(id)));
  EXPECT_EQ(copy.wait_ms[kTime], 0u);
  for (const Kin kin : {kNode, kDigit, kShard}) EXPECT_EQ(copy.wait_ms[kin], 50000u) << int{kin};
}

// What a session knows of its copy after a write is what the copy holds: a write that only raises
// the sequences (another writer's values still lie ahead) leaves their larger bounds in place, and
// the session keeps judging its values against them; a write that sets the bound exactly is what
// the copy holds from then on.
TEST(Copy, AfterAWriteTheSessionKnowsTheBoundsTheCopyHolds) {
  const Identity source = Id(1, 1, "0-10"), me = Id(1, 2, "20-30");  // the node in common
  const Self self = Server(99, me);
  const LeaseParts parts = Under(me);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, parts, self);
  CopyState copy = DecideCopy(mark, self, Read14(50000, 50000, 7, identity::Of(source)));
  ASSERT_EQ(copy.wait_ms[kNode], 50000u);
  const CopyWrite raised = DecideCopyWrite(mark, parts, self, copy, kDigit, 2000);
  ASSERT_FALSE(raised.identity_exact);
  ASSERT_LT(raised.mark_identity, 50000);
  AfterCopyWrite(copy, raised);
  EXPECT_EQ(copy.copy_ms, static_cast<uint64_t>(raised.holds_mark));
  EXPECT_EQ(copy.copy_identity_ms, static_cast<uint64_t>(raised.holds_identity));
  EXPECT_EQ(copy.copy_identity_ms, 50000u);
  const CopyWrite exact = DecideCopyWrite(mark, parts, self, copy, kNode, 60000);
  ASSERT_TRUE(exact.identity_exact);
  AfterCopyWrite(copy, exact);
  EXPECT_EQ(copy.copy_identity_ms, static_cast<uint64_t>(exact.holds_identity));
  EXPECT_EQ(copy.copy_identity_ms, static_cast<uint64_t>(exact.mark_identity));
}

TEST(Copy, WithoutMarkPartsTheTagKeeps13sLayout) {
  const Self self = Server(99, kDefault);
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, parts, self);
  CopyRead read;
  read.has_mark = read.has_server = read.has_identity = true;
  const CopyState copy = DecideCopy(mark, self, read);
  const CopyWrite write = DecideCopyWrite(mark, parts, self, copy, kTime, 0);
  EXPECT_TRUE(write.claims);
  EXPECT_EQ(write.tag, LegacyTag(99, 0xABCDEF));
}

TEST(Copy, CreateStartsAtTheLeasesUnderTheServerParts) {
  const Self self = Server(99, kDefault);
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(70000, 1), 0, parts, self);
  const CopyWrite write = DecideCopyAtCreate(mark, parts, self);
  EXPECT_EQ(write.mark, 70000);
  EXPECT_EQ(write.mark_identity, 70000);
  EXPECT_TRUE(write.claims);
  EXPECT_EQ(
      identity::DecodeCopy({write.parts, static_cast<uint32_t>(static_cast<uint64_t>(write.tag) & kShardBitsMask)}),
      identity::Of(kDefault));
}

TEST(Copy, CoveredMsHoldsNothingOfAnIdentityTheLeaseDoesNotHold) {
  const Identity a = Id(1, 1, "0-99"), b = Id(2, 2, "0-99");
  const LeaseParts parts = Under(a);
  const ServerMark mark = Loaded(Pack(70000, 1), 0, parts, Server(5, a));
  CopyState copy;
  copy.has_copy = copy.has_parts_copy = true;
  copy.copy_ms = copy.copy_identity_ms = 50000;
  copy.parts = identity::Of(a);
  EXPECT_EQ(CoveredMs(mark, parts, copy, kWithIdentity, a), 50000u);
  EXPECT_EQ(CoveredMs(mark, parts, copy, kWithIdentity, b), 0u);
  EXPECT_EQ(CoveredMs(mark, parts, copy, kTimeOnly, b), 50000u);
}

// ---- restart_at_clock() -----------------------------------------------------------------------------

RestartInput Input(const Identity& id, uint64_t now_ms) {
  RestartInput in;
  in.identity = id;
  in.now_ms = now_ms;
  return in;
}

// operating.md's recovery from a clock set ahead, on a server with the default shard list: a node,
// a digit, and no shard (Instagram refuses until shards that meet nothing old are given).
TEST(Restart, TheDocsExampleOnADefaultServer) {
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(500000, 1), 0, parts, Server(5, kDefault));
  const Restart ok = DecideRestart(mark, parts, Input(Id(18, 3, ""), 100000));
  EXPECT_EQ(ok.kind, Restart::kMove);
  EXPECT_EQ(ok.lease_ms, 100000 + kLeaseMs);
  EXPECT_EQ(ok.floor_ms, 100000u);
  const Restart shards = DecideRestart(mark, parts, Input(Id(18, 3, "2048-4095"), 100000));
  EXPECT_EQ(shards.kind, Restart::kRefuseSameIdentity);
  EXPECT_TRUE(shards.shares[static_cast<int>(identity::Part::kShards)]);
  EXPECT_FALSE(shards.shares[static_cast<int>(identity::Part::kNode)]);
}

// Every part must be new where any lease ahead holds values of it: the identity lease's, and the
// server lease's made before it.
TEST(Restart, EveryPartMeetsNothingAhead) {
  const Identity first = Id(1, 1, "0-99"), second = Id(2, 2, "100-199");
  const LeaseParts parts = Under(first, &second);
  const ServerMark mark = Loaded(Pack(500000, 1), Pack(400000, 2), parts, Server(5, second));
  ASSERT_TRUE(mark.HasIdentityLease());
  EXPECT_EQ(DecideRestart(mark, parts, Input(Id(3, 3, "200-299"), 100000)).kind, Restart::kMove);
  EXPECT_EQ(DecideRestart(mark, parts, Input(Id(1, 3, "200-299"), 100000)).kind, Restart::kRefuseSameIdentity);
  EXPECT_EQ(DecideRestart(mark, parts, Input(Id(3, 2, "200-299"), 100000)).kind, Restart::kRefuseSameIdentity);
  EXPECT_EQ(DecideRestart(mark, parts, Input(Id(3, 3, "50-60"), 100000)).kind, Restart::kRefuseSameIdentity);
  // The server lease no longer ahead: only the identity lease's parts count.
  EXPECT_EQ(DecideRestart(mark, parts, Input(Id(1, 1, "0-99"), 450000)).kind, Restart::kNothingToDo);
}

TEST(Restart, UnknownPartsRefuse) {
  LeaseParts parts;  // (not known: written by 1.3)
  ServerMark mark;
  const uint64_t v13 = uint64_t{1} << 63 | uint64_t{50000} << 24 | 0x1;
  ApplyLoad(mark, DecideLoad(v13, 0, 0, parts, Server(5, kDefault), false, 1, 0), v13, 0, 0);
  EXPECT_EQ(DecideRestart(mark, parts, Input(Id(18, 3, ""), 100000)).kind, Restart::kRefuseUnknownIdentity);
}

TEST(Restart, PreconditionsInOrder) {
  RestartInput in = Input(kDefault, 0);
  in.superuser = false;
  in.shared_primary = false;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefusePermission);
  in.superuser = true;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefuseNotPrimary);
  in.shared_primary = true;
  in.identity_set_per_database_or_role = true;
  in.node_id_from_citus = true;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefuseIdentityPerDatabase);
  in.identity_set_per_database_or_role = false;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefuseCitus);
  in.node_id_from_citus = false;
  EXPECT_EQ(RestartPrecondition(in), Restart::kMove);
}

TEST(Restart, NothingToDoWithinALeaseOfTheClock) {
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(101000, 1), 0, parts, Server(5, kDefault));
  EXPECT_EQ(DecideRestart(mark, parts, Input(kDefault, 100000)).kind, Restart::kNothingToDo);
}

// ---- DecimalId ---------------------------------------------------------------------------------------

TEST(Decimal, CopyCoveredByRunLaunchAndFloor) {
  ServerMark mark;
  mark.decimal_id_floor = 10;
  int64_t generator = 0;
  const int64_t copy = 3 * kDecimalRunUnit + 42 * kDecimalUnit + 9;
  EXPECT_TRUE(DecimalIdCopyCovered(mark, 3, copy, 42, &generator));  // this run
  EXPECT_TRUE(DecimalIdCopyCovered(mark, 4, copy, 41, &generator));  // another launch id
  EXPECT_TRUE(DecimalIdCopyCovered(mark, 4, copy, 42, &generator));  // 9 < 10
  EXPECT_EQ(generator, 9);
  mark.decimal_id_floor = 9;
  EXPECT_FALSE(DecimalIdCopyCovered(mark, 4, copy, 42, &generator));  // the off-by-one that repeats
  EXPECT_EQ(DecimalCopyValue(3, 42, 5 * kDecimalUnit + 77), 3 * kDecimalRunUnit + 42 * kDecimalUnit + 5);
}

TEST(Decimal, ACopyInTheUpperHalfCountsInItsOwnDatabaseAlone) {
  const int64_t run = 7 * kDecimalRunUnit + 65 * kDecimalUnit;
  const CopyRead none;
  EXPECT_EQ(RebuiltOf(none, run + kDecimalSharedLimit - 1, 65).decimal_next,
            static_cast<uint64_t>(kDecimalSharedLimit));
  const Rebuilt upper = RebuiltOf(none, run + kDecimalSharedLimit, 65);
  EXPECT_EQ(upper.decimal_next, 0u);  // (the last id, or any past the half: not the server's)
  EXPECT_FALSE(upper.any);
  EXPECT_EQ(RebuiltOf(none, run + kDecimalUnit - 1, 65).decimal_next, 0u);
  Rebuilt merged;
  Merge(merged, RebuiltOf(none, run + 12, 65));
  Merge(merged, RebuiltOf(none, run + 99999, 65));
  EXPECT_EQ(merged.decimal_next, 13u);
}

TEST(Decimal, AdoptStatesItsLeadAndSpendsNoSharedIds) {
  ServerMark mark;
  CopyState copy;
  copy.wait_ms[kTime] = 10000 + 3600000;
  const Adopt short_lead = DecideAdopt(mark, copy, true, 0, 10000, 60000);
  EXPECT_TRUE(short_lead.further_than_accepted);
  EXPECT_EQ(short_lead.lead_ms, 3600000u);
  EXPECT_EQ(short_lead.time_ms, 0u);  // (nothing moves)
  const Adopt enough = DecideAdopt(mark, copy, true, 0, 10000, 3600000);
  EXPECT_FALSE(enough.further_than_accepted);
  EXPECT_EQ(enough.time_ms, 10000u + 3600000u);
  const Adopt spent = DecideAdopt(mark, copy, false, kDecimalSharedLimit, 10000, 3600000);
  EXPECT_TRUE(spent.decimal_beyond_shared);
  EXPECT_EQ(spent.decimal_next, 0u);
  EXPECT_EQ(DecideAdopt(mark, copy, false, kDecimalSharedLimit - 1, 10000, 3600000).decimal_next,
            static_cast<uint64_t>(kDecimalSharedLimit));
}

TEST(Decimal, TakesAreAnIntervalApart) {
  ServerMark mark;
  EXPECT_EQ(DecideDecimalTake(mark, 5000, 5000).kind, Wait::kGo);
  mark.decimal_take_ms = 5000;
  const Wait soon = DecideDecimalTake(mark, 5500, 5000);
  EXPECT_EQ(soon.kind, Wait::kWait);
  EXPECT_EQ(soon.until_ms, 5000 + kDecimalTakeIntervalMs);
  EXPECT_EQ(DecideDecimalTake(mark, 6000, 5000).kind, Wait::kGo);
  EXPECT_EQ(DecideDecimalTake(mark, 100, 1000).kind, Wait::kRefuse);
}

// ---- DROP EXTENSION ----------------------------------------------------------------------------------

TEST(Drop, RefusedWhileACopyOfAnotherWriterIsAhead) {
  const Self self = Server(99, kDefault);
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, parts, self);
  DropInput in;
  in.read = Read14(50000, 50000, 7, identity::Of(kDefault));
  in.now_ms = 2000;
  EXPECT_FALSE(DropKeepsNothing(mark, parts, self, in));
  in.now_ms = 50000;
  EXPECT_TRUE(DropKeepsNothing(mark, parts, self, in));
  in.read = Read14(50000, 50000, 99, identity::Of(kDefault));  // this run's own
  in.now_ms = 2000;
  EXPECT_TRUE(DropKeepsNothing(mark, parts, self, in));
  in.read = Read14(50000, 50000, 7, identity::Of(kDefault));
  in.recovery = true;
  EXPECT_FALSE(DropKeepsNothing(mark, parts, self, in));
}

TEST(Drop, AdoptsWhatTheClockHasPassed) {
  const Self self = Server(99, kDefault);
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, parts, self);
  DropInput in;
  in.read = Read14(50000, 50000, 7, identity::Of(kDefault));
  in.now_ms = 60000;
  const DropAdopt adopt = DecideDropAdopt(mark, parts, self, in);
  for (const uint64_t raise : adopt.raise_ms) EXPECT_EQ(raise, 50000u);
  EXPECT_EQ(adopt.lease_ms, 50000u);
  in.now_ms = 2000;  // (never beyond the clock)
  EXPECT_EQ(DecideDropAdopt(mark, parts, self, in).lease_ms, 0u);
}

// DROP EXTENSION judges both of the copy's bounds: while idgen.mark_identity lies ahead of the clock
// the rows of the families with a part it covers could be repeated once the copy is gone, even
// where the clock has passed idgen.mark.
TEST(Drop, RefusedWhileTheBoundOfTheFamiliesWithAPartIsAhead) {
  const Self self = Server(99, kDefault);
  const LeaseParts parts = Under(kDefault);
  const ServerMark mark = Loaded(Pack(1000, 1), 0, parts, self);
  DropInput in;
  in.read = Read14(1000, 50000, 7, identity::Of(kDefault));
  in.now_ms = 2000;
  EXPECT_FALSE(DropKeepsNothing(mark, parts, self, in));
  in.shared = false;  // (the leases as the origins hold them)
  in.mark_raw = Pack(1000, 1);
  EXPECT_FALSE(DropKeepsNothing(ServerMark{}, parts, self, in));
  in.now_ms = 50000;
  EXPECT_TRUE(DropKeepsNothing(ServerMark{}, parts, self, in));
}

// ---- Instagram's shard marks ---------------------------------------------------------------------

TEST(Shards, HolderByOidThenByName) {
  ShardRow row;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kNone);
  row.found = row.own = row.oid_exists = true;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kByOid);
  row.oid_exists = false;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kNone);
  row.named_exists = row.named_has_marks = true;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kByName);
  row.own = false;
  row.named_exists = false;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kUnknown);
}

TEST(Shards, ValueAgainstTheMarks) {
  EXPECT_EQ(DecideShardValue(10, 20, 0, false).kind, ShardValue::kReturn);
  EXPECT_EQ(DecideShardValue(20, 20, 0, false).kind, ShardValue::kReload);
  EXPECT_EQ(DecideShardValue(20, 20, 30, true).kind, ShardValue::kRetake);
  const ShardValue mark = DecideShardValue(40, 20, 30, true);
  EXPECT_EQ(mark.kind, ShardValue::kMark);
  EXPECT_EQ(mark.mark_us, 40 + static_cast<int64_t>(kLeaseMs) * 1000);
  // (the allowance: the regression, the mark's lease, a burst's run ahead and the failover margin)
  EXPECT_EQ(DecideShardWait(9000, 1000, 5000, 1000, 1000).kind, Wait::kWait);
  EXPECT_EQ(DecideShardWait(9001, 1000, 5000, 1000, 1000).kind, Wait::kRefuse);
  EXPECT_EQ(DecideShardWait(19000, 1000, 5000, 1000, 11000).kind, Wait::kWait);
}

TEST(Generate, OnlyAPrimaryWithSharedState) {
  EXPECT_TRUE(MayGenerate(false, true));
  EXPECT_FALSE(MayGenerate(true, true));
  EXPECT_FALSE(MayGenerate(false, false));
}

}  // namespace
}  // namespace idgen::protocol
