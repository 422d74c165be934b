# Schema idgen changes hands only while no other session is connected to the database. Found by the
# adversarial pass of this release: a database owner made an empty schema idgen, held an
# uncommitted CREATE FUNCTION idgen.instagram_id(integer) in one session (checked against her
# rights as the schema's owner) while her other session's CREATE EXTENSION took the schema over for
# the superuser, then committed: her function sat in the superuser's schema, and a superuser's
# idgen.instagram_id(42) ran it. Now that install is refused (55006) while another session is
# connected; the schema a CREATE EXTENSION makes itself (invisible to other sessions until the
# commit) is not, so an install with the application connected still works.
source "$(dirname "$0")/lib.sh"
export PGDATABASE=idgen_multi_takeover
owner=idgen_takeover_owner
cleanup_takeover() {
  cleanup
  q -d postgres -c "DROP DATABASE IF EXISTS idgen_multi_takeover" -c "DROP ROLE IF EXISTS $owner" >/dev/null 2>&1 || true
}
trap cleanup_takeover EXIT
q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE" -c "DROP ROLE IF EXISTS $owner" \
  -c "CREATE ROLE $owner LOGIN" -c "CREATE DATABASE $PGDATABASE OWNER $owner"
own() { q -U "$owner" "$@"; }
sqlstate() { "$PG_BIN/psql" -X -q -At -U "$owner" -v VERBOSITY=sqlstate "$@" 2>&1 | sed -n 's/^ERROR: *//p'; }

# The race: session A holds the uncommitted function while B installs.
own -c "CREATE SCHEMA idgen"
own -c "BEGIN" \
    -c "CREATE FUNCTION idgen.instagram_id(shard integer) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'" \
    -c "SELECT pg_sleep(4)" -c "COMMIT" >/dev/null &
a=$!
sleep 1.5
expect "CREATE EXTENSION over the owner's schema while another session of hers holds a CREATE in it" 55006 \
  "$(sqlstate -c "CREATE EXTENSION idgen")"
wait "$a"
expect "extension idgen after the refusal" 0 "$(q -c "SELECT count(*) FROM pg_extension WHERE extname = 'idgen'")"
# Committed, her function is seen: refused as any object in the schema is.
expect "CREATE EXTENSION once her function has committed" 42P06 "$(sqlstate -c "CREATE EXTENSION idgen")"

# The owner's empty schema (what her pg_restore makes) with no other session: taken over.
own -c "DROP SCHEMA idgen CASCADE" -c "CREATE SCHEMA idgen"
own -c "CREATE EXTENSION idgen"
expect "owner of schema idgen after the owner's install over her empty schema" t \
  "$(q -c "SELECT r.rolsuper FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner WHERE n.nspname = 'idgen'")"

# An install that makes the schema itself, with the application connected: not refused.
own -c "DROP EXTENSION idgen"
q -c "DROP SCHEMA idgen"  # the superuser's now (DROP EXTENSION leaves it)
q -c "SELECT pg_sleep(3)" >/dev/null &
app=$!
sleep 1
own -c "CREATE EXTENSION idgen"
expect "CREATE EXTENSION (the schema made by it) with another session connected" t \
  "$(q -c "SELECT idgen.uuidv7() IS NOT NULL")"
wait "$app"
