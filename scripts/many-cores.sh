#!/usr/bin/env bash
# The many-core run of issue 31 (item 4): the scaling table of make bench-scaling and the figure of
# make bench-contention, taken on a machine with many cores that has nothing installed and no
# network (the run needs bash and coreutils; it runs as root or as a user with a home), from what
# a machine with PostgreSQL's build tools staged beforehand.
#
#   scripts/many-cores.sh stage    here: PostgreSQL 18 built with --prefix=/opt/pg18 and OpenSSL (once
#                                  per machine, cached like scripts/pg-build.sh's builds), idgen
#                                  installed into a copy of it, stripped, without its headers, in
#                                  build/many-cores/ (about 30 MB: the one folder to take along), with
#                                  the bench's floor and the contention benchmark built ahead
#   scripts/many-cores.sh run      there (or here, to check it): copies build/many-cores/pg18 to
#                                  /opt/pg18 unless it is there already, runs the contention
#                                  benchmark, then scripts/bench.sh --scaling against it; writes its
#                                  results to $OUT (or build/many-cores-out): contention.md and .tsv,
#                                  scaling.md and .tsv (and .png where gnuplot is), machine.txt, run.log
#
# The run takes about 6 minutes on 16 cores (SCALE_SECONDS=2 a point, 1 to 16 clients, 9 subjects,
# 3 workloads: 130 points; the contention benchmark 1 s a point) and 2 on 2 (118 s measured).
# Variables: SCALE_SECONDS, SCALE_ROUNDS, SCALE_SUBJECTS (default: all but uid20 and decimal_id, for
# time), CONTENTION_SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
STAGE=$ROOT/build/many-cores
PREFIX=/opt/pg18
say() { printf '%s\n' "${0##*/}: $*" >&2; }

