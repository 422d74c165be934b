#!/usr/bin/env bash
# Builds pg_tle (Trusted Language Extensions: how RDS, Aurora and Supabase let a role without
# superuser install an SQL extension) with PGXS for the PostgreSQL of a pg_config, into a staged
# tree in the machine's cache, once per major and source: the tests copy its files into their
# private install (test/t/sql_edition.pl). Nothing goes into the server's own directories.
#
#   scripts/pg_tle-build.sh <pg_config>   -> prints the staged tree (its lib/ and extension/)
#
# The source is ../shared/vendor/pg_tle-*.tar.gz, or the tarball IDGEN_PG_TLE_SOURCE names.
# Exit status 3: no source.
set -euo pipefail
cd "$(dirname "$0")/.."
pg_config=$(realpath "${1:?usage: scripts/pg_tle-build.sh <pg_config>}")
source scripts/cache.sh
tarball=${IDGEN_PG_TLE_SOURCE:-$(ls ../shared/vendor/pg_tle-*.tar.gz 2>/dev/null | head -n 1 || true)}
[ -n "$tarball" ] && [ -f "$tarball" ] || { echo "no pg_tle source (IDGEN_PG_TLE_SOURCE names a tarball)" >&2; exit 3; }
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
sum=$(sha256sum "$tarball" | cut -c1-16)
stage="$IDGEN_CACHE/pg_tle-$major-$sum-$(sha256sum "$pg_config" | cut -c1-8)"
if [ -f "$stage/.complete" ]; then
  echo "$stage"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
log="$IDGEN_CACHE/pg_tle-$major.log"
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
rm -rf "$stage" && mkdir -p "$stage/lib" "$stage/extension"
src=$(echo "$work"/*/)
nice make -C "$src" -s PG_CONFIG="$pg_config" with_llvm=no >"$log" 2>&1 ||
  { echo "pg_tle: build failed; the end of $log:" >&2; tail -n 30 "$log" >&2; exit 1; }
nice make -C "$src" -s PG_CONFIG="$pg_config" with_llvm=no install DESTDIR="$work/dest" >>"$log" 2>&1 ||
  { echo "pg_tle: install failed; the end of $log:" >&2; tail -n 30 "$log" >&2; exit 1; }
cp "$work/dest$("$pg_config" --pkglibdir)"/pg_tle.so "$stage/lib/"
cp "$work/dest$("$pg_config" --sharedir)"/extension/pg_tle* "$stage/extension/"
chmod -R a+rX "$stage"
touch "$stage/.complete"
echo "$stage"
