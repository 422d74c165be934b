#!/usr/bin/env bash
# Wraps the SQL edition's body (edition/idgen_sql.body.sql) in one of the three forms it installs in:
#
#   edition/build.sh extension   the script of CREATE EXTENSION idgen_sql (with idgen_sql.control)
#   edition/build.sh script      a plain script, one transaction, for a server with neither
#                                extension files nor pg_tle: psql -v ON_ERROR_STOP=1 -f idgen_sql.sql
#   edition/build.sh pg_tle      a call of pgtle.install_extension, for a role granted pgtle_admin;
#                                then CREATE EXTENSION idgen_sql
#
# The Makefile builds the first into the extension directory; build/edition/ holds all three.
set -euo pipefail
here=$(dirname "$0")
body=$here/idgen_sql.body.sql
version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$here/idgen_sql.control")
comment=$(sed -n "s/^comment = '\(.*\)'/\1/p" "$here/idgen_sql.control")
tag='$idgen_sql_body$'
case ${1:-} in
  extension)
    echo '-- complain if this script is sourced in psql rather than through CREATE EXTENSION'
    echo '\echo Use "CREATE EXTENSION idgen_sql" to load this file. \quit'
    cat "$body" ;;
  script)
    echo "-- idgen, SQL edition $version, as a plain script (edition/build.sh script): run it with"
    echo "--   psql -v ON_ERROR_STOP=1 -1 -f idgen_sql.sql"
    echo "-- as the role that is to own the schema idgen and its objects. It refuses a database that has"
    echo "-- idgen or a schema idgen already."
    echo 'BEGIN;'
    echo 'SET LOCAL search_path = pg_catalog, pg_temp;'
    cat "$body"
    echo 'COMMIT;' ;;
  pg_tle)
    if grep -qF "$tag" "$body"; then echo "edition/build.sh: the body holds $tag" >&2; exit 1; fi
    echo "-- idgen, SQL edition $version, for pg_tle (edition/build.sh pg_tle): run it as a role granted"
    echo "-- pgtle_admin, then CREATE EXTENSION idgen_sql in each database that is to have it."
    echo "SELECT pgtle.install_extension('idgen_sql', '$version', '${comment//\'/\'\'}', $tag"
    cat "$body"
    echo "$tag);" ;;
  *) echo "usage: edition/build.sh extension|script|pg_tle" >&2; exit 2 ;;
esac
