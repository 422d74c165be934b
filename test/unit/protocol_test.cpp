// The durable-state protocol's decisions (core/protocol.hpp), one by one: the start, the leases, the
// database's copy and who wrote it, the waits and refusals, restart_at_clock(), DROP EXTENSION,
// DecimalId. test/sim drives them together.
#include "core/protocol.hpp"

#include <gtest/gtest.h>

namespace idgen::protocol {
namespace {

constexpr uint32_t kA = 0x111111, kB = 0x222222;

Self Server(uint64_t run, uint32_t identity) {
  Self self;
  self.run_bits = run;
  self.identity = identity;
  self.system_identifier = 0x1234;
  self.decimal_run = static_cast<int64_t>(run) | (int64_t{1} << 28);
  return self;
}

ServerMark Loaded(uint64_t mark_raw, uint64_t identity_raw, uint32_t identity, bool promoted = false,
                  uint64_t margin = 0) {
  ServerMark mark;
  ApplyLoad(mark, DecideLoad(mark_raw, identity_raw, 0, identity, promoted, 1, margin), mark_raw, identity_raw);
  return mark;
}

TEST(Protocol, PackKeepsLeaseAndIdentity) {
  const uint64_t packed = Pack(1234567, kA);
  EXPECT_EQ(LeaseMsOf(packed), 1234570u);  // rounded up to 10 ms: never below the lease
  EXPECT_EQ(IdentityOf(packed), kA);
}

TEST(Protocol, LoadRaisesFloorsToTheLeases) {
  const Load load = DecideLoad(Pack(50000, kA), 0, 7, kA, false, 1, 0);
  EXPECT_EQ(load.floor_ms, 50000u);
  EXPECT_EQ(load.identity_floor_ms, 50000u);
  EXPECT_EQ(load.self_made_ms, kLeaseMs);
  EXPECT_FALSE(load.renew);
  EXPECT_EQ(load.decimal_next, 7u);
  const Load fresh = DecideLoad(0, 0, 0, kA, false, 1, 0);
  EXPECT_EQ(fresh.floor_ms, 0u);
}

TEST(Protocol, PromotionAddsTheMarginAndRenews) {
  const Load load = DecideLoad(Pack(50000, kA), 0, 7, kA, true, 1, 3000);
  EXPECT_EQ(load.floor_ms, 53000u);
  EXPECT_EQ(load.self_made_ms, kLeaseMs + 3000);
  EXPECT_TRUE(load.renew);
  EXPECT_EQ(load.decimal_next, 7 + kDecimalFailoverSkip);
}

TEST(Protocol, IdentityLeaseCountsOnlyUnderItsIdentity) {
  const uint64_t mark_raw = Pack(90000, kA), identity_raw = Pack(20000, kB);
  const Load same = DecideLoad(mark_raw, identity_raw, 0, kB, false, 1, 0);
  EXPECT_TRUE(same.identity_valid);
  EXPECT_EQ(same.identity_floor_ms, 20000u);
  EXPECT_EQ(same.floor_ms, 90000u);
  const Load other = DecideLoad(mark_raw, identity_raw, 0, kA, false, 1, 0);
  EXPECT_FALSE(other.identity_valid);
  EXPECT_EQ(other.identity_floor_ms, 90000u);
  ServerMark mark;
  ApplyLoad(mark, other, mark_raw, identity_raw);
  EXPECT_EQ(mark.identity_lease_end_ms, kNoLease);
}

TEST(Protocol, CoverRenewsAtTheLeaseAndWritesTheCopy) {
  ServerMark mark = Loaded(Pack(10000, kA), 0, kA);
  CopyState copy;
  copy.has_copy = true;
  copy.copy_ms = 10000;
  CoverDecision below = DecideCover(mark, kTimeOnly, 0, false, kA, copy, 9999, 9000);
  EXPECT_FALSE(below.retake);
  EXPECT_EQ(below.renew_lease_ms, 0u);
  EXPECT_FALSE(below.write_copy);
  CoverDecision at = DecideCover(mark, kTimeOnly, 0, false, kA, copy, 10000, 12000);
  EXPECT_EQ(at.renew_lease_ms, 12000 + kLeaseMs);
  EXPECT_EQ(at.renew_identity_ms, 0u);
  EXPECT_TRUE(at.write_copy);
  EXPECT_TRUE(DecideCover(mark, kTimeOnly, 0, true, kA, copy, 1, 1).retake);   // a reload changed the identity
  EXPECT_TRUE(DecideCover(mark, kTimeOnly, 1, false, kA, copy, 1, 1).retake);  // the generation moved
}

TEST(Protocol, LeasesNeverGoBack) {
  ServerMark mark = Loaded(Pack(10000, kA), 0, kA);
  PublishRenewal(mark, 5000, 0, kA);
  EXPECT_EQ(mark.lease_end_ms, 10000u);
  PublishRenewal(mark, 0, 20000, kA);  // no identity lease: none is made by a renewal
  EXPECT_EQ(mark.identity_lease_end_ms, kNoLease);
}

TEST(Protocol, CopyOfThisRunIsCovered) {
  const Self self = Server(5, kA);
  ServerMark mark = Loaded(Pack(1000, kA), 0, kA);
  EXPECT_TRUE(Covered(mark, self, kTimeOnly, 999999, OwnTag(5, kA)));
  EXPECT_FALSE(Covered(mark, self, kTimeOnly, 999999, OwnTag(6, kA)));  // another run, a clone
  EXPECT_TRUE(Covered(mark, self, kTimeOnly, 1000, OwnTag(6, kA)));     // below the floor
  // Another identity: the families with one cannot repeat it; the others can.
  EXPECT_TRUE(Covered(mark, self, kWithIdentity, 999999, OwnTag(6, kB)));
  EXPECT_FALSE(Covered(mark, self, kTimeOnly, 999999, OwnTag(6, kB)));
  // A copy of 1.2 (the system identifier), which a clone shares: not ours.
  EXPECT_FALSE(Covered(mark, self, kTimeOnly, 999999, self.system_identifier));
}

TEST(Protocol, RestoredCopyWaitsOrRefuses) {
  const Self self = Server(5, kA);
  ServerMark mark = Loaded(Pack(1000, kA), 0, kA);
  CopyRead read{true, true, true, 50000, OwnTag(9, kA), 40000};
  const CopyState copy = DecideCopy(mark, self, read);
  EXPECT_FALSE(copy.tag_is_ours);
  EXPECT_EQ(copy.wait_ms[kTimeOnly], 50000u);
  EXPECT_EQ(copy.wait_ms[kWithIdentity], 40000u);
  EXPECT_EQ(DecideWait(copy.wait_ms[kTimeOnly], 49000, 10000).kind, Wait::kWait);
  EXPECT_EQ(DecideWait(copy.wait_ms[kTimeOnly], 49000, 10000).until_ms, 50000u);
  EXPECT_EQ(DecideWait(copy.wait_ms[kTimeOnly], 30000, 10000).kind, Wait::kRefuse);
  EXPECT_EQ(DecideWait(copy.wait_ms[kTimeOnly], 50000, 10000).kind, Wait::kGo);
  EXPECT_EQ(DecideWait(0, 5, 0).kind, Wait::kGo);
}

TEST(Protocol, CopyWriteTakesTheLeasesAndTheTag) {
  const Self self = Server(5, kA);
  ServerMark mark = Loaded(Pack(30000, kA), 0, kA);
  CopyState copy;
  copy.has_copy = copy.has_identity_copy = true;
  const CopyWrite write = DecideCopyWrite(mark, self, copy, 0);
  EXPECT_EQ(write.mark, 30000);
  EXPECT_TRUE(write.write_identity);
  EXPECT_EQ(write.mark_identity, 30000);
  EXPECT_TRUE(write.write_tag);
  EXPECT_EQ(write.tag, OwnTag(5, kA));
  AfterCopyWrite(copy, write);
  EXPECT_TRUE(copy.tag_is_ours);
  EXPECT_EQ(CoveredMs(mark, copy, kTimeOnly, kA), 30000u);
  EXPECT_FALSE(DecideCopyWrite(mark, self, copy, 0).write_tag);
}

TEST(Protocol, SessionReadsTheCopyInEachTransaction) {
  EXPECT_FALSE(MustReadCopy(true, true, true, 3, 3));
  EXPECT_TRUE(MustReadCopy(true, true, false, 3, 3));
  EXPECT_TRUE(MustReadCopy(true, false, true, 3, 3));
  EXPECT_TRUE(MustReadCopy(true, true, true, 3, 4));
  EXPECT_TRUE(MustReadCopy(false, true, true, 3, 3));
}

TEST(Protocol, RestartAtClockNeedsANewIdentity) {
  ServerMark mark = Loaded(Pack(900000, kA), 0, kA);
  RestartInput in;
  in.mark_raw = Pack(900000, kA);
  in.identity = kA;
  in.now_ms = 1000;
  EXPECT_EQ(DecideRestart(mark, in).kind, Restart::kRefuseSameIdentity);
  in.identity = kB;
  Restart restart = DecideRestart(mark, in);
  ASSERT_EQ(restart.kind, Restart::kMove);
  EXPECT_EQ(restart.lease_ms, 1000 + kLeaseMs);
  BeginRestart(mark, kB);
  EXPECT_EQ(mark.identity_lease_end_ms, 0u);
  FinishRestart(mark, restart);
  EXPECT_EQ(mark.identity_floor_ms, 1000u);
  EXPECT_FALSE(MustDropIdentityLease(mark, kB));
  EXPECT_TRUE(MustDropIdentityLease(mark, kA));  // the old identity put back
  in.identity_set_per_database_or_role = true;
  EXPECT_EQ(DecideRestart(mark, in).kind, Restart::kRefuseIdentityPerDatabase);
  in.identity_set_per_database_or_role = false;
  in.now_ms = 899500;
  EXPECT_EQ(DecideRestart(mark, in).kind, Restart::kNothingToDo);
}

TEST(Protocol, DroppedIdentityLeaseFallsBackToTheServerLease) {
  ServerMark mark = Loaded(Pack(900000, kA), Pack(2000, kB), kB);
  ASSERT_EQ(mark.identity_lease_end_ms, 2000u);
  const uint64_t generation = mark.generation;
  const DropIdentity drop = BeginDropIdentityLease(mark);
  EXPECT_EQ(drop.raise_identity_words_to_ms, 900000u);
  EXPECT_TRUE(drop.retire_on_disk);
  EXPECT_EQ(mark.generation, generation + 1);
  EXPECT_EQ(mark.identity_floor_ms, mark.floor_ms);
  FinishDropIdentityLease(mark);
  EXPECT_EQ(mark.identity_lease_end_ms, kNoLease);
}

TEST(Protocol, DropRefusedWhileACopyIsAhead) {
  const Self self = Server(5, kA);
  ServerMark mark = Loaded(Pack(1000, kA), 0, kA);
  DropInput in;
  in.read = CopyRead{true, true, true, 50000, OwnTag(9, kA), 50000};
  in.now_ms = 2000;
  EXPECT_FALSE(DropKeepsNothing(mark, self, in));
  in.now_ms = 60000;
  EXPECT_TRUE(DropKeepsNothing(mark, self, in));
  in.now_ms = 2000;
  in.read.server = OwnTag(5, kA);  // this run wrote it
  EXPECT_TRUE(DropKeepsNothing(mark, self, in));
  in.shared = false;  // without shared state: the origins
  in.read.server = OwnTag(9, kA);
  in.mark_raw = Pack(60000, kA);
  EXPECT_TRUE(DropKeepsNothing(mark, self, in));
  in.mark_raw = Pack(10000, kA);
  EXPECT_FALSE(DropKeepsNothing(mark, self, in));
}

TEST(Protocol, DecimalIdCopy) {
  ServerMark mark;
  mark.decimal_id_floor = 10;
  int64_t generator = 0;
  const int64_t ours = DecimalCopyValue(7, 3, 12 * kDecimalUnit + 5);
  EXPECT_TRUE(DecimalIdCopyCovered(mark, 7, ours, 3, &generator));
  EXPECT_EQ(generator, 12);
  EXPECT_FALSE(DecimalIdCopyCovered(mark, 8, ours, 3, &generator));  // another run, generator 12 >= 10
  EXPECT_TRUE(DecimalIdCopyCovered(mark, 8, ours, 4, &generator));   // another launch id
  mark.decimal_id_floor = 13;
  EXPECT_TRUE(DecimalIdCopyCovered(mark, 8, ours, 3, &generator));
}

TEST(Protocol, IdentityIsTheServers) {
  EXPECT_EQ(SessionIdentity(kA, true, kB, true, kB), kA);
  EXPECT_FALSE(MayGenerate(true, true));
  EXPECT_TRUE(MayGenerate(false, true));
  EXPECT_FALSE(MayGenerate(false, false));
  // A shard's schema: by OID in the row's own space (renamed too), by name elsewhere; a row whose
  // name no schema has elsewhere is unknown (refused), here free unless a schema of its name with
  // marks stands in its place.
  ShardRow row;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kNone);
  row.found = row.own = row.oid_exists = true;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kByOid);
  row.oid_exists = false;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kNone);
  row.named_exists = row.named_has_marks = true;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kByName);
  row.own = false;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kByName);
  row.named_exists = false;
  EXPECT_EQ(DecideShardHolder(row), ShardHolder::kUnknown);
  // An ID against the shard's marks.
  EXPECT_EQ(DecideShardValue(500, 1000, 0, false).kind, ShardValue::kReturn);
  EXPECT_EQ(DecideShardValue(1500, 1000, 0, false).kind, ShardValue::kReload);
  EXPECT_EQ(DecideShardValue(1500, 1000, 2000, true).kind, ShardValue::kRetake);
  const ShardValue mark = DecideShardValue(1500, 1000, 0, true);
  EXPECT_EQ(mark.kind, ShardValue::kMark);
  EXPECT_EQ(mark.mark_us, 1500 + static_cast<int64_t>(kLeaseMs) * 1000);
  EXPECT_EQ(DecideShardWait(5000, 1000, 10000, 0).kind, Wait::kWait);
  EXPECT_EQ(DecideShardWait(5000, 6000, 10000, 0).kind, Wait::kGo);
  EXPECT_EQ(DecideShardWait(50000, 1000, 10000, 1000).kind, Wait::kRefuse);
  // (a mark the server put ahead itself, by its failover margin, is waited out)
  EXPECT_EQ(DecideShardWait(16000, 1000, 5000, 11000).kind, Wait::kWait);
}

