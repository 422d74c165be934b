// The generators' state: one struct, shared by every backend of the server (shared memory when
// idgen is preloaded on PostgreSQL 15 and 16; a named DSM segment from 17 on, preloaded or not), or,
// on 15 and 16 without preload, this process's own.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>

#include "core/state.hpp"
#include "pg/family.hpp"
#include "pg/pg.hpp"

extern "C" {
#include "storage/lwlock.h"
}

namespace idgen::pg {

inline constexpr int kMaxDatabases = 1024;

// One database's durable marks, seen as leases. Every value of a family issued in this database
// lies below lease_end (in the family's ticks), which the database's sequence idgen.<family>_mark
// holds, WAL-logged and flushed. 0: the mark has not been read since the state was created.
struct DatabaseLeases {
  std::atomic<uint32_t> database{0};  // its OID; 0: a free entry
  std::atomic<uint64_t> lease_end[kFamilyCount] = {};
  std::atomic<uint64_t> decimal{0};   // the database's DecimalId generator (core/decimal_id.hpp)
};

struct SharedState {
  StateWord family_word[kFamilyCount];              // one per family; this server is one node
  StateWord instagram[kInstagram.max_node() + 1];  // Instagram: one per shard, the sequence is per shard
  FamilyStats stats[kFamilyCount];
  int lock_tranche = 0;
  LWLockPadded family_locks[kFamilyCount];  // serialise the reading and renewing of marks
  LWLockPadded databases_lock;              // serialises claiming a DatabaseLeases entry
  DatabaseLeases databases[kMaxDatabases];

  // The words of a family: Instagram's per shard, one for the others, none for DecimalId (its
  // state is per database: DatabaseLeases::decimal).
  std::span<StateWord> words(Family family) {
    if (family == kFamilyInstagram) return instagram;
    if (family == kFamilyDecimal) return {};
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
StateRef GeneratorState();

// Counts one value issued by this backend for idgen.stats. Each backend counts on its own cache
// line of the shared state (plain stores, one writer), so counting adds no contended atomic.
void CountIssued(Family family);

// This database's leases (claims an entry on first use; 53400 when every entry is taken). C zone.
DatabaseLeases& MyDatabaseLeases(SharedState& state);

}  // namespace idgen::pg
