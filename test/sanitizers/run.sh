#!/usr/bin/env bash
# The server under sanitizers: PostgreSQL 18 built from source with AddressSanitizer and
# UndefinedBehaviorSanitizer (and assertions), idgen built the same way and loaded into it, and the
# whole regression suite plus the multi-session tests run against it, preloaded and not. Passes with
# no report and no failed assertion in the server's log. The multi-session tests are smaller than in
# the other runs (the server is several times slower), and skip the two checks that need its full
# speed (IDGEN_SANITIZED).
#
#   test/sanitizers/run.sh                 what make test runs (2 000 per client: SANITIZER_PER_CLIENT)
#   ONLY="uuidv7" test/sanitizers/run.sh   some tests only
set -uo pipefail
cd "$(dirname "$0")/../.."
MAJOR=${SANITIZER_MAJOR:-18}
ONLY=${ONLY:-}
export IDGEN_SANITIZED=1 PER_CLIENT=${SANITIZER_PER_CLIENT:-2000} LEAD_ROWS=${LEAD_ROWS:-200000} LEAD_TRANSACTIONS=${LEAD_TRANSACTIONS:-1}
failed=0

PG_CONFIG=$(scripts/pg-build.sh "$MAJOR" asan) || exit 1
export PG_CONFIG
# Every program of that build runs under the sanitizers, pg_config and psql included: options first.
source test/sanitizers/options.sh
make -s install PG_CONFIG="$PG_CONFIG" IDGEN_SANITIZE=1 IDGEN_DEBUG=1 >/dev/null || { echo "FAIL: idgen did not build with sanitizers"; exit 1; }
source scripts/cluster.sh
trap cluster_cleanup EXIT

selected() {
  if [ -z "$ONLY" ]; then return 0; fi
  [[ " $ONLY " == *" $1 "* ]] || return 1
  if [ -n "${SELECTED:-}" ]; then echo "$1" >>"$SELECTED"; fi
}
pg_regress="$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress"

pass() {  # pass <preloaded|not_preloaded> <regression tests...>: one server, then the tests
  local mode=$1 t script name
  shift
  cluster_start "$([ "$mode" = preloaded ] && echo preload || echo no-preload)" ||
    { echo "FAIL: the sanitized server did not start"; tail -n 60 "$CLUSTER_DIR/server.log"; exit 1; }
  local tests=()
  for t in "$@"; do selected "$t" && tests+=("$t"); done
  if [ ${#tests[@]} -gt 0 ]; then
    echo "== regression tests under sanitizers ($mode): ${tests[*]}"
    local out=build/regress/$MAJOR-sanitized/$mode
    rm -rf "$out" && mkdir -p "$out"
    if ! "$pg_regress" --inputdir=test --outputdir="$out" --bindir="$PG_BIN" --host="$PGHOST" --port="$PGPORT" \
        --user="$PGUSER" --dbname=idgen_regression "${tests[@]}"; then
      failed=1
      head -n 100 "$out/regression.diffs" 2>/dev/null
    fi
  fi
  for script in test/multi/*.sh; do
    name=$(basename "$script" .sh)
    [ "$name" = lib ] && continue
    selected "$name" || continue
    echo "== multi-session test $name under sanitizers ($mode)"
    IDGEN_MODE=$mode IDGEN_MAJOR=$MAJOR bash "$script" || failed=1
  done
}

# Preloaded (state in the main shared memory), then the same cluster without preload (state in a
# segment of the DSM registry, on 17 and later): both ways of sharing state run under sanitizers.
# shellcheck disable=SC2046
pass preloaded $(make -s print-REGRESS) $(make -s print-REGRESS_OWN_CLUSTER) $(make -s print-REGRESS_DEBUG)
# shellcheck disable=SC2046
pass not_preloaded $(make -s print-REGRESS) $(make -s print-REGRESS_OWN_CLUSTER) $(make -s print-REGRESS_DEBUG) $(make -s print-REGRESS_NOT_PRELOADED)
cluster_stop

# A report or a failed assertion in any server process, in the server's log.
reports=$(grep -cE 'runtime error:|ERROR: AddressSanitizer|^TRAP:' "$CLUSTER_DIR/server.log")
echo "sanitizer reports and failed assertions in the server log: $reports"
if [ "$reports" -ne 0 ]; then
  grep -E -A24 'runtime error:|ERROR: AddressSanitizer|^TRAP:' "$CLUSTER_DIR/server.log" | head -n 120
  failed=1
fi
exit $failed
