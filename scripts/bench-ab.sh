#!/usr/bin/env bash
# What a change costs: the per-call cost and a bulk insert of the coordinated generators, measured
# for two commits of idgen in turn on one throwaway cluster (preloaded, PostgreSQL 15), each against
# the same floor (a C function that returns a constant). Prints, per generator and commit, the
# median ns per call, its ratio to the floor, the bulk insert's seconds, and the TPS of 8 pgbench
# clients (SELECT f(); prepared) as a percentage of the floor's. Unlike make bench, the
# cluster flushes its WAL for real (fsync and synchronous_commit on): the durable mark's cost is a
# flush.
#
#   scripts/bench-ab.sh b557384 HEAD     before and after the durable marks
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
before=${1:?usage: scripts/bench-ab.sh <commit> <commit>}
after=${2:?usage: scripts/bench-ab.sh <commit> <commit>}
CALLS=${CALLS:-2000000} RUNS=${RUNS:-7} ROWS=${ROWS:-1000000} BULK_RUNS=${BULK_RUNS:-3}
PGBENCH_ROUNDS=${PGBENCH_ROUNDS:-5} PGBENCH_SECONDS=${PGBENCH_SECONDS:-5}
work=$(mktemp -d)
source scripts/cluster.sh
trap 'cluster_cleanup; git -C "$ROOT" worktree remove --force "$work/src" >/dev/null 2>&1; rm -rf "$work"' EXIT

cluster_start preload
"$PG_BIN/psql" -X -q -c "ALTER SYSTEM SET fsync = on" -c "ALTER SYSTEM SET synchronous_commit = on" \
  -c "ALTER SYSTEM SET full_page_writes = on"
gcc -O2 -fPIC -shared -I"$("$PG_CONFIG" --includedir-server)" bench/floor.c -o "$CLUSTER_DIR/floor.so"
chmod 755 "$CLUSTER_DIR/floor.so"
export PGDATABASE=postgres PGOPTIONS="-c jit=off -c work_mem=256MB -c client_min_messages=warning"
q() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
q -v lib="$CLUSTER_DIR/floor.so" <<'SQL'
CREATE FUNCTION floor_int8(bigint) RETURNS bigint AS :'lib', 'bench_floor_int8_arg' LANGUAGE C VOLATILE;
CREATE FUNCTION floor_uuid() RETURNS uuid AS :'lib', 'bench_floor_uuid' LANGUAGE C VOLATILE;
CREATE FUNCTION time_ms(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN EXECUTE query; RETURN extract(epoch FROM clock_timestamp() - t0) * 1000; END $$;
CREATE TABLE results (commit text, name text, run int, ms float8);
SQL

calls=("floor_int8(g % 2000)" "floor_uuid()" "idgen.uuidv7()" "idgen.instagram_id(g % 2000)" "idgen.instagram_id(5)"
  "idgen.snowflake_id()" "idgen.trace_id()")
bulk=("idgen.uuidv7()" "idgen.instagram_id(5)" "idgen.snowflake_id()")
clients=("floor_int8(5)" "idgen.instagram_id(5)" "idgen.snowflake_id()" "idgen.trace_id()" "idgen.uuidv7()")
for commit in "$before" "$after"; do
  git -C "$ROOT" worktree remove --force "$work/src" >/dev/null 2>&1 || true
  git -C "$ROOT" worktree add --detach "$work/src" "$commit" >/dev/null 2>&1
  echo "building and installing $commit..." >&2
  make -s -C "$work/src" install >/dev/null 2>&1
  cluster_start preload
  q -c "DROP EXTENSION IF EXISTS idgen CASCADE" -c "CREATE EXTENSION idgen"
  for run in $(seq 0 "$RUNS"); do
    for call in "${calls[@]}"; do
      q -v c="$commit" -v n="$call" -v query="SELECT count($call) FROM generate_series(1, $CALLS) AS g" \
        <<<"INSERT INTO results SELECT :'c', :'n', $run, time_ms(:'query')"
    done
  done
  for run in $(seq 1 "$BULK_RUNS"); do
    for call in "${bulk[@]}"; do
      type=$([[ $call == *uuid* ]] && echo uuid || echo bigint)
      q -c "DROP TABLE IF EXISTS t" -c "CREATE TABLE t (id $type PRIMARY KEY DEFAULT $call, v int)" -c "CHECKPOINT"
      q -v c="$commit" -v n="bulk $call" -v query="INSERT INTO t (v) SELECT g FROM generate_series(1, $ROWS) AS g" \
        <<<"INSERT INTO results SELECT :'c', :'n', $run, time_ms(:'query')"
    done
  done
  # 8 clients: the TPS goes in the ms column.
  for run in $(seq 1 "$PGBENCH_ROUNDS"); do
    for call in "${clients[@]}"; do
      echo "SELECT $call;" >"$work/pgbench.sql"
      tps=$("$PG_BIN/pgbench" -n -M prepared -c 8 -j 2 -T "$PGBENCH_SECONDS" -f "$work/pgbench.sql" 2>/dev/null |
        sed -nE 's/^tps = ([0-9.]+).*/\1/p')
      q -v c="$commit" -v n="8 clients $call" <<<"INSERT INTO results VALUES (:'c', :'n', $run, $tps)"
    done
  done
done
# The medians: per call (run 0 warms up) in ns and × its floor; bulk in ms; 8 clients in TPS and % of the floor's TPS.
q -P footer=off -P format=aligned -F ' ' <<SQL
WITH m AS (
  SELECT commit, name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM results WHERE run > 0 GROUP BY 1, 2),
f AS (SELECT commit, name, ms * 1e6 / $CALLS AS ns FROM m WHERE name NOT LIKE 'bulk %' AND name NOT LIKE '8 clients %')
SELECT f.name AS generator, f.commit,
       round(f.ns::numeric) AS ns_per_call,
       round((f.ns / fl.ns)::numeric, 2) AS times_floor
FROM f JOIN f fl ON fl.commit = f.commit
  AND fl.name = CASE WHEN f.name LIKE '%uuid%' THEN 'floor_uuid()' ELSE 'floor_int8(g % 2000)' END
UNION ALL
SELECT name, commit, round(ms::numeric) AS ms, NULL FROM m WHERE name LIKE 'bulk %'
UNION ALL
SELECT c.name, c.commit, round(c.ms::numeric) AS tps, round((100 * c.ms / fl.ms)::numeric)
FROM m c JOIN m fl ON fl.commit = c.commit AND fl.name = '8 clients floor_int8(5)'
WHERE c.name LIKE '8 clients %'
ORDER BY 1, 2 DESC;
SQL
