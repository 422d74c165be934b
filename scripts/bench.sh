#!/usr/bin/env bash
# make bench: idgen's generators against their peers, in one run, on a throwaway cluster with idgen
# preloaded (the machinery of make demo / make test), as ratios to a floor: a C function that
# returns a constant, compiled here. Prints a markdown table, writes it to build/bench/results.md,
# and draws build/bench/per_call.png with gnuplot (where gnuplot is installed).
#
#   scripts/bench.sh                  the full bench (about 25 minutes): per call, bulk insert, pgbench,
#                                     and the instructions of a call (callgrind)
#   scripts/bench.sh --instructions   the instructions of a call alone (a few minutes): deterministic
#                                     where times are not (make bench-instructions)
#   scripts/bench.sh --scaling        the scaling mode: batch, single-ID and insert workloads at 1, 2,
#                                     4, 8, 16 and 32 clients, up to the cores present, idgen's
#                                     coordinated families beside their peers (make bench-scaling);
#                                     build/bench/scaling.md, .tsv and .png
#   scripts/bench.sh --edition        the SQL edition (edition/, idgen_sql) beside idgen and core's
#                                     generators alone, per call and per row inserted (make bench-edition;
#                                     the full bench runs it too, a few seconds)
#   scripts/bench.sh --smoke          tiny sizes, every mode, no chart: what make test runs, so that the
#                                     bench cannot rot
#
# Variables: PG_CONFIG (the server to measure: its idgen is the one installed there); OUT (where the
# results go); INSTR_CALLS (200000), SCALE_SECONDS (3, per point of the scaling mode), SCALE_ROUNDS
# (1: the median of that many rounds), SCALE_CLIENTS (the client counts, before the cap),
# SCALE_SUBJECTS (a regular expression: only those subjects); EDITION_CALLS (5000: calls and rows a
# run of the edition's section), EDITION_RUNS (3: the median of that many);
# IDGEN_PEERS (a directory that holds the sources of pg_uuidv7, of pgEdge's snowflake and of uuidv47
# (its extension uuid47, beside idgen.public_uuid): built into this server and measured beside idgen;
# never downloaded by the bench); FLOOR_SO (a floor
# library built ahead, for a machine without a compiler or server headers).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=full
SMOKE=0
case "${1:-}" in
  "") ;;
  --smoke) SMOKE=1 ;;
  --instructions) MODE=instructions ;;
  --scaling) MODE=scaling ;;
  --edition) MODE=edition ;;
  *) echo "usage: scripts/bench.sh [--smoke|--instructions|--scaling|--edition]" >&2; exit 2 ;;
esac
if [ "$SMOKE" = 1 ]; then
  CALLS=2000 RUNS=2 ROWS=2000 BULK_RUNS=1 PGBENCH_ROUNDS=1 PGBENCH_LENGTH=(-t 100)
  INSTR_CALLS=${INSTR_CALLS:-2000} INSTR_WARM=500 SCALE_LENGTH=(-t 20) SCALE_CLIENTS=${SCALE_CLIENTS:-"1 2"}
  EDITION_CALLS=${EDITION_CALLS:-300} EDITION_RUNS=${EDITION_RUNS:-1}
  OUT=${OUT:-build/bench-smoke}
else
  CALLS=2000000 RUNS=5 ROWS=1000000 BULK_RUNS=3 PGBENCH_ROUNDS=3 PGBENCH_LENGTH=(-T 3)
  INSTR_CALLS=${INSTR_CALLS:-200000} INSTR_WARM=10000 SCALE_LENGTH=(-T "${SCALE_SECONDS:-3}")
  SCALE_CLIENTS=${SCALE_CLIENTS:-"1 2 4 8 16 32"}
  EDITION_CALLS=${EDITION_CALLS:-5000} EDITION_RUNS=${EDITION_RUNS:-3}
  OUT=${OUT:-build/bench}
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
source scripts/cluster.sh
say() { printf '%s\n' "$*" >&2; }
CORES=$(nproc)

say "Starting a throwaway cluster with idgen preloaded..."
cluster_start preload
PKGLIBDIR=$("$PG_CONFIG" --pkglibdir)