TEST(Protocol, PackReadsTheFormatOf12) {
  const uint64_t of_12 = (uint64_t{1234} << kIdentityBits) | 0x5;  // top bit clear: a hash of the whole
  EXPECT_EQ(LeaseMsOf(of_12), 12340u);
  EXPECT_EQ(IdentityOf(of_12), kUnknownIdentity);
  EXPECT_FALSE(EveryPartDiffers(kUnknownIdentity, kA));
  EXPECT_EQ(LeaseMsOf(Pack(~uint64_t{0} / 2, kA)), kMaxLeaseMs);  // saturates, never wraps
}

TEST(Protocol, IdentityPartsAllDiffer) {
  EXPECT_TRUE(EveryPartDiffers(kA, kB));
  EXPECT_FALSE(EveryPartDiffers(kA, (kB & ~kNodePart) | (kA & kNodePart)));
  EXPECT_FALSE(EveryPartDiffers(kA, (kB & ~kUid20Part) | (kA & kUid20Part)));
  EXPECT_FALSE(EveryPartDiffers(kA, (kB & ~kShardsPart) | (kA & kShardsPart)));
}

// A copy waited for by one group only stays its writer's: the other group still honors it.
TEST(Protocol, CopyBecomesOursOnlyOnceBothGroupsWaited) {
  const Self self = Server(5, kA);
  ServerMark mark = Loaded(Pack(30000, kA), 0, kA);
  CopyState copy = DecideCopy(mark, self, CopyRead{true, true, true, 50000, OwnTag(9, kA), 50000});
  copy.wait_ms[kTimeOnly] = 0;  // UUIDv7 waited; Snowflake has not
  const CopyWrite write = DecideCopyWrite(mark, self, copy, 10000);
  EXPECT_FALSE(write.claims);
  EXPECT_EQ(static_cast<uint64_t>(write.tag) >> kIdentityBits & kRunMask, 0u);  // no run's
  EXPECT_FALSE(write.identity_exact);
  AfterCopyWrite(copy, write);
  EXPECT_FALSE(copy.tag_is_ours);
  EXPECT_EQ(copy.copy_identity_ms, 50000u);  // raised, never lowered, while not ours
  copy.wait_ms[kWithIdentity] = 0;
  EXPECT_TRUE(DecideCopyWrite(mark, self, copy, 60000).write_tag);
}

