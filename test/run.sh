#!/usr/bin/env bash
# Every test of idgen (make test; CI: .ci/run). The format of the C++, the unit tests, each fuzz
# harness for 10 s; then for each PostgreSQL major (15 from Debian; 16 to 19 built from source,
# scripts/pg-build.sh, in the background while the tests run), idgen built for the tests
# (IDGEN_DEBUG=1) and:
#   - make installcheck on a throwaway cluster that preloads idgen, then on the same cluster
#     restarted without preload and configured (a launch id, a node id, both secrets): every major;
#   - make prove_check, the TAP tests of test/t: all of them on the oldest and the newest major
#     (15, 19; on 19 pg_upgrade.pl takes a cluster of 17 through 18 to 19), the Citus tests and
#     pg_partman on 18, none on 16 and 17.
# Then PostgreSQL 18 built with ASan and UBSan (test/sanitizers/run.sh), the doors users come in by
# (test/doors/: extension_control_path and PGXN's archive on 18, the Debian package on 15, last),
# the demo and the bench in smoke mode. It prints the time of each part, what it did not run on
# which major and why (never counted as passed), and what failed; it exits non-zero on a failure.
#
#   test/run.sh                               everything
#   MAJORS="15 18" test/run.sh                some majors
#   PARTS="regress tap" test/run.sh           some parts: format unit sim fuzz regress tap sanitizers doors
#                                             demo bench harness (default: all)
#   PROVE_TESTS=test/t/durable.pl REGRESS=uuidv7 test/run.sh   some TAP and regression tests (PGXS's)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MAJORS=${MAJORS:-15 16 17 18 19}
PARTS=${PARTS:-format unit sim fuzz regress tap sanitizers doors demo bench harness}
FULL="${MAJORS%% *} ${MAJORS##* }"  # the oldest and the newest major: every suite
R=$ROOT/build/run${IDGEN_NESTED:+-nested}
mkdir -p "$R" && : >"$R/failures" && : >"$R/times" && : >"$R/counts" && : >"$R/not-run"

# Every compile goes through ccache (make test-deps installs it), its cache per machine beside the
# builds from source: a run compiles only what changed since one before, in any clone.
if command -v ccache >/dev/null; then
  export IDGEN_CCACHE=1 CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=2G
  export CCACHE_DIR=${IDGEN_CACHE:-$([ "$(id -u)" -eq 0 ] && echo /var/cache/idgen || echo "$HOME/.cache/idgen")}/ccache
fi

step() { printf '\n== %s\n' "$*"; }
failed() { echo "$*" >>"$R/failures"; }
not_run() { echo "$*" >>"$R/not-run"; }
part() { [[ " $PARTS " == *" $1 "* ]]; }
timed() {  # timed <label> <command...>: runs it, records how long it took
  local label=$1 start=$SECONDS status
  shift
  "$@"
  status=$?
  printf '%-52s %5d s\n' "$label" $((SECONDS - start)) >>"$R/times"
  return $status
}

# The server reads idgen's files from the checkout as the unprivileged user that runs it: the
# checkout and every directory above it must be traversable (a fresh mktemp -d is not).
if [ "$(id -u)" -eq 0 ]; then
  dir=$ROOT
  while [ "$dir" != / ]; do
    [ $(($(stat -c %a "$dir") & 1)) -eq 1 ] || chmod o+x "$dir"
    dir=$(dirname "$dir")
  done
fi

