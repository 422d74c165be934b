# ORM migrations that write a bare DEFAULT uuidv7() (test/multi/orm/<orm>.sql: the SQL that Rails
# 8.1, Prisma, Drizzle and Sequelize send for a UUID primary key with that default), run as the
# database owner (not a superuser), as an application runs its migrations:
#
# - PostgreSQL 15 to 17: without an opt-in, each migration fails (no uuidv7() exists: 42883); with
#   CREATE EXTENSION idgen_uuidv7 SCHEMA public, each succeeds, its default calls idgen's C
#   generator (checked in the catalog and by idgen.stats counting every row), and the IDs of many
#   sessions are in cluster-wide order when idgen's state is shared; a uuidv7() already in the
#   schema is refused (42723). The documented alternative, a CREATE FUNCTION app.uuidv7() over
#   idgen.uuidv7() in a schema on the search_path, does the same.
# - PostgreSQL 18: CREATE EXTENSION idgen_uuidv7 refuses (0A000, with the hint); the same migrations
#   use core's pg_catalog.uuidv7() (idgen.stats counts nothing), also with the documented function
#   in a schema on the search_path: nothing of idgen ever shadows core's uuidv7().
# - Every major: the same migrations with idgen.uuidv7() written qualified (the README's advice)
#   call idgen's generator.
source "$(dirname "$0")/lib.sh"
fresh_db orm
ORM_DIR=$(dirname "$0")/orm
ORMS=(rails prisma drizzle sequelize)
declare -A TABLE=([rails]=rails_users [prisma]='"PrismaUser"' [drizzle]=drizzle_users [sequelize]=sequelize_users)
ROWS=1000
OWNER=idgen_orm_owner
q -d postgres -c "DO \$\$ BEGIN CREATE ROLE $OWNER LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END \$\$"
q -c "ALTER DATABASE $PGDATABASE OWNER TO $OWNER"
# the role owns nothing outside this database: it goes once the database has
trap 'cleanup; q -d postgres -c "DROP ROLE IF EXISTS $OWNER" >/dev/null 2>&1 || true' EXIT
as_owner() { q -U "$OWNER" "$@"; }
major=${IDGEN_MAJOR:?}
[ "$(q -c "SELECT current_setting('server_version_num')::int / 10000")" = "$major" ] ||
  fail "the server is not PostgreSQL $major"

# the function that the default of a table's id calls: schema.name language prosrc probin (read from
# the stored expression: pg_depend records no dependency on core's pinned functions)
default_function() {
  q -F ' ' -c "
    SELECT n.nspname || '.' || p.proname, l.lanname, p.prosrc, coalesce(p.probin, '-')
    FROM pg_attrdef ad
    JOIN pg_proc p ON p.oid = (regexp_match(ad.adbin::text, ':funcid ([0-9]+)'))[1]::oid
    JOIN pg_namespace n ON n.oid = p.pronamespace
    JOIN pg_language l ON l.oid = p.prolang
    JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
    WHERE ad.adrelid = '$1'::regclass AND a.attname = 'id'"
}
idgen_c=$(q -F ' ' -c "SELECT prosrc, probin FROM pg_proc WHERE oid = 'idgen.uuidv7()'::regprocedure")

