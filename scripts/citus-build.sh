#!/usr/bin/env bash
# Builds Citus once per machine for a PostgreSQL that scripts/pg-build.sh built (scripts/cache.sh:
# keyed by the source's sha256, that PostgreSQL's cache entry and the recipe) and installs it into
# that checkout's copy (build/pg/<major>), for t/citus.pl and t/citus_shards.pl; prints the source.
#
#   scripts/citus-build.sh build/pg/18/bin/pg_config
#
# The source, first found: IDGEN_CITUS_SOURCE=~/citus-13.0.tar.gz (a tarball you downloaded), then
# ../shared/vendor/citus-*.tar.gz (the project's snapshot, checked against its sha256). Exit status
# 3 when there is none: the callers list the Citus tests as "not run: no source".
set -euo pipefail
cd "$(dirname "$0")/.."
pg_config=$(realpath "${1:?usage: scripts/citus-build.sh <pg_config>}")
source scripts/cache.sh
root=$(dirname "$(dirname "$pg_config")")
from=$(sed -n 1p "$root/.from" 2>/dev/null) && [ -n "$from" ] || { say "$root is no copy of scripts/pg-build.sh"; exit 1; }

if [ -n "${IDGEN_CITUS_SOURCE:-}" ]; then
  [ -f "$IDGEN_CITUS_SOURCE" ] || { say "IDGEN_CITUS_SOURCE names $IDGEN_CITUS_SOURCE, which is no file"; exit 1; }
  tarball=$(realpath "$IDGEN_CITUS_SOURCE")
else
  tarball=$(cd .. && pwd)/shared/vendor/citus-a3d5708.tar.gz
  [ -f "$tarball" ] || { say "no Citus source (IDGEN_CITUS_SOURCE names one)"; exit 3; }
  [ "$(sha "$tarball")" = cb847e92b12a25ce1ffa6d44e9667ad304646a76ec102ad6e94f666d9cf1c1a7 ] ||
    { say "$tarball: checksum mismatch"; exit 1; }
fi
recipe="configure PG_CONFIG; make; make install DESTDIR"
key=$(sha "$tarball" | cut -c1-16)-$(sha256sum <<<"$(basename "$from") $recipe" | cut -c1-8)

build() {  # build <entry> <stage>: Citus's files, relative to the PostgreSQL's root
  local work log="$IDGEN_CACHE/citus.log" start=$SECONDS
  need_packages liblz4-dev libzstd-dev || return 1
  work=$(mktemp -d "$IDGEN_CACHE/work.XXXXXX") || return 1
  say "building Citus from $(basename "$tarball") against $("$pg_config" --version) (log: $log)"
  # (chained: set -e is off in an if's condition, and a subshell's status is its last command's)
  if ! (
    tar -xzf "$tarball" -C "$work" &&
    cd "$work"/*/ &&
    unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES &&
    ./configure PG_CONFIG="$pg_config" &&
    make -j"$(nproc)" -s &&
    make -s install DESTDIR="$work/stage"
  ) >"$log" 2>&1; then
    say "build failed; the end of $log:"
    tail -n 30 "$log" >&2
    rm -rf "$work"
    return 1
  fi
  mv "$work/stage$root" "$2" || { rm -rf "$work"; return 1; }
  rm -rf "$work"
  say "Citus built in $((SECONDS - start)) s"
}

# (an entry without the library and the control file is built again)
pkglib=$("$pg_config" --pkglibdir)
sharedir=$("$pg_config" --sharedir)
entry=$(cache_entry citus "$key" build "${pkglib#"$root"/}/citus.so" "${sharedir#"$root"/}/extension/citus.control")
# The copy's marker records the entry's build stamp: an entry built again is installed again.
if [ "$(cat "$root/.citus" 2>/dev/null)" != "$(entry_stamp "$entry")" ] || [ ! -f "$pkglib/citus.so" ]; then
  (cd "$entry" && find . -type f ! -name .manifest ! -name .complete -exec cp --parents {} "$root/" \;)
  entry_stamp "$entry" >"$root/.citus"
fi
echo "$tarball"