# The builds from source run in the background, one after another, in the order the tests need
# them; each part waits for its build. Exit status 3 of pg-build.sh: no source for that major.
B=$R/builds
prebuild_pid=
if [ -z "${IDGEN_NESTED:-}" ]; then
  rm -rf "$B" && mkdir -p "$B"
  builds=()
  for m in $MAJORS; do  # (Citus right after 18, which it needs)
    [ "$m" = 15 ] || builds+=("$m")
    [ "$m" = 18 ] && part tap && builds+=(citus)
  done
  part sanitizers && builds+=("18 asan")
  for b in "${builds[@]}"; do : >"$B/${b// /-}.planned"; done
  for b in "${builds[@]}"; do
    # shellcheck disable=SC2086
    case $b in
      citus) scripts/citus-build.sh "$(scripts/pg-build.sh 18 2>/dev/null)" ;;
      *) scripts/pg-build.sh $b ;;
    esac >"$B/${b// /-}.out" 2>"$B/${b// /-}.log"
    echo $? >"$B/${b// /-}.status"
  done </dev/null &
  prebuild_pid=$!
fi
wait_build() {  # wait_build <key>: until that background build has ended
  [ -n "$prebuild_pid" ] && [ -f "$B/$1.planned" ] || return 0
  while [ ! -f "$B/$1.status" ] && kill -0 "$prebuild_pid" 2>/dev/null; do sleep 2; done
}
pg_config_for() {  # prints the pg_config of a major; exit status 3: no source
  [ "$1" = 15 ] && { echo /usr/lib/postgresql/15/bin/pg_config; return 0; }
  wait_build "$1"
  scripts/pg-build.sh "$1"
}

# ---- the parts without a server ----------------------------------------------------------------

if [ -z "${IDGEN_NESTED:-}" ] && { part unit || part fuzz; }; then
  step "build: the unit tests and the fuzz harnesses (the builds from source go on in the background)"
  timed "build of the unit tests and fuzz harnesses" make -s --no-print-directory -j"$(nproc)" build/unit_tests fuzz-build ||
    failed "the build of the unit tests or the fuzz harnesses"
fi
if part harness && [ -z "${IDGEN_NESTED:-}" ]; then
  step "the harness: a part that aborts or a TAP test that skips fails the run (test/harness.sh)"
  timed "harness self-test" test/harness.sh || failed "the harness self-test"
  step "the builds' cache: a failed build is never recorded, a broken entry is built again (test/build_cache.sh)"
  timed "builds' cache" test/build_cache.sh || failed "the builds' cache test"
fi
if part format; then
  step "format: the C++ is as clang-format writes it; commit subjects (scripts/format-check.sh)"
  timed "format check" scripts/format-check.sh || failed "format (scripts/format-check.sh)"
fi
if part unit; then
  step "unit tests"
  timed "unit tests" build/unit_tests --gtest_brief=1 | tee "$R/unit.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed "unit tests"
  echo "unit tests: $(sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?\..*/\1/p' "$R/unit.log" | tail -n 1)" >>"$R/counts"
fi
if part sim; then
  step "the simulator of the durable-state protocol: 30 million steps, then every historic route (test/sim)"
  timed "simulator and its self-test" make -s --no-print-directory sim sim-selftest || failed "the simulator (make sim, make sim-selftest)"
fi
if part fuzz; then
  step "fuzzing: every harness for 10 s (make fuzz runs them longer)"
  timed "fuzz, 10 s per harness" scripts/fuzz.sh 10 || failed "fuzz"
fi

# ---- each major --------------------------------------------------------------------------------