# ---- peers whose sources are at hand (IDGEN_PEERS): built into this server, never downloaded --------
if [ -n "${IDGEN_PEERS:-}" ]; then
  # (uuidv47's extension, uuid47, lives in its checkout's pgext/uuid47 and includes the header above it)
  for peer in "$IDGEN_PEERS"/pg_uuidv7* "$IDGEN_PEERS"/snowflake* "$IDGEN_PEERS"/pgedge-snowflake* \
      "$IDGEN_PEERS"/uuidv47*/pgext/uuid47; do
    [ -f "$peer/Makefile" ] || continue
    say "Building the peer $(basename "$peer") into this server..."
    # (clean first: its objects may be another major's, from the last bench)
    { make -s -C "$peer" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" clean &&
      make -s -C "$peer" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" with_llvm=no install; } >"$OUT/peer-$(basename "$peer").log" 2>&1 ||
      { say "  it did not build (see $OUT/peer-$(basename "$peer").log): measured without it"; continue; }
  done
  # pgEdge's snowflake takes its node from snowflake.node.
  if [ -f "$("$PG_CONFIG" --sharedir)/extension/snowflake.control" ]; then
    q -c "ALTER SYSTEM SET snowflake.node = 7"
  fi
fi
if [ "$MODE" = scaling ]; then
  # Room for the insert workload's tables and many clients (the cluster is fsync off, like make test's).
  q -c "ALTER SYSTEM SET shared_buffers = '1GB'" -c "ALTER SYSTEM SET max_wal_size = '8GB'" \
    -c "ALTER SYSTEM SET checkpoint_timeout = '30min'"
fi
cluster_start preload

if [ -n "${FLOOR_SO:-}" ]; then
  cp "$FLOOR_SO" "$CLUSTER_DIR/floor.so"
else
  gcc -O2 -fPIC -shared -I"$("$PG_CONFIG" --includedir-server)" bench/floor.c -o "$CLUSTER_DIR/floor.so"
fi
chmod 755 "$CLUSTER_DIR/floor.so"
export PGDATABASE=idgen_bench
q -d postgres -c "CREATE DATABASE idgen_bench"
# (only the settings this build of idgen has: bench-releases.sh measures earlier releases too)
if [ -n "$(q -d postgres -c "SELECT 1 FROM pg_settings WHERE name = 'idgen.launch_id'")" ]; then
  q -d postgres -c "ALTER SYSTEM SET idgen.launch_id = 1" -c "SELECT pg_reload_conf(), pg_sleep(0.3)"
fi
if [ -n "$(q -d postgres -c "SELECT 1 FROM pg_settings WHERE name = 'idgen.public_id_key'")" ]; then
  q -d postgres -c "ALTER SYSTEM SET idgen.public_id_key = 'the bench''s public-id key, thirty-two bytes or more'" \
    -c "SELECT pg_reload_conf()"
fi
# (uuidv47's key of its tests, in the text that uuid47.key takes too: bench/setup.sql gives it to uuid47)
if [ -n "$(q -d postgres -c "SELECT 1 FROM pg_settings WHERE name = 'idgen.public_uuid_key'")" ]; then
  q -d postgres -c "ALTER SYSTEM SET idgen.public_uuid_key = 'efcdab8967452301:1032547698badcfe'" -c "SELECT pg_reload_conf()"
fi
q -v floor_lib="$CLUSTER_DIR/floor.so" -f bench/setup.sql >/dev/null

# Measure the functions, not the noise around them: no JIT compilation of the 2M-row queries, and
# generate_series's rows kept in memory rather than spilled to a temporary file.
export PGOPTIONS="-c jit=off -c work_mem=256MB -c client_min_messages=warning"

# sql <statement> [psql options]: one statement with psql variables (-c does not interpolate them)
sql() {
  local statement=$1
  shift
  printf '%s\n' "$statement" | q "$@"
}
field() { sql "SELECT $2 FROM bench.subjects WHERE name = :'name'" -v name="$1"; }
# Whether an expression can be called here (an earlier release lacks some generators).
callable() { q -c "SELECT count($1) FROM generate_series(1, 0) AS g" >/dev/null 2>&1; }
mapfile -t SUBJECTS < <(q -c "SELECT name FROM bench.subjects ORDER BY ord")

machine() {
  echo "$CORES cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)), PostgreSQL $(q -c 'SHOW server_version'), \
throwaway cluster (fsync off), $(date -u +%Y-%m-%d)"
}

# ---- 1. per-call cost: SELECT count(f()) FROM generate_series(1, N), median of RUNS ---------------
per_call() {
  say "Per-call cost, $CALLS calls, median of $RUNS runs (run 0 warms up)..."
  for run in $(seq 0 "$RUNS"); do
    for name in "${SUBJECTS[@]}"; do
      call=$(field "$name" call)
      sql "INSERT INTO bench.per_call SELECT :'name', $run, bench.time_ms(:'query')" \
        -v name="$name" -v query="SELECT count($call) FROM generate_series(1, $CALLS) AS g"
    done
    say "  run $run done"
  done
}

# ---- 2. bulk insert of ROWS rows with the ID as the column DEFAULT ------------------------------
bulk() {
  say "Bulk insert of $ROWS rows, median of $BULK_RUNS runs..."
  for run in $(seq 1 "$BULK_RUNS"); do
    for name in "${SUBJECTS[@]}"; do
      key=$(field "$name" key)
      [ -n "$key" ] || continue
      kind=$(field "$name" kind)
      call=$(field "$name" call)
      q -c "DROP TABLE IF EXISTS bench.t, bench.t_text"
      if [ "$kind" = floor ]; then  # the floor: the key is generate_series itself
        q -c "CREATE TABLE bench.t (id bigint PRIMARY KEY, n int)" -c "CHECKPOINT"
        insert="INSERT INTO bench.t (id, n) SELECT g, g FROM generate_series(1, $ROWS) AS g"
      else
        q -c "CREATE TABLE bench.t (id $key PRIMARY KEY DEFAULT $call, n int)" -c "CHECKPOINT"
        insert="INSERT INTO bench.t (n) SELECT g FROM generate_series(1, $ROWS) AS g"
      fi
      sql "INSERT INTO bench.bulk
           SELECT :'name', $run, bench.time_ms(:'query'), pg_relation_size('bench.t'), pg_relation_size('bench.t_pkey'),
                  (pgstatindex('bench.t_pkey')).avg_leaf_density" -v name="$name" -v query="$insert"
      if [ "$call" = "idgen.objectid()" ]; then  # the same IDs, in the same order, as text
        q -c "CREATE TABLE bench.t_text (id text COLLATE \"C\" PRIMARY KEY)" \
          -c "INSERT INTO bench.t_text SELECT id::text FROM bench.t" \
          -c "INSERT INTO bench.bulk SELECT 'the same ObjectIds as text', $run, NULL, pg_relation_size('bench.t_text'),
                     pg_relation_size('bench.t_text_pkey'), (pgstatindex('bench.t_text_pkey')).avg_leaf_density"
      fi
    done
    say "  run $run done"
  done
  q -c "DROP TABLE IF EXISTS bench.t, bench.t_text"
}

# ---- 3. pgbench: 1, 2 and 8 clients calling each generator, median of rounds ----------------------
clients_sql() {  # the generator's call for one pgbench transaction: g is a pgbench variable there
  printf '\\set g random(1, 1000000)\nSELECT %s;\n' "$(sed -E 's/\bg\b/:g/g' <<<"$1")"
}
pgbench_clients() {
  say "pgbench, ${PGBENCH_LENGTH[*]} per run, 1, 2 and 8 clients, median of $PGBENCH_ROUNDS rounds..."
  for round in $(seq 1 "$PGBENCH_ROUNDS"); do
    for clients in 1 2 8; do
      for name in "${SUBJECTS[@]}"; do
        clients_sql "$(field "$name" call)" >"$OUT/pgbench.sql"
        tps=$("$PG_BIN/pgbench" -n -M prepared -c "$clients" -j "$((clients < 2 ? clients : 2))" "${PGBENCH_LENGTH[@]}" \
          -f "$OUT/pgbench.sql" 2>&1 | sed -nE 's/^tps = ([0-9.]+).*/\1/p')
        [ -n "$tps" ] || { say "pgbench failed for $name"; exit 1; }
        sql "INSERT INTO bench.tps VALUES (:'name', $clients, $tps)" -v name="$name"
      done
    done
    say "  round $round done"
  done
}

# ---- 4. instructions per call: callgrind on a backend of the running server ------------------------
# The server runs under valgrind's callgrind, which counts only inside ExecutorRun (every backend
# forks from the postmaster, so every one is counted; autovacuum is off). Each measured query runs in
# a backend of its own, at two sizes: INSTR_WARM calls, and INSTR_WARM + INSTR_CALLS. The difference
# divided by INSTR_CALLS is what one more call costs, whatever the backend did once (start, plan, the
# first call that reads the durable mark). The same for SELECT count(g) FROM generate_series(1, N) g,
# the query without a function, is the floor that the issue's counts (311 for 1.0's uuidv7()) are
# "over". Deterministic where times are not, up to what the clock decides (a word that meets the
# clock takes another path): a figure moves by an instruction or two between runs.
callgrind_server() {
  local wrapper=$CLUSTER_DIR/postgres-callgrind
  rm -rf "$CLUSTER_DIR/callgrind"
  mkdir -p "$CLUSTER_DIR/callgrind"
  chown "$CLUSTER_OWNER" "$CLUSTER_DIR/callgrind"
  printf '#!/bin/sh\nexec valgrind --tool=callgrind --toggle-collect=ExecutorRun --callgrind-out-file=%s/callgrind/%%p "%s" "$@"\n' \
    "$CLUSTER_DIR" "$PG_BIN/postgres" >"$wrapper"
  chmod 755 "$wrapper"
  cluster_stop
  as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -p "$wrapper" -l "$CLUSTER_DIR/server.log" -t 300 \
    -o "-c autovacuum=off -c jit=off -c max_parallel_workers_per_gather=0" -w start >/dev/null
}

# count_ir <expression> <calls>: the instructions that one backend spent in ExecutorRun.
count_ir() {
  local pid file
  pid=$(printf 'SELECT pg_backend_pid();\nSELECT count(%s) FROM generate_series(1, %s) AS g;\n' "$1" "$2" | q | head -n 1)
  file=$CLUSTER_DIR/callgrind/$pid
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done  # the file is complete once the backend has exited
  sed -n 's/^totals: //p' "$file"
  rm -f "$file"
}

instructions() {
  say "Instructions per call (callgrind), $INSTR_CALLS calls over $INSTR_WARM..."
  local calls=() names=() name call
  for name in "${SUBJECTS[@]}"; do
    call=$(field "$name" call)
    if callable "$call"; then names+=("$name"); calls+=("$call"); else say "  $name: not in this build"; fi
  done
  callgrind_server
  : >"$OUT/instructions.tsv"
  local i small big
  for i in "${!names[@]}" floor; do
    if [ "$i" = floor ]; then name="count(g)" call=g; else name=${names[$i]} call=${calls[$i]}; fi
    small=$(count_ir "$call" "$INSTR_WARM")
    big=$(count_ir "$call" "$((INSTR_WARM + INSTR_CALLS))")
    printf '%s\t%s\n' "$name" "$(awk -v a="$small" -v b="$big" -v n="$INSTR_CALLS" 'BEGIN { printf "%.1f", (b - a) / n }')" \
      >>"$OUT/instructions.tsv"
    say "  $name: $(tail -n 1 "$OUT/instructions.tsv" | cut -f 2) instructions per row"
  done
  cluster_start preload
  q -c "\\copy bench.instructions FROM '$OUT/instructions.tsv'"
}

# ---- the scaling mode: many clients on one server -----------------------------------------------
# Three workloads, each run with 1, 2, 4 ... clients (as many pgbench threads), up to the cores present:
#   batch   SELECT count(f) FROM generate_series(1, 200) per transaction: IDs a second = TPS × 200
#   single  SELECT f per transaction: round trips, TPS
#   insert  INSERT 10 rows per transaction into a table whose key defaults to the generator: rows a
#           second = TPS × 10 (bigserial for nextval; a fresh table for each point)
scaling() {
  local counts=() c
  for c in $SCALE_CLIENTS; do [ "$c" -le "$CORES" ] && counts+=("$c"); done
  [[ " ${counts[*]} " == *" $CORES "* ]] || [ "$SMOKE" = 1 ] || counts+=("$CORES")
  mapfile -t scale_subjects < <(q -c "SELECT name FROM bench.scaling WHERE name ~ '${SCALE_SUBJECTS:-.}' ORDER BY ord")
  local rounds=${SCALE_ROUNDS:-1}
  say "Scaling: ${#scale_subjects[@]} subjects, clients ${counts[*]}, ${SCALE_LENGTH[*]} per point, $rounds round(s)..."
  : >"$OUT/scaling.tsv"
  local round workload name expr key tps per rows distinct
  # Rounds outermost: a machine whose load drifts (a shared one) spreads the drift over every subject.
  for round in $(seq 1 "$rounds"); do
    for workload in batch single insert; do
      for name in "${scale_subjects[@]}"; do
        if [ "$workload" = insert ]; then
          key=$(sql "SELECT coalesce(key, '') FROM bench.scaling WHERE name = :'name'" -v name="$name")
          [ -n "$key" ] || continue
          expr=$(sql "SELECT insert_default FROM bench.scaling WHERE name = :'name'" -v name="$name")
          echo "INSERT INTO bench.ins (v) SELECT 1 FROM generate_series(1, 10);" >"$OUT/scaling.sql"
        else
          expr=$(sql "SELECT $workload FROM bench.scaling WHERE name = :'name'" -v name="$name")
          if [ "$workload" = batch ]; then
            echo "SELECT count($expr) FROM generate_series(1, 200) AS g;" >"$OUT/scaling.sql"
          else
            printf '\\set g random(0, 1999)\nSELECT %s;\n' "$expr" >"$OUT/scaling.sql"
          fi
        fi
        for c in "${counts[@]}"; do
          if [ "$workload" = insert ]; then
            if [ "$key" = bigserial ]; then
              q -c "DROP TABLE IF EXISTS bench.ins" -c "CREATE TABLE bench.ins (id bigserial PRIMARY KEY, v int)"
            else
              q -c "DROP TABLE IF EXISTS bench.ins" -c "CREATE TABLE bench.ins (id $key PRIMARY KEY DEFAULT $expr, v int)"
            fi
            q -c "CHECKPOINT"
          fi
          tps=$("$PG_BIN/pgbench" -n -M prepared -c "$c" -j "$c" "${SCALE_LENGTH[@]}" -f "$OUT/scaling.sql" 2>"$OUT/pgbench.err" |
            sed -nE 's/^tps = ([0-9.]+).*/\1/p')
          [ -n "$tps" ] || { say "pgbench failed: $workload, $name, $c clients:"; tail -n 5 "$OUT/pgbench.err" >&2; exit 1; }
          case $workload in batch) per=200 ;; single) per=1 ;; insert) per=10 ;; esac
          rows=""
          if [ "$workload" = insert ] && [ "$c" = "${counts[-1]}" ]; then
            # Every row's key unique, whatever the load (the tests prove it; the bench says so where it looks).
            read -r rows distinct < <(q -F ' ' -c "SELECT count(*), count(DISTINCT id) FROM bench.ins")
            [ "$rows" = "$distinct" ] || say "DUPLICATE KEYS: $name, $c clients: $rows rows, $distinct distinct"
          fi
          printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$name" "$c" "$tps" \
            "$(awk -v t="$tps" -v p="$per" 'BEGIN { printf "%.0f", t * p }')" "$round" >>"$OUT/scaling.tsv"
        done
        say "  round $round, $workload, $name: $(awk -F '\t' -v w="$workload" -v n="$name" -v r="$round" \
          '$1 == w && $2 == n && $6 == r { printf "%s ", $5 }' "$OUT/scaling.tsv")"
      done
    done
  done
  q -c "DROP TABLE IF EXISTS bench.ins"
  q -c "\\copy bench.scale FROM '$OUT/scaling.tsv'"
  q -v machine="$(machine)" -v length="${SCALE_LENGTH[*]}" -v rounds="$rounds" -f bench/report-scaling.sql >"$OUT/scaling.md"
  cat "$OUT/scaling.md"
  if [ "$SMOKE" = 0 ] && command -v gnuplot >/dev/null; then
    for workload in batch single insert; do  # a column per subject, a line per number of clients
      q -F $'\t' -v w="$workload" >"$OUT/scaling-$workload.dat" <<'SQL'
