#!/usr/bin/env bash
# make deb: the Debian binary packages postgresql-<major>-idgen, one for each PostgreSQL major that
# both debian/pgversions and this system support (pg_buildext supported-versions: the installed
# postgresql-server-dev-<major>), built by dpkg-buildpackage (debhelper, pg_buildext) and written to
# build/deb/. The build runs in a copy of the checkout (build/deb/idgen-<version>/), so that its
# clean step never touches the checkout's build/ (the cached PostgreSQL builds).
#
#   make deb                          then: apt install ./build/deb/postgresql-15-idgen_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -nE "s/^default_version = '(.*)'/\1/p" idgen.control)
changelog_version=$(sed -nE '1s/^idgen \(([^)-]*)-[^)]*\).*/\1/p' debian/changelog)
if [ "$changelog_version" != "$version" ]; then
  echo "debian/changelog is at $changelog_version, idgen.control at $version: add a changelog entry (dch -v $version-1)" >&2
  exit 1
fi

# What the build needs: debhelper, pg_buildext's debhelper add-on (postgresql-server-dev-all, the
# one of the installed postgresql-common, so that nothing else is upgraded) and the headers of 15.
common=$(dpkg-query -W -f='${Version}' postgresql-common 2>/dev/null || true)
dev_all=postgresql-server-dev-all
if [ -n "$common" ] && apt-cache show "$dev_all=$common" >/dev/null 2>&1; then dev_all="$dev_all=$common"; fi
scripts/deps.sh debhelper dpkg-dev "$dev_all"

out=$PWD/build/deb
src=$out/idgen-$version
rm -rf "$out"
mkdir -p "$src"
tar -c --exclude=./build --exclude=./.git . | tar -x -C "$src"
# The server majors built for: debian/control lists one package per major (pg_buildext).
(cd "$src" && pg_buildext updatecontrol)
echo "building postgresql-{$(cd "$src" && pg_buildext supported-versions | paste -sd,)}-idgen $version"
# (the build-time tests need the servers, not postgresql-all: checked without that profile)
(cd "$src" && dpkg-checkbuilddeps -P nocheck && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -b -us -uc -d)
ls -1 "$out"/*.deb
