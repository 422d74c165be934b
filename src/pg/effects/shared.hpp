// The generators' state: one struct, shared by every backend of the server (shared memory when
// idgen is preloaded on PostgreSQL 15 and 16; a named DSM segment from 17 on, preloaded or not), or,
// on 15 and 16 without preload, this process's own.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/identity.hpp"
#include "core/protocol.hpp"
#include <span>

#include "core/state.hpp"
#include "pg/family.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "storage/lwlock.h"
}

namespace idgen::pg {

// The server's durable marks, as the backends share them (mark.hpp says how they are kept).
struct SharedMark {
  // What the replication origin idgen_mark holds, once durable (flushed, and confirmed by
  // synchronous standbys): the lease end, below which every value any coordinated family has
  // returned on this server lies, and the handle of the parts of the values with a part it covers
  // (core/protocol.hpp: Pack). Only raised. 0: not read since the state was created.
  std::atomic<uint64_t> lease_raw{0};
  // The families with a part (mark.hpp: KinOf) after idgen.restart_at_clock() moved them back to the
  // clock: what idgen_mark_identity holds, once durable; their values lie below it too.
  // protocol::kNoLease while there is none, protocol::kMoving while it is written or retired.
  std::atomic<uint64_t> identity_lease_raw{~uint64_t{0}};
  // What the words were raised to when the marks were read (this run's floors): a database's copy
  // at or below them is covered whoever wrote it.
  std::atomic<uint64_t> floor_ms{0};
  std::atomic<uint64_t> identity_floor_ms{0};
  std::atomic<bool> loaded{false};
  // Bumped by idgen.restart_at_clock() and a dropped identity lease: a value taken before it is taken
  // again.
  std::atomic<uint64_t> generation{0};
  // The next DecimalId generator id this server may take (below it: taken, durably), and what it
  // was when the marks were read: a database's DecimalIds of lower generator ids are covered.
  std::atomic<uint64_t> decimal_id_next{0};
  std::atomic<uint64_t> decimal_id_floor{0};
  // The timeline every write of idgen_decimal_id carries (protocol::PackDecimalOrigin), changed and
  // written under mark_lock held exclusively, read under it shared.
  std::atomic<uint32_t> decimal_timeline{0};
  // When the last DecimalId generator id was taken (Unix ms): the next waits a take interval.
  std::atomic<uint64_t> decimal_take_ms{0};
};

struct SharedState {
  StateWord family_word[kFamilyCount];             // one per family; this server is one node
  StateWord instagram[kInstagram.max_node() + 1];  // Instagram: one per shard, the sequence is per shard
  StateWord decimal_id;                            // (generator id + 1) << 32 | counter (core/decimal_id.hpp)
  FamilyStats stats[kFamilyCount];
  SharedMark mark;
  int lock_tranche = 0;
  // A random number drawn when the state is made (each start of the server): names this run of the
  // server, which a copy of it (pg_basebackup, a promoted clone) does not share.
  uint64_t instance = 0;
  // Serialises the first reading of the mark after the server started, and idgen.restart_at_clock()
  // against the renewals (which hold it shared). Never held across a flush, a wait or a lock.
  LWLockPadded mark_lock;
  // What this server remembers of the copies it wrote that stay another writer's (a restored or
  // moved database's, whose values lie ahead): the other writer's parts, by database and the copy's
  // exact words (engine::Effects::RememberTheirs). The latest few; under mark_lock.
  struct Theirs {
    Oid database = InvalidOid;
    int64_t tag = 0, parts = 0, mark = 0, mark_identity = 0;  // the copy as written
    protocol::Theirs theirs;
    uint64_t stamp = 0;
  };
  static constexpr int kTheirs = 16;
  Theirs theirs[kTheirs];
  uint64_t theirs_stamp = 0;
  // Bumped when a transaction that bound an Instagram shard (idgen.bind_instagram_shard) commits:
  // what each backend knows of the bindings (instagram_shard.cpp) is read again.
  std::atomic<uint64_t> shard_bindings{0};

  // The words of a family: Instagram's per shard, one for the others.
  std::span<StateWord> words(Family family) {
    if (family == kFamilyInstagram) return instagram;
    if (family == kFamilyDecimalId) return {&decimal_id, 1};
    return {&family_word[family], 1};
  }
};

// _PG_init, when preloading on PostgreSQL 15 and 16: asks for shared memory.
void RequestSharedState();

// The state of the generators; GeneratorState().shared says whether every backend sees it.
struct StateRef {
  SharedState& state;
  bool shared;
};
// (Inline, as CountIssued: both run on every call of every generator. The slow paths attach the
// named segment on 17 and later, or give the process's own state.)
extern SharedState* attached_state;  // the shared state, once this process has it
StateRef GeneratorStateSlow();
inline StateRef GeneratorState() {
  if (likely(attached_state != nullptr)) return {*attached_state, true};
  return GeneratorStateSlow();
}

// Counts one value issued by this backend for idgen.stats. Each backend counts on its own cache
// line of the shared state (plain stores, one writer), so counting adds no contended atomic.
extern std::atomic<uint64_t>* my_issued;  // this backend's counters, one per family, once found
std::atomic<uint64_t>* FindIssued();
inline void CountIssued(Family family) {
  std::atomic<uint64_t>* issued = likely(my_issued != nullptr) ? my_issued : FindIssued();
  issued[family].store(issued[family].load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

}  // namespace idgen::pg