SELECT 'clients' || string_agg(E'\t' || name, '' ORDER BY ord) FROM bench.scaling
WHERE name IN (SELECT name FROM bench.scale WHERE workload = :'w')
UNION ALL
SELECT * FROM (SELECT clients || string_agg(E'\t' || per_second, '' ORDER BY ord)
               FROM (SELECT clients, s.ord, percentile_cont(0.5) WITHIN GROUP (ORDER BY per_second) AS per_second
                     FROM bench.scale p JOIN bench.scaling s USING (name) WHERE workload = :'w' GROUP BY clients, s.ord) m
               GROUP BY clients ORDER BY clients) c;
SQL
    done
    gnuplot -e "dir='$OUT'; out='$OUT/scaling.png'; machine='$(machine)'" bench/scaling.gnuplot
    say "Chart: $OUT/scaling.png"
  fi
  say "Results: $OUT/scaling.md, $OUT/scaling.tsv"
}

# ---- the SQL edition beside idgen and core: per call, and per row of an insert ---------------------
# The edition (idgen_sql) and idgen refuse to share a database, so the edition gets a second database
# of the same server: the same calls and the same inserts, timed the same way, in each. Its generators
# run tens of microseconds where idgen's run under one, so EDITION_CALLS is small (a few seconds in
# all). Each line: family|per-call expression (g is generate_series's value)|key type|column default.
# (Instagram: idgen owns shards 0 to 4095 during this section, the edition's database the others: the
# two never share a shard on one server.)
EDITION_SUBJECTS=(
  "UUIDv7|idgen.uuidv7()|uuid|idgen.uuidv7()"
  "ULID|idgen.ulid()|text|idgen.ulid()"
  "typeid|idgen.typeid('user')|text|idgen.typeid('user')"
  "Snowflake|idgen.snowflake_id()|bigint|idgen.snowflake_id()"
  "Instagram|idgen.instagram_id(g % 2000)|bigint|idgen.instagram_id(5)|idgen.instagram_id(4096 + g % 2000)|idgen.instagram_id(4101)"
  "ObjectId|idgen.objectid()|idgen.objectid|idgen.objectid()"
)
# The edition against the pure-SQL peers that keep its promise (bench/edition-peers.sql), in its
# database: kind|what|the edition's call|the peer|its call. Generators per call; decoders over a table
# of the edition's IDs (bench.ids: u uuid, o idgen.objectid, s and i bigint: Snowflake, Instagram).
EDITION_PEERS=(
  "generator|UUIDv7, ordered per session|idgen.uuidv7()|PL/pgSQL UUIDv7 with a per-session counter|bench_peer.uuidv7_session()"
  "generator|ULID, ordered per session|idgen.ulid()|pgulid's scheme with a per-session counter|bench_peer.ulid_session()"
  "generator|typeid, ordered per session|idgen.typeid('user')|typeid-sql's scheme on that UUIDv7|bench_peer.typeid_session('user')"
  "generator|typeid, base32|idgen.typeid('user', true, 'base32')|typeid-sql's scheme on that UUIDv7|bench_peer.typeid_session('user')"
  "generator|Snowflake|idgen.snowflake_id()|Instagram's next_id(), in assignments|bench_peer.next_id(5)"
  "generator|Instagram|idgen.instagram_id(4101)|Instagram's next_id(), in assignments|bench_peer.next_id(5)"
  "generator|Sonyflake|idgen.sonyflake_id()|Instagram's next_id(), in assignments|bench_peer.next_id(5)"
  "generator|TraceId|idgen.trace_id()|Instagram's next_id(), in assignments|bench_peer.next_id(5)"
  "generator|JS-safe|idgen.js_id()|Instagram's next_id(), in assignments|bench_peer.next_id(5)"
  "context|UUIDv7, no order|idgen.uuidv7()|the SQL UUIDv7 blog posts give|bench_peer.uuidv7_pasted()"
  "context|ULID, no order|idgen.ulid()|pgulid|bench_peer.pgulid()"
  "context|Instagram|idgen.instagram_id(4101)|Instagram's next_id() as published (SELECT ... INTO)|bench_peer.next_id_published()"
  "decoder|uuidv7_time|idgen.uuidv7_time(u)|to_timestamp of the first 48 bits|to_timestamp(('x' || substr(replace(u::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0)"
  "decoder|ulid_time (uuid)|idgen.ulid_time(u)|to_timestamp of the first 48 bits|to_timestamp(('x' || substr(replace(u::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0)"
  "decoder|snowflake_parse|idgen.snowflake_parse(s)|time, node and sequence by shifts|ROW(to_timestamp(((s >> 22) + 1288834974657) / 1000.0), (s >> 12) & 1023, s & 4095)"
  "decoder|instagram_parse|idgen.instagram_parse(i)|time, shard and sequence by shifts|ROW(to_timestamp(((i >> 23) + 1314220021721) / 1000.0), (i >> 10) & 8191, i & 1023)"
  "decoder|objectid_time|idgen.objectid_time(o)|to_timestamp of the first 4 bytes|to_timestamp(('x' || substr(o, 1, 8))::bit(32)::bigint)"
)
# edition_time_ms <database> <statement> <warm-up>: one timed statement, in milliseconds, after the
# warm-up in the same session (the edition's first generator call of a session checks the database's
# identity, a few milliseconds that an application's pooled sessions pay once; and every side's
# caches warm alike)
edition_time_ms() {
  sql "SELECT bench.time_ms(:'warm') * 0 + bench.time_ms(:'query')" -d "$1" -v query="$2" -v warm="$3"
}
edition() {
  if [ -z "$(q -d postgres -c "SELECT 1 FROM pg_available_extensions WHERE name = 'idgen_sql'")" ]; then
    say "idgen_sql (the SQL edition) is not installed in this server: make install installs it with idgen"
    exit 1
  fi
  say "The SQL edition beside idgen: $EDITION_CALLS calls and rows, median of $EDITION_RUNS runs (run 0 warms up)..."
  local db=idgen_bench_sql shards
  shards=$(q -d postgres -c "SHOW idgen.instagram_shards")
  q -d postgres -c "ALTER SYSTEM SET idgen.instagram_shards = '0-4095'" -c "SELECT pg_reload_conf()"
  until [ "$(q -d postgres -c "SHOW idgen.instagram_shards")" = 0-4095 ]; do sleep 0.1; done
  q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
  q -d "$db" -c "CREATE EXTENSION idgen_sql" -c "CREATE SCHEMA bench"
  q -d "$db" -f bench/edition-peers.sql >/dev/null
  q -d "$db" -c "CREATE FUNCTION bench.time_ms(query text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz := clock_timestamp(); BEGIN EXECUTE query; RETURN extract(epoch FROM clock_timestamp() - t0) * 1000; END \$\$"
  q -c "DROP TABLE IF EXISTS bench.edition, bench.edition_peers" \
    -c "CREATE TABLE bench.edition (ord int, family text, call text, edition text, workload text, run int, ms float8)" \
    -c "CREATE TABLE bench.edition_peers (ord int, kind text, what text, side text, name text, call text, run int, ms float8)"
  q -d "$db" -c "CREATE TABLE bench.ids AS SELECT idgen.uuidv7() AS u, idgen.objectid() AS o, idgen.snowflake_id() AS s,
    idgen.instagram_id(4096 + g % 2000) AS i FROM generate_series(1, $EDITION_CALLS) g" -c "VACUUM ANALYZE bench.ids"
  local subjects=("${EDITION_SUBJECTS[@]}" "gen_random_uuid() (core)|gen_random_uuid()|uuid|gen_random_uuid()")
  if [ -n "$(q -c "SELECT 1 WHERE to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL")" ]; then
    subjects+=("uuidv7() (core, PostgreSQL 18 and later)|pg_catalog.uuidv7()|uuid|pg_catalog.uuidv7()")
  fi
  subjects+=("no generator: the key from generate_series||bigint|")
  local run i family call key default ecall edefault ed database ms insert kind what mine peer theirs source
  for run in $(seq 0 "$EDITION_RUNS"); do
    for i in "${!subjects[@]}"; do
      IFS='|' read -r family call key default ecall edefault <<<"${subjects[$i]}"
      for ed in idgen edition; do
        # core's functions and the floor are the same in both databases: measured once, in idgen's
        if [ "$ed" = edition ] && [[ $call != idgen.* ]]; then continue; fi
        database=$PGDATABASE
        if [ "$ed" = edition ]; then
          database=$db
          call=${ecall:-$call} default=${edefault:-$default}
        fi
        if [ -n "$call" ]; then
          ms=$(edition_time_ms "$database" "SELECT count($call) FROM generate_series(1, $EDITION_CALLS) AS g" "SELECT count($call) FROM generate_series(1, 10) AS g")
          sql "INSERT INTO bench.edition VALUES ($i, :'family', :'call', :'ed', 'call', $run, $ms)" -v family="$family" -v call="$call" -v ed="$ed"
        fi
        q -d "$database" -c "DROP TABLE IF EXISTS bench.edition_t"
        if [ -n "$default" ]; then
          q -d "$database" -c "CREATE TABLE bench.edition_t (id $key PRIMARY KEY DEFAULT $default, n int)"
          insert="INSERT INTO bench.edition_t (n) SELECT g FROM generate_series(1, $EDITION_CALLS) AS g"
        else
          q -d "$database" -c "CREATE TABLE bench.edition_t (id $key PRIMARY KEY, n int)"
          insert="INSERT INTO bench.edition_t (id, n) SELECT g, g FROM generate_series(1, $EDITION_CALLS) AS g"
        fi
        ms=$(edition_time_ms "$database" "$insert" "SELECT ${default:-1}")
        sql "INSERT INTO bench.edition VALUES ($i, :'family', :'call', :'ed', 'insert', $run, $ms)" -v family="$family" -v call="$default" -v ed="$ed"
        q -d "$database" -c "DROP TABLE bench.edition_t"
      done
    done
    for i in "${!EDITION_PEERS[@]}"; do
      IFS='|' read -r kind what mine peer theirs <<<"${EDITION_PEERS[$i]}"
      for side in edition peer; do
        call=$mine name=$mine
        [ "$side" = peer ] && call=$theirs name=$peer
        source="generate_series(1, $EDITION_CALLS) AS g" warm="generate_series(1, 10) AS g"
        [ "$kind" = decoder ] && source=bench.ids warm="(SELECT * FROM bench.ids LIMIT 10) AS x"
        ms=$(edition_time_ms "$db" "SELECT count($call) FROM $source" "SELECT count($call) FROM $warm")
        sql "INSERT INTO bench.edition_peers VALUES ($i, :'kind', :'what', :'side', :'name', :'call', $run, $ms)" \
          -v kind="$kind" -v what="$what" -v side="$side" -v name="$name" -v call="$call"
      done
    done
    say "  run $run done"
  done
  q -d postgres -c "ALTER SYSTEM SET idgen.instagram_shards = '$shards'" -c "SELECT pg_reload_conf()"
  q -v machine="$(machine)" -v calls="$EDITION_CALLS" -v runs="$EDITION_RUNS" -f bench/report-edition.sql >"$OUT/edition.md"
  say "Results: $OUT/edition.md"
}

