#!/usr/bin/env bash
# Every test of idgen. The format of the C++ (scripts/format-check.sh); the unit tests once; each
# fuzz harness for 10 s; then, for each PostgreSQL major (15 from Debian; 17 and 18 built once from
# Debian's source packages into build/pg/), idgen built for the tests (IDGEN_DEBUG=1) and installed
# for it and: the regression and multi-session tests on a throwaway cluster that preloads idgen, the same cluster restarted without preload, and the TAP tests (restarts,
# crashes, clock steps, standbys, many servers, dumps restored on another server, and with 18
# pg_upgrade from 17). Then the regression and multi-session tests again on a server built with
# ASan and UBSan (test/sanitizers/run.sh), the demo, and the bench in smoke mode; the doors users come
# in by (test/doors/): extension_control_path and PGXN's archive on 18, and last the Debian package
# on the system's 15. Prints the time of each part, and exits non-zero when anything failed, after
# printing what failed.
#
#   test/run.sh                          everything (what `make test` runs)
#   MAJORS="17" test/run.sh              one major
#   ONLY="uuidv7 guard" test/run.sh      only these regression, multi-session and TAP tests (by name;
#                                        "release": the check that a release build has no test fault;
#                                        "format": the check that the C++ is formatted)
#   GTEST_FILTER='Uuidv7*' test/run.sh   only these unit tests (GoogleTest's own variable)
#   PER_CLIENT=1000 test/run.sh          smaller multi-session tests, for a quick run
#   SANITIZERS=0 test/run.sh             without the run under sanitizers
#   TAP_MAJORS="15 17 18" test/run.sh    the TAP tests on 17 too (by default on 15 and 18)
#   ONLY="pgxn extension_control_path debian"   the doors (test/doors/) by name
#
# What counts as a failure, besides a test that fails: a part that aborts (a shell error, a
# signal), a name in ONLY that matches no test, and a test that reports itself skipped. The harness
# proves this of itself first (test/harness.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MAJORS=${MAJORS:-15 17 18}
RELEASE_MAJOR=${MAJORS%% *}
[[ " $MAJORS " == *" 18 "* ]] && RELEASE_MAJOR=18
ONLY=${ONLY:-}
REGRESS="$(make -s print-REGRESS) $(make -s print-REGRESS_OWN_CLUSTER) $(make -s print-REGRESS_DEBUG)"
REGRESS_NOT_PRELOADED=$(make -s print-REGRESS_NOT_PRELOADED)
# A run of the harness self-test (IDGEN_NESTED) keeps its records apart: the run that started it
# must not read the nested runs' failures as its own, nor lose its own.
RECORDS=$ROOT/build${IDGEN_NESTED:+/nested}
FAILURES=$RECORDS/test-failures
TIMES=$RECORDS/test-times
COUNTS=$RECORDS/test-counts
SELECTED=$RECORDS/test-selected  # every test name that ONLY selected and that ran
NOT_RUN=$RECORDS/test-not-run    # tests that said "not run:" (pg_partman off 18): never counted as passed
mkdir -p build "$RECORDS"
: >"$FAILURES"
: >"$TIMES"
: >"$COUNTS"
: >"$SELECTED"
: >"$NOT_RUN"
export FAILURES COUNTS SELECTED NOT_RUN

step() { printf '\n== %s\n' "$*"; }
failed() { echo "$*" >>"$FAILURES"; }
selected() {
  if [ -z "$ONLY" ]; then return 0; fi
  [[ " $ONLY " == *" $1 "* ]] || return 1
  echo "$1" >>"$SELECTED"
}
count() { echo "$*" >>"$COUNTS"; }  # count <part> <number of tests>
only() {  # the names among "$@" selected by ONLY
  local t
  for t in "$@"; do selected "$t" && echo "$t"; done
}
# timed <label> <command...>: runs the command and records how long it took.
timed() {
  local label=$1 start=$SECONDS
  shift
  "$@"
  local status=$?
  printf '%-44s %5d s\n' "$label" $((SECONDS - start)) >>"$TIMES"
  return $status
}

