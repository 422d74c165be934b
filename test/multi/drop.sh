# DROP EXTENSION and CREATE EXTENSION under load (issue 19.6): while 4 sessions generate every
# family, another drops and re-creates the extension. Each error in that window is one a user can
# act on: the function or its schema does not exist yet or any more (42883, 3F000, 42P01), or a
# generator refuses with 55000 and a true hint; never an internal error (XX000: 1.1 raised "could
# not open relation with OID") and never a hint to run ALTER EXTENSION UPDATE on a current install.
# And no ID repeats across the re-creations.
source "$(dirname "$0")/lib.sh"
state_is_shared || { pass "skipped: needs shared state"; exit 0; }
fresh_db drop
q -c "CREATE TABLE t (i bigint, s bigint, u uuid, d bigint)"
q -d postgres -c "ALTER DATABASE $PGDATABASE SET idgen.launch_id = 7"
cat >"$WORK/gen.sql" <<'SQL'
INSERT INTO t SELECT idgen.instagram_id(3), idgen.snowflake_id(), idgen.uuidv7(), idgen.decimal_id() FROM generate_series(1, 20);
SQL
rounds=${DROP_ROUNDS:-15}
"$PG_BIN/pgbench" -n -c 4 -j 2 -T $((rounds + 4)) -f "$WORK/gen.sql" >"$WORK/bench.log" 2>&1 &
bench=$!
sleep 1
for _ in $(seq "$rounds"); do
  q -c "DROP EXTENSION idgen" 2>>"$WORK/ddl.log" || true
  sleep 0.3
  q -c "CREATE EXTENSION idgen" 2>>"$WORK/ddl.log" || true
  sleep 0.7
done
wait "$bench" || true
# pgbench aborts a client at its first error: the errors are in its log, the sessions' SQLSTATEs in
# the server's answers. Every client is restarted by the next round of pgbench, below.
{ grep -E 'ERROR' "$WORK/bench.log" || true; } | sed -E 's/.*ERROR: +//' | sort | uniq -c | sed 's/^/  /'
# What each error was: run the same statement in a loop with VERBOSITY=sqlstate-rich output.
for _ in $(seq "$rounds"); do
  q -c "DROP EXTENSION IF EXISTS idgen" >/dev/null 2>&1 &
  for _ in 1 2 3; do
    q -v VERBOSITY=verbose -f "$WORK/gen.sql" 2>>"$WORK/errors.log" || true
  done
  wait
  q -c "CREATE EXTENSION IF NOT EXISTS idgen" >/dev/null 2>&1 || true
  q -v VERBOSITY=verbose -f "$WORK/gen.sql" 2>>"$WORK/errors.log" || true
done
q -c "CREATE EXTENSION IF NOT EXISTS idgen"
touch "$WORK/errors.log"
codes() { { grep -oE 'ERROR: +[0-9A-Z]{5}:' "$WORK/errors.log" || true; } | awk '{print substr($2, 1, 5)}'; }
states=$(codes | sort | uniq -c | tr -s ' ' | tr '\n' ',')
echo "errors in the window, by SQLSTATE: ${states:-none}"
for code in $(codes | sort -u); do grep -m1 -A2 "ERROR: \+$code:" "$WORK/errors.log" | sed 's/^/  /'; done
# PostgreSQL's parser can itself lose a function dropped between finding its name and reading its
# details ("cache lookup failed for function", at func_get_detail in parse_func.c: seen once on 18 in
# a loaded run): core's race, not idgen's, reported and tolerated; any other internal error fails.
internal=$(awk '/ERROR: +XX/ { if (e != "") print e; e = $0; n = 4; next }
               n > 0 { n--; if ($0 ~ /LOCATION: +func_get_detail, parse_func\.c/ && e ~ /cache lookup failed for function/) e = ""; if (n == 0 && e != "") { print e; e = "" } }
               END { if (e != "") print e }' "$WORK/errors.log")
if grep -qE 'ERROR: +XX000: cache lookup failed for function' "$WORK/errors.log"; then
  echo "PostgreSQL's parser lost a dropped function (func_get_detail) $(grep -cE 'ERROR: +XX000: cache lookup failed for function' "$WORK/errors.log") times: tolerated"
fi
if [ -n "$internal" ]; then
  echo "$internal" | head -n 8
  fail "an internal error while the extension was dropped and re-created"
fi
if grep -qE 'could not open relation' "$WORK/errors.log" "$WORK/bench.log"; then fail "could not open relation: an internal error"; fi
if grep -q 'ALTER EXTENSION idgen UPDATE' "$WORK/errors.log" "$WORK/bench.log"; then
  grep -B3 'ALTER EXTENSION idgen UPDATE' "$WORK/errors.log" | head -n 8
  fail "a hint to update an extension that is current"
fi
# Internal errors (XX) were judged above: only core's func_get_detail race is left among them.
other=$(codes | { grep -vxE '42883|3F000|42P01|42704|55000|40P01|57014|XX[0-9A-Z]{3}' || true; } | sort -u | tr '\n' ' ')
[ -z "$other" ] || fail "unexpected SQLSTATEs while dropping: $other"
pass "every error in the window is one a user can act on"
expect "rows made across the re-creations, each family without a repeat" "0|0|0|0" \
  "$(q -c "SELECT count(i) - count(DISTINCT i), count(s) - count(DISTINCT s), count(u) - count(DISTINCT u), count(d) - count(DISTINCT d) FROM t")"
echo "rows: $(q -c 'SELECT count(*) FROM t')"
