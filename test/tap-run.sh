#!/usr/bin/env bash
# The TAP tests of one PostgreSQL major: PostgreSQL's own framework (PostgreSQL::Test::Cluster, run
# by prove), for what needs restarts, crashes, a clock stepped back (libfaketime around the server),
# standbys and several servers. initdb refuses root, so they run as an unprivileged user, in a
# scratch directory that is removed afterwards (kept, with its logs, when a test fails).
#
#   test/tap-run.sh 17                   every TAP test against PostgreSQL 17
#   ONLY="durable" test/tap-run.sh 15    one of them
#   PROVE_FLAGS=-v test/tap-run.sh 18    every assertion, with the figures in their names
#
# citus.pl runs a Citus cluster (scripts/citus-build.sh builds Citus into the major's tree, once):
# with 18 only (IDGEN_CITUS_MAJORS="17 18" adds 17); elsewhere, and where the checkout has no Citus
# source, it prints "not run: citus: why" (citus_shards.pl likewise) and records it for test/run.sh's list of tests not run
# (never a pass, never a silent skip).
#
# pg_upgrade.pl upgrades a cluster of PostgreSQL 17 to 18: it runs with 18 only, and is left out
# (not skipped: a skipped test fails the suite) with the others. For it this script installs idgen
# into 17's build (scripts/pg-build.sh 17, built when not cached) with make install, which rebuilds
# nothing when test/run.sh's suite of 17 ran before, and passes that bin directory in
# IDGEN_OLD_BINDIR.
#   IDGEN_PG_CONFIG=/opt/pg17/bin/pg_config test/tap-run.sh 17
#                                        against another install of that major (idgen installed there)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
major=${1:?usage: test/tap-run.sh <major>}
ONLY=${ONLY:-}

if [ -n "${IDGEN_PG_CONFIG:-}" ]; then pg_config=$IDGEN_PG_CONFIG
elif [ "$major" = 15 ]; then pg_config=/usr/lib/postgresql/15/bin/pg_config
else pg_config=$(scripts/pg-build.sh "$major") || exit 1; fi
bindir=$("$pg_config" --bindir)
pgxs_src="$(dirname "$("$pg_config" --pgxs)")/.."

# A test left out here (citus.pl, citus_shards.pl: no Citus for this major, or no Citus source in
# this checkout) says so on a "not run:" line, which test/run.sh lists apart (NOT_RUN): never counted
# as passed. not_run <test> <why>
not_run() {
  local name=$1
  shift
  echo "not run: $name: $*"
  [ -n "${NOT_RUN:-}" ] && echo "PostgreSQL $major: TAP $name: not run: $*" >>"$NOT_RUN"
  return 0
}

# The majors whose TAP run includes citus.pl (Citus builds against 16, 17 and 18; each major costs
# a Citus build of about 3.5 minutes on 2 cores, once, and the test's half minute).
citus_majors=${IDGEN_CITUS_MAJORS:-18}

