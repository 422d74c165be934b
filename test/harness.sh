#!/usr/bin/env bash
# The test of the test harness: test/run.sh must not report a pass it did not earn. Each case runs
# test/run.sh on PostgreSQL 15 with one small test and a fault, and passes only when the run fails
# and says why: a part that aborts on a shell error (set -u); a TAP test that skips itself (there
# pg_upgrade.pl, which has no older servers to upgrade). One run without a fault must pass. And where
# the sources come from (below).
set -uo pipefail
cd "$(dirname "$0")/.."
export IDGEN_NESTED=1 MAJORS=15
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
case_() {  # case_ <name> <pass|fail> <text the output must hold> [VAR=value...]
  local name=$1 want=$2 says=$3 got
  shift 3
  env "$@" test/run.sh >"$log" 2>&1
  got=$?
  if { [ "$want" = pass ] && [ $got -eq 0 ]; } || { [ "$want" = fail ] && [ $got -ne 0 ]; }; then
    grep -qF -- "$says" "$log" && { echo "ok: $name: exit status $got, says \"$says\""; return; }
    echo "FAIL: $name: the run's output does not say \"$says\""
  else
    echo "FAIL: $name: the run exited $got, expected to $want"
  fi
  tail -n 25 "$log"
  status=1
}
case_ "no fault" pass "all tests passed" PARTS=regress REGRESS=guard
case_ "a part aborted by a shell error" fail "PostgreSQL 15: the regression part aborted" PARTS=regress REGRESS=guard IDGEN_TEST_FAULT=abort
case_ "a TAP test that skips itself" fail "a TAP test skipped itself" PARTS=tap IDGEN_TEST_FAULT=tap-skip
# Sources (issue 28, item 3): a clone with no ../shared beside it lists 16 and 19 as not run, never
# as passed; a tarball named by IDGEN_PG_SOURCE_19 is the source the build takes (the same file as
# ../shared/vendor's: the same cache key, the same runs).
vendored=$(ls "$(cd .. && pwd)"/shared/vendor/postgresql-19*.tar.* 2>/dev/null | head -n 1)
if [ -n "$vendored" ]; then
  bare=$(mktemp -d)
  git clone -q . "$bare/idgen"
  (cd "$bare/idgen" && MAJORS="16 19" PARTS=regress test/run.sh) >"$log" 2>&1
  if [ $? -eq 0 ] && grep -qF "PostgreSQL 16: every suite: not run: no source" "$log" &&
    grep -qF "PostgreSQL 19: every suite: not run: no source" "$log"; then
    echo "ok: no source: 16 and 19 listed as not run"
  else
    echo "FAIL: a clone without ../shared: 16 and 19 are not listed as not run"; tail -n 25 "$log"; status=1
  fi
  named=$(cd "$bare/idgen" && IDGEN_PG_SOURCE_19=$vendored scripts/pg-build.sh 19 --source)
  if [ "$named" = "$(realpath "$vendored")" ] && [ "$named" = "$(scripts/pg-build.sh 19 --source)" ]; then
    echo "ok: IDGEN_PG_SOURCE_19=$vendored is the source 19 builds from"
  else
    echo "FAIL: IDGEN_PG_SOURCE_19 names $vendored, the build takes '$named'"; status=1
  fi
  rm -rf "$bare"
fi
exit $status
