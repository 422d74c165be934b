#!/usr/bin/env bash
# The server under sanitizers: PostgreSQL 18 built from source with AddressSanitizer and
# UndefinedBehaviorSanitizer (and assertions), idgen built the same way: make installcheck on a
# cluster that preloads idgen and on the same cluster restarted without, then the multi-session TAP
# tests, smaller (IDGEN_PER_CLIENT=1000: the server is several times slower). Passes with no report
# and no failed assertion in any server's log. Exit status 3: no source of PostgreSQL 18.
#
#   test/sanitizers/run.sh       (PROVE_TESTS and REGRESS narrow it, as in PGXS)
set -uo pipefail
cd "$(dirname "$0")/../.."
PG_CONFIG=$(scripts/pg-build.sh 18 asan) || exit $?
export PG_CONFIG IDGEN_PER_CLIENT=1000
# Every program of that build runs under the sanitizers, pg_config and psql included: options first.
source test/sanitizers/options.sh
build=(PG_CONFIG="$PG_CONFIG" IDGEN_SANITIZE=1 IDGEN_DEBUG=1)
make -s install "${build[@]}" >/dev/null || { echo "FAIL: idgen did not build with sanitizers"; exit 1; }
failed=0
source scripts/cluster.sh
for mode in preload no-preload; do
  echo "== make installcheck under sanitizers ($mode)"
  cluster_start $mode || { cluster_log | tail -n 60; exit 1; }
  make -s installcheck "${build[@]}" || { failed=1; head -n 100 build/pg18-sanitized-debug-idgen/regression.diffs; }
done
cluster_stop
echo "== the multi-session TAP tests under sanitizers"
make -s prove_check "${build[@]}" PROVE_FLAGS="-j${IDGEN_TAP_JOBS:-3} ${PROVE_FLAGS:-}" PROVE_TESTS="${PROVE_TESTS:-test/t/sessions.pl test/t/ddl.pl test/t/orm.pl test/t/upgrade.pl}" || failed=1
# A report or a failed assertion in any server process, in the servers' logs.
logs=("$CLUSTER_DIR/server.log" build/pg18-sanitized-debug-idgen/tmp_check/log/*.log)
if grep -qE 'runtime error:|ERROR: AddressSanitizer|^TRAP:' "${logs[@]}"; then
  grep -E -A24 'runtime error:|ERROR: AddressSanitizer|^TRAP:' "${logs[@]}" | head -n 120
  failed=1
fi
exit $failed
