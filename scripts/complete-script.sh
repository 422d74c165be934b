#!/usr/bin/env bash
# The complete install script of a release, made by the build from the previous release's complete
# script and the one update script written for the release (never written by hand twice):
#
#   scripts/complete-script.sh [--prologue <file>] <previous complete script> <update script> > idgen--<version>.sql
#
# A fresh install then runs exactly the statements an update runs, after the previous release's.
# 1.3's prologue (sql/idgen--1.3.prologue.sql) creates schema idgen, which CREATE EXTENSION made
# before 1.3.
set -euo pipefail
prologue=
if [ "${1:-}" = --prologue ]; then prologue=$2; shift 2; fi
previous=${1:?usage: complete-script.sh [--prologue <file>] <previous complete script> <update script>}
update=${2:?usage: complete-script.sh [--prologue <file>] <previous complete script> <update script>}
version=$(basename "$update" .sql)
version=${version##*--}
cat <<HEADER
-- idgen $version: the complete install script, made by the build (scripts/complete-script.sh) from
-- $(basename "$previous") and $(basename "$update"): edit those, not this.
\\echo Use "CREATE EXTENSION idgen" to load this file. \\quit
HEADER
for script in $prologue "$previous" "$update"; do
  printf '\n-- ==== %s ====\n' "$(basename "$script")"
  grep -v '^\\echo ' "$script"
done
