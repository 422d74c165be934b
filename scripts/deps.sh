#!/usr/bin/env bash
# Installs what building and testing idgen needs, when it is missing (Debian, PostgreSQL 15).
set -euo pipefail

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

need=()
for pkg in postgresql-server-dev-15 libgtest-dev g++ make "$@"; do
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
