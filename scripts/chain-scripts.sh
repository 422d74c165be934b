#!/usr/bin/env bash
# Scripts that the build makes from the scripts written once, so that no SQL is written by hand
# twice (the Makefile's rules):
#
#   chain-scripts.sh --create [--prologue <file>] <previous complete script> <update script>
#       the complete install script of a release: the previous release's complete script, then the
#       one update script written for the release (a fresh install runs what an update runs)
#   chain-scripts.sh --update <from> [--fix <sed script>] <frozen update> <update script>
#       a direct update from an earlier release: the frozen update to the previous release, then
#       the update written for this one (the path ALTER EXTENSION takes, in one script)
#
# --fix edits a frozen script on its way into a shipped one, where the frozen one has a bug that
# must not ship (sql/released/*.sed say which and why); each of its s commands must match, or the
# build fails. 1.3's prologue (sql/idgen--1.3.prologue.sql) creates schema idgen, which CREATE
# EXTENSION made before 1.3.
set -euo pipefail
mode=${1:?usage: see the head of scripts/chain-scripts.sh}
shift
from=
[ "$mode" = --update ] && { from=$1; shift; }
prologue= fix=
while [ $# -gt 2 ]; do
  case $1 in
    --prologue) prologue=$2; shift 2 ;;
    --fix) fix=$2; shift 2 ;;
    *) echo "chain-scripts.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
first=$1 second=$2
version=$(basename "$second" .sql)
version=${version##*--}
echo "-- idgen ${from:+$from -> }$version: made by the build (scripts/chain-scripts.sh) from $(basename "$first")"
echo "-- and $(basename "$second")${fix:+, with the fix of $(basename "$fix")}: edit those, not this."
if [ "$mode" = --create ]; then
  echo '\echo Use "CREATE EXTENSION idgen" to load this file. \quit'
else
  echo "\\echo Use \"ALTER EXTENSION idgen UPDATE TO '$version'\" to load this file. \\quit"
fi
for script in $prologue "$first" "$second"; do
  printf '\n-- ==== %s ====\n' "$(basename "$script")"
  if [ -n "$fix" ] && [ "$script" = "$first" ]; then
    # Every substitution of the fix must apply: a fix that no longer matches is an error.
    while IFS= read -r command; do
      case $command in s*) ;; *) continue ;; esac
      sep=${command:1:1}
      pattern=$(cut -d"$sep" -f2 <<<"$command")
      grep -q -- "$pattern" "$script" || { echo "chain-scripts.sh: $fix: no line of $script matches: $pattern" >&2; exit 1; }
    done <"$fix"
    grep -v '^\\echo ' "$script" | sed -f "$fix"
  else
    grep -v '^\\echo ' "$script"
  fi
done
