# Time partitioning with real pg_partman 5.x (built from Debian's source package into PostgreSQL
# 18's tree by scripts/partman-build.sh, once): docs/partman.md's "sql partman" blocks run as written
# (a table keyed by UUIDv7, one by typeid, one by Snowflake IDs in ranges of a day), then rows
# made at times spread over seven days land in the partition of their day (tableoid), nothing in
# the default partition, run_maintenance() creates the partitions ahead of the newest row, and a
# range scan on uuidv7_min / typeid_min / snowflake_min bounds prunes to the days it names.
# PostgreSQL 18 only, in the preloaded run: elsewhere it says "not run", never "ok".
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PAGE=${PAGE:-"$ROOT/docs/partman.md"}

if [ "${IDGEN_MAJOR:-}" != 18 ] || [ -n "${IDGEN_SANITIZED:-}" ] || [ "$IDGEN_MODE" != preloaded ]; then
  echo "not run: pg_partman is tested on PostgreSQL 18 (preloaded, without sanitizers) only; this is ${IDGEN_MAJOR:-?} ($IDGEN_MODE${IDGEN_SANITIZED:+, sanitizers})"
  exit 0
fi

version=$("$ROOT/scripts/partman-build.sh" "${PG_CONFIG:-pg_config}") || fail "pg_partman could not be built"
case $version in 5.*) pass "pg_partman $version installed in $("${PG_CONFIG:-pg_config}" --sharedir)" ;;
  *) fail "pg_partman $version is not 5.x" ;; esac

fresh_db partman
q -c "ALTER DATABASE $PGDATABASE SET TimeZone = 'UTC'"

# The page's blocks, in order: the lines between "```sql partman" and the next "```".
awk -v dir="$WORK" '
  /^ *```sql partman *$/ { n++; file = sprintf("%s/partman%02d.sql", dir, n); inside = 1; next }
  /^ *```/ && inside { inside = 0; close(file); next }
  inside { print > file }
