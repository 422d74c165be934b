#!/usr/bin/env bash
# The Debian package, as a user of Debian or apt.postgresql.org gets it: make deb builds
# postgresql-15-idgen (dpkg-buildpackage, pg_buildext; its build runs the regression tests on a
# pg_virtualenv cluster), lintian finds neither error nor warning in it, apt-get installs it, a
# cluster made by Debian's own pg_createcluster preloads idgen from it (pg_ctlcluster starts it),
# CREATE EXTENSION idgen and the generators work there and the library they run is the package's
# file, and the autopkgtest (debian/tests/installcheck) passes against the installed package.
# Then the cluster is dropped and the package purged, and the idgen files that make install had put
# into the system's PostgreSQL 15 before (owned by no package) are put back: the system is left as
# it was found.
#
#   test/doors/debian.sh          as root; make test runs it last, when nothing else uses 15
#   test/doors/debian.sh build    only make deb and lintian (touches no system directory)
#   test/doors/debian.sh install  only the rest, with the package build/deb/ holds
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
major=15
pkg=postgresql-$major-idgen
cluster=idgen_pkgtest
phase=${1:-all}
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

[ "$(id -u)" -eq 0 ] || fail "the Debian package test installs a package and a cluster: run it as root"
dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' && fail "$pkg is installed already; this test installs and purges it"
pg_lsclusters -h | awk -v c=$cluster '$2 == c { found = 1 } END { exit !found }' && fail "a cluster $major/$cluster exists already"
pg_config=/usr/lib/postgresql/$major/bin/pg_config
[ -x "$pg_config" ] || fail "no PostgreSQL $major ($pg_config)"
scripts/deps.sh lintian

# ---- build and lintian -------------------------------------------------------------------------
if [ "$phase" != install ]; then
start=$SECONDS
log=build/deb.log
mkdir -p build
make -s deb >"$log" 2>&1 || { tail -n 40 "$log"; fail "make deb (its log: $log)"; }
grep -q '^### End 15 installcheck ###' "$log" || fail "the package build did not run its regression tests on 15 (DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-})"
deb=$(ls "$ROOT"/build/deb/"${pkg}"_*.deb)
version=$(dpkg-deb -f "$deb" Version)
pass "make deb: $(basename "$deb") in $((SECONDS - start)) s, its regression tests passed on a pg_virtualenv cluster"
lintian_out=$(lintian --fail-on error,warning --info "$deb" 2>&1) || { echo "$lintian_out"; fail "lintian: $deb"; }
lintian_out=$(grep -v 'running with root privileges is not recommended' <<<"$lintian_out" || true)
[ -z "$lintian_out" ] || echo "$lintian_out" | sed 's/^/  lintian: /'
pass "lintian $(dpkg-query -W -f='${Version}' lintian): no error, no warning"
contents=$(dpkg-deb -c "$deb")
grep -q "/usr/lib/postgresql/$major/lib/idgen.so$" <<<"$contents" || fail "$deb has no idgen.so for $major"
grep -q "/usr/share/postgresql/$major/extension/idgen.control$" <<<"$contents" || fail "$deb has no idgen.control"
fi
[ "$phase" = build ] && exit 0
deb=$(ls "$ROOT"/build/deb/"${pkg}"_*.deb)
version=$(dpkg-deb -f "$deb" Version)

# ---- install, a Debian cluster, the extension -------------------------------------------------
# The files make install had put into the system's directories, put back after the purge.
libdir=$("$pg_config" --pkglibdir)
extdir=$("$pg_config" --sharedir)/extension
saved=$(mktemp -d)
files=()
for f in "$libdir"/idgen.so "$extdir"/idgen[._-]*; do  # (idgen and idgen_uuidv7)
  [ -e "$f" ] && files+=("${f#/}")
