#!/usr/bin/env bash
# Builds pg_partman 5.x from Debian's source package (pg-partman, suite sid) with PGXS and installs
# it into the tree of the given pg_config (a copy of a source-built PostgreSQL under build/pg), once:
# a marker in that tree records the version, so the next call only prints it (a few seconds).
#
#   scripts/partman-build.sh build/pg/18/bin/pg_config   -> prints the pg_partman version installed
#
# The source comes through scripts/cache.sh's debian_source: a private apt list, its index and the
# tarball in the machine's cache, checked against the registry's sha256; the system's apt
# configuration is never changed. Exit status 3: no source could be had.
set -euo pipefail
cd "$(dirname "$0")/.."
pg_config=$(realpath "${1:?usage: scripts/partman-build.sh <pg_config>}")
source scripts/cache.sh
sharedir=$("$pg_config" --sharedir)
marker="$sharedir/extension/.idgen-partman-complete"
if [ -s "$marker" ] && [ -f "$sharedir/extension/pg_partman.control" ]; then
  cat "$marker"
  exit 0
fi
tarball=$(debian_source pg-partman 'pg-partman_5.*.orig.tar.gz') || { say "no pg-partman 5.x source"; exit 3; }
version=$(basename "$tarball" | sed -E 's/^pg-partman_(.*)\.orig\.tar\.gz$/\1/')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
log="$IDGEN_CACHE/partman-build.log"
# Called from make (make test): nothing of the calling make may leak into this one.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
make -C "$work"/*/ -s PG_CONFIG="$pg_config" with_llvm=no install >"$log" 2>&1 ||
  { say "build failed; the end of $log:"; tail -n 30 "$log" >&2; exit 1; }
echo "$version" >"$marker"
echo "$version"