tests=()
for t in test/t/*.pl; do
  name=$(basename "$t" .pl)
  [ "$name" = pg_upgrade ] && [ "$major" != 18 ] && continue
  if [[ $name == citus* ]] && [[ " $citus_majors " != *" $major "* ]]; then
    if [ -z "$ONLY" ] || [[ " $ONLY " == *" $name "* ]]; then
      not_run "$name" "the Citus tests run on PostgreSQL $citus_majors only (IDGEN_CITUS_MAJORS)"
      [ -n "$ONLY" ] && [ -n "${SELECTED:-}" ] && echo "$name" >>"$SELECTED"
    fi
    continue
  fi
  if [ -z "$ONLY" ] || [[ " $ONLY " == *" $name "* ]]; then
    tests+=("$ROOT/$t")
    [ -n "$ONLY" ] && [ -n "${SELECTED:-}" ] && echo "$name" >>"$SELECTED"
  fi
done
# The harness test (test/harness.sh): a TAP test that skips itself must fail the run.
if [ "${IDGEN_TEST_FAULT:-}" = tap-skip ]; then
  skipper=$(mktemp -d)/harness_skip.pl
  chmod 755 "$(dirname "$skipper")"
  printf '%s\n' 'use Test::More;' "plan skip_all => 'the harness test';" >"$skipper"
  tests+=("$skipper")
  [ -n "${SELECTED:-}" ] && echo harness_skip >>"$SELECTED"
fi
# citus.pl needs Citus in this PostgreSQL: scripts/citus-build.sh builds it once from the vendored
# source (status 3: no source in this checkout, so the test is not run; any other failure fails).
if [[ " ${tests[*]} " == *"/citus"*".pl "* ]]; then
  citus_status=0
  scripts/citus-build.sh "$pg_config" >/dev/null || citus_status=$?
  if [ $citus_status -eq 3 ]; then
    not_run "citus, citus_shards, citus_moves" "no Citus source (../shared/vendor/citus-*.tar.gz): Citus is not built"
    kept=()
    for t in "${tests[@]}"; do [[ $(basename "$t") == citus*.pl ]] || kept+=("$t"); done
    tests=(${kept[@]+"${kept[@]}"})
  elif [ $citus_status -ne 0 ]; then
    echo "could not build Citus for PostgreSQL $major (scripts/citus-build.sh $pg_config)"
    exit 1
  fi
fi
[ ${#tests[@]} -eq 0 ] && exit 0
old_bindir=
if [[ " ${tests[*]} " == *"/pg_upgrade.pl "* ]]; then
  old_pg_config=$(scripts/pg-build.sh 17) || exit 1
  make -s install PG_CONFIG="$old_pg_config" IDGEN_DEBUG=1 >/dev/null || { echo "could not install idgen into PostgreSQL 17 ($old_pg_config)"; exit 1; }
  old_bindir=$("$old_pg_config" --bindir)
fi
# The many-server test runs its pgbench for 10 s, and the durable test makes 200 000 IDs after a
# restart (the time of CI; IDGEN_FANIN_SECONDS and IDGEN_DURABLE_ROWS set them for a long run).
fanin_seconds=${IDGEN_FANIN_SECONDS:-10}
durable_rows=${IDGEN_DURABLE_ROWS:-200000}

user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
  user=postgres
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/idgen-tap.XXXXXX")
chown "$user" "$work"
chmod 755 "$work"

# The released scripts of earlier versions, with secondary control files that put them in schema
# idgen as their own control files did: the tests that make the databases users have install them
# (IdgenTest::install_released), and the test user cannot write the extension directory.
extdir="$("$pg_config" --sharedir)/extension"
released=()
for v in 1.0 1.1 1.2; do
  printf 'schema = idgen\n' >"$extdir/idgen--$v.control" && released+=("$extdir/idgen--$v.control")
done
for f in idgen--1.0.sql idgen--1.2.sql; do
  cp "sql/released/$f" "$extdir/" && released+=("$extdir/$f")
done
# 1.1 as one complete script (no 1.0 -> 1.1 update: 1.0 updates the way users' do, through 1.2)
scripts/chain-scripts.sh --create sql/released/idgen--1.0.sql sql/released/idgen--1.0--1.1.sql >"$extdir/idgen--1.1.sql" &&
  released+=("$extdir/idgen--1.1.sql")
trap 'rm -f "${released[@]}"' EXIT

status=0
runuser -u "$user" -- env -C "$work" PATH="$bindir:$PATH" PERL5LIB="$pgxs_src/test/perl:$ROOT/test/t" \
  PG_REGRESS="$pgxs_src/test/regress/pg_regress" TESTDIR="$work" TESTDATADIR="$work/tmp_check" \
  TESTLOGDIR="$work/log" IDGEN_MAJOR="$major" IDGEN_OLD_BINDIR="$old_bindir" IDGEN_FANIN_SECONDS="$fanin_seconds" IDGEN_DURABLE_ROWS="$durable_rows" \
  prove --timer ${PROVE_FLAGS:-} "${tests[@]}" || status=$?
if [ $status -ne 0 ]; then
  echo "TAP logs kept in $work:"
  for f in "$work"/log/* "$work"/tmp_check/log/*; do [ -f "$f" ] && { echo "--- $f (last lines)"; tail -n 40 "$f"; }; done
else
  rm -rf "$work"
fi
exit $status