// A value under another identity than the lease's writes the lease again first, and nothing of
// the families with an identity is covered until then.
TEST(Protocol, NewIdentityWritesTheLeaseAgain) {
  ServerMark mark = Loaded(Pack(10000, kA), 0, kA);
  mark.lease_identity = kA;
  CopyState copy;
  const CoverDecision same = DecideCover(mark, kWithIdentity, 0, false, kA, copy, 5000, 5000);
  EXPECT_EQ(same.renew_lease_ms, 0u);
  const CoverDecision other = DecideCover(mark, kWithIdentity, 0, false, kB, copy, 5000, 5000);
  EXPECT_EQ(other.renew_lease_ms, 10010u);  // one unit beyond the lease, not a second more
  EXPECT_EQ(CoveredMs(mark, copy, kWithIdentity, kB), 0u);
  EXPECT_EQ(CoveredMs(mark, copy, kWithIdentity, kA), 10000u);
  EXPECT_EQ(CoveredMs(mark, copy, kTimeOnly, kB), 10000u);  // UUIDv7 has no identity
  PublishRenewal(mark, other.renew_lease_ms, 0, kB);
  EXPECT_EQ(mark.lease_identity, kB);
  EXPECT_TRUE(DecideCover(mark, kWithIdentity, 0, false, kA, copy, 5000, 5000).renew_lease_ms != 0);
  EXPECT_TRUE(DecideCover(mark, kTimeOnly, 0, false, kA, copy, kMaxLeaseMs, 0).beyond_max);
  EXPECT_TRUE(ReloadDropsCovered());
}

