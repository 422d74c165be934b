// The effects of the durable-state engine (core/engine.hpp) with PostgreSQL's calls: replication
// origins (origin.hpp), each database's copy (sequence pages of the extension, written with generic
// WAL), the shared mark and the state words (shared.hpp), the lock, latches and errors; and the
// calls of mark.hpp that the SQL functions make. Nothing here decides: what to write, when to wait
// or refuse, and in which order is the engine's.
#include "pg/effects/mark.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "core/clock.hpp"
#include "core/decimal_id.hpp"
#include "core/identity.hpp"
#include "core/uid20.hpp"
#include "core/uuidv7.hpp"
#include "pg/effects/generator.hpp"
#include "pg/guard.hpp"
#include "pg/module.hpp"
#include "pg/effects/origin.hpp"
#include "pg/effects/rebuild.hpp"
#include "pg/settings/settings.hpp"

extern "C" {
#include "utils/guc.h"
#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "commands/sequence.h"
#include "storage/bufmgr.h"
#include "catalog/pg_db_role_setting.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

namespace idgen::pg::marks {

engine::Session session;

uint64_t NowMs() { return static_cast<uint64_t>(std::max<int64_t>(WallClock().NowNs() / 1000000, 0)); }

// The extension is gone from this database (dropped, perhaps while this call ran), or older than
// 1.2: both are said as they are.
[[noreturn]] void RaiseMissing(const char* what) {
  char message[160];
  if (!OidIsValid(get_extension_oid("idgen", true))) {
    snprintf(message, sizeof message, "extension \"idgen\" does not exist in this database");
    Raise(ErrorKind::kPrerequisite, message,
          "It was dropped while this statement ran, or before: its generators keep a copy of the server's "
          "durable mark in the extension's objects (the server's own mark is kept, and holds the IDs of a "
          "re-created extension above the dropped one's).",
          "Create the extension in this database (CREATE EXTENSION idgen).");
  }
  snprintf(message, sizeof message, "the durable mark idgen.%s does not exist in this database", what);
  Raise(ErrorKind::kPrerequisite, message,
        "The extension in this database is older than the library: from idgen 1.2 on, each database keeps a "
        "copy of the durable mark, which its 64-bit families need (UUIDv7 goes on without it).",
        "Run ALTER EXTENSION idgen UPDATE in this database.");
}

namespace {

// ---- this backend's knowledge of its copy ----------------------------------------------------------

// The sequences of the copy the session read: mark, mark_server, mark_identity, mark_parts,
// decimal_id_generator (an invalidation of one of them makes the copy read again).
Oid copies[5] = {};

// The copy is read again in each transaction: a restore (its setval) sends no invalidation, and a
// session that connected before it must honor it before its next value. The common call in a
// transaction that has read it costs nothing more.
void ForgetCopyAtXactEnd(XactEvent event, void*) {
  if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT || event == XACT_EVENT_PREPARE) {
    session.fresh = false;
    session.hot.ready = 0;
  }
}

// A sequence of the copy dropped or made again (DROP/CREATE EXTENSION, in this transaction too).
void ForgetCopy(Datum, Oid relid) {
  for (const Oid copy : copies) {
    if (relid == InvalidOid || (OidIsValid(copy) && relid == copy)) {
      session.fresh = false;
      session.hot.ready = 0;
      return;
    }
  }
}

bool copy_callbacks = false;
void RegisterCopyCallbacks() {
  if (copy_callbacks) return;
  RegisterXactCallback(ForgetCopyAtXactEnd, nullptr);
  OnRelationChange(ForgetCopy);
  copy_callbacks = true;
}

// ---- the database's copy: sequences of the extension, their page 0 read and written directly ---

// The magic number in the special space of a sequence page (SEQ_MAGIC, commands/sequence.c).
constexpr uint32 kSequenceMagic = 0x1717;

Oid SequenceNamed(const char* name) {
  const Oid schema = get_namespace_oid("idgen", true);
  if (!OidIsValid(schema)) return InvalidOid;
  const Oid relation = get_relname_relid(name, schema);
  return OidIsValid(relation) && get_rel_relkind(relation) == RELKIND_SEQUENCE ? relation : InvalidOid;
}

// The sequence data on a page of a sequence relation.
Form_pg_sequence_data SequenceData(Relation relation, Page page) {
  if (reinterpret_cast<const uint32*>(PageGetSpecialPointer(page))[0] != kSequenceMagic) {
    elog(ERROR, "bad magic number in sequence \"%s\"", RelationGetRelationName(relation));
  }
  const ItemId item = PageGetItemId(page, FirstOffsetNumber);
  if (!ItemIdIsNormal(item)) elog(ERROR, "sequence \"%s\" has no tuple", RelationGetRelationName(relation));
  auto* tuple = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
  return reinterpret_cast<Form_pg_sequence_data>(reinterpret_cast<char*>(tuple) + tuple->t_hoff);
}

// Opens a sequence of the copy (nullptr when it does not exist: the caller says why).
Relation OpenCopy(Oid relation_id, LOCKMODE mode) {
  if (!OidIsValid(relation_id)) return nullptr;
  Relation relation = try_relation_open(relation_id, mode);
  if (relation != nullptr && relation->rd_rel->relkind != RELKIND_SEQUENCE) {  // the OID was reused
    relation_close(relation, mode);
    return nullptr;
  }
  return relation;
}

int64 ReadSequence(Oid relation_id, const char* name, bool* is_called = nullptr) {
  Relation relation = OpenCopy(relation_id, AccessShareLock);
  if (relation == nullptr) RaiseMissing(name);
  const Buffer buffer = ReadBuffer(relation, 0);
  LockBuffer(buffer, BUFFER_LOCK_SHARE);
  const Form_pg_sequence_data data = SequenceData(relation, BufferGetPage(buffer));
  const int64 value = data->last_value;
  if (is_called != nullptr) *is_called = data->is_called;
  UnlockReleaseBuffer(buffer);
  relation_close(relation, AccessShareLock);
  return value;
}

}  // namespace

protocol::CopyRead ReadCopyHere() {
  copies[0] = SequenceNamed("mark");
  copies[1] = SequenceNamed("mark_server");
  copies[2] = SequenceNamed("mark_identity");
  copies[3] = SequenceNamed("mark_parts");
  copies[4] = SequenceNamed("decimal_id_generator");
  protocol::CopyRead read;
  read.has_mark = OidIsValid(copies[0]);
  read.has_server = OidIsValid(copies[1]);
  read.has_identity = OidIsValid(copies[2]);
  read.has_parts = OidIsValid(copies[3]);
  if (read.has_mark && read.has_server) {
    bool called = true;
    read.mark = ReadSequence(copies[0], "mark", &called);
    read.mark_never_set = !called && read.mark == 0;
    read.server = ReadSequence(copies[1], "mark_server");
    if (read.has_identity) read.mark_identity = ReadSequence(copies[2], "mark_identity");
    if (read.has_parts) read.parts = ReadSequence(copies[3], "mark_parts");
  }
  return read;
}

int64_t ReadDecimalCopyHere() {
  const Oid decimal = SequenceNamed("decimal_id_generator");
  return OidIsValid(decimal) ? ReadSequence(decimal, "decimal_id_generator") : 0;
}

namespace {

// One sequence a write sets: to max(value, current), or to value itself when exact.
struct SequenceWrite {
  Oid relation_id;
  const char* name;
  int64 value;
  bool exact;
};

// Sets the sequences with generic WAL in one record (no transaction ID, works in read-only
// transactions; at most four pages), in the order given (every writer gives the same order);
// returns the end of the record (0 when nothing changed). The caller flushes.
XLogRecPtr WriteSequences(const SequenceWrite* writes, int count, int tag_index = -1, int parts_index = -1) {
  Relation relations[4] = {};
  Buffer buffers[4] = {};
  int open = 0;
  for (int i = 0; i < count; ++i) {
    relations[i] = OpenCopy(writes[i].relation_id, RowExclusiveLock);
    if (relations[i] == nullptr) {
      for (int j = 0; j < open; ++j) {
        UnlockReleaseBuffer(buffers[j]);
        relation_close(relations[j], RowExclusiveLock);
      }
      RaiseMissing(writes[i].name);
    }
    buffers[i] = ReadBuffer(relations[i], 0);
    LockBuffer(buffers[i], BUFFER_LOCK_EXCLUSIVE);
    open = i + 1;
  }
  // (the tag and the parts joined with those the pages hold, under the pages' locks)
  int64 values[4];
  for (int i = 0; i < count; ++i) values[i] = writes[i].value;
  if (tag_index >= 0 && parts_index >= 0) {
    const protocol::CopyTagParts joined =
        protocol::JoinCopyParts(SequenceData(relations[tag_index], BufferGetPage(buffers[tag_index]))->last_value,
                                SequenceData(relations[parts_index], BufferGetPage(buffers[parts_index]))->last_value,
                                values[tag_index], values[parts_index]);
    values[tag_index] = joined.tag;
    values[parts_index] = joined.parts;
  }
  GenericXLogState* xlog = nullptr;
  for (int i = 0; i < count; ++i) {
    const int64 current = SequenceData(relations[i], BufferGetPage(buffers[i]))->last_value;
    if (!(values[i] > current || (writes[i].exact && values[i] != current))) continue;
    if (xlog == nullptr) xlog = GenericXLogStart(relations[i]);
    Form_pg_sequence_data data = SequenceData(relations[i], GenericXLogRegisterBuffer(xlog, buffers[i], 0));
    data->last_value = values[i];
    data->log_cnt = 0;
    data->is_called = true;
  }
  const XLogRecPtr lsn = xlog != nullptr ? GenericXLogFinish(xlog) : 0;
  for (int i = 0; i < count; ++i) {
    UnlockReleaseBuffer(buffers[i]);
    relation_close(relations[i], RowExclusiveLock);
  }
  return lsn;
}

// ---- the state words --------------------------------------------------------------------------------

// The first tick of a layout at or after floor_ms: every value before the floor is in an earlier
// tick, so the word raised to (tick << seq_bits) goes on with sequence 1 of that tick.
uint64_t TickAtOrAfter(int64_t epoch_ms, int64_t unit_ms, uint64_t floor_ms) {
  const int64_t since = static_cast<int64_t>(floor_ms) - epoch_ms;
  return since <= 0 ? 0 : static_cast<uint64_t>(since / unit_ms);
}

bool InKins(Family family, uint8_t kins) {
  const int kin = KinOf(family);
  return kin != engine::kDecimal && (kins >> kin & 1) != 0;
}

// ---- the effects ----------------------------------------------------------------------------------

class PgEffects final : public engine::Effects {
 public:
  // The origins' ids come first (a catalog read, and on a new server the worker that creates the
  // origins): an effect under the lock reads no catalog.
  // (create false: where the origins do not exist yet, they read 0 and nothing is written to them)
  explicit PgEffects(const StateRef& ref, bool create = true) : state_(ref.state), shared_(ref.shared) {
    for (int i = 0; i < origin::kOriginCount; ++i) {
      ids_[i] = create ? origin::Id(static_cast<origin::Which>(i)) : replorigin_by_name(origin::kNames[i], true);
    }
  }

  uint64_t NowMs() override { return marks::NowMs(); }
  void WaitUntilMs(uint64_t until_ms) override { WaitForClock(static_cast<int64_t>(until_ms) * 1000000); }
  engine::Config ReadConfig() override {
    settings::CatchUpWithReload();
    engine::Config config;
    config.identity = settings::Identity();
    config.legacy_hash = settings::LegacyIdentityHash();
    config.citus = settings::node_id_source == settings::kNodeIdFromCitus;
    config.failover_margin_ms = static_cast<uint64_t>(settings::failover_margin_ms);
    config.max_clock_regression_ms = static_cast<uint64_t>(settings::max_clock_regression_ms);
    config.launch_id = settings::launch_id;
    config.refused_families = settings::problem_consumers;  // (a consumer's bit is 1 << family, as family_bit)
    return config;
  }
  bool Shared() override { return shared_; }
  bool Recovery() override { return RecoveryInProgress(); }
  bool PromoteTriggered() override { return PromoteIsTriggered(); }
  uint32_t Timeline() override { return GetWALInsertionTimeLine(); }
  // This server as the decisions see it: the run (SharedState::instance, a random number drawn at
  // each start of the server, which a pg_basebackup clone does not share; never 0), the identity of
  // the configuration, the system identifier, the DecimalId run (29 bits of the run, never 0).
  protocol::Self Me(const engine::Config& config) override {
    protocol::Self self;
    self.run_bits = ((state_.instance >> 25) & protocol::kLegacyRunMask) | 1;
    self.identity = config.identity;
    self.legacy_hash = config.legacy_hash;
    self.system_identifier = static_cast<int64_t>(GetSystemIdentifier());
    self.decimal_run = static_cast<int64_t>((state_.instance >> 35) | (uint64_t{1} << 28));
    return self;
  }
  uint64_t Place() override { return uint64_t{MyDatabaseId} << 1 | (shared_ ? 1 : 0); }

  uint64_t ReadOrigin(engine::Origin which) override {
    const compat::OriginId id = ids_[OriginOf(which)];
    return id == compat::kInvalidOriginId ? 0 : origin::Read(id);
  }
  uint64_t AdvanceOrigin(engine::Origin which, uint64_t value, bool backward) override {
    const compat::OriginId id = ids_[OriginOf(which)];
    if (id == compat::kInvalidOriginId)
      elog(ERROR, "idgen: the origin %s does not exist", origin::kNames[OriginOf(which)]);
    return origin::Advance(id, value, backward);
  }
  uint64_t WrittenUpTo() override { return GetXLogInsertEndRecPtr(); }
  void FlushAndConfirm(uint64_t position) override {
    if (position != 0) origin::FlushAndConfirm(position);
  }

  uint16_t Register(const identity::Parts& parts) override {
    if (parts == identity::NoParts()) return 0;  // (a handle of 1.4's format without parts names none)
    char name[origin::kMaxNamedLength + 1];
    const size_t prefix = strlen(origin::kPartsPrefix);
    strlcpy(name, origin::kPartsPrefix, sizeof name);
    // (parts not known, of a copy that idgen 1.3 wrote: "?", which reads back as not known)
    if (parts.known) {
      (void)identity::FormatFitting(parts, name + prefix, sizeof name - prefix);
    } else {
      strlcat(name, "?", sizeof name);
    }
    return static_cast<uint16_t>(origin::IdNamed(name));
  }
  identity::Parts PartsOf(uint16_t handle) override {
    char name[origin::kMaxNamedLength + 64];
    const size_t prefix = strlen(origin::kPartsPrefix);
    if (handle == 0 || !origin::NameOf(handle, name, sizeof name) || strncmp(name, origin::kPartsPrefix, prefix) != 0) {
      return identity::Parts{};
    }
    const std::optional<identity::Parts> parts = identity::Parse(name + prefix);
    return parts ? *parts : identity::Parts{};
  }
  engine::Rebuilt RebuildFromCopies(int launch_id) override { return RebuildFromEveryCopy(launch_id); }

  void LockMark(bool exclusive) override {
    LWLockAcquire(&state_.mark_lock.lock, exclusive ? LW_EXCLUSIVE : LW_SHARED);
  }
  void UnlockMark() override { LWLockRelease(&state_.mark_lock.lock); }
  protocol::ServerMark ReadMark() override {
    const SharedMark& m = state_.mark;
    protocol::ServerMark mark;
    mark.loaded = m.loaded.load(std::memory_order_acquire);
    mark.generation = m.generation.load(std::memory_order_acquire);
    mark.lease_raw = m.lease_raw.load(std::memory_order_acquire);
    mark.identity_lease_raw = m.identity_lease_raw.load(std::memory_order_acquire);
    mark.floor_ms = m.floor_ms.load(std::memory_order_acquire);
    mark.identity_floor_ms = m.identity_floor_ms.load(std::memory_order_acquire);
    mark.decimal_id_next = m.decimal_id_next.load(std::memory_order_acquire);
    mark.decimal_id_floor = m.decimal_id_floor.load(std::memory_order_acquire);
    mark.decimal_timeline = m.decimal_timeline.load(std::memory_order_acquire);
    mark.decimal_take_ms = m.decimal_take_ms.load(std::memory_order_acquire);
    return mark;
  }
  void WriteMark(const protocol::ServerMark& mark, uint32_t fields) override {
    SharedMark& m = state_.mark;
    if ((fields & engine::kFieldLease) != 0) RaiseAtomic(m.lease_raw, mark.lease_raw);
    if ((fields & engine::kFieldIdentityLease) != 0) {
      // (a lease only grows while it is one; from none, or moving, or back to either: set)
      uint64_t old = m.identity_lease_raw.load(std::memory_order_acquire);
      const auto is_lease = [](uint64_t raw) { return raw != protocol::kNoLease && raw != protocol::kMoving; };
      while (!(is_lease(old) && is_lease(mark.identity_lease_raw) && old >= mark.identity_lease_raw) &&
             !m.identity_lease_raw.compare_exchange_weak(old, mark.identity_lease_raw, std::memory_order_acq_rel)) {
      }
    }
    if ((fields & engine::kFieldFloors) != 0) {
      m.floor_ms.store(mark.floor_ms, std::memory_order_release);
      m.identity_floor_ms.store(mark.identity_floor_ms, std::memory_order_release);
    }
    if ((fields & engine::kFieldGeneration) != 0) m.generation.store(mark.generation, std::memory_order_release);
    if ((fields & engine::kFieldDecimal) != 0) {
      m.decimal_id_next.store(mark.decimal_id_next, std::memory_order_release);
      m.decimal_id_floor.store(mark.decimal_id_floor, std::memory_order_release);
      m.decimal_timeline.store(mark.decimal_timeline, std::memory_order_release);
    }
    if ((fields & engine::kFieldDecimalTake) != 0) RaiseAtomic(m.decimal_take_ms, mark.decimal_take_ms);
    if ((fields & engine::kFieldLoaded) != 0) m.loaded.store(mark.loaded, std::memory_order_release);
  }
  uint64_t TakeGeneratorId() override { return state_.mark.decimal_id_next.fetch_add(1, std::memory_order_acq_rel); }

  void RaiseWords(uint8_t kins, uint64_t ms, uint64_t self_made_ms, bool floor) override {
    for (int f = 0; f < kFamilyCount; ++f) {
      const auto family = static_cast<Family>(f);
      if (!InKins(family, kins)) continue;
      const uint64_t word = WordAt(family, ms);
      for (StateWord& w : state_.words(family)) RaiseTo(w, word);
      if (floor) {
        // (no regression counted for the gap the server made itself: core/state.hpp's floor_word)
        const uint64_t below = WordAt(family, ms - std::min(ms, self_made_ms));
        SetFloor(state_.stats[family], ms == 0 ? 0 : word, word - std::min(word, below));
      }
    }
  }
  void SetWords(uint8_t kins, uint64_t ms) override {
    for (int f = 0; f < kFamilyCount; ++f) {
      const auto family = static_cast<Family>(f);
      if (!InKins(family, kins)) continue;
      const uint64_t word = WordAt(family, ms);
      for (StateWord& w : state_.words(family)) w.value.store(word, std::memory_order_release);
      SetFloor(state_.stats[family], 0, 0);
    }
  }

  protocol::CopyRead ReadCopy() override {
    RegisterCopyCallbacks();
    return ReadCopyHere();
  }
  uint64_t WriteCopy(const protocol::CopyWrite& write) override {
    SequenceWrite writes[4];
    int count = 0;
    writes[count++] = SequenceWrite{SequenceNamed("mark"), "mark", write.mark, false};
    if (write.write_identity) {
      writes[count++] =
          SequenceWrite{SequenceNamed("mark_identity"), "mark_identity", write.mark_identity, write.identity_exact};
    }
    int tag_index = -1, parts_index = -1;
    if (write.write_tag) {
      tag_index = count;
      writes[count++] = SequenceWrite{SequenceNamed("mark_server"), "mark_server", write.tag, true};
      const Oid parts = SequenceNamed("mark_parts");
      if (OidIsValid(parts)) {
        parts_index = count;
        writes[count++] = SequenceWrite{parts, "mark_parts", write.parts, true};
      }
    }
    return WriteSequences(writes, count, tag_index, parts_index);
  }
  void RememberTheirs(const protocol::CopyWrite& write) override {
    if (!shared_) return;
    LWLockAcquire(&state_.mark_lock.lock, LW_EXCLUSIVE);
    SharedState::Theirs* slot = &state_.theirs[0];
    bool same = false;
    for (SharedState::Theirs& t : state_.theirs) {
      if (t.stamp != 0 && t.database == MyDatabaseId && t.tag == write.tag && t.parts == write.parts) {
        slot = &t;
        same = true;
        break;
      }
      if (t.stamp < slot->stamp) slot = &t;  // (else the oldest goes)
    }
    // (sessions' writes of one copy race: what it holds is the largest of what they wrote)
    slot->mark = same ? std::max(slot->mark, write.holds_mark) : write.holds_mark;
    slot->mark_identity = same ? std::max(slot->mark_identity, write.holds_identity) : write.holds_identity;
    slot->database = MyDatabaseId;
    slot->tag = write.tag;
    slot->parts = write.parts;
    slot->theirs = write.theirs;
    slot->stamp = ++state_.theirs_stamp;
    LWLockRelease(&state_.mark_lock.lock);
  }
  bool RecallTheirs(const protocol::CopyRead& read, protocol::Theirs* theirs) override {
    if (!shared_) return false;
    bool found = false;
    LWLockAcquire(&state_.mark_lock.lock, LW_SHARED);
    for (const SharedState::Theirs& t : state_.theirs) {
      if (t.stamp != 0 && t.database == MyDatabaseId && t.tag == read.server && t.parts == read.parts &&
          read.mark <= t.mark && (!read.has_identity || read.mark_identity <= t.mark_identity)) {
        *theirs = t.theirs;
        found = true;
        break;
      }
    }
    LWLockRelease(&state_.mark_lock.lock);
    return found;
  }
  int64_t ReadDecimalCopy() override {
    return ReadSequence(SequenceNamed("decimal_id_generator"), "decimal_id_generator");
  }
  uint64_t WriteDecimalCopy(int64_t value) override {
    const SequenceWrite write{SequenceNamed("decimal_id_generator"), "decimal_id_generator", value, true};
    return WriteSequences(&write, 1);
  }

  [[noreturn]] void Refuse(const engine::Refusal& refusal) override;

 private:
  static int OriginOf(engine::Origin which) {
    switch (which) {
      case engine::Origin::kMark:
        return origin::kMark;
      case engine::Origin::kIdentityMark:
        return origin::kIdentityMark;
      case engine::Origin::kDecimalId:
        return origin::kDecimalId;
      case engine::Origin::kDecimalTake:
        return origin::kDecimalTake;
    }
    return origin::kMark;
  }
  engine::Rebuilt RebuildFromEveryCopy(int launch_id);

  SharedState& state_;
  bool shared_;
  compat::OriginId ids_[origin::kOriginCount];
};

engine::Rebuilt PgEffects::RebuildFromEveryCopy(int launch_id) { return rebuild::FromEveryDatabase(state_, launch_id); }

void PgEffects::Refuse(const engine::Refusal& refusal) {
  char message[256], detail[512];
  switch (refusal.kind) {
    case engine::Refusal::kMissingCopy:
      RaiseMissing("mark");
    case engine::Refusal::kCopyAhead: {
      snprintf(message, sizeof message, "the durable mark of this database lies %s ahead of the system clock",
               FormatDuration(static_cast<int64_t>(refusal.a)).c_str());
      // The ways out that keep the promise (protocol::DecideAdopt): for a family with a part, a part
      // the copy's IDs do not carry; for the others, carrying on above the copy.
      const char* hint =
          refusal.b == protocol::kNode
              ? "Check the system clock: IDs resume by themselves once it passes the mark. Or give this server an "
                "idgen.node_id that those IDs do not carry (ALTER SYSTEM, then SELECT pg_reload_conf()): this "
                "family carries on at once."
          : refusal.b == protocol::kDigit
              ? "Check the system clock: IDs resume by themselves once it passes the mark. Or give this server an "
                "idgen.uid20_server that those IDs do not carry (ALTER SYSTEM, then SELECT pg_reload_conf())."
          : refusal.b == protocol::kShard
              ? "Check the system clock: IDs resume by themselves once it passes the mark. Or give this server "
                "idgen.instagram_shards that share no shard with those IDs (ALTER SYSTEM, then SELECT "
                "pg_reload_conf())."
              : "Check the system clock: IDs resume by themselves once it passes the mark. Or have a superuser run "
                "SELECT idgen.adopt_copy() in this database: UUIDv7, ULID, typeid and ns_id then carry on above it, "
                "ahead of the clock.";
      Raise(ErrorKind::kClockRegression, message,
            "This database holds IDs made by another server, or by this one before its marks were lost (a restored "
            "dump, a cluster that pg_upgrade made, a copy of this server): IDs made here before the clock passes "
            "them could repeat them.",
            hint);
    }
    case engine::Refusal::kBeyondMaxLease:
      Raise(ErrorKind::kPrerequisite, "the durable mark cannot hold a lease that far ahead",
            "A value of this family lies, or the system clock is, beyond the last lease the mark can write.",
            "Check the system clock.");
    case engine::Refusal::kTooManyRetakes:
      snprintf(message, sizeof message, "no value that the durable mark covers after %llu tries",
               static_cast<unsigned long long>(refusal.a));
      Raise(ErrorKind::kInternal, message,
            "Each value taken was dropped: the identity or the durable mark changed under it every time.",
            "Retry the statement; report it to idgen's maintainers if it persists.");
    case engine::Refusal::kDecimalTakeAhead:
      snprintf(message, sizeof message, "the last DecimalId generator id was taken %s ahead of the system clock",
               FormatDuration(static_cast<int64_t>(refusal.a)).c_str());
      Raise(ErrorKind::kClockRegression, message,
            "Generator ids are taken at least a second apart, by the clock, so that a promoted standby knows how "
            "many its primary may have taken: the clock went back since the last one.",
            "Check the system clock; DecimalIds resume once it passes that time (idgen.max_clock_regression is the "
            "largest gap idgen waits out).");
    case engine::Refusal::kDecimalExhausted:
      ereport(ERROR, errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
              errmsg("every DecimalId generator id of this server is used"),
              errdetail("A generator id is taken at each start of the server and whenever a counter runs out, and a "
                        "promoted standby skips those its primary may have taken; there are 100000, and none is "
                        "ever used twice."),
              errhint("Give this deployment a new idgen.launch_id: its IDs then differ from every earlier one."));
      pg_unreachable();
    case engine::Refusal::kDecimalCopyAhead:
      snprintf(message, sizeof message,
               "this database holds DecimalIds of launch id %lld that this server could repeat",
               static_cast<long long>(refusal.b));
      snprintf(detail, sizeof detail,
               "They were made by another server (a restored dump, a copy of this server) or set by hand, with "
               "generator ids up to %llu, which this server has not passed: its own DecimalIds here could repeat "
               "them.",
               static_cast<unsigned long long>(refusal.a));
      Raise(ErrorKind::kPrerequisite, message, detail,
            "Give this server its own idgen.launch_id (the launch id separates deployments, and a restored copy is "
            "one), and reload.");
    case engine::Refusal::kDropCopyAhead:
      snprintf(detail, sizeof detail,
               "This database holds IDs made up to %s by another server, or by this one before its marks were lost "
               "(a restored dump, a copy of this server), ahead of this server's clock: the copy of the mark that "
               "keeps its new IDs above them goes with the extension.",
               FormatUtc(static_cast<int64_t>(refusal.a)).c_str());
      Raise(ErrorKind::kPrerequisite,
            "extension \"idgen\" cannot be dropped while it holds IDs this server has not passed", detail,
            "Drop it once the system clock has passed that time; or once this server has a node id, UID20 digit "
            "and shards that those IDs do not carry, and a superuser has run SELECT idgen.adopt_copy() in this "
            "database.");
    case engine::Refusal::kDropDecimalAhead:
      snprintf(detail, sizeof detail,
               "This database holds DecimalIds of launch id %lld with generator ids up to %llu, which this server has "
               "not passed: the copy that keeps it from repeating them goes with the extension.",
               static_cast<long long>(refusal.b), static_cast<unsigned long long>(refusal.a));
      Raise(ErrorKind::kPrerequisite,
            "extension \"idgen\" cannot be dropped while it holds DecimalIds this server could repeat", detail,
            "Give this server its own idgen.launch_id, reload, then drop it.");
    case engine::Refusal::kRebuildDecimalExhausted: {
      const char* database = get_database_name(static_cast<Oid>(refusal.b));
      snprintf(message, sizeof message,
               "the DecimalId copy in database \"%s\" holds the last generator id of this launch id",
               database != nullptr ? database : "?");
      Raise(ErrorKind::kPrerequisite, message,
            "This server's marks are new (a cluster that pg_upgrade made, a restore into a new cluster), and take "
            "their DecimalId generator ids past every database's copy: none is left past that one.",
            "Give this server a new idgen.launch_id; or, where that copy was set by hand, a superuser sets it right in "
            "that database (setval() of idgen.decimal_id_generator).");
    }
    case engine::Refusal::kSettingRejected:
      settings::CheckConfiguredSlow(static_cast<uint32_t>(refusal.a));
      break;
    case engine::Refusal::kRebuildAhead: {
      const char* database = get_database_name(static_cast<Oid>(refusal.b));
      snprintf(message, sizeof message,
               "the copy of the durable mark in database \"%s\" lies %s ahead of the system clock",
               database != nullptr ? database : "?", FormatDuration(static_cast<int64_t>(refusal.a)).c_str());
      Raise(ErrorKind::kClockRegression, message,
            "This server's marks are new (a cluster that pg_upgrade made, a restore into a new cluster), and start "
            "from every database's copy: IDs made before the clock passes it, in any database, could repeat IDs "
            "that database holds.",
            "Check the system clock. IDs resume by themselves once it passes the mark (idgen.max_clock_regression "
            "is the largest gap that idgen waits out instead of refusing). A copy set ahead by hand is set right in "
            "that database by a superuser, with setval() of idgen.mark and idgen.mark_identity.");
    }
  }
  elog(ERROR, "idgen: unknown refusal %d", static_cast<int>(refusal.kind));
}

}  // namespace

uint64_t WordAt(Family family, uint64_t floor_ms) {
  switch (family) {
    case kFamilyUuidv7:
      return (floor_ms << uuidv7::kFractionBits) << uuidv7::kCounterBits;
    case kFamilyUid20:
      return TickAtOrAfter(settings::EpochMs(family), uid20::kMillis.unit_ms, floor_ms) << uid20::kMillis.seq_bits;
    case kFamilyUid20Sec:
      return TickAtOrAfter(settings::EpochMs(family), uid20::kSeconds.unit_ms, floor_ms) << uid20::kSeconds.seq_bits;
    case kFamilyNsId:
      return floor_ms * 1000000;
    case kFamilyDecimalId:
      return 0;  // not a time: its generator ids are the origin's
    default: {
      const Layout& layout = *kLayouts[family];
      return TickAtOrAfter(settings::EpochMs(family), layout.unit_ms, floor_ms) << layout.seq_bits;
    }
  }
}

bool Prepare(Family family, const StateRef& ref) {
  // Where the marks do not apply (no shared state, or recovery), a setting the server rejected
  // refuses here; elsewhere engine::Prepare reads the configuration as it is now (a reload in
  // flight is read) and refuses it, before anything is decided under it.
  if (!ref.shared || RecoveryInProgress()) {
    settings::CatchUpWithReload();
    settings::CheckConfigured(settings::Of(family));
    return false;
  }
  PgEffects fx(ref);
  return engine::Prepare(fx, session, KinOf(family), uint32_t{1} << family);
}

bool Cover(Family family, const StateRef& ref, uint64_t ms) {
  PgEffects fx(ref);
  return engine::Cover(fx, session, static_cast<protocol::Kin>(KinOf(family)), ms);
}

int64_t TakeGeneratorId(const StateRef& ref) {
  PgEffects fx(ref);
  return engine::TakeGeneratorId(fx, session);
}

void CoverDecimalIdSlow(const StateRef& ref, int launch_id, int64_t id) {
  PgEffects fx(ref);
  engine::CoverDecimalIdSlow(fx, session, launch_id, id);
}

void CheckDecimalIdCopySlow(const StateRef& ref, int launch_id) {
  PgEffects fx(ref);
  engine::CheckDecimalIdCopySlow(fx, session, launch_id);
}

void CheckDropKeepsNothing(const StateRef& ref) {
  PgEffects fx(ref);
  engine::CheckDrop(fx, session);
}

void StartCopy(const StateRef& ref) {
  PgEffects fx(ref, false);
  // (made in this transaction: CREATE EXTENSION, not an update)
  bool created_now = false;
  const Oid mark = SequenceNamed("mark");
  if (creating_extension && OidIsValid(mark)) {
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(mark));
    if (HeapTupleIsValid(tuple)) {
      created_now = TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data));
      ReleaseSysCache(tuple);
    }
  }
  engine::StartCopy(fx, session, created_now);
}

