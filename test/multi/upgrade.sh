# ALTER EXTENSION idgen UPDATE from 1.0 keeps a database that holds 1.0 objects and data working:
# objectid columns and their indexes, typed domains from define_id_type, a filled prefix registry.
# And the result equals a fresh CREATE EXTENSION idgen: the same member objects, defined the same.
source "$(dirname "$0")/lib.sh"
state_is_shared || { pass "skipped: needs shared state"; exit 0; }
fresh_db upgrade
fresh=idgen_multi_upgrade_fresh

q -c "DROP EXTENSION idgen" -c "CREATE EXTENSION idgen VERSION '1.0'"
expect "installed version" 1.0 "$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")"
q <<'SQL'
SELECT idgen.define_id_type('post', 'post_id');
CREATE TABLE posts (id post_id PRIMARY KEY, body text);
INSERT INTO posts (body) SELECT 'post ' || n FROM generate_series(1, 1000) AS n;
SELECT idgen.register_prefix('post', 'posts');
CREATE TABLE docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int);
INSERT INTO docs (n) SELECT n FROM generate_series(1, 10000) AS n;
INSERT INTO docs (id, n) VALUES ('507f191e810c19729de860ea', 0);
CREATE INDEX docs_hash ON docs USING hash (id);
SQL
before=$(q -c "SELECT md5(string_agg(id::text || n, ',' ORDER BY id USING OPERATOR(idgen.<))) FROM docs")

q -c "ALTER EXTENSION idgen UPDATE"
expect "version after the update" 1.1 "$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")"
expect "every row, in the same order" "$before" "$(q -c "SELECT md5(string_agg(id::text || n, ',' ORDER BY id)) FROM docs")"
expect "the btree index answers = with the default search_path" "0" \
  "$(q -c "SET enable_seqscan = off" -c "SELECT n FROM docs WHERE id = '507f191e810c19729de860ea'")"
expect "and the hash index" "0" \
  "$(q -c "SET enable_seqscan = off" -c "SET enable_indexscan = off" -c "SET enable_bitmapscan = on" -c "SELECT n FROM docs WHERE id = '507f191e810c19729de860ea'")"
expect "index checks (amcheck-free): a unique violation still fires" 23505 \
  "$(q -v VERBOSITY=sqlstate -c "INSERT INTO docs VALUES ('507f191e810c19729de860ea', 1)" 2>&1 | sed -n 's/^ERROR: *//p')"
expect "typed domain still checks and defaults" "t|23514" \
  "$(q -c "INSERT INTO posts (body) VALUES ('new')" -c "SELECT count(*) = 1001 FROM posts")|$(q -v VERBOSITY=sqlstate -c "INSERT INTO posts VALUES (idgen.typeid('user'))" 2>&1 | sed -n 's/^ERROR: *//p')"
expect "the registry leads back" "posts" "$(q -c "SELECT DISTINCT idgen.typeid_table(id) FROM posts")"
expect "min() and max() of the old column" "t" "$(q -c "SELECT min(id) < max(id) FROM docs")"
expect "the generators" "t" "$(q -c "SELECT idgen.instagram_id(1) > 0 AND idgen.uuidv7() IS NOT NULL")"

# The catalog of the updated extension equals a fresh install's.
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
  || coalesce(' | ' || obj_description(d.objid, d.classid::regclass::text), '')
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
ORDER BY 1"
q -c "$catalog" >"$WORK/updated.txt"
q -d "$fresh" -c "$catalog" >"$WORK/fresh.txt"
expect "member objects" "$(wc -l <"$WORK/fresh.txt")" "$(wc -l <"$WORK/updated.txt")"
if diff "$WORK/fresh.txt" "$WORK/updated.txt" >"$WORK/catalog.diff"; then
  pass "the updated catalog equals a fresh install's, object by object"
else
  cat "$WORK/catalog.diff"
  fail "the updated catalog differs from a fresh install's"
fi
extconfig="SELECT extconfig::regclass[]::text FROM pg_extension WHERE extname = 'idgen'"
expect "configuration tables" "$(q -d "$fresh" -c "$extconfig")" "$(q -c "$extconfig")"
q -d postgres -c "DROP DATABASE $fresh"
