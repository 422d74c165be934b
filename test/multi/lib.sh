# Shared by the multi-session tests: run from test/run.sh, with PGHOST/PGPORT/PGUSER set,
# IDGEN_MODE = preloaded | not_preloaded and IDGEN_MAJOR the PostgreSQL major.
set -euo pipefail
PG_BIN=$("${PG_CONFIG:-pg_config}" --bindir)
q() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# Whether the generators' state is shared by every session: preloaded, or (from PostgreSQL 17, a
# named DSM segment) always.
state_is_shared() { [ "$IDGEN_MODE" = preloaded ] || [ "${IDGEN_MAJOR:-15}" -ge 17 ]; }
pass() { echo "ok: $*"; }

# expect <what> <expected> <actual>
expect() { [ "$2" = "$3" ] && pass "$1 = $3" || fail "$1: expected $2, got $3"; }

# A scratch directory and a fresh database for one test, both gone when the test ends.
WORK=$(mktemp -d)
fresh_db() {
  export PGDATABASE="idgen_multi_$1"
  q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE" -c "CREATE DATABASE $PGDATABASE"
  q -c "CREATE EXTENSION idgen"
}
cleanup() {
  rm -rf "$WORK"
  [[ "${PGDATABASE:-}" == idgen_multi_* ]] && [ -z "${KEEP_DB:-}" ] && q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE" >/dev/null 2>&1
  return 0
}
trap cleanup EXIT

# bench_sessions <clients> <transactions per client> <script file>: pgbench, failing on any error.
bench_sessions() {
  local out
  # shellcheck disable=SC2086 # $1 may carry options: "4 -C"
  if ! out=$("$PG_BIN/pgbench" -n -c $1 -j 2 -t "$2" -f "$3" 2>&1); then
    echo "$out" | tail -n 20 >&2
    fail "pgbench reported errors"
  fi
  echo "$out" | grep -E '^(number of transactions actually processed|number of failed transactions|tps)' || true
  # (a here-string, not a pipe: grep -q leaves at its first match, and under pipefail echo's SIGPIPE
  # would read as a failure: seen once, under the sanitizers)
  grep -qE '^number of failed transactions: 0 ' <<<"$out" || fail "pgbench: failed transactions"
}

# witness_table <table> <definition of its id column>: a table of (id, client, witness) and the
# pgbench script $WORK/<table>.sql that fills it: witness is nextval() taken just before the INSERT
# that makes the id, so the next row of the same client proves the INSERT had returned.
witness_table() {
  q -c "CREATE SEQUENCE IF NOT EXISTS witness" -c "CREATE TABLE $1 (id $2, client int NOT NULL, witness bigint NOT NULL)"
  printf '%s\n' "SELECT nextval('witness') AS w \\gset" "INSERT INTO $1 (client, witness) VALUES (:client_id, :w);" >"$WORK/$1.sql"
}

# Rows of a witness table that break "an ID generated after another one returned, in any session,
# is greater".
order_violations() {
  q -c "
    WITH r AS (
      SELECT id, witness, lead(witness) OVER (PARTITION BY client ORDER BY witness) AS returned_before
      FROM $1),
    m AS (
      SELECT witness, min(returned_before) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earliest_return_above
      FROM r)
    SELECT count(*) FROM m WHERE earliest_return_above < witness"
}

# Rows that break per-session order: a later ID of one session that is not greater.
session_order_violations() {
  q -c "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY witness) AS prev FROM $1) s WHERE id <= prev"
}
