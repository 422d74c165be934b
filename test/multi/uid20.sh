# 20-digit UIDs, both variants, under 16 concurrent sessions x 50 000 inserts: no error, no duplicate
# (idgen counts the sequence digits that the published scheme draws at random), and an ID made
# after another returned is greater.
source "$(dirname "$0")/lib.sh"
state_is_shared || { pass "skipped: without preload on PostgreSQL 15 and 16 UID20s refuse"; exit 0; }
fresh_db uid20
CLIENTS=16 PER_CLIENT=${PER_CLIENT:-50000}
TOTAL=$((CLIENTS * PER_CLIENT))

witness_table ms "bigint PRIMARY KEY DEFAULT idgen.uid20()"
witness_table sec "bigint PRIMARY KEY DEFAULT idgen.uid20_sec()"
q -c "CREATE TABLE num (id numeric(20,0) PRIMARY KEY DEFAULT idgen.uid20_numeric())"
echo 'INSERT INTO num DEFAULT VALUES;' >"$WORK/num.sql"
for t in ms sec; do
  echo "-- $t"
  bench_sessions $CLIENTS $PER_CLIENT "$WORK/$t.sql"
  expect "rows" $TOTAL "$(q -c "SELECT count(*) FROM $t")"
  expect "distinct ids" $TOTAL "$(q -c "SELECT count(DISTINCT id) FROM $t")"
  expect "cluster-wide order violations" 0 "$(order_violations $t)"
done
expect "most UID20s of one millisecond, at most the 1 000 000 of its digits" t \
  "$(q -c 'SELECT max(n) <= 1000000 FROM (SELECT count(*) AS n FROM ms GROUP BY (idgen.uid20_parse(id)).ts) s')"
echo "-- numeric(20,0)"
bench_sessions $CLIENTS $((PER_CLIENT / 5)) "$WORK/num.sql"
expect "distinct numeric ids" $((TOTAL / 5)) "$(q -c 'SELECT count(DISTINCT id) FROM num')"
