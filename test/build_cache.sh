#!/usr/bin/env bash
# The test of the builds' cache (scripts/cache.sh, scripts/pg-build.sh): a build that fails part-way
# is never recorded, an entry without what it must hold is built again, and a checkout's copy of an
# entry follows it when it is built again. pg-build.sh runs, as it is, in a throwaway checkout
# against a fake PostgreSQL source (a configure and a Makefile that install bin/, lib/ and share/,
# and fail the server's build when FAKE_PG_FAIL is set, as a missing bison did: the install and the
# contrib installs after it succeed). The cache is a temporary directory (IDGEN_CACHE), never the
# machine's. Takes a second.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
status=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; status=1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/idgen-build-cache.XXXXXX")
trap 'rm -rf "$work"' EXIT
export IDGEN_CACHE=$work/cache IDGEN_NO_PACKAGES=1 IDGEN_PG_SOURCE_99=$work/postgresql-99.tar.gz
checkout=$work/checkout
mkdir -p "$checkout/scripts" "$work/src/postgresql-99/contrib/pgstattuple" "$work/src/postgresql-99/contrib/pg_stat_statements"
cp "$ROOT/scripts/pg-build.sh" "$ROOT/scripts/cache.sh" "$checkout/scripts/"

src=$work/src/postgresql-99
cat >"$src/configure" <<'SH'
#!/bin/sh
for a; do case $a in --prefix=*) echo "prefix = ${a#--prefix=}" >config.mk ;; esac; done
SH
chmod +x "$src/configure"
cat >"$src/Makefile" <<'MK'
include config.mk
all:
	@if [ -n "$$FAKE_PG_FAIL" ]; then echo "bison: command not found" >&2; exit 1; fi
	touch built
install:
	mkdir -p $(DESTDIR)$(prefix)/lib $(DESTDIR)$(prefix)/share $(DESTDIR)$(prefix)/bin
	echo lib >$(DESTDIR)$(prefix)/lib/libpq.so
	echo share >$(DESTDIR)$(prefix)/share/postgres.bki
	if [ -f built ]; then for b in pg_config postgres initdb pg_ctl psql; do printf '#!/bin/sh\necho %s\n' $$b >$(DESTDIR)$(prefix)/bin/$$b; chmod +x $(DESTDIR)$(prefix)/bin/$$b; done; fi
MK
for c in pgstattuple pg_stat_statements; do
  printf 'install:\n\tmkdir -p $(DESTDIR)/x && echo %s >$(DESTDIR)/x/%s\n' $c $c >"$src/contrib/$c/Makefile"
done
tar -czf "$IDGEN_PG_SOURCE_99" -C "$work/src" postgresql-99

entries() { find "$IDGEN_CACHE" -maxdepth 1 -name 'pg-99-*' ! -name '*.tmp' -printf '%f\n'; }
build() { (cd "$checkout" && scripts/pg-build.sh 99) >"$work/out" 2>&1; }

# 1. The server's build fails, the installs after it succeed: nothing is recorded, no copy made.
if FAKE_PG_FAIL=1 build; then fail "a failed build exited 0: $(tail -n 3 "$work/out")"; else ok "a failed build fails"; fi
[ -z "$(entries)" ] && ok "a failed build is not recorded" || fail "a failed build was recorded: $(entries)"
[ ! -e "$checkout/build/pg/99" ] && ok "a failed build makes no copy" || fail "a failed build made a copy"

# 2. A good build: recorded, copied.
build || fail "a good build failed: $(tail -n 5 "$work/out")"
entry=$IDGEN_CACHE/$(entries)
[ -x "$entry/bin/pg_config" ] && [ -x "$checkout/build/pg/99/bin/pg_config" ] && ok "a good build is recorded and copied" ||
  fail "a good build left no bin/pg_config in $entry or the copy"

# 3. An entry that an older script recorded from a failed build (complete, its manifest right, no
# bin/), and the copy made of it: the entry is built again, the copy follows.
rm -rf "$entry/bin" "$checkout/build/pg/99/bin"
(cd "$entry" && find . \( -type f -o -type l \) ! -name .manifest ! -name .complete -printf '%P %s\n' | LC_ALL=C sort) >"$entry/.manifest"
build || fail "building a broken entry again failed: $(tail -n 5 "$work/out")"
[ -x "$entry/bin/pg_config" ] && ok "an entry without bin/pg_config is built again" || fail "an entry without bin/pg_config was kept"
[ -x "$checkout/build/pg/99/bin/pg_config" ] && ok "the copy follows the entry built again" ||
  fail "the copy of the broken entry was kept (its .from: $(head -n 1 "$checkout/build/pg/99/.from" 2>/dev/null))"

# 4. The entry built again under the same path while this copy stays as it was: the copy follows.
rm -rf "$entry/bin/psql"
touch "$checkout/build/pg/99/copied-before"
build || fail "building an entry without bin/psql failed"
[ -x "$entry/bin/psql" ] && [ ! -e "$checkout/build/pg/99/copied-before" ] && ok "a copy of an entry built again is copied again" ||
  fail "the copy stayed that of the entry before it was built again"

# 5. A whole entry and its copy: nothing is built or copied.
before=$(cat "$entry/.complete")
touch "$checkout/build/pg/99/kept"
build && [ "$(cat "$entry/.complete")" = "$before" ] && [ -e "$checkout/build/pg/99/kept" ] &&
  ok "a whole entry and its copy are used as they are" || fail "a whole entry or its copy was made again"

# 6. A failed build of an entry that was whole before: the entry is not recorded as built.
rm -rf "$entry/bin"
if FAKE_PG_FAIL=1 build; then fail "a failed rebuild exited 0"; else ok "a failed rebuild fails"; fi
[ -z "$(entries)" ] && ok "a failed rebuild leaves no entry" || fail "a failed rebuild left an entry: $(entries)"
exit $status
