-- Instagram's logical shards bound to schemas (idgen.bind_instagram_shard) and the trigger that
-- fills IDs from them (idgen.instagram_shard_id): the schema's shard, or the shard a row names; the
-- marks that a server that held the shard before left (idgen.instagram_id(shard, not_before)); the
-- registry of bindings (one schema per shard) and idgen.instagram_id(shard) of a bound shard; a table
-- of idgen 1.2's layout, never written, converted by binding it again; nothing of the marks table's
-- owner runs in another role's call. On Citus: test/t/citus_shards.pl and
-- citus_moves.pl; concurrent sessions (no insert waits for another): test/t/shard_marks.pl.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never
-- The SQLSTATE and hint of a statement that fails.
CREATE FUNCTION pg_temp.refusal(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE state text; hint text;
BEGIN
  EXECUTE statement;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, hint = PG_EXCEPTION_HINT;
  RETURN state || coalesce(': ' || nullif(hint, ''), '');
END $$;

-- A schema bound to its shard: a table of its own holds the shard, its mark and the mark's server.
CREATE SCHEMA shard_0042;
SELECT idgen.bind_instagram_shard('shard_0042', 42);
SELECT idgen.bind_instagram_shard('shard_0042', 42);  -- again: nothing changes
SELECT shard, id, mark = to_timestamp(0) AS no_id_yet, mark_server = idgen.server_instance() AS mark_is_ours
FROM shard_0042.idgen_instagram_shard;
SELECT shard, schema_name, schema_oid = 'shard_0042'::regnamespace AS by_its_oid FROM idgen.instagram_shard_schemas;
SELECT idgen.bind_instagram_shard('shard_0042', 8192);
SELECT idgen.bind_instagram_shard('shard_0042', -1);
SELECT idgen.bind_instagram_shard('no_such_schema', 1);
SELECT idgen.bind_instagram_shard('shard_0042', NULL) IS NULL AS strict;
-- Not a schema of PostgreSQL's or of idgen's, even for a superuser (42501).
\set VERBOSITY terse
SELECT idgen.bind_instagram_shard('idgen', 2050);
SELECT idgen.bind_instagram_shard('information_schema', 2050);
SELECT idgen.bind_instagram_shard('pg_catalog', 2050);
\set VERBOSITY default

-- The trigger fills a NULL ID with an ID of the schema's shard; an ID the statement gives is kept.
CREATE TABLE shard_0042.photos (id bigint PRIMARY KEY, body text);
CREATE TRIGGER id BEFORE INSERT ON shard_0042.photos FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO shard_0042.photos (body) SELECT 'p' || g FROM generate_series(1, 5000) g;
INSERT INTO shard_0042.photos VALUES (7, 'given');
SELECT count(*) AS made, count(DISTINCT id) AS distinct_ids, min((idgen.instagram_parse(id)).shard) AS min_shard,
       max((idgen.instagram_parse(id)).shard) AS max_shard,
       bool_and(id > 7) AS all_generated
FROM shard_0042.photos WHERE body <> 'given';
-- Increasing in insertion order, and every ID before the highest mark, which this server wrote: a
-- row of its own per raise (the ID that passed the marks, a mark a second beyond it), the rows below
-- the highest committed mark deleted as raises meet them.
SELECT bool_and(id > prev) AS increasing FROM (
  SELECT id, lag(id, 1, 0::bigint) OVER (ORDER BY body_order) AS prev
  FROM (SELECT id, substr(body, 2)::int AS body_order FROM shard_0042.photos WHERE body <> 'given') s) t;
SELECT (SELECT max((idgen.instagram_parse(id)).ts) FROM shard_0042.photos WHERE id > 7) < max(mark) AS ids_before_the_mark,
       bool_and(mark_server = idgen.server_instance()) AS marks_are_ours,
       bool_and(id IN (SELECT id FROM shard_0042.photos) AND mark = (idgen.instagram_parse(id)).ts + interval '1 second') AS each_a_second_past_its_id
FROM shard_0042.idgen_instagram_shard WHERE id <> 0;

-- Marks that another server wrote (the shard held there before it moved here), 0.3 s ahead of the
-- clock: the next ID waits for them; then this server writes the highest mark.
UPDATE shard_0042.idgen_instagram_shard SET mark = clock_timestamp() + interval '0.3 s', mark_server = 1;
CREATE TEMP TABLE before AS SELECT max(mark) AS mark FROM shard_0042.idgen_instagram_shard;
INSERT INTO shard_0042.photos (body) VALUES ('after the move');
SELECT (idgen.instagram_parse(p.id)).ts >= b.mark AS id_at_or_after_the_mark, clock_timestamp() >= b.mark AS waited,
       (SELECT mark_server FROM shard_0042.idgen_instagram_shard ORDER BY mark DESC LIMIT 1) = idgen.server_instance() AS highest_mark_is_ours
FROM shard_0042.photos p, before b WHERE p.body = 'after the move';
-- An hour ahead: refused (55000), nothing waits.
UPDATE shard_0042.idgen_instagram_shard SET mark = clock_timestamp() + interval '1 hour', mark_server = 1;
SELECT pg_temp.refusal($$INSERT INTO shard_0042.photos (body) VALUES ('refused')$$);
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(42, clock_timestamp() + interval '1 hour')$$);
-- Near the end of timestamptz's range, and at its end: refused as an hour is, never wrapping.
UPDATE shard_0042.idgen_instagram_shard SET mark = '294000-01-01', mark_server = 1;
SELECT pg_temp.refusal($$INSERT INTO shard_0042.photos (body) VALUES ('refused')$$);
UPDATE shard_0042.idgen_instagram_shard SET mark = '294250-01-01', mark_server = 1;
SELECT pg_temp.refusal($$INSERT INTO shard_0042.photos (body) VALUES ('refused')$$);
UPDATE shard_0042.idgen_instagram_shard SET mark = 'infinity', mark_server = 1;
SELECT pg_temp.refusal($$INSERT INTO shard_0042.photos (body) VALUES ('refused')$$);
-- This server's own mark ahead of the clock does not hold its IDs back: its state covers them.
UPDATE shard_0042.idgen_instagram_shard SET mark = clock_timestamp() + interval '1 hour', mark_server = idgen.server_instance();
INSERT INTO shard_0042.photos (body) VALUES ('own mark ahead');
SELECT count(*) FROM shard_0042.photos WHERE body = 'own mark ahead';

