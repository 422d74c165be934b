// The simulator (sim.hpp). Model code: what src/pg carries out (origins written, flushed and
// confirmed; sequences of a database's copy; state words; waits) is written here in mark.cpp's
// order; every decision is core/protocol.cpp's.
#include "sim/sim.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <unordered_set>

#include "core/protocol.hpp"

namespace idgen::sim {
bool open_findings = false;

namespace {

using namespace idgen::protocol;

constexpr int kMaxServers = 6;
constexpr int kMaxDatabases = 3;
constexpr int kMaxSessions = 3;
constexpr uint64_t kMaxRegressionMs = 5000;     // idgen.max_clock_regression's default
constexpr uint64_t kMarginMs = 10000;           // idgen.failover_margin's default
constexpr uint32_t kSeqMax = 7;                 // values per millisecond before a layout waits for the next
constexpr uint64_t kOwnerAheadMs = 1000000000;  // how far ahead an owner sets her copy (about 11 days)
constexpr int64_t kSystemIdentifier = 0x5157;   // shared by a server, its standbys and its clones

enum Event : uint8_t {
  kGenerate,
  kCommit,
  kConnect,
  kTick,
  kJumpForward,
  kJumpBack,
  kRestart,
  kReload,
  kRestartAtClock,
  kDumpRestore,
  kOwnerWrite,
  kDropExtension,
  kCreateExtension,
  kUpgrade,
  kClone,
  kStandby,
  kReplicate,
  kPromote,
  kIdentityPerDatabase,
  kSessionIdentity,
  kShardBind,
  kShardRename,
  kShardMove,
  kCreateDatabase,
  kEventCount
};

// The families: time only (UUIDv7), with an identity (Snowflake), Instagram (its shard is its identity).
enum Fam : uint8_t { kT, kI, kInsta, kFamCount };
constexpr Group GroupOfFam(Fam f) { return f == kT ? kTimeOnly : kWithIdentity; }

struct Key {
  uint64_t hi, lo;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.hi * 0x9E3779B97F4A7C15ull ^ k.lo); }
};
using KeySet = std::unordered_set<Key, KeyHash>;
Key MakeKey(Fam f, uint32_t identity, uint64_t ms, uint32_t seq) {
  return Key{uint64_t{f} << 32 | identity, ms << 16 | seq};
}

// Everything a server and what descends from it (its standbys, promoted or not, its upgrade) ever
// returned: never twice, each family's order kept.
struct Lineage {
  KeySet returned;
  std::map<uint64_t, uint64_t> last;  // (family, identity) -> the last value's lo
  uint64_t max_clock = 0;
  bool regressed = false;  // a clock of the lineage went back behind one it had shown
  // A start found its leases further ahead of the clock than a lease and the failover margin:
  // restarts or failovers in quick succession, each start's floor the last one's lease (and
  // margin), a second or more each. Safe, but its own values may wait or refuse until the clock
  // catches up.
  bool floors_stacked = false;
  bool failed_over = false;  // a standby of the lineage was promoted
};

struct Rows {
  KeySet keys;
  std::map<uint64_t, uint64_t> last;  // (family, identity) -> the highest value it holds
  std::unordered_set<uint32_t> identities;  // of the families with one
};

struct Copy {
  bool exists = true;
  int64_t mark = 0, server = 0, mark_identity = 0;
};

struct Shard {
  bool exists = false;
  int shard = 0;
  int name = 0, bound_name = 0;
  std::map<uint64_t, uint64_t> marks;  // writer's run -> its highest mark
  std::shared_ptr<Rows> rows;
  bool foreign = false;  // moved from another lineage, whose clock may run ahead of this one's
  bool moved = false;    // dumped and restored elsewhere: its registry row is another database's
};

struct Database {
  bool exists = false;
  Copy copy;
  std::shared_ptr<Rows> rows;
  bool foreign = false;  // restored from another lineage, or set by its owner: it may refuse
  bool owner_set = false;
  bool identity_setting = false;  // ALTER DATABASE ... SET idgen.node_id
  uint32_t identity = 0;
  Shard schema;
};

struct Durable {
  uint64_t mark_raw = 0, identity_raw = 0, decimal_raw = 0;
  // The highest server lease and identity lease ever written (retired or not): the model's measure
  // of a standby's lag.
  uint64_t written_ms = 0, written_identity_ms = 0;
  Database db[kMaxDatabases];
};

struct Word {
  uint64_t ms = 0;
  uint32_t seq = 0;
};

struct Session {
  bool exists = false;
  int db = 0;
  bool checked = false;  // the copy was read for this database and state
  bool fresh = false;
  uint64_t generation = 0;
  CopyState copy;
  uint32_t ready = 0;
  uint64_t hot_generation = 0;
  uint64_t covered_ms[2] = {0, 0};
  uint32_t snapshot = 0;  // the identity as this session last caught up with a reload
  bool sets_identity = false;
  uint32_t own_identity = 0;
  // What the copy this session last read came from (a restore may replace it before the session's
  // next read): an owner's, or another lineage's.
  bool read_owner_set = false, read_foreign = false;
  // The copy it read was covered for the families with an identity by its writer's identity alone
  // (open finding F).
  bool read_by_identity = false;
};

struct Server {
  bool alive = false;
  bool standby = false, sync = false;
  int primary = -1;
  bool promoted = false;  // this start ended a recovery by promotion (a restart forgets it)
  uint32_t timeline = 1;  // the WAL timeline: each promotion starts a new one
  Durable disk, mem;      // flushed, and as written
  ServerMark mark;
  Self self;
  uint32_t config = 0;       // the identity in its configuration
  bool config_fresh = true;  // one no server had before
  std::vector<uint32_t> past_identities;
  Word words[kFamCount];
  std::map<int, Word> shard_words;
  uint64_t clock = 0;
  std::shared_ptr<Lineage> lineage;
  Session sessions[kMaxSessions];
};

struct Crash {};
struct Refused {};
struct Violation {
  std::string what;
};

class World {
 public:
  explicit World(bool trace) : trace_(trace) {
    servers_[0].config = NewIdentity();
    Start(0, 1'700'000'000'000);
    servers_[0].lineage = std::make_shared<Lineage>();
    for (auto* d : {&servers_[0].disk, &servers_[0].mem}) {
      d->db[0].exists = true;
      d->db[0].rows = std::make_shared<Rows>();
    }
    servers_[0].sessions[0].exists = true;
  }

