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
if [ "$IDGEN_MODE" = preloaded ]; then
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
