#!/usr/bin/env bash
# PostgreSQL 18's extension_control_path: idgen installed outside the server's directories (make
# install prefix=...) and loaded from there, which works because idgen.control's module_pathname is
# 'idgen' (found through dynamic_library_path), not '$libdir/idgen' (the server's pkglibdir only).
#
#   test/doors/extension_control_path.sh <pg_config of PostgreSQL 18 or later>
#
# The server is a private copy of that install with no idgen in it, so that nothing can come from
# the server's own directories: without the two settings CREATE EXTENSION must fail; with
# extension_control_path alone it must fail to find the library; with both, and idgen preloaded
# through shared_preload_libraries = 'idgen', it must load the outside idgen.so (the postmaster's
# and the backend's memory maps say which file) and generate.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
src_pg_config=${1:?usage: test/doors/extension_control_path.sh <pg_config of PostgreSQL 18+>}
major=$("$src_pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
[ "$major" -ge 18 ] || { echo "FAIL: extension_control_path needs PostgreSQL 18 or later, not $major" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/idgen-ecp.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
# The server: a copy of the install (pg_config and the server find their files relative to their
# own location), without idgen.
server="$work/server"
cp -a "$("$src_pg_config" --bindir)/.." "$server"
export PG_CONFIG="$server/bin/pg_config"
rm -f "$("$PG_CONFIG" --sharedir)"/extension/idgen[._-]* "$("$PG_CONFIG" --pkglibdir)"/idgen.so
# idgen, built for that major, installed under a prefix of its own (PGXS: share/extension, lib).
outside="$work/postgresql"
# (built first: with prefix= PGXS takes every directory from it, the headers' too)
make -s -C "$ROOT" all PG_CONFIG="$PG_CONFIG" >/dev/null
make -s -C "$ROOT" install PG_CONFIG="$PG_CONFIG" prefix="$outside" >/dev/null
[ -f "$outside/share/extension/idgen.control" ] && [ -f "$outside/lib/idgen.so" ] ||
  fail "make install prefix=$outside did not install share/extension/idgen.control and lib/idgen.so"
[ -z "$(find "$server" -name 'idgen*' -print -quit)" ] || fail "the server's copy has idgen files: $(find "$server" -name 'idgen*')"

source "$ROOT/scripts/cluster.sh"
trap 'cluster_cleanup || true; rm -rf "$work"' EXIT  # (errexit holds in the trap)
cluster_start no-preload

# 1. The server's own directories have no idgen.
out=$(q -c "CREATE EXTENSION idgen" 2>&1) && fail "CREATE EXTENSION idgen found an idgen in the server's directories"
[[ "$out" == *'extension "idgen" is not available'* ]] || fail "unexpected error without the paths: $out"
pass "without extension_control_path: $out"

# 2. The control file found, the library not: module_pathname goes through dynamic_library_path.
out=$(q -c "SET extension_control_path = '\$system:$outside/share'" -c "CREATE EXTENSION idgen" 2>&1) &&
  fail "CREATE EXTENSION idgen loaded a library without dynamic_library_path naming its directory"
[[ "$out" == *'could not access file "idgen"'* ]] || fail "unexpected error without dynamic_library_path: $out"
pass "extension_control_path alone: $out"

# 3. Both, in the server's configuration, and idgen preloaded from there.
q -c "ALTER SYSTEM SET extension_control_path = '\$system:$outside/share'" \
  -c "ALTER SYSTEM SET dynamic_library_path = '\$libdir:$outside/lib'"
cluster_start preload
q -c "CREATE EXTENSION idgen"
pass "CREATE EXTENSION idgen with extension_control_path = '\$system:$outside/share'"
got=$(q -c "SELECT idgen.uuidv7_time(idgen.uuidv7()) <= now() + interval '1 minute', idgen.typeid('user') LIKE 'user\_%'")
[ "$got" = "t|t" ] || fail "the generators answered $got"
pass "idgen.uuidv7() and idgen.typeid('user') generate"
postmaster=$(head -n 1 "$CLUSTER_DIR/data/postmaster.pid")
# (the backend reads its own map: it is gone once its psql ends)
backend_maps=$(q -c "SELECT DISTINCT substring(l FROM ' (/\\S*idgen\\.so\\S*)\$')
  FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\\n') AS l WHERE l LIKE '%idgen.so%'")
postmaster_maps=$(grep -h 'idgen\.so' "/proc/$postmaster/maps" | awk '{print $6}' | sort -u)
[ "$postmaster_maps" = "$outside/lib/idgen.so" ] || fail "the postmaster (shared_preload_libraries = 'idgen') mapped: '${postmaster_maps}'"
pass "preloaded by the postmaster from $postmaster_maps"
[ "$backend_maps" = "$outside/lib/idgen.so" ] || fail "the backend mapped: '${backend_maps}'"
pass "the backend runs $backend_maps"
got=$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
[ "$got" = "$(sed -nE "s/^default_version = '(.*)'/\1/p" "$ROOT/idgen.control")" ] || fail "extversion $got"
pass "extension version $got"
# What pg_upgrade checks of a cluster (check_loadable_libraries): LOAD of every C function's probin.
# LOAD does not strip a '$libdir/' (function calls do, from 18 on): module_pathname = '$libdir/idgen'
# would fail here, with idgen outside the server's pkglibdir.
probin=$(q -c "SELECT DISTINCT probin FROM pg_proc WHERE pronamespace = 'idgen'::regnamespace AND probin IS NOT NULL")
[ "$probin" = idgen ] || fail "the C functions' probin: $probin"
q -c "LOAD '$probin'" || fail "LOAD '$probin' (what pg_upgrade runs) failed"
pass "the C functions' library is '$probin', and LOAD '$probin' (pg_upgrade's check) loads it"