  void Apply(const Step& step);
  void Crashed(int s);
  int Alive(int pick, bool primary_only) const;
  Outcome outcome;

 private:
  bool trace_;
  Server servers_[kMaxServers];
  uint32_t next_identity_ = 1;
  uint64_t next_run_ = 1;
  int next_name_ = 1;
  int next_shard_ = 1;
  uint32_t next_timeline_ = 2;
  int crash_countdown_ = 0;

  // An identity of the configuration, a part each (node 12 bits, UID20 digit 4, shards 8): the first
  // sixteen differ from each other in every part; later ones share a UID20 digit with an earlier one.
  uint32_t NewIdentity() {
    const uint32_t n = next_identity_++;
    return (n & 0xFFF) << 12 | (n & 0xF) << 8 | (n & 0xFF);
  }
  bool EveryPartNew() const { return next_identity_ <= 16; }

  void Say(const char* format, ...) __attribute__((format(printf, 2, 3))) {
    if (!trace_) return;
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
  }

  // A point between a write, its flush and its publication where a crash may come.
  void Point() {
    if (crash_countdown_ > 0 && --crash_countdown_ == 0) throw Crash{};
  }

  void Start(int s, uint64_t clock) {
    Server& server = servers_[s];
    server.alive = true;
    server.clock = std::max(server.clock, clock);
    server.mark = ServerMark{};
    server.self.run_bits = next_run_++;
    server.self.identity = server.config;
    server.self.system_identifier = kSystemIdentifier;
    server.self.decimal_run = static_cast<int64_t>(server.self.run_bits) | (int64_t{1} << 28);
    server.promoted = false;
    for (Word& w : server.words) w = Word{};
    server.shard_words.clear();
    for (Session& session : server.sessions) session = Session{};
    server.mem = server.disk;
  }

  void CrashedImpl(int s) {
    Server& server = servers_[s];
    Say("  -> server %d crashes: what was written and not flushed is lost\n", s);
    // (the database rows are kept: a value returned was committed, conservatively)
    for (int d = 0; d < kMaxDatabases; ++d) {
      if (server.mem.db[d].exists && server.disk.db[d].exists) {
        server.disk.db[d].rows = server.mem.db[d].rows;
        server.disk.db[d].schema.rows = server.mem.db[d].schema.rows;
        for (auto& [run, mark] : server.mem.db[d].schema.marks) {
          server.disk.db[d].schema.marks[run] = std::max(server.disk.db[d].schema.marks[run], mark);
        }
      }
    }
    Start(s, server.clock);
  }

  // FlushAndConfirm: the written state becomes durable and reaches the synchronous standbys.
  void Flush(int s) {
    Server& server = servers_[s];
    server.disk = server.mem;
    for (int t = 0; t < kMaxServers; ++t) {
      Server& standby = servers_[t];
      if (standby.alive && standby.standby && standby.sync && standby.primary == s) {
        standby.disk = server.disk;
        standby.mem = server.disk;
      }
    }
  }

  void SeeClock(Server& server) {
    Lineage& lineage = *server.lineage;
    if (server.clock < lineage.max_clock) lineage.regressed = true;
    lineage.max_clock = std::max(lineage.max_clock, server.clock);
  }

  uint64_t WorldMaxClock() const {
    uint64_t m = 0;
    for (const Server& server : servers_) m = std::max(m, server.clock);
    return m;
  }

  // A wait or refusal the server made itself: bounded unless a clock went back or the database holds
  // another's copy.
  void CheckSelfCaused(Server& server, const Database& db, bool refused, uint64_t until_ms, const char* why,
                       const Session* session = nullptr) {
    const bool owner_set = db.owner_set || (session != nullptr && session->read_owner_set);
    const bool foreign = db.foreign || (session != nullptr && session->read_foreign);
    if (until_ms >= WorldMaxClock() + kOwnerAheadMs / 2 && !owner_set) {
      throw Violation{std::string("an owner's write moved another database: ") + why};
    }
    if (server.lineage->regressed || server.lineage->floors_stacked || foreign) return;
    if (refused) throw Violation{std::string("a refusal the server caused itself: ") + why};
    if (until_ms > server.clock + 2 * kLeaseMs + kMarginMs + 2) {
      throw Violation{std::string("a wait the server caused itself beyond the lease and margin: ") + why};
    }
  }

  void LoadServerMark(int s) {
    Server& server = servers_[s];
    const Load load = DecideLoad(server.mem.mark_raw, server.mem.identity_raw, server.mem.decimal_raw, server.config,
                                 server.promoted, server.timeline, kMarginMs);
    Raise(server, kTimeOnly, load.floor_ms);
    Raise(server, kWithIdentity, load.identity_floor_ms);
    ApplyLoad(server.mark, load, server.mem.mark_raw, server.mem.identity_raw);
    if (load.retire_identity) {
      server.mem.identity_raw = 0;
      Point();
      Flush(s);
      Point();
    }
    if (load.floor_ms > server.clock + 2 * kLeaseMs + kMarginMs) {
      server.lineage->floors_stacked = true;
    }
    if (load.renew) {
      const uint64_t generation = server.mark.generation;
      RenewLeases(s, load.floor_ms, load.renew_identity_ms, generation);
    }
    if (load.write_decimal) {
      FinishLoad(server.mark, load);
      server.mem.decimal_raw = std::max(server.mem.decimal_raw, DecimalOriginValue(server.mark, server.mark.decimal_id_next));
      Point();
      Flush(s);
      Point();
    }
  }

  void Raise(Server& server, Group group, uint64_t floor_ms) {
    auto raise = [&](Word& w) {
      if (w.ms < floor_ms) w = Word{floor_ms, 0};
    };
    if (group == kTimeOnly) {
      raise(server.words[kT]);
    } else {
      raise(server.words[kI]);
      for (auto& [shard, w] : server.shard_words) raise(w);
      raise(server.words[kInsta]);  // (the floor of shards not yet used)
    }
  }

  bool RenewLeases(int s, uint64_t lease_ms, uint64_t identity_ms, uint64_t generation) {
    Server& server = servers_[s];
    if (!RenewalStillValid(server.mark, generation)) return false;
    server.mem.written_ms = std::max(server.mem.written_ms, lease_ms);
    server.mem.written_identity_ms = std::max(server.mem.written_identity_ms, identity_ms);
    if (lease_ms != 0) {
      server.mem.mark_raw = std::max(server.mem.mark_raw, Pack(lease_ms, server.config));
      Point();
    }
    if (identity_ms != 0) {
      server.mem.identity_raw = std::max(server.mem.identity_raw, Pack(identity_ms, server.config));
      Point();
    }
    Flush(s);
    Point();
    PublishRenewal(server.mark, lease_ms, identity_ms, server.config);
    return true;
  }

