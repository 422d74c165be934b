#!/usr/bin/env bash
# Builds a PostgreSQL major from source once per machine (scripts/cache.sh: a cache shared by every
# clone, keyed by the source's sha256 and the recipe), gives this checkout its own copy in
# build/pg/<major>[-asan] (idgen, Citus and pg_partman install into it), and prints its pg_config.
#
#   scripts/pg-build.sh 17          -> build/pg/17/bin/pg_config
#   scripts/pg-build.sh 18 asan     -> build/pg/18-asan/bin/pg_config: cassert, ASan and UBSan
#   scripts/pg-build.sh 19 --source -> prints the source it would build (exit 3: none)
#
# The source of a major, first found:
#   IDGEN_PG_SOURCE_<major>=~/postgresql-19.0.tar.bz2   a tarball you downloaded (.tar.bz2, .gz, .xz)
#   ../shared/vendor/postgresql-<major>*.tar.xz          the project's snapshots (16beta2, 19beta1)
#   Debian's source package postgresql-<major>           17 (trixie) and 18 (sid)
# Exit status 3 when there is none: the callers list that major as "not run: no source".
#
# Built with TAP tests and OpenSSL (as packagers build it), and of contrib only pgstattuple (make
# bench) and pg_stat_statements (the secrets test). A git snapshot has no generated parser: bison
# and flex build it.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: scripts/pg-build.sh <major> [asan|--source]}
flavor=${2:-}
source scripts/cache.sh

source_of() {  # prints the source tarball of $major, or nothing
  local var=IDGEN_PG_SOURCE_$major
  if [ -n "${!var:-}" ]; then
    [ -f "${!var}" ] || { say "$var names ${!var}, which is no file"; return 1; }
    realpath "${!var}"
    return 0
  fi
  local vendored
  vendored=$(ls "$(cd .. && pwd)/shared/vendor/postgresql-$major"[a-z.]*.tar.* 2>/dev/null | head -n 1 || true)
  if [ -n "$vendored" ]; then echo "$vendored"; return 0; fi
  case $major in
    17 | 18) debian_source "postgresql-$major" "postgresql-${major}_*.orig.tar.bz2" || pinned_source ;;
  esac
}

# The registry's index can name a version whose files it does not serve (seen: 17.12 indexed, 404,
# while 17.11 is in the pool): then the release pinned here, by its checksum.
pinned_source() {
  local file sum
  case $major in
    17) read -r file sum <<<"postgresql-17_17.11.orig.tar.bz2 dd27f2b3c59e73ed14aa3324901242bf69a032a6347805f274e6260322d42979" ;;
    18) read -r file sum <<<"postgresql-18_18.6.orig.tar.bz2 555610c24d53e4316da5b7d3fc25c279d96856d5e0e23ee308c328c5fa881d9f" ;;
  esac
  say "the indexed version is not served: $file from the pool, checked against its pinned sha256"
  curl -fsS -o "$IDGEN_CACHE/src/$file.part" "http://deb.debian.org/debian/pool/main/p/postgresql-$major/$file" || return 1
  [ "$(sha "$IDGEN_CACHE/src/$file.part")" = "$sum" ] || { say "$file: checksum mismatch"; rm -f "$IDGEN_CACHE/src/$file.part"; return 1; }
  mv "$IDGEN_CACHE/src/$file.part" "$IDGEN_CACHE/src/$file"
  echo "$IDGEN_CACHE/src/$file"
}

tarball=$(source_of) || true
if [ "$flavor" = --source ]; then
  [ -n "$tarball" ] && echo "$tarball" && exit 0
  exit 3
fi
[ -n "$tarball" ] || { say "no source of PostgreSQL $major (IDGEN_PG_SOURCE_$major names one)"; exit 3; }

options=(--enable-tap-tests --with-openssl --without-icu --without-readline --without-zlib --without-llvm)
case $flavor in
  "") ;;
  asan)
    san="-fsanitize=address,undefined -fno-sanitize=alignment -fno-omit-frame-pointer"
    options+=(--enable-cassert --enable-debug "CFLAGS=-O1 -g $san" "LDFLAGS=$san") ;;
  *) say "unknown flavor $flavor"; exit 1 ;;
esac
recipe="${options[*]} contrib=pgstattuple,pg_stat_statements"
key=$(sha "$tarball" | cut -c1-16)-$(sha256sum <<<"$recipe" | cut -c1-8)
name=pg-$major${flavor:+-$flavor}

build() {  # build <prefix> <stage>
  local prefix=$1 stage=$2 work log="$IDGEN_CACHE/$name.log" start=$SECONDS
  need_packages bison flex libssl-dev pkg-config libipc-run-perl make gcc curl || return 1
  work=$(mktemp -d "$IDGEN_CACHE/work.XXXXXX") || return 1
  say "building PostgreSQL $major${flavor:+ ($flavor)} from $(basename "$tarball") (log: $log)"
  # Every step is chained: this runs as an if's condition, where set -e is off, and a subshell's
  # status is its last command's (a contrib install that succeeded after the server's build failed
  # was once recorded as a good build, without bin/).
  if ! (
    tar -xf "$tarball" -C "$work" &&
    cd "$work"/*/ &&
    # Called from make (make test): PostgreSQL's build generates its headers only when it is the
    # top make (MAKELEVEL 0), so nothing of the calling make may leak into it.
    unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES &&
    ./configure --prefix="$prefix" "${options[@]}" &&
    make -j"$(nproc)" -s &&
    make -s install DESTDIR="$work/stage" &&
    make -s -C contrib/pgstattuple install DESTDIR="$work/stage" &&
    make -s -C contrib/pg_stat_statements install DESTDIR="$work/stage"
  ) >"$log" 2>&1; then
    say "build failed; the end of $log:"
    tail -n 40 "$log" >&2
    rm -rf "$work"
    return 1
  fi
  mv "$work/stage$prefix" "$stage" || { rm -rf "$work"; return 1; }
  rm -rf "$work"
  say "PostgreSQL $major${flavor:+ ($flavor)} built in $((SECONDS - start)) s"
}

# (an entry without these is built again: the server and the tools the tests use)
entry=$(cache_entry "$name" "$key" build bin/pg_config bin/postgres bin/initdb bin/pg_ctl bin/psql)
# This checkout's copy: idgen (make install), Citus and pg_partman install into it, not the cache.
# Its .from records the entry's path and build stamp: an entry built again under the same path
# (it was broken) is copied again; so is a copy that lost its pg_config.
copy=build/pg/$major${flavor:+-$flavor}
if [ "$(cat "$copy/.from" 2>/dev/null)" != "$(entry_stamp "$entry")" ] || [ ! -x "$copy/bin/pg_config" ]; then
  rm -rf "$copy" "$copy.tmp"
  mkdir -p build/pg
  cp -a "$entry" "$copy.tmp"
  entry_stamp "$entry" >"$copy.tmp/.from"
  mv "$copy.tmp" "$copy"
fi
echo "$PWD/$copy/bin/pg_config"
