// The simulator (sim.hpp). What is the product's: every decision and every order of effects
// (core/engine.cpp, core/protocol.cpp, core/identity.cpp) and every value (the state words and the
// families' code in src/core). What is the simulator's: the world those effects act on (servers,
// WAL, origins, sequences, shared memory, clocks, configuration), written to PostgreSQL's semantics
// as src/pg/effects/mark.cpp uses them, and the glue around the engine that src/pg has (a generator's call
// as generator.hpp makes it, CREATE and DROP EXTENSION, restart_at_clock()), written as src/pg
// writes it. Sections: the families; the world; the effects; the glue; the invariants; the steps.
#include "sim/sim.hpp"

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "core/decimal_id.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/identity.hpp"
#include "core/layout.hpp"
#include "core/ns_id.hpp"
#include "core/protocol.hpp"
#include "core/random.hpp"
#include "core/sometimes.hpp"
#include "core/state.hpp"
#include "core/typeid.hpp"
#include "core/uid20.hpp"
#include "core/ulid.hpp"
#include "core/uuidv7.hpp"
#include "pg/family.hpp"
#include "sim/fiber.hpp"

namespace idgen::sim {

// The holes known and not closed yet (docs/design.md, "Open findings"): the schedules that reach
// them are drawn only with SIM_OPEN=1, so that make sim keeps finding what is new.
//   A: a database whose extension was dropped holds rows no copy records: pg_upgrade (whose new
//      origins start from every database's copy) cannot see them.
//   B: pg_upgrade of a server whose copies do not record every value its lineage made (a promoted
//      standby's, whose last copy writes were lost with what it never received): the start from
//      the copies cannot see them, and only the origins, which pg_upgrade does not carry, knew.
//   C: pg_upgrade of a server that made DecimalIds and created the extension again while no launch
//      id was set: CREATE EXTENSION cannot record the database's DecimalIds without one, and the
//      start from the copies takes their generator ids again.
bool open_findings = false;

namespace {

using namespace protocol;
using engine::Origin;
using identity::Parts;
using pg::Family;
using U128 = unsigned __int128;

// ==== the families ===================================================================================

// What a session calls: each family that has a durable mark, with the state word it takes its
// values from (pg::Family, as src/pg numbers them). Tickets and Instagram's bound shards join here
// when the engine gains them: a SimFam, its kin, its call in GenerateBody, its part.
enum SimFam : uint8_t {
  kUuidv7,
  kUlid,
  kTypeid,
  kNsId,
  kInstagram,
  kSnowflake,
  kSonyflake,
  kTrace,
  kJs,
  kUid20,
  kUid20Sec,
  kDecimalId,
  kFamCount
};
constexpr Family kWordOf[kFamCount] = {pg::kFamilyUuidv7,    pg::kFamilyUuidv7, pg::kFamilyUuidv7, pg::kFamilyNsId,
                                       pg::kFamilyInstagram, pg::kFamilySnowflake, pg::kFamilySonyflake,
                                       pg::kFamilyTrace,     pg::kFamilyJs,        pg::kFamilyUid20,
                                       pg::kFamilyUid20Sec,  pg::kFamilyDecimalId};
constexpr const char* kFamNames[kFamCount] = {"uuidv7", "ulid", "typeid",  "ns_id",    "instagram_id", "snowflake_id",
                                              "sonyflake_id", "trace_id", "js_id", "uid20", "uid20_sec", "decimal_id"};

// The kin of a family's word (marks::KinOf).
constexpr int KinOf(Family family) {
  switch (family) {
    case pg::kFamilyUuidv7:
    case pg::kFamilyNsId:
      return kTime;
    case pg::kFamilyInstagram:
      return kShard;
    case pg::kFamilyUid20:
    case pg::kFamilyUid20Sec:
      return kDigit;
    case pg::kFamilyDecimalId:
      return engine::kDecimal;
    default:
      return kNode;
  }
}
constexpr bool HasIdentity(Family family) { return KinOf(family) != kTime && KinOf(family) != engine::kDecimal; }
constexpr bool IsLayout(Family family) { return pg::kLayouts[family] != nullptr; }
constexpr bool IsUid20(Family family) { return family == pg::kFamilyUid20 || family == pg::kFamilyUid20Sec; }
const uid20::Variant& VariantOf(Family family) {
  return family == pg::kFamilyUid20 ? uid20::kMillis : uid20::kSeconds;
}
int64_t EpochMs(Family family) {
  if (IsLayout(family)) return pg::kLayouts[family]->epoch_ms;
  return uid20::kDefaultEpochMs;
}
constexpr uint64_t kCallers = 100;  // MaxBackends, as the rules of the words count callers

// The word at the first tick at or after floor_ms (marks::WordAt).
uint64_t TickAtOrAfter(int64_t epoch_ms, int64_t unit_ms, uint64_t floor_ms) {
  const int64_t since = static_cast<int64_t>(floor_ms) - epoch_ms;
  return since <= 0 ? 0 : static_cast<uint64_t>(since / unit_ms);
}
uint64_t WordAt(Family family, uint64_t floor_ms) {
  switch (family) {
    case pg::kFamilyUuidv7:
      return (floor_ms << uuidv7::kFractionBits) << uuidv7::kCounterBits;
    case pg::kFamilyUid20:
      return TickAtOrAfter(EpochMs(family), uid20::kMillis.unit_ms, floor_ms) << uid20::kMillis.seq_bits;
    case pg::kFamilyUid20Sec:
      return TickAtOrAfter(EpochMs(family), uid20::kSeconds.unit_ms, floor_ms) << uid20::kSeconds.seq_bits;
    case pg::kFamilyNsId:
      return floor_ms * 1000000;
    case pg::kFamilyDecimalId:
      return 0;
    default: {
      const Layout& layout = *pg::kLayouts[family];
      return TickAtOrAfter(EpochMs(family), layout.unit_ms, floor_ms) << layout.seq_bits;
    }
  }
}
// The last Unix millisecond of the tick a mark position names (marks::MarkMs).
uint64_t MarkMs(Family family, uint64_t mark) {
  const auto end_of_tick = [&](int64_t unit_ms) {
    return static_cast<uint64_t>(EpochMs(family)) + (mark + 1) * static_cast<uint64_t>(unit_ms) - 1;
  };
  switch (family) {
    case pg::kFamilyUuidv7:
      return mark >> uuidv7::kFractionBits;
    case pg::kFamilyUid20:
      return end_of_tick(uid20::kMillis.unit_ms);
    case pg::kFamilyUid20Sec:
      return end_of_tick(uid20::kSeconds.unit_ms);
    case pg::kFamilyNsId:
      return mark / 1000000;
    case pg::kFamilyDecimalId:
      return 0;
    default:
      return end_of_tick(pg::kLayouts[family]->unit_ms);
  }
}

// The random bits of the random families are zero here: they would hide a repeat of the word's
// part of a value, which is what the durable state keeps from repeating.
struct ZeroRandom final : RandomSource {
  bool Fill(uint8_t* out, size_t n) override {
    std::memset(out, 0, n);
    return true;
  }
};

// ==== counters ("sometimes") =========================================================================

// The events of the simulation and the effects the engine asked for, counted by name (a constant
// string; printed merged by name).
std::unordered_map<const char*, uint64_t>& Counts() {
  static std::unordered_map<const char*, uint64_t> counts;
  return counts;
}
inline void Count(const char* name) { ++Counts()[name]; }

// ==== the world ======================================================================================

constexpr int kMaxServers = 6;
constexpr int kMaxDatabases = 3;  // per server
constexpr int kMaxSessions = 6;
constexpr int kMaxDumps = 12;
constexpr int kSimShards = 8;                   // the Instagram shards made here (0..7)
constexpr int64_t kStartUs = 1780000000000000;  // 2026-05-28: after every family's epoch
constexpr uint64_t kLivenessEffects = 200000;   // a call that has not ended after this many effects hangs
constexpr uint32_t kAllFamilies = (1u << pg::kFamilyCount) - 1;

// ---- the configuration -------------------------------------------------------------------------

// The shard lists a configuration draws from: the default (every shard), lists that overlap, none.
constexpr int kShardChoices = 6;
constexpr const char* kShardTexts[kShardChoices] = {"(default: every shard)", "0-3", "2-5", "4-7", "0-1,6-7", "''"};
identity::Ranges ShardsOf(int choice) {
  identity::Ranges r;
  switch (choice) {
    case 0:
      (void)r.Add(0, identity::kShards - 1);
      break;
    case 1:
      (void)r.Add(0, 3);
      break;
    case 2:
      (void)r.Add(2, 5);
      break;
    case 3:
      (void)r.Add(4, 7);
      break;
    case 4:
      (void)r.Add(0, 1);
      (void)r.Add(6, 7);
      break;
    default:
      break;
  }
  return r;
}

// A server's configuration, as its files say (and as a session last read it).
struct Config {
  int node = 0;    // idgen.node_id (0: never set)
  int digit = 0;   // idgen.uid20_server
  int shards = 0;  // a kShardTexts choice
  int launch = -1;  // idgen.launch_id (-1: not set)
  uint64_t margin_ms = 10000;
  uint64_t max_regression_ms = 5000;
  // The last reload had a misspelt idgen.* line (idgen.nodeid = intended_node): the node id fell
  // back to its default (0), and every generator refuses until a reload without it.
  bool problem = false;
  int intended_node = 0;