// An identity lease of another identity found at the start is retired on disk, and does not name
// the identity of the last values to restart_at_clock().
TEST(Protocol, StaleIdentityLeaseIsRetired) {
  const uint64_t mark_raw = Pack(900000, kA), identity_raw = Pack(800000, kB);
  const Load load = DecideLoad(mark_raw, identity_raw, 0, kA, false, 1, 0);
  EXPECT_TRUE(load.retire_identity);
  EXPECT_FALSE(DecideLoad(mark_raw, identity_raw, 0, kB, false, 1, 0).retire_identity);
  ServerMark mark;
  ApplyLoad(mark, load, mark_raw, identity_raw);
  RestartInput in;
  in.mark_raw = mark_raw;
  in.identity_raw = identity_raw;  // (as if it were still on disk)
  in.identity = kB;
  in.now_ms = 1000;
  EXPECT_EQ(DecideRestart(mark, in).kind, Restart::kMove);  // the last values were kA's
  in.identity = (kB & ~kNodePart) | (kA & kNodePart);
  const Restart same = DecideRestart(mark, in);
  EXPECT_EQ(same.kind, Restart::kRefuseSameIdentity);
  EXPECT_EQ(same.same_parts & kNodePart, kNodePart);
  in.mark_raw = uint64_t{90000} << kIdentityBits;  // written by 1.2
  EXPECT_EQ(DecideRestart(ServerMark{}, in).kind, Restart::kRefuseUnknownIdentity);
}

