#!/usr/bin/env bash
# The TAP tests of test/t (PostgreSQL::Test::Cluster, run by prove) with the PostgreSQL of a
# pg_config, as PGXS runs them: what make prove_installcheck and make prove_check call.
# PROVE_TESTS (default test/t/*.pl) and PROVE_FLAGS as in PGXS. initdb refuses root: as root the
# tests run as user postgres (made when missing). The data and logs go to <dir>/tmp_check, kept.
#
#   test/tap-run.sh <pg_config> <dir>
set -euo pipefail
pg_config=${1:?usage: test/tap-run.sh <pg_config> <dir>}
dir=$(mkdir -p "${2:?usage: test/tap-run.sh <pg_config> <dir>}" && cd "$2" && pwd)
cd "$(dirname "$0")/.."
pgxs=$(dirname "$("$pg_config" --pgxs)")/..  # (its src/)
# (IDGEN_TAP_MORE=1: a later batch of the same run, which keeps the logs of the one before)
[ -n "${IDGEN_TAP_MORE:-}" ] || rm -rf "$dir/tmp_check"
mkdir -p "$dir/tmp_check/log"
as=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  chown -R postgres "$dir/tmp_check"
  # (a private copy of make prove_check: its extension directory is the tests' to write, for the
  # released scripts that the update tests install there)
  # and its library directory, where a test installs pg_tle (t/sql_edition.pl)
  case $pg_config in "$dir/tmp_install/"*) chown -R postgres "$("$pg_config" --sharedir)/extension" "$("$pg_config" --pkglibdir)" ;; esac
  as=(runuser -u postgres --)
fi
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')  # (IDGEN_MAJOR: what a test does differs by major)
# shellcheck disable=SC2086 # (lists, as PGXS passes them)
exec "${as[@]}" env PATH="$("$pg_config" --bindir):$PATH" IDGEN_MAJOR="$major" TESTDIR="$dir" TESTDATADIR="$dir/tmp_check" \
  TESTLOGDIR="$dir/tmp_check/log" PG_REGRESS="$pgxs/test/regress/pg_regress" \
  prove -I "$pgxs/test/perl" -I test/t ${PROVE_FLAGS:-} ${PROVE_TESTS:-test/t/*.pl}