  identity::Identity Identity() const {
    identity::Identity id;
    id.node = node;
    id.digit = static_cast<uint8_t>(digit);
    id.shards = ShardsOf(shards);
    return id;
  }
  // settings::LegacyIdentityHash, as idgen 1.3 hashed the identity.
  uint32_t LegacyHash() const {
    const uint32_t n = (static_cast<uint32_t>(node) ^ (static_cast<uint32_t>(node) >> 12)) & 0xFFF;
    // (the shards' part: FNV-1a over the set's bitmap, once per choice)
    static const auto kShardHashes = [] {
      std::array<uint32_t, kShardChoices> out{};
      for (int choice = 0; choice < kShardChoices; ++choice) {
        uint8_t bits[identity::kShards / 8] = {};
        const identity::Ranges r = ShardsOf(choice);
        for (int i = 0; i < r.count; ++i) {
          for (uint32_t x = r.lo[i]; x <= r.hi[i]; ++x) bits[x / 8] |= static_cast<uint8_t>(1u << (x % 8));
        }
        uint32_t hash = 2166136261u;
        for (const uint8_t b : bits) hash = (hash ^ b) * 16777619u;
        out[static_cast<size_t>(choice)] = (hash ^ hash >> 8 ^ hash >> 16 ^ hash >> 24) & 0xFF;
      }
      return out;
    }();
    return n << 12 | static_cast<uint32_t>(digit & 0xF) << 8 | kShardHashes[static_cast<size_t>(shards)];
  }
};

// ---- what a server keeps on disk -----------------------------------------------------------------

// A database's copy of the mark: the sequences of the extension.
struct Copy {
  bool ext = false;  // the extension, and its sequences, exist
  int64_t mark = 0, server = 0, identity = 0, parts = 0, decimal = 0;
  bool mark_called = false;  // idgen.mark's is_called (false: as CREATE EXTENSION made it)
  uint64_t creating = 0;     // a CREATE EXTENSION not committed yet (its call's number; 0: committed)
};

struct Database {
  bool exists = false;
  Copy copy;
  int content = -1;  // the rows it holds (World::contents)
};

// What the origins, the registry of parts and the databases hold, as of some WAL position.
struct Durable {
  uint64_t origin[4] = {0, 0, 0, 0};  // engine::Origin's order
  std::vector<std::string> registry;  // the texts of parts; a handle is kFirstHandle + index
  Database db[kMaxDatabases];
};
constexpr uint16_t kFirstHandle = 5;  // (the ids before are idgen's four origins')

// A WAL record: an origin advanced (backward: set), a database as it is after a write of its
// sequences or its objects, a registration of parts.
struct Record {
  enum Kind : uint8_t { kOrigin, kDatabase, kRegistry } kind = kOrigin;
  int which = 0;
  uint64_t value = 0;
  bool backward = false;
  Database database;
  std::string text;
  uint64_t step = 0;  // when it was written (the rows made from then on are lost with it)
};
void Apply(Durable& d, const Record& r) {
  switch (r.kind) {
    case Record::kOrigin:
      // (replorigin_redo: the larger value, unless the write went backward)
      if (r.backward || r.value > d.origin[r.which]) d.origin[r.which] = r.value;
      break;
    case Record::kDatabase:
      d.db[r.which] = r.database;
      break;
    case Record::kRegistry:
      d.registry.push_back(r.text);
      break;
  }
}
// ---- what a server shares in memory ------------------------------------------------------------

struct Shm {
  ServerMark mark;
  int lock_exclusive = -1;  // the session that holds the mark's lock exclusively
  int lock_shared = 0;      // how many hold it shared
  StateWord words[pg::kFamilyCount][kSimShards];
  FamilyStats stats[pg::kFamilyCount];
  std::atomic<uint64_t> decimal{0};
  uint64_t instance = 0;  // this run's random name (SharedState::instance)
  uint64_t moving_from = 0;  // the identity lease in force when the last move began (0: none)
  // What the server remembers of the copies it wrote that stay another writer's (lost at a crash,
  // as src/pg/effects/mark.cpp's shared memory is): by database and the copy's exact words.
  struct Theirs {
    int db;
    int64_t tag, parts, mark, mark_identity;
    protocol::Theirs theirs;
  };
  std::vector<Theirs> theirs;
  // The session whose DROP EXTENSION holds, or waits for, the lock on a database's copy (its
  // sequences' AccessExclusiveLock, taken before the drop guard reads them; -1: none).
  int drop_by[kMaxDatabases] = {-1, -1, -1};
};

using MaxMap = std::unordered_map<uint64_t, U128>;  // (family, part) -> the largest value
inline uint64_t FamPart(int fam, int64_t part) { return uint64_t(fam) << 40 | uint64_t(part & 0xFFFFFFFFFF); }
void Raise(MaxMap& map, uint64_t key, U128 value) {
  auto [it, inserted] = map.try_emplace(key, value);
  if (!inserted && it->second < value) it->second = value;
}

struct Server {
  bool exists = false;
  int lineage = -1;
  bool recovery = false;  // a standby of primary, which has received (and replayed) wal
  int primary = -1;
  bool sync = false;      // a synchronous standby: its primary's flushes wait for it
  bool promoted = false;  // this run ended a recovery by promotion (PromoteIsTriggered)
  uint32_t timeline = 1;
  int64_t system_identifier = 0;
  int64_t clock_offset_us = 0;
  uint64_t max_clock_ms = 0;  // the latest time its clock has shown
  Config config;
  uint64_t reloads = 0;  // (SIGHUP: a backend reads the configuration again when it sees more)
  std::vector<Record> wal;  // its history (a standby's: what it received)
  size_t flushed = 0;       // the records durable
  Durable cur;              // as of every record written
  Durable disk;             // as of the flushed records
  std::unique_ptr<Shm> shm;
  uint64_t run = 0;  // this run's name in the simulation (the rows it makes carry it)
  // The largest value of each (family, part) that its lineage made before this run started: every
  // value of this run lies above (the durable mark's promise).
  MaxMap floor;
};

// ---- rows ----------------------------------------------------------------------------------------

// What a database holds: the rows made in it, and those of the database it was restored or copied
// from (a dump, a clone, or a promoted standby's, whose primary's last rows it never received),
// made before a step.
struct Row {
  uint64_t step;
  uint64_t key;  // FamPart
  U128 order;
  uint64_t run;  // the run of the server that made it (Server::run)
};
struct Content {
  int parent = -1;
  uint64_t parent_step = 0;
  std::vector<Row> rows;
  bool Empty() const { return parent < 0 && rows.empty(); }
};

struct Dump {
  Copy copy;
  int content = -1;
  uint64_t step = 0;
};

struct Lineage {
  int parent = -1;  // a clone's: the lineage it was copied from, at fork_step
  uint64_t fork_step = 0;
  MaxMap max;
  // Per (kin, part): the latest millisecond of a value made under it; and the parts that
  // restart_at_clock() moved back to the clock while values of theirs lay ahead of it, which the
  // leases had forgotten as the design lets them (the clock had passed them): the operator gave the
  // server an identity it had used while its clock was ahead (the docs' rule broken).
  std::unordered_map<uint64_t, uint64_t> part_ms;
  std::unordered_map<uint64_t, uint64_t> reused;
  // UUIDv7's and ns_id's values made where the database had no copy (its extension being created,
  // or older than 1.2): the origins hold them above, but no copy does, and after pg_upgrade (which
  // drops the origins) only their random bits keep them apart.
  MaxMap max_without_copy;
  uint32_t upgrades = 0;
  uint64_t max_ms = 0;          // the latest instant of a value some copy should record
  int64_t max_generator = -1;   // the largest DecimalId generator id of a value
  // A promotion lost records its old primary wrote (an asynchronous standby's): copy writes among
  // them, the copies may lack values the lineage made (open finding B).
  bool lossy = false;
  // A CREATE EXTENSION under no launch id, on a lineage that made DecimalIds (open finding C).
  bool decimal_forgotten = false;
};
inline uint64_t KinPart(int kin, int64_t part) { return uint64_t(kin) << 32 | uint64_t(part & 0xFFFFFFFF); }

// ---- sessions --------------------------------------------------------------------------------------

enum class Op : uint8_t { kGenerate, kDecimalId, kRestartAtClock, kCreateExtension, kDropExtension, kCount };
constexpr const char* kOpNames[] = {"generate", "decimal_id()", "restart_at_clock()", "CREATE EXTENSION idgen",
                                    "DROP EXTENSION idgen"};

struct Session {
  bool exists = false;
  int server = -1, db = -1;
  engine::Session engine;
  Config guc;                  // the settings as this backend last set them (its GUCs)
  bool problem_known = false;  // settings::problem_consumers as this backend last checked the files
  uint64_t read_reloads = 0;   // the reloads it has read (below the server's: ConfigReloadPending)
  uint64_t checked_reloads = 0;  // ... and whose files it checked (settings::checked_reload)
  bool in_call = false;
  bool waiting = false;  // in a wait that a cancel ends
  bool cancel = false;
  int lock = 0;  // the mark's lock: 0 none, 1 shared, 2 exclusive
  int wants_lock = 0;  // the lock it waits for (the scheduler resumes it once it is free)
  bool invalidated = false;
  Op op = Op::kGenerate;
  int fam = 0, shard = 0;
  uint64_t call = 0;  // the call's number
  uint64_t effects = 0;
  const char* next_effect = "";  // what it does when it is resumed
  MaxMap last;                   // the last value of each (family, part) this session returned
  int favorite[2] = {0, 0};      // the families its application calls most (the scheduler's choice)
  int64_t decimal_copy_read = 0;  // DecimalId's copy as this session last read it (its check)
  // Its transaction read or wrote the copy's sequences: it holds a lock on them until it ends, which
  // a DROP EXTENSION waits for.
  bool copy_locked = false;
  Fiber fiber;
};

// ---- the world ---------------------------------------------------------------------------------

struct Made {
  uint64_t step;
  int lineage, server, content, session;
  bool without_copy;
  uint32_t upgrades;  // of its lineage when it was made
};
struct KeyHash {
  size_t operator()(U128 k) const {
    const auto lo = static_cast<uint64_t>(k), hi = static_cast<uint64_t>(k >> 64);
    return static_cast<size_t>((lo ^ (hi * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull >> 7);
  }
};

struct World {
  uint64_t now_us = kStartUs;
  Server servers[kMaxServers];
  Session sessions[kMaxSessions];
  std::vector<Content> contents;
  std::vector<Dump> dumps;
  std::vector<Lineage> lineages;
  uint64_t step = 0;
  uint64_t serial = 0;  // names drawn (runs, system identifiers, calls)
  std::unordered_map<U128, Made, KeyHash> made[kFamCount];
  Outcome out;
  bool stop = false;
  bool trace = false;
  std::string note;  // what the step did, for the trace
  int theme = 0;     // what the schedule's steps lean to (Pick)
  // The schedule's plot (Plot): the goals it works toward between its random steps, and the servers
  // and databases they name (A: where values are made; B: a server the plot made or chose).
  std::vector<uint8_t> plot;
  size_t plot_at = 0;
  int plot_left = 0;  // calls still to start for the goal at plot_at (-1: started, not all ended)
  // A focused schedule keeps to its plot: its goals come twice as often, a goal of calls ends once
  // they did, and no random standby, clone, promotion or upgrade ends the plot before its end.
  bool focused = false;
  bool quiet = false;  // (kGQuiet: no random reload or clock jump while the plot runs)
  int role_a = 0, db_a = 0, role_b = -1, db_b = -1;
  ZeroRandom zero;
  RandomPool pool{zero};
  // The parts (KinPart) a reload gave a server while another primary had them: the operator's rule
  // (every server its own node id, digit and shards) broken for them from then on.
  std::unordered_set<uint64_t> shared_parts;
};
World* W = nullptr;


uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
uint64_t Draw() { return Mix(++W->serial * 0x5851F42D4C957F2Dull); }

int64_t ServerNowUs(const Server& sv) { return static_cast<int64_t>(W->now_us) + sv.clock_offset_us; }
uint64_t ServerNowMs(Server& sv) {
  const auto ms = static_cast<uint64_t>(std::max<int64_t>(ServerNowUs(sv), 0) / 1000);
  sv.max_clock_ms = std::max(sv.max_clock_ms, ms);
  return ms;
}

void Note(const char* format, ...) {
  if (!W->trace) return;
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof text, format, args);
  va_end(args);
  if (!W->note.empty()) W->note += "; ";
  W->note += text;
}

// Stops the run with a violation (from the scheduler or inside a call).
void Violation(const char* format, ...) {
  if (W->stop) return;
  char text[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof text, format, args);
  va_end(args);
  W->out.violated = true;
  W->out.what = text;
  W->out.at_step = W->step;
  W->stop = true;
}

// The server's WAL up to pos made durable.
void FlushTo(Server& sv, size_t pos) {
  pos = std::min(pos, sv.wal.size());
  for (size_t i = sv.flushed; i < pos; ++i) Apply(sv.disk, sv.wal[i]);
  sv.flushed = std::max(sv.flushed, pos);
}
size_t Append(Server& sv, Record r) {
  if (r.step == 0) r.step = W->step;
  Apply(sv.cur, r);
  sv.wal.push_back(std::move(r));
  return sv.wal.size();
}

// The synchronous standbys of a server that have not received its WAL up to pos.
bool SyncBehind(int server, size_t pos) {
  for (const Server& st : W->servers) {
    if (st.exists && st.recovery && st.sync && st.primary == server && st.wal.size() < pos) return true;
  }
  return false;
}

// ==== the effects ====================================================================================

Server& ServerOf(const Session& s) { return W->servers[s.server]; }
int IndexOf(const Session& s) { return static_cast<int>(&s - W->sessions); }

// A call ends before its value: the refusal, error or cancel is PostgreSQL's error, which releases
// the LWLocks the backend holds and aborts its transaction (the copy is read again in the next).
enum class End : uint8_t { kRefused, kError, kCanceled };
[[noreturn]] void EndCall(Session& s, End end, const char* why) {
  Server& sv = ServerOf(s);
  if (s.lock == 2) sv.shm->lock_exclusive = -1;
  if (s.lock == 1) --sv.shm->lock_shared;
  s.lock = s.wants_lock = 0;
  s.copy_locked = false;  // (the transaction aborted: its locks released)
  if (sv.shm->drop_by[s.db] == IndexOf(s)) sv.shm->drop_by[s.db] = -1;
  s.engine.fresh = false;
  s.engine.hot.ready = 0;
  s.waiting = s.cancel = false;
  s.in_call = false;
  // (an uncommitted CREATE EXTENSION of this call rolls back)
  Database& db = sv.cur.db[s.db];
  if (db.copy.ext && db.copy.creating == s.call) {
    Record r{Record::kDatabase, s.db};
    r.database = db;
    r.database.copy = Copy{};
    Append(sv, r);
  }
  ++W->out.refusals;
  Count(end == End::kRefused ? "call: refused" : end == End::kError ? "call: error" : "call: canceled");
  Count(why);
  Note("s%d %s: %s", IndexOf(s), end == End::kRefused ? "refused" : end == End::kError ? "error" : "canceled", why);
  Fiber::Abandon();
}

// Every effect is a point where the scheduler may run something else first: another session's
// effect, a reload, a clock's jump, a crash (after which this call is never resumed), a promotion.
void Point(Session& s, const char* name) {
  Count(name);
  ++W->out.effects;
  if (++s.effects > kLivenessEffects) {
    Violation("liveness: a call of %s in s%d made %llu effects without ending (the last: %s)",
              s.op == Op::kGenerate ? kFamNames[s.fam] : kOpNames[static_cast<int>(s.op)], IndexOf(s),
              static_cast<unsigned long long>(s.effects), name);
    Fiber::Abandon();
  }
  s.next_effect = name;
  Fiber::Yield();
  if (W->stop) Fiber::Abandon();
}

// A wait, as PostgreSQL's: holds no lock (the engine promises it), answers a cancel.
void WaitingPoint(Session& s) {
  if (s.cancel) EndCall(s, End::kCanceled, "canceled in a wait");
  s.waiting = true;
  Fiber::Yield();
  s.waiting = false;
  if (W->stop) Fiber::Abandon();
  if (s.cancel) EndCall(s, End::kCanceled, "canceled in a wait");
}

// A statement that reads or writes the copy's sequences locks them until its transaction ends; one
// that did not hold them yet waits behind a DROP EXTENSION that holds or waits for them.
void LockCopy(Session& s) {
  if (s.copy_locked) return;
  const int me = IndexOf(s);
  while (ServerOf(s).shm->drop_by[s.db] >= 0 && ServerOf(s).shm->drop_by[s.db] != me) WaitingPoint(s);
  s.copy_locked = true;
}

void NotUnderLock(Session& s, const char* what) {
  if (s.lock != 0) {
    Violation("the mark's lock held across %s (s%d, %s)", what, IndexOf(s), s.lock == 2 ? "exclusive" : "shared");
    Fiber::Abandon();
  }
}

// Whatever PostgreSQL refuses to do during recovery (a WAL record).
void WritesWal(Session& s) {
  if (ServerOf(s).recovery) EndCall(s, End::kError, "cannot make new WAL entries during recovery");
}

// A commit: its WAL flushed, and confirmed by the synchronous standbys.
void CommitFlush(Session& s) {
  Server& sv = ServerOf(s);
  const size_t pos = sv.wal.size();
  FlushTo(sv, pos);
  while (SyncBehind(s.server, pos)) WaitingPoint(s);
}

// The sessions of a database whose copy's sequences were dropped or made: each forgets its copy at
// its next statement (the relcache invalidation).
void InvalidateCopy(int server, int db) {
  for (Session& other : W->sessions) {
    if (other.exists && other.server == server && other.db == db) other.invalidated = true;
  }
}

engine::Config EngineConfig(const Session& s) {
  engine::Config c;
  c.identity = s.guc.Identity();
  c.legacy_hash = s.guc.LegacyHash();
  c.citus = false;
  c.failover_margin_ms = s.guc.margin_ms;
  c.max_clock_regression_ms = s.guc.max_regression_ms;
  c.launch_id = s.guc.launch;
  c.refused_families = s.problem_known ? kAllFamilies : 0;
  return c;
}

// What the backend's settings become when it reads the configuration (a reload it was signalled):
// the GUCs take the file's values, and an identity setting that changed drops what the session had
// found covered (settings.cpp's assign hooks: ForgetIdentity).
void SetGucs(Session& s, const Config& config) {
  if (!(config.Identity() == s.guc.Identity())) {
    s.engine.hot = engine::Hot{};
    Count("glue: an identity setting changed: the session's cover dropped");
  }
  s.guc = config;
}
// settings::CatchUpWithReload: the GUCs, and the idgen.* lines checked again.
void CatchUpWithReload(Session& s) {
  SetGucs(s, ServerOf(s).config);
  s.read_reloads = s.checked_reloads = ServerOf(s).reloads;
  s.problem_known = s.guc.problem;
}
// settings::CheckConfigured: a problem known, a reload pending, or read and not checked, is caught
// up with first (CheckConfiguredSlow); a problem then refuses.
bool ConfigRefused(Session& s) {
  if (s.problem_known || s.read_reloads != ServerOf(s).reloads || s.checked_reloads != s.read_reloads) {
    CatchUpWithReload(s);
  }
  return s.problem_known;
}

// The parts of a handle in a registry (not known: 0, or no such text).
Parts PartsIn(const Durable& d, uint16_t handle) {
  if (handle < kFirstHandle || static_cast<size_t>(handle - kFirstHandle) >= d.registry.size()) return Parts{};
  const std::string& text = d.registry[handle - kFirstHandle];
  const std::optional<Parts> parts = identity::Parse(std::string_view(text).substr(12));  // "idgen_parts "
  return parts ? *parts : Parts{};
}

// Whether the parts a lease names hold the part of a value of the kin.
bool PartHeld(const Parts& parts, int kin, int64_t part) {
  if (!parts.known) return true;
  switch (kin) {
    case kNode:
      return parts.any_node || parts.nodes.Contains(static_cast<uint32_t>(part));
    case kDigit:
      return (parts.digits >> part & 1) != 0;
    case kShard:
      return parts.shards.Contains(static_cast<uint32_t>(part));
    default:
      return true;
  }
}
Parts PartsOfLease(const Durable& d, uint64_t raw) {
  if (raw == 0 || raw == kNoLease) return identity::NoParts();
  if (!IsFormat14(raw)) return Parts{};
  if (PartsHandleOf(raw) == 0) return identity::NoParts();
  return PartsIn(d, PartsHandleOf(raw));
}

// Whether parts a hold every part of b (what a lease's parts must keep of the lease before it).
bool RangesHold(const identity::Ranges& a, const identity::Ranges& b) {
  for (int i = 0; i < b.count; ++i) {
    bool inside = false;
    for (int j = 0; j < a.count && !inside; ++j) inside = a.lo[j] <= b.lo[i] && b.hi[i] <= a.hi[j];
    if (!inside) return false;
  }
  return true;
}
bool PartsHold(const Parts& a, const Parts& b) {
  if (!a.known) return true;
  if (!b.known) return false;
  if (b.any_node && !a.any_node) return false;
  if (!a.any_node && !RangesHold(a.nodes, b.nodes)) return false;
  return (b.digits & ~a.digits) == 0 && RangesHold(a.shards, b.shards);
}
class SimEffects final : public engine::Effects {
 public:
  explicit SimEffects(Session& s) : s_(s) {}

  uint64_t NowMs() override {
    Point(s_, "NowMs");
    return ServerNowMs(sv());
  }
  void WaitUntilMs(uint64_t until_ms) override {
    Point(s_, "WaitUntilMs");
    NotUnderLock(s_, "a wait for the clock");
    while (ServerNowMs(sv()) < until_ms) WaitingPoint(s_);
  }
  engine::Config ReadConfig() override {
    Point(s_, "ReadConfig");
    CatchUpWithReload(s_);
    return EngineConfig(s_);
  }
  bool Shared() override {
    Point(s_, "Shared");
    return true;
  }
  bool Recovery() override {
    Point(s_, "Recovery");
    return sv().recovery;
  }
  bool PromoteTriggered() override {
    Point(s_, "PromoteTriggered");
    Note("s%d: promoted %d, timeline %u, idgen_decimal_id %llx", IndexOf(s_), sv().promoted, sv().timeline,
         static_cast<unsigned long long>(sv().cur.origin[static_cast<int>(Origin::kDecimalId)]));
    return sv().promoted;
  }
  uint32_t Timeline() override {
    Point(s_, "Timeline");
    return sv().timeline;
  }
  Self Me(const engine::Config& config) override {
    Point(s_, "Me");
    Self self;
    const uint64_t instance = sv().shm->instance;
    self.run_bits = ((instance >> 25) & kLegacyRunMask) | 1;
    self.identity = config.identity;
    self.legacy_hash = config.legacy_hash;
    self.system_identifier = sv().system_identifier;
    self.decimal_run = static_cast<int64_t>((instance >> 35) | (uint64_t{1} << 28));
    return self;
  }
  uint64_t Place() override {
    Point(s_, "Place");
    return uint64_t(s_.db) << 1 | 1;
  }

  uint64_t ReadOrigin(Origin which) override {
    Point(s_, "ReadOrigin");
    return sv().cur.origin[static_cast<int>(which)];
  }
  uint64_t AdvanceOrigin(Origin which, uint64_t value, bool backward) override {
    Point(s_, backward ? "AdvanceOrigin backward" : "AdvanceOrigin");
    WritesWal(s_);
    const uint64_t old = sv().cur.origin[static_cast<int>(which)];
    if (!backward && value > old && old != 0 && (which == Origin::kMark || which == Origin::kIdentityMark)) {
      // A lease's parts forget only the values the clock has passed (DecideCover): a renewal past a
      // lease holds every part of it while the clock has not passed its end.
      if (!PartsHold(PartsOfLease(sv().cur, value), PartsOfLease(sv().cur, old)) &&
          sv().max_clock_ms < LeaseMsOf(old)) {
        if (getenv("SIM_DEBUG")) {
          char a[128], b[128];
          (void)identity::Format(PartsOfLease(sv().cur, value), a, sizeof a);
          (void)identity::Format(PartsOfLease(sv().cur, old), b, sizeof b);
          fprintf(stderr, "new %llx [%s] old %llx [%s]\n", (unsigned long long)value, a, (unsigned long long)old, b);
        }
        Violation("a renewal of %s dropped parts of values the clock has not passed (lease %llu ms, clock %llu ms), s%d",
                  which == Origin::kMark ? "idgen_mark" : "idgen_mark_identity",
                  static_cast<unsigned long long>(LeaseMsOf(old)),
                  static_cast<unsigned long long>(sv().max_clock_ms), IndexOf(s_));
        Fiber::Abandon();
      }
      Count(PartsHold(PartsOfLease(sv().cur, value), PartsOfLease(sv().cur, old))
                ? "lease: renewed, its parts kept or grown"
                : "lease: renewed past the clock, its parts started over");
    }
    if (W->trace) {
      char parts[128] = "";
      if (IsFormat14(value)) (void)identity::Format(PartsOfLease(sv().cur, value), parts, sizeof parts);
      static constexpr const char* kOrigins[] = {"idgen_mark", "idgen_mark_identity", "idgen_decimal_id",
                                                 "idgen_decimal_take"};
      Note("s%d: %s %s %llu%s%s%s", IndexOf(s_), kOrigins[static_cast<int>(which)], backward ? "set back to" : "to",
           static_cast<unsigned long long>(which == Origin::kMark || which == Origin::kIdentityMark ? LeaseMsOf(value)
                                                                                                  : value),
           parts[0] != '\0' ? " [" : "", parts, parts[0] != '\0' ? "]" : "");
    }
    Record r{Record::kOrigin, static_cast<int>(which), value, backward};
    return Append(sv(), std::move(r));
  }
  uint64_t WrittenUpTo() override {
    Point(s_, "WrittenUpTo");
    return sv().wal.size();
  }
  void FlushAndConfirm(uint64_t position) override {
    Point(s_, "FlushAndConfirm");
    NotUnderLock(s_, "a flush");
    if (position == 0) return;
    FlushTo(sv(), position);
    while (SyncBehind(s_.server, position)) WaitingPoint(s_);
  }