-- idgen.instagram_id(shard, not_before) on its own: a past instant does not wait; bad arguments.
SELECT (idgen.instagram_parse(idgen.instagram_id(42, now() - interval '1 day'))).shard;
SELECT idgen.instagram_id(42, 'infinity');
SELECT idgen.instagram_id(42, '-infinity');
SELECT idgen.instagram_id(8192, now());
SELECT idgen.instagram_id(NULL, now()) IS NULL AND idgen.instagram_id(1, NULL) IS NULL AS strict;

-- The shard a row names (a table distributed by it, on Citus): each shard bound to the schema.
CREATE SCHEMA app;
SELECT idgen.bind_instagram_shard('app', s) FROM generate_series(0, 9) s;
CREATE TABLE app.events (user_id bigint NOT NULL, shard int NOT NULL, id bigint, PRIMARY KEY (shard, id));
CREATE TRIGGER id BEFORE INSERT ON app.events FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'shard');
INSERT INTO app.events (user_id, shard) SELECT u, u % 10 FROM generate_series(1, 3000) u;
SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE (idgen.instagram_parse(id)).shard <> user_id % 10) AS off_shard
FROM app.events;
SELECT count(*) AS shards_with_their_mark_ahead
FROM (SELECT shard, max(mark) AS mark FROM app.idgen_instagram_shard GROUP BY shard) m
WHERE m.mark > (SELECT max((idgen.instagram_parse(id)).ts) FROM app.events e WHERE e.shard = m.shard);
SELECT pg_temp.refusal($$INSERT INTO app.events (user_id, shard) VALUES (11, 11)$$);
SELECT pg_temp.refusal($$INSERT INTO app.events (user_id, shard) VALUES (11, NULL)$$);
-- The schema trigger on a schema with ten shards: which one is not said.
CREATE TABLE app.plain (id bigint);
CREATE TRIGGER id BEFORE INSERT ON app.plain FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
SELECT pg_temp.refusal($$INSERT INTO app.plain DEFAULT VALUES$$);

-- idgen.server_instance(): this run of the server, the same in every session, never 0.
SELECT idgen.server_instance() = idgen.server_instance() AND idgen.server_instance() <> 0 AS one_run;

