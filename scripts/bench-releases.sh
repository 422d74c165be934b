#!/usr/bin/env bash
# The instructions of a call in idgen's releases, on one PostgreSQL: each commit is built from git
# history (git archive, outside the checkout) into its own copy of the server and measured by this
# checkout's scripts/bench.sh --instructions, one after the other. Prints a markdown table, one
# column per release, of the instructions per call over count(g) (callgrind: deterministic where
# times are not), and writes it to build/bench/releases.md.
#
#   scripts/bench-releases.sh                        1.0, 1.1 and HEAD, on the system's PostgreSQL 15
#   scripts/bench-releases.sh 1.2=bea4c7d HEAD       any label=commit (a bare commit is its own label)
#   PG_CONFIG=$PWD/build/pg/18/bin/pg_config scripts/bench-releases.sh ...   another server
#
# The releases: 1.0 is b557384, the last commit before default_version became 1.1; 1.1 is 262fbf6,
# the last with 1.1's compare-and-swap loop (what ../shared/many-cores measured on 16 cores), before
# issue 21 and the durable marks of 1.2. The server is copied (its binaries find their files relative
# to themselves), so that nothing is installed into it: the system's PostgreSQL 15 is shared.
# IDGEN_RELEASES_DIR (default /tmp/idgen-releases) keeps each build for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
WORK=${IDGEN_RELEASES_DIR:-/tmp/idgen-releases}
[ $# -gt 0 ] || set -- 1.0=b557384 1.1=262fbf6 HEAD
say() { printf '%s\n' "$*" >&2; }
mkdir -p "$WORK" build/bench

# copy_pg <pg_config> <dest>: a copy of the server's binaries, libraries, share and server headers,
# laid out as they are relative to one another; prints the copy's pg_config.
copy_pg() {
  local pgc=$1 dest=$2 dirs=() d prefix
  for d in bindir pkglibdir sharedir includedir-server; do dirs+=("$("$pgc" --$d)"); done
  prefix=${dirs[0]}
  for d in "${dirs[@]}"; do
    while [[ $d/ != "$prefix"/* ]]; do prefix=$(dirname "$prefix"); done
  done
  for d in "${dirs[@]}"; do
    mkdir -p "$dest/${d#"$prefix"/}"
    cp -a "$d/." "$dest/${d#"$prefix"/}/"
  done
  echo "$dest/${dirs[0]#"$prefix"/}/pg_config"
}

labels=()
for arg in "$@"; do
  label=${arg%%=*}
  commit=$(git rev-parse --short "${arg#*=}^{commit}")
  [ "$label" = HEAD ] && label="HEAD ($commit)"
  dir=$WORK/$(tr -c 'A-Za-z0-9.\n' - <<<"${label%% *}")-$commit
  major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
  if [ "$(cat "$dir/.built" 2>/dev/null)" != "$commit $major" ]; then
    say "Building $label for PostgreSQL $major in $dir..."
    rm -rf "$dir"
    mkdir -p "$dir/src"
    git archive "$commit" | tar -x -C "$dir/src"
    copy_pg "$PG_CONFIG" "$dir/pg" >"$dir/pg_config_path"
    make -s -j2 -C "$dir/src" install PG_CONFIG="$(cat "$dir/pg_config_path")" >"$dir/build.log" 2>&1 ||
      { say "the build failed; the end of $dir/build.log:"; tail -n 20 "$dir/build.log" >&2; exit 1; }
    echo "$commit $major" >"$dir/.built"
  fi
  say "Measuring $label..."
  OUT=$dir/out PG_CONFIG=$(cat "$dir/pg_config_path") "$ROOT/scripts/bench.sh" --instructions >"$dir/bench.log" 2>&1 ||
    { say "the bench failed; the end of $dir/bench.log:"; tail -n 20 "$dir/bench.log" >&2; exit 1; }
  cp "$dir/out/instructions.tsv" "$WORK/$commit.tsv"
  labels+=("$label=$commit")
done

# The table: a row per generator (in the order of the last release's bench), a column per release.
{
  printf '| generator |'
  for l in "${labels[@]}"; do printf ' %s |' "${l%=*}"; done
  printf '\n|---|'
  for l in "${labels[@]}"; do printf -- '---:|'; done
  printf '\n'
  last=${labels[-1]#*=}
  cut -f 1 "$WORK/$last.tsv" | grep -vx 'count(g)' | while IFS= read -r name; do
    printf '| %s |' "$name"
    for l in "${labels[@]}"; do
      awk -F '\t' -v n="$name" '$1 == "count(g)" { g = $2 } $1 == n { v = $2 }
        END { if (v == "") printf " — |"; else printf " %d |", v - g + (v - g < 0 ? -0.5 : 0.5) }' "$WORK/${l#*=}.tsv"
    done
    printf '\n'
  done
} | tee build/bench/releases.md
say "PostgreSQL $("$PG_CONFIG" --version | sed 's/^PostgreSQL //'), instructions per call over count(g): build/bench/releases.md"