  void DropIdentityLease(int s) {
    Server& server = servers_[s];
    if (!MustDropIdentityLease(server.mark, server.config)) return;
    const DropIdentity drop = BeginDropIdentityLease(server.mark);
    Raise(server, kWithIdentity, drop.raise_identity_words_to_ms);
    if (drop.retire_on_disk) {
      server.mem.identity_raw = 0;
      Point();
      Flush(s);
      Point();
    }
    FinishDropIdentityLease(server.mark);
  }

  CopyRead ReadCopyOf(const Database& db) {
    CopyRead read;
    read.has_mark = read.has_server = read.has_identity = db.copy.exists;
    read.mark = db.copy.mark;
    read.server = db.copy.server;
    read.mark_identity = db.copy.mark_identity;
    return read;
  }

  uint32_t IdentityOfSession(const Server& server, const Session& session) {
    const Database& db = server.mem.db[session.db];
    return SessionIdentity(session.snapshot, db.identity_setting, db.identity, session.sets_identity,
                           session.own_identity);
  }

  // An error ends the transaction: the session reads its copy again in the next one.
  static void Aborted(Session& session) {
    session.fresh = false;
    session.ready = 0;
  }

  void Wait(Server& server, uint64_t until_ms) {
    if (until_ms > server.clock) server.clock = until_ms;
  }

  // Prepare (mark.cpp), then the value, then CoverValue / Cover.
  void Generate(int s, int k, Fam fam, bool commit) {
    Server& server = servers_[s];
    Session& session = server.sessions[k];
    Database& db = server.mem.db[session.db];
    if (!db.exists) return;
    if (fam == kInsta && (!db.schema.exists)) fam = kI;
    const Group group = GroupOfFam(fam);
    const bool recovery = server.standby;
    if (!MayGenerate(recovery, true)) {
      Say("  -> refused: recovery\n");
      return;
    }
    SeeClock(server);
    session.snapshot = server.config;  // CatchUpWithReload
    if (recovery) {
      if (fam == kInsta) fam = kI;
      // (the marks do not apply during recovery: Prepare returns false)
      Word& w = server.words[fam];
      const uint64_t ms = Next(server, w, fam, db, 0);
      Returned(s, session, fam, fam == kT ? 0 : IdentityOfSession(server, session), ms, w.seq);
      return;
    }
    for (int attempt = 0; attempt < 4; ++attempt) {
      uint32_t identity = IdentityOfSession(server, session);
      const bool ready =
          (session.ready & (1u << fam)) != 0 && (group == kTimeOnly || server.mark.identity_lease_end_ms == kNoLease);
      if (!ready) {
        if (MustReadCopy(session.checked, session.copy.has_copy, session.fresh, session.generation,
                         server.mark.generation)) {
          if (!server.mark.loaded) LoadServerMark(s);
          session.copy = DecideCopy(server.mark, server.self, ReadCopyOf(db));
          session.read_owner_set = db.owner_set;
          session.read_foreign = db.foreign;
          {
            const auto tag = static_cast<uint64_t>(db.copy.server);
            const bool ours = (tag & kTagged) != 0 && (tag >> kIdentityBits & kRunMask) == server.self.run_bits;
            session.read_by_identity =
                (tag & kTagged) != 0 && !ours &&
                EveryPartDiffers(static_cast<uint32_t>(tag & kIdentityMask), server.self.identity) &&
                static_cast<uint64_t>(db.copy.mark_identity) > server.mark.identity_floor_ms;
          }
          Say("  -> reads its database's copy: %s%lld, by run %llu (waits for %llu / %llu)\n",
              db.copy.exists ? "" : "none, ", static_cast<long long>(db.copy.mark),
              static_cast<unsigned long long>(static_cast<uint64_t>(db.copy.server) >> kIdentityBits & kRunMask),
              static_cast<unsigned long long>(session.copy.wait_ms[0]),
              static_cast<unsigned long long>(session.copy.wait_ms[1]));
          session.checked = session.fresh = true;
          session.generation = server.mark.generation;
          session.ready = 0;
          session.covered_ms[0] = session.covered_ms[1] = 0;
        }
        if (RefuseWithoutCopy(session.copy.has_copy, fam == kT)) {
          Say("  -> refused: the database has no copy of the mark\n");
          Aborted(session);
          return;
        }
        const protocol::Wait wait = DecideWait(session.copy.wait_ms[group], server.clock, kMaxRegressionMs);
        if (wait.kind == protocol::Wait::kRefuse) {
          Say("  -> refused: the database's copy lies %llu ms ahead\n", static_cast<unsigned long long>(wait.gap_ms));
          ++outcome.refusals;
          Aborted(session);
          CheckSelfCaused(server, db, true, wait.until_ms, "the database's copy", &session);
          return;
        }
        if (wait.kind == protocol::Wait::kWait) {
          CheckSelfCaused(server, db, false, wait.until_ms, "the database's copy", &session);
          Wait(server, wait.until_ms);
        }
        const uint64_t raise = RaiseAfterCopyWait(wait, session.copy.wait_ms[group]);
        if (raise != 0) Raise(server, group, raise);
        session.copy.wait_ms[group] = 0;
        if (group == kWithIdentity && MustDropIdentityLease(server.mark, identity)) DropIdentityLease(s);
        session.hot_generation = session.generation;
        if (session.copy.has_copy) session.ready |= 1u << fam;
      }
      // The shard's marks, which travel with its schema.
      uint64_t not_before = 0;
      if (fam == kInsta) {
        Shard& schema = db.schema;
        ShardRow row;
        row.found = true;
        row.own = !schema.moved;  // (a schema moved elsewhere is found there by its name)
        row.oid_exists = !schema.moved;
        row.named_exists = row.named_has_marks = schema.name == schema.bound_name;
        const ShardHolder holder = DecideShardHolder(row);
        if (holder == ShardHolder::kUnknown) {
          Say("  -> refused: the shard's schema is not found\n");
          ++outcome.refusals;
          Aborted(session);
          return;
        }
        if (holder != ShardHolder::kNone) {
          uint64_t other = 0;
          for (auto& [run, mark] : schema.marks) {
            if (run != server.self.run_bits) other = std::max(other, mark);
          }
          const protocol::Wait wait = DecideShardWait(other, server.clock, kMaxRegressionMs, kLeaseMs);
          if (wait.kind == protocol::Wait::kRefuse) {
            ++outcome.refusals;
            Aborted(session);
            // (a promoted server restarted within its failover margin refuses its bound shards until
            // its clock is there: documented, not counted)
            if (!schema.foreign && !server.lineage->failed_over) {
              CheckSelfCaused(server, db, true, wait.until_ms, "a shard's marks");
            }
            return;
          }
          if (wait.kind == protocol::Wait::kWait) Wait(server, wait.until_ms);
          not_before = other;
        }
        // (the shards are part of the identity: a new identity comes with new shards)
        identity = static_cast<uint32_t>(schema.shard & 0xFF) << 24 | identity;
      }
      Word& w = fam == kInsta ? ShardWord(server, db.schema.shard) : server.words[fam];
      const uint64_t ms = Next(server, w, fam, db, not_before);
      if (ms == ~uint64_t{0}) {
        Aborted(session);
        return;
      }
      const uint32_t seq = w.seq;
      // CoverValue
      const bool covered = ms < session.covered_ms[group] && server.mark.generation == session.hot_generation;
      if (!covered) {
        const uint32_t before = IdentityOfSession(server, session);
        session.snapshot = server.config;  // CatchUpWithReload
        const bool changed = IdentityOfSession(server, session) != before;
        const CoverDecision d = DecideCover(server.mark, group, session.hot_generation, changed,
                                            IdentityOfSession(server, session), session.copy, ms, server.clock);
        if (d.beyond_max) {
          Aborted(session);
          return;
        }
        bool retake = d.retake;
        if (!retake && (d.renew_lease_ms != 0 || d.renew_identity_ms != 0)) {
          retake = !RenewLeases(s, d.renew_lease_ms, d.renew_identity_ms, session.hot_generation);
        }
        if (retake) {
          session.ready = 0;
          session.covered_ms[0] = session.covered_ms[1] = 0;
          Say("  -> the value is taken again\n");
          continue;
        }
        if (d.write_copy) {
          const CopyWrite write = DecideCopyWrite(server.mark, server.self, session.copy, server.clock);
          if (!db.copy.exists) return;  // (RaiseMissing)
          for (const Group g : {kTimeOnly, kWithIdentity}) {
            if (write.raise_ms[g] != 0) Raise(server, g, write.raise_ms[g]);
          }
          db.copy.mark = std::max(db.copy.mark, write.mark);
          if (write.write_identity) {
            db.copy.mark_identity =
                write.identity_exact ? write.mark_identity : std::max(db.copy.mark_identity, write.mark_identity);
          }
          if (write.write_tag) db.copy.server = write.tag;
          Point();
          Flush(s);
          Point();
          AfterCopyWrite(session.copy, write);
        }
        session.covered_ms[kTimeOnly] = CoveredMs(server.mark, session.copy, kTimeOnly, IdentityOfSession(server, session));
        session.covered_ms[kWithIdentity] =
            CoveredMs(server.mark, session.copy, kWithIdentity, IdentityOfSession(server, session));
      }
      if (fam == kInsta) {
        // Its row: a mark a second past the value, under this run, committed with it.
        uint64_t& mark = db.schema.marks[server.self.run_bits];
        mark = std::max(mark, ms + kLeaseMs);
        // (durable with its row, which this model keeps at once)
        Shard& durable = server.disk.db[session.db].schema;
        if (durable.exists && durable.rows == db.schema.rows) {
          durable.marks[server.self.run_bits] = std::max(durable.marks[server.self.run_bits], mark);
        }
      }
      Returned(s, session, fam, fam == kT ? 0 : identity, ms, seq);
      if (commit) {
        session.fresh = false;
        session.ready = 0;
      }
      return;
    }
  }

