#!/usr/bin/env bash
# make format-check: the C++ of idgen (src/, bench/, test/unit, test/fuzz) is as clang-format 14 writes it
# under .clang-format. Lists the files that are not, and fails; `scripts/format-check.sh --fix`
# formats them in place. clang-format 14 (Debian 12's; make test-deps installs it): another
# version formats some constructs differently. And every commit since the rule reached main
# (after 9eb6de9; the history before it stays as it was written: 32 commits of the branches it
# merged have no body) has a subject of at most 72 characters, a blank line, then a body.
set -uo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format) ||
  { echo "clang-format-14 is missing (make test-deps installs it)" >&2; exit 1; }
case $("$format" --version) in
  *"version 14."*) ;;
  *) echo "$format is not clang-format 14: $("$format" --version)" >&2; exit 1 ;;
esac
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
  'src/*.cpp' 'src/*.hpp' 'bench/*.cpp' 'test/unit/*.cpp' 'test/unit/*.hpp' 'test/fuzz/*.cpp' 'test/fuzz/*.hpp')
[ ${#files[@]} -gt 0 ] || { echo "no C++ files found" >&2; exit 1; }
if [ "${1:-}" = --fix ]; then
  exec "$format" -i "${files[@]}"
fi
bad_commits=0
if git rev-parse -q --verify 9eb6de9^{commit} >/dev/null 2>&1; then
  for c in $(git rev-list --no-merges 9eb6de9..HEAD); do
    msg=$(git log -1 --format=%B "$c")
    subject=$(head -n 1 <<<"$msg")
    if [ ${#subject} -gt 72 ] || [ -n "$(sed -n 2p <<<"$msg")" ] || [ -z "$(sed -n 3p <<<"$msg")" ]; then
      echo "commit ${c:0:7} \"${subject:0:60}...\": a subject of at most 72 characters, a blank line, then a body"
      bad_commits=$((bad_commits + 1))
    fi
  done
fi
# One run over every file: its errors name each file that it would change.
if ! report=$("$format" --dry-run -Werror "${files[@]}" 2>&1); then
  echo "not formatted as .clang-format says (scripts/format-check.sh --fix formats them):"
  sed -nE 's/^([^:]+):[0-9]+:[0-9]+: error: .*/  \1/p' <<<"$report" | sort -u
  grep -q ': error: ' <<<"$report" || echo "$report"
  exit 1
fi
[ $bad_commits -eq 0 ] || exit 1
echo "${#files[@]} C++ files formatted as .clang-format says; commit messages as CONTRIBUTING says"