-- A schema whose name needs quoting is bound in itself, never in a look-alike whose name holds the
-- quotes (a role with CREATE on the database could otherwise have a superuser's bind write there).
CREATE SCHEMA "Mixed";
CREATE SCHEMA """Mixed""";
CREATE TABLE """Mixed""".idgen_instagram_shard (shard int PRIMARY KEY, mark timestamptz, mark_server bigint);
SELECT idgen.bind_instagram_shard('"Mixed"', 16);
SELECT (SELECT shard FROM "Mixed".idgen_instagram_shard) AS bound, (SELECT count(*) FROM """Mixed""".idgen_instagram_shard) AS decoy_rows;
DROP SCHEMA "Mixed", """Mixed""" CASCADE;

-- An ID column the trigger cannot fill right: not a bigint (a double would round IDs into
-- duplicates), or filled before it by a default or an identity (the trigger would keep that value).
CREATE TABLE shard_0042.double_id (id double precision, x int);
CREATE TRIGGER id BEFORE INSERT ON shard_0042.double_id FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO shard_0042.double_id (x) VALUES (1);
CREATE TABLE shard_0042.identity_id (id bigint GENERATED ALWAYS AS IDENTITY, x int);
CREATE TRIGGER id BEFORE INSERT ON shard_0042.identity_id FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO shard_0042.identity_id (x) VALUES (1);
CREATE TABLE shard_0042.default_id (id bigint DEFAULT 1, x int);
CREATE TRIGGER id BEFORE INSERT ON shard_0042.default_id FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO shard_0042.default_id (x) VALUES (1);
-- A mark made NULL (its NOT NULL dropped by the owner): refused, never a NULL ID.
ALTER TABLE shard_0042.idgen_instagram_shard ALTER mark DROP NOT NULL;
UPDATE shard_0042.idgen_instagram_shard SET mark = NULL;
INSERT INTO shard_0042.photos (body) VALUES ('null mark');
UPDATE shard_0042.idgen_instagram_shard SET mark = clock_timestamp();

-- Misuse of the trigger: an unbound schema, a missing column, the wrong kind of trigger.
CREATE TABLE public.unbound (id bigint);
CREATE TRIGGER id BEFORE INSERT ON public.unbound FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO public.unbound DEFAULT VALUES;
CREATE TABLE shard_0042.no_id (x int);
CREATE TRIGGER id BEFORE INSERT ON shard_0042.no_id FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO shard_0042.no_id VALUES (1);
CREATE OR REPLACE TRIGGER id BEFORE INSERT ON app.plain FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'nope');
INSERT INTO app.plain DEFAULT VALUES;
CREATE OR REPLACE TRIGGER id AFTER INSERT ON app.plain FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO app.plain DEFAULT VALUES;
CREATE OR REPLACE TRIGGER id BEFORE INSERT ON app.plain FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'shard', 'x');
INSERT INTO app.plain DEFAULT VALUES;

-- Another role with CREATE on the schema puts a view named idgen_instagram_shard there, whose
-- function would run as whoever inserts: the trigger reads only a plain table of the owner of the
-- table it fires on (42501), and the view's function never runs.
CREATE ROLE idgen_shard_intruder;
CREATE SCHEMA shared;
GRANT CREATE, USAGE ON SCHEMA shared TO idgen_shard_intruder;
CREATE TABLE shared.t (id bigint);
CREATE TRIGGER id BEFORE INSERT ON shared.t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
SET ROLE idgen_shard_intruder;
CREATE FUNCTION shared.run_as_inserter() RETURNS int LANGUAGE plpgsql AS $$
BEGIN RAISE NOTICE 'ran as %', current_user; RETURN 1; END $$;
CREATE VIEW shared.idgen_instagram_shard AS
  SELECT shared.run_as_inserter() AS shard, now() AS mark, 0::bigint AS mark_server;
RESET ROLE;
INSERT INTO shared.t DEFAULT VALUES;
-- Binding that schema does not take the intruder's table over (42501).
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('shared', 4000)$$);
DROP SCHEMA shared CASCADE;
DROP ROLE idgen_shard_intruder;