  Word& ShardWord(Server& server, int shard) {
    auto it = server.shard_words.find(shard);
    if (it == server.shard_words.end()) it = server.shard_words.emplace(shard, server.words[kInsta]).first;
    return it->second;
  }

  // The state word's next value: the clock, or the word's next sequence; a layout whose sequence is
  // spent waits for the next millisecond; far behind the word, beyond the limit, it refuses.
  uint64_t Next(Server& server, Word& w, Fam fam, const Database& db, uint64_t not_before) {
    const uint64_t now = std::max(server.clock, not_before);
    if (now > w.ms) {
      w = Word{now, 0};
      return w.ms;
    }
    if (fam != kT && w.ms > server.clock + kMaxRegressionMs + kLeaseMs + kMarginMs) {
      ++outcome.refusals;
      Say("  -> refused: the clock is behind the state word\n");
      CheckSelfCaused(server, db, true, w.ms, "the clock behind the state word");
      return ~uint64_t{0};
    }
    if (w.seq < kSeqMax) {
      ++w.seq;
    } else {
      w = Word{w.ms + 1, 0};
      if (fam != kT) {
        if (w.ms > server.clock) CheckSelfCaused(server, db, false, w.ms, "a spent sequence");
        Wait(server, w.ms);
      }
    }
    return w.ms;
  }

