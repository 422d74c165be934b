# Nanosecond IDs under 16 concurrent sessions x 50 000 inserts into a text primary key: no error,
# no duplicate, and text order is the cluster-wide order of generation.
source "$(dirname "$0")/lib.sh"
state_is_shared || { pass "skipped: without preload on PostgreSQL 15 and 16 ns_id refuses"; exit 0; }
fresh_db ns_id
CLIENTS=16 PER_CLIENT=${PER_CLIENT:-50000}
TOTAL=$((CLIENTS * PER_CLIENT))

witness_table t "text COLLATE \"C\" PRIMARY KEY DEFAULT idgen.ns_id(32, '0123456789abcdef')"
bench_sessions $CLIENTS $PER_CLIENT "$WORK/t.sql"
expect "rows" $TOTAL "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $TOTAL "$(q -c 'SELECT count(DISTINCT id) FROM t')"
# In hexadecimal the first 16 digits are the nanoseconds exactly (the last 8, the random bits).
expect "distinct nanoseconds" $TOTAL "$(q -c "SELECT count(DISTINCT left(id, 16)) FROM t")"
expect "cluster-wide order violations" 0 "$(order_violations t)"
