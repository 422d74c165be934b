# UUIDv7 under 8 concurrent sessions x 50 000 inserts into one primary key: no error, no duplicate;
# preloaded, cluster-wide order (an ID made after another returned is greater); not preloaded,
# per-session order. gen_random_uuid() through the same check proves the check can fail.
source "$(dirname "$0")/lib.sh"
fresh_db uuidv7
CLIENTS=8 PER_CLIENT=${PER_CLIENT:-50000}

witness_table t "uuid PRIMARY KEY DEFAULT idgen.uuidv7()"
witness_table control "uuid PRIMARY KEY DEFAULT gen_random_uuid()"
bench_sessions $CLIENTS $PER_CLIENT "$WORK/t.sql"

expect "rows" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "version 7 ids" $((CLIENTS * PER_CLIENT)) "$(q -c "SELECT count(*) FROM t WHERE substr(id::text, 15, 1) = '7'")"
expect "per-session order violations" 0 "$(session_order_violations t)"
if [ "$IDGEN_MODE" = preloaded ]; then
  expect "cluster-wide order violations" 0 "$(order_violations t)"
  expect "issued in idgen.stats at least" t "$(q -c "SELECT issued >= $((CLIENTS * PER_CLIENT)) FROM idgen.stats WHERE family = 'uuidv7'")"
fi

# The control: the same check on random UUIDs finds violations, so it is able to fail.
bench_sessions $CLIENTS 2000 "$WORK/control.sql" >/dev/null
[ "$(order_violations control)" -gt 0 ] && pass "the order check catches unordered IDs" ||
  fail "the order check found no violation among random UUIDs"