  void Returned(int s, Session& session, Fam fam, uint32_t identity, uint64_t ms, uint32_t seq) {
    Server& server = servers_[s];
    Database& db = server.mem.db[session.db];
    const Key key = MakeKey(fam, identity, ms, seq);
    ++outcome.values;
    Say("  -> %s value (identity %u, %llu ms, seq %u)\n",
        fam == kT   ? "uuidv7"
        : fam == kI ? "snowflake"
                    : "instagram",
        identity, static_cast<unsigned long long>(ms), seq);
    Lineage& lineage = *server.lineage;
    char text[200];
    if (!lineage.returned.insert(key).second) {
      snprintf(text, sizeof text,
               "a value returned twice by one server's lineage (family %d, identity %u, %llu ms, seq %u)", fam,
               identity, static_cast<unsigned long long>(ms), seq);
      throw Violation{text};
    }
    const uint64_t order_key = uint64_t{fam} << 32 | identity;
    auto [it, fresh] = lineage.last.emplace(order_key, key.lo);
    if (!fresh) {
      if (key.lo <= it->second) {
        snprintf(text, sizeof text, "a family's order broken on a server (family %d, identity %u)", fam, identity);
        throw Violation{text};
      }
      it->second = key.lo;
    }
    // (UUIDv7 is unique across servers by its random bits: only its order on a server is checked)
    Rows& rows = fam == kInsta ? *db.schema.rows : *db.rows;
    // (open finding F, excluded unless SIM_OPEN_FINDINGS: the copy's tag names the identity of its
    // last writer only, which may not be the identity of the values it holds (a UUIDv7 value wrote it
    // after a reload, or it holds values of two identities), and a server that has the identity of
    // those values takes the copy as another identity's, covered, and may repeat them)
    if (fam != kT) rows.identities.insert(identity & 0xFFFFFF);
    const auto tag = static_cast<uint64_t>(db.copy.server);
    const bool tag_elsewhere =
        (tag & kTagged) != 0 && rows.identities.count(static_cast<uint32_t>(tag & kIdentityMask)) == 0;
    const bool mixed =
        fam != kT && (rows.identities.size() > 1 || tag_elsewhere || session.read_by_identity) && !open_findings;
    if (fam != kT && !rows.keys.insert(key).second && !mixed) {
      snprintf(text, sizeof text, "a database holds a value twice (family %d, identity %u, %llu ms, seq %u)", fam,
               identity, static_cast<unsigned long long>(ms), seq);
      throw Violation{text};
    }
    // A database's new values lie above those it holds (restored, upgraded, made before a DROP and
    // CREATE EXTENSION), under one identity: what its copy of the mark promises. (A database whose
    // owner set her copy by hand is hers to answer for.)
    // (a value made while the database had no copy carries no promise)
    if (!db.copy.exists) return;
    auto [held, first] = rows.last.emplace(order_key, key.lo);
    if (!first) {
      if (key.lo <= held->second && !db.owner_set && !mixed) {
        snprintf(text, sizeof text,
                 "a database's new value lies at or below one it holds (family %d, identity %u, %llu ms, seq %u)", fam,
                 identity, static_cast<unsigned long long>(ms), seq);
        throw Violation{text};
      }
      held->second = std::max(held->second, key.lo);
    }
  }

  void RestartAtClock(int s) {
    Server& server = servers_[s];
    if (server.standby) return;
    SeeClock(server);
    if (!server.mark.loaded) LoadServerMark(s);
    RestartInput in;
    for (const Database& db : server.mem.db) in.identity_set_per_database_or_role |= db.exists && db.identity_setting;
    in.mark_raw = server.mem.mark_raw;
    in.identity_raw = server.mem.identity_raw;
    in.identity = server.config;
    in.now_ms = server.clock;
    const Restart restart = DecideRestart(server.mark, in);
    Say("  -> %s\n", restart.kind == Restart::kMove ? "moved back to the clock" : "refused or nothing to do");
    if (restart.kind != Restart::kMove) return;
    BeginRestart(server.mark, server.config);
    server.words[kI] = Word{restart.floor_ms, 0};
    server.words[kInsta] = Word{restart.floor_ms, 0};
    for (auto& [shard, w] : server.shard_words) w = Word{restart.floor_ms, 0};
    server.mem.identity_raw = Pack(restart.lease_ms, server.config);
    server.mem.written_identity_ms = std::max(server.mem.written_identity_ms, restart.lease_ms);
    Point();
    Flush(s);
    Point();
    FinishRestart(server.mark, restart);
  }

  int AliveImpl(int pick, bool primary_only) const {
    for (int i = 0; i < kMaxServers; ++i) {
      const int s = (pick + i) % kMaxServers;
      if (servers_[s].alive && (!primary_only || !servers_[s].standby)) return s;
    }
    return -1;
  }
  int FreeServer() const {
    for (int s = 0; s < kMaxServers; ++s) {
      if (!servers_[s].alive) return s;
    }
    return -1;
  }
  int ExistingDb(const Server& server, uint32_t pick) const {
    for (int i = 0; i < kMaxDatabases; ++i) {
      const int d = static_cast<int>((pick % kMaxDatabases + static_cast<uint32_t>(i)) % kMaxDatabases);
      if (server.mem.db[d].exists) return d;
    }
    return -1;
  }

  void Invalidate(Server& server, int d) {
    for (Session& session : server.sessions) {
      if (session.exists && session.db == d) {
        session.fresh = false;
        session.ready = 0;
      }
    }
  }

  Database CloneDb(const Database& db) {
    Database copy = db;
    copy.rows = std::make_shared<Rows>(*db.rows);
    if (db.schema.exists) copy.schema.rows = std::make_shared<Rows>(*db.schema.rows);
    return copy;
  }

  // A new server from another's flushed state: a clone (its own lineage), an upgrade (the same).
  void NewServerFrom(int t, int s, bool same_lineage, uint64_t clock) {
    Server& from = servers_[s];
    Server& server = servers_[t];
    server = Server{};
    server.config = from.config;
    // (the identity is its origin's too: restart_at_clock() needs one that no server has used)
    server.config_fresh = false;
    server.past_identities = from.past_identities;
    server.timeline = from.timeline;
    server.disk = from.disk;
    for (Database& db : server.disk.db) {
      if (db.exists) db = CloneDb(db);
    }
    server.lineage = same_lineage ? from.lineage : std::make_shared<Lineage>(*from.lineage);
    Start(t, clock);
    server.sessions[0].exists = true;
    server.sessions[0].db = std::max(0, ExistingDb(server, 0));
  }
};

void World::Crashed(int s) { CrashedImpl(s); }
int World::Alive(int pick, bool primary_only) const { return AliveImpl(pick, primary_only); }

