-- Types of one prefix, idgen.define_uuid_type(prefix, name): a uuid's 16 bytes whose text is the
-- TypeID of the type's prefix. The spec's vectors, the size (a b-tree byte for byte a uuid's), order,
-- index support and estimates, casts, a text column moved to the type and back, every class of
-- malformed text, and who may make one.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- First call of the session (PL/pgSQL resolves its declarations then): look-alikes planted ahead
-- of pg_catalog on the search_path, a type "record" among them, are not used.
CREATE TABLE planted_ran (who name);
CREATE FUNCTION public.planted(v int) RETURNS boolean LANGUAGE sql AS 'INSERT INTO planted_ran VALUES (current_user) RETURNING true';
CREATE DOMAIN public.planted_int AS int CHECK (public.planted(VALUE));
CREATE TYPE public.record AS (i public.planted_int, builtin text, result text);
CREATE FUNCTION public.quote_ident(text) RETURNS text LANGUAGE sql AS 'SELECT public.planted(1)::text';
SET search_path = public, pg_catalog;
SELECT idgen.define_uuid_type('plant', 'public.plant_id');
RESET search_path;
SELECT count(*) AS planted_ran FROM planted_ran;
DROP TYPE public.record;
DROP FUNCTION public.quote_ident(text);
DROP DOMAIN public.planted_int;
DROP FUNCTION public.planted(int);
DROP TABLE planted_ran;

SELECT idgen.define_uuid_type('prefix', 'public.prefix_id'), idgen.define_uuid_type('pre_fix', 'public.pre_fix_id'),
       idgen.define_uuid_type('user', 'public.user_id');
SELECT t.typname, t.typlen, t.typbyval, t.typalign, t.typstorage, idgen.uuid_type_prefix(t.oid) AS prefix,
       pg_get_function_identity_arguments(t.typoutput) AS output_argument
FROM pg_type t WHERE t.typname IN ('prefix_id', 'pre_fix_id', 'user_id') ORDER BY 1;
-- Its operator classes pass PostgreSQL's own validation.
SELECT opc.opcname, am.amname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opc.opcintype = 'user_id'::regtype ORDER BY 1;

-- The spec's vectors with a prefix: each reads, writes back its own text, and holds the UUID that
-- idgen.type_id (checked against the spec in type_id.sql) finds in it.
SELECT v::prefix_id AS value, v::prefix_id::text = v AS same_text, v::prefix_id::uuid = v::idgen.type_id::uuid AS same_uuid
FROM (VALUES ('prefix_0123456789abcdefghjkmnpqrs'), ('prefix_01h455vb4pex5vsknk084sn02q'),
             ('prefix_00000000000000000000000000'), ('prefix_7zzzzzzzzzzzzzzzzzzzzzzzzz')) AS t(v);
SELECT 'pre_fix_00000000000000000000000000'::pre_fix_id, 'pre_fix_00000000000000000000000000'::pre_fix_id::uuid;

-- 16 bytes a value, and a b-tree byte for byte the size of one over the same uuids.
CREATE TABLE users (id user_id PRIMARY KEY DEFAULT idgen.uuidv7()::user_id, n int NOT NULL);
INSERT INTO users (n) SELECT g FROM generate_series(1, 20000) AS g;
CREATE TABLE users_uuid (id uuid PRIMARY KEY, n int NOT NULL);
INSERT INTO users_uuid SELECT id::uuid, n FROM users ORDER BY n;
SELECT pg_column_size(id) AS value_bytes, pg_relation_size('users_pkey') = pg_relation_size('users_uuid_pkey') AS index_as_uuid
FROM users LIMIT 1;
SELECT count(*) FILTER (WHERE id::text LIKE 'user\_%') AS user_prefix, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE idgen.uuidv7_time(id::uuid) > now() - interval '1 hour') AS recent FROM users;
-- Made in order by the UUIDv7 state, and sorted as the TypeID texts under the C collation, random
-- UUIDs included.
SELECT (SELECT array_agg(n ORDER BY id) FROM users) = (SELECT array_agg(n ORDER BY n) FROM users) AS time_order;
CREATE TABLE mixed AS SELECT gen_random_uuid()::user_id AS v FROM generate_series(1, 1000)
  UNION ALL SELECT id FROM users WHERE n <= 1000;
SELECT (SELECT array_agg(v::text ORDER BY v) FROM mixed) = (SELECT array_agg(v::text ORDER BY v::text COLLATE "C") FROM mixed) AS text_order,
       (SELECT count(*) FROM mixed a JOIN mixed b ON a.v < b.v) = (SELECT count(*) FROM mixed a JOIN mixed b ON a.v::text < b.v::text COLLATE "C") AS less_than_agrees;
SELECT min(v) = (SELECT v FROM mixed ORDER BY v::text COLLATE "C" LIMIT 1) AS min_agrees,
       max(v) = (SELECT v FROM mixed ORDER BY v::text COLLATE "C" DESC LIMIT 1) AS max_agrees FROM mixed;
