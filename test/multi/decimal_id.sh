# DecimalId under 16 concurrent sessions x 50 000 inserts into one primary key: no error, no
# duplicate, one generator for the database (its counter shared by every session), and an ID made
# after another returned is greater.
source "$(dirname "$0")/lib.sh"
state_is_shared || { pass "skipped: without preload on PostgreSQL 15 and 16 DecimalIds refuse"; exit 0; }
fresh_db decimal_id
CLIENTS=16 PER_CLIENT=${PER_CLIENT:-50000}
TOTAL=$((CLIENTS * PER_CLIENT))
q -d postgres -c "ALTER DATABASE $PGDATABASE SET idgen.launch_id = 65"

witness_table t "bigint PRIMARY KEY DEFAULT idgen.decimal_id()"
bench_sessions $CLIENTS $PER_CLIENT "$WORK/t.sql"
expect "rows" $TOTAL "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $TOTAL "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "generators" 1 "$(q -c 'SELECT count(DISTINCT (idgen.decimal_parse(id)).generator_id) FROM t')"
expect "launch ids" 65 "$(q -c "SELECT string_agg(DISTINCT (idgen.decimal_parse(id)).launch_id::text, ',') FROM t")"
expect "counters without a gap (the generator is the server's: other tests may have used it before)" "$TOTAL" \
  "$(q -c 'SELECT max((idgen.decimal_parse(id)).counter) - min((idgen.decimal_parse(id)).counter) + 1 FROM t')"
expect "cluster-wide order violations" 0 "$(order_violations t)"

# Three databases of the server at once, then again after a restart of their sessions: one counter
# space for the whole server (issue 20.4: on 1.1 each database started at generator 0 and three made
# the same 100,000 DecimalIds).
per_db=$((PER_CLIENT / 10 + 1))
for db in a b c; do
  q -d postgres -c "DROP DATABASE IF EXISTS idgen_multi_decimal_$db" -c "CREATE DATABASE idgen_multi_decimal_$db" \
    -c "ALTER DATABASE idgen_multi_decimal_$db SET idgen.launch_id = 65"
  q -d "idgen_multi_decimal_$db" -c "CREATE EXTENSION idgen" -c "CREATE TABLE t (id bigint PRIMARY KEY DEFAULT idgen.decimal_id(), n int)"
  printf 'INSERT INTO t (n) VALUES (1);\n' >"$WORK/$db.sql"
done
pids=()
for db in a b c; do
  PGDATABASE=idgen_multi_decimal_$db "$PG_BIN/pgbench" -n -c 4 -j 2 -t "$per_db" -f "$WORK/$db.sql" >"$WORK/$db.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "pgbench in one of three databases failed"; done
for db in a b c; do q -d "idgen_multi_decimal_$db" -c "COPY t (id) TO STDOUT"; done >"$WORK/three.txt"
expect "rows in three databases" $((3 * 4 * per_db)) "$(wc -l <"$WORK/three.txt")"
expect "distinct across the three databases" $((3 * 4 * per_db)) "$(sort -u "$WORK/three.txt" | wc -l)"
for db in a b c; do q -d postgres -c "DROP DATABASE idgen_multi_decimal_$db"; done