void World::Apply(const Step& step) {
  const Event kind = static_cast<Event>(step.kind % kEventCount);
  const int s = Alive(step.a % kMaxServers, false);
  if (s < 0) return;
  Server& server = servers_[s];
  crash_countdown_ = step.c % 8 == 7 ? 1 + step.c / 8 % 6 : 0;
  switch (kind) {
    case kGenerate: {
      int k = step.b % kMaxSessions;
      for (int i = 0; i < kMaxSessions && !server.sessions[k].exists; ++i) k = (k + 1) % kMaxSessions;
      if (!server.sessions[k].exists) return;
      const Fam fam = static_cast<Fam>(step.x % kFamCount);
      Say("server %d, session %d (database %d): SELECT a %s value%s\n", s, k, server.sessions[k].db,
          fam == kT   ? "uuidv7"
          : fam == kI ? "snowflake"
                      : "instagram",
          step.x & 8 ? " (in an open transaction)" : "");
      Generate(s, k, fam, (step.x & 8) == 0);
      break;
    }
    case kCommit: {
      Session& session = server.sessions[step.b % kMaxSessions];
      session.fresh = false;
      session.ready = 0;
      Say("server %d, session %d: COMMIT\n", s, step.b % kMaxSessions);
      break;
    }
    case kConnect: {
      const int d = ExistingDb(server, step.c);
      if (d < 0) return;
      Session& session = server.sessions[step.b % kMaxSessions];
      session = Session{};
      session.exists = true;
      session.db = d;
      Say("server %d: session %d connects to database %d\n", s, step.b % kMaxSessions, d);
      break;
    }
    case kTick:
      server.clock += 1 + step.x % 40;
      SeeClock(server);
      Say("server %d: the clock moves on to %llu\n", s, static_cast<unsigned long long>(server.clock));
      break;
    case kJumpForward:
      server.clock += 1000 + step.x % 600000;
      SeeClock(server);
      Say("server %d: the clock jumps ahead to %llu\n", s, static_cast<unsigned long long>(server.clock));
      break;
    case kJumpBack: {
      const uint64_t back = 1000 + step.x % 600000;
      server.clock -= std::min(back, server.clock);
      Say("server %d: the clock jumps back to %llu\n", s, static_cast<unsigned long long>(server.clock));
      server.lineage->regressed |= server.clock < server.lineage->max_clock;
      break;
    }
    case kRestart:
      Say("server %d: restarts (immediate shutdown)\n", s);
      Crashed(s);
      break;
    case kReload: {
      server.past_identities.push_back(server.config);
      if (step.b % 2 == 0 || server.past_identities.size() < 2) {
        server.config = NewIdentity();
        server.config_fresh = EveryPartNew();
      } else {
        server.config = server.past_identities[step.c % server.past_identities.size()];
        server.config_fresh = false;
      }
      for (int t = 0; t < kMaxServers; ++t) {  // (its standbys have its configuration)
        if (servers_[t].alive && servers_[t].standby && servers_[t].primary == s) {
          servers_[t].config = servers_[t].self.identity = server.config;
        }
      }
      server.self.identity = server.config;
      if (ReloadDropsCovered()) {
        for (Session& session : server.sessions) {
          session.ready = 0;
          session.covered_ms[0] = session.covered_ms[1] = 0;
        }
      }
      Say("server %d: ALTER SYSTEM SET idgen.node_id = %u; SELECT pg_reload_conf()\n", s, server.config);
      break;
    }
    case kRestartAtClock:
      // (its documented precondition: an identity that no server has used)
      if (!server.config_fresh) return;
      Say("server %d: SELECT idgen.restart_at_clock()\n", s);
      RestartAtClock(s);
      break;
    case kDumpRestore: {
      const int d = ExistingDb(server, step.b);
      const int t = Alive(step.c % kMaxServers, true);
      // (an asynchronous standby shares its primary's rows in this model, not only those it
      // replayed: a dump of it would hold rows without the copy that the WAL put before them)
      if (d < 0 || t < 0 || (server.standby && !server.sync)) return;
      Server& target = servers_[t];
      int into = step.x % kMaxDatabases;
      const bool existed = target.mem.db[into].exists;
      Database copy = CloneDb(server.mem.db[d]);
      // (a dump without idgen's copy of the mark carries no promise about its rows)
      if (!copy.copy.exists) {
        copy.rows->last.clear();
        copy.rows->keys.clear();
      }
      copy.foreign = server.mem.db[d].foreign || server.lineage != target.lineage;
      copy.identity_setting = false;
      target.mem.db[into] = copy;
      target.disk.db[into] = copy;
      // (the restore's DROP or INSERT waits for the transactions open on the tables: the sessions'
      // next statements are new transactions, which read the restored copy)
      for (Session& session : target.sessions) {
        if (session.exists && session.db == into) Aborted(session);
      }
      // (a restore sends no invalidation: a session connected to the database reads the copy again in
      // its next transaction)
      Say("pg_dump database %d of server %d%s | pg_restore%s into database %d of server %d\n", d, s, copy.copy.exists ? "" : " (no copy)",
          existed ? " --clean" : "", into, t);
      break;
    }
    case kOwnerWrite: {
      const int d = ExistingDb(server, step.b);
      if (d < 0 || server.standby) return;
      Database& db = server.mem.db[d];
      if (!db.copy.exists) return;
      db.copy.mark = static_cast<int64_t>(server.clock + kOwnerAheadMs);
      db.copy.mark_identity = db.copy.mark;
      db.copy.server = static_cast<int64_t>(step.x) * 7919;
      db.owner_set = db.foreign = true;
      Flush(s);
      Say("server %d, database %d: its owner runs SELECT setval('idgen.mark', ...) far ahead\n", s, d);
      break;
    }
    case kDropExtension: {
      const int d = ExistingDb(server, step.b);
      if (d < 0 || server.standby) return;
      Database& db = server.mem.db[d];
      if (!db.copy.exists) return;
      if (!server.mark.loaded) LoadServerMark(s);
      DropInput in;
      in.read = ReadCopyOf(db);
      in.now_ms = server.clock;
      in.mark_raw = server.mem.mark_raw;
      in.identity_raw = server.mem.identity_raw;
      if (!DropKeepsNothing(server.mark, server.self, in)) {
        Say("server %d, database %d: DROP EXTENSION idgen -> refused\n", s, d);
        return;
      }
      const DropAdopt adopt = DecideDropAdopt(server.mark, server.self, in);
      for (const Group g : {kTimeOnly, kWithIdentity}) {
        if (adopt.raise_ms[g] != 0) Raise(server, g, adopt.raise_ms[g]);
      }
      if (adopt.lease_ms != 0 || adopt.identity_lease_ms != 0) {
        RenewLeases(s, adopt.lease_ms, adopt.identity_lease_ms, server.mark.generation);
      }
      db.copy = Copy{};
      db.copy.exists = false;
      Flush(s);
      Invalidate(server, d);
      Say("server %d, database %d: DROP EXTENSION idgen\n", s, d);
      break;
    }
    case kCreateExtension: {
      const int d = ExistingDb(server, step.b);
      if (d < 0 || server.standby) return;
      Database& db = server.mem.db[d];
      if (db.copy.exists) return;
      // (the server's marks first: a crash there leaves no extension, whose creation is transactional)
      if (!server.mark.loaded) LoadServerMark(s);
      db.copy = Copy{};
      db.owner_set = false;
      const CopyWrite write = DecideCopyAtCreate(server.mark, server.self);
      db.copy.mark = write.mark;
      db.copy.mark_identity = write.mark_identity;
      db.copy.server = write.tag;
      Flush(s);
      Invalidate(server, d);
      Say("server %d, database %d: CREATE EXTENSION idgen\n", s, d);
      break;
    }
    case kUpgrade: {
      if (server.standby) return;
      Say("server %d: pg_upgrade (the origins stay behind; the databases' copies go)\n", s);
      for (int t = 0; t < kMaxServers; ++t) {
        if (servers_[t].alive && servers_[t].standby && servers_[t].primary == s) servers_[t].alive = false;
      }
      Server old = server;
      old.disk = old.mem;  // a clean shutdown flushes
      const uint32_t config = old.config;
      server = Server{};
      server.config = config;
      server.config_fresh = old.config_fresh;
      server.past_identities = old.past_identities;
      server.lineage = old.lineage;
      for (int d = 0; d < kMaxDatabases; ++d) server.disk.db[d] = old.disk.db[d];
      // (open finding A, excluded unless SIM_OPEN_FINDINGS: pg_upgrade leaves the origins behind, and
      // a database without a copy of the old cluster's IDs can repeat them with the clock behind)
      if (!open_findings) {
        server.disk.mark_raw = old.disk.mark_raw;
        server.disk.identity_raw = old.disk.identity_raw;
        server.disk.decimal_raw = old.disk.decimal_raw;
        server.timeline = old.timeline;
      }
      Start(s, old.clock);
      server.sessions[0].exists = true;
      server.sessions[0].db = std::max(0, ExistingDb(server, 0));
      break;
    }
    case kClone: {
      const int t = FreeServer();
      if (t < 0 || server.standby) return;
      Say("pg_basebackup of server %d started as server %d (a clone: its own run, the same configuration)\n", s, t);
      NewServerFrom(t, s, false, server.clock);
      if (server.standby) servers_[t].standby = false;
      break;
    }
    case kStandby: {
      const int t = FreeServer();
      if (t < 0 || server.standby) return;
      Say("server %d: a %s standby of server %d (pg_basebackup -R)\n", t, step.b % 2 ? "synchronous" : "asynchronous",
          s);
      NewServerFrom(t, s, true, server.clock);
      Server& standby = servers_[t];
      for (Database& db : standby.disk.db) db = Database{};
      for (int d = 0; d < kMaxDatabases; ++d) standby.disk.db[d] = server.disk.db[d];
      standby.mem = standby.disk;
      standby.standby = true;
      standby.sync = step.b % 2 == 1;
      standby.primary = s;
      break;
    }
    case kReplicate: {
      if (!server.standby || server.sync) return;
      Server& primary = servers_[server.primary];
      if (!primary.alive) return;
      server.disk = primary.disk;
      server.mem = server.disk;
      Say("server %d: the asynchronous standby replays what server %d flushed\n", s, server.primary);
      break;
    }
    case kPromote: {
      if (!server.standby) return;
      Server& primary = servers_[server.primary];
      if (primary.alive) {
        // An asynchronous standby misses at most the margin of its primary's leases (the documented bound).
        if (!server.sync && (primary.disk.written_ms > server.disk.written_ms + kMarginMs / 2 ||
                             primary.disk.written_identity_ms > server.disk.written_identity_ms + kMarginMs / 2)) {
          server.disk = primary.disk;
        }
        primary.alive = false;  // the failover: the old primary is gone
        for (int t = 0; t < kMaxServers; ++t) {
          if (servers_[t].alive && servers_[t].standby && servers_[t].primary == server.primary && t != s) {
            servers_[t].primary = s;
          }
        }
      }
      server.mem = server.disk;
      // (rows: the primary's databases, which the standby shares, with what it replayed of the rest)
      for (int d = 0; d < kMaxDatabases; ++d) {
        if (server.mem.db[d].exists && primary.mem.db[d].exists && primary.mem.db[d].rows == server.mem.db[d].rows) {
          server.mem.db[d].schema = primary.mem.db[d].schema;
          server.disk.db[d].schema = primary.mem.db[d].schema;
        }
      }
      // (an asynchronous standby shares its primary's rows in this model, not only those it replayed:
      // the promise of its databases' order starts again from what it holds)
      if (!server.sync) {
        for (Database& db : server.mem.db) {
          if (db.exists && db.rows) {
            db.rows = std::make_shared<Rows>(*db.rows);
            db.rows->last.clear();
          }
        }
        for (int d = 0; d < kMaxDatabases; ++d) server.disk.db[d].rows = server.mem.db[d].rows;
      }
      server.standby = false;
      server.promoted = true;
      server.lineage->failed_over = true;
      server.timeline = next_timeline_++;
      server.mark = ServerMark{};
      for (Session& session : server.sessions) session = Session{};
      server.sessions[0].exists = true;
      server.sessions[0].db = std::max(0, ExistingDb(server, 0));
      SeeClock(server);
      Say("server %d: pg_ctl promote (server %d is gone)\n", s, server.primary);
      break;
    }
    case kIdentityPerDatabase: {
      const int d = ExistingDb(server, step.b);
      if (d < 0 || server.standby) return;
      Database& db = server.mem.db[d];
      db.identity_setting = step.x % 3 != 0;
      db.identity = server.past_identities.empty() ? NewIdentity()
                                                   : server.past_identities[step.c % server.past_identities.size()];
      Flush(s);
      Say("server %d: ALTER DATABASE %d %s idgen.node_id%s\n", s, d, db.identity_setting ? "SET" : "RESET",
          db.identity_setting ? " (an identity the server had)" : "");
      break;
    }
    case kSessionIdentity: {
      Session& session = server.sessions[step.b % kMaxSessions];
      if (!session.exists) return;
      session.sets_identity = true;
      session.own_identity = server.past_identities.empty()
                                 ? server.config
                                 : server.past_identities[step.c % server.past_identities.size()];
      Say("server %d, session %d: SET idgen.node_id = %u\n", s, step.b % kMaxSessions, session.own_identity);
      break;
    }
    case kShardBind: {
      const int d = ExistingDb(server, step.b);
      if (d < 0 || server.standby) return;
      Database& db = server.mem.db[d];
      if (db.schema.exists) return;
      db.schema.exists = true;
      db.schema.shard = next_shard_++;
      db.schema.name = db.schema.bound_name = next_name_++;
      db.schema.rows = std::make_shared<Rows>();
      Flush(s);
      Say("server %d, database %d: SELECT idgen.bind_instagram_shard('s%d', %d)\n", s, d, db.schema.name,
          db.schema.shard);
      break;
    }
    case kShardRename: {
      const int d = ExistingDb(server, step.b);
      if (d < 0 || server.standby || !server.mem.db[d].schema.exists) return;
      server.mem.db[d].schema.name = next_name_++;
      Flush(s);
      Say("server %d, database %d: ALTER SCHEMA RENAME TO s%d\n", s, d, server.mem.db[d].schema.name);
      break;
    }
    case kShardMove: {
      const int d = ExistingDb(server, step.b);
      const int t = Alive(step.c % kMaxServers, true);
      if (d < 0 || t < 0 || t == s || server.standby || !server.mem.db[d].schema.exists) return;
      const int into = ExistingDb(servers_[t], step.x);
      if (into < 0 || servers_[t].mem.db[into].schema.exists) return;
      Shard moved = server.mem.db[d].schema;
      moved.rows = std::make_shared<Rows>(*moved.rows);
      moved.foreign |= servers_[t].lineage != server.lineage;
      moved.moved = true;
      servers_[t].mem.db[into].schema = moved;
      servers_[t].disk.db[into].schema = moved;
      server.mem.db[d].schema = Shard{};
      Flush(s);
      Say("pg_dump -n the shard's schema of server %d, database %d | psql into server %d, database %d; DROP SCHEMA "
          "on server %d\n",
          s, d, t, into, s);
      break;
    }
    case kCreateDatabase: {
      if (server.standby) return;
      for (int d = 0; d < kMaxDatabases; ++d) {
        if (!server.mem.db[d].exists) {
          server.mem.db[d] = Database{};
          server.mem.db[d].exists = true;
          server.mem.db[d].rows = std::make_shared<Rows>();
          Flush(s);
          Say("server %d: CREATE DATABASE %d; CREATE EXTENSION idgen there\n", s, d);
          return;
        }
      }
      break;
    }
    case kEventCount:
      break;
  }
  // Nothing an owner writes moves the server's marks.
  if (server.alive && server.mark.lease_end_ms != kNoLease &&
      server.mark.lease_end_ms >= WorldMaxClock() + kOwnerAheadMs / 2) {
    throw Violation{"an owner's write moved the server's lease"};
  }
}

}  // namespace