  uint16_t Register(const Parts& parts) override {
    Point(s_, "Register");
    NotUnderLock(s_, "a registration");
    if (parts == identity::NoParts()) return 0;
    // (origin.hpp: "idgen_parts " and the text, at most kMaxNamedLength bytes in all)
    char name[121] = "idgen_parts ";
    const size_t prefix = std::strlen(name);
    (void)identity::FormatFitting(parts, name + prefix, sizeof name - prefix);
    const std::vector<std::string>& registry = sv().cur.registry;
    for (size_t i = 0; i < registry.size(); ++i) {
      if (registry[i] == name) {
        Note("s%d: registered %s as %zu", IndexOf(s_), name + prefix, kFirstHandle + i);
        return static_cast<uint16_t>(kFirstHandle + i);
      }
    }
    Note("s%d: registers %s as %zu", IndexOf(s_), name + prefix, kFirstHandle + registry.size());
    // Made by a worker's transaction, committed (flushed and confirmed) before it is returned.
    WritesWal(s_);
    Record r{Record::kRegistry};
    r.text = name;
    Append(sv(), std::move(r));
    Count("registry: parts registered");
    const auto handle = static_cast<uint16_t>(kFirstHandle + sv().cur.registry.size() - 1);
    CommitFlush(s_);
    return handle;
  }
  Parts PartsOf(uint16_t handle) override {
    Point(s_, "PartsOf");
    return PartsIn(sv().cur, handle);
  }
  engine::Rebuilt RebuildFromCopies(int launch_id) override;

  void LockMark(bool exclusive) override {
    Point(s_, exclusive ? "LockMark exclusive" : "LockMark shared");
    if (s_.lock != 0) {
      Violation("the mark's lock taken twice by s%d (an LWLock is not reentrant)", IndexOf(s_));
      Fiber::Abandon();
    }
    for (;;) {
      Shm& m = *sv().shm;
      if (exclusive ? m.lock_exclusive < 0 && m.lock_shared == 0 : m.lock_exclusive < 0) {
        s_.wants_lock = 0;
        if (exclusive) {
          m.lock_exclusive = IndexOf(s_);
        } else {
          ++m.lock_shared;
        }
        s_.lock = exclusive ? 2 : 1;
        return;
      }
      Count("lock: waited for the mark's lock");
      s_.wants_lock = exclusive ? 2 : 1;
      Fiber::Yield();
      if (W->stop) Fiber::Abandon();
    }
  }
  void UnlockMark() override {
    Point(s_, "UnlockMark");
    Shm& m = *sv().shm;
    if (s_.lock == 2) m.lock_exclusive = -1;
    if (s_.lock == 1) --m.lock_shared;
    if (s_.lock == 0) {
      Violation("the mark's lock released by s%d, which does not hold it", IndexOf(s_));
      Fiber::Abandon();
    }
    s_.lock = 0;
  }
  ServerMark ReadMark() override {
    Point(s_, "ReadMark");
    return sv().shm->mark;
  }
  void WriteMark(const ServerMark& mark, uint32_t fields) override;
  uint64_t TakeGeneratorId() override {
    Point(s_, "TakeGeneratorId");
    Note("s%d: takes DecimalId generator id %llu", IndexOf(s_),
         static_cast<unsigned long long>(sv().shm->mark.decimal_id_next));
    return sv().shm->mark.decimal_id_next++;
  }
  void RaiseWords(uint8_t kins, uint64_t ms, uint64_t self_made_ms, bool floor) override {
    Point(s_, floor ? "RaiseWords floor" : "RaiseWords");
    Shm& m = *sv().shm;
    for (int f = 0; f < pg::kFamilyCount; ++f) {
      const auto family = static_cast<Family>(f);
      const int kin = KinOf(family);
      if (kin == engine::kDecimal || (kins >> kin & 1) == 0) continue;
      const uint64_t word = WordAt(family, ms);
      for (StateWord& w : m.words[f]) RaiseTo(w, word);
      if (floor) {
        const uint64_t below = WordAt(family, ms - std::min(ms, self_made_ms));
        SetFloor(m.stats[f], ms == 0 ? 0 : word, word - std::min(word, below));
      }
    }
  }
  void SetWords(uint8_t kins, uint64_t ms) override {
    Point(s_, "SetWords");
    JudgeRestart(ms);
    Shm& m = *sv().shm;
    for (int f = 0; f < pg::kFamilyCount; ++f) {
      const auto family = static_cast<Family>(f);
      const int kin = KinOf(family);
      if (kin == engine::kDecimal || (kins >> kin & 1) == 0) continue;
      const uint64_t word = WordAt(family, ms);
      for (StateWord& w : m.words[f]) w.value.store(word);
      SetFloor(m.stats[f], 0, 0);
    }
  }

  CopyRead ReadCopy() override {
    Point(s_, "ReadCopy");
    LockCopy(s_);
    CopyRead read;
    const Copy* copy = Visible();
    if (copy == nullptr) return read;
    read.has_mark = read.has_server = read.has_identity = read.has_parts = true;
    read.mark = copy->mark;
    read.mark_never_set = !copy->mark_called && copy->mark == 0;
    read.server = copy->server;
    read.mark_identity = copy->identity;
    read.parts = copy->parts;
    return read;
  }
  uint64_t WriteCopy(const CopyWrite& write) override {
    Point(s_, "WriteCopy");
    LockCopy(s_);
    const Copy* visible = Visible();
    if (visible == nullptr) EndCall(s_, End::kError, "the durable mark idgen.mark does not exist in this database");
    WritesWal(s_);
    // (WriteSequences: mark raised; mark_identity set exactly or raised; tag and parts set exactly)
    Copy copy = *visible;
    bool changed = false;
    const auto set = [&](int64_t& field, int64_t value, bool exact) {
      if (value > field || (exact && value != field)) {
        field = value;
        changed = true;
      }
    };
    set(copy.mark, write.mark, false);
    if (changed) copy.mark_called = true;  // (is_called of the sequence written)
    if (write.write_identity) set(copy.identity, write.mark_identity, write.identity_exact);
    if (write.write_tag) {
      // (joined with the tag and parts the copy holds, under the pages' locks: PgEffects's)
      const CopyTagParts joined = JoinCopyParts(copy.server, copy.parts, write.tag, write.parts);
      set(copy.server, joined.tag, true);
      set(copy.parts, joined.parts, true);
    }
    if (!changed) return 0;
    if (W->trace) {
      char text[128] = "";
      (void)identity::Format(identity::DecodeCopy(identity::CopyWords{copy.parts, static_cast<uint32_t>(copy.server & kShardBitsMask)}),
                             text, sizeof text);
      Note("s%d: the copy of database %d to %llu, identity %llu, run %llu [%s]", IndexOf(s_), s_.db,
           static_cast<unsigned long long>(copy.mark), static_cast<unsigned long long>(copy.identity),
           static_cast<unsigned long long>(static_cast<uint64_t>(copy.server) >> 26 & kRunMask), text);
    }
    return WriteDatabase(copy);
  }
  void RememberTheirs(const CopyWrite& write) override {
    Point(s_, "RememberTheirs");
    auto& list = sv().shm->theirs;
    for (auto& t : list) {
      if (t.db == s_.db && t.tag == write.tag && t.parts == write.parts) {
        t.mark = std::max(t.mark, write.holds_mark);
        t.mark_identity = std::max(t.mark_identity, write.holds_identity);
        t.theirs = write.theirs;
        return;
      }
    }
    if (list.size() == 16) list.erase(list.begin());  // (the oldest goes, as src/pg's)
    list.push_back({s_.db, write.tag, write.parts, write.holds_mark, write.holds_identity, write.theirs});
  }
  bool RecallTheirs(const CopyRead& read, protocol::Theirs* theirs) override {
    Point(s_, "RecallTheirs");
    for (const auto& t : sv().shm->theirs) {
      if (t.db == s_.db && t.tag == read.server && t.parts == read.parts && read.mark <= t.mark &&
          (!read.has_identity || read.mark_identity <= t.mark_identity)) {
        *theirs = t.theirs;
        return true;
      }
    }
    return false;
  }
  int64_t ReadDecimalCopy() override {
    Point(s_, "ReadDecimalCopy");
    LockCopy(s_);
    const Copy* copy = Visible();
    if (copy == nullptr) {
      EndCall(s_, End::kError, "the durable mark idgen.decimal_id_generator does not exist in this database");
    }
    s_.decimal_copy_read = copy->decimal;
    Note("s%d: reads DecimalId's copy %lld (its run %lld, this server's %lld)", IndexOf(s_),
         static_cast<long long>(copy->decimal), static_cast<long long>(copy->decimal / kDecimalRunUnit),
         static_cast<long long>(s_.engine.decimal_run));
    return copy->decimal;
  }
  uint64_t WriteDecimalCopy(int64_t value) override {
    Point(s_, "WriteDecimalCopy");
    LockCopy(s_);
    const Copy* visible = Visible();
    if (visible == nullptr) {
      EndCall(s_, End::kError, "the durable mark idgen.decimal_id_generator does not exist in this database");
    }
    WritesWal(s_);
    if (visible->decimal == value) return 0;
    Copy copy = *visible;
    copy.decimal = value;
    return WriteDatabase(copy);
  }
  [[noreturn]] void Refuse(const engine::Refusal& refusal) override {
    static constexpr const char* kWhy[] = {
        "refused: this database has no copy",          "refused: the copy lies ahead of the clock",
        "refused: beyond the largest lease",           "refused: too many retakes",
        "refused: a DecimalId take ahead of the clock", "refused: every DecimalId generator id used",
        "refused: DecimalIds of the copy ahead",       "refused: DROP EXTENSION, the copy ahead",
        "refused: DROP EXTENSION, DecimalIds ahead",   "refused: a copy ahead at the rebuild",
        "refused: a setting rejected at the reload"};
    const auto kind = static_cast<size_t>(refusal.kind);
    EndCall(s_, End::kRefused, kind < std::size(kWhy) ? kWhy[kind] : "refused: (a new refusal)");
  }