-- One schema per shard: the registry idgen.instagram_shard_schemas holds each binding. Binding a
-- second schema to a bound shard is refused (55000); the shard of a dropped schema is free again.
CREATE SCHEMA second;
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('second', 42)$$);
SELECT idgen.bind_instagram_shard('second', 43);
DROP SCHEMA second CASCADE;
CREATE SCHEMA third;
SELECT idgen.bind_instagram_shard('third', 43);
SELECT shard, schema_name FROM idgen.instagram_shard_schemas WHERE shard IN (16, 42, 43) ORDER BY shard;
DROP SCHEMA third CASCADE;

-- A shard is its schema's by the schema's OID: renamed, it keeps the shard, and a new schema under
-- the old name (or any other) is refused it (55000); idgen.instagram_id(shard) is made under the
-- renamed schema's marks. Binding it again writes its name now.
CREATE SCHEMA renamed;
SELECT idgen.bind_instagram_shard('renamed', 77);
ALTER SCHEMA renamed RENAME TO renamed_old;
CREATE SCHEMA renamed;
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('renamed', 77)$$);
\set VERBOSITY terse
SELECT idgen.bind_instagram_shard('renamed', 77);
\set VERBOSITY default
UPDATE renamed_old.idgen_instagram_shard SET mark = to_timestamp(0);
SELECT (idgen.instagram_parse(idgen.instagram_id(77))).shard AS made_under_renamed_old,
       (SELECT count(*) FROM renamed_old.idgen_instagram_shard WHERE id <> 0) AS its_mark;
SELECT schema_name, schema_oid = 'renamed_old'::regnamespace AS by_its_oid FROM idgen.instagram_shard_schemas WHERE shard = 77;
SELECT idgen.bind_instagram_shard('renamed_old', 77);
SELECT schema_name FROM idgen.instagram_shard_schemas WHERE shard = 77;
-- A row written where its OID means another schema (a restored dump, a pg_upgrade, a Citus worker
-- reading the coordinator's row; oid_space says where): the name decides. Renamed there, the schema
-- is found nowhere: refused, never taken as free (55000), until it is bound again under its name now.
UPDATE idgen.instagram_shard_schemas SET oid_space = 0, schema_oid = 1 WHERE shard = 77;
SELECT (idgen.instagram_parse(idgen.instagram_id(77))).shard AS by_its_name;
ALTER SCHEMA renamed_old RENAME TO renamed_again;
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(77)$$);
\set VERBOSITY terse
SELECT idgen.instagram_id(77);
\set VERBOSITY default
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('renamed', 77)$$);
SELECT idgen.bind_instagram_shard('renamed_again', 77);
SELECT schema_name, schema_oid = 'renamed_again'::regnamespace AS by_its_oid_again FROM idgen.instagram_shard_schemas WHERE shard = 77;
SELECT (idgen.instagram_parse(idgen.instagram_id(77))).shard AS bound_again;
-- A bound schema whose marks table was dropped lost what keeps the shard's IDs above the ones made
-- before: refused (55000), as the trigger on its tables is, until it is bound again.
DROP TABLE renamed_again.idgen_instagram_shard;
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(77)$$);
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('renamed', 77)$$);
SELECT idgen.bind_instagram_shard('renamed_again', 77);
SELECT (idgen.instagram_parse(idgen.instagram_id(77))).shard AS bound_again;
-- Dropped, the schema binds nothing any more: the shard is free.
DROP SCHEMA renamed_again CASCADE;
SELECT (idgen.instagram_parse(idgen.instagram_id(77))).shard AS free;
SELECT idgen.bind_instagram_shard('renamed', 77);
SELECT schema_name, schema_oid = 'renamed'::regnamespace AS by_its_oid FROM idgen.instagram_shard_schemas WHERE shard = 77;
DROP SCHEMA renamed CASCADE;