regress() {  # regress <major> <pg_config>: make installcheck, preloaded, then not and configured
  PG_CONFIG=$2  # (the server of scripts/cluster.sh: this major's; run in a subshell)
  source scripts/cluster.sh
  local label
  for label in "preloaded" "not preloaded, configured"; do
    step "PostgreSQL $1: make installcheck, $label"
    if [ "$label" = preloaded ]; then
      cluster_start preload || return 1
    else
      # (the node identity and the launch id are the server's alone: the tests that need them set
      # them with ALTER SYSTEM, and expect the defaults otherwise). A new cluster: on 17 and later
      # a server that does not preload idgen still shares its state, and one restarted within a
      # lease of the preloaded run's last IDs would start its UUIDv7s above them, ahead of the
      # clock, which the tests of "the time is now" would read as a fault.
      cluster_cleanup || true
      CLUSTER_DIR=""
      cluster_start no-preload \
        "idgen.token_secret = 'the secret of a configured server, 32 bytes or more'" \
        "idgen.public_id_key = 'the public id key of a configured server, 32 bytes'" || return 1
    fi
    make -s installcheck PG_CONFIG="$2" IDGEN_DEBUG=1 ${REGRESS:+REGRESS="$REGRESS"} 2>&1 | tee "$R/regress.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { failed "PostgreSQL $1: make installcheck, $label"; cat "build/pg$1-debug-idgen/regression.diffs"; }
    echo "PostgreSQL $1: regression, $label: $(grep -cE '^(not )?ok [0-9]|^test [a-z0-9_]+ +\.\.\. ' "$R/regress.log") tests" >>"$R/counts"
  done
  [ "${IDGEN_TEST_FAULT:-}" = abort ] && echo "the harness test: $an_unset_variable"
  return 0
}