void HoldMovedValues(const StateRef& ref, protocol::Kin kin, uint64_t ms, const identity::Parts& parts) {
  PgEffects fx(ref);
  engine::HoldMovedValues(fx, session, kin, ms, parts);
}

void HoldMovedDecimalIds(const StateRef& ref, int launch_id, int64_t generator) {
  PgEffects fx(ref);
  engine::HoldMovedDecimalIds(fx, session, launch_id, generator);
}

protocol::Adopt AdoptCopy(const StateRef& ref) {
  PgEffects fx(ref);
  return engine::AdoptCopy(fx, session);
}

protocol::Restart RestartAtClock(const StateRef& ref, const protocol::RestartInput& in) {
  PgEffects fx(ref);
  return engine::RestartAtClock(fx, session, in);
}

}  // namespace idgen::pg::marks

namespace idgen::pg {

namespace {

// Whether a database or a role sets an identity setting (ALTER DATABASE/ROLE ... SET), and where
// (the first one found, into where). C zone.
bool IdentitySetPerDatabaseOrRole(char* where, size_t size) {
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  const int rc = SPI_execute(
      "SELECT pg_catalog.split_part(c, '=', 1), coalesce(d.datname, 'every database'), "
      "coalesce(r.rolname, 'every role') FROM pg_catalog.pg_db_role_setting s "
      "CROSS JOIN LATERAL pg_catalog.unnest(s.setconfig) c "
      "LEFT JOIN pg_catalog.pg_database d ON d.oid OPERATOR(pg_catalog.=) s.setdatabase "
      "LEFT JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) s.setrole "
      "WHERE pg_catalog.split_part(c, '=', 1) OPERATOR(pg_catalog.=) ANY "
      "('{idgen.node_id,idgen.node_id_source,idgen.uid20_server,idgen.instagram_shards}'::pg_catalog.text[]) "
      "LIMIT 1",
      true, 1);
  if (rc != SPI_OK_SELECT) elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(rc));
  const bool found = SPI_processed > 0;
  if (found) {
    snprintf(where, size, "%s is set for %s, %s", SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1),
             SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2),
             SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3));
  }
  SPI_finish();
  return found;
}

}  // namespace

