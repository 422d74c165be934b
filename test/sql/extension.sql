-- The extension as a whole: where it lives, what it is called, what every object says of itself,
-- and who can install it, shadow it or plant something in its schema.
CREATE EXTENSION idgen;

SELECT extname, extversion, extnamespace::regnamespace, extrelocatable FROM pg_extension WHERE extname = 'idgen';

-- Every member object carries a comment.
SELECT pg_describe_object(d.classid, d.objid, 0) AS uncommented
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND obj_description(d.objid, d.classid::regclass::text) IS NULL
  AND d.classid <> 'pg_type'::regclass  -- a table's row type and array types are described by their table
ORDER BY 1;
SELECT t.typname AS uncommented_type FROM pg_type t
WHERE t.typnamespace = 'idgen'::regnamespace AND t.typtype IN ('b', 'd') AND t.typcategory <> 'A'
  AND obj_description(t.oid, 'pg_type') IS NULL;
SELECT obj_description('idgen'::regnamespace, 'pg_namespace') IS NOT NULL AS schema_commented;

-- Every object lives in schema idgen, but for what users must reach without touching search_path:
-- the comparison operators of idgen.objectid and idgen.type_id and their min() and max(), in pg_catalog.
SELECT pg_describe_object(d.classid, d.objid, 0) AS outside_schema_idgen
FROM pg_depend d
LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
LEFT JOIN pg_operator o ON d.classid = 'pg_operator'::regclass AND o.oid = d.objid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND coalesce(p.pronamespace, o.oprnamespace) <> 'idgen'::regnamespace
ORDER BY 1;

-- Every C function is bound to idgen_<its name>[_<variant>].
SELECT p.oid::regprocedure AS misnamed FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
  AND p.prosrc NOT LIKE 'idgen\_' || p.proname || '%';
SELECT count(*) AS c_functions FROM pg_proc
WHERE pronamespace = 'idgen'::regnamespace AND prolang = (SELECT oid FROM pg_language WHERE lanname = 'c');

-- idgen defines no bare uuidv7() or uuidv4() anywhere (PostgreSQL 18 has its own in pg_catalog).
SELECT p.oid::regprocedure AS bare FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
WHERE d.deptype = 'e' AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND p.proname IN ('uuidv7', 'uuidv4') AND p.pronamespace <> 'idgen'::regnamespace;

-- Generators volatile, decoders not; nothing that generates is immutable.
SELECT p.proname, p.provolatile, count(*) FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND (p.proname ~ '_id$' OR p.proname IN ('uuidv7', 'typeid', 'objectid', 'signed_token'))
GROUP BY 1, 2 ORDER BY 1, 2;

-- Every volatile C function of idgen that is not PARALLEL UNSAFE: none moves the shared state or
-- writes a mark (those are unsafe, as nextval() is); a generator added as safe shows up here.
SELECT p.oid::regprocedure AS function, p.proparallel FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.provolatile = 'v' AND p.proparallel <> 'u'
  AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c') AND p.prorettype <> 'trigger'::regtype
  AND p.prorettype <> 'event_trigger'::regtype ORDER BY 1::text;
-- A query that makes IDs is planned without parallel workers, even when forced; one that decodes keeps them.
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                  ELSE 'force_parallel_mode' END, 'on', false) AS parallel_forced;
EXPLAIN (COSTS OFF) SELECT idgen.snowflake_id(), idgen.uuidv7(), idgen.ulid(), idgen.typeid('post');
EXPLAIN (COSTS OFF) SELECT idgen.uuidv7_time('018f6b4e-0000-7000-8000-000000000000');
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                  ELSE 'force_parallel_mode' END, 'off', false) AS parallel_forced;

-- Every SQL and PL/pgSQL function runs with pg_catalog first and nothing a caller can shadow.
SELECT p.oid::regprocedure AS function, p.proconfig FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.prolang IN (SELECT oid FROM pg_language WHERE lanname IN ('sql', 'plpgsql'))
ORDER BY 1;

-- Settings: the idgen prefix is reserved; the ones that could cause collisions are the superuser's;
-- secrets come from the server's configuration only.
SELECT name, context, vartype, unit, min_val, max_val FROM pg_settings WHERE name LIKE 'idgen.%' ORDER BY name;

-- An attacker's functions on the search path are not called: format(text, text, text, text, text)
-- matches a call of the variadic pg_catalog.format better, wherever it sits on the path.
CREATE SCHEMA evil;
CREATE TABLE evil.calls (what text);
CREATE FUNCTION evil.format(text, text, text, text, text) RETURNS text LANGUAGE sql
  AS $$ INSERT INTO evil.calls VALUES ('format') RETURNING 'SELECT 1' $$;
CREATE FUNCTION evil.unnest(text[]) RETURNS SETOF text LANGUAGE sql
  AS $$ INSERT INTO evil.calls VALUES ('unnest') RETURNING 'x' $$;
CREATE FUNCTION evil.quote_ident(text) RETURNS text LANGUAGE sql
  AS $$ INSERT INTO evil.calls VALUES ('quote_ident') RETURNING 'x' $$;
CREATE FUNCTION evil.regexmatch(text, text) RETURNS boolean LANGUAGE sql
  AS $$ INSERT INTO evil.calls VALUES ('~') RETURNING true $$;