# ---- the run ------------------------------------------------------------------------------------
case $MODE in
  scaling)
    scaling
    [ "$SMOKE" = 0 ] && exit 0 ;;
  edition)
    edition
    cat "$OUT/edition.md"
    exit 0 ;;
  instructions)
    instructions
    q -v machine="$(machine)" -v calls="$INSTR_CALLS" -f bench/report-instructions.sql >"$OUT/instructions.md"
    cat "$OUT/instructions.md"
    say "Results: $OUT/instructions.md, $OUT/instructions.tsv"
    exit 0 ;;
esac

per_call
bulk
pgbench_clients
edition

# ---- idgen.type_id against a text typeid and uuid: sizes at 10 M rows, instructions a call ------
say "idgen.type_id (bench/type_id.sh)..."
TYPE_ID_BENCH_IN_CLUSTER=1 OUT="$OUT" bench/type_id.sh $([ "$SMOKE" = 1 ] && echo --smoke) >/dev/null

if [ "$SMOKE" = 1 ] || command -v valgrind >/dev/null; then
  instructions
else
  say "valgrind is not installed: no instruction counts (make bench installs it)"
fi
q -v calls="$CALLS" -v rows="$ROWS" -v machine="$(machine)" -f bench/report.sql >"$OUT/results.md"
q -v machine="$(machine)" -v calls="$INSTR_CALLS" -f bench/report-instructions.sql >>"$OUT/results.md"
cat "$OUT/type_id.md" "$OUT/edition.md" >>"$OUT/results.md"
cat "$OUT/results.md"

# ---- Instagram's logical shards: a row through the trigger (bench/instagram_shard.sh: clusters of its own)
say "Instagram's logical shards: a row through the trigger..."
IDGEN_BENCH_PORT=$((PGPORT + 10)) bench/instagram_shard.sh $([ "$SMOKE" = 1 ] && echo --smoke) | tee -a "$OUT/results.md"

if [ "$SMOKE" = 0 ] && command -v gnuplot >/dev/null; then
  q -v calls="$CALLS" -F $'\t' -c "
    WITH m AS (SELECT name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM bench.per_call WHERE run > 0 GROUP BY name)
    SELECT s.name, round((m.ms / f.ms)::numeric, 2), s.kind FROM bench.subjects s JOIN m USING (name) JOIN m f ON f.name = coalesce(s.floor, s.name)
    ORDER BY s.ord" >"$OUT/per_call.dat"
  gnuplot -e "data='$OUT/per_call.dat'; out='$OUT/per_call.png'" bench/per_call.gnuplot
  say "Chart: $OUT/per_call.png"
fi
say "Results: $OUT/results.md"
if [ "$SMOKE" = 1 ]; then
  scaling
fi