// idgen.restart_at_clock(): engine::RestartAtClock, in words.
IDGEN_FUNCTION(idgen_restart_at_clock) {
  const StateRef ref = GeneratorState();
  protocol::RestartInput in;
  in.superuser = superuser();
  in.shared_primary = ref.shared && !RecoveryInProgress();
  char where[300] = "";
  if (in.superuser && in.shared_primary) {
    // The identity every session generates under is the server's configuration (the settings are
    // PGC_SIGHUP): the one this call checks is the configuration's as it is now.
    settings::CatchUpWithReload();
    in.identity_set_per_database_or_role = IdentitySetPerDatabaseOrRole(where, sizeof where);
    in.node_id_from_citus = settings::node_id_source == settings::kNodeIdFromCitus;
  }
  protocol::Restart restart;
  if (protocol::RestartPrecondition(in) == protocol::Restart::kMove) {
    restart = marks::RestartAtClock(ref, in);
  } else {
    restart.kind = protocol::RestartPrecondition(in);
  }
  const uint64_t now_ms = marks::NowMs();
  const uint64_t old_ms = restart.old_ms;
  char text[400];
  switch (restart.kind) {
    case protocol::Restart::kRefusePermission:
      ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to restart idgen at the clock"),
              errdetail("Only a superuser may lower idgen's durable mark."));
      pg_unreachable();
    case protocol::Restart::kRefuseNotPrimary:
      Raise(ErrorKind::kPrerequisite, "idgen.restart_at_clock() needs the shared state of a primary",
            "It moves the state that every session of this server shares, and the durable mark, which a standby "
            "replays from its primary.",
            "Run it on the primary, with idgen preloaded (on PostgreSQL 15 and 16).");
    case protocol::Restart::kRefuseIdentityPerDatabase:
      Raise(ErrorKind::kPrerequisite, where,
            "A node identity set per database or per role (ALTER DATABASE ... SET, ALTER ROLE ... SET) makes the "
            "sessions there generate under it: idgen.restart_at_clock() cannot see whether their identity is new, and "
            "lowered to the clock they could repeat the IDs made while the clock was ahead.",
            "Set the identity in the server's configuration only (ALTER SYSTEM, then SELECT pg_reload_conf()): remove "
            "it with ALTER DATABASE ... RESET or ALTER ROLE ... RESET, then call idgen.restart_at_clock() again.");
    case protocol::Restart::kRefuseCitus:
      // With the node id from Citus, a new identity is a new group id, which only Citus gives and this
      // function cannot see.
      Raise(ErrorKind::kPrerequisite,
            "idgen.restart_at_clock() cannot see a new identity under idgen.node_id_source = 'citus'",
            "Snowflake, Sonyflake, TraceId and JS-safe IDs take this node's Citus group id, which stays the same: "
            "lowered to the clock, they would repeat the IDs made while the clock was ahead.",
            "Wait for the clock to pass the mark, or give this server idgen.node_id_source = 'setting' and an "
            "idgen.node_id that no server has used (above every Citus group id), reload, then call it again.");
    case protocol::Restart::kNothingToDo:
      snprintf(text, sizeof text, "the durable mark (%s) is not ahead of the clock: nothing to do",
               FormatUtc(static_cast<int64_t>(old_ms)).c_str());
      return TextDatum(text);
    case protocol::Restart::kRefuseUnknownIdentity: {
      char detail[400];
      snprintf(detail, sizeof detail,
               "The durable mark lies %s ahead of the clock, written by idgen 1.3 or earlier, which recorded the "
               "identity as a hash: which node ids, UID20 digits and Instagram shards its IDs carry cannot be told, "
               "and a family whose part is not new would repeat the IDs made while the clock was ahead.",
               FormatDuration(static_cast<int64_t>(old_ms - now_ms)).c_str());
      Raise(ErrorKind::kPrerequisite, "the identity of this server's last IDs is not known part by part", detail,
            "Wait for the clock to pass the mark (the families resume by themselves).");
    }
    case protocol::Restart::kRefuseSameIdentity: {
      char names[200] = "";
      const char* kNames[identity::kPartCount] = {"idgen.node_id", "idgen.uid20_server", "idgen.instagram_shards"};
      for (int p = 0; p < identity::kPartCount; ++p) {
        if (!restart.shares[p]) continue;
        if (names[0] != '\0') strlcat(names, ", ", sizeof names);
        strlcat(names, kNames[p], sizeof names);
      }
      char message[300], detail[500];
      snprintf(message, sizeof message, "this server still has the %s that its last IDs carry", names);
      snprintf(detail, sizeof detail,
               "The durable mark lies %s ahead of the clock: IDs made from the clock under a node id, a UID20 digit "
               "or an Instagram shard that the IDs made while the clock was ahead carry could repeat them, in the "
               "families that carry it.",
               FormatDuration(static_cast<int64_t>(old_ms - now_ms)).c_str());
      Raise(ErrorKind::kPrerequisite, message, detail,
            "Give this server an idgen.node_id and an idgen.uid20_server that those IDs do not carry, and "
            "idgen.instagram_shards that share no shard with them (an empty list where the server had the default "
            "list, every shard), each of the three (ALTER SYSTEM, then SELECT pg_reload_conf()), then call "
            "idgen.restart_at_clock() again.");
    }
    case protocol::Restart::kMove:
      break;
  }
  snprintf(text, sizeof text,
           "the durable mark of the IDs with a node identity moved back from %s to %s: they carry on from the clock "
           "(UUIDv7 and ns_id carry on above their last IDs)",
           FormatUtc(static_cast<int64_t>(old_ms)).c_str(), FormatUtc(static_cast<int64_t>(now_ms)).c_str());
  return TextDatum(text);
}

