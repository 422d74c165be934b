# ALTER EXTENSION idgen UPDATE to 1.2 from 1.0 and from 1.1, on databases that hold objects and
# data: objectid columns and their indexes, typed domains from define_id_type (1.1 put them in
# pg_catalog, where pg_dump does not see them: the update moves them), a filled prefix registry,
# tables whose defaults call the generators. New IDs after the update are above the old ones. The
# result equals a fresh CREATE EXTENSION idgen, object by object; and the second half of the 1.0
# delta is the 1.1 delta word for word.
source "$(dirname "$0")/lib.sh"
state_is_shared || { pass "skipped: needs shared state"; exit 0; }

# The released scripts of 1.0 and 1.1 are kept frozen in sql/ and not installed (a new install is
# 1.2): this test installs them to make the databases that users have.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
extdir="$("${PG_CONFIG:-pg_config}" --sharedir)/extension"
cp "$ROOT/sql/idgen--1.0.sql" "$ROOT/sql/idgen--1.0--1.1.sql" "$extdir/"
remove_frozen() { rm -f "$extdir/idgen--1.0.sql" "$extdir/idgen--1.0--1.1.sql"; cleanup; }
trap remove_frozen EXIT

# What 1.2 changed, section by section (a section: a header between two rules of dashes, and what
# follows it), without the sections that repair what only 1.1 made (their header starts "idgen 1.1").
tail_of() {
  { printf '%s\n' "$(printf -- '-%.0s' {1..99})"; sed -n "/^-- The schema's privileges/,\$p" "$ROOT/sql/$1"; } | awk '
    /^-+$/ && length($0) >= 40 { rules++; if (rules % 2 == 1) { pending = $0; next } }
    pending != "" { skip = ($0 ~ /^-- idgen 1\.1/); if (!skip) print pending; pending = "" }
    !skip { print }'
}
if [ "$(tail_of idgen--1.0--1.2.sql)" = "$(tail_of idgen--1.1--1.2.sql)" ]; then
  pass "what 1.2 changed is word for word the same in idgen--1.0--1.2.sql and idgen--1.1--1.2.sql"
else
  diff <(tail_of idgen--1.1--1.2.sql) <(tail_of idgen--1.0--1.2.sql) | head -n 20
  fail "idgen--1.0--1.2.sql and idgen--1.1--1.2.sql differ in what 1.2 changed"
fi

fresh=idgen_multi_upgrade_fresh
q -d postgres -c "DROP DATABASE IF EXISTS $fresh" -c "CREATE DATABASE $fresh"
q -d "$fresh" -c "CREATE EXTENSION idgen"
catalog="
SELECT pg_describe_object(d.classid, d.objid, 0)
  || coalesce(' | ' || (SELECT concat_ws(' ', pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid),
                         p.provolatile, p.proparallel, p.proisstrict, p.prosecdef, p.proleakproof, p.proconfig::text,
                         p.prosrc, p.proacl::text, obj_description(p.oid, 'pg_proc'))
                        FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid), '')
  || coalesce(' | ' || (SELECT concat_ws(' ', o.oprnamespace::regnamespace, o.oprcode, o.oprcom::regoperator,
                         o.oprnegate::regoperator, o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge)
                        FROM pg_operator o WHERE d.classid = 'pg_operator'::regclass AND o.oid = d.objid), '')
  || coalesce(' | ' || (SELECT concat_ws(' ', c.relkind, c.relacl::text, obj_description(c.oid, 'pg_class'))
                        FROM pg_class c WHERE d.classid = 'pg_class'::regclass AND c.oid = d.objid), '')
  || coalesce(' | ' || (SELECT concat_ws(' ', n.nspowner::regrole, n.nspacl::text)
                        FROM pg_namespace n WHERE d.classid = 'pg_namespace'::regclass AND n.oid = d.objid), '')
  || coalesce(' | ' || obj_description(d.objid, d.classid::regclass::text), '')
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
ORDER BY 1"
q -d "$fresh" -c "$catalog" >"$WORK/fresh.txt"
extconfig="SELECT extconfig::regclass[]::text FROM pg_extension WHERE extname = 'idgen'"
fresh_extconfig=$(q -d "$fresh" -c "$extconfig")
q -d postgres -c "DROP DATABASE $fresh"

for from in 1.0 1.1; do
  fresh_db "upgrade_${from/./_}"
  q -c "DROP EXTENSION idgen" -c "CREATE EXTENSION idgen VERSION '$from'"
  expect "$from: installed version" "$from" "$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")"
  q <<'SQL'