TEST(Protocol, RestartPreconditionsInOrder) {
  RestartInput in;
  EXPECT_EQ(RestartPrecondition(in), Restart::kMove);
  in.node_id_from_citus = true;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefuseCitus);
  in.identity_set_per_database_or_role = true;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefuseIdentityPerDatabase);
  in.shared_primary = false;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefuseNotPrimary);
  in.superuser = false;
  EXPECT_EQ(RestartPrecondition(in), Restart::kRefusePermission);
  EXPECT_EQ(DecideRestart(ServerMark{}, in).kind, Restart::kRefusePermission);
}

TEST(Protocol, RenewalKeepsNoLeaseAndGrowsOnly) {
  EXPECT_EQ(RenewedIdentityLease(kNoLease, 5000), kNoLease);
  EXPECT_EQ(RenewedIdentityLease(6000, 5000), 6000u);
  EXPECT_EQ(RenewedIdentityLease(4000, 5000), 5000u);
}

// The failover margin follows the timeline: a start that finds its leases loaded last under an
// earlier timeline (restarted or copied before its first ID) adds it, as the promoting start does.
TEST(Protocol, FailoverMarginFollowsTheTimeline) {
  const uint64_t mark_raw = Pack(50000, kA);
  const Load promoting = DecideLoad(mark_raw, 0, PackDecimalOrigin(0, 7), kA, true, 2, 3000);
  EXPECT_TRUE(promoting.after_failover);
  EXPECT_EQ(promoting.floor_ms, 53000u);
  EXPECT_TRUE(promoting.write_decimal);
  EXPECT_EQ(promoting.decimal_timeline, 2u);
  EXPECT_EQ(promoting.timeline_before, 0u);
  // Restarted before the leases of the failover were written: the margin again.
  const Load restarted = DecideLoad(mark_raw, 0, PackDecimalOrigin(0, 7), kA, false, 2, 3000);
  EXPECT_TRUE(restarted.after_failover);
  EXPECT_EQ(restarted.floor_ms, 53000u);
  EXPECT_EQ(restarted.decimal_next, 7 + kDecimalFailoverSkip);
  // Written under this timeline: nothing to add.
  const Load later = DecideLoad(mark_raw, 0, PackDecimalOrigin(2, 7), kA, false, 2, 3000);
  EXPECT_FALSE(later.after_failover);
  EXPECT_EQ(later.floor_ms, 50000u);
  EXPECT_FALSE(later.write_decimal);
  // Timeline 1 never writes a timeline; a fresh server has no lease to add a margin to.
  EXPECT_FALSE(DecideLoad(mark_raw, 0, 7, kA, false, 1, 3000).write_decimal);
  EXPECT_FALSE(DecideLoad(0, 0, 0, kA, false, 3, 3000).after_failover);
  // Until the leases are written, idgen_decimal_id keeps the timeline it had.
  ServerMark mark;
  ApplyLoad(mark, restarted, mark_raw, 0);
  EXPECT_EQ(TimelineOf(DecimalOriginValue(mark, 20)), 0u);
  FinishLoad(mark, restarted);
  EXPECT_EQ(DecimalOriginValue(mark, 20), PackDecimalOrigin(2, 20));
  EXPECT_EQ(DecimalNextOf(PackDecimalOrigin(2, 20)), 20u);
}

