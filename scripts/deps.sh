#!/usr/bin/env bash
# Installs what building and testing idgen needs, when it is missing (Debian, PostgreSQL 15): the
# server's headers (PGXS), GoogleTest, clang with libFuzzer, libfaketime and IPC::Run (the TAP tests),
# gnuplot for the bench's chart is asked for by the bench itself. The sources of PostgreSQL 17 and
# 18 come from scripts/pg-build.sh.
set -euo pipefail

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

need=()
for pkg in postgresql-server-dev-15 libgtest-dev g++ make clang libclang-rt-14-dev faketime libipc-run-perl "$@"; do
  installed "$pkg" || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "idgen needs these packages: ${need[*]} (run as root, or: sudo apt-get install ${need[*]})" >&2
  exit 1
fi
echo "installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${need[@]}"; then
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${need[@]}"
fi