# The server reads idgen's files from the checkout (17 and 18 install into build/pg/) as the
# unprivileged user that runs it: the checkout must be traversable (a fresh mktemp -d is not).
# So must every directory above it (a clone inside a fresh mktemp -d, for one).
if [ "$(id -u)" -eq 0 ]; then
  [ "$(stat -c %a "$ROOT" | cut -c3)" = 5 ] || [ "$(stat -c %a "$ROOT" | cut -c3)" = 7 ] || chmod o+rx "$ROOT"
  dir=$(dirname "$ROOT")
  while [ "$dir" != / ]; do
    mode=$(stat -c %a "$dir")
    [ $((${mode: -1} & 1)) -eq 1 ] || chmod o+x "$dir"
    dir=$(dirname "$dir")
  done
fi

# The builds from source (17, 18, and 18 with sanitizers) are most of a fresh run's time: they run
# in the background, one after another, while the first major's tests run (which wait on servers,
# clocks and sessions more than on the cores); each part that needs a build waits for it, and a
# build that failed there is tried again in the foreground, where its failure is reported.
PREBUILD=$RECORDS/prebuild
prebuild_pid=
if [ -z "${IDGEN_NESTED:-}" ]; then
  rm -rf "$PREBUILD" && mkdir -p "$PREBUILD"
  builds=()
  for m in $MAJORS; do [ "$m" = 15 ] || builds+=("$m"); done
  # Citus, for 18's TAP test citus.pl (scripts/citus-build.sh: into 18's tree, once).
  [[ " $MAJORS " == *" 18 "* ]] && builds+=("citus 18")
  [ "${SANITIZERS:-1}" = 1 ] && builds+=("18 asan")
  if [ ${#builds[@]} -gt 0 ]; then
    for b in "${builds[@]}"; do : >"$PREBUILD/${b// /-}.planned"; done
    for b in "${builds[@]}"; do
      case $b in
        citus*) pg_config=$(scripts/pg-build.sh "${b#citus }" 2>/dev/null) &&
                  scripts/citus-build.sh "$pg_config" >"$PREBUILD/${b// /-}.out" 2>"$PREBUILD/${b// /-}.log" ;;
        # shellcheck disable=SC2086
        *) scripts/pg-build.sh $b >"$PREBUILD/${b// /-}.out" 2>"$PREBUILD/${b// /-}.log" ;;
      esac
      echo $? >"$PREBUILD/${b// /-}.status"
    done </dev/null &
    prebuild_pid=$!
  fi
fi
wait_build() {  # wait_build <major> [asan] | citus <major>: until that background build has ended
  local key=$1${2:+-$2}
  [ -n "$prebuild_pid" ] && [ -f "$PREBUILD/$key.planned" ] || return 0
  while [ ! -f "$PREBUILD/$key.status" ] && kill -0 "$prebuild_pid" 2>/dev/null; do sleep 2; done
}

pg_config_for() {  # the pg_config of a major: Debian's 15, or a build from source in build/pg/
  if [ "$1" = 15 ]; then
    echo /usr/lib/postgresql/15/bin/pg_config
  else
    wait_build "$1"
    scripts/pg-build.sh "$1"
  fi
}

run_unit() {
  step "unit tests"
  build/unit_tests --gtest_brief=1 | tee build/unit.log
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed "unit tests"
  count "unit tests" "$(sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?\..*/\1/p' build/unit.log | tail -n 1)"
}

# ---- one major -------------------------------------------------------------------------------