tap() {  # tap <major> <pg_config> <tests...>: make prove_check of those tests
  local m=$1 pg_config=$2 log=$R/tap-$1.log t
  shift 2
  [ $# -gt 0 ] || return 0
  # The tests wait far more than they compute: they run IDGEN_TAP_JOBS (3) at a time; but those
  # that move files of the install every test shares (the SQL edition's installs set idgen's or
  # the edition's files aside, and install pg_tle), after them, alone.
  # (the longest first, so that the batch does not end waiting on one of them)
  local together=() alone=() slow=" ddl standby sql_edition_identity sessions durable fanin marks sql_edition_promises restore "
  for t in "$@"; do
    case $t in */sql_edition.pl | */sql_edition_forms.pl) alone+=("$t") ;; esac
  done
  for t in "$@"; do [[ $slow == *" $(basename "$t" .pl) "* ]] && together+=("$t"); done
  for t in "$@"; do
    [[ $slow == *" $(basename "$t" .pl) "* || " ${alone[*]} " == *" $t "* ]] || together+=("$t")
  done
  : >"$log"
  tap_batch "$m" "$pg_config" "$log" "-j${IDGEN_TAP_JOBS:-3}" "${together[@]}"
  IDGEN_TAP_MORE=${together[0]:+1} tap_batch "$m" "$pg_config" "$log" "" "${alone[@]}"
  # A test that skips itself here was chosen to run: that is no pass.
  grep -E '\.pl \.+ skipped' "$log" | sed "s/^/PostgreSQL $m: a TAP test skipped itself: /" >>"$R/failures"
  echo "PostgreSQL $m: TAP $(sed -nE 's/^Files=([0-9]+), Tests=([0-9]+).*/\1 \2/p' "$log" |
    awk '{f += $1; t += $2} END {printf "%d assertions in %d files", t, f}')" >>"$R/counts"
}
tap_batch() {  # tap_batch <major> <pg_config> <log> <prove flags> <tests...>
  local m=$1 pg_config=$2 log=$3 flags=$4
  shift 4
  [ $# -gt 0 ] || return 0
  step "PostgreSQL $m: make prove_check ${flags:+($flags)}: $*"
  make -s prove_check PG_CONFIG="$pg_config" IDGEN_DEBUG=1 PROVE_TESTS="$*" PROVE_FLAGS="--timer $flags ${PROVE_FLAGS:-}" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed "PostgreSQL $m: TAP tests (logs: build/pg$m-debug-idgen/tmp_check/log)"
}

installed=()  # the bin directories where idgen is installed (the upgrade chain's old servers)
for m in $MAJORS; do
  step "PostgreSQL $m: the server (built when not cached) and idgen"
  pg_config=$(timed "PostgreSQL $m: build of the server" pg_config_for "$m")
  case $? in
    0) ;;
    3) not_run "PostgreSQL $m: every suite: not run: no source (IDGEN_PG_SOURCE_$m names a tarball)"; continue ;;
    *) failed "PostgreSQL $m: could not build the server"; continue ;;
  esac
  if ! timed "PostgreSQL $m: build of idgen" make -s install PG_CONFIG="$pg_config" IDGEN_DEBUG=1 >/dev/null; then
    failed "PostgreSQL $m: could not build idgen"
    continue
  fi
  if part regress; then
    (timed "PostgreSQL $m: make installcheck, twice" regress "$m" "$pg_config") ||
      failed "PostgreSQL $m: the regression part aborted (exit status $?)"
  fi
  if part tap; then
    tests=()
    for t in test/t/*.pl; do
      name=$(basename "$t" .pl)
      [ -n "${PROVE_TESTS:-}" ] && [[ " $PROVE_TESTS " != *" $t "* ]] && continue
      case $name:$m in
        citus*:18)
          wait_build citus
          scripts/citus-build.sh "$pg_config" >/dev/null
          case $? in 0) ;; 3) not_run "PostgreSQL 18: TAP $name: not run: no Citus source (IDGEN_CITUS_SOURCE names one)"; continue ;;
            *) failed "PostgreSQL 18: could not build Citus"; continue ;; esac ;;
        partman:18)
          scripts/partman-build.sh "$pg_config" >/dev/null || { failed "PostgreSQL 18: could not build pg_partman"; continue; } ;;
        citus*:* | partman:*) not_run "PostgreSQL $m: TAP $name: not run: on 18 only"; continue ;;
        pg_upgrade:"${MAJORS##* }")
          if [ ${#installed[@]} -lt 2 ]; then not_run "PostgreSQL $m: TAP pg_upgrade: not run: needs 17 and 18 in this run"; continue; fi ;;
        pg_upgrade:*) not_run "PostgreSQL $m: TAP pg_upgrade: not run: the chain 17 -> 18 -> 19 runs with the newest major"; continue ;;
        sql_edition:* | sql_edition_move:* | sql_edition_forms:* | sql_edition_identity:* | sql_edition_guard:*) ;;  # (the SQL edition installs, updates, compares, moves and keeps its identity on every major)
        *:18) [[ " $FULL " == *" 18 "* ]] || { not_run "PostgreSQL 18: TAP $name: not run: the whole TAP suite runs on $FULL"; continue; } ;;
        *) [[ " $FULL " == *" $m "* ]] || { not_run "PostgreSQL $m: TAP $name: not run: the whole TAP suite runs on $FULL"; continue; } ;;
      esac
      tests+=("$t")
    done
    # pg_tle for the installs of t/sql_edition.pl and t/sql_edition_forms.pl by a role without
    # superuser (scripts/pg_tle-build.sh)
    unset IDGEN_PG_TLE
    if [[ " ${tests[*]} " == *" test/t/sql_edition.pl "* || " ${tests[*]} " == *" test/t/sql_edition_forms.pl "* ]]; then
      tle=$(scripts/pg_tle-build.sh "$pg_config")
      case $? in
        0) export IDGEN_PG_TLE=$tle ;;
        3) not_run "PostgreSQL $m: TAP sql_edition, the pg_tle install: not run: no pg_tle source (IDGEN_PG_TLE_SOURCE names one)" ;;
        *) failed "PostgreSQL $m: could not build pg_tle" ;;
      esac
    fi
    # uuidv47's reference and its Rust port for t/public_uuid.pl, from the sources in IDGEN_PEERS
    # (scripts/peers-build.sh: never downloaded)
    if [[ " ${tests[*]} " == *" test/t/public_uuid.pl "* ]]; then
      while read -r line; do
        case $line in *": built from "*) ;; *) not_run "PostgreSQL $m: TAP public_uuid, the peer ${line%%:*}: not run: ${line#*: }" ;; esac
      done < <(scripts/peers-build.sh)
    fi
    [ "${IDGEN_TEST_FAULT:-}" = tap-skip ] && tests=(test/t/pg_upgrade.pl)  # (the harness test: it skips)
    # (the edition's comparison: 100,000 inputs a family on the newest major, 5,000 on the others)
    rows=5000; [ "$m" = "${MAJORS##* }" ] && rows=100000
    IDGEN_EDITION_ROWS=${IDGEN_EDITION_ROWS:-$rows} IDGEN_UPGRADE_FROM="${installed[*]}" \
      timed "PostgreSQL $m: TAP tests" tap "$m" "$pg_config" "${tests[@]}"
  fi
  case $m in 17 | 18) installed+=("$("$pg_config" --bindir)") ;; esac
  # The release build (no IDGEN_DEBUG) knows no idgen.debug_fault: the one extension_control_path
  # installs on 18.
  if [ "$m" = 18 ] && part doors; then
    step "PostgreSQL 18: a release build has no idgen.debug_fault; extension_control_path; PGXN"
    make -s all PG_CONFIG="$pg_config" >/dev/null || failed "PostgreSQL 18: the release build of idgen"
    ! grep -qa 'idgen\.debug_fault' build/pg18-idgen/idgen.so && grep -qa 'idgen\.debug_fault' build/pg18-debug-idgen/idgen.so ||
      failed "PostgreSQL 18: the release build names idgen.debug_fault, or the build for the tests does not"
    timed "PostgreSQL 18: extension_control_path" test/doors/extension_control_path.sh "$pg_config" || failed "extension_control_path"
    timed "PGXN: META.json and the archive" test/doors/pgxn.sh "$pg_config" || failed "PGXN"
  fi
done

# ---- the rest ----------------------------------------------------------------------------------

if part sanitizers; then
  step "PostgreSQL 18 built with ASan and UBSan (when not cached): installcheck and the multi-session TAP tests"
  wait_build 18-asan
  timed "sanitizers: PostgreSQL 18 with ASan and UBSan" test/sanitizers/run.sh
  case $? in 0) ;; 3) not_run "sanitizers: not run: no source of PostgreSQL 18" ;; *) failed "sanitizers" ;; esac
fi
if part demo; then
  step "make demo, as a newcomer runs it (its own cluster)"
  timed "demo" scripts/demo.sh >"$R/demo.log" 2>&1 || { failed "demo"; tail -n 20 "$R/demo.log"; }
fi
if part bench; then
  step "bench, smoke mode (tiny sizes, its own cluster)"
  timed "bench, smoke mode" scripts/bench.sh --smoke >"$R/bench.log" 2>&1 || { failed "bench smoke"; tail -n 20 "$R/bench.log"; }
fi
# The Debian package installs into the system's PostgreSQL 15: last, when nothing else uses it.
if part doors && [[ " $MAJORS " == *" 15 "* ]]; then
  step "Debian: make deb, lintian, apt-get install, pg_createcluster, the autopkgtest, purge (PostgreSQL 15)"
  timed "Debian: postgresql-15-idgen" test/doors/debian.sh || failed "Debian package"
fi
[ -n "$prebuild_pid" ] && wait "$prebuild_pid"
for f in "$B"/*.status; do  # a background build nobody waited for, that failed
  [ -f "$f" ] && [ "$(cat "$f")" != 0 ] && [ "$(cat "$f")" != 3 ] && failed "the build $(basename "$f" .status): $(tail -n 3 "${f%.status}.log")"
done

printf '\ntime of each part:\n' && cat "$R/times"
printf '\ntests run:\n' && sed 's/^/  /' "$R/counts"
[ -s "$R/not-run" ] && printf 'not run (never counted as passed):\n' && sed 's/^/  /' "$R/not-run"
if [ -s "$R/failures" ]; then
  printf '\nFAILED:\n' && sed 's/^/  /' "$R/failures"
  exit 1
fi
echo "all tests passed"