Outcome Run(const std::vector<Step>& steps, bool trace) {
  World world(trace);
  for (size_t i = 0; i < steps.size(); ++i) {
    try {
      world.Apply(steps[i]);
    } catch (const Crash&) {
      const int s = world.Alive(steps[i].a % kMaxServers, false);
      if (s >= 0) world.Crashed(s);
    } catch (const Violation& violation) {
      world.outcome.violated = true;
      world.outcome.what = violation.what;
      world.outcome.at_step = i;
      if (trace) printf("  !! %s\n", violation.what.c_str());
      return world.outcome;
    }
  }
  return world.outcome;
}

std::vector<Step> RandomSchedule(uint64_t seed, size_t length) {
  std::mt19937_64 rng(seed);
  // The weight of each event: values most, the rest now and then.
  static constexpr uint8_t kWeights[kEventCount] = {60, 6, 4, 30, 3, 3, 3, 2, 2, 2, 1, 1,
                                                    1,  1, 1, 1,  2, 1, 1, 1, 1, 1, 1, 1};
  static const std::discrete_distribution<int> pick(std::begin(kWeights), std::end(kWeights));
  std::discrete_distribution<int> events = pick;
  std::vector<Step> steps(length);
  for (Step& step : steps) {
    const uint64_t r = rng();
    step.kind = static_cast<uint8_t>(events(rng));
    step.a = static_cast<uint8_t>(r);
    step.b = static_cast<uint8_t>(r >> 8);
    step.c = static_cast<uint8_t>(r >> 16);
    step.x = static_cast<uint32_t>(r >> 32);
  }
  return steps;
}