// idgen.adopt_copy(): engine::AdoptCopy, for superusers, on a primary with shared state.
IDGEN_FUNCTION(idgen_adopt_copy) {
  if (!superuser()) {
    ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
            errmsg("permission denied to adopt a copy of the durable mark"),
            errdetail("It moves this server's marks, which every database shares, ahead of the clock."),
            errhint("Ask a superuser."));
  }
  const StateRef ref = GeneratorState();
  if (!ref.shared || RecoveryInProgress()) {
    Raise(ErrorKind::kPrerequisite, "idgen.adopt_copy() needs the shared state of a primary",
          "It moves the state that every session of this server shares, and the durable mark.",
          "Run it on the primary, with idgen preloaded (on PostgreSQL 15 and 16).");
  }
  const protocol::Adopt adopt = marks::AdoptCopy(ref);
  char text[300];
  if (adopt.time_ms == 0 && adopt.decimal_next == 0) {
    snprintf(text, sizeof text,
             "this database's copy of the durable mark lies below what this server covers: nothing to adopt");
  } else {
    snprintf(text, sizeof text, "this server carries on above this database's copy: %s%s",
             adopt.time_ms != 0
                 ? ("UUIDv7, ULID, typeid and ns_id from " + FormatUtc(static_cast<int64_t>(adopt.time_ms))).c_str()
                 : "",
             adopt.decimal_next != 0 ? (adopt.time_ms != 0 ? ", DecimalId generator ids past the copy's"
                                                           : "DecimalId generator ids past the copy's")
                                     : "");
  }
  return TextDatum(text);
}

// idgen.start_copy(): CREATE EXTENSION's start of this database's copy (engine::StartCopy), once
// the extension's objects exist; an error is the statement's, never swallowed.
IDGEN_FUNCTION(idgen_start_copy) {
  marks::StartCopy(GeneratorState());
  PG_RETURN_VOID();
}

}  // namespace idgen::pg