# migrate_all: every ORM's migration, as the owner. insert_all: $ROWS rows into each table in one
# session, which add 4 x $ROWS to idgen.stats when idgen makes the IDs, and 0 when core does.
migrate_all() {
  local orm
  for orm in "${ORMS[@]}"; do
    as_owner -f "$ORM_DIR/$orm.sql" >/dev/null || fail "$orm: the migration failed"
    pass "$orm: migration ran"
  done
}
declare -A COLS=([rails]='name, created_at, updated_at' [prisma]=name [drizzle]=name [sequelize]='name, "createdAt", "updatedAt"')
declare -A VALS=([rails]="'n' || i, now(), now()" [prisma]="'n' || i" [drizzle]="'n' || i" [sequelize]="'n' || i, now(), now()")
insert_all() {  # prints how many UUIDs idgen.stats counted while the rows went in (one session)
  local sql="SELECT issued FROM idgen.stats WHERE family = 'uuidv7' \\gset before_"$'\n' orm
  for orm in "${ORMS[@]}"; do
    sql+="INSERT INTO ${TABLE[$orm]} (${COLS[$orm]}) SELECT ${VALS[$orm]} FROM generate_series(1, $ROWS) i;"$'\n'
  done
  sql+="SELECT issued - :before_issued FROM idgen.stats WHERE family = 'uuidv7';"
  as_owner <<<"$sql"
}
drop_all() {
  local orm
  for orm in "${ORMS[@]}"; do q -c "DROP TABLE ${TABLE[$orm]}"; done
}