DROP TABLE mixed, users_uuid;

-- Index support. The plan's first node and its estimated rows, from EXPLAIN's JSON.
CREATE FUNCTION plan_of(query text, OUT node text, OUT index_name text, OUT rows numeric) LANGUAGE plpgsql AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
  plan := plan -> 0 -> 'Plan';
  WHILE plan ->> 'Node Type' IN ('Aggregate', 'Limit', 'Result') AND plan -> 'Plans' IS NOT NULL LOOP
    plan := plan -> 'Plans' -> 0;
  END LOOP;
  node := plan ->> 'Node Type';
  index_name := coalesce(plan ->> 'Index Name', plan -> 'Plans' -> 0 ->> 'Index Name');
  rows := (plan ->> 'Plan Rows')::numeric;
END
$$;
ANALYZE users;
-- Equality on the unique column: one row, through the primary key.
SELECT * FROM plan_of(format('SELECT * FROM users WHERE id = %L', (SELECT id FROM users WHERE n = 777)));
SELECT n FROM users WHERE id = (SELECT id FROM users WHERE n = 777);
SELECT node, rows > 19000 AS nearly_all FROM plan_of($$SELECT * FROM users WHERE id <> 'user_01h455vb4pex5vsknk084sn02q'$$);
-- Time ranges from UUIDv7 bounds: the estimate follows the histogram.
CREATE TABLE events (id user_id PRIMARY KEY, n int);
INSERT INTO events SELECT idgen.uuidv7_min(timestamptz '2026-01-01' + g * interval '1 minute')::user_id, g
FROM generate_series(0, 9999) AS g;
ANALYZE events;
SELECT node, index_name, rows BETWEEN 50 AND 200 AS about_120
FROM plan_of($$SELECT * FROM events WHERE id >= idgen.uuidv7_min('2026-01-02')::user_id AND id < idgen.uuidv7_min('2026-01-02 02:00')::user_id$$);
SELECT count(*), min(n), max(n) FROM events
WHERE id >= idgen.uuidv7_min('2026-01-02')::user_id AND id < idgen.uuidv7_min('2026-01-02 02:00')::user_id;
SELECT rows BETWEEN 4000 AND 6000 AS about_half FROM plan_of($$SELECT * FROM events WHERE id < idgen.uuidv7_min('2026-01-04 11:20')::user_id$$);
SELECT node, index_name FROM plan_of('SELECT max(id) FROM events');
SELECT idgen.uuidv7_time(max(id)::uuid) AS latest FROM events;
SELECT rows BETWEEN 5000 AND 20000 AS join_estimate FROM plan_of('SELECT * FROM events a JOIN events b USING (id)');
SET enable_hashjoin = off;
SELECT count(*) FROM events a JOIN events b USING (id);
RESET enable_hashjoin;
-- Hash and BRIN indexes.
CREATE TABLE events_hash AS SELECT * FROM events;
CREATE INDEX events_hash_id ON events_hash USING hash (id);
CREATE TABLE events_brin AS SELECT * FROM events;
CREATE INDEX events_brin_id ON events_brin USING brin (id);
ANALYZE events_hash, events_brin;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT node, index_name FROM plan_of($$SELECT * FROM events_hash WHERE id = idgen.uuidv7_min('2026-01-03')::user_id$$);
SELECT n FROM events_hash WHERE id = idgen.uuidv7_min('2026-01-03')::user_id;
RESET enable_bitmapscan;
SELECT node, index_name FROM plan_of($$SELECT * FROM events_brin WHERE id >= idgen.uuidv7_min('2026-01-03')::user_id AND id < idgen.uuidv7_min('2026-01-03 01:00')::user_id$$);
SELECT count(*), min(n), max(n) FROM events_brin
WHERE id >= idgen.uuidv7_min('2026-01-03')::user_id AND id < idgen.uuidv7_min('2026-01-03 01:00')::user_id;
RESET enable_seqscan;
DROP TABLE events, events_hash, events_brin;

-- Casts: to and from uuid (the same bytes), idgen.type_id and text (the prefix checked).
SELECT 'user_01h455vb4pex5vsknk084sn02q'::user_id::uuid AS to_uuid,
       '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::user_id AS from_uuid,
       'user_01h455vb4pex5vsknk084sn02q'::user_id::idgen.type_id AS to_type_id,
       idgen.type_id_from_uuid('user', '01890a5d-ac96-774b-bcce-b302099a8057')::user_id AS from_type_id,
       'user_01h455vb4pex5vsknk084sn02q'::text::user_id AS from_text;
SELECT idgen.type_id_from_uuid('post', '01890a5d-ac96-774b-bcce-b302099a8057')::user_id;
\echo :LAST_ERROR_SQLSTATE
-- Two types of one prefix each do not compare: a user is not a post with the same UUID.
SELECT idgen.define_uuid_type('post', 'public.post_id');
\set VERBOSITY terse
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::user_id = '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::post_id;
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default