stage() {
  source scripts/cache.sh
  local tarball key entry
  tarball=$(scripts/pg-build.sh 18 --source) || { say "no source of PostgreSQL 18 (scripts/pg-build.sh 18 --source)"; exit 1; }
  local options=(--prefix="$PREFIX" --with-openssl --without-icu --without-readline --without-zlib --without-llvm)
  key=$(sha "$tarball" | cut -c1-16)-$(sha256sum <<<"${options[*]}" | cut -c1-8)
  build_opt() {  # build_opt <entry> <stage>: PostgreSQL for /opt/pg18, its tree moved to <stage>
    local work log="$IDGEN_CACHE/pg-18-opt.log"
    need_packages bison flex libssl-dev pkg-config make gcc || return 1
    work=$(mktemp -d "$IDGEN_CACHE/work.XXXXXX") || return 1
    say "building PostgreSQL 18 for $PREFIX from $(basename "$tarball") (log: $log; 10 minutes or so on 2 cores)"
    # (chained: set -e is off in an if's condition, and a subshell's status is its last command's)
    if ! (
      tar -xf "$tarball" -C "$work" &&
      cd "$work"/*/ &&
      unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES &&
      ./configure "${options[@]}" &&
      make -j"$(nproc)" -s &&
      make -s install DESTDIR="$work/stage"
    ) >"$log" 2>&1; then
      say "build failed; the end of $log:"
      tail -n 30 "$log" >&2
      rm -rf "$work"
      return 1
    fi
    mv "$work/stage$PREFIX" "$2" || { rm -rf "$work"; return 1; }
    rm -rf "$work"
  }
  entry=$(cache_entry pg-18-opt "$key" build_opt bin/pg_config bin/postgres bin/initdb bin/pg_ctl bin/psql)
  rm -rf "$STAGE"
  mkdir -p "$STAGE"
  cp -a "$entry" "$STAGE/pg18"
  rm -f "$STAGE/pg18/.manifest" "$STAGE/pg18/.complete"
  local pg_config=$STAGE/pg18/bin/pg_config  # (a copy finds its files relative to itself)
  say "installing idgen ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', with uncommitted changes')) into it"
  make -s --no-print-directory install PG_CONFIG="$pg_config" OBJDIR=build/many-cores-idgen >"$STAGE/idgen-build.log" 2>&1 ||
    { tail -n 20 "$STAGE/idgen-build.log" >&2; exit 1; }
  gcc -O2 -fPIC -shared -I"$("$pg_config" --includedir-server)" bench/floor.c -o "$STAGE/floor.so"
  # pgstattuple, which bench/setup.sql creates, from the same source (PGXS, against the copy).
  local contrib
  contrib=$(mktemp -d)
  tar -xf "$tarball" -C "$contrib" --wildcards '*/contrib/pgstattuple/*'
  make -s -C "$contrib"/*/contrib/pgstattuple USE_PGXS=1 PG_CONFIG="$pg_config" install >/dev/null
  rm -rf "$contrib"
  make -s --no-print-directory build/bench/contention
  cp build/bench/contention "$STAGE/contention"
  # What the run does not need: headers, static libraries, PGXS, documentation; the rest stripped.
  rm -rf "$STAGE/pg18/include" "$STAGE/pg18/lib/pgxs" "$STAGE/pg18/lib/postgresql/pgxs" "$STAGE/pg18/share/doc"
  find "$STAGE/pg18/lib" -name '*.a' -delete
  find "$STAGE/pg18/bin" "$STAGE/pg18/lib" -type f \( -perm -u+x -o -name '*.so*' \) -exec strip --strip-unneeded {} + 2>/dev/null || true
  strip --strip-unneeded "$STAGE/floor.so"
  # OpenSSL as this machine has it, for a machine without libssl3 (the run uses it only then).
  mkdir -p "$STAGE/fallback"
  local lib
  for lib in libssl.so.3 libcrypto.so.3; do
    cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ { print $NF; exit }')" "$STAGE/fallback/$lib"
  done
  # (the tree's own checksum: a new stage is copied over what an earlier one left in /opt/pg18)
  echo "idgen $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+uncommitted'), PostgreSQL $("$pg_config" --version | sed 's/^PostgreSQL //'), staged $(date -u +%Y-%m-%dT%H:%MZ), tree $(cd "$STAGE/pg18" && find . -type f -exec sha256sum {} + | LC_ALL=C sort | sha256sum | cut -c1-12)" \
    >"$STAGE/STAMP"
  rm -f "$STAGE/idgen-build.log"
  say "staged: $STAGE ($(du -sh "$STAGE" | cut -f1)): $(cat "$STAGE/STAMP")"
}

run() {
  [ -f "$STAGE/STAMP" ] || { say "nothing staged in $STAGE: run scripts/many-cores.sh stage first"; exit 1; }
  local start=$SECONDS
  out=${OUT:-$ROOT/build/many-cores-out}  # (global: the trap below reads them after run returns)
  mkdir -p "$out"
  work=$(mktemp -d)
  # Whatever happens, what was measured comes back (at most 8 files).
  trap 'cp "$work"/scaling.md "$work"/scaling.tsv "$work"/scaling.png "$out"/ 2>/dev/null || true; rm -rf "$work"' EXIT
  exec > >(tee "$out/run.log") 2>&1
  if [ "$(cat "$PREFIX/STAMP" 2>/dev/null)" != "$(cat "$STAGE/STAMP")" ]; then
    say "copying the staged PostgreSQL to $PREFIX"
    rm -rf "$PREFIX"
    mkdir -p "$(dirname "$PREFIX")"
    cp -a "$STAGE/pg18" "$PREFIX"
    cp "$STAGE/STAMP" "$PREFIX/STAMP"
  fi
  if ldd "$PREFIX/bin/postgres" | grep -q 'not found'; then
    say "this machine lacks $(ldd "$PREFIX/bin/postgres" | awk '/not found/ { print $1 }' | tr '\n' ' '): the staged copies"
    export LD_LIBRARY_PATH=$STAGE/fallback
  fi
  {
    echo "$(cat "$STAGE/STAMP")"
    echo "$(nproc) cores: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
    echo "memory: $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); kernel $(uname -r)"
    grep -m 1 PRETTY_NAME /etc/os-release 2>/dev/null || true
  } | tee "$out/machine.txt"

  say "contention: one state word, 1 to $(nproc) threads, ${CONTENTION_SECONDS:-1} s a point"
  "$STAGE/contention" --seconds "${CONTENTION_SECONDS:-1}" --tsv "$out/contention.tsv" | tee "$out/contention.md"

  say "scaling: scripts/bench.sh --scaling against $PREFIX ($((SECONDS - start)) s so far)"
  PG_CONFIG=$PREFIX/bin/pg_config FLOOR_SO=$STAGE/floor.so OUT=$work SCALE_SECONDS=${SCALE_SECONDS:-2} \
    SCALE_SUBJECTS=${SCALE_SUBJECTS:-'^(?!idgen\.(uid20|decimal_id))'} scripts/bench.sh --scaling
  say "done in $((SECONDS - start)) s: $out"
}

case "${1:-}" in
  stage) stage ;;
  run) run ;;
  *) echo "usage: scripts/many-cores.sh stage|run" >&2; exit 2 ;;
esac
