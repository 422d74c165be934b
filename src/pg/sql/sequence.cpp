// idgen.sequence_nextval(): nextval() of a ticket or range sequence (or any sequence), refused on a
// server promoted since the sequence last gave a value, until the operator sets it past what the
// old primary gave (protocol::DecideSequence says why).
#include "core/protocol.hpp"
#include "pg/compat.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "access/relation.h"
#include "access/timeline.h"
#include "access/xlog.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idgen::pg {

namespace {

// Where this server's WAL timeline began, read once per timeline from its history file (0 on the
// first timeline).
uint64_t TimelineBegin(TimeLineID timeline) {
  static TimeLineID known = 0;
  static uint64_t begin = 0;
  if (known != timeline) {
    begin = 0;
    if (timeline > 1) {
      List* history = readTimeLineHistory(timeline);
      // (newest first: the entry of this timeline, which began where its parent was switched from)
      if (history != NIL) begin = static_cast<TimeLineHistoryEntry*>(linitial(history))->begin;
      list_free_deep(history);
    }
    known = timeline;
  }
  return begin;
}

// The sequences this backend saw give a value on this timeline: their page LSN only grows, so they
// pass from then on without a look.
constexpr int kPassed = 16;
Oid passed[kPassed];
TimeLineID passed_timeline = 0;
int passed_next = 0;

void CheckSequence(Oid seq) {
  const TimeLineID timeline = GetWALInsertionTimeLine();
  if (timeline != passed_timeline) {
    for (Oid& p : passed) p = InvalidOid;
    passed_timeline = timeline;
  }
  for (const Oid p : passed) {
    if (p == seq) return;
  }
  // (what nextval() itself checks first: the page of a sequence the caller may not use says nothing)
  if (pg_class_aclcheck(seq, GetUserId(), ACL_USAGE | ACL_UPDATE) != ACLCHECK_OK) return;
  Relation rel = try_relation_open(seq, AccessShareLock);
  if (rel == nullptr) return;  // (nextval() says it is missing)
  if (rel->rd_rel->relkind != RELKIND_SEQUENCE) {
    relation_close(rel, AccessShareLock);
    return;  // (nextval() says it is not a sequence)
  }
  const bool wal_logged = RelationNeedsWAL(rel);
  uint64_t page_lsn = 0;
  if (wal_logged) {
    Buffer buffer = ReadBuffer(rel, 0);
    LockBuffer(buffer, BUFFER_LOCK_SHARE);
    page_lsn = PageGetLSN(BufferGetPage(buffer));
    UnlockReleaseBuffer(buffer);
  }
  const char* name = RelationGetRelationName(rel);
  char message[300];
  switch (protocol::DecideSequence(wal_logged, page_lsn, TimelineBegin(timeline))) {
    case protocol::SequenceCheck::kGo:
      relation_close(rel, AccessShareLock);
      passed[passed_next] = seq;
      passed_next = (passed_next + 1) % kPassed;
      return;
    case protocol::SequenceCheck::kRefuseNotLogged:
      snprintf(message, sizeof message, "sequence %s is not WAL-logged", name);
      Raise(ErrorKind::kPrerequisite, message,
            "An unlogged or temporary sequence starts again from its first value after a crash or a failover: it "
            "would repeat the values it gave.",
            "Use a sequence that is WAL-logged (ALTER SEQUENCE ... SET LOGGED).");
    case protocol::SequenceCheck::kRefuseBeforeFailover:
      snprintf(message, sizeof message, "sequence %s may give again values that the old primary gave", name);
      Raise(ErrorKind::kPrerequisite, message,
            "This server was promoted (or recovered to a point in time) after the sequence's last value here: the "
            "old primary may have given values that never reached this server, which the sequence would give again.",
            "Move it past every value the old primary gave, with SELECT idgen.sequence_resume(sequence, values to "
            "skip): its last value if you can read it there, or more than it could give in idgen.failover_margin; "
            "0 after a switchover or from a synchronous standby.");
  }
}

}  // namespace

IDGEN_FUNCTION(idgen_sequence_nextval) {
  const Oid seq = PG_GETARG_OID(0);
  // (a standby gives no value: nextval() says so)
  if (!RecoveryInProgress()) CheckSequence(seq);
  return DirectFunctionCall1(nextval_oid, ObjectIdGetDatum(seq));
}

}  // namespace idgen::pg