' "$PAGE"
blocks=$(ls "$WORK"/partman*.sql 2>/dev/null | wc -l)
[ "$blocks" -ge 3 ] || fail "found only $blocks 'sql partman' blocks in docs/partman.md"
for block in "$WORK"/partman*.sql; do
  if ! out=$("$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -f "$block" 2>&1); then
    cat "$block" >&2
    echo "$out" | tail -n 20 >&2
    fail "docs/partman.md block $(basename "$block" .sql) failed"
  fi
done
pass "docs/partman.md 'sql partman' blocks that ran as written: $blocks"

# Partitions of a table that pg_partman made (the default one apart), and the default's rows.
parts() { q -c "SELECT count(*) FROM partman.show_partitions('public.$1')"; }
for t in app_events app_users app_clicks; do
  echo "$t: $(parts $t) partitions after create_parent"
done

# Rows made at noon UTC of the days -3 .. +3 around today, 200 a day in each table, each at its own
# millisecond. app_events and app_users have partitions for days -4 .. +4 (create_parent starts
# premake days back); app_clicks for days -3 .. +1 (its p_start_partition and premake): its rows
# of days +2 and +3 come after run_maintenance().
q <<'SQL'
CREATE TABLE made AS
SELECT d, n, date_trunc('day', now(), 'UTC') + d * interval '1 day' + interval '12 hours' + n * interval '1 ms' AS at
FROM generate_series(-3, 3) AS d, generate_series(1, 200) AS n;
INSERT INTO app_events (id, what) SELECT idgen.uuidv7(at), 'day ' || d FROM made;
INSERT INTO app_users (id, name) SELECT idgen.typeid_from_uuid('user', idgen.uuidv7(at)), 'day ' || d FROM made;
SQL
# Snowflake: no generator takes a time; an ID of that time is its _min plus a node and sequence.
clicks() { q -c "INSERT INTO app_clicks (id, url) SELECT idgen.snowflake_min(at) + 17 * 4096 + n, 'day ' || d FROM made WHERE $1"; }
clicks "d <= 1"
expect "app_users refuses a typeid of another prefix (its CHECK)" 23514 \
  "$(q -v VERBOSITY=sqlstate -c "INSERT INTO app_users (id) VALUES (idgen.typeid('post'))" 2>&1 >/dev/null | grep -oE '[0-9A-Z]{5}$')"
expect "rows in app_events" 1400 "$(q -c 'SELECT count(*) FROM app_events')"
expect "rows in app_users" 1400 "$(q -c 'SELECT count(*) FROM app_users')"
expect "rows in app_clicks" 1000 "$(q -c 'SELECT count(*) FROM app_clicks')"

decode() {
  case $1 in
    app_events) echo "idgen.uuidv7_time(id)" ;;
    app_users) echo "idgen.typeid_time(id)" ;;
    app_clicks) echo "(idgen.snowflake_parse(id)).ts" ;;
  esac
}
# Each row in the partition of its day: as many partitions hold rows as there are days, each the
# rows of one day, none the default; and each partition's bounds are the _min of the midnights
# around its rows.
lands() {  # lands <table> <days> <lower bound of a day at midnight $1, as SQL>
  expect "$1: rows in the default partition" 0 "$(q -c "SELECT count(*) FROM $1_default")"
  expect "$1: partitions holding rows | the most days in one" "$2|1" "$(q -c "
    SELECT count(*), max(days) FROM (SELECT count(DISTINCT date_trunc('day', $(decode "$1"), 'UTC')) AS days FROM $1 GROUP BY tableoid) p")"
  local next="(day + interval '1 day')"
  local lo=${3//\$1/day} hi=${3//\$1/$next}
  expect "$1: rows whose partition is not [$3, next midnight)" 0 "$(q -c "
    SELECT count(*) FROM (SELECT tableoid, date_trunc('day', $(decode "$1"), 'UTC') AS day FROM $1) r
    JOIN pg_class c ON c.oid = r.tableoid
    WHERE pg_get_expr(c.relpartbound, c.oid) <> format('FOR VALUES FROM (%L) TO (%L)', ($lo)::text, ($hi)::text)")"
}
lands app_events 7 'idgen.uuidv7_min($1)'
lands app_users 7 "idgen.typeid_min('user', \$1)"
lands app_clicks 5 'idgen.snowflake_min($1)'

# run_maintenance(): premake (4) partitions beyond the day of the newest row.
before="$(parts app_events) $(parts app_users) $(parts app_clicks)"
start=$SECONDS
q -c "SELECT partman.run_maintenance()"
after="$(parts app_events) $(parts app_users) $(parts app_clicks)"
echo "run_maintenance: $((SECONDS - start)) s; partitions of app_events, app_users, app_clicks: $before -> $after"
newest() {  # newest <table> <type of its id>: the lower bound of its newest partition
  q -c "SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''?([^'')]*)'))[1]::$2 AS lower
        FROM partman.show_partitions('public.$1') s
        JOIN pg_class c ON c.relname = s.partition_tablename AND c.relnamespace = 'public'::regnamespace
        ORDER BY lower DESC LIMIT 1"
}
midnight() { echo "date_trunc('day', now(), 'UTC') + interval '$1 days'"; }
expect "app_events: the newest partition, day +3 + 4" "$(q -c "SELECT idgen.uuidv7_min($(midnight 7))")" "$(newest app_events uuid)"
expect "app_users: the newest partition, day +3 + 4" "$(q -c "SELECT idgen.typeid_min('user', $(midnight 7))")" "$(newest app_users 'text COLLATE "C"')"
# (pg_partman counts the premade ranges of app_clicks from 0, not from its offset: it keeps 4 or 5
# ahead, each on a midnight.)
n=$(newest app_clicks bigint)
expect "app_clicks: the newest partition is a midnight of day +5 or later" t "$(q -c "
  SELECT $n >= idgen.snowflake_min($(midnight 5)) AND ($n - idgen.snowflake_min($(midnight 5))) % (86400000::bigint << 22) = 0")"
clicks "d > 1"
lands app_clicks 7 'idgen.snowflake_min($1)'

# A range scan on the _min bounds of two days reads the partitions of those two days only (the
# bounds are constants: pruned when planned).
scanned() {  # scanned <table> <lower> <upper>: the partitions EXPLAIN names
  q -c "EXPLAIN (COSTS OFF) SELECT * FROM $1 WHERE id >= $2 AND id < $3" >"$WORK/plan"
  grep -oE " on $1_(p[0-9]+|default)( |\$)" "$WORK/plan" | awk '{ print $2 }' | sort -u | tr '\n' ' '
}
for t in app_events:uuidv7_min app_users:typeid_min app_clicks:snowflake_min; do
  table=${t%%:*} f=${t#*:} args=""
  [ "$f" = typeid_min ] && args="'user', "
  lo=$(q -c "SELECT $(midnight -2)") hi=$(q -c "SELECT $(midnight 0)")
  plan=$(scanned "$table" "idgen.$f(${args}'$lo')" "idgen.$f(${args}'$hi')")
  echo "EXPLAIN of $table WHERE id >= idgen.$f(day -2) AND id < idgen.$f(day 0): $plan"
  expect "$table: partitions a two-day range scan reads" 2 "$(wc -w <<<"$plan")"
  expect "$table: rows of that range" 400 "$(q -c "SELECT count(*) FROM $table WHERE id >= idgen.$f(${args}'$lo') AND id < idgen.$f(${args}'$hi')")"
done
