#!/usr/bin/env bash
# The SQL edition's release artifact, for a user who has psql and nothing to build with (docs/managed.md):
# build/idgen_sql-<version>/ and build/idgen_sql-<version>.zip, made by make edition. Every file is
# made by edition/build.sh, except the move script and the page that says what to run.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" edition/idgen_sql.control)
out=build/idgen_sql-$version
rm -rf "$out" "$out.zip" && mkdir -p "$out"
edition/build.sh pg_tle >"$out/idgen_sql.pg_tle.sql"
edition/build.sh script >"$out/idgen_sql.sql"
edition/build.sh script-update >"$out/idgen_sql.update.sql"
edition/build.sh extension >"$out/idgen_sql--$version.sql"
edition/build.sh update >"$out/idgen_sql--1.0--$version.sql"
cp edition/idgen_sql.control edition/idgen_move.sql docs/managed.md LICENSE "$out/"
python3 - "$out" <<'PY'
import os, sys, zipfile
out = sys.argv[1]
with zipfile.ZipFile(out + '.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(out)):
        z.write(os.path.join(out, name), os.path.join(os.path.basename(out), name))
PY
echo "$out.zip"