 private:
  Server& sv() { return ServerOf(s_); }
  // restart_at_clock() moves the words of the families with a part back to the clock (only it calls
  // SetWords): a part of its identity under which values lie ahead of the clock is one its leases
  // must hold (and DecideRestart refuse), unless they forgot it as the design lets them once the
  // clock had passed those values: then the operator reused an identity the server had while its
  // clock was ahead (the docs' rule), and the repeats it leads to are reported as such.
  void JudgeRestart(uint64_t floor_ms);
  // The copy as this session sees it: none where the extension does not exist, or where another
  // session's CREATE EXTENSION has not committed.
  const Copy* Visible() {
    const Database& db = sv().cur.db[s_.db];
    if (!db.exists || !db.copy.ext) return nullptr;
    if (db.copy.creating != 0 && db.copy.creating != s_.call) return nullptr;
    return &db.copy;
  }
  uint64_t WriteDatabase(const Copy& copy) {
    Record r{Record::kDatabase, s_.db};
    r.database = sv().cur.db[s_.db];
    r.database.copy = copy;
    return Append(sv(), std::move(r));
  }
  Session& s_;
};

// ---- what is published, and only once durable ----------------------------------------------------

// The largest value of an origin that is durable on the server and on each of its synchronous
// standbys (what a lease published may name, at most).
uint64_t DurableOrigin(int server, Origin which) {
  const Server& sv = W->servers[server];
  uint64_t value = sv.disk.origin[static_cast<int>(which)];
  for (const Server& st : W->servers) {
    if (st.exists && st.recovery && st.sync && st.primary == server) {
      value = std::min(value, st.cur.origin[static_cast<int>(which)]);
    }
  }
  return value;
}

void SimEffects::WriteMark(const ServerMark& mark, uint32_t fields) {
  Point(s_, "WriteMark");
  if (s_.lock == 0) {
    Violation("the shared mark written by s%d without its lock", IndexOf(s_));
    Fiber::Abandon();
  }
  // (PgEffects::WriteMark: the lease raised, never lowered; the identity lease set unless a lease
  // would go down; the floors, the generation and DecimalId's fields stored; the take raised)
  ServerMark& m = sv().shm->mark;
  if ((fields & engine::kFieldLease) != 0 && mark.lease_raw > m.lease_raw) {
    if (mark.lease_raw > DurableOrigin(s_.server, Origin::kMark)) {
      Violation("a lease published before it is durable: idgen_mark %llx published, %llx durable (s%d)",
                static_cast<unsigned long long>(mark.lease_raw),
                static_cast<unsigned long long>(DurableOrigin(s_.server, Origin::kMark)), IndexOf(s_));
      Fiber::Abandon();
    }
    m.lease_raw = mark.lease_raw;
    if (W->trace) {
      char parts[128] = "";
      (void)identity::Format(PartsOfLease(sv().cur, mark.lease_raw), parts, sizeof parts);
      Note("s%d: publishes the lease %llu [%s]", IndexOf(s_), static_cast<unsigned long long>(LeaseMsOf(mark.lease_raw)),
           parts);
    }
  }
  if ((fields & engine::kFieldIdentityLease) != 0) {
    const auto is_lease = [](uint64_t raw) { return raw != kNoLease && raw != kMoving; };
    if (!(is_lease(m.identity_lease_raw) && is_lease(mark.identity_lease_raw) &&
          m.identity_lease_raw >= mark.identity_lease_raw)) {
      if (is_lease(mark.identity_lease_raw) &&
          mark.identity_lease_raw > DurableOrigin(s_.server, Origin::kIdentityMark)) {
        Violation("an identity lease published before it is durable: %llx published, %llx durable (s%d)",
                  static_cast<unsigned long long>(mark.identity_lease_raw),
                  static_cast<unsigned long long>(DurableOrigin(s_.server, Origin::kIdentityMark)), IndexOf(s_));
        Fiber::Abandon();
      }
      // (a retired identity lease is retired on disk before anything reads "no lease")
      if (mark.identity_lease_raw == kNoLease && DurableOrigin(s_.server, Origin::kIdentityMark) != 0) {
        Violation("\"no identity lease\" published while idgen_mark_identity holds %llx durably (s%d)",
                  static_cast<unsigned long long>(DurableOrigin(s_.server, Origin::kIdentityMark)), IndexOf(s_));
        Fiber::Abandon();
      }
      if (mark.identity_lease_raw == kMoving) sv().shm->moving_from = is_lease(m.identity_lease_raw) ? m.identity_lease_raw : 0;
      m.identity_lease_raw = mark.identity_lease_raw;
    }
  }
  if ((fields & engine::kFieldFloors) != 0) {
    m.floor_ms = mark.floor_ms;
    m.identity_floor_ms = mark.identity_floor_ms;
  }
  if ((fields & engine::kFieldGeneration) != 0) m.generation = mark.generation;
  if ((fields & engine::kFieldDecimal) != 0) {
    Note("s%d: publishes DecimalId's next %llu (floor %llu, timeline %u)", IndexOf(s_),
         static_cast<unsigned long long>(mark.decimal_id_next), static_cast<unsigned long long>(mark.decimal_id_floor),
         mark.decimal_timeline);
    m.decimal_id_next = mark.decimal_id_next;
    m.decimal_id_floor = mark.decimal_id_floor;
    m.decimal_timeline = mark.decimal_timeline;
  }
  if ((fields & engine::kFieldDecimalTake) != 0) m.decimal_take_ms = std::max(m.decimal_take_ms, mark.decimal_take_ms);
  if ((fields & engine::kFieldLoaded) != 0) m.loaded = mark.loaded;
}

void SimEffects::JudgeRestart(uint64_t floor_ms) {
  Lineage& l = W->lineages[sv().lineage];
  const identity::Identity id = s_.engine.config.identity;
  // (the leases as published: what the decision could know; a renewal still in flight is not)
  const Durable& d = sv().cur;
  const uint64_t server_raw = sv().shm->mark.lease_raw;
  const uint64_t identity_raw = sv().shm->moving_from;  // (as this restart's move found it)
  const Parts server_parts = LeaseMsOf(server_raw) > floor_ms ? PartsOfLease(d, server_raw) : identity::NoParts();
  const Parts identity_parts = identity_raw != 0 && LeaseMsOf(identity_raw) > floor_ms ? PartsOfLease(d, identity_raw)
                                                                                        : identity::NoParts();
  for (const auto& [key, ms] : l.part_ms) {
    if (ms < floor_ms) continue;
    const int kin = static_cast<int>(key >> 32);
    const auto part = static_cast<int64_t>(key & 0xFFFFFFFF);
    const bool meets = kin == kNode    ? part == id.node
                       : kin == kDigit ? part == id.digit
                                       : id.shards.Contains(static_cast<uint32_t>(part));
    if (!meets) continue;
    if (PartHeld(server_parts, kin, part) || PartHeld(identity_parts, kin, part)) {
      if (getenv("SIM_DEBUG")) {
        char a[128], b[128];
        identity::Format(server_parts, a, sizeof a);
        identity::Format(s_.engine.parts.server, b, sizeof b);
        fprintf(stderr, "origin %llx parts %s published %llx id %llx session parts %s handle %u\n",
                (unsigned long long)server_raw, a, (unsigned long long)sv().shm->mark.lease_raw,
                (unsigned long long)sv().shm->mark.identity_lease_raw, b, s_.engine.server_handle);
      }
      Violation("restart_at_clock() moved back to the clock a part its leases hold ahead of it (%s %lld: a value at "
                "%llu ms, the clock at %llu ms), s%d",
                kin == kNode ? "node" : kin == kDigit ? "digit" : "shard", static_cast<long long>(part),
                static_cast<unsigned long long>(ms), static_cast<unsigned long long>(floor_ms), IndexOf(s_));
      Fiber::Abandon();
    }
    l.reused.try_emplace(key, W->step);
    Count("restart_at_clock: under a part its leases had forgotten (the operator's rule broken)");
  }
}

// What every database's copy holds, for the first start of a server's origins (a cluster that
// pg_upgrade made): each copy as protocol::RebuiltOf counts it, merged (src/pg/effects/rebuild.cpp's).
engine::Rebuilt SimEffects::RebuildFromCopies(int launch_id) {
  Point(s_, "RebuildFromCopies");
  NotUnderLock(s_, "the rebuild's reads");
  Rebuilt merged;
  for (const Database& db : sv().cur.db) {
    if (!db.exists || !db.copy.ext || db.copy.creating != 0) continue;
    const Copy& c = db.copy;
    CopyRead read;
    read.has_mark = read.has_server = read.has_identity = read.has_parts = true;
    read.mark = c.mark;
    read.server = c.server;
    read.mark_identity = c.identity;
    read.parts = c.parts;
    Merge(merged, RebuiltOf(read, c.decimal, launch_id));
  }
  return merged;
}

// ==== the invariants on the values ==================================================================

// Whether the database of content holds a value made at old (in it, or in a database it was
// restored from, before the dump).
bool Holds(int content, const Made& old) {
  uint64_t before = ~uint64_t{0};
  for (int c = content; c >= 0; c = W->contents[c].parent) {
    if (c == old.content) return old.step < before;
    before = std::min(before, W->contents[c].parent_step);
  }
  return false;
}
// The largest value of a (family, part) a database holds, made before a step by another run than
// except_run; false: none.
bool HeldMax(int content, uint64_t key, uint64_t before, uint64_t except_run, U128* max) {
  bool found = false;
  for (int c = content; c >= 0;) {
    const Content& ct = W->contents[c];
    for (const Row& r : ct.rows) {
      if (r.key == key && r.step < before && r.run != except_run && (!found || r.order > *max)) {
        *max = r.order;
        found = true;
      }
    }
    before = std::min(before, ct.parent_step);
    c = ct.parent;
  }
  return found;
}

// Whether lineage descends from ancestor by clones, the value at step made before the copy.
bool MadeBeforeClone(int lineage, int ancestor, uint64_t step) {
  uint64_t before = ~uint64_t{0};
  for (int l = lineage; W->lineages[l].parent >= 0; l = W->lineages[l].parent) {
    before = std::min(before, W->lineages[l].fork_step);
    if (W->lineages[l].parent == ancestor) return step < before;
  }
  return false;
}

std::string Describe(int fam, int64_t part) {
  char text[96];
  const int kin = fam == kDecimalId ? engine::kDecimal : KinOf(kWordOf[fam]);
  const char* of = kin == kNode ? "node" : kin == kDigit ? "digit" : kin == kShard ? "shard" : kin == engine::kDecimal ? "launch id" : "";
  if (*of != '\0') {
    snprintf(text, sizeof text, "%s (%s %lld)", kFamNames[fam], of, static_cast<long long>(part));
  } else {
    snprintf(text, sizeof text, "%s", kFamNames[fam]);
  }
  return text;
}

// A value a call returns. made_under: the settings it was made under; durable: made under the
// durable mark (false: a standby's UUIDv7, unique by its random bits alone, which are zero here).
// order: the family's order of its values; part: the identity part it carries (DecimalId: the
// launch id); generator: DecimalId's generator id (its order is per generator).
void RecordValue(Session& s, int fam, U128 key, U128 order, int64_t part, uint64_t ms, bool durable,
                 const Config& made_under, int64_t generator = 0) {
  ++W->out.values;
  if (!durable) {
    Count("value: without the marks (a standby's, unique by its random bits)");
    return;
  }
  Count("value: returned");
  Server& sv = ServerOf(s);
  // (the value's row lives on only once its transaction's commit is flushed, which flushes every
  // record written before it: the copy writes of other sessions it relied on included)
  FlushTo(sv, sv.wal.size());
  const int kin = fam == kDecimalId ? engine::kDecimal : KinOf(kWordOf[fam]);
  const std::string what = Describe(fam, part);
  // Never under a setting the operator did not set: a node id a misspelt line left at its default.
  if (made_under.problem && kin == kNode && part != made_under.intended_node) {
    Violation("a %s value made under a node id the operator did not set (a misspelt idgen.nodeid = %d left it at "
              "its default), s%d on server %d",
              what.c_str(), made_under.intended_node, IndexOf(s), s.server);
    return;
  }
  // Only once what makes it unique is durable (and confirmed by the synchronous standbys).
  if (kin == engine::kDecimal) {
    const uint64_t next = DecimalNextOf(DurableOrigin(s.server, Origin::kDecimalId));
    if (static_cast<uint64_t>(generator) >= next) {
      Violation("a DecimalId of generator id %lld returned before the generator id is durable (next %llu), s%d",
                static_cast<long long>(generator), static_cast<unsigned long long>(next), IndexOf(s));
      return;
    }
  } else {
    const uint64_t lease_raw = DurableOrigin(s.server, Origin::kMark);
    if (ms >= LeaseMsOf(lease_raw)) {
      Violation("a %s value at %llu ms returned beyond the durable lease (%llu ms), s%d on server %d", what.c_str(),
                static_cast<unsigned long long>(ms), static_cast<unsigned long long>(LeaseMsOf(lease_raw)),
                IndexOf(s), s.server);
      return;
    }
    // (unless the clock has passed it: a lease's parts forget what lies below the clock; or the
    // identity lease it was covered under was retired since, which raised the words above it)
    if (kin != kTime && sv.max_clock_ms <= ms && sv.shm->mark.generation == s.engine.hot.generation) {
      const uint64_t identity_raw = DurableOrigin(s.server, Origin::kIdentityMark);
      const bool held = PartHeld(PartsOfLease(sv.disk, lease_raw), kin, part) ||
                        (identity_raw != 0 && ms < LeaseMsOf(identity_raw) &&
                         PartHeld(PartsOfLease(sv.disk, identity_raw), kin, part));
      if (!held) {
        Violation("a %s value returned under durable leases whose parts do not hold its part, s%d on server %d",
                  what.c_str(), IndexOf(s), s.server);
        return;
      }
    }
  }
  // A part restart_at_clock() moved back while the leases had forgotten its values ahead: what
  // follows is the operator's rule broken, reported.
  Lineage& lineage = W->lineages[sv.lineage];
  bool reused = false;
  if (kin == kNode || kin == kDigit || kin == kShard) {
    const uint64_t kp = KinPart(kin, part);
    auto [at, fresh] = lineage.part_ms.try_emplace(kp, ms);
    if (!fresh) at->second = std::max(at->second, ms);
    reused = lineage.reused.count(kp) != 0;
  }
  // Never twice, on any server.
  const int content = sv.cur.db[s.db].content;
  const bool without_copy = kin == kTime && !s.engine.copy.has_copy;
  const auto [it, inserted] = W->made[fam].try_emplace(
      key, Made{W->step, sv.lineage, s.server, content, IndexOf(s), without_copy, lineage.upgrades});
  if (!inserted && it->second.without_copy && lineage.upgrades > it->second.upgrades &&
      (it->second.lineage == sv.lineage || MadeBeforeClone(sv.lineage, it->second.lineage, it->second.step))) {
    // (no copy recorded it, and pg_upgrade dropped the origins: its random bits' job)
    Count("repeat: of a value no copy recorded, across pg_upgrade (its random bits keep it apart)");
    return;
  }
  if (!inserted && it->second.without_copy && it->second.lineage != sv.lineage &&
      !MadeBeforeClone(sv.lineage, it->second.lineage, it->second.step)) {
    // (no copy recorded it, and the origins that hold it are another server's: its random bits' job)
    Count("repeat: of a value no copy recorded, on another server (its random bits keep it apart)");
    return;
  }
  if (!inserted) {
    const Made& old = it->second;
    // (a DecimalId's copy holds apart only the launch id it records, as operating.md says: one of
    // another launch id, the database held too, repeated by a server under that launch id, is two
    // deployments under one launch id)
    // (a copy this server's run wrote records its own launch id, not the one of the other writer's
    // values it replaced: those it holds apart no more)
    const int64_t copy_launch = s.decimal_copy_read % kDecimalRunUnit / kDecimalUnit;
    const bool copy_own = s.decimal_copy_read / kDecimalRunUnit == s.engine.decimal_run;
    const bool held = Holds(content, old) && (kin != engine::kDecimal || (copy_launch == part && !copy_own));
    const char* why = held                                    ? "in a database that holds it"
                      : old.lineage == sv.lineage             ? "on the same server's lineage"
                      : MadeBeforeClone(sv.lineage, old.lineage, old.step) ? "by a clone, of a value made before the clone"
                                                                           : nullptr;
    if (why != nullptr && !reused) {
      Violation("repeat: a %s value made again %s (first at step %llu by s%d on server %d, again by s%d on server %d)",
                what.c_str(), why, static_cast<unsigned long long>(old.step), old.session, old.server, IndexOf(s),
                s.server);
      return;
    }
    // Two servers of the same part that do not descend from each other: the operator's rule (every
    // server its own node id, digit, shards and launch id) was broken.
    ++W->out.excused;
    Count("repeat: between servers that share a part (the operator's rule broken)");
    if (W->out.excused_what.empty()) {
      char text[256];
      snprintf(text, sizeof text, "a %s value of server %d at step %llu made again by server %d", what.c_str(),
               old.server, static_cast<unsigned long long>(old.step), s.server);
      W->out.excused_what = text;
    }
  }
  // In order: each session's values, above every value its server's lineage made before this run,
  // above every value the database holds from before (DecimalId: each generator's, per session).
  if (kin == engine::kDecimal) {
    const uint64_t k = FamPart(fam, part * kDecimalUnit + generator);
    const auto last = s.last.find(k);
    if (last != s.last.end() && order <= last->second) {
      Violation("a session's DecimalIds of generator id %lld went down (s%d)", static_cast<long long>(generator),
                IndexOf(s));
      return;
    }
    s.last[k] = order;
    lineage.max_generator = std::max(lineage.max_generator, generator);
    W->contents[content].rows.push_back(Row{W->step, k, order, sv.run});
    return;
  }
  const uint64_t k = FamPart(fam, part);
  if (reused) return;
  const auto last = s.last.find(k);
  if (last != s.last.end() && order <= last->second) {
    Violation("a session's %s values went down (s%d on server %d)", what.c_str(), IndexOf(s), s.server);
    return;
  }
  const auto floor = sv.floor.find(k);
  if (floor != sv.floor.end() && order <= floor->second) {
    Violation("a %s value at or below one its server's lineage made before this run (s%d on server %d)", what.c_str(),
              IndexOf(s), s.server);
    return;
  }
  U128 held = 0;
  if (!without_copy && HeldMax(content, k, ~uint64_t{0}, sv.run, &held) && order <= held &&
      W->shared_parts.count(KinPart(kin, part)) != 0) {
    // (below another server's value of the part the operator gave both: the rule broken, reported)
    ++W->out.excused;
    Count("order: below a value of a server given the same part (the operator's rule broken)");
  } else if (!without_copy && HeldMax(content, k, ~uint64_t{0}, sv.run, &held) && order <= held) {
    Violation("a %s value at or below one its database holds (s%d on server %d, database %d)", what.c_str(),
              IndexOf(s), s.server, s.db);
    return;
  }
  s.last[k] = order;
  if (without_copy) {
    Raise(lineage.max_without_copy, k, order);
    return;
  }
  lineage.max_ms = std::max(lineage.max_ms, ms);
  Raise(lineage.max, k, order);
  W->contents[content].rows.push_back(Row{W->step, k, order, sv.run});
}

// ==== the glue: what src/pg does around the engine ===================================================

// The server's clock, as the cores read it.
struct SimClock final : Clock {
  Server* sv;
  int64_t NowNs() override {
    (void)ServerNowMs(*sv);
    return ServerNowUs(*sv) * 1000;
  }
};

// Before a statement (PostgresMain): a reload the backend was signalled is read (its GUCs; the
// idgen.* lines are checked again only by CatchUpWithReload), and invalidations are read.
void StatementStart(Session& s) {
  SetGucs(s, ServerOf(s).config);
  s.read_reloads = ServerOf(s).reloads;
  if (s.invalidated) {
    s.invalidated = false;
    s.engine.fresh = false;
    s.engine.hot.ready = 0;
  }
}

bool Ready(const Session& s, Family family) { return (s.engine.hot.ready & (1u << family)) != 0; }
// marks::ReadyToTake
bool ReadyToTake(const Session& s, Family family) {
  return Ready(s, family) &&
         (!HasIdentity(family) || ServerOf(s).shm->mark.identity_lease_raw == kNoLease);
}
// marks::Prepare. (Where src/pg asks RecoveryInProgress() and shared state itself, the simulator asks
// the protocol's MayGenerate, which decides it.)
bool Prepare(Session& s, Family family, SimEffects& fx) {
  if (!MayGenerate(ServerOf(s).recovery, true)) {
    CatchUpWithReload(s);
    if (ConfigRefused(s)) EndCall(s, End::kError, "a setting rejected at the reload (glue)");
    return false;
  }
  return engine::Prepare(fx, s.engine, KinOf(family), 1u << family);
}
// marks::CoverValue
bool CoverValue(Session& s, Family family, uint64_t mark, SimEffects& fx) {
  const uint64_t ms = MarkMs(family, mark);
  if (ms < s.engine.hot.covered_ms[HasIdentity(family) ? 1 : 0] &&
      ServerOf(s).shm->mark.generation == s.engine.hot.generation) {
    Count("glue: covered without a call");
    return true;
  }
  return engine::Cover(fx, s.engine, static_cast<Kin>(KinOf(family)), ms);
}
// WaitForClock: holds nothing, answers a cancel.
void WaitForClock(Session& s, int64_t until_ns) {
  Count("glue: waited for the clock's next tick");
  while (ServerNowUs(ServerOf(s)) * 1000 < until_ns) WaitingPoint(s);
}

U128 FromUuid(const Uuid& id) {
  U128 v = 0;
  for (const uint8_t b : id.bytes) v = v << 8 | b;
  return v;
}

// One value of the family from the core's own code, on the server's words (an Error: false, and
// its message in why).
struct Taken {
  U128 key = 0, order = 0;
  uint64_t mark = 0;
  int64_t wait_until_ns = 0;
};
bool Take(Session& s, int fam, int64_t node, int digit, Taken* out, char* why, size_t why_size) {
  Server& sv = ServerOf(s);
  Shm& m = *sv.shm;
  SimClock clock;
  clock.sv = &sv;
  const Family family = kWordOf[fam];
  const EpochSettings settings{EpochMs(family), static_cast<int64_t>(s.guc.max_regression_ms)};
  try {
    switch (fam) {
      case kUuidv7: {
        const Generated<Uuid> g =
            uuidv7::Next(m.words[family][0], m.stats[family], clock, W->pool, 1, 0, -1, kCallers);
        *out = Taken{FromUuid(g.value), FromUuid(g.value), g.mark, g.wait_until_ns};
        break;
      }
      case kUlid: {
        const Generated<Uuid> g = ulid::Next(m.words[family][0], m.stats[family], clock, W->pool, 1, -1, kCallers);
        *out = Taken{FromUuid(g.value), FromUuid(g.value), g.mark, g.wait_until_ns};
        break;
      }
      case kTypeid: {
        const Generated<Uuid> g =
            uuidv7::Next(m.words[family][0], m.stats[family], clock, W->pool, 1, 0, -1, kCallers);
        // The value is the text; it reads back to its body alone (the prefix is the column's).
        const type_id::Text text = type_id::Format("event", g.value, type_id::Encoding::kBase36);
        type_id::Parsed parsed;
        if (type_id::Parse(text.view(), parsed) != ParseProblem::kNone) throw Error(ErrorKind::kInternal, "typeid");
        *out = Taken{FromUuid(parsed.id), FromUuid(parsed.id), g.mark, g.wait_until_ns};
        break;
      }
      case kNsId: {
        const Generated<ns_id::Value> g = ns_id::Next(m.words[family][0], m.stats[family], clock, W->pool, 1, 0, -1);
        *out = Taken{g.value, g.value, g.mark, g.wait_until_ns};
        break;
      }
      case kUid20:
      case kUid20Sec: {
        const Generated<uid20::Value> g = uid20::Next(VariantOf(family), settings, m.words[family][0],
                                                      m.stats[family], clock, W->pool, 1, digit, kCallers);
        *out = Taken{g.value, g.value, g.mark, g.wait_until_ns};
        break;
      }
      default: {
        const Layout& layout = *pg::kLayouts[family];
        const std::span<StateWord> words(m.words[family], family == pg::kFamilyInstagram ? kSimShards : 1);
        const Generated<int64_t> g = layout::Next(layout, settings, words, m.stats[family], clock, node, kCallers);
        *out = Taken{static_cast<U128>(g.value), static_cast<U128>(g.value), g.mark, g.wait_until_ns};
        break;
      }
    }
  } catch (const Error& e) {
    snprintf(why, why_size, "%s", e.what());
    return false;
  }
  return true;
}

// idgen.<family>() through Generate (generator.hpp), and the checks of its SQL function before it.
void GenerateBody(Session& s) {
  StatementStart(s);
  SimEffects fx(s);
  const int fam = s.fam;
  const Family family = kWordOf[fam];
  const bool checked = IsLayout(family) || IsUid20(family) || family == pg::kFamilyNsId;
  if (checked && ConfigRefused(s)) EndCall(s, End::kError, "a setting rejected at the reload (glue)");
  if ((IsLayout(family) || IsUid20(family)) && !Ready(s, family) && !MayGenerate(ServerOf(s).recovery, true)) {
    EndCall(s, End::kError, "cannot generate these IDs during recovery");
  }
  if (family == pg::kFamilyNsId && !MayGenerate(ServerOf(s).recovery, true)) {
    EndCall(s, End::kError, "ns_id needs 48 random bits during recovery");
  }
  int64_t node = s.guc.node;
  if (fam == kInstagram) {
    node = s.shard;
    if (!ShardsOf(s.guc.shards).Contains(static_cast<uint32_t>(s.shard))) {
      EndCall(s, End::kError, "an Instagram shard this server does not own");
    }
  }
  // refresh(): the node id and the shard read again
  const auto refresh = [&] {
    node = fam == kInstagram ? s.shard : s.guc.node;
    if (fam == kInstagram && !ShardsOf(s.guc.shards).Contains(static_cast<uint32_t>(s.shard))) {
      EndCall(s, End::kError, "an Instagram shard this server does not own");
    }
  };
  for (;;) {
    bool durable = ReadyToTake(s, family);
    if (!durable) {
      durable = Prepare(s, family, fx);
      refresh();  // (after Prepare, which read the configuration as it is now)
    }
    const Config made_under = s.guc;
    Taken taken;
    char why[200];
    const bool ok = Take(s, fam, node, s.guc.digit, &taken, why, sizeof why);
    if (!ok) EndCall(s, End::kError, "the core refused (its clock behind its last value, or a field out of range)");
    // (between the value and its cover: another session's effects may come first)
    Point(s, "(a value taken)");
    if (durable && !CoverValue(s, family, taken.mark, fx)) {
      Count("glue: a value dropped, taken again");
      refresh();
      continue;
    }
    if (taken.wait_until_ns != 0) WaitForClock(s, taken.wait_until_ns);
    int64_t part = 0;
    if (KinOf(family) == kNode) part = node;
    if (KinOf(family) == kDigit) part = made_under.digit;
    if (KinOf(family) == kShard) part = s.shard;
    Note("s%d: %s returned a value at %llu ms%s", IndexOf(s), Describe(fam, part).c_str(),
         static_cast<unsigned long long>(MarkMs(family, taken.mark)), durable ? "" : " (no marks)");
    RecordValue(s, fam, taken.key, taken.order, part, MarkMs(family, taken.mark), durable, made_under);
    return;
  }
}

// idgen.decimal_id() (decimal_id_fmgr.cpp).
void DecimalBody(Session& s) {
  StatementStart(s);
  SimEffects fx(s);
  Shm& m = *ServerOf(s).shm;
  const Family family = pg::kFamilyDecimalId;
  if (ConfigRefused(s)) EndCall(s, End::kError, "a setting rejected at the reload (glue)");
  if (!Ready(s, family) && !MayGenerate(ServerOf(s).recovery, true)) {
    EndCall(s, End::kError, "cannot generate DecimalIds during recovery");
  }
  const int launch = s.guc.launch;
  if (launch < 0) EndCall(s, End::kError, "idgen.launch_id is not set");
  if (!Ready(s, family) || m.mark.generation != s.engine.hot.generation) (void)Prepare(s, family, fx);
  const Config made_under = s.guc;
  engine::CheckDecimalIdCopy(fx, s.engine, launch);
  for (;;) {
    const decimal_id::Next next = decimal_id::Advance(m.decimal, launch);
    if (next.issued) {
      engine::CoverDecimalId(fx, s.engine, launch, next.id);
      const decimal_id::Parts p = decimal_id::Decompose(next.id);
      Note("s%d: decimal_id() returned generator id %lld, counter %lld", IndexOf(s),
           static_cast<long long>(p.generator_id), static_cast<long long>(p.counter));
      RecordValue(s, kDecimalId, static_cast<U128>(next.id), static_cast<U128>(p.counter), launch, 0, true, made_under,
                  p.generator_id);
      return;
    }
    if (m.decimal.load() == next.seen) {
      const int64_t generator = engine::TakeGeneratorId(fx, s.engine);
      (void)decimal_id::Install(m.decimal, next.seen, generator);
    }
    Point(s, "(CHECK_FOR_INTERRUPTS)");
    if (s.cancel) EndCall(s, End::kCanceled, "canceled");
  }
}

// idgen.restart_at_clock() (mark.cpp), by a superuser; no identity setting is per database or
// role here (they are the server's).
void RestartBody(Session& s) {
  StatementStart(s);
  SimEffects fx(s);
  RestartInput in;
  in.superuser = true;
  in.shared_primary = !ServerOf(s).recovery;
  if (in.superuser && in.shared_primary) CatchUpWithReload(s);
  Restart restart;
  if (RestartPrecondition(in) == Restart::kMove) {
    restart = engine::RestartAtClock(fx, s.engine, in);
  } else {
    restart.kind = RestartPrecondition(in);
  }
  static constexpr const char* kKinds[] = {
      "restart_at_clock: refused, permission",    "restart_at_clock: refused, not a primary",
      "restart_at_clock: refused, per database",  "restart_at_clock: refused, Citus",
      "restart_at_clock: nothing to do",          "restart_at_clock: refused, parts not known",
      "restart_at_clock: refused, same identity", "restart_at_clock: moved back to the clock"};
  const char* kind = kKinds[restart.kind];
  Count(kind);
  if (restart.kind != Restart::kNothingToDo && restart.kind != Restart::kMove) EndCall(s, End::kError, kind);
  Note("s%d: %s", IndexOf(s), kind);
}

// CREATE EXTENSION idgen: the script makes the copy's sequences (this transaction's until it
// commits), then idgen.start_copy() starts the copy at the server's leases.
void CreateExtensionBody(Session& s) {
  StatementStart(s);
  SimEffects fx(s);
  Server& sv = ServerOf(s);
  if (!sv.cur.db[s.db].exists) EndCall(s, End::kError, "database does not exist");
  if (sv.cur.db[s.db].copy.ext) EndCall(s, End::kError, "extension \"idgen\" already exists");
  WritesWal(s);
  Record r{Record::kDatabase, s.db};
  r.database = sv.cur.db[s.db];
  r.database.copy = Copy{};
  r.database.copy.ext = true;
  r.database.copy.creating = s.call;
  Append(sv, r);
  Point(s, "(the extension's objects made)");
  engine::StartCopy(fx, s.engine, true);
  if (s.engine.config.launch_id < 0 && W->lineages[sv.lineage].max_generator >= 0) {
    W->lineages[sv.lineage].decimal_forgotten = true;  // (open finding C)
  }
  Point(s, "(commit)");
  Record done{Record::kDatabase, s.db};
  done.database = sv.cur.db[s.db];
  done.database.copy.creating = 0;
  Append(sv, done);
  CommitFlush(s);
  s.copy_locked = false;
  InvalidateCopy(s.server, s.db);
  Count("extension created");
  Note("s%d: CREATE EXTENSION idgen committed", IndexOf(s));
}

// DROP EXTENSION idgen: the drop guard's check (CheckDropKeepsNothing), then the drop.
void DropExtensionBody(Session& s) {
  StatementStart(s);
  SimEffects fx(s);
  Server& sv = ServerOf(s);
  const Database& db = sv.cur.db[s.db];
  if (!db.exists || !db.copy.ext || db.copy.creating != 0) EndCall(s, End::kError, "extension does not exist");
  WritesWal(s);
  // (the objects locked before the drop guard reads them: after every transaction that read or
  // wrote the copy ended, and before any other reads it)
  const int me = IndexOf(s);
  while (sv.shm->drop_by[s.db] >= 0 && sv.shm->drop_by[s.db] != me) WaitingPoint(s);
  sv.shm->drop_by[s.db] = me;
  const auto others_hold = [&] {
    for (const Session& o : W->sessions) {
      if (o.exists && &o != &s && o.server == s.server && o.db == s.db && o.copy_locked) return true;
    }
    return false;
  };
  while (others_hold()) {
    Count("DROP EXTENSION: waited for a transaction that holds the copy");
    WaitingPoint(s);
  }
  s.copy_locked = true;
  engine::CheckDrop(fx, s.engine);
  Point(s, "(the extension's objects dropped)");
  Record r{Record::kDatabase, s.db};
  r.database = sv.cur.db[s.db];
  r.database.copy = Copy{};
  Append(sv, r);
  CommitFlush(s);
  sv.shm->drop_by[s.db] = -1;
  s.copy_locked = false;
  InvalidateCopy(s.server, s.db);
  Count("extension dropped");
  Note("s%d: DROP EXTENSION idgen committed", IndexOf(s));
}

void CallBody(void* arg) {
  Session& s = *static_cast<Session*>(arg);
  switch (s.op) {
    case Op::kGenerate:
      GenerateBody(s);
      break;
    case Op::kDecimalId:
      DecimalBody(s);
      break;
    case Op::kRestartAtClock:
      RestartBody(s);
      break;
    case Op::kCreateExtension:
      CreateExtensionBody(s);
      break;
    case Op::kDropExtension:
      DropExtensionBody(s);
      break;
    case Op::kCount:
      break;
  }
  s.in_call = false;
}

// ==== the steps ======================================================================================

enum Kind : uint8_t {
  kRun,         // a: session: its call goes on to its next effect
  kCall,        // a: session, b: Op, c: family, x: shard
  kCommit,      // a: session: its transaction ends
  kConnect,     // a: session, b: server, c: database
  kDisconnect,  // a: session
  kTick,        // x: microseconds
  kJump,        // a: server, x: milliseconds (signed)
  kReload,      // a: server, b: what, c: value
  kCrash,       // a: server: killed, and started again (crash recovery)
  kRestart,     // a: server: stopped cleanly, and started again
  kFlushWal,    // a: server: the WAL writer flushes what was written
  kStandby,     // a: new server, b: its primary, c: synchronous, x: its clock's skew (ms, signed)
  kReplicate,   // a: standby, x: records at most
  kPromote,     // a: standby (its primary and the primary's other standbys are gone for good)
  kClone,       // a: new server, b: the server copied (pg_basebackup), c: keeps its identity, x: skew
  kUpgrade,     // a: new server, b: the server pg_upgrade replaces
  kDump,        // a: server, b: database
  kRestore,     // a: dump, b: server, c: database
  kOwnerSet,    // a: server, b: database, x: milliseconds ahead of the clock
  kCreateDb,    // a: server, b: database
  kCancel,      // a: session (in a wait)
  kKindCount
};

void NewContent(Database& db) {
  W->contents.push_back(Content{});
  db.content = static_cast<int>(W->contents.size() - 1);
}

// A new run of a server: its shared memory new, its name drawn again; from now on its values lie
// above what its lineage made before (after pg_upgrade: what the copies recorded).
void StartRun(Server& sv) {
  sv.shm = std::make_unique<Shm>();
  sv.shm->instance = Draw();
  sv.promoted = false;
  Lineage& l = W->lineages[sv.lineage];
  sv.floor = l.max;
  for (const auto& [k, v] : l.max_without_copy) Raise(sv.floor, k, v);
  sv.run = Draw();
}

void KillSessions(int server) {
  for (Session& s : W->sessions) {
    if (s.exists && s.server == server) {
      if (s.in_call) Count("call: ended by its server's crash or end");
      s.exists = false;
      s.in_call = false;
    }
  }
}

// The transactions of a CREATE EXTENSION that never committed, rolled back (recovery's end).
void RollBack(Server& sv) {
  for (int d = 0; d < kMaxDatabases; ++d) {
    const Database& db = sv.cur.db[d];
    if (db.copy.ext && db.copy.creating != 0) {
      Record r{Record::kDatabase, d};
      r.database = db;
      r.database.copy = Copy{};
      Append(sv, r);
    }
  }
  FlushTo(sv, sv.wal.size());
}

void Crash(int index) {
  Server& sv = W->servers[index];
  KillSessions(index);
  sv.wal.resize(sv.flushed);
  sv.cur = sv.disk;
  if (!sv.recovery) RollBack(sv);
  StartRun(sv);
}

void Kill(int index) {
  KillSessions(index);
  W->servers[index].exists = false;
  W->servers[index].shm.reset();
}

int NewLineage(int parent) {
  Lineage l;
  l.parent = parent;
  l.fork_step = W->step;
  if (parent >= 0) {
    const Lineage& from = W->lineages[parent];
    l.max = from.max;
    l.max_without_copy = from.max_without_copy;
    l.max_ms = from.max_ms;
    l.max_generator = from.max_generator;
    l.lossy = from.lossy;
    l.decimal_forgotten = from.decimal_forgotten;
    l.upgrades = from.upgrades;
    l.part_ms = from.part_ms;
    l.reused = from.reused;
  }
  W->lineages.push_back(std::move(l));
  return static_cast<int>(W->lineages.size() - 1);
}

// A copy of a server's disk: what pg_basebackup takes (the flushed WAL).
void CopyServer(Server& to, const Server& from) {
  to = Server{};
  to.exists = true;
  to.lineage = from.lineage;
  to.timeline = from.timeline;
  to.system_identifier = from.system_identifier;
  to.clock_offset_us = from.clock_offset_us;
  to.max_clock_ms = from.max_clock_ms;
  to.config = from.config;
  to.wal.assign(from.wal.begin(), from.wal.begin() + static_cast<long>(from.flushed));
  to.flushed = to.wal.size();
  to.cur = to.disk = from.disk;
}

// Whether an asynchronous standby may be promoted within the documented bound: its primary's
// leases (and DecimalId takes) that it has not received lie within idgen.failover_margin of those
// it has (a lag within the margin, less the clock skew between the two, as the leases measure it),
// and the primary moved no lease back meanwhile.
bool WithinMargin(const Server& st, const Server& p) {
  const uint64_t margin = st.config.margin_ms;
  for (size_t i = st.wal.size(); i < p.flushed; ++i) {
    const Record& r = p.wal[i];
    if (r.kind != Record::kOrigin) continue;
    if (r.backward) return false;
    const uint64_t have = st.cur.origin[r.which];
    switch (static_cast<Origin>(r.which)) {
      case Origin::kMark:
        if (LeaseMsOf(r.value) > LeaseMsOf(have) + margin) return false;
        break;
      case Origin::kIdentityMark:
        if (have != 0 && r.value > have && LeaseMsOf(r.value) > LeaseMsOf(have) + margin) return false;
        break;
      case Origin::kDecimalTake:
        if (r.value > have + margin) return false;
        break;
      case Origin::kDecimalId:
        break;
    }
  }
  return true;
}

const char* kReloadNames[] = {"idgen.node_id", "idgen.uid20_server", "idgen.instagram_shards", "idgen.launch_id",
                              "idgen.failover_margin", "a misspelt line (idgen.nodeid)", "idgen.max_clock_regression",
                              "the whole identity (node id, digit and shards)"};
constexpr int kReloadKinds = 8;

bool Exec(const Step& st) {
  World& w = *W;
  const int a = st.a, b = st.b, c = st.c;
  switch (static_cast<Kind>(st.kind % kKindCount)) {
    case kRun: {
      if (a >= kMaxSessions) return false;
      Session& s = w.sessions[a];
      if (!s.exists || !s.in_call || !s.fiber.Running()) return false;
      Note("s%d: %s", a, s.next_effect);
      s.fiber.Resume();
      return true;
    }
    case kCall: {
      if (a >= kMaxSessions || b >= static_cast<int>(Op::kCount)) return false;
      Session& s = w.sessions[a];
      if (!s.exists || s.in_call) return false;
      s.op = static_cast<Op>(b);
      s.fam = c % kDecimalId;
      s.shard = static_cast<int>(st.x % kSimShards);
      s.call = ++w.serial;
      s.effects = 0;
      s.in_call = true;
      s.cancel = s.waiting = false;
      s.next_effect = "(its first step)";
      ++w.out.calls;
      if (s.op == Op::kGenerate) {
        Note("s%d calls %s%s", a, kFamNames[s.fam],
             s.fam == kInstagram ? (std::string("(shard ") + std::to_string(s.shard) + ")").c_str() : "()");
      } else {
        Note("s%d calls %s", a, kOpNames[b]);
      }
      s.fiber.Start(CallBody, &s);
      return true;
    }
    case kCommit: {
      if (a >= kMaxSessions) return false;
      Session& s = w.sessions[a];
      if (!s.exists || s.in_call) return false;
      s.engine.fresh = false;  // (ForgetCopyAtXactEnd)
      s.engine.hot.ready = 0;
      s.copy_locked = false;
      Note("s%d: COMMIT", a);
      return true;
    }
    case kConnect: {
      if (a >= kMaxSessions || b >= kMaxServers || c >= kMaxDatabases) return false;
      Session& s = w.sessions[a];
      Server& sv = w.servers[b];
      if (s.exists || !sv.exists || !sv.cur.db[c].exists) return false;
      s.exists = true;
      s.server = b;
      s.db = c;
      s.engine = engine::Session{};
      s.guc = sv.config;
      s.problem_known = sv.config.problem;
      s.read_reloads = s.checked_reloads = sv.reloads;
      s.in_call = s.waiting = s.cancel = s.invalidated = false;
      s.lock = s.wants_lock = 0;
      s.copy_locked = false;
      s.last.clear();
      s.favorite[0] = static_cast<int>(st.x % kDecimalId);
      s.favorite[1] = static_cast<int>(st.x / 256 % kDecimalId);
      Note("s%d connects to server %d, database %d", a, b, c);
      return true;
    }
    case kDisconnect: {
      if (a >= kMaxSessions) return false;
      Session& s = w.sessions[a];
      if (!s.exists || s.in_call) return false;
      s.exists = false;
      Note("s%d disconnects", a);
      return true;
    }
    case kTick:
      w.now_us += st.x;
      Note("time +%u us", st.x);
      return true;
    case kJump: {
      if (a >= kMaxServers || !w.servers[a].exists) return false;
      Server& sv = w.servers[a];
      const int64_t ms = static_cast<int32_t>(st.x);
      const int64_t after = sv.clock_offset_us + ms * 1000;
      // (within a year's span: TraceId's seconds wrap every 388 days, by design)
      if (after < -15LL * 86400000000 || after > 200LL * 86400000000) return false;
      sv.clock_offset_us = after;
      Count(ms < 0 ? "clock: jumped back" : "clock: jumped ahead");
      Note("server %d's clock %+lld ms (now %+lld ms off)", a, static_cast<long long>(ms),
           static_cast<long long>(after / 1000));
      return true;
    }
    case kReload: {
      if (a >= kMaxServers || !w.servers[a].exists) return false;
      Server& sv = w.servers[a];
      Config& cf = sv.config;
      const int what = b % kReloadKinds;
      if (what != 5) cf.problem = false;
      switch (what) {
        case 0:
          cf.node = c % 4;
          break;
        case 1:
          cf.digit = c % 3;
          break;
        case 2:
          cf.shards = c % kShardChoices;
          break;
        case 3:
          cf.launch = c % 4 == 0 ? -1 : c % 4;
          break;
        case 4: {
          // (only raised: lowered after a failover, it would lower what the failover waited out)
          static constexpr uint64_t kMargins[] = {0, 2000, 10000, 30000};
          cf.margin_ms = std::max(cf.margin_ms, kMargins[c % 4]);
          break;
        }
        case 5:
          cf.intended_node = 1 + c % 3;
          cf.node = 0;
          cf.problem = true;
          break;
        case 6: {
          static constexpr uint64_t kLimits[] = {1000, 5000, 60000};
          cf.max_regression_ms = kLimits[c % 3];
          break;
        }        case 7:  // (two identities disjoint in every part: c = 1 or 2)
          cf.node = c % 4;
          cf.digit = c % 3;
          cf.shards = c % 2 == 1 ? 1 : 3;
          break;
      }
      for (int j = 0; j < kMaxServers; ++j) {
        const Server& other = w.servers[j];
        if (j == a || !other.exists || other.recovery) continue;
        if (other.config.node == cf.node) w.shared_parts.insert(KinPart(kNode, cf.node));
        if (other.config.digit == cf.digit) w.shared_parts.insert(KinPart(kDigit, cf.digit));
        const identity::Ranges mine = ShardsOf(cf.shards), theirs = ShardsOf(other.config.shards);
        for (uint32_t x = 0; x < kSimShards; ++x) {
          if (mine.Contains(x) && theirs.Contains(x)) w.shared_parts.insert(KinPart(kShard, x));
        }
      }
      ++sv.reloads;
      Count("reload");
      Note("server %d reloads: %s; now node %d, digit %d, shards %s, launch %d, margin %llu ms%s", a,
           kReloadNames[what], cf.node, cf.digit, kShardTexts[cf.shards], cf.launch,
           static_cast<unsigned long long>(cf.margin_ms), cf.problem ? ", a line misspelt" : "");
      return true;
    }
    case kCrash:
    case kRestart: {
      if (a >= kMaxServers || !w.servers[a].exists) return false;
      Server& sv = w.servers[a];
      if (st.kind % kKindCount == kRestart) FlushTo(sv, sv.wal.size());
      Crash(a);
      Count(st.kind % kKindCount == kRestart ? "server: restarted cleanly" : "server: crashed");
      Note("server %d %s", a, st.kind % kKindCount == kRestart ? "restarts (clean shutdown)" : "crashes and restarts");
      return true;
    }
    case kFlushWal: {
      if (a >= kMaxServers || !w.servers[a].exists) return false;
      Server& sv = w.servers[a];
      if (sv.flushed == sv.wal.size()) return false;
      FlushTo(sv, sv.wal.size());
      Note("server %d's WAL writer flushes", a);
      return true;
    }
    case kStandby: {
      if (a >= kMaxServers || b >= kMaxServers || a == b) return false;
      Server& p = w.servers[b];
      if (w.servers[a].exists || !p.exists || p.recovery) return false;
      Server& sv = w.servers[a];
      CopyServer(sv, p);
      sv.clock_offset_us += static_cast<int64_t>(static_cast<int32_t>(st.x)) * 1000;  // (its own clock's skew)
      sv.recovery = true;
      sv.primary = b;
      sv.sync = c % 2 == 1;
      StartRun(sv);
      Count("standby: made");
      Note("server %d: a%s standby of server %d", a, sv.sync ? " synchronous" : "n asynchronous", b);
      return true;
    }
    case kReplicate: {
      if (a >= kMaxServers) return false;
      Server& sv = w.servers[a];
      if (!sv.exists || !sv.recovery || sv.primary < 0 || !w.servers[sv.primary].exists) return false;
      const Server& p = w.servers[sv.primary];
      size_t n = 0;
      while (sv.wal.size() < p.flushed && n < std::max<uint32_t>(st.x, 1)) {
        Append(sv, p.wal[sv.wal.size()]);
        ++n;
      }
      if (n == 0) return false;
      FlushTo(sv, sv.wal.size());
      Note("server %d receives %zu records of server %d (%zu of %zu)", a, n, sv.primary, sv.wal.size(), p.flushed);
      return true;
    }
    case kPromote: {
      if (a >= kMaxServers) return false;
      Server& sv = w.servers[a];
      if (!sv.exists || !sv.recovery || sv.primary < 0 || !w.servers[sv.primary].exists) return false;
      const int p = sv.primary;
      if (!sv.sync && !WithinMargin(sv, w.servers[p])) return false;
      for (size_t i = sv.wal.size(); i < w.servers[p].wal.size(); ++i) {
        if (w.servers[p].wal[i].kind == Record::kOrigin && w.servers[p].wal[i].which == 0) {
          Count("standby: promoted, a lease of its primary lost");
          break;
        }
      }
      if (sv.wal.size() < w.servers[p].wal.size()) w.lineages[sv.lineage].lossy = true;
      for (int i = 0; i < kMaxServers; ++i) {
        if (i != a && w.servers[i].exists && w.servers[i].recovery && w.servers[i].primary == p) Kill(i);
      }
      Kill(p);
      sv.recovery = false;
      sv.primary = -1;
      sv.sync = false;
      sv.timeline += 1;
      // (its databases hold the rows its primary made before the first record it did not receive)
      const Server& old_primary = w.servers[p];
      const uint64_t lost_from = sv.wal.size() < old_primary.wal.size() ? old_primary.wal[sv.wal.size()].step : w.step;
      for (Database& db : sv.cur.db) {
        if (!db.exists || db.content < 0) continue;
        w.contents.push_back(Content{db.content, lost_from, {}});
        db.content = static_cast<int>(w.contents.size() - 1);
      }
      sv.disk = sv.cur;
      RollBack(sv);
      // (shared memory stays: PostgreSQL does not restart at a promotion)
      sv.floor = w.lineages[sv.lineage].max;
      sv.run = Draw();
      sv.promoted = true;
      Count("standby: promoted");
      Note("server %d is promoted (timeline %u); server %d is gone", a, sv.timeline, p);
      return true;
    }
    case kClone: {
      if (a >= kMaxServers || b >= kMaxServers || a == b) return false;
      Server& src = w.servers[b];
      if (w.servers[a].exists || !src.exists || src.recovery) return false;
      Server& sv = w.servers[a];
      CopyServer(sv, src);
      sv.clock_offset_us += static_cast<int64_t>(static_cast<int32_t>(st.x)) * 1000;
      sv.lineage = NewLineage(src.lineage);
      if (c % 4 != 0) {
        // (the operator's rule: a clone that generates gets its own identity)
        sv.config.node = (src.config.node + 1 + c % 3) % 4;
        sv.config.digit = (src.config.digit + 1) % 3;
        sv.config.shards = (src.config.shards + 1 + c % 4) % kShardChoices;
        sv.config.launch = src.config.launch < 0 ? -1 : src.config.launch % 3 + 1;
      }
      // (its databases are copies from now on: their rows part from the source's)
      for (Database& db : sv.cur.db) {
        if (!db.exists || db.content < 0) continue;
        w.contents.push_back(Content{db.content, w.step, {}});
        db.content = static_cast<int>(w.contents.size() - 1);
      }
      sv.disk = sv.cur;
      RollBack(sv);
      StartRun(sv);
      Count("server: cloned");
      Note("server %d: a clone of server %d (pg_basebackup)%s", a, b, c % 4 == 0 ? ", its identity kept" : "");
      return true;
    }
    case kUpgrade: {
      if (a >= kMaxServers || b >= kMaxServers || a == b) return false;
      Server& src = w.servers[b];
      if (w.servers[a].exists || !src.exists || src.recovery) return false;
      if (!open_findings) {
        for (const Database& db : src.cur.db) {
          const Content* held = db.exists ? &w.contents[db.content] : nullptr;
          if (held != nullptr && (!db.copy.ext || db.copy.creating != 0) && !held->Empty()) {
            return false;  // (open finding A)
          }
        }
        uint64_t copies_ms = 0;
        int64_t copies_generator = -1;
        for (const Database& db : src.cur.db) {
          if (!db.exists || !db.copy.ext || db.copy.creating != 0) continue;
          copies_ms = std::max<uint64_t>(copies_ms, static_cast<uint64_t>(std::max(db.copy.mark, db.copy.identity)));
          if (db.copy.decimal > 0) copies_generator = std::max(copies_generator, db.copy.decimal % kDecimalUnit);
        }
        // (the start from the copies adds the failover margin, and DecimalId's skip: what lies beyond)
        // (a start whose copies hold nothing is no start from the copies: nothing added)
        const Lineage& l = w.lineages[src.lineage];
        const bool rebuilds = copies_ms > 0 || copies_generator >= 0;
        const uint64_t margin = rebuilds ? src.config.margin_ms : 0;
        const auto skip = rebuilds ? static_cast<int64_t>(DecimalFailoverSkip(margin)) : 0;
        // (only where a promotion lost records: copies that lag for any other reason are the
        // product's to answer for)
        if (l.lossy &&
            ((!l.max.empty() && l.max_ms >= copies_ms + margin) || l.max_generator >= copies_generator + 1 + skip)) {
          return false;  // (open finding B)
        }
        if (l.decimal_forgotten && l.max_generator >= copies_generator + 1 + skip) return false;  // (open finding C)
      }
      FlushTo(src, src.wal.size());
      Server& sv = w.servers[a];
      sv = Server{};
      sv.exists = true;
      sv.lineage = src.lineage;
      sv.system_identifier = static_cast<int64_t>(Draw() >> 1);
      sv.clock_offset_us = src.clock_offset_us;
      sv.max_clock_ms = src.max_clock_ms;
      sv.config = src.config;
      for (int d = 0; d < kMaxDatabases; ++d) sv.cur.db[d] = src.cur.db[d];
      for (Database& db : sv.cur.db) {
        if (db.copy.creating != 0) db.copy = Copy{};
      }
      sv.disk = sv.cur;
      for (int i = 0; i < kMaxServers; ++i) {
        if (w.servers[i].exists && w.servers[i].recovery && w.servers[i].primary == b) Kill(i);
      }
      Kill(b);
      ++w.lineages[sv.lineage].upgrades;
      w.lineages[sv.lineage].max_without_copy.clear();
      StartRun(sv);
      Count("server: pg_upgrade");
      Note("server %d: server %d upgraded by pg_upgrade (its databases and their copies, no origins)", a, b);
      return true;
    }
    case kDump: {
      if (a >= kMaxServers || b >= kMaxDatabases) return false;
      const Server& sv = w.servers[a];
      if (!sv.exists || sv.recovery) return false;
      const Database& db = sv.cur.db[b];
      if (!db.exists || !db.copy.ext || db.copy.creating != 0) return false;
      Dump d;
      d.copy = db.copy;
      d.content = db.content;
      d.step = w.step;
      if (w.dumps.size() >= kMaxDumps) w.dumps.erase(w.dumps.begin());
      w.dumps.push_back(std::move(d));
      Count("database: dumped");
      Note("dump %zu: pg_dump of server %d, database %d", w.dumps.size() - 1, a, b);
      return true;
    }
    case kRestore: {
      if (a >= static_cast<int>(w.dumps.size()) || b >= kMaxServers || c >= kMaxDatabases) return false;
      Server& sv = w.servers[b];
      if (!sv.exists || sv.recovery) return false;
      Database& db = sv.cur.db[c];
      bool had_ext = false;
      if (db.exists) {
        // (the restore's rules: into a database that holds no rows yet, which no transaction uses
        // while it is filled, nor had read before it, in a transaction still open)
        const Content& held = w.contents[db.content];
        if (!held.Empty() || db.copy.creating != 0) return false;
        for (const Session& s : w.sessions) {
          if (s.exists && s.server == b && s.db == c && (s.in_call || s.engine.fresh)) return false;
        }
        had_ext = db.copy.ext;
      }
      const Dump& d = w.dumps[a];
      Record r{Record::kDatabase, c};
      r.database.exists = true;
      r.database.copy = d.copy;
      W->contents.push_back(Content{d.content, d.step, {}});
      r.database.content = static_cast<int>(W->contents.size() - 1);
      Append(sv, r);
      FlushTo(sv, sv.wal.size());
      if (!had_ext) InvalidateCopy(b, c);  // (CREATE EXTENSION; the copy's setval sends nothing)
      Count("database: restored");
      Note("dump %d restored into server %d, database %d", a, b, c);
      return true;
    }
    case kOwnerSet: {
      if (a >= kMaxServers || b >= kMaxDatabases) return false;
      Server& sv = w.servers[a];
      if (!sv.exists || sv.recovery) return false;
      const Database& db = sv.cur.db[b];
      if (!db.exists || !db.copy.ext || db.copy.creating != 0) return false;
      Record r{Record::kDatabase, b};
      r.database = db;
      // (raised only: an owner who lowers her copy below her rows breaks the restore's rule, as a
      // data-only restore of an older dump does)
      const auto at = static_cast<int64_t>(ServerNowMs(sv) + st.x);
      r.database.copy.mark = std::max(r.database.copy.mark, at);
      r.database.copy.identity = std::max(r.database.copy.identity, at);
      r.database.copy.mark_called = true;
      Append(sv, r);
      FlushTo(sv, sv.wal.size());
      Count("database: its owner set the copy ahead");
      Note("the owner of server %d's database %d sets her copy %u ms ahead of the clock", a, b, st.x);
      return true;
    }
    case kCreateDb: {
      if (a >= kMaxServers || b >= kMaxDatabases) return false;
      Server& sv = w.servers[a];
      if (!sv.exists || sv.recovery || sv.cur.db[b].exists) return false;
      Record r{Record::kDatabase, b};
      r.database.exists = true;
      NewContent(r.database);
      Append(sv, r);
      FlushTo(sv, sv.wal.size());
      Note("server %d: CREATE DATABASE %d (no extension yet)", a, b);
      return true;
    }
    case kCancel: {
      if (a >= kMaxSessions) return false;
      Session& s = w.sessions[a];
      if (!s.exists || !s.in_call || !s.waiting) return false;
      s.cancel = true;
      Note("s%d: cancel", a);
      return true;
    }
    case kKindCount:
      break;
  }
  return false;
}

void InitWorld(World& w) {
  W = &w;
  w.lineages.push_back(Lineage{});
  Server& sv = w.servers[0];
  sv.exists = true;
  sv.lineage = 0;
  sv.system_identifier = static_cast<int64_t>(Draw() >> 1);
  // One database with the extension, as CREATE EXTENSION left it on a server that made no value.
  Database& db = sv.cur.db[0];
  db.exists = true;
  db.copy.ext = true;
  NewContent(db);
  sv.disk = sv.cur;
  StartRun(sv);
}

// ==== the scheduler's choices ========================================================================

struct Rng {
  uint64_t state;
  uint64_t Next() { return state = Mix(state); }
  uint32_t Below(uint32_t n) { return n == 0 ? 0 : static_cast<uint32_t>(Next() % n); }
  bool Chance(uint32_t percent) { return Below(100) < percent; }
};

template <typename Pred>
int PickIndex(Rng& rng, int count, Pred pred) {
  int found[16], n = 0;
  for (int i = 0; i < count && n < 16; ++i) {
    if (pred(i)) found[n++] = i;
  }
  return n == 0 ? -1 : found[rng.Below(static_cast<uint32_t>(n))];
}

// ---- plots ------------------------------------------------------------------------------------------

// A plot is a kind of history, in goals; the scheduler works toward the next goal now and then,
// its random steps (values, interleavings, crashes, reloads, jumps) in between. Plots know nothing
// of the routes: they make histories that the durable state must survive, more often than chance
// alone would.
enum Goal : uint8_t {
  kGEnd,           // (a plot's array is padded with it)
  kGCallsA,        // a few calls in A's database (a generator's, mostly)
  kGDecimalA,      // a few DecimalId calls there
  kGCallsB,        // a few calls in B's database
  kGDecimalB,
  kGCloneB,        // B: a clone of A, its clock behind
  kGCloneBSame,    // ... keeping A's identity (the operator's rule broken for what they share)
  kGStandbyB,      // B: an asynchronous standby of A, its clock behind
  kGReplicateB,    // B receives all A flushed
  kGPromoteB,      // B is promoted: A is gone, B is A from now on
  kGDumpA,         // A's database dumped
  kGRestoreB,      // ... restored into a new database of B
  kGRestoreA,      // ... restored into a new database of A (which becomes A's database)
  kGJumpBackB,     // B's clock a little back
  kGJumpAheadA,    // A's clock far ahead
  kGJumpRightA,    // A's clock right again (or a little behind)
  kGJumpBackA,     // A's clock a little back
  kGReloadA,       // A's identity (a part of it) changes
  kGLaunchA,       // A gets a launch id
  kGRestartAtClockA,
  kGDropExtA,      // DROP EXTENSION in A's database
  kGCreateExtA,    // CREATE EXTENSION there
  kGUpgradeA,      // pg_upgrade of A: the new server is A
  kGCrashA,
  kGMarginA,       // A's failover margin raised
  kGTick,          // a second or a few pass
  kGCloneBAhead,   // B: a clone of A (its own identity), its clock ahead
  kGDumpB,         // B's database dumped (restored by kGRestoreA)
  kGDropExtB,      // DROP EXTENSION in B's database
  kGCreateExtB,    // CREATE EXTENSION there
  kGQuietA,        // A's calls end (before a crash)
  kGFlushMidCallA, // A's WAL writer flushes while a call of A has written WAL it has not flushed
  kGLaunchBAsA,    // B's launch id set to A's (a deployment's launch id given to another server)
  kGNode1A,        // A's identity set to node 1, digit 1, shards 0-3
  kGNode2A,        // ... to node 2, digit 2, shards 4-7 (disjoint in every part)
  kGNewDbA,        // a new database of A (no extension yet) becomes A's database
  kGQuiet,         // (first goal) a focused schedule makes no random reload or clock jump meanwhile
};
constexpr uint8_t kPlots[][32] = {
    {kGCallsA, kGDumpA, kGCloneB, kGRestoreB, kGJumpBackB, kGCallsB},
    {kGStandbyB, kGReplicateB, kGTick, kGCallsA, kGPromoteB, kGCallsA},
    {kGStandbyB, kGReplicateB, kGTick, kGCallsA, kGPromoteB, kGQuietA, kGCrashA, kGCallsA},
    {kGCallsA, kGDumpA, kGCloneBAhead, kGRestoreB, kGTick, kGDropExtB, kGCreateExtB, kGJumpBackB, kGCallsB},
    {kGCallsA, kGDumpA, kGCloneBAhead, kGRestoreB, kGTick, kGCallsB, kGJumpBackB, kGCallsB},
    {kGCallsA, kGDumpA, kGCloneBAhead, kGRestoreB, kGCallsB, kGDumpB, kGRestoreA, kGCallsA},
    {kGLaunchA, kGDecimalA, kGDropExtA, kGCreateExtA, kGUpgradeA, kGDecimalA},
    {kGMarginA, kGLaunchA, kGDecimalA, kGStandbyB, kGReplicateB, kGPromoteB, kGStandbyB, kGDecimalA, kGPromoteB,
     kGDecimalA},
    {kGMarginA, kGLaunchA, kGDecimalA, kGStandbyB, kGReplicateB, kGQuietA, kGCrashA, kGTick, kGDecimalA, kGQuietA,
     kGCrashA, kGTick, kGDecimalA, kGQuietA, kGCrashA, kGTick, kGDecimalA, kGQuietA, kGCrashA, kGTick, kGDecimalA,
     kGQuietA, kGCrashA, kGTick, kGDecimalA, kGQuietA, kGCrashA, kGTick, kGDecimalA, kGPromoteB, kGDecimalB},
    {kGStandbyB, kGReplicateB, kGTick, kGCallsA, kGPromoteB, kGUpgradeA, kGCallsA},
    {kGCallsA, kGDropExtA, kGCreateExtA, kGDumpA, kGCloneBSame, kGRestoreB, kGJumpBackB, kGCallsB},
    {kGCloneB, kGCallsA, kGDumpA, kGRestoreB, kGCallsB, kGJumpBackB, kGCallsB},
    {kGCallsA, kGDumpA, kGCallsA, kGRestoreA, kGJumpBackA, kGCallsA},
    {kGStandbyB, kGReplicateB, kGCallsA, kGPromoteB, kGCallsB},
    {kGStandbyB, kGReplicateB, kGCallsA, kGPromoteB, kGCrashA, kGCallsA, kGStandbyB, kGCallsA, kGPromoteB,
     kGCallsB},
    {kGMarginA, kGLaunchA, kGDecimalA, kGStandbyB, kGReplicateB, kGCrashA, kGDecimalA, kGCrashA, kGDecimalA,
     kGPromoteB, kGDecimalB},
    {kGJumpAheadA, kGCallsA, kGReloadA, kGJumpRightA, kGRestartAtClockA, kGCallsA, kGReloadA, kGCallsA},
    {kGCallsA, kGDropExtA, kGCreateExtA, kGCallsA, kGUpgradeA, kGCallsA},
    {kGStandbyB, kGReplicateB, kGCallsA, kGPromoteB, kGUpgradeA, kGCallsA},
    {kGCallsA, kGJumpBackA, kGCallsA, kGDropExtA, kGCallsA, kGJumpBackA, kGCreateExtA, kGCallsA},
    // (a copy ahead of B's clock, written by A after B parted from it: dropped and made again in B)
    {kGCloneB, kGCallsA, kGDumpA, kGRestoreB, kGDropExtB, kGCreateExtB, kGCallsB},
    {kGCloneB, kGCallsA, kGDumpA, kGRestoreB, kGTick, kGDropExtB, kGCreateExtB, kGJumpBackB, kGCallsB},
    {kGCloneB, kGCallsA, kGDropExtA, kGCreateExtA, kGDumpA, kGRestoreB, kGCallsB},
    {kGCloneB, kGCallsA, kGDumpA, kGRestoreB, kGCallsB, kGJumpBackB, kGCallsB, kGJumpBackB, kGCallsB},
    // (a copy B raised, given back to A)
    {kGCloneBAhead, kGCallsA, kGDumpA, kGRestoreB, kGCallsB, kGDumpB, kGRestoreA, kGCallsA},
    // (DecimalIds across pg_upgrade, crashes in the start from the copies)
    {kGLaunchA, kGDecimalA, kGDropExtA, kGCreateExtA, kGDecimalA, kGUpgradeA, kGDecimalA},
    {kGMarginA, kGLaunchA, kGDecimalA, kGUpgradeA, kGDecimalA, kGFlushMidCallA, kGCrashA, kGDecimalA, kGCrashA,
     kGDecimalA},
    {kGCallsA, kGLaunchA, kGDecimalA, kGUpgradeA, kGCallsA, kGFlushMidCallA, kGCrashA, kGJumpBackA, kGCallsA},
    // (a promoted start under an identity lease, with a reload or a restart_at_clock() meanwhile)
    {kGJumpAheadA, kGCallsA, kGReloadA, kGJumpRightA, kGRestartAtClockA, kGCallsA, kGStandbyB, kGReplicateB,
     kGPromoteB, kGCallsA, kGReloadA, kGCallsA},
    {kGStandbyB, kGReplicateB, kGCallsA, kGPromoteB, kGReloadA, kGCallsA, kGRestartAtClockA, kGCallsA},
    // (a copy B raised, given back to A, whose clock went back)
    {kGCloneB, kGCallsA, kGDumpA, kGRestoreB, kGCallsB, kGDumpB, kGRestoreA, kGJumpBackA, kGCallsA},
    // (A's DecimalIds restored into B, which takes A's launch id in the middle of its calls)
    {kGLaunchA, kGCloneB, kGDecimalA, kGDumpA, kGRestoreB, kGDecimalB, kGLaunchBAsA, kGDecimalB},
    // (a second episode ahead under the identity restart_at_clock() gave, a start under the first
    // identity, then the second given back and moved again: a new database makes its values)
    {kGQuiet, kGCreateExtA, kGNode1A, kGJumpAheadA, kGCallsA, kGNode2A, kGJumpRightA, kGRestartAtClockA, kGCallsA, kGJumpAheadA, kGCallsA,
     kGJumpRightA, kGNode1A, kGCrashA, kGCallsA, kGNode2A, kGRestartAtClockA, kGNewDbA, kGCreateExtA, kGCallsA},
};
// (the plots from here on are drawn as often as all the others together: they reach the rarer
// histories, each a few goals that must meet)
constexpr int kFirstLatePlot = 20;
constexpr int kPlotCount = static_cast<int>(std::size(kPlots));

// The step toward the plot's next goal, where one can be made now (false: not now).
bool PlotStep(World& w, Rng& rng, Step* out) {
  if (w.plot_at >= w.plot.size()) return false;
  const auto done = [&] {
    ++w.plot_at;
    w.plot_left = 0;
  };
  Server& a = w.servers[w.role_a];
  if (!a.exists || a.recovery) {
    w.plot.clear();  // (A is gone: the plot ends)
    return false;
  }
  const auto free_server = [&]() -> int {
    for (int i = 0; i < kMaxServers; ++i) {
      if (!w.servers[i].exists) return i;
    }
    return -1;
  };
  const auto calls_in = [&](int server, int db, bool decimal) -> bool {
    if (w.plot_left == 0) w.plot_left = 3 + static_cast<int>(rng.Below(5));
    if (server < 0 || db < 0 || !w.servers[server].exists || !w.servers[server].cur.db[db].exists) {
      done();
      return false;
    }
    int idle = -1, free_slot = -1, idle_elsewhere = -1;
    bool busy = false, waiting = false;
    for (int i = 0; i < kMaxSessions; ++i) {
      const Session& s = w.sessions[i];
      if (!s.exists && free_slot < 0) free_slot = i;
      if (s.exists && !s.in_call && s.server == server && s.db == db) idle = i;
      if (s.exists && !s.in_call && (s.server != server || s.db != db)) idle_elsewhere = i;
      busy = busy || (s.exists && s.in_call && s.server == server && s.db == db);
      waiting = waiting || (s.exists && s.in_call && s.waiting && s.server == server && s.db == db);
    }
    if (w.plot_left < 0) {
      // (the calls started: the goal is reached once they ended, so that the next goal, a dump or
      // a clone, finds their values made)
      if (!busy) done();
      if (!busy || !waiting) return false;
      // (a call that waits for the clock, a copy's or the next DecimalId take's: time passes)
      *out = Step{kTick, 0, 0, 0, 1000 * (100 + rng.Below(1000))};
      return true;
    }
    if (idle < 0 && free_slot < 0 && idle_elsewhere >= 0) {
      *out = Step{kDisconnect, static_cast<uint8_t>(idle_elsewhere)};
      return true;
    }
    if (idle < 0 && free_slot < 0) return false;
    if (idle < 0) {
      *out = Step{kConnect, static_cast<uint8_t>(free_slot), static_cast<uint8_t>(server), static_cast<uint8_t>(db),
                  rng.Below(1 << 16)};
      return true;
    }
    const Database& d = w.servers[server].cur.db[db];
    const Op op = !d.copy.ext ? Op::kCreateExtension : decimal ? Op::kDecimalId : Op::kGenerate;
    *out = Step{kCall, static_cast<uint8_t>(idle), static_cast<uint8_t>(op),
                static_cast<uint8_t>(rng.Chance(60) ? w.sessions[idle].favorite[rng.Below(2)] : rng.Below(kDecimalId)),
                rng.Below(kSimShards)};
    if (--w.plot_left == 0) {
      if (w.focused) {
        w.plot_left = -1;
      } else {
        done();
      }
    }
    return true;
  };
  const auto fresh_db = [&](int server) -> int {
    for (int d = 0; d < kMaxDatabases; ++d) {
      if (!w.servers[server].cur.db[d].exists) return d;
    }
    return -1;
  };
  const auto op_in_a = [&](Op op) -> bool {
    for (int i = 0; i < kMaxSessions; ++i) {
      const Session& s = w.sessions[i];
      if (s.exists && !s.in_call && s.server == w.role_a && s.db == w.db_a) {
        *out = Step{kCall, static_cast<uint8_t>(i), static_cast<uint8_t>(op)};
        done();
        return true;
      }
    }
    return calls_in(w.role_a, w.db_a, false);  // (a session there first)
  };
  const int skew = -static_cast<int>(200 + rng.Below(3000));
  switch (w.plot[w.plot_at]) {
    case kGCallsA:
      return calls_in(w.role_a, w.db_a, false);
    case kGDecimalA:
      return calls_in(w.role_a, w.db_a, true);
    case kGCallsB:
      return calls_in(w.role_b, w.db_b, false);
    case kGDecimalB:
      return calls_in(w.role_b, w.db_b, true);
    case kGCloneB:
    case kGCloneBSame:
    case kGStandbyB: {
      const int to = free_server();
      if (to < 0) return false;
      const bool standby = w.plot[w.plot_at] == kGStandbyB;
      *out = Step{standby ? kStandby : kClone, static_cast<uint8_t>(to), static_cast<uint8_t>(w.role_a),
                  static_cast<uint8_t>(standby ? 0 : w.plot[w.plot_at] == kGCloneBSame ? 0 : 1 + rng.Below(3)),
                  static_cast<uint32_t>(skew)};
      w.role_b = to;
      w.db_b = w.db_a;
      done();
      return true;
    }
    case kGReplicateB:
      done();
      if (w.role_b < 0 || !w.servers[w.role_b].exists || !w.servers[w.role_b].recovery) return false;
      *out = Step{kReplicate, static_cast<uint8_t>(w.role_b), 0, 0, 1000};
      return true;
    case kGPromoteB:
      if (w.role_b < 0 || !w.servers[w.role_b].exists || !w.servers[w.role_b].recovery) {
        done();
        return false;
      }
      *out = Step{kPromote, static_cast<uint8_t>(w.role_b)};
      if (!WithinMargin(w.servers[w.role_b], a)) *out = Step{kReplicate, static_cast<uint8_t>(w.role_b), 0, 0, 1};
      if (out->kind == kPromote) {
        done();
        w.role_a = w.role_b;
        w.role_b = -1;
      }
      return true;
    case kGDumpA:
      done();
      *out = Step{kDump, static_cast<uint8_t>(w.role_a), static_cast<uint8_t>(w.db_a)};
      return true;
    case kGRestoreB:
    case kGRestoreA: {
      const int server = w.plot[w.plot_at] == kGRestoreB ? w.role_b : w.role_a;
      done();
      if (server < 0 || !w.servers[server].exists || w.servers[server].recovery || w.dumps.empty()) return false;
      const int db = fresh_db(server);
      if (db < 0) return false;
      *out = Step{kRestore, static_cast<uint8_t>(w.dumps.size() - 1), static_cast<uint8_t>(server),
                  static_cast<uint8_t>(db)};
      if (server == w.role_b) w.db_b = db;
      if (server == w.role_a) w.db_a = db;
      return true;
    }
    case kGJumpBackB:
      done();
      if (w.role_b < 0 || !w.servers[w.role_b].exists) return false;
      *out = Step{kJump, static_cast<uint8_t>(w.role_b), 0, 0, static_cast<uint32_t>(skew)};
      return true;
    case kGJumpBackA:
      done();
      *out = Step{kJump, static_cast<uint8_t>(w.role_a), 0, 0, static_cast<uint32_t>(skew)};
      return true;
    case kGJumpAheadA:
      done();
      *out = Step{kJump, static_cast<uint8_t>(w.role_a), 0, 0, 60000 + rng.Below(2 * 86400) * 1000};
      return true;
    case kGJumpRightA: {
      done();
      const int64_t back = -a.clock_offset_us / 1000 - static_cast<int64_t>(rng.Below(3000));
      *out = Step{kJump, static_cast<uint8_t>(w.role_a), 0, 0, static_cast<uint32_t>(static_cast<int32_t>(back))};
      return true;
    }
    case kGReloadA:
      done();
      *out = Step{kReload, static_cast<uint8_t>(w.role_a), static_cast<uint8_t>(rng.Below(3)),
                  static_cast<uint8_t>(rng.Below(256))};
      return true;
    case kGLaunchA:
      done();
      *out = Step{kReload, static_cast<uint8_t>(w.role_a), 3, static_cast<uint8_t>(1 + rng.Below(3))};
      return true;
    case kGQuiet:
      done();
      w.quiet = true;
      return false;
    case kGNode1A:
    case kGNode2A:
      done();
      *out = Step{kReload, static_cast<uint8_t>(w.role_a), 7, static_cast<uint8_t>(w.plot[w.plot_at - 1] == kGNode1A ? 1 : 2)};
      return true;
    case kGNewDbA: {
      done();
      const int db = fresh_db(w.role_a);
      if (db < 0) return false;
      *out = Step{kCreateDb, static_cast<uint8_t>(w.role_a), static_cast<uint8_t>(db)};
      w.db_a = db;
      return true;
    }
    case kGMarginA:
      done();
      *out = Step{kReload, static_cast<uint8_t>(w.role_a), 4, 3};
      return true;
    case kGRestartAtClockA:
      return op_in_a(Op::kRestartAtClock);
    case kGDropExtA:
      return op_in_a(Op::kDropExtension);
    case kGCreateExtA:
      return op_in_a(Op::kCreateExtension);
    case kGUpgradeA: {
      const int to = free_server();
      if (to < 0) return false;
      *out = Step{kUpgrade, static_cast<uint8_t>(to), static_cast<uint8_t>(w.role_a)};
      done();
      w.role_a = to;
      return true;
    }
    case kGCrashA:
      done();
      *out = Step{rng.Chance(50) ? kCrash : kRestart, static_cast<uint8_t>(w.role_a)};
      return true;
    case kGTick:
      done();
      *out = Step{kTick, 0, 0, 0, 1000 * (1100 + rng.Below(3000))};
      return true;
    case kGCloneBAhead: {
      const int to = free_server();
      if (to < 0) return false;
      *out = Step{kClone, static_cast<uint8_t>(to), static_cast<uint8_t>(w.role_a), static_cast<uint8_t>(1 + rng.Below(3)),
                  500 + rng.Below(3000)};
      w.role_b = to;
      w.db_b = w.db_a;
      done();
      return true;
    }
    case kGDumpB:
      done();
      if (w.role_b < 0 || w.db_b < 0 || !w.servers[w.role_b].exists) return false;
      *out = Step{kDump, static_cast<uint8_t>(w.role_b), static_cast<uint8_t>(w.db_b)};
      return true;
    case kGDropExtB:
    case kGCreateExtB: {
      if (w.role_b < 0 || w.db_b < 0 || !w.servers[w.role_b].exists) {
        done();
        return false;
      }
      for (int i = 0; i < kMaxSessions; ++i) {
        const Session& sn = w.sessions[i];
        if (sn.exists && !sn.in_call && sn.server == w.role_b && sn.db == w.db_b) {
          *out = Step{kCall, static_cast<uint8_t>(i),
                      static_cast<uint8_t>(w.plot[w.plot_at] == kGDropExtB ? Op::kDropExtension : Op::kCreateExtension)};
          done();
          return true;
        }
      }
      return calls_in(w.role_b, w.db_b, false);
    }
    case kGFlushMidCallA:
      for (const Session& sn : w.sessions) {
        if (sn.exists && sn.in_call && sn.server == w.role_a && a.flushed < a.wal.size()) {
          done();
          *out = Step{kFlushWal, static_cast<uint8_t>(w.role_a)};
          return true;
        }
      }
      return false;
    case kGLaunchBAsA:
      done();
      if (w.role_b < 0 || !w.servers[w.role_b].exists) return false;
      *out = Step{kReload, static_cast<uint8_t>(w.role_b), 3, static_cast<uint8_t>(a.config.launch > 0 ? a.config.launch : 1)};
      return true;
    case kGQuietA:
      for (const Session& sn : w.sessions) {
        if (sn.exists && sn.in_call && sn.server == w.role_a) return false;
      }
      done();
      return false;
    default:
      done();
      return false;
  }
}

Step Pick(World& w, Rng& rng) {
  // (while a plot runs, its servers are the plot's to make, promote or upgrade: random ones would
  // end it before its last goal)
  const bool plotting = w.focused && w.plot_at < w.plot.size();
  if (w.plot_at < w.plot.size() && rng.Chance(plotting ? 20 : 10)) {
    Step st;
    if (PlotStep(w, rng, &st)) return st;
  }
  const auto session_running = [&](int i) {
    const Session& s = w.sessions[i];
    return s.exists && s.in_call && s.fiber.Running();
  };
  // (a session that waits for the lock is resumed once it is free; one that waits for the clock or
  // a standby, now and then)
  const bool resume_waiting = rng.Chance(15);
  const auto session_runnable = [&](int i) {
    const Session& s = w.sessions[i];
    if (!session_running(i)) return false;
    if (s.wants_lock != 0) {
      const Shm& m = *w.servers[s.server].shm;
      return s.wants_lock == 2 ? m.lock_exclusive < 0 && m.lock_shared == 0 : m.lock_exclusive < 0;
    }
    return !s.waiting || resume_waiting;
  };
  const auto session_idle = [&](int i) { return w.sessions[i].exists && !w.sessions[i].in_call; };
  const auto session_waiting = [&](int i) { return session_running(i) && w.sessions[i].waiting; };
  const auto server_up = [&](int i) { return w.servers[i].exists; };
  const auto primary = [&](int i) { return w.servers[i].exists && !w.servers[i].recovery; };
  const auto standby = [&](int i) { return w.servers[i].exists && w.servers[i].recovery; };
  const auto free_server = [&](int i) { return !w.servers[i].exists; };
  const int running = PickIndex(rng, kMaxSessions, session_runnable);
  if (running >= 0 && rng.Chance(60)) return Step{kRun, static_cast<uint8_t>(running)};

  int sessions = 0;
  for (const Session& s : w.sessions) sessions += s.exists ? 1 : 0;
  bool sync_wait = false;
  for (const Session& s : w.sessions) {
    if (s.exists && s.waiting) {
      for (const Server& st : w.servers) sync_wait = sync_wait || (st.exists && st.recovery && st.sync);
    }
  }
  struct Weight {
    Kind kind;
    int weight;
  };
  bool problem = false;  // (an operator fixes a misspelt line soon)
  for (const Server& sv : w.servers) problem = problem || (sv.exists && sv.config.problem);
  const Weight weights[] = {
      {kCall, 5000},     {kConnect, sessions < 3 ? 4000 : 200}, {kTick, 1500},    {kCommit, 120},   {kJump, 25},
      {kReload, problem ? 600 : 25}, {kCrash, 10},               {kRestart, 5},    {kFlushWal, 300}, {kStandby, 10},
      {kReplicate, sync_wait ? 3000 : 400},                     {kPromote, 10},   {kClone, 3},      {kUpgrade, 3},
      {kDump, 15},       {kRestore, 15},                         {kOwnerSet, 3},   {kCreateDb, 5},   {kCancel, 150},
      {kDisconnect, 40},
  };
  // Each schedule leans to one kind of history (its theme), the others still possible: failovers,
  // dumps and restores, identities and clocks, upgrades and clones, or none.
  enum Theme { kBalanced, kFailovers, kRestores, kIdentities, kUpgrades, kThemeCount };
  const auto lean = [&](Kind kind) {
    if (plotting && (kind == kUpgrade || kind == kPromote || kind == kClone || kind == kStandby)) return 0;
    if (plotting && w.quiet && (kind == kReload || kind == kJump)) return 0;
    switch (w.theme) {
      case kFailovers:
        return kind == kStandby || kind == kPromote ? 4 : kind == kCrash || kind == kRestore ? 0 : 1;
      case kRestores:
        return kind == kDump || kind == kRestore || kind == kOwnerSet ? 4 : kind == kJump || kind == kClone ? 2 : 1;
      case kIdentities:
        return kind == kReload || kind == kJump ? 3 : kind == kStandby || kind == kUpgrade ? 0 : 1;
      case kUpgrades:
        return kind == kUpgrade || kind == kClone ? 4 : kind == kCreateDb ? 3 : 1;
      default:
        return 1;
    }
  };
  Weight leaned[std::size(weights)];
  int total = 0;
  for (size_t i = 0; i < std::size(weights); ++i) {
    leaned[i] = Weight{weights[i].kind, weights[i].weight * lean(weights[i].kind)};
    total += leaned[i].weight;
  }
  for (int attempt = 0; attempt < 8; ++attempt) {
    int pick = static_cast<int>(rng.Below(static_cast<uint32_t>(total)));
    Kind kind = kTick;
    for (const Weight& x : leaned) {
      if (pick < x.weight) {
        kind = x.kind;
        break;
      }
      pick -= x.weight;
    }
    Step st{kind};
    switch (kind) {
      case kRun:
        break;
      case kCall: {
        // (mostly a session on a primary: a standby's make only UUIDv7s, unique by their random bits)
        const bool on_primary = rng.Chance(90);
        const int s = PickIndex(rng, kMaxSessions, [&](int i) {
          return session_idle(i) && (!on_primary || !w.servers[w.sessions[i].server].recovery);
        });
        if (s < 0) continue;
        st.a = static_cast<uint8_t>(s);
        const Server& server = w.servers[w.sessions[s].server];
        const Database& db = server.cur.db[w.sessions[s].db];
        const uint32_t op = rng.Below(100);
        const uint32_t decimal = w.theme == kFailovers || w.theme == kUpgrades ? 78 : 86;
        const uint32_t restart = w.theme == kIdentities ? 87 : 93;
        const uint32_t drop = w.theme == kRestores || w.theme == kUpgrades ? 94 : 97;
        st.b = static_cast<uint8_t>(!db.copy.ext && rng.Chance(60) ? Op::kCreateExtension
                                    : op < std::min(decimal, restart) ? Op::kGenerate
                                    : op < 93 && op < restart        ? Op::kDecimalId
                                    : op < drop                      ? Op::kRestartAtClock
                                    : !db.copy.ext                   ? Op::kCreateExtension
                                                                     : Op::kDropExtension);
        if (st.b == static_cast<uint8_t>(Op::kDecimalId) && server.config.launch < 0 && rng.Chance(80)) {
          st.b = static_cast<uint8_t>(Op::kGenerate);
        }
        st.c = static_cast<uint8_t>(rng.Chance(70) ? w.sessions[s].favorite[rng.Below(2)] : rng.Below(kDecimalId));
        st.x = rng.Below(kSimShards);
        // (mostly a shard the server owns)
        const identity::Ranges owned = ShardsOf(server.config.shards);
        for (int tries = 0; tries < 8 && rng.Chance(90) && !owned.Contains(st.x); ++tries) st.x = rng.Below(kSimShards);
        return st;
      }
      case kCommit:
      case kDisconnect: {
        const int s = PickIndex(rng, kMaxSessions, session_idle);
        if (s < 0) continue;
        st.a = static_cast<uint8_t>(s);
        return st;
      }
      case kConnect: {
        const int s = PickIndex(rng, kMaxSessions, [&](int i) { return !w.sessions[i].exists; });
        const bool want_primary = rng.Chance(90);
        const int sv = PickIndex(rng, kMaxServers, [&](int i) { return want_primary ? primary(i) : server_up(i); });
        if (s < 0 || sv < 0) continue;
        const int db = PickIndex(rng, kMaxDatabases, [&](int i) { return w.servers[sv].cur.db[i].exists; });
        if (db < 0) continue;
        st.a = static_cast<uint8_t>(s);
        st.b = static_cast<uint8_t>(sv);
        st.c = static_cast<uint8_t>(db);
        st.x = rng.Below(1 << 16);
        return st;
      }
      case kTick: {
        const uint32_t r = rng.Below(100);
        st.x = r < 85 ? 1 + rng.Below(2000) : r < 98 ? 1000 * (1 + rng.Below(700)) : 1000 * (1000 + rng.Below(12000));
        return st;
      }
      case kJump: {
        const int sv = PickIndex(rng, kMaxServers, server_up);
        if (sv < 0) continue;
        st.a = static_cast<uint8_t>(sv);
        const int64_t offset_ms = w.servers[sv].clock_offset_us / 1000;
        int64_t ms;
        if (rng.Chance(50)) {
          ms = rng.Chance(85) ? 1 + rng.Below(12000) : 1 + static_cast<int64_t>(rng.Below(3 * 86400)) * 1000;
        } else if (offset_ms > 0 && rng.Chance(70)) {
          ms = -static_cast<int64_t>(rng.Below(static_cast<uint32_t>(std::min<int64_t>(offset_ms + 4000, 1 << 30))));
        } else {
          ms = -static_cast<int64_t>(1 + rng.Below(8000));
        }
        st.x = static_cast<uint32_t>(static_cast<int32_t>(ms));
        return st;
      }
      case kReload: {
        const int sv = PickIndex(rng, kMaxServers, server_up);
        if (sv < 0) continue;
        st.a = static_cast<uint8_t>(sv);
        const uint32_t r = rng.Below(100);
        st.b = static_cast<uint8_t>(r < 28 ? 0 : r < 44 ? 1 : r < 66 ? 2 : r < 80 ? 3 : r < 88 ? 4 : r < 91 ? 5 : 6);
        // (a misspelt line is fixed by the next reload of its server)
        if (w.servers[sv].config.problem && rng.Chance(80)) st.b = static_cast<uint8_t>(rng.Below(4));
        st.c = static_cast<uint8_t>(rng.Below(256));
        return st;
      }
      case kCrash:
      case kRestart:
      case kFlushWal: {
        const bool want_primary = rng.Chance(80);
        const int sv = PickIndex(rng, kMaxServers, [&](int i) { return want_primary ? primary(i) : server_up(i); });
        if (sv < 0) continue;
        st.a = static_cast<uint8_t>(sv);
        return st;
      }
      case kStandby:
      case kClone:
      case kUpgrade: {
        const int to = PickIndex(rng, kMaxServers, free_server);
        const int from = PickIndex(rng, kMaxServers, primary);
        if (to < 0 || from < 0) continue;
        st.a = static_cast<uint8_t>(to);
        st.b = static_cast<uint8_t>(from);
        st.c = static_cast<uint8_t>(rng.Below(8));
        // (the new server's clock: its skew from its source's, mostly behind)
        st.x = static_cast<uint32_t>(rng.Chance(30) ? 0 : static_cast<int32_t>(rng.Below(4000)) - 3000);
        return st;
      }
      case kReplicate:
      case kPromote: {
        // (a standby the plot will promote lags until then: what it never receives is the point)
        bool lags = false;
        for (size_t g = w.plot_at; g < w.plot.size(); ++g) lags = lags || w.plot[g] == kGPromoteB;
        const int sv = PickIndex(rng, kMaxServers, [&](int i) { return standby(i) && !(lags && i == w.role_b); });
        if (sv < 0) continue;
        st.a = static_cast<uint8_t>(sv);
        st.x = rng.Chance(30) ? 1000 : 1 + rng.Below(12);
        return st;
      }
      case kDump:
      case kOwnerSet:
      case kCreateDb: {
        const int sv = PickIndex(rng, kMaxServers, primary);
        if (sv < 0) continue;
        st.a = static_cast<uint8_t>(sv);
        st.b = static_cast<uint8_t>(rng.Below(kMaxDatabases));
        st.x = rng.Chance(60) ? 100 + rng.Below(4000) : 20000 + rng.Below(4000000);
        return st;
      }
      case kRestore: {
        if (w.dumps.empty()) continue;
        const int sv = PickIndex(rng, kMaxServers, primary);
        if (sv < 0) continue;
        st.a = static_cast<uint8_t>(rng.Below(static_cast<uint32_t>(w.dumps.size())));
        st.b = static_cast<uint8_t>(sv);
        st.c = static_cast<uint8_t>(rng.Below(kMaxDatabases));
        return st;
      }
      case kCancel: {
        const int s = PickIndex(rng, kMaxSessions, session_waiting);
        if (s < 0) continue;
        st.a = static_cast<uint8_t>(s);
        return st;
      }
      case kKindCount:
        break;
    }
  }
  return Step{kTick, 0, 0, 0, 1000};
}

// ==== running, shrinking, printing ==================================================================

}  // namespace

Outcome Run(const std::vector<Step>& steps, bool trace) {
  World w;
  InitWorld(w);
  w.trace = trace;
  int line = 0;
  int run_session = -1;  // consecutive steps of one session's call print as one line
  for (size_t i = 0; i < steps.size() && !w.stop; ++i) {
    w.step = i;
    w.note.clear();
    const Step& st = steps[i];
    const bool is_run = st.kind % kKindCount == kRun;
    if (!Exec(st)) continue;
    ++w.out.steps;
    if (!trace) continue;
    if (is_run && run_session == st.a) {
      const size_t colon = w.note.find(": ");
      printf(", %s", colon == std::string::npos ? w.note.c_str() : w.note.c_str() + colon + 2);
    } else {
      if (line > 0) printf("\n");
      printf("%3d. %s", ++line, w.note.c_str());
    }
    run_session = is_run ? st.a : -1;
  }
  if (trace && line > 0) printf("\n");
  W = nullptr;
  return w.out;
}

Outcome Explore(uint64_t seed, size_t length, std::vector<Step>* taken) {
  World w;
  InitWorld(w);
  Rng rng{seed * 0x2545F4914F6CDD1Dull + 1};
  w.theme = static_cast<int>(rng.Below(5));
  // (SIM_PLOT=n: every schedule follows plot n, to see what one kind of history reaches)
  static const int forced_plot = getenv("SIM_PLOT") != nullptr ? atoi(getenv("SIM_PLOT")) : -1;
  w.focused = rng.Chance(50);
  if (rng.Chance(70) || forced_plot >= 0) {
    const uint32_t drawn = rng.Chance(50) ? rng.Below(kPlotCount) : kFirstLatePlot + rng.Below(kPlotCount - kFirstLatePlot);
    for (const uint8_t goal : kPlots[forced_plot >= 0 ? forced_plot % kPlotCount : drawn]) {
      if (goal != kGEnd) w.plot.push_back(goal);
    }
  }
  taken->clear();
  // The first server's identity and launch id, as its operator set them (or left them).
  const Step first[] = {{kReload, 0, 0, static_cast<uint8_t>(rng.Below(256))},
                        {kReload, 0, 1, static_cast<uint8_t>(rng.Below(256))},
                        {kReload, 0, 2, static_cast<uint8_t>(rng.Below(256))},
                        {kReload, 0, 3, static_cast<uint8_t>(rng.Below(256))}};
  for (const Step& st : first) {
    if (rng.Chance(70) && Exec(st)) taken->push_back(st);
  }
  while (taken->size() < length && !w.stop) {
    w.step = taken->size();
    const Step st = Pick(w, rng);
    if (Exec(st)) {
      taken->push_back(st);
      ++w.out.steps;
    }
  }
  for (const Session& s : w.sessions) {
    if (s.exists && s.in_call) Count(s.waiting ? "schedule ends: a call waiting" : "schedule ends: a call in flight");
  }
  W = nullptr;
  return w.out;
}

std::vector<Step> Shrink(const std::vector<Step>& steps) {
  const Outcome first = Run(steps);
  if (!first.violated) return steps;
  const auto kind = [](const std::string& what) { return what.substr(0, what.find(':')); };
  const std::string wanted = kind(first.what);
  const auto still = [&](const std::vector<Step>& candidate) {
    const Outcome o = Run(candidate);
    return o.violated && kind(o.what) == wanted;
  };
  std::vector<Step> best(steps.begin(), steps.begin() + static_cast<long>(std::min(steps.size(), first.at_step + 1)));
  for (size_t chunk = best.size() / 2; chunk >= 1; chunk /= 2) {
    for (size_t at = 0; at < best.size();) {
      std::vector<Step> candidate(best.begin(), best.begin() + static_cast<long>(at));
      candidate.insert(candidate.end(), best.begin() + static_cast<long>(std::min(best.size(), at + chunk)), best.end());
      if (still(candidate)) {
        best = std::move(candidate);
      } else {
        at += chunk;
      }
    }
  }
  // Runs of one session's call merged where they can: fewer lines to read.
  return best;
}

std::string ToHex(const std::vector<Step>& steps) {
  std::string out;
  char b[20];
  for (const Step& st : steps) {
    snprintf(b, sizeof b, "%02x%02x%02x%02x%08x", st.kind, st.a, st.b, st.c, st.x);
    out += b;
  }
  return out;
}

std::vector<Step> FromHex(const std::string& hex) {
  std::vector<Step> steps;
  for (size_t i = 0; i + 16 <= hex.size(); i += 16) {
    Step st;
    st.kind = static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16));
    st.a = static_cast<uint8_t>(std::stoul(hex.substr(i + 2, 2), nullptr, 16));
    st.b = static_cast<uint8_t>(std::stoul(hex.substr(i + 4, 2), nullptr, 16));
    st.c = static_cast<uint8_t>(std::stoul(hex.substr(i + 6, 2), nullptr, 16));
    st.x = static_cast<uint32_t>(std::stoul(hex.substr(i + 8, 8), nullptr, 16));
    steps.push_back(st);
  }
  return steps;
}

