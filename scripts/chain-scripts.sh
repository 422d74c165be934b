#!/usr/bin/env bash
# Scripts that the build makes from the scripts written once, so that no SQL is written by hand
# twice (the Makefile's rules):
#
#   chain-scripts.sh --create [--prologue <file>] <previous complete script> <update script>
#       the complete install script of a release: the previous release's complete script, then the
#       one update script written for the release (a fresh install runs what an update runs)
#   chain-scripts.sh --update <from> [--prologue <file>] <frozen update> <update script>
#       a direct update from an earlier release: the frozen update to the previous release, then
#       the update written for this one, in one script: an update can stop at no release between
#       (one that stopped at 1.2 would keep a schema its owner could have planted in)
#
# A prologue runs first: 1.3's (sql/idgen--1.3.prologue.sql) creates schema idgen, which CREATE
# EXTENSION made before 1.3; the update from 1.1's (sql/idgen--1.1--1.3.prologue.sql) moves 1.1's
# domains where the frozen 1.1 -> 1.2 script moved them wrongly.
set -euo pipefail
mode=${1:?usage: see the head of scripts/chain-scripts.sh}
shift
from=
[ "$mode" = --update ] && { from=$1; shift; }
prologue=
while [ $# -gt 2 ]; do
  case $1 in
    --prologue) prologue=$2; shift 2 ;;
    *) echo "chain-scripts.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
first=$1 second=$2
version=$(basename "$second" .sql)
version=${version##*--}
echo "-- idgen ${from:+$from -> }$version: made by the build (scripts/chain-scripts.sh) from $(basename "$first")"
echo "-- and $(basename "$second")${prologue:+, after $(basename "$prologue")}: edit those, not this."
if [ "$mode" = --create ]; then
  echo '\echo Use "CREATE EXTENSION idgen" to load this file. \quit'
else
  echo "\\echo Use \"ALTER EXTENSION idgen UPDATE TO '$version'\" to load this file. \\quit"
fi
for script in $prologue "$first" "$second"; do
  printf '\n-- ==== %s ====\n' "$(basename "$script")"
  grep -v '^\\echo ' "$script"
done