done
[ ${#files[@]} -eq 0 ] || tar -C / -cf "$saved/files.tar" "${files[@]}"
cleanup() {
  local status=$?
  pg_dropcluster --stop $major $cluster >/dev/null 2>&1 || true
  dpkg --purge "$pkg" >/dev/null 2>&1 || true
  [ -f "$saved/files.tar" ] && tar -C / -xpf "$saved/files.tar"
  rm -rf "$saved"
  pg_lsclusters -h | awk -v c=$cluster '$2 == c { found = 1 } END { exit !found }' && echo "FAIL: the cluster $major/$cluster is left" >&2 && status=1
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'installed' && echo "FAIL: $pkg is left installed" >&2 && status=1
  return $status
}
trap cleanup EXIT

DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >build/deb-install.log 2>&1 ||
  { tail -n 20 build/deb-install.log; fail "apt-get install $deb"; }
pass "apt-get install $(basename "$deb") ($pkg $version)"

# A port no cluster uses; the cluster listens on its Unix socket only.
port=5440
while pg_lsclusters -h | awk -v p=$port '$3 == p { found = 1 } END { exit !found }' || [ -e "/var/run/postgresql/.s.PGSQL.$port" ]; do
  port=$((port + 1))
done
pg_createcluster $major $cluster -p $port -o shared_preload_libraries=idgen >/dev/null
echo "listen_addresses = ''" >>"/etc/postgresql/$major/$cluster/postgresql.conf"
pg_ctlcluster $major $cluster start
pass "pg_createcluster $major $cluster (port $port, shared_preload_libraries = 'idgen'), pg_ctlcluster start"
psql_() { runuser -u postgres -- psql --cluster "$major/$cluster" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_ -c "CREATE EXTENSION idgen"
got=$(psql_ -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
[ "$got" = "${version%%-*}" ] || fail "extversion $got, the package is $version"
got=$(psql_ -c "SELECT idgen.uuidv7_time(idgen.uuidv7()) <= now() + interval '1 minute',
                       (idgen.instagram_parse(idgen.instagram_id(shard => 5))).shard")
[ "$got" = "t|5" ] || fail "the generators answered $got"
pass "CREATE EXTENSION idgen ($version), idgen.uuidv7() and idgen.instagram_id(shard => 5) (shared state: preloaded) generate"
mapped=$(psql_ -c "SELECT DISTINCT substring(l FROM ' (/\S*idgen\.so\S*)$')
  FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\n') AS l WHERE l LIKE '%idgen.so%'")
[ "$mapped" = "$libdir/idgen.so" ] || fail "the backend runs '$mapped'"
owner=$(dpkg -S "$mapped" | cut -d: -f1)
[ "$owner" = "$pkg" ] || fail "$mapped belongs to '$owner', not $pkg"
dpkg --verify "$pkg" || fail "the installed files of $pkg differ from the package's"
pass "the backend runs $mapped, the file of $pkg (dpkg --verify: unchanged)"
pg_dropcluster --stop $major $cluster
pass "pg_dropcluster --stop $major $cluster"

# ---- the autopkgtest, against the installed package ---------------------------------------------
(cd "$ROOT/build/deb/idgen-${version%%-*}" && debian/tests/installcheck) >build/deb-autopkgtest.log 2>&1 ||
  { tail -n 40 build/deb-autopkgtest.log; fail "debian/tests/installcheck (log: build/deb-autopkgtest.log)"; }
grep -q '^### End 15 installcheck ###' build/deb-autopkgtest.log || fail "the autopkgtest ran no installcheck on 15"
pass "autopkgtest debian/tests/installcheck: $(grep -cE '^(ok|test) ' build/deb-autopkgtest.log) regression tests passed on 15"

dpkg --purge "$pkg" >build/deb-purge.log 2>&1 || { cat build/deb-purge.log; fail "dpkg --purge $pkg"; }
pass "dpkg --purge $pkg (debhelper $(dpkg-query -W -f='${Version}' debhelper), postgresql-common $(dpkg-query -W -f='${Version}' postgresql-common))"