suite() {  # runs in a subshell with PG_CONFIG set; the cluster goes away with it
  local major=$1
  # The first major runs the multi-session tests at 10 000 per client (16 clients: 160 000 IDs per
  # test); the others at 5 000 (the time of CI); PER_CLIENT sets every one (50000 for a long run).
  local per_client=${PER_CLIENT:-$([ "$major" = "${MAJORS%% *}" ] && echo 10000 || echo 5000)}
  source scripts/cluster.sh
  local pg_regress
  pg_regress="$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress"

  run_regress() {  # run_regress <label> <tests...>
    local label=$1
    shift
    [ $# -eq 0 ] && return
    step "PostgreSQL $major: regression tests ($label): $*"
    local out="build/regress/$major/$label" input=test
    rm -rf "$out" && mkdir -p "$out"
    if [ "${IDGEN_TEST_FAULT:-}" = wrong-major ]; then  # the harness test: 17's output offered to 15
      input=build/harness-input
      rm -rf "$input" && mkdir -p "$input/expected" && ln -s ../../test/sql "$input/sql"
      cp test/expected/not_preloaded_1.out "$input/expected/not_preloaded.out"
    fi
    if ! "$pg_regress" --inputdir="$input" --outputdir="$out" --bindir="$PG_BIN" --host="$PGHOST" --port="$PGPORT" \
        --user="$PGUSER" --dbname=idgen_regression "$@"; then
      failed "PostgreSQL $major: regression tests ($label)"
      [ -f "$out/regression.diffs" ] && cat "$out/regression.diffs"
    fi
    count "PostgreSQL $major: regression ($label)" $#
  }

  run_multi() {  # run_multi <preloaded|not_preloaded>
    local script name ran=0
    for script in test/multi/*.sh; do
      name=$(basename "$script" .sh)
      [ "$name" = lib ] && continue
      selected "$name" || continue
      step "PostgreSQL $major: multi-session test $name ($1, $per_client per client)"
      local start=$SECONDS
      PER_CLIENT=$per_client IDGEN_MODE=$1 IDGEN_MAJOR=$major bash "$script" 2>&1 | tee "$RECORDS/multi.log"
      [ "${PIPESTATUS[0]}" -eq 0 ] || failed "PostgreSQL $major: multi-session $name ($1)"
      echo "($name: $((SECONDS - start)) s)"
      # A test that did not run here (it says "not run: why") is reported as such, not as a pass.
      if grep -q '^not run:' "$RECORDS/multi.log"; then
        echo "PostgreSQL $major: multi-session $name ($1): $(grep -m 1 '^not run:' "$RECORDS/multi.log")" >>"$NOT_RUN"
      else
        ran=$((ran + 1))
      fi
    done
    count "PostgreSQL $major: multi-session ($1)" $ran
  }

  # The build for the tests knows idgen.debug_fault; a release build (make, make install, make demo)
  # does not: there SET idgen.debug_fault is an error like any unknown idgen.* name. On one major
  # (RELEASE_MAJOR), in a session that loads each build by its path.
  run_release() {
    step "PostgreSQL $major: a release build (no IDGEN_DEBUG) has no idgen.debug_fault"
    local release=$ROOT/build/pg$major-idgen/idgen.so debug=$ROOT/build/pg$major-debug-idgen/idgen.so out
    if ! make -s all PG_CONFIG="$PG_CONFIG" >/dev/null; then
      failed "PostgreSQL $major: the release build of idgen failed"
      return
    fi
    count "PostgreSQL $major: release build checks" 4
    out=$("$PG_BIN/psql" -X -q -c "LOAD '$debug'" -c "SET idgen.debug_fault = 'random'" 2>&1) ||
      failed "PostgreSQL $major: the build for the tests does not know idgen.debug_fault: $out"
    out=$("$PG_BIN/psql" -X -q -c "LOAD '$release'" -c "SET idgen.debug_fault = 'random'" 2>&1)
    [[ $out == *'invalid configuration parameter name "idgen.debug_fault"'* ]] ||
      failed "PostgreSQL $major: the release build knows idgen.debug_fault: $out"
    # The setting's name as data (the debug information names the source file debug_fault.cpp).
    grep -qa 'idgen\.debug_fault' "$debug" || failed "PostgreSQL $major: the build for the tests lacks idgen.debug_fault"
    ! grep -qa 'idgen\.debug_fault' "$release" || failed "PostgreSQL $major: the release build's idgen.so names idgen.debug_fault"
  }

  step "PostgreSQL $major: a cluster with shared_preload_libraries = 'idgen'"
  cluster_start preload || { failed "PostgreSQL $major: the cluster did not start"; return; }
  # shellcheck disable=SC2046
  timed "PostgreSQL $major: regression, preloaded" run_regress preloaded $(only $REGRESS)
  timed "PostgreSQL $major: multi-session, preloaded" run_multi preloaded

  step "PostgreSQL $major: the same cluster restarted without preloading idgen"
  cluster_start no-preload || { failed "PostgreSQL $major: the cluster did not restart"; return; }
  # After a restart every family starts above the durable mark (README, "Restarts"): a lease a second
  # ahead of the last ID, or more where layout.sql moved an epoch later (its last IDs then lie ahead
  # under the new epoch). The regression tests that check an ID's time against the clock start once
  # the clock has passed it (17 and 18 failed "time is now" when the restart took under a second).
  local lease_ms
  lease_ms=$("$PG_BIN/psql" -X -At -d postgres -c "
    SELECT (('x' || lpad(split_part(p, '/', 1), 8, '0') || lpad(split_part(p, '/', 2), 8, '0'))::bit(64)::bigint >> 24) * 10
      - (extract(epoch FROM clock_timestamp()) * 1000)::bigint
    FROM (SELECT pg_replication_origin_progress('idgen_mark', false)::text AS p) s WHERE p IS NOT NULL" 2>/dev/null)
  if [ -n "$lease_ms" ] && [ "$lease_ms" -gt 0 ]; then
    echo "(the durable mark lies $lease_ms ms ahead of the clock: waiting for it, 60 s at most)"
    sleep "$(awk -v ms="$lease_ms" 'BEGIN { s = ms / 1000 + 0.05; if (s > 60) s = 60; print s }')"
  fi
  # From 17 on, preload is optional (the README says so): the whole suite runs without it too.
  local not_preloaded=$REGRESS_NOT_PRELOADED
  # (token and public_id write inline secrets, which idgen uses only preloaded)
  [ "$major" -ge 17 ] && not_preloaded="$(make -s print-REGRESS) $(make -s print-REGRESS_DEBUG) $REGRESS_NOT_PRELOADED"
  # shellcheck disable=SC2046
  timed "PostgreSQL $major: regression, not preloaded" run_regress not_preloaded $(only $not_preloaded)
  timed "PostgreSQL $major: multi-session, not preloaded" run_multi not_preloaded
  # On 18 where it runs (its release build is the one extension_control_path installs, built once),
  # else on the first major.
  if [ "$major" = "$RELEASE_MAJOR" ] && selected release; then
    timed "PostgreSQL $major: release build, no debug fault" run_release
  fi
  [ "${IDGEN_TEST_FAULT:-}" = abort ] && echo "the harness test: $an_unset_variable"
  [ "${IDGEN_TEST_FAULT:-}" = signal ] && kill -TERM $BASHPID
  cluster_stop

  # The TAP tests (restarts, crashes, standbys, several servers) on 15 (shared memory from the
  # preload) and 18 (the DSM registry; pg_upgrade from 17): 17 takes every path of 18 there, and its
  # regression and multi-session suites run above (the time of CI; TAP_MAJORS="15 17 18" for all).
  wait_build citus "$major"
  if [[ " ${TAP_MAJORS:-15 18} " != *" $major "* ]]; then
    echo "PostgreSQL $major: TAP tests: not run: TAP_MAJORS is \"${TAP_MAJORS:-15 18}\" (17 runs as pg_upgrade.pl's old server)" >>"$NOT_RUN"
  else
    timed "PostgreSQL $major: TAP tests" test/tap-run.sh "$major" 2>&1 | tee "build/tap-$major.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || failed "PostgreSQL $major: TAP tests"
    count "PostgreSQL $major: TAP assertions" "$(sed -nE 's/^Files=([0-9]+), Tests=([0-9]+).*/\2 in \1 files/p' "build/tap-$major.log")"
    if grep -qE '^t/.*skipped:|\.pl \.+ skipped' "build/tap-$major.log"; then
      failed "PostgreSQL $major: a TAP test skipped itself: $(grep -E 'skipped' "build/tap-$major.log" | head -n 3 | tr '\n' ' ')"
    fi
  fi
  if [ -s "$FAILURES" ] && grep -q "PostgreSQL $major" "$FAILURES"; then
    echo "server log of PostgreSQL $major: the last lines"
    cluster_log | tail -n 30
  fi
  return 0
}

if [ -z "${IDGEN_NESTED:-}" ]; then
  step "build: the unit tests and the fuzz harnesses (the builds from source go on in the background)"
  timed "build of the unit tests and fuzz harnesses" make -s --no-print-directory -j"$(nproc)" build/unit_tests fuzz-build ||
    failed "the build of the unit tests or the fuzz harnesses"
fi

if [ -z "${IDGEN_NESTED:-}" ] && selected harness; then
  step "the harness: a run that aborts, skips or matches nothing fails (test/harness.sh)"
  timed "harness self-test" test/harness.sh || failed "the harness self-test"
fi

if selected format; then
  step "format: the C++ is as clang-format writes it (scripts/format-check.sh; --fix formats it)"
  timed "format check" scripts/format-check.sh || failed "format: C++ files not formatted (scripts/format-check.sh --fix)"
fi

timed "unit tests" run_unit

if selected fuzz; then
  step "fuzzing: every harness for ${FUZZ_SECONDS:-10} s (make fuzz runs them longer)"
  timed "fuzz, ${FUZZ_SECONDS:-10} s per harness" scripts/fuzz.sh "${FUZZ_SECONDS:-10}" || failed "fuzz"
fi

for major in $MAJORS; do
  step "PostgreSQL $major: build PostgreSQL (when not cached) and idgen"
  if ! pg_config=$(timed "PostgreSQL $major: build of the server" pg_config_for "$major"); then
    failed "PostgreSQL $major: could not build the server"
    continue
  fi
  # A build for the tests: with the idgen.debug_fault setting (sql/debug_fault.sql).
  if ! timed "PostgreSQL $major: build of idgen" make -s install PG_CONFIG="$pg_config" IDGEN_DEBUG=1 >/dev/null; then
    failed "PostgreSQL $major: could not build idgen"
    continue
  fi
  # A suite that aborts (a shell error, a signal) is a failure, whatever it recorded before.
  (PG_CONFIG=$pg_config suite "$major") || failed "PostgreSQL $major: the suite aborted (exit status $?)"
done

# The doors users come in by, on 18: an install outside the server's directories found through
# extension_control_path, and PGXN's archive built and installed on its own.
if [[ " $MAJORS " == *" 18 "* ]]; then
  if selected extension_control_path; then
    step "PostgreSQL 18: idgen installed outside the server's directories (extension_control_path)"
    timed "PostgreSQL 18: extension_control_path" test/doors/extension_control_path.sh "$(pg_config_for 18)" ||
      failed "PostgreSQL 18: extension_control_path"
  fi
  if selected pgxn; then
    step "PGXN: META.json, make dist, idgen built and installed from the archive alone (PostgreSQL 18)"
    timed "PGXN: META.json and the archive" test/doors/pgxn.sh "$(pg_config_for 18)" || failed "PGXN"
  fi
fi

if [ "${SANITIZERS:-1}" = 1 ]; then
  step "PostgreSQL 18 built with ASan and UBSan (when not cached): the regression and multi-session tests"
  wait_build 18 asan
  timed "sanitizers: PostgreSQL 18 with ASan and UBSan" test/sanitizers/run.sh || failed "sanitizers"
fi

if selected demo; then
  step "make demo, as a newcomer runs it (its own cluster): the demo cannot rot"
  timed "demo" scripts/demo.sh >build/demo.log 2>&1 || { failed "demo"; tail -n 20 build/demo.log; }
fi

if selected bench; then
  step "bench, smoke mode (tiny sizes, its own cluster): make bench cannot rot"
  timed "bench, smoke mode" scripts/bench.sh --smoke >build/bench-smoke.log 2>&1 ||
    { failed "bench smoke"; tail -n 20 build/bench-smoke.log; }
fi

# The Debian package installs into the system's PostgreSQL 15: last, when nothing else uses it (it
# drops its cluster, purges the package and puts back the files make install had put there).
if [[ " $MAJORS " == *" 15 "* ]] && selected debian; then
  step "Debian: make deb, lintian, apt-get install, pg_createcluster, the autopkgtest, purge (PostgreSQL 15)"
  timed "Debian: postgresql-15-idgen" test/doors/debian.sh || failed "Debian package"
fi

# (Every background build has ended by now, unless a part that needed one was not selected.)
[ -n "$prebuild_pid" ] && wait "$prebuild_pid"

# A name in ONLY that matched no test ran nothing: that is not a pass.
for name in $ONLY; do
  grep -qx "$name" "$SELECTED" || failed "ONLY names \"$name\", which matched no test"
done

echo
echo "time of each part:"
cat "$TIMES"
echo
echo "tests run:"
sed 's/^/  /' "$COUNTS"
if [ -s "$NOT_RUN" ]; then
  echo "not run (by design, not counted above):"
  sed 's/^/  /' "$NOT_RUN"
fi
if [ -s "$FAILURES" ]; then
  echo
  echo "FAILED:"
  sed 's/^/  /' "$FAILURES"
  exit 1
fi
echo "all tests passed"
