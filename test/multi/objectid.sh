# ObjectId under 16 concurrent sessions x 50 000 inserts into an objectid primary key: no error,
# no duplicate, one process value per session. Over 120 separate connections, 120 different
# process values. pg_dump and restore, and binary COPY out and in, give back the same IDs.
source "$(dirname "$0")/lib.sh"
fresh_db objectid
CLIENTS=16 PER_CLIENT=${PER_CLIENT:-50000}
TOTAL=$((CLIENTS * PER_CLIENT))
md5_of() { q -d "$1" -c "SELECT md5(string_agg(id::text, ',' ORDER BY id)) FROM $2"; }

q -c "CREATE TABLE t (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), client int NOT NULL)"
echo 'INSERT INTO t (client) VALUES (:client_id);' >"$WORK/insert.sql"
bench_sessions $CLIENTS $PER_CLIENT "$WORK/insert.sql"
expect "rows" $TOTAL "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $TOTAL "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "sessions with one process value" $CLIENTS \
  "$(q -c 'SELECT count(*) FROM (SELECT client FROM t GROUP BY client HAVING count(DISTINCT substr(id::text, 9, 10)) = 1) s')"
expect "distinct process values" $CLIENTS "$(q -c 'SELECT count(DISTINCT substr(id::text, 9, 10)) FROM t')"

echo "-- 120 connections, one ObjectId each"
q -c "CREATE TABLE c (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), pid int DEFAULT pg_backend_pid())"
echo 'INSERT INTO c DEFAULT VALUES;' >"$WORK/connect.sql"
bench_sessions "4 -C" 30 "$WORK/connect.sql" >/dev/null
expect "connections" 120 "$(q -c 'SELECT count(*) FROM c')"
expect "distinct process values" 120 "$(q -c 'SELECT count(DISTINCT substr(id::text, 9, 10)) FROM c')"

[ "$IDGEN_MODE" = preloaded ] || exit 0

echo "-- pg_dump, restore into a fresh database"
restored=${PGDATABASE}_restored
"$PG_BIN/pg_dump" -d "$PGDATABASE" -f "$WORK/dump.sql"
q -d postgres -c "DROP DATABASE IF EXISTS $restored" -c "CREATE DATABASE $restored"
q -d "$restored" -f "$WORK/dump.sql" >/dev/null
expect "restored rows" $TOTAL "$(q -d "$restored" -c 'SELECT count(*) FROM t')"
expect "restored md5 equals the original" "$(md5_of "$PGDATABASE" t)" "$(md5_of "$restored" t)"
expect "restored column type" "idgen.objectid" "$(q -d "$restored" -c "SELECT atttypid::regtype FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'id'")"
q -d postgres -c "DROP DATABASE $restored"

echo "-- binary COPY out and in"
q -c "\\copy t TO '$WORK/t.bin' WITH (FORMAT binary)"
q -c "CREATE TABLE t2 (LIKE t INCLUDING ALL)"
q -c "\\copy t2 FROM '$WORK/t.bin' WITH (FORMAT binary)"
expect "binary copy md5 equals the original" "$(md5_of "$PGDATABASE" t)" "$(md5_of "$PGDATABASE" t2)"
q -c "\\copy (SELECT '\\x0102'::bytea) TO '$WORK/short.bin' WITH (FORMAT binary)"
q -c "CREATE TABLE t3 (id idgen.objectid)"
if out=$(q -c "\\copy t3 FROM '$WORK/short.bin' WITH (FORMAT binary)" 2>&1); then
  fail "a 2-byte binary objectid was accepted"
fi
grep -q 'invalid binary objectid of 2 bytes' <<<"$out" && pass "a 2-byte binary objectid is refused: $(echo "$out" | head -n 1)" ||
  fail "unexpected error: $out"

echo "-- primary-key index sizes, for information (make bench measures them)"
q -c "CREATE TABLE t_oid AS SELECT id FROM t" -c "ALTER TABLE t_oid ADD PRIMARY KEY (id)"
q -c "CREATE TABLE t_text AS SELECT id::text AS id FROM t" -c "ALTER TABLE t_text ADD PRIMARY KEY (id)"
q -c "SELECT 'built by 16 sessions: objectid ' || pg_size_pretty(pg_relation_size('t_pkey'))
        || '; built by CREATE INDEX: objectid ' || pg_size_pretty(pg_relation_size('t_oid_pkey'))
        || ', text ' || pg_size_pretty(pg_relation_size('t_text_pkey'))
        || ', ratio ' || round(pg_relation_size('t_oid_pkey')::numeric / pg_relation_size('t_text_pkey'), 3)"