SELECT idgen.define_id_type('post', 'post_id');
CREATE TABLE posts (id post_id PRIMARY KEY, body text);
INSERT INTO posts (body) SELECT 'post ' || n FROM generate_series(1, 1000) AS n;
SELECT idgen.register_prefix('post', 'posts');
CREATE TABLE docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int);
INSERT INTO docs (n) SELECT n FROM generate_series(1, 10000) AS n;
INSERT INTO docs (id, n) VALUES ('507f191e810c19729de860ea', 0);
CREATE INDEX docs_hash ON docs USING hash (id);
CREATE TABLE keyed (after bool NOT NULL DEFAULT false, i bigint PRIMARY KEY DEFAULT idgen.instagram_id(3), s bigint UNIQUE DEFAULT idgen.snowflake_id(), u uuid UNIQUE DEFAULT idgen.uuidv7());
SQL
  q -c "INSERT INTO keyed SELECT FROM generate_series(1, 1000)" 2>"$WORK/keyed.err" ||
    echo "($from: the generators of $from's catalog under the new library: $(head -n 1 "$WORK/keyed.err"))"
  before=$(q -c "SELECT md5(string_agg(id::text || n, ',' ORDER BY id USING OPERATOR(idgen.<))) FROM docs" 2>/dev/null ||
    q -c "SELECT md5(string_agg(id::text || n, ',' ORDER BY id)) FROM docs")

  q -c "ALTER EXTENSION idgen UPDATE"
  expect "$from: the database's mark, converted, lies within a minute of the clock" "t" \
    "$(q -c "SELECT abs(last_value - extract(epoch FROM clock_timestamp()) * 1000) < 60000 OR last_value < extract(epoch FROM clock_timestamp()) * 1000 FROM idgen.mark")"
  expect "$from: version after the update" 1.2 "$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")"
  expect "$from: every row, in the same order" "$before" "$(q -c "SELECT md5(string_agg(id::text || n, ',' ORDER BY id)) FROM docs")"
  expect "$from: the btree index answers = with the default search_path" "0" \
    "$(q -c "SET enable_seqscan = off" -c "SELECT n FROM docs WHERE id = '507f191e810c19729de860ea'")"
  expect "$from: and the hash index" "0" \
    "$(q -c "SET enable_seqscan = off" -c "SET enable_indexscan = off" -c "SET enable_bitmapscan = on" -c "SELECT n FROM docs WHERE id = '507f191e810c19729de860ea'")"
  expect "$from: a unique violation still fires" 23505 \
    "$(q -v VERBOSITY=sqlstate -c "INSERT INTO docs VALUES ('507f191e810c19729de860ea', 1)" 2>&1 | sed -n 's/^ERROR: *//p')"
  expect "$from: typed domain still checks and defaults" "t|23514" \
    "$(q -c "INSERT INTO posts (body) VALUES ('new')" -c "SELECT count(*) = 1001 FROM posts")|$(q -v VERBOSITY=sqlstate -c "INSERT INTO posts VALUES (idgen.typeid('user'))" 2>&1 | sed -n 's/^ERROR: *//p')"
  expect "$from: the domain lies where pg_dump sees it (not pg_catalog)" "public" \
    "$(q -c "SELECT typnamespace::regnamespace FROM pg_type WHERE typname = 'post_id'")"
  expect "$from: the registry leads back" "posts" "$(q -c "SELECT DISTINCT idgen.typeid_table(id) FROM posts")"
  expect "$from: min() and max() of the old column" "t" "$(q -c "SELECT min(id) < max(id) FROM docs")"
  q -c "INSERT INTO keyed (after) SELECT true FROM generate_series(1, 1000)"
  expect "$from: new Instagram and Snowflake IDs above the old ones" "t|t" \
    "$(q -c "SELECT coalesce(min(i) FILTER (WHERE after) > max(i) FILTER (WHERE NOT after), true), coalesce(min(s) FILTER (WHERE after) > max(s) FILTER (WHERE NOT after), true) FROM keyed")"
  expect "$from: no duplicate" "0" "$(q -c "SELECT count(*) - count(DISTINCT i) FROM keyed")"

  # pg_dump and a restore keep the table of the moved domain and its rows (1.1: the type was
  # skipped with pg_catalog, and the restore lost the table).
  "$PG_BIN/pg_dump" -Fc -f "$WORK/dump" "$PGDATABASE"
  q -d postgres -c "DROP DATABASE IF EXISTS ${PGDATABASE}_restored" -c "CREATE DATABASE ${PGDATABASE}_restored"
  "$PG_BIN/pg_restore" -d "${PGDATABASE}_restored" "$WORK/dump" 2>"$WORK/restore.err" ||
    { cat "$WORK/restore.err"; fail "$from: pg_restore reported errors"; }
  expect "$from: restored, the table of the domain and its rows" 1001 "$(q -d "${PGDATABASE}_restored" -c "SELECT count(*) FROM posts")"
  q -d postgres -c "DROP DATABASE ${PGDATABASE}_restored"

  q -c "$catalog" >"$WORK/updated.txt"
  expect "$from: member objects" "$(wc -l <"$WORK/fresh.txt")" "$(wc -l <"$WORK/updated.txt")"
  if diff "$WORK/fresh.txt" "$WORK/updated.txt" >"$WORK/catalog.diff"; then
    pass "$from: the updated catalog equals a fresh install's, object by object"
  else
    head -n 60 "$WORK/catalog.diff"
    fail "$from: the updated catalog differs from a fresh install's"
  fi
  expect "$from: configuration tables" "$fresh_extconfig" "$(q -c "$extconfig")"
  q -d postgres -c "DROP DATABASE $PGDATABASE"
done