if [ "$major" -lt 18 ]; then
  echo "-- PostgreSQL $major: no uuidv7() without the opt-in"
  for orm in "${ORMS[@]}"; do
    if out=$(as_owner -f "$ORM_DIR/$orm.sql" 2>&1); then fail "$orm: the migration ran without a uuidv7()"; fi
    [[ "$out" == *"function uuidv7() does not exist"* ]] && pass "$orm: refused, no uuidv7()" || fail "$orm: $out"
  done

  echo "-- a uuidv7() already in the schema is refused"
  as_owner -c "CREATE FUNCTION public.uuidv7() RETURNS uuid LANGUAGE sql RETURN gen_random_uuid()"
  out=$(as_owner -c '\set VERBOSITY verbose' -c "CREATE EXTENSION idgen_uuidv7 SCHEMA public" 2>&1) && fail "installed over a look-alike"
  [[ "$out" == *"42723: schema public already has a function uuidv7()"* ]] && pass "look-alike refused: 42723" || fail "look-alike: $out"
  as_owner -c "DROP FUNCTION public.uuidv7()"

  echo "-- never in pg_catalog (a superuser could ask): it would stand in core's place after an upgrade to 18"
  out=$(q -c '\set VERBOSITY verbose' -c "CREATE EXTENSION idgen_uuidv7 SCHEMA pg_catalog" 2>&1) && fail "installed into pg_catalog"
  [[ "$out" == *"3F000: idgen_uuidv7 does not go in schema pg_catalog"* ]] && pass "pg_catalog refused: 3F000" || fail "pg_catalog: $out"

  echo "-- only where the installing owner may create: not another role's schema, information_schema, pg_toast"
  q -c "CREATE SCHEMA orm_not_hers"  # the superuser's, no grant to the owner
  for schema in orm_not_hers information_schema pg_toast; do
    out=$(as_owner -c '\set VERBOSITY verbose' -c "CREATE EXTENSION idgen_uuidv7 SCHEMA $schema" 2>&1) && fail "installed into $schema"
    [[ "$out" == *"42501: idgen_uuidv7 goes only in a schema where its installer may create functions: not in $schema"* ]] &&
      pass "$schema refused: 42501" || fail "$schema: $out"
  done
  q -c "DROP SCHEMA orm_not_hers"

  echo "-- CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE, by the database owner (trusted), idgen with it"
  q -c "DROP EXTENSION idgen"
  as_owner -c "CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE" 2>/dev/null
  expect "extensions and their schemas" "idgen idgen,idgen_uuidv7 public" \
    "$(q -c "SELECT string_agg(extname || ' ' || extnamespace::regnamespace, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'idgen%'")"
  migrate_all
  for orm in "${ORMS[@]}"; do
    expect "$orm: the default calls" "public.uuidv7 c $idgen_c" "$(default_function "${TABLE[$orm]}")"
  done
  expect "UUIDs idgen.stats counted for $((4 * ROWS)) rows" $((4 * ROWS)) "$(insert_all)"
  expect "version 7 ids" "$ROWS" "$(q -c "SELECT count(*) FROM drizzle_users WHERE substr(id::text, 15, 1) = '7'")"
  if state_is_shared; then
    witness_table w "uuid PRIMARY KEY DEFAULT uuidv7()"
    bench_sessions 4 1000 "$WORK/w.sql" >/dev/null
    expect "bare uuidv7(), 4 sessions: cluster-wide order violations" 0 "$(order_violations w)"
    q -c "DROP TABLE w"
  fi
  drop_all
  as_owner -c "DROP EXTENSION idgen_uuidv7"

  echo "-- the documented alternative: CREATE FUNCTION app.uuidv7(), app on the search_path"
  as_owner -c "CREATE SCHEMA app" \
    -c "CREATE FUNCTION app.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL RESTRICTED RETURN idgen.uuidv7()" \
    -c "ALTER DATABASE $PGDATABASE SET search_path = \"\$user\", public, app"
  migrate_all
  for orm in "${ORMS[@]}"; do
    expect "$orm: the default calls" "app.uuidv7 sql" "$(default_function "${TABLE[$orm]}" | cut -d' ' -f1,2)"
  done
  expect "UUIDs idgen.stats counted for $((4 * ROWS)) rows" $((4 * ROWS)) "$(insert_all)"
else
  echo "-- PostgreSQL $major: idgen_uuidv7 refuses, core's uuidv7() serves the migrations"
  out=$(as_owner -c '\set VERBOSITY verbose' -c "CREATE EXTENSION idgen_uuidv7 SCHEMA public" 2>&1) && fail "idgen_uuidv7 installed on $major"
  [[ "$out" == *"0A000: idgen_uuidv7 is for PostgreSQL 15 to 17"* ]] && pass "refused: 0A000" || fail "refusal: $out"
  [[ "$out" == *"HINT:  For idgen's order across every session, write idgen.uuidv7() in the column default"* ]] &&
    pass "the hint says what to write" || fail "hint: $out"
  expect "idgen_uuidv7 installed" 0 "$(q -c "SELECT count(*) FROM pg_extension WHERE extname = 'idgen_uuidv7'")"
  migrate_all
  for orm in "${ORMS[@]}"; do
    expect "$orm: the default calls" "pg_catalog.uuidv7 internal" "$(default_function "${TABLE[$orm]}" | cut -d' ' -f1,2)"
  done
  expect "UUIDs idgen.stats counted (core's made them)" 0 "$(insert_all)"
  drop_all

  echo "-- the documented function in a schema on the search_path does not shadow core's either"
  as_owner -c "CREATE SCHEMA app" \
    -c "CREATE FUNCTION app.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL RESTRICTED RETURN idgen.uuidv7()" \
    -c "ALTER DATABASE $PGDATABASE SET search_path = app, public"
  migrate_all
  for orm in "${ORMS[@]}"; do
    expect "$orm: the default calls" "pg_catalog.uuidv7 internal" "$(default_function "${TABLE[$orm]}" | cut -d' ' -f1,2)"
  done
  expect "UUIDs idgen.stats counted (core's made them)" 0 "$(insert_all)"
fi

echo "-- the README's advice, idgen.uuidv7() written qualified: idgen's generator on every major"
drop_all
for orm in "${ORMS[@]}"; do
  sed 's/DEFAULT uuidv7()/DEFAULT idgen.uuidv7()/' "$ORM_DIR/$orm.sql" >"$WORK/$orm.sql"
  grep -q 'DEFAULT idgen.uuidv7()' "$WORK/$orm.sql" || fail "$orm: no DEFAULT uuidv7() to qualify"
  as_owner -f "$WORK/$orm.sql" >/dev/null || fail "$orm: the migration with idgen.uuidv7() failed"
  expect "$orm: the default calls" "idgen.uuidv7 c $idgen_c" "$(default_function "${TABLE[$orm]}")"
done
expect "UUIDs idgen.stats counted for $((4 * ROWS)) rows" $((4 * ROWS)) "$(insert_all)"
