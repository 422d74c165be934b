# 2,000 databases created, used and dropped in a loop on one running server (issue 20.6): 1.1 gave
# each database that generated a slot of a fixed table of 1,024 that was never freed, so the
# 1,025th database since the start refused (53400) until a restart, and a recycled database OID
# inherited a stale slot. 1.2 keeps no state per database in shared memory: every database gets
# its IDs, none repeats another's, and the last ones lie above the first.
source "$(dirname "$0")/lib.sh"
state_is_shared || { pass "skipped: needs shared state"; exit 0; }
[ "$IDGEN_MODE" = preloaded ] || { pass "skipped: the loop runs once per server, preloaded"; exit 0; }
# 1,000 on PostgreSQL 15 (the first major of the suite: about 2 minutes alone, 4 beside the builds), 300 on the others, for
# the time of CI; DATABASES sets it.
# (50 under the sanitizers, where each database costs several times as much.)
count=${DATABASES:-$([ -n "${IDGEN_SANITIZED:-}" ] && echo 50 || { [ "${IDGEN_MAJOR:-15}" = 15 ] && echo 1000 || echo 300; })}
tpl=idgen_multi_databases_tpl
q -d postgres -c "DROP DATABASE IF EXISTS $tpl" -c "CREATE DATABASE $tpl"
q -d "$tpl" -c "CREATE EXTENSION idgen"
q -d postgres -c "DROP TABLE IF EXISTS idgen_databases" -c "CREATE TABLE idgen_databases (n int, s bigint, i bigint, d bigint)"
export PGDATABASE=postgres
start=$SECONDS
for n in $(seq "$count"); do
  db=idgen_multi_db_$((n % 7))
  printf 'CREATE DATABASE %s TEMPLATE %s STRATEGY FILE_COPY;\n\\c %s\nSET idgen.launch_id = 9;\nSELECT idgen.snowflake_id() AS s, idgen.instagram_id(5) AS i, idgen.decimal_id() AS d \\gset r_\n\\c postgres\nDROP DATABASE %s;\nINSERT INTO idgen_databases VALUES (%d, :r_s, :r_i, :r_d);\n' \
    "$db" "$tpl" "$db" "$db" "$n"
done >"$WORK/loop.sql"
q -v ON_ERROR_STOP=1 -f "$WORK/loop.sql" >/dev/null 2>"$WORK/loop.err" ||
  { tail -n 5 "$WORK/loop.err"; fail "the loop of $count databases stopped"; }
echo "($count databases created, used and dropped in $((SECONDS - start)) s)"
expect "databases that made IDs" "$count" "$(q -c 'SELECT count(*) FROM idgen_databases')"
expect "repeats across them (Snowflake, Instagram, DecimalId)" "0|0|0" \
  "$(q -c 'SELECT count(*) - count(DISTINCT s), count(*) - count(DISTINCT i), count(*) - count(DISTINCT d) FROM idgen_databases')"
expect "each database's Snowflake ID above the one before" 0 \
  "$(q -c 'SELECT count(*) FROM (SELECT s, lag(s) OVER (ORDER BY n) AS prev FROM idgen_databases) x WHERE s <= prev')"
q -c "DROP TABLE idgen_databases" -c "DROP DATABASE $tpl"
