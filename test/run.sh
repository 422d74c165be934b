#!/usr/bin/env bash
# Every test of idgen: unit tests, then on a throwaway cluster with idgen preloaded the regression
# and multi-session tests, then the same cluster restarted without preload for the fallbacks, then
# the bench in smoke mode.
# Exits non-zero when anything failed, after printing what failed.
#
#   test/run.sh                      everything (what `make test` runs, after building)
#   ONLY="uuidv7 guard" test/run.sh  only these regression and multi-session tests (by name)
#   GTEST_FILTER='Uuidv7*' test/run.sh   only these unit tests (GoogleTest's own variable)
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/cluster.sh

REGRESS=${REGRESS:-$(make -s print-REGRESS)}
REGRESS_NOT_PRELOADED=${REGRESS_NOT_PRELOADED:-$(make -s print-REGRESS_NOT_PRELOADED)}
ONLY=${ONLY:-}
PG_REGRESS="$("$PG_CONFIG" --pkglibdir)/pgxs/src/test/regress/pg_regress"
failed=()

step() { printf '\n== %s\n' "$*"; }

run_unit() {
  step "unit tests"
  build/unit_tests --gtest_brief=1 || failed+=("unit tests")
}

run_regress() {  # run_regress <label> <tests...>
  local label=$1
  shift
  [ $# -eq 0 ] && return
  step "regression tests ($label): $*"
  local out="build/regress/$label"
  rm -rf "$out" && mkdir -p "$out"
  if ! "$PG_REGRESS" --inputdir=. --outputdir="$out" --bindir="$PG_BIN" --host="$PGHOST" --port="$PGPORT" \
      --user="$PGUSER" --dbname=idgen_regression "$@"; then
    failed+=("regression tests ($label)")
    [ -f "$out/regression.diffs" ] && cat "$out/regression.diffs"
  fi
}

run_multi() {  # run_multi <preloaded|not_preloaded>
  local script name
  for script in test/multi/*.sh; do
    name=$(basename "$script" .sh)
    [ "$name" = lib ] || [ "$name" = restart ] && continue
    if [ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
    step "multi-session test $name ($1)"
    if ! IDGEN_MODE=$1 bash "$script"; then
      failed+=("multi-session $name ($1)")
    fi
  done
}

only() {  # the tests among "$@" selected by ONLY
  local t
  for t in "$@"; do
    if [ -z "$ONLY" ] || [[ " $ONLY " == *" $t "* ]]; then echo "$t"; fi
  done
}

run_unit

step "cluster with shared_preload_libraries = 'idgen'"
cluster_start preload || exit 1
# shellcheck disable=SC2046
run_regress preloaded $(only $REGRESS)
run_multi preloaded

if [ -z "$ONLY" ] || [[ " $ONLY " == *" restart "* ]]; then
  step "restart and crash"
  if ! { IDGEN_PHASE=before bash test/multi/restart.sh && cluster_start preload &&
         IDGEN_PHASE=restarted bash test/multi/restart.sh && cluster_crash_restart &&
         IDGEN_PHASE=crashed bash test/multi/restart.sh; }; then
    failed+=("restart and crash")
  fi
fi

step "the same cluster restarted without preloading idgen"
cluster_start no-preload || exit 1
# shellcheck disable=SC2046
run_regress not_preloaded $(only $REGRESS_NOT_PRELOADED)
run_multi not_preloaded

if [ -z "$ONLY" ] || [[ " $ONLY " == *" bench "* ]]; then
  step "bench, smoke mode (tiny sizes, its own cluster): make bench cannot rot"
  scripts/bench.sh --smoke >build/bench-smoke.log 2>&1 || { failed+=("bench smoke"); tail -n 20 build/bench-smoke.log; }
fi

echo
if [ ${#failed[@]} -ne 0 ]; then
  echo "FAILED: ${failed[*]}"
  echo "server log: the last lines"
  cluster_log | tail -n 30
  exit 1
fi
echo "all tests passed"