// A copy the clock has passed is still waited for (a clock stepped back before the next value):
// the wait raises the group's words to it.
TEST(Protocol, PassedCopyRaisesTheWords) {
  const Self self = Server(5, kA);
  const ServerMark mark = Loaded(Pack(1000, kA), 0, kA);
  const CopyState copy = DecideCopy(mark, self, CopyRead{true, true, true, 50000, OwnTag(9, kA), 50000});
  EXPECT_EQ(copy.wait_ms[kTimeOnly], 50000u);  // though the clock (below) has passed it
  const Wait go = DecideWait(copy.wait_ms[kTimeOnly], 60000, 5000);
  EXPECT_EQ(go.kind, Wait::kGo);
  EXPECT_EQ(RaiseAfterCopyWait(go, copy.wait_ms[kTimeOnly]), 50000u);
  EXPECT_EQ(RaiseAfterCopyWait(DecideWait(50000, 1000, 5000), 50000), 0u);  // refused: nothing moves
  // Made this run's: the group that had not waited has its words raised first.
  CopyState one = copy;
  one.wait_ms[kTimeOnly] = 0;
  const CopyWrite write = DecideCopyWrite(mark, self, one, 60000);
  EXPECT_TRUE(write.claims);
  EXPECT_EQ(write.raise_ms[kWithIdentity], 50000u);
  EXPECT_EQ(write.raise_ms[kTimeOnly], 0u);
}

