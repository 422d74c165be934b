#!/usr/bin/env bash
# Builds Citus from the vendored snapshot (../shared/vendor/citus-<commit>.tar.gz, see
# ../shared/vendor/README.md) and installs it into the tree of the given pg_config (a source-built
# PostgreSQL under build/pg), once: a marker in that tree records the commit, so the next call only
# prints it. A rebuilt PostgreSQL (scripts/pg-build.sh removes its tree) loses the marker and gets
# Citus again.
#
#   scripts/citus-build.sh build/pg/18/bin/pg_config   -> prints the Citus commit installed
#
# Exit status: 0 built (or already there); 1 failed; 3 the archive is absent (a user's clone has no
# ../shared/vendor): the callers report their Citus tests as "not run:", never as passed.
# (this snapshot's configure has no libcurl option; lz4 and zstd are on by default.)
# IDGEN_CITUS_TARBALL names another archive (it must carry the same sha256).
set -euo pipefail
cd "$(dirname "$0")/.."
pg_config=${1:?usage: scripts/citus-build.sh <pg_config>}
pg_config=$(cd "$(dirname "$pg_config")" && pwd)/$(basename "$pg_config")
[ -x "$pg_config" ] || { echo "citus-build: no pg_config at $pg_config" >&2; exit 1; }
say() { echo "citus-build: $*" >&2; }

commit=a3d5708
sha256=cb847e92b12a25ce1ffa6d44e9667ad304646a76ec102ad6e94f666d9cf1c1a7
sharedir=$("$pg_config" --sharedir)
pkglibdir=$("$pg_config" --pkglibdir)
marker="$sharedir/extension/.idgen-citus-complete"
if [ "$(cat "$marker" 2>/dev/null)" = "$commit" ] && [ -f "$sharedir/extension/citus.control" ] && [ -f "$pkglibdir/citus.so" ]; then
  echo "$commit"
  exit 0
fi

tarball=${IDGEN_CITUS_TARBALL:-$(cd .. && pwd)/shared/vendor/citus-$commit.tar.gz}
if [ ! -f "$tarball" ]; then
  say "no Citus source: $tarball is absent (it comes with the project's shared vendor directory)"
  exit 3
fi
echo "$sha256  $tarball" | sha256sum -c --quiet - || { say "FAILED: $tarball: checksum mismatch"; exit 1; }

# What Citus's configure needs besides what PostgreSQL needs.
need=()
for pkg in liblz4-dev libzstd-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -ne 0 ]; then
  [ "$(id -u)" -eq 0 ] || { say "FAILED: run as root once to install ${need[*]}"; exit 1; }
  say "installing ${need[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2 ||
    { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2; }
fi

start=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
dir=$(ls -d "$work"/*/ | head -n 1)
log="$(dirname "$(dirname "$(dirname "$pg_config")")")/citus-build-$("$pg_config" --version | awk '{ print $2 }').log"
say "building Citus $commit against $("$pg_config" --version) (log: $log)"
# Called from make (make test): nothing of the calling make may leak into this one.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
jobs=${JOBS:-$(nproc)}
{
  cd "$dir"
  ./configure PG_CONFIG="$pg_config"
  make -j"$jobs" -s
  make -s install
} >"$log" 2>&1 || { say "FAILED: build failed; the end of $log:"; tail -n 30 "$log" >&2; exit 1; }
[ -f "$sharedir/extension/citus.control" ] && [ -f "$pkglibdir/citus.so" ] || { say "FAILED: citus not installed"; exit 1; }
echo "$commit" >"$marker"
say "Citus $commit built and installed in $(( $(date +%s) - start )) s"
echo "$commit"
