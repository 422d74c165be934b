# Every SQL example of the README and of the docs/ pages runs as written: each ```sql block, in the
# file's order, each block by psql with ON_ERROR_STOP, so that the documentation cannot rot. The
# README's blocks run in one fresh database of a server with shared state; then each page's, in a
# fresh database of its own where CREATE EXTENSION idgen has run, docs/operating.md last (its
# blocks give the server a new identity). Blocks marked otherwise (```sql partman, ```sql citus)
# need more than this server: partman.sh runs the first kind. The blocks set settings with ALTER
# SYSTEM as a user would; they are reset, and the roles they create dropped, however the test ends.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
README=${README:-"$ROOT/README.md"}  # README=<file> checks another file
PAGES="families typeid security orm operating"

if ! state_is_shared; then
  echo "skipped: the README's examples use the 64-bit families, which need shared state (preload on $IDGEN_MAJOR)"
  exit 0
fi

export PGDATABASE=idgen_multi_readme
reset_cluster() {
  local page
  q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $PGDATABASE" >/dev/null
  for page in $PAGES; do
    q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS idgen_multi_page_$page" >/dev/null
  done
  q -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS app" -c "DROP ROLE IF EXISTS mailer" \
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

# run_blocks <file> <database> <at least>: the blocks, one file each (the lines between a line
# "```sql", indented or not, and the next "```"), in order.
run_blocks() {
  local file=$1 db=$2 least=$3 name
  name=$(basename "$file" .md)
  rm -f "$WORK"/block*.sql
  awk -v dir="$WORK" '
    /^ *```sql *$/ { n++; file = sprintf("%s/block%02d.sql", dir, n); inside = 1; next }
    /^ *```/ && inside { inside = 0; close(file); next }
    inside { sub(/^  /, ""); print > file }
  ' "$file"
  blocks=$(ls "$WORK"/block*.sql 2>/dev/null | wc -l)
  [ "$blocks" -ge "$least" ] || fail "found only $blocks sql blocks in $name"
  for block in "$WORK"/block*.sql; do
    if ! out=$("$PG_BIN/psql" -X -q -d "$db" -v ON_ERROR_STOP=1 -f "$block" 2>&1); then
      echo "--- the $name block that failed:" >&2
      cat "$block" >&2
      echo "--- psql:" >&2
      echo "$out" | tail -n 20 >&2
      fail "$name example $(basename "$block" .sql) failed"
    fi
    # A reload reaches the postmaster, then new sessions: give it a moment before the next block.
    grep -q pg_reload_conf "$block" && sleep 1
  done
  pass "$name sql blocks that ran as written: $blocks"
}

run_blocks "$README" "$PGDATABASE" 15
for page in $PAGES; do
  q -d postgres -c "CREATE DATABASE idgen_multi_page_$page"
  q -d "idgen_multi_page_$page" -c "CREATE EXTENSION idgen"
  run_blocks "$ROOT/docs/$page.md" "idgen_multi_page_$page" 1
done

# What some of the examples show, checked.
expect "the first example's rows" 2 "$(q -c 'SELECT count(*) FROM events')"
expect "the DecimalId example's launch id" "65|65" "$(q -c 'SELECT min(d.launch_id), max(d.launch_id) FROM invoices, idgen.decimal_parse(id) d')"
expect "a token verifies" t "$(q -c "SELECT idgen.verify_token(idgen.signed_token('reset'))")"
expect "public ids round trip" 1001 "$(q -c 'SELECT idgen.private_id(idgen.public_id(1001))')"
expect "the converted column's new row is above the old" t "$(q -d idgen_multi_page_operating -c 'SELECT max(id) > 1 FROM legacy')"
# (the last node id the pages set is restart_at_clock's example: 18, and its function had nothing to do)
expect "node id 18 in a new Snowflake ID" 18 "$(q -c 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node')"
expect "app may make tokens" t "$(q -c "SELECT has_function_privilege('app', 'idgen.signed_token(text)', 'EXECUTE')")"