-- A shard out of range is 22023 wherever it is named, as the generator says it.
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(8192)$$);
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(-1)$$);
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(8192, now() + interval '1 hour')$$);
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('shard_0042', 8192)$$);
CREATE TABLE app.wide (shard bigint, id bigint);
CREATE TRIGGER id BEFORE INSERT ON app.wide FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'shard');
SELECT pg_temp.refusal($$INSERT INTO app.wide (shard) VALUES (8192)$$);
SELECT pg_temp.refusal($$INSERT INTO app.wide (shard) VALUES (-1)$$);
SELECT pg_temp.refusal($$INSERT INTO app.wide (shard) VALUES (1099511627776)$$);
CREATE TABLE app.texts (shard text, id bigint);
CREATE TRIGGER id BEFORE INSERT ON app.texts FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'shard');
SELECT pg_temp.refusal($$INSERT INTO app.texts (shard) VALUES ('99999999999')$$);
SELECT pg_temp.refusal($$INSERT INTO app.texts (shard) VALUES ('99999999999999999999999')$$);
SELECT pg_temp.refusal($$INSERT INTO app.texts (shard) VALUES ('-3')$$);
SELECT pg_temp.refusal($$INSERT INTO app.texts (shard) VALUES ('x')$$);
INSERT INTO app.texts (shard) VALUES (' 007 ');
SELECT (idgen.instagram_parse(id)).shard FROM app.texts;
\set VERBOSITY terse
INSERT INTO app.wide (shard) VALUES (8192);
\set VERBOSITY default
DROP TABLE app.wide, app.texts;

-- idgen.instagram_id(shard) of a bound shard: made on the node that holds its schema (on one server,
-- here), under its marks, as the trigger makes them. (On another Citus node it is refused: 55000,
-- saying where the shard lives: citus_shards.pl.)
UPDATE shard_0042.idgen_instagram_shard SET mark = to_timestamp(0), mark_server = idgen.server_instance();
CREATE TEMP TABLE direct AS SELECT idgen.instagram_id(42) AS id;
SELECT (idgen.instagram_parse(d.id)).shard, (idgen.instagram_parse(d.id)).ts < max(m.mark) AS below_a_mark,
       count(*) FILTER (WHERE m.id = d.id) AS its_mark
FROM direct d, shard_0042.idgen_instagram_shard m GROUP BY d.id;
SELECT (idgen.instagram_parse(idgen.instagram_id(3))).shard AS row_shard_of_app;
-- In a read-only transaction, an ID past the marks cannot raise them: refused (25006).
UPDATE shard_0042.idgen_instagram_shard SET mark = to_timestamp(0);
BEGIN READ ONLY;
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(42)$$);
ROLLBACK;

-- A role that may insert needs no right on the marks, and has none to write them: it can neither
-- rebind the shard nor move its mark back (42501).
CREATE ROLE idgen_shard_inserter;
GRANT USAGE ON SCHEMA shard_0042 TO idgen_shard_inserter;
GRANT INSERT ON shard_0042.photos TO idgen_shard_inserter;
SET ROLE idgen_shard_inserter;
INSERT INTO shard_0042.photos (body) VALUES ('by the inserter');
SELECT pg_temp.refusal($$UPDATE shard_0042.idgen_instagram_shard SET mark = to_timestamp(0)$$);
SELECT pg_temp.refusal($$DELETE FROM shard_0042.idgen_instagram_shard$$);
SELECT pg_temp.refusal($$INSERT INTO shard_0042.idgen_instagram_shard VALUES (44, 0, now(), 0)$$);
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('shard_0042', 44)$$);
SELECT pg_temp.refusal($$UPDATE idgen.instagram_shard_schemas SET schema_name = 'x' WHERE shard = 42$$);
RESET ROLE;
SELECT count(*) AS by_the_inserter FROM shard_0042.photos WHERE body = 'by the inserter';

-- A table of idgen 1.2's layout (one row per shard, keyed by the shard alone), as a dump of 1.2
-- restored into 1.3 brings it, with a role granted UPDATE on it as 1.2's README said: idgen never
-- writes a mark into it (55000, saying how it is converted: ALTER EXTENSION idgen UPDATE converts
-- those of a database updated from 1.2). Binding it again converts it: a row per raise, keyed by
-- (shard, id), written by its owner only.
CREATE SCHEMA legacy;
CREATE TABLE legacy.idgen_instagram_shard (shard integer PRIMARY KEY CHECK (shard BETWEEN 0 AND 8191),
                                           mark timestamptz NOT NULL, mark_server bigint NOT NULL);