// A copy raised before both groups waited is no run's: its writer, given it back, honors it.
TEST(Protocol, RaisedCopyIsNoRunsAnyMore) {
  const Self self = Server(5, kA);
  const ServerMark mark = Loaded(Pack(30000, kA), 0, kA);
  CopyState copy = DecideCopy(mark, self, CopyRead{true, true, true, 50000, OwnTag(9, kA), 50000});
  copy.wait_ms[kTimeOnly] = 0;
  const CopyWrite write = DecideCopyWrite(mark, self, copy, 10000);
  EXPECT_FALSE(write.claims);
  EXPECT_TRUE(write.write_tag);
  EXPECT_EQ(static_cast<uint64_t>(write.tag), kTagged | kA);
  const Self writer = Server(9, kA);
  EXPECT_FALSE(Covered(mark, writer, kTimeOnly, 60000, write.tag));
}

// CREATE EXTENSION starts the copy at the server's leases, under this run.
TEST(Protocol, CreateStartsTheCopyAtTheLeases) {
  const Self self = Server(5, kA);
  const ServerMark mark = Loaded(Pack(30000, kA), 0, kA);
  const CopyWrite write = DecideCopyAtCreate(mark, self);
  EXPECT_EQ(write.mark, 30000);
  EXPECT_EQ(write.mark_identity, 30000);
  EXPECT_EQ(write.tag, OwnTag(5, kA));
}

// DROP EXTENSION adopts what the copy held that the clock passed, never beyond the clock.
TEST(Protocol, DropAdoptsAPassedCopy) {
  const Self self = Server(5, kA);
  const ServerMark mark = Loaded(Pack(1000, kA), 0, kA);
  DropInput in;
  in.read = CopyRead{true, true, true, 50000, OwnTag(9, kA), 40000};
  in.now_ms = 60000;
  ASSERT_TRUE(DropKeepsNothing(mark, self, in));
  const DropAdopt adopt = DecideDropAdopt(mark, self, in);
  EXPECT_EQ(adopt.raise_ms[kTimeOnly], 50000u);
  EXPECT_EQ(adopt.raise_ms[kWithIdentity], 40000u);
  EXPECT_EQ(adopt.lease_ms, 50000u);
  in.now_ms = 45000;  // (the identity part passed, the rest not: only what the clock passed)
  const DropAdopt part = DecideDropAdopt(mark, self, in);
  EXPECT_EQ(part.raise_ms[kTimeOnly], 0u);
  EXPECT_EQ(part.raise_ms[kWithIdentity], 40000u);
  in.read.server = OwnTag(5, kA);  // this run's: nothing to adopt
  EXPECT_EQ(DecideDropAdopt(mark, self, in).lease_ms, 0u);
}

}  // namespace
}  // namespace idgen::protocol