std::vector<Step> FromBytes(const uint8_t* data, size_t size) {
  std::vector<Step> steps;
  for (size_t i = 0; i + 8 <= size; i += 8) {
    Step step;
    step.kind = data[i];
    step.a = data[i + 1];
    step.b = data[i + 2];
    step.c = data[i + 3];
    step.x = static_cast<uint32_t>(data[i + 4]) | static_cast<uint32_t>(data[i + 5]) << 8 |
             static_cast<uint32_t>(data[i + 6]) << 16 | static_cast<uint32_t>(data[i + 7]) << 24;
    steps.push_back(step);
  }
  return steps;
}

std::vector<Step> Shrink(const std::vector<Step>& original) {
  std::vector<Step> steps = original;
  const Outcome first = Run(steps);
  if (!first.violated) return steps;
  steps.resize(first.at_step + 1);
  const auto fails = [&](const std::vector<Step>& candidate) {
    const Outcome outcome = Run(candidate);
    return outcome.violated && outcome.what.substr(0, 20) == first.what.substr(0, 20);
  };
  // Drop chunks, halving their size, until no single step can go.
  for (size_t chunk = std::max<size_t>(steps.size() / 2, 1);; chunk = chunk / 2) {
    bool progress = true;
    while (progress) {
      progress = false;
      for (size_t start = 0; start < steps.size();) {
        std::vector<Step> candidate;
        candidate.reserve(steps.size());
        candidate.insert(candidate.end(), steps.begin(), steps.begin() + static_cast<long>(start));
        candidate.insert(candidate.end(), steps.begin() + static_cast<long>(std::min(start + chunk, steps.size())),
                         steps.end());
        if (fails(candidate)) {
          steps = candidate;
          progress = true;
        } else {
          start += chunk;
        }
      }
    }
    if (chunk == 1) break;
  }
  return steps;
}

void Print(const std::vector<Step>& steps) {
  printf("schedule (%zu steps; replay: SIM_REPLAY=", steps.size());
  for (const Step& step : steps) {
    printf("%02x%02x%02x%02x%08x", step.kind, step.a, step.b, step.c, step.x);
  }
  printf("):\n");
  (void)Run(steps, true);
}

}  // namespace idgen::sim
