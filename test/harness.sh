#!/usr/bin/env bash
# The test of the test harness: test/run.sh must not report a pass it did not earn. Each case runs
# test/run.sh (one major, one small test) with a fault, and passes only when the run fails and says
# why:
#   - a suite that aborts on a shell error (set -u) or on a signal;
#   - an ONLY that names no test;
#   - a TAP test that skips itself;
#   - an expected output of another major: not_preloaded's output for 17+ (state in the DSM
#     registry) run on 15 without preload, where the 64-bit generators must refuse instead.
# And one run without a fault, which must pass: the faults, not the harness, make the others fail.
#
#   test/harness.sh           what make test runs first (PostgreSQL 15, about a minute)
set -uo pipefail
cd "$(dirname "$0")/.."
export IDGEN_NESTED=1 SANITIZERS=0 MAJORS=15 GTEST_FILTER=Layouts.DecodesLieInTheirTickAboveTheirBoundAndRoundTrip
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# case <name> <expected status: pass|fail> <text the output must hold> [VAR=value...]
case_() {
  local name=$1 want=$2 says=$3
  shift 3
  env "$@" test/run.sh >"$log" 2>&1
  local got=$?
  if { [ "$want" = pass ] && [ $got -eq 0 ]; } || { [ "$want" = fail ] && [ $got -ne 0 ]; }; then
    if grep -qF -- "$says" "$log"; then
      echo "ok: $name: the run $([ "$want" = pass ] && echo passed || echo "failed ($got)") and says \"$says\""
      return
    fi
    echo "FAIL: $name: the run's output does not say \"$says\""
  else
    echo "FAIL: $name: the run exited $got, expected to $want"
  fi
  tail -n 25 "$log"
  status=1
}

case_ "no fault" pass "all tests passed" ONLY="guard"
case_ "a suite aborted by a shell error" fail "PostgreSQL 15: the suite aborted" ONLY="guard" IDGEN_TEST_FAULT=abort
case_ "a suite killed by a signal" fail "PostgreSQL 15: the suite aborted" ONLY="guard" IDGEN_TEST_FAULT=signal
case_ "an ONLY that names no test" fail 'ONLY names "no_such_test", which matched no test' ONLY="guard no_such_test"
case_ "a TAP test that skips itself" fail "a TAP test skipped itself" ONLY="harness_skip" IDGEN_TEST_FAULT=tap-skip
case_ "an expected output of another major" fail "regression tests (not_preloaded)" ONLY="not_preloaded" IDGEN_TEST_FAULT=wrong-major
exit $status
