# ULID under 8 concurrent sessions inserting into one text primary key (C collation): no error, no
# duplicate, 26 canonical characters; preloaded, cluster-wide order (an ID made after another
# returned is greater, as text and as its uuid form); not preloaded, per-session order. Random
# ULIDs (of gen_random_uuid()) through the same check prove the check can fail.
source "$(dirname "$0")/lib.sh"
fresh_db ulid
# Half of what uuidv7.sh makes: the generator is the same state word, which that test loads fully.
CLIENTS=8 PER_CLIENT=$(( ${PER_CLIENT:-50000} / 2 ))

witness_table t "text COLLATE \"C\" PRIMARY KEY DEFAULT idgen.ulid()"
witness_table control "text COLLATE \"C\" PRIMARY KEY DEFAULT idgen.ulid_from_uuid(gen_random_uuid())"
bench_sessions $CLIENTS $PER_CLIENT "$WORK/t.sql"

expect "rows" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "canonical ULIDs" $((CLIENTS * PER_CLIENT)) "$(q -c "SELECT count(*) FROM t WHERE id ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}\$'")"
expect "per-session order violations" 0 "$(session_order_violations t)"
q -c "CREATE TABLE t_uuid AS SELECT idgen.ulid_to_uuid(id) AS id, client, witness FROM t"
expect "distinct uuid forms" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(DISTINCT id) FROM t_uuid')"
expect "per-session order violations of the uuid forms" 0 "$(session_order_violations t_uuid)"
if state_is_shared; then
  expect "cluster-wide order violations" 0 "$(order_violations t)"
  expect "cluster-wide order violations of the uuid forms" 0 "$(order_violations t_uuid)"
  expect "issued in idgen.stats (UUIDv7's row) at least" t \
    "$(q -c "SELECT issued >= $((CLIENTS * PER_CLIENT)) FROM idgen.stats WHERE family = 'uuidv7'")"
fi

# The control: the same check on random ULIDs finds violations, so it is able to fail.
bench_sessions $CLIENTS 2000 "$WORK/control.sql" >/dev/null
[ "$(order_violations control)" -gt 0 ] && pass "the order check catches unordered IDs" ||
  fail "the order check found no violation among random ULIDs"

# ULIDs and UUIDv7s from one state: sessions alternating the two. The state word each was made
# from (a ULID's first 64 bits; a UUIDv7's 60 time bits and 4-bit counter) is distinct across both
# kinds, and, with shared state, in cluster-wide order. (PostgreSQL's bit operators share one
# precedence, left to right: the parentheses matter.)
witness_table mixed_ulid "text COLLATE \"C\" PRIMARY KEY DEFAULT idgen.ulid()"
witness_table mixed_uuidv7 "uuid PRIMARY KEY DEFAULT idgen.uuidv7()"
cat "$WORK/mixed_ulid.sql" "$WORK/mixed_uuidv7.sql" >"$WORK/mixed.sql"
bench_sessions $CLIENTS 2000 "$WORK/mixed.sql" >/dev/null
q -c "
  CREATE TABLE mixed AS
  SELECT ('x' || substr(replace(idgen.ulid_to_uuid(id)::text, '-', ''), 1, 16))::bit(64)::bigint AS id, client, witness
  FROM mixed_ulid
  UNION ALL
  SELECT (('x' || substr(h, 1, 12))::bit(48)::bigint << 16) | (('x' || substr(h, 14, 3))::bit(12)::bigint << 4)
         | ((('x' || substr(h, 17, 2))::bit(8)::int >> 2) & 15), client, witness
  FROM (SELECT replace(id::text, '-', '') AS h, client, witness FROM mixed_uuidv7) s"
# (Without shared state, PostgreSQL 15 not preloaded, each session has its own word: distinct per session.)
if state_is_shared; then
  expect "mixed: distinct state words" $((CLIENTS * 4000)) "$(q -c 'SELECT count(DISTINCT id) FROM mixed')"
else
  expect "mixed: distinct state words in each session" $((CLIENTS * 4000)) "$(q -c 'SELECT count(DISTINCT (client, id)) FROM mixed')"
fi
expect "mixed: per-session order violations" 0 "$(session_order_violations mixed)"
if state_is_shared; then
  expect "mixed: cluster-wide order violations" 0 "$(order_violations mixed)"
fi
