# typeid under 16 concurrent sessions x 50 000 inserts into a text primary key: no error, no
# duplicate, every ID well-formed; preloaded, text order is cluster-wide generation order. Then the
# prefix registry survives pg_dump -Fc and pg_restore into a fresh database.
source "$(dirname "$0")/lib.sh"
fresh_db typeid
CLIENTS=16 PER_CLIENT=${PER_CLIENT:-50000}
TOTAL=$((CLIENTS * PER_CLIENT))

witness_table t "text COLLATE \"C\" PRIMARY KEY DEFAULT idgen.typeid('post')"
bench_sessions $CLIENTS $PER_CLIENT "$WORK/t.sql"
expect "rows" $TOTAL "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $TOTAL "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "distinct uuids" $TOTAL "$(q -c 'SELECT count(DISTINCT (idgen.typeid_parse(id)).id) FROM t')"
expect "well-formed" $TOTAL "$(q -c "SELECT count(*) FROM t WHERE idgen.typeid_is_valid(id, 'post') AND id ~ '^post_[0-9a-z]{25}\$'")"
expect "per-session order violations" 0 "$(session_order_violations t)"
if state_is_shared; then
  expect "cluster-wide order violations" 0 "$(order_violations t)"
fi

[ "$IDGEN_MODE" = preloaded ] || exit 0

echo "-- the prefix registry through pg_dump -Fc and pg_restore"
q -c "SELECT idgen.register_prefix('post', 't')" >/dev/null
restored=${PGDATABASE}_restored
"$PG_BIN/pg_dump" -Fc -d "$PGDATABASE" -f "$WORK/dump.custom"
q -d postgres -c "DROP DATABASE IF EXISTS $restored" -c "CREATE DATABASE $restored"
"$PG_BIN/pg_restore" --exit-on-error -d "$restored" "$WORK/dump.custom"
expect "registry rows after restore" "post|t" "$(q -d "$restored" -c 'SELECT prefix, tbl FROM idgen.prefix_registry')"
expect "an ID leads back to its table after restore" "t" "$(q -d "$restored" -c 'SELECT DISTINCT idgen.typeid_table(id) FROM t')"
expect "a second registration is still refused" "23505" \
  "$(q -d "$restored" -v VERBOSITY=sqlstate -c "SELECT idgen.register_prefix('post', 'pg_class')" 2>&1 | sed -n 's/^ERROR: *//p')"
q -d postgres -c "DROP DATABASE $restored"

echo "-- the registry stays true: a dropped table leaves it, a renamed one keeps its row, through a dump"
q -c "CREATE TABLE doomed (id text)" -c "CREATE TABLE renamed_later (id text)" \
  -c "SELECT idgen.register_prefix('doomed', 'doomed'), idgen.register_prefix('kept', 'renamed_later')" >/dev/null
q -c "DROP TABLE doomed" -c "ALTER TABLE renamed_later RENAME TO renamed_now" -c "CREATE TABLE doomed (unrelated int)"
expect "registry after DROP and RENAME" "kept|renamed_now,post|t" \
  "$(q -c "SELECT string_agg(prefix || '|' || tbl::text, ',' ORDER BY prefix) FROM idgen.prefix_registry")"
"$PG_BIN/pg_dump" -Fc -d "$PGDATABASE" -f "$WORK/dump2.custom"
q -d postgres -c "DROP DATABASE IF EXISTS $restored" -c "CREATE DATABASE $restored"
"$PG_BIN/pg_restore" --exit-on-error -d "$restored" "$WORK/dump2.custom"
expect "registry after restore" "kept|renamed_now,post|t" \
  "$(q -d "$restored" -c "SELECT string_agg(prefix || '|' || tbl::text, ',' ORDER BY prefix) FROM idgen.prefix_registry")"
q -d postgres -c "DROP DATABASE $restored"

echo "-- messages quote input cut on a character boundary of the database's encoding (EUC_JP)"
q -d postgres -c "DROP DATABASE IF EXISTS idgen_multi_eucjp" \
  -c "CREATE DATABASE idgen_multi_eucjp ENCODING 'EUC_JP' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
q -d idgen_multi_eucjp -c "CREATE EXTENSION idgen"
out=$(PGCLIENTENCODING=UTF8 "$PG_BIN/psql" -X -At -d idgen_multi_eucjp -v VERBOSITY=verbose \
  -c "SELECT idgen.typeid_parse('a' || repeat('漢', 80) || '_00000000000000000000000000')" 2>&1 || true)
echo "$out" | head -n 1 | cut -c1-120
grep -q "ERROR:  22P02" <<<"$out" && pass "a long non-ASCII typeid in EUC_JP is 22P02" || fail "expected 22P02: $out"
q -d postgres -c "DROP DATABASE idgen_multi_eucjp"