CREATE OPERATOR evil.~ (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.regexmatch);
SET search_path = public, evil;
SELECT format('%s%s%s%s', 'a', 'b', 'c', 'd') AS the_attack_works_on_a_plain_call;
DELETE FROM evil.calls;
SELECT idgen.define_id_type('post', 'post_id');
CREATE TABLE posts (id post_id PRIMARY KEY, body text);
INSERT INTO posts (body) VALUES ('hello');
SELECT idgen.register_prefix('post', 'posts');
SELECT idgen.typeid_table(id) FROM posts;
SELECT count(*) AS attacker_calls FROM evil.calls;
RESET search_path;
DROP TABLE posts;
DROP DOMAIN post_id;
DROP SCHEMA evil CASCADE;

-- DROP EXTENSION removes every object, schema idgen included: the install made it, as a member.
DROP EXTENSION idgen;
SELECT to_regnamespace('idgen') IS NULL AS schema_dropped;
SELECT count(*) AS operators_left FROM pg_operator WHERE oprname = '=' AND oprleft::regtype::text LIKE '%objectid%';

-- A schema idgen made before CREATE EXTENSION is never used, whoever made it and however empty it
-- looks (42P06): whoever could create in it could have added, or be adding, a better-matching
-- overload that a superuser's idgen.instagram_id(5) would run.
\set SHOW_CONTEXT never
CREATE SCHEMA idgen;
CREATE EXTENSION idgen;
\echo :LAST_ERROR_SQLSTATE
CREATE FUNCTION idgen.instagram_id(shard int) RETURNS bigint LANGUAGE sql AS 'SELECT 42';
CREATE EXTENSION idgen;
\echo :LAST_ERROR_SQLSTATE
DROP SCHEMA idgen CASCADE;
-- ... made in the same transaction included (1.2 took such a schema for its own, by its xmin).
BEGIN;
CREATE SCHEMA idgen;
CREATE EXTENSION idgen;
ROLLBACK;

-- idgen is trusted: a database owner installs it without being a superuser. The objects and the
-- schema then belong to the bootstrap superuser, so the owner cannot plant anything in them.
CREATE ROLE idgen_db_owner;
CREATE ROLE idgen_app;
GRANT CREATE ON DATABASE idgen_regression TO idgen_db_owner;
CREATE SCHEMA app AUTHORIZATION idgen_db_owner;
SET ROLE idgen_db_owner;
CREATE EXTENSION idgen;
SELECT extversion, extowner::regrole FROM pg_extension WHERE extname = 'idgen';
SELECT nspowner = 10 AS schema_owned_by_the_bootstrap_superuser FROM pg_namespace WHERE nspname = 'idgen';
SELECT count(*) FILTER (WHERE p.proowner <> 10) AS functions_not_owned_by_the_bootstrap_superuser
FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace;
CREATE FUNCTION idgen.instagram_id(shard int) RETURNS bigint LANGUAGE sql AS 'SELECT 42';
\echo :LAST_ERROR_SQLSTATE
CREATE TABLE app.owned (id bigint);
SELECT idgen.register_prefix('own', 'app.owned');
SELECT idgen.typeid_table(idgen.typeid('own'));
-- The owner who installed may call signed_token (it needs the server's secret) and grant it, as
-- the README shows (issue 19.2: 42501 on 1.1): signed, or refused for want of a secret (55000)
-- where the server has none; never 42501.
DO $$ BEGIN PERFORM idgen.signed_token('x'); EXCEPTION WHEN object_not_in_prerequisite_state THEN NULL; END $$;
GRANT EXECUTE ON FUNCTION idgen.signed_token(text) TO idgen_app;
SELECT has_function_privilege('idgen_app', 'idgen.signed_token(text)', 'EXECUTE') AS granted;
REVOKE EXECUTE ON FUNCTION idgen.signed_token(text) FROM idgen_app;
-- define_id_type makes the domain where the caller says (or in the first schema of her path),
-- owned by her, never in pg_catalog where pg_dump would not see it (issue 19.3).
SELECT idgen.define_id_type('own', 'app.own_id');
SET search_path = app;
SELECT idgen.define_id_type('oth', 'oth_id');
RESET search_path;
SELECT t.typname, t.typnamespace::regnamespace, t.typowner::regrole FROM pg_type t WHERE t.typname IN ('own_id', 'oth_id') ORDER BY 1;
SELECT idgen.define_id_type('bad', 'pg_catalog.bad_id');
\echo :LAST_ERROR_SQLSTATE
DROP DOMAIN app.own_id, app.oth_id;
DROP TABLE app.owned;
SELECT count(*) AS registry_rows_after_the_drop FROM idgen.prefix_registry;
DROP EXTENSION idgen;
RESET ROLE;
-- A database owner's schema idgen (what a dump of idgen 1.2 creates before CREATE EXTENSION) is
-- refused like any other: the hint says to create the extension first.
SET ROLE idgen_db_owner;
CREATE SCHEMA idgen;
CREATE EXTENSION idgen;
\echo :LAST_ERROR_SQLSTATE
DROP SCHEMA idgen;
RESET ROLE;
REVOKE CREATE ON DATABASE idgen_regression FROM idgen_db_owner;
DROP SCHEMA app;
DROP ROLE idgen_db_owner;
DROP ROLE idgen_app;
