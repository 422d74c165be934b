# Every SQL example of the README runs as written: each ```sql block, in the README's order, in one
# fresh database of a server with shared state, each block by psql with ON_ERROR_STOP, so that the
# README cannot rot. The blocks set settings with ALTER SYSTEM as a user would; they are reset, and
# the role the README creates dropped, however the test ends.
source "$(dirname "$0")/lib.sh"
README=${README:-"$(dirname "$0")/../../README.md"}  # README=<file> checks another file

if ! state_is_shared; then
  echo "skipped: the README's examples use the 64-bit families, which need shared state (preload on $IDGEN_MAJOR)"
  exit 0
fi

export PGDATABASE=idgen_multi_readme
reset_cluster() {
  q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE" -c "DROP ROLE IF EXISTS app" \
    -c "ALTER SYSTEM RESET ALL" -c "SELECT pg_reload_conf()" >/dev/null
}
trap 'reset_cluster; rm -rf "$WORK"' EXIT
reset_cluster
q -d postgres -c "CREATE DATABASE $PGDATABASE"
# The secrets, as the README's shell lines give them: files in the data directory that only the
# server's user reads, named by idgen.token_secret_file and idgen.public_id_key_file.
datadir=$(q -d postgres -c "SHOW data_directory")
owner=$(stat -c %U "$datadir")
for name in token_secret public_id_key; do
  openssl rand -hex 32 >"$datadir/idgen_$name"
  chown "$owner" "$datadir/idgen_$name"
  chmod 600 "$datadir/idgen_$name"
  q -d postgres -c "ALTER SYSTEM SET idgen.${name}_file = 'idgen_$name'" >/dev/null
done
q -d postgres -c "SELECT pg_reload_conf()" >/dev/null
sleep 1

# The blocks, one file each: the lines between a line "```sql" (indented or not) and the next "```".
awk -v dir="$WORK" '
  /^ *```sql *$/ { n++; file = sprintf("%s/block%02d.sql", dir, n); inside = 1; next }
  /^ *```/ && inside { inside = 0; close(file); next }
  inside { sub(/^  /, ""); print > file }
' "$README"
blocks=$(ls "$WORK"/block*.sql 2>/dev/null | wc -l)
[ "$blocks" -ge 20 ] || fail "found only $blocks sql blocks in the README"

for block in "$WORK"/block*.sql; do
  if ! out=$("$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -f "$block" 2>&1); then
    echo "--- the README block that failed:" >&2
    cat "$block" >&2
    echo "--- psql:" >&2
    echo "$out" | tail -n 20 >&2
    fail "README example $(basename "$block" .sql) failed"
  fi
  # A reload reaches the postmaster, then new sessions: give it a moment before the next block.
  grep -q pg_reload_conf "$block" && sleep 1
done
pass "README sql blocks that ran as written: $blocks"

# What some of the examples show, checked.
expect "the first example's rows" 2 "$(q -c 'SELECT count(*) FROM events')"
expect "the DecimalId example's launch id" "65|65" "$(q -c 'SELECT min(d.launch_id), max(d.launch_id) FROM invoices, idgen.decimal_parse(id) d')"
expect "a token verifies" t "$(q -c "SELECT idgen.verify_token(idgen.signed_token('reset'))")"
expect "public ids round trip" 1001 "$(q -c 'SELECT idgen.private_id(idgen.public_id(1001))')"
expect "the converted column's new row is above the old" t "$(q -c 'SELECT max(id) > 1 FROM legacy')"
# (the last node id the README sets is restart_at_clock's example: 18, and its function had nothing to do)
expect "node id 18 in a new Snowflake ID" 18 "$(q -c 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node')"
expect "app may make tokens" t "$(q -c "SELECT has_function_privilege('app', 'idgen.signed_token(text)', 'EXECUTE')")"
