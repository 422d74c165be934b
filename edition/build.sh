#!/usr/bin/env bash
# Wraps the SQL edition's SQL in the forms it installs in. The SQL is written once:
#   edition/idgen_sql.body.sql        1.0's body, as released (frozen: edition/SHA256SUMS)
#   edition/idgen_sql--1.0--1.1.sql   what 1.1 changes; 1.1's body is 1.0's followed by it
#
#   edition/build.sh extension [V]    the script of CREATE EXTENSION idgen_sql (VERSION V, default
#                                     the control file's): idgen_sql--V.sql
#   edition/build.sh update           the script of ALTER EXTENSION idgen_sql UPDATE from 1.0:
#                                     idgen_sql--1.0--1.1.sql
#   edition/build.sh script [V]       a plain script, one transaction, for a server with neither
#                                     extension files nor pg_tle: psql -v ON_ERROR_STOP=1 -f idgen_sql.sql
#   edition/build.sh script-update    the plain script's update from 1.0: idgen_sql.update.sql
#   edition/build.sh pg_tle [V]       pg_tle's form, run in each database that is to have the edition
#                                     (pg_tle keeps its extensions per database): it stores 1.1 and the
#                                     update from 1.0 in pg_tle, or only 1.0 (V=1.0, as released)
#
# No PostgreSQL is needed: make edition (or make, per major) writes them all.
set -euo pipefail
here=$(dirname "$0")
body=$here/idgen_sql.body.sql
delta=$here/idgen_sql--1.0--1.1.sql
latest=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$here/idgen_sql.control")
comment=$(sed -n "s/^comment = '\(.*\)'/\1/p" "$here/idgen_sql.control")
# 1.0 is frozen: what users installed is what the update starts from.
(cd "$here" && sha256sum --quiet -c SHA256SUMS) >&2 ||
  { echo "edition/build.sh: a released file of the edition changed (edition/SHA256SUMS)" >&2; exit 1; }

version=${2:-$latest}
case $version in 1.0 | 1.1) ;; *) echo "edition/build.sh: no version $version" >&2; exit 2 ;; esac
sql() {  # the SQL of a complete install of $version
  cat "$body"
  if [ "$version" != 1.0 ]; then echo; cat "$delta"; fi
}
tag_body='$idgen_sql_body$'
tag_delta='$idgen_sql_delta$'
for f in "$body" "$delta"; do
  if grep -qF -e "$tag_body" -e "$tag_delta" "$f"; then echo "edition/build.sh: $f holds a tag of the pg_tle form" >&2; exit 1; fi
done

case ${1:-} in
  extension)
    echo '-- complain if this script is sourced in psql rather than through CREATE EXTENSION'
    echo '\echo Use "CREATE EXTENSION idgen_sql" to load this file. \quit'
    sql ;;
  update)
    echo '-- complain if this script is sourced in psql rather than through ALTER EXTENSION'
    echo '\echo Use "ALTER EXTENSION idgen_sql UPDATE" to load this file. \quit'
    cat "$delta" ;;
  script)
    echo "-- idgen, SQL edition $version, as a plain script (edition/build.sh script): run it with"
    echo "--   psql -v ON_ERROR_STOP=1 -1 -f idgen_sql.sql"
    echo "-- as the role that is to own the schema idgen and its objects. It refuses a database that has"
    echo "-- idgen or a schema idgen already."
    echo 'BEGIN;'
    echo 'SET LOCAL search_path = pg_catalog, pg_temp;'
    sql
    echo 'COMMIT;' ;;
  script-update)
    echo "-- idgen, SQL edition: the plain script's update from 1.0 to $latest (edition/build.sh script-update):"
    echo "--   psql -v ON_ERROR_STOP=1 -f idgen_sql.update.sql"
    echo "-- as the role that owns schema idgen (the one that ran idgen_sql.sql 1.0), in each database."
    echo 'BEGIN;'
    echo 'SET LOCAL search_path = pg_catalog, pg_temp;'
    cat <<'EOF'
DO $update$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen_sql'::pg_catalog.name) THEN
    RAISE EXCEPTION 'idgen_sql is installed here as an extension'
      USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = 'Update it with ALTER EXTENSION idgen_sql UPDATE (after storing the update in pg_tle, or installing the files).';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure('idgen.edition_version()')) THEN
    RAISE EXCEPTION 'the SQL edition of idgen is not installed in this database'
      USING ERRCODE = 'undefined_object', HINT = 'Install it with idgen_sql.sql.';
  END IF;
  IF idgen.edition_version() OPERATOR(pg_catalog.<>) '1.0' THEN
    RAISE EXCEPTION 'this update is from the SQL edition 1.0; this database has %', idgen.edition_version()
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
END
$update$;
EOF
    cat "$delta"
    echo 'COMMIT;' ;;
  pg_tle)
    echo "-- idgen, SQL edition $version, for pg_tle (edition/build.sh pg_tle): run it as a role granted"
    echo "-- pgtle_admin in each database that is to have the edition (pg_tle keeps what it installs per"
    echo "-- database, in that database's schema pgtle), then CREATE EXTENSION idgen_sql there, or, where"
    echo "-- the edition 1.0 was created, ALTER EXTENSION idgen_sql UPDATE."
    if [ "$version" = 1.0 ]; then
      echo "SELECT pgtle.install_extension('idgen_sql', '1.0', '${comment//\'/\'\'}', $tag_body"
      cat "$body"
      echo "$tag_body);"
      exit 0
    fi
    # One statement, whatever this database's pg_tle already holds: nothing (the complete 1.1),
    # 1.0 as released (1.1 beside it, the update from 1.0, 1.1 the default), or 1.1 (nothing to do).
    echo 'DO $idgen_sql_pg_tle$'
    echo 'DECLARE'
    echo "  complete pg_catalog.text := $tag_body"
    sql
    echo "$tag_body;"
    echo "  delta pg_catalog.text := $tag_delta"
    cat "$delta"
    echo "$tag_delta;"
    cat <<EOF
  held pg_catalog.text[] := ARRAY(SELECT v.version FROM pgtle.available_extension_versions() v
                                  WHERE v.name OPERATOR(pg_catalog.=) 'idgen_sql'::pg_catalog.name);
BEGIN
  IF pg_catalog.cardinality(held) OPERATOR(pg_catalog.=) 0 THEN
    PERFORM pgtle.install_extension('idgen_sql', '$version', '${comment//\'/\'\'}', complete);
  ELSIF NOT '$version' OPERATOR(pg_catalog.=) ANY (held) THEN
    PERFORM pgtle.install_extension_version_sql('idgen_sql', '$version', complete);
  END IF;
  IF '1.0' OPERATOR(pg_catalog.=) ANY (held) AND NOT EXISTS (
       SELECT FROM pgtle.extension_update_paths('idgen_sql') p
       WHERE p.source OPERATOR(pg_catalog.=) '1.0' AND p.target OPERATOR(pg_catalog.=) '$version' AND p.path IS NOT NULL) THEN
    PERFORM pgtle.install_update_path('idgen_sql', '1.0', '$version', delta);
  END IF;
  PERFORM pgtle.set_default_version('idgen_sql', '$version');
END
\$idgen_sql_pg_tle\$;
EOF
    ;;
  *) echo "usage: edition/build.sh extension|update|script|script-update|pg_tle [version]" >&2; exit 2 ;;
esac
