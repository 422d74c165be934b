#!/usr/bin/env bash
# make bench's part for Instagram's logical shards (issue 30): what a row costs through the trigger
# idgen.instagram_shard_id() against a row whose ID is DEFAULT idgen.instagram_id(5), in the same run,
# on one server and through Citus (a coordinator and a worker, the tables in distributed schemas).
# Prints a markdown section (scripts/bench.sh appends it to the report).
#
#   bench/instagram_shard.sh            ROWS rows a bulk insert (50,000), RUNS runs (5), SECONDS_ of pgbench (2)
#   bench/instagram_shard.sh --smoke    tiny sizes (make test)
#
# Two measures per table: a bulk INSERT ... SELECT of ROWS rows (per row: its time / ROWS), with a
# small row and with a 4 kB text column; and pgbench, one client inserting one row per transaction
# for SECONDS_ (per transaction); each the median of RUNS runs, the default and the trigger in turn.
# The Citus part runs where Citus is in PG_CONFIG's tree (scripts/citus-build.sh puts it there; the
# bench never builds it): elsewhere its row says "not run".
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --smoke ]; then
  ROWS=${ROWS:-2000} RUNS=${RUNS:-1} SECONDS_=${SECONDS_:-1}
else
  ROWS=${ROWS:-50000} RUNS=${RUNS:-5} SECONDS_=${SECONDS_:-2}
fi
PG_CONFIG=${PG_CONFIG:-pg_config}
source scripts/cluster.sh
PGPORT=${IDGEN_BENCH_PORT:-54339}
say() { printf '%s\n' "$*" >&2; }

# The tables of one node (or, on Citus, of the coordinator): shard 5 stays unbound (its IDs come from
# the column default), shard 6 is bound to schema bench_shard. $1: "citus" to distribute the schemas.
setup_sql() {
  local citus=$1 distribute=""
  [ "$citus" = citus ] && distribute="SELECT citus_schema_distribute('bench_default'); SELECT citus_schema_distribute('bench_shard');"
  cat <<SQL
CREATE SCHEMA bench_default;
CREATE SCHEMA bench_shard;
SELECT idgen.bind_instagram_shard('bench_shard', 6);
$distribute
CREATE TABLE bench_default.small (id bigint PRIMARY KEY DEFAULT idgen.instagram_id(5), n int);
CREATE TABLE bench_default.wide (id bigint PRIMARY KEY DEFAULT idgen.instagram_id(5), n int, body text);
CREATE TABLE bench_shard.small (id bigint PRIMARY KEY, n int);
CREATE TABLE bench_shard.wide (id bigint PRIMARY KEY, n int, body text);
CREATE TRIGGER id BEFORE INSERT ON bench_shard.small FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
CREATE TRIGGER id BEFORE INSERT ON bench_shard.wide FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
CREATE FUNCTION public.time_ms(query text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
  EXECUTE query;
  RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END \$\$;
SQL
}

# Microseconds a row of a bulk insert (one run), and a transaction of pgbench (one round).
bulk_us() {  # bulk_us <table> <columns> <select list>
  local t=$1 cols=$2 sel=$3
  q -c "TRUNCATE $t"
  q -c "SELECT public.time_ms(\$q\$INSERT INTO $t ($cols) SELECT $sel FROM generate_series(1, $ROWS) g\$q\$) * 1000 / $ROWS"
}
pgbench_us() {  # pgbench_us <table>
  local script tps
  script=$(mktemp)
  printf 'INSERT INTO %s (n) VALUES (1);\n' "$1" >"$script"
  chmod 644 "$script"
  tps=$("$PG_BIN/pgbench" -n -c 1 -T "$SECONDS_" -f "$script" 2>&1 | sed -nE 's/^tps = ([0-9.]+).*/\1/p')
  rm -f "$script"
  awk -v tps="$tps" 'BEGIN { printf "%.1f", 1e6 / tps }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }'; }
# The default and the trigger alternate, run after run, so that what else the machine does falls on both.
measure() {  # measure <label>: three rows of the report
  local label=$1 i ds=() ts=() dw=() tw=() dp=() tp=()
  for i in $(seq 1 "$RUNS"); do
    ds+=("$(bulk_us bench_default.small n g)")
    ts+=("$(bulk_us bench_shard.small n g)")
    dw+=("$(bulk_us bench_default.wide "n, body" "g, repeat('x', 4096)")")
    tw+=("$(bulk_us bench_shard.wide "n, body" "g, repeat('x', 4096)")")
    dp+=("$(pgbench_us bench_default.small)")
    tp+=("$(pgbench_us bench_shard.small)")
  done
  awk -v l="$label" -v ds="$(printf '%s\n' "${ds[@]}" | median)" -v ts="$(printf '%s\n' "${ts[@]}" | median)" \
    -v dw="$(printf '%s\n' "${dw[@]}" | median)" -v tw="$(printf '%s\n' "${tw[@]}" | median)" \
    -v dp="$(printf '%s\n' "${dp[@]}" | median)" -v tp="$(printf '%s\n' "${tp[@]}" | median)" 'BEGIN {
    printf "| %s, bulk, small row | %.2f | %.2f | %.2f |\n", l, ds, ts, ts / ds
    printf "| %s, bulk, 4 kB text column | %.2f | %.2f | %.2f |\n", l, dw, tw, tw / dw
    printf "| %s, one row a transaction (pgbench) | %.1f | %.1f | %.2f |\n", l, dp, tp, tp / dp }'
}

