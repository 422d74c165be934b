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
expect "counters from 1, without a gap" "1|$TOTAL" \
  "$(q -c 'SELECT min((idgen.decimal_parse(id)).counter), max((idgen.decimal_parse(id)).counter) FROM t')"
expect "cluster-wide order violations" 0 "$(order_violations t)"