INSERT INTO legacy.idgen_instagram_shard VALUES (107, to_timestamp(0), idgen.server_instance());
GRANT SELECT, UPDATE ON legacy.idgen_instagram_shard TO idgen_shard_inserter;
CREATE TABLE legacy.t (id bigint PRIMARY KEY, n int);
CREATE TRIGGER id BEFORE INSERT ON legacy.t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO legacy.t (n) SELECT g FROM generate_series(1, 1000) g;
SELECT count(*) AS made, (SELECT mark FROM legacy.idgen_instagram_shard) = to_timestamp(0) AS mark_untouched FROM legacy.t;
SELECT idgen.bind_instagram_shard('legacy', 107);
SELECT string_agg(attname, ', ' ORDER BY attnum) AS columns,
       (SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'legacy.idgen_instagram_shard'::regclass AND contype = 'p') AS key
FROM pg_attribute WHERE attrelid = 'legacy.idgen_instagram_shard'::regclass AND attnum > 0 AND NOT attisdropped;
SELECT has_table_privilege('idgen_shard_inserter', 'legacy.idgen_instagram_shard', 'UPDATE') AS inserter_may_update,
       has_table_privilege('idgen_shard_inserter', 'legacy.idgen_instagram_shard', 'SELECT') AS inserter_may_read;
INSERT INTO legacy.t (n) SELECT g FROM generate_series(1001, 2000) g;
SELECT count(*) AS made, count(DISTINCT id) AS distinct_ids,
       max((idgen.instagram_parse(id)).ts) < (SELECT max(mark) FROM legacy.idgen_instagram_shard) AS below_the_mark,
       (SELECT count(*) FROM legacy.idgen_instagram_shard) AS mark_rows
FROM legacy.t;
SELECT shard, schema_name FROM idgen.instagram_shard_schemas WHERE shard = 107;
DROP SCHEMA legacy CASCADE;
DROP OWNED BY idgen_shard_inserter;
DROP ROLE idgen_shard_inserter;