cat <<HEAD
### Instagram's logical shards: a row through the trigger

\`idgen.instagram_shard_id()\` (schema bench_shard bound to shard 6) against \`DEFAULT idgen.instagram_id(5)\`, in
microseconds: a bulk \`INSERT … SELECT\` of $ROWS rows (per row), and pgbench inserting one row a transaction for
$SECONDS_ s (per transaction); each the median of $RUNS runs, the two in turn. $(uname -m), $(nproc) cores, $("$PG_CONFIG" --version), fsync off.

| table | DEFAULT instagram_id(5) | trigger | × |
|---|---:|---:|---:|
HEAD

# ---- one server --------------------------------------------------------------------------------
say "Instagram shards: one server..."
cluster_start preload
export PGDATABASE=postgres
q -c "CREATE EXTENSION idgen" >/dev/null
setup_sql plain | q >/dev/null
measure "one server"
cluster_stop

# ---- Citus: a coordinator (this cluster) and a worker --------------------------------------------
if [ ! -f "$("$PG_CONFIG" --sharedir)/extension/citus.control" ]; then
  echo "| Citus | not run: no Citus in this PostgreSQL (scripts/citus-build.sh <pg_config> builds it) | | |"
  exit 0
fi
say "Instagram shards: through Citus..."
WORKER_PORT=$((PGPORT + 1))
WORKER_DIR=$CLUSTER_DIR/worker
worker_stop() { [ -f "$WORKER_DIR/postmaster.pid" ] && as_owner "$PG_BIN/pg_ctl" -D "$WORKER_DIR" -m fast -w stop >/dev/null 2>&1 || true; }
trap 'worker_stop; cluster_cleanup' EXIT
as_owner "$PG_BIN/initdb" -D "$WORKER_DIR" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >/dev/null
for conf in "$CLUSTER_DIR/data/postgresql.conf" "$WORKER_DIR/postgresql.conf"; do
  printf "shared_preload_libraries = 'citus,idgen'\nmax_connections = 200\n" >>"$conf"
done
cat >>"$WORKER_DIR/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$CLUSTER_DIR'
port = $WORKER_PORT
fsync = off
synchronous_commit = off
CONF
: >"$CLUSTER_DIR/data/idgen.conf"  # the coordinator's preload is in postgresql.conf now
as_owner "$PG_BIN/pg_ctl" -D "$WORKER_DIR" -l "$CLUSTER_DIR/worker.log" -w start >/dev/null
as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" -w start >/dev/null
export PGDATABASE=idgen_citus
for port in "$PGPORT" "$WORKER_PORT"; do
  q -p "$port" -d postgres -c "CREATE DATABASE idgen_citus" >/dev/null
  q -p "$port" -c "CREATE EXTENSION citus" -c "CREATE EXTENSION idgen" >/dev/null
done
q -c "SELECT citus_set_coordinator_host('$CLUSTER_DIR', $PGPORT)" -c "SELECT citus_add_node('$CLUSTER_DIR', $WORKER_PORT)" >/dev/null
setup_sql citus | q >/dev/null
measure "Citus"
