#!/usr/bin/env bash
# make bench: idgen's generators against their peers, in one run, on a throwaway cluster with idgen
# preloaded (the machinery of make demo / make test), as ratios to a floor: a C function that
# returns a constant, compiled here. Prints a markdown table, writes it to build/bench/results.md,
# and draws build/bench/per_call.png with gnuplot.
#
#   scripts/bench.sh           the full bench (a few minutes)
#   scripts/bench.sh --smoke   tiny sizes and no chart: what make test runs, so that the bench cannot rot
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --smoke ]; then
  SMOKE=1 CALLS=2000 RUNS=2 ROWS=2000 BULK_RUNS=1 PGBENCH_ROUNDS=1 PGBENCH_LENGTH=(-t 100) OUT=build/bench-smoke
else
  SMOKE=0 CALLS=2000000 RUNS=5 ROWS=1000000 BULK_RUNS=3 PGBENCH_ROUNDS=3 PGBENCH_LENGTH=(-T 3) OUT=build/bench
  scripts/deps.sh gnuplot-nox
fi
mkdir -p "$OUT"
source scripts/cluster.sh
say() { printf '%s\n' "$*" >&2; }

say "Starting a throwaway cluster with idgen preloaded..."
cluster_start preload
gcc -O2 -fPIC -shared -I"$("$PG_CONFIG" --includedir-server)" bench/floor.c -o "$CLUSTER_DIR/floor.so"
chmod 755 "$CLUSTER_DIR/floor.so"
export PGDATABASE=idgen_bench
q -d postgres -c "CREATE DATABASE idgen_bench" -c "ALTER DATABASE idgen_bench SET idgen.launch_id = 1" \
  -c "ALTER SYSTEM SET idgen.public_id_key = 'the bench''s public-id key, thirty-two bytes or more'" -c "SELECT pg_reload_conf()"
q -v floor_lib="$CLUSTER_DIR/floor.so" -f bench/setup.sql >/dev/null

# Measure the functions, not the noise around them: no JIT compilation of the 2M-row queries, and
# generate_series's rows kept in memory rather than spilled to a temporary file.
export PGOPTIONS="-c jit=off -c work_mem=256MB -c client_min_messages=warning"

mapfile -t SUBJECTS < <(q -c "SELECT name FROM bench.subjects ORDER BY ord")
# sql <statement> [psql options]: one statement with psql variables (-c does not interpolate them)
sql() {
  local statement=$1
  shift
  printf '%s\n' "$statement" | q "$@"
}
field() { sql "SELECT $2 FROM bench.subjects WHERE name = :'name'" -v name="$1"; }

# ---- 1. per-call cost: SELECT count(f()) FROM generate_series(1, N), median of RUNS ---------------
say "Per-call cost, $CALLS calls, median of $RUNS runs (run 0 warms up)..."
for run in $(seq 0 "$RUNS"); do
  for name in "${SUBJECTS[@]}"; do
    call=$(field "$name" call)
    sql "INSERT INTO bench.per_call SELECT :'name', $run, bench.time_ms(:'query')" \
      -v name="$name" -v query="SELECT count($call) FROM generate_series(1, $CALLS) AS g"
  done
  say "  run $run done"
done

# ---- 2. bulk insert of ROWS rows with the ID as the column DEFAULT ------------------------------
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

# ---- 3. pgbench: 1, 2 and 8 clients calling each generator, median of rounds ----------------------
say "pgbench, ${PGBENCH_LENGTH[*]} per run, 1, 2 and 8 clients, median of $PGBENCH_ROUNDS rounds..."
for round in $(seq 1 "$PGBENCH_ROUNDS"); do
  for clients in 1 2 8; do
    for name in "${SUBJECTS[@]}"; do
      call=$(field "$name" call)
      printf '\\set g random(1, 1000000)\nSELECT %s;\n' "$(sed -E 's/\bg\b/:g/g' <<<"$call")" >"$OUT/pgbench.sql"
      tps=$("$PG_BIN/pgbench" -n -M prepared -c "$clients" -j "$((clients < 2 ? clients : 2))" "${PGBENCH_LENGTH[@]}" \
        -f "$OUT/pgbench.sql" 2>&1 | sed -nE 's/^tps = ([0-9.]+).*/\1/p')
      [ -n "$tps" ] || { say "pgbench failed for $name"; exit 1; }
      sql "INSERT INTO bench.tps VALUES (:'name', $clients, $tps)" -v name="$name"
    done
  done
  say "  round $round done"
done

# ---- 4. idgen.type_id against a text typeid and uuid: sizes at 10 M rows, instructions a call ----
say "idgen.type_id (bench/type_id.sh)..."
TYPE_ID_BENCH_IN_CLUSTER=1 OUT="$OUT" bench/type_id.sh $([ "$SMOKE" = 1 ] && echo --smoke) >/dev/null

# ---- the report ---------------------------------------------------------------------------------
machine="$(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)), $(q -c 'SHOW server_version'), \
throwaway cluster (fsync off), $(date -u +%Y-%m-%d)"
q -v calls="$CALLS" -v rows="$ROWS" -v machine="$machine" -f bench/report.sql >"$OUT/results.md"
cat "$OUT/type_id.md" >>"$OUT/results.md"
cat "$OUT/results.md"

# ---- Instagram's logical shards: a row through the trigger (bench/instagram_shard.sh: clusters of its own)
say "Instagram's logical shards: a row through the trigger..."
IDGEN_BENCH_PORT=$((PGPORT + 10)) bench/instagram_shard.sh $([ "$SMOKE" = 1 ] && echo --smoke) | tee -a "$OUT/results.md"

if [ "$SMOKE" = 0 ]; then
  q -v calls="$CALLS" -F $'\t' -c "
    WITH m AS (SELECT name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM bench.per_call WHERE run > 0 GROUP BY name)
    SELECT s.name, round((m.ms / f.ms)::numeric, 2), s.kind FROM bench.subjects s JOIN m USING (name) JOIN m f ON f.name = coalesce(s.floor, s.name)
    ORDER BY s.ord" >"$OUT/per_call.dat"
  gnuplot -e "data='$OUT/per_call.dat'; out='$OUT/per_call.png'" bench/per_call.gnuplot
  say "Chart: $OUT/per_call.png"
fi
say "Results: $OUT/results.md"