-- Nothing of a marks table's owner runs when idgen reads or writes her marks, whoever makes the IDs:
-- a superuser through idgen.instagram_id(shard), a superuser or another role inserting into her
-- table with the trigger, a superuser binding another shard to her schema. She attaches to her
-- marks table whatever PostgreSQL lets an owner attach (row and statement triggers, rules, a CHECK,
-- a column default, row-level security forced on her): idgen writes the heap and the key, and none of
-- it runs (public.runs_as stays empty). What an insert would have to maintain (another index, an
-- index expression or predicate, another column) makes idgen refuse (55000) instead, without running
-- it. So her code never runs in another role's session, restricted or not (from PostgreSQL 17 a
-- restricted operation could still create objects in that session's pg_temp).
CREATE ROLE idgen_shard_owner;
CREATE ROLE idgen_shard_writer;
CREATE SCHEMA owned AUTHORIZATION idgen_shard_owner;
GRANT USAGE ON SCHEMA owned TO idgen_shard_writer;
CREATE TABLE public.runs_as (what text, who name);
GRANT INSERT ON public.runs_as TO PUBLIC;
SET ROLE idgen_shard_owner;
SELECT idgen.bind_instagram_shard('owned', s) FROM generate_series(300, 304) s;
CREATE TABLE owned.t (id bigint PRIMARY KEY, shard int NOT NULL);
CREATE TRIGGER id BEFORE INSERT ON owned.t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'shard');
GRANT INSERT ON owned.t TO idgen_shard_writer;
-- (what she runs records itself, and plants pg_temp.text in the session that runs it, as a domain
-- whose CHECK would run her code whenever that session writes '...'::text; not while she sets her
-- table up herself: CREATE INDEX and ADD COLUMN evaluate what they add, in her own statement)
CREATE FUNCTION owned.ran(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF pg_catalog.current_setting('test.her_own_statement', true) = 'on' THEN
    RETURN true;
  END IF;
  INSERT INTO public.runs_as VALUES (what, current_user);
  BEGIN
    EXECUTE 'CREATE DOMAIN pg_temp.text AS pg_catalog.text';
  EXCEPTION WHEN OTHERS THEN
    NULL;
  END;
  RETURN true;
END $$;
CREATE FUNCTION owned.spy(bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  PERFORM owned.ran('index expression');
  RETURN $1;
END $$;
CREATE FUNCTION owned.ran_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM owned.ran(TG_NAME);
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER before_row BEFORE INSERT OR UPDATE OR DELETE ON owned.idgen_instagram_shard
  FOR EACH ROW EXECUTE FUNCTION owned.ran_trigger();
CREATE TRIGGER after_row AFTER INSERT OR UPDATE OR DELETE ON owned.idgen_instagram_shard
  FOR EACH ROW EXECUTE FUNCTION owned.ran_trigger();
CREATE TRIGGER before_statement BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON owned.idgen_instagram_shard
  FOR EACH STATEMENT EXECUTE FUNCTION owned.ran_trigger();
CREATE RULE on_insert AS ON INSERT TO owned.idgen_instagram_shard DO ALSO SELECT owned.ran('insert rule');
CREATE RULE on_update AS ON UPDATE TO owned.idgen_instagram_shard DO ALSO SELECT owned.ran('update rule');
ALTER TABLE owned.idgen_instagram_shard ADD CONSTRAINT checked CHECK (owned.ran('check')) NOT VALID;
ALTER TABLE owned.idgen_instagram_shard ALTER COLUMN mark_server SET DEFAULT owned.ran('default')::int;
ALTER TABLE owned.idgen_instagram_shard ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY seen ON owned.idgen_instagram_shard USING (owned.ran('policy')) WITH CHECK (owned.ran('policy check'));
RESET ROLE;
TRUNCATE public.runs_as;
-- A superuser's idgen.instagram_id(300), a superuser's insert (shard 301), another role's (302), a
-- superuser's binding of shard 305 and insert, a superuser's idgen.convert_column(..., 'instagram',
-- 304): each passes the shard's mark, which idgen raises with a row.
SELECT (idgen.instagram_parse(idgen.instagram_id(300))).shard AS by_a_superuser;
INSERT INTO owned.t (shard) VALUES (301);
SET ROLE idgen_shard_writer;
INSERT INTO owned.t (shard) VALUES (302);
RESET ROLE;
SELECT idgen.bind_instagram_shard('owned', 305);
INSERT INTO owned.t (shard) VALUES (305);
-- (her table's index predicate, index expression and statistics object hold immutable functions of
-- hers, which planning a query on the table would fold: convert_column reads the maximum from the
-- heap instead)
SET ROLE idgen_shard_owner;
CREATE FUNCTION owned.folded() RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN owned.ran('folded by the planner');
END $$;
CREATE TABLE owned.c (id bigint, n int);
INSERT INTO owned.c VALUES (1, 1);
SET test.her_own_statement = on;
CREATE INDEX ON owned.c (id) WHERE owned.folded();
CREATE INDEX ON owned.c ((id + owned.spy(1)));
CREATE STATISTICS owned.c_stats ON (n + owned.spy(2)), id FROM owned.c;
RESET test.her_own_statement;
RESET ROLE;
SELECT idgen.convert_column('owned.c', 'id', 'instagram', 304) IS NOT NULL AS converted_by_a_superuser;
SELECT shard, count(*) AS mark_rows, max(mark) > now() AS raised
FROM owned.idgen_instagram_shard GROUP BY shard ORDER BY shard;
SELECT count(*) AS ran_of_hers FROM public.runs_as;
-- What a write would maintain is refused, and never runs.
SET ROLE idgen_shard_owner;
SET test.her_own_statement = on;
CREATE INDEX by_spy ON owned.idgen_instagram_shard (owned.spy(id));
RESET test.her_own_statement;
RESET ROLE;
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(303)$$);
SELECT pg_temp.refusal($$INSERT INTO owned.t (shard) VALUES (303)$$);
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('owned', 306)$$);
INSERT INTO owned.t (shard) VALUES (303);
SET ROLE idgen_shard_owner;
DROP INDEX owned.by_spy;
SET test.her_own_statement = on;
CREATE INDEX by_predicate ON owned.idgen_instagram_shard (mark) WHERE owned.spy(id) > 0;
RESET test.her_own_statement;
RESET ROLE;
INSERT INTO owned.t (shard) VALUES (303);
SET ROLE idgen_shard_owner;
DROP INDEX owned.by_predicate;
CREATE INDEX by_mark ON owned.idgen_instagram_shard (mark);
RESET ROLE;
INSERT INTO owned.t (shard) VALUES (303);
SET ROLE idgen_shard_owner;
DROP INDEX owned.by_mark;
SET test.her_own_statement = on;
ALTER TABLE owned.idgen_instagram_shard ADD COLUMN note text DEFAULT owned.ran('added column')::text;
RESET test.her_own_statement;
RESET ROLE;
INSERT INTO owned.t (shard) VALUES (303);
SET ROLE idgen_shard_owner;
ALTER TABLE owned.idgen_instagram_shard DROP COLUMN note;
SET test.her_own_statement = on;
CREATE STATISTICS owned.marks_stats ON (mark_server + owned.spy(3)), shard FROM owned.idgen_instagram_shard;
RESET test.her_own_statement;
RESET ROLE;
INSERT INTO owned.t (shard) VALUES (303);
SET ROLE idgen_shard_owner;
DROP STATISTICS owned.marks_stats;
CREATE TABLE owned.parent (LIKE owned.idgen_instagram_shard);
ALTER TABLE owned.idgen_instagram_shard INHERIT owned.parent;
RESET ROLE;
INSERT INTO owned.t (shard) VALUES (303);
SET ROLE idgen_shard_owner;
ALTER TABLE owned.idgen_instagram_shard NO INHERIT owned.parent;
ALTER TABLE owned.idgen_instagram_shard SET UNLOGGED;
RESET ROLE;
INSERT INTO owned.t (shard) VALUES (303);
SET ROLE idgen_shard_owner;
ALTER TABLE owned.idgen_instagram_shard SET LOGGED;
RESET ROLE;
-- Undone, the marks are written again; none of hers ran.
INSERT INTO owned.t (shard) VALUES (303);
SELECT count(*) AS ran_of_hers FROM public.runs_as;
SELECT count(*) AS planted_in_this_session FROM pg_type WHERE typnamespace = pg_my_temp_schema() AND typname = 'text';
-- A marks table she made herself before binding is never taken over (42P07), nor written.
CREATE SCHEMA made_before AUTHORIZATION idgen_shard_owner;
SET ROLE idgen_shard_owner;
CREATE TABLE made_before.idgen_instagram_shard (shard int NOT NULL, id bigint NOT NULL, mark timestamptz NOT NULL,
                                                mark_server bigint NOT NULL, PRIMARY KEY (shard, id));