std::vector<Step> FromBytes(const uint8_t* data, size_t size) {
  std::vector<Step> steps;
  for (size_t i = 0; i + 8 <= size; i += 8) {
    Step st;
    st.kind = data[i];
    st.a = data[i + 1];
    st.b = data[i + 2];
    st.c = data[i + 3];
    std::memcpy(&st.x, data + i + 4, 4);
    steps.push_back(st);
  }
  return steps;
}

}  // namespace idgen::sim

// ==== the counters ===================================================================================

// The IDGEN_SOMETIMES sites of the engine and the protocol (core/sometimes.hpp), in their section.
extern "C" {
extern idgen::sometimes::Site __start_idgen_sometimes[] __attribute__((weak));
extern idgen::sometimes::Site __stop_idgen_sometimes[] __attribute__((weak));
}

namespace idgen::sim {

namespace {

std::map<std::string, uint64_t> Sites() {
  std::map<std::string, uint64_t> sites;
  if (__start_idgen_sometimes != nullptr) {
    for (const sometimes::Site* s = __start_idgen_sometimes; s < __stop_idgen_sometimes; ++s) {
      const char* file = std::strrchr(s->file, '/');
      sites[std::string(file != nullptr ? file + 1 : s->file) + ": " + s->name] += s->count;
    }
  }
  return sites;
}

}  // namespace

void PrintSometimes(FILE* out) {
  std::map<std::string, uint64_t> events;
  for (const auto& [name, count] : Counts()) events[name] += count;
  fprintf(out, "sometimes: the simulation's events and the engine's effects\n");
  for (const auto& [name, count] : events) fprintf(out, "  %12llu  %s\n", static_cast<unsigned long long>(count), name.c_str());
  fprintf(out, "sometimes: the decisions of the engine and the protocol (IDGEN_SOMETIMES)\n");
  for (const auto& [name, count] : Sites()) {
    fprintf(out, "  %12llu  %s%s\n", static_cast<unsigned long long>(count), name.c_str(), count == 0 ? "   <- NEVER" : "");
  }
}

std::vector<std::string> NeverReached() {
  std::vector<std::string> never;
  for (const auto& [name, count] : Sites()) {
    if (count == 0) never.push_back(name);
  }
  return never;
}

}  // namespace idgen::sim