-- A text column of TypeIDs (idgen's base36 form here) moved to the type in one statement, and back.
CREATE TABLE posts (id text PRIMARY KEY DEFAULT idgen.typeid('post'), n int);
INSERT INTO posts (n) SELECT g FROM generate_series(1, 100) AS g;
CREATE TABLE posts_before AS SELECT * FROM posts;
ALTER TABLE posts ALTER COLUMN id DROP DEFAULT,
  ALTER COLUMN id TYPE post_id USING id::idgen.type_id::post_id,
  ALTER COLUMN id SET DEFAULT idgen.uuidv7()::post_id;
INSERT INTO posts (n) VALUES (101);
SELECT format_type(atttypid, atttypmod) AS type, count(*) AS same_uuid
FROM pg_attribute, posts p JOIN posts_before b USING (n)
WHERE attrelid = 'posts'::regclass AND attname = 'id' AND p.id::uuid = (idgen.typeid_parse(b.id)).id GROUP BY 1;
ALTER TABLE posts ALTER COLUMN id DROP DEFAULT,
  ALTER COLUMN id TYPE text USING idgen.type_id_text(id::idgen.type_id, 'base36'),
  ALTER COLUMN id SET DEFAULT idgen.typeid('post');
SELECT count(*) AS same_text FROM posts p JOIN posts_before b USING (n, id);
DROP TABLE posts, posts_before;

-- Malformed text: 22P02 with a detail; another prefix or none names both.
SELECT 'post_01h455vb4pex5vsknk084sn02q'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT '01h455vb4pex5vsknk084sn02q'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'User_01h455vb4pex5vsknk084sn02q'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'user_01H455VB4PEX5VSKNK084SN02Q'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'user_81h455vb4pex5vsknk084sn02q'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'user_01h455vb4pex5vsknk084sn0iq'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'user_01h455vb4pex5vsknk084sn02'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'user_036twi214qwj7mgsvq83nm8wf'::user_id;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::user_id;
\echo :LAST_ERROR_SQLSTATE
INSERT INTO users VALUES ('post_01h455vb4pex5vsknk084sn02q', 0);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuid_type_prefix('uuid');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuid_type_prefix(4294967295);
\echo :LAST_ERROR_SQLSTATE

-- Who may make one, and where.
CREATE ROLE idgen_uuid_type_owner;
SET ROLE idgen_uuid_type_owner;
SELECT idgen.define_uuid_type('item', 'public.item_id');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
-- A schema that she owns, or where she may create, would let her replace the type's operators.
CREATE SCHEMA hers AUTHORIZATION idgen_uuid_type_owner;
SELECT idgen.define_uuid_type('item', 'hers.item_id');
\echo :LAST_ERROR_SQLSTATE
CREATE SCHEMA shared;
GRANT CREATE ON SCHEMA shared TO idgen_uuid_type_owner;
SELECT idgen.define_uuid_type('item', 'shared.item_id');
\echo :LAST_ERROR_SQLSTATE
REVOKE CREATE ON SCHEMA shared FROM idgen_uuid_type_owner;
SELECT idgen.define_uuid_type('item', 'shared.item_id');
SET client_min_messages = warning;
DROP SCHEMA hers, shared CASCADE;
RESET client_min_messages;
DROP ROLE idgen_uuid_type_owner;
SELECT idgen.define_uuid_type('', 'public.bare_id');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_uuid_type('Item', 'public.item_id');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_uuid_type('item', 'idgen.item_id');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_uuid_type('item', 'public.' || repeat('i', 50));
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_uuid_type('item', 'public.user_id');
\echo :LAST_ERROR_SQLSTATE
-- The schema is named, exists, and is no system or temporary one.
SELECT idgen.define_uuid_type('item', 'item_id');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_uuid_type('item', 'nowhere.item_id');
\echo :LAST_ERROR_SQLSTATE
CREATE TEMP TABLE make_temp_schema ();
SELECT idgen.define_uuid_type('item', 'pg_temp.item_id');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_uuid_type('item', 'pg_catalog.item_id');
\echo :LAST_ERROR_SQLSTATE

-- A type of one prefix depends on idgen.type_id (its casts): DROP EXTENSION names it.
DROP TABLE users;
DROP FUNCTION plan_of;
DROP EXTENSION idgen;
\echo :LAST_ERROR_SQLSTATE
SET client_min_messages = warning;
DROP TYPE prefix_id, pre_fix_id, user_id, post_id, plant_id CASCADE;
RESET client_min_messages;
SELECT count(*) AS left_behind FROM pg_proc
WHERE prosrc LIKE 'idgen_uuid_type%' AND pronamespace <> 'idgen'::regnamespace;
DROP EXTENSION idgen;
