#!/usr/bin/env bash
# Builds a PostgreSQL major from Debian's source package, once, into a cache, and prints the path
# of its pg_config. Debian's registry has the upstream sources of 17 (suite trixie) and 18 (sid)
# as source packages: this adds deb-src lines for those suites only (never binary lines), downloads
# the .orig tarball with apt-get source, and builds it with TAP tests and without what idgen's tests
# do not need (of contrib, only pgstattuple, which make bench reads, and pg_stat_statements, which
# the secrets test reads).
#
#   scripts/pg-build.sh 17          -> build/pg/17/bin/pg_config
#   scripts/pg-build.sh 18 asan     -> build/pg/18-asan/bin/pg_config: cassert, ASan and UBSan
#
# IDGEN_PG_CACHE moves the cache (default build/pg in the checkout).
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: scripts/pg-build.sh <major> [asan]}
flavor=${2:-}
cache=$(mkdir -p "${IDGEN_PG_CACHE:-build/pg}" && cd "${IDGEN_PG_CACHE:-build/pg}" && pwd)
dest="$cache/$major${flavor:+-$flavor}"
log="$cache/build-$major${flavor:+-$flavor}.log"

# The recipe of the build below: a cache built by another recipe is built again.
recipe="openssl tap pgstattuple pg_stat_statements"
if [ -x "$dest/bin/pg_config" ] && grep -qsF "$recipe" "$dest/.complete" && [ -n "$(find "$dest/share" -name pg_stat_statements.control -print -quit 2>/dev/null)" ]; then
  echo "$dest/bin/pg_config"
  exit 0
fi

say() { echo "pg-build: $*" >&2; }

# The source tarball, downloaded once.
src="$cache/src"
mkdir -p "$src"
tarball=$(ls "$src"/postgresql-"$major"_*.orig.tar.bz2 2>/dev/null | head -n 1 || true)
if [ -z "$tarball" ]; then
  [ "$(id -u)" -eq 0 ] || { say "run as root once to download the PostgreSQL $major sources"; exit 1; }
  list=/etc/apt/sources.list.d/idgen-src.sources
  if ! grep -qs 'trixie sid' "$list"; then
    say "adding deb-src lines for trixie and sid (sources only) in $list"
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: trixie sid' 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$list"
  fi
  if ! apt-cache showsrc "postgresql-$major" 2>/dev/null | grep -q '^Package:'; then
    apt-get update -q >&2
  fi
  say "downloading the sources of postgresql-$major"
  if ! (cd "$src" && apt-get source -q --download-only "postgresql-$major" >&2); then
    # The registry's index can name a version whose files it does not (yet) serve (seen: 17.12
    # indexed, 404, while 17.11 is in the pool). Then the release pinned here, by its checksum.
    case $major in
      17) pinned="postgresql-17_17.11.orig.tar.bz2 dd27f2b3c59e73ed14aa3324901242bf69a032a6347805f274e6260322d42979" ;;
      18) pinned="postgresql-18_18.6.orig.tar.bz2 555610c24d53e4316da5b7d3fc25c279d96856d5e0e23ee308c328c5fa881d9f" ;;
      *) say "no sources of postgresql-$major can be had from the registry"; exit 1 ;;
    esac
    read -r file sum <<<"$pinned"
    say "the indexed version is not served: $file from the pool, checked against its pinned sha256"
    rm -f "$src"/postgresql-"$major"_*
    curl -fsS -o "$src/$file.part" "http://deb.debian.org/debian/pool/main/p/postgresql-$major/$file" ||
      { say "could not download $file"; exit 1; }
    echo "$sum  $src/$file.part" | sha256sum -c --quiet - || { say "$file: checksum mismatch"; rm -f "$src/$file.part"; exit 1; }
    mv "$src/$file.part" "$src/$file"
  fi
  tarball=$(ls "$src"/postgresql-"$major"_*.orig.tar.bz2 | head -n 1)
fi
version=$(basename "$tarball" | sed -E 's/^postgresql-[0-9]+_(.*)\.orig\.tar\.bz2$/\1/')

# What the build and the TAP framework need, from Debian's packages: since PostgreSQL 17 the
# tarballs carry no generated parser or scanner (bison, flex); OpenSSL as the packagers build it
# (pg_strong_random, and core's uuidv7() and gen_random_uuid(), read it rather than /dev/urandom).
need=()
for pkg in bison flex libssl-dev pkg-config libipc-run-perl make gcc; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -ne 0 ]; then
  say "installing ${need[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2
fi

work="$cache/work-$major${flavor:+-$flavor}"
rm -rf "$work" "$dest"
mkdir -p "$work"
say "building PostgreSQL $version${flavor:+ ($flavor)} into $dest (log: $log)"
tar -xjf "$tarball" -C "$work"
cd "$work"/postgresql-*
options=(--prefix="$dest" --enable-tap-tests --with-openssl --without-icu --without-readline --without-zlib --without-llvm)
if [ "$flavor" = asan ]; then
  san="-fsanitize=address,undefined -fno-sanitize=alignment -fno-omit-frame-pointer"
  options+=(--enable-cassert --enable-debug CFLAGS="-O1 -g $san" LDFLAGS="$san")
elif [ -n "$flavor" ]; then
  say "unknown flavor $flavor"; exit 1
fi
start=$(date +%s)
# Called from make (make test): PostgreSQL's build generates its headers only when it is the top
# make (MAKELEVEL 0), so nothing of the calling make may leak into it.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
{
  ./configure "${options[@]}"
  make -j"$(nproc)" -s
  make -s install
  make -s -C contrib/pgstattuple install  # for make bench's index leaf density
  make -s -C contrib/pg_stat_statements install  # for the secrets test: no secret in its view
} >"$log" 2>&1 || { say "build failed; the end of $log:"; tail -n 40 "$log" >&2; exit 1; }
echo "$version $recipe" >"$dest/.complete"
cd "$cache" && rm -rf "$work"
say "PostgreSQL $version built in $(( $(date +%s) - start )) s"
echo "$dest/bin/pg_config"