CREATE TRIGGER before_row BEFORE INSERT ON made_before.idgen_instagram_shard
  FOR EACH ROW EXECUTE FUNCTION owned.ran_trigger();
RESET ROLE;
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('made_before', 310)$$);
SELECT count(*) AS rows_written FROM made_before.idgen_instagram_shard;
-- One of 1.2's layout, which binding converts, with a statistics object whose expression the
-- conversion's index build would fold: refused (55000), nothing converted.
SET ROLE idgen_shard_owner;
DROP TABLE made_before.idgen_instagram_shard;
CREATE TABLE made_before.idgen_instagram_shard (shard integer PRIMARY KEY CHECK (shard BETWEEN 0 AND 8191),
                                                mark timestamptz NOT NULL, mark_server bigint NOT NULL);
SET test.her_own_statement = on;
CREATE STATISTICS made_before.folded ON (mark_server + owned.spy(4)), shard FROM made_before.idgen_instagram_shard;
RESET test.her_own_statement;
RESET ROLE;
SELECT pg_temp.refusal($$SELECT idgen.bind_instagram_shard('made_before', 310)$$);
SELECT count(*) AS columns FROM pg_attribute WHERE attrelid = 'made_before.idgen_instagram_shard'::regclass AND attnum > 0;
SELECT count(*) AS ran_of_hers FROM public.runs_as;
-- A superuser binding her schema makes its marks table hers: the trigger on her tables reads it.
CREATE SCHEMA su_bound AUTHORIZATION idgen_shard_owner;
SELECT idgen.bind_instagram_shard('su_bound', 320);
SELECT pg_get_userbyid(relowner) AS marks_owner FROM pg_class WHERE oid = 'su_bound.idgen_instagram_shard'::regclass;
SET ROLE idgen_shard_owner;
CREATE TABLE su_bound.t (id bigint PRIMARY KEY);
CREATE TRIGGER id BEFORE INSERT ON su_bound.t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO su_bound.t DEFAULT VALUES;
RESET ROLE;
SELECT (idgen.instagram_parse(id)).shard FROM su_bound.t;
DROP SCHEMA owned, made_before, su_bound CASCADE;
DROP TABLE public.runs_as;
DROP ROLE idgen_shard_owner, idgen_shard_writer;

DROP SCHEMA shard_0042, app CASCADE;
DROP TABLE public.unbound;
DROP EXTENSION idgen;
