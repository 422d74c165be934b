#!/usr/bin/env bash
# Installs what building idgen needs, when it is missing (Debian, PostgreSQL 15): the server's
# headers (PGXS) and a C++ compiler; with --test, what testing it needs too: GoogleTest, clang with
# libFuzzer, libfaketime, IPC::Run (the TAP tests), clang-format 14 (the format check), valgrind
# (the bench's instruction counts, which its smoke mode runs) and ccache (test/run.sh compiles
# through it). Other packages named as arguments join them
# (the bench asks for gnuplot); liblz4-dev and libzstd-dev build Citus (scripts/citus-build.sh). The
# sources of PostgreSQL 17 and 18 come from scripts/pg-build.sh.
set -euo pipefail

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

packages=(postgresql-server-dev-15 g++ make)
if [ "${1:-}" = --test ]; then
  shift
  packages+=(libgtest-dev clang libclang-rt-14-dev faketime libipc-run-perl clang-format-14 liblz4-dev libzstd-dev ccache valgrind libkrb5-dev)
fi
need=()
for pkg in "${packages[@]}" "$@"; do
  installed "${pkg%%=*}" || need+=("$pkg")  # (pkg=version: that version when missing)
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
