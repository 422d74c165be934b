#!/usr/bin/env bash
# Builds pg_partman 5.x from Debian's source package with PGXS and installs it into the tree of
# the given pg_config (a source-built PostgreSQL under build/pg), once: a marker in that tree
# records the version, so the next call only prints it. A rebuilt PostgreSQL (scripts/pg-build.sh
# removes its tree) loses the marker and gets pg_partman again.
#
#   scripts/partman-build.sh build/pg/18/bin/pg_config   -> prints the pg_partman version installed
#
# The source: `apt-get source --download-only pg-partman` (suite sid: 5.5.0; the deb-src lines are
# the ones scripts/pg-build.sh adds). The registry answers 404 for the .dsc and the Debian
# tarball but serves the upstream .orig.tar.gz, which is all this needs: it is checked against
# the sha256 that the registry's Sources index gives for it. No source, no pg_partman: this fails.
set -euo pipefail
cd "$(dirname "$0")/.."
pg_config=${1:?usage: scripts/partman-build.sh <pg_config>}
pg_config=$(cd "$(dirname "$pg_config")" && pwd)/$(basename "$pg_config")
[ -x "$pg_config" ] || { echo "partman-build: no pg_config at $pg_config" >&2; exit 1; }
say() { echo "partman-build: $*" >&2; }

sharedir=$("$pg_config" --sharedir)
marker="$sharedir/extension/.idgen-partman-complete"
if [ -s "$marker" ] && [ -f "$sharedir/extension/pg_partman.control" ]; then
  cat "$marker"
  exit 0
fi

src=$(mkdir -p "${IDGEN_PG_CACHE:-build/pg}/src" && cd "${IDGEN_PG_CACHE:-build/pg}/src" && pwd)
tarball=$(ls "$src"/pg-partman_5.*.orig.tar.gz 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$tarball" ]; then
  [ "$(id -u)" -eq 0 ] || { say "run as root once to download the pg_partman sources"; exit 1; }
  list=/etc/apt/sources.list.d/idgen-src.sources
  if ! grep -qs 'trixie sid' "$list"; then
    say "adding deb-src lines for trixie and sid (sources only) in $list"
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: trixie sid' 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$list"
    apt-get update -q >&2
  fi
  # (read whole, not through grep -q: under pipefail, apt-cache's SIGPIPE would read as "absent")
  index=$(apt-cache showsrc pg-partman 2>/dev/null || true)
  if ! grep -q '^Package:' <<<"$index"; then
    apt-get update -q >&2
  fi
  say "downloading the sources of pg-partman"
  # The .dsc and .debian.tar.xz answer 404 (exit status 100); the .orig.tar.gz comes anyway.
  (cd "$src" && apt-get source -q --download-only pg-partman >&2) || true
  tarball=$(ls "$src"/pg-partman_5.*.orig.tar.gz 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$tarball" ] || { say "FAILED: no pg-partman 5.x source could be had from the registry"; exit 1; }
  want=$(apt-cache showsrc pg-partman | awk -v f="$(basename "$tarball")" '$3 == f && length($1) == 64 { print $1; exit }')
  [ -n "$want" ] || { say "FAILED: the registry's index gives no sha256 for $(basename "$tarball")"; rm -f "$tarball"; exit 1; }
  echo "$want  $tarball" | sha256sum -c --quiet - || { say "FAILED: $(basename "$tarball"): checksum mismatch"; rm -f "$tarball"; exit 1; }
  rm -f "$src"/pg-partman_*.dsc "$src"/pg-partman_*.debian.tar.*
fi
version=$(basename "$tarball" | sed -E 's/^pg-partman_(.*)\.orig\.tar\.gz$/\1/')

start=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
dir=$(ls -d "$work"/*/ | head -n 1)
log="$(dirname "$src")/partman-build.log"
say "building pg_partman $version against $("$pg_config" --version) (log: $log)"
# Called from make (make test): nothing of the calling make may leak into this one.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
{
  make -C "$dir" -s PG_CONFIG="$pg_config" with_llvm=no
  make -C "$dir" -s PG_CONFIG="$pg_config" with_llvm=no install
} >"$log" 2>&1 || { say "FAILED: build failed; the end of $log:"; tail -n 30 "$log" >&2; exit 1; }
[ -f "$sharedir/extension/pg_partman.control" ] || { say "FAILED: pg_partman.control not installed"; exit 1; }
echo "$version" >"$marker"
say "pg_partman $version built and installed in $(( $(date +%s) - start )) s"
echo "$version"
