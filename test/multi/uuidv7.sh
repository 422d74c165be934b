# UUIDv7 under 8 concurrent sessions x 50 000 inserts into one primary key: no error, no duplicate;
# preloaded, cluster-wide order (an ID made after another returned is greater); not preloaded,
# per-session order. gen_random_uuid() through the same check proves the check can fail.
source "$(dirname "$0")/lib.sh"
fresh_db uuidv7
CLIENTS=8 PER_CLIENT=${PER_CLIENT:-50000}
script=$WORK/insert.sql

q <<'SQL'
CREATE SEQUENCE witness;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT idgen.uuidv7(), client int NOT NULL, witness bigint NOT NULL);
CREATE TABLE control (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), client int NOT NULL, witness bigint NOT NULL);
SQL
cat >"$script" <<'SQL'
SELECT nextval('witness') AS w \gset
INSERT INTO t (client, witness) VALUES (:client_id, :w);
SQL
bench_sessions $CLIENTS $PER_CLIENT "$script"

expect "rows" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "version 7 ids" $((CLIENTS * PER_CLIENT)) "$(q -c "SELECT count(*) FROM t WHERE substr(id::text, 15, 1) = '7'")"
expect "per-session order violations" 0 "$(session_order_violations t)"
if [ "$IDGEN_MODE" = preloaded ]; then
  expect "cluster-wide order violations" 0 "$(order_violations t)"
  expect "issued in idgen.stats at least" t "$(q -c "SELECT issued >= $((CLIENTS * PER_CLIENT)) FROM idgen.stats WHERE family = 'uuidv7'")"
fi

# The control: the same check on random UUIDs finds violations, so it is able to fail.
sed -i 's/INTO t /INTO control /' "$script"
bench_sessions $CLIENTS 2000 "$script" >/dev/null
[ "$(order_violations control)" -gt 0 ] && pass "the order check catches unordered IDs" ||
  fail "the order check found no violation among random UUIDs"
