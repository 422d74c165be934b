-- Instagram's logical shards bound to schemas (idgen.bind_instagram_shard) and the trigger that
-- fills IDs from them (idgen.instagram_shard_id): the schema's shard, or the shard a row names; the
-- mark that a server that held the shard before left (idgen.instagram_id(shard, not_before)). On
-- Citus: test/t/citus_shards.pl.
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
  RETURN state || ': ' || hint;
END $$;

-- A schema bound to its shard: a table of its own holds the shard, its mark and the mark's server.
CREATE SCHEMA shard_0042;
SELECT idgen.bind_instagram_shard('shard_0042', 42);
SELECT idgen.bind_instagram_shard('shard_0042', 42);  -- again: nothing changes
SELECT shard, mark = to_timestamp(0) AS no_id_yet, mark_server = idgen.server_instance() AS mark_is_ours
FROM shard_0042.idgen_instagram_shard;
SELECT idgen.bind_instagram_shard('shard_0042', 8192);
SELECT idgen.bind_instagram_shard('shard_0042', -1);
SELECT idgen.bind_instagram_shard('no_such_schema', 1);
SELECT idgen.bind_instagram_shard('shard_0042', NULL) IS NULL AS strict;

-- The trigger fills a NULL ID with an ID of the schema's shard; an ID the statement gives is kept.
CREATE TABLE shard_0042.photos (id bigint PRIMARY KEY, body text);
CREATE TRIGGER id BEFORE INSERT ON shard_0042.photos FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id();
INSERT INTO shard_0042.photos (body) SELECT 'p' || g FROM generate_series(1, 5000) g;
INSERT INTO shard_0042.photos VALUES (7, 'given');
SELECT count(*) AS made, count(DISTINCT id) AS distinct_ids, min((idgen.instagram_parse(id)).shard) AS min_shard,
       max((idgen.instagram_parse(id)).shard) AS max_shard,
       bool_and(id > 7) AS all_generated
FROM shard_0042.photos WHERE body <> 'given';
-- Increasing in insertion order, and every ID before the mark, which this server wrote.
SELECT bool_and(id > prev) AS increasing FROM (
  SELECT id, lag(id, 1, 0::bigint) OVER (ORDER BY body_order) AS prev
  FROM (SELECT id, substr(body, 2)::int AS body_order FROM shard_0042.photos WHERE body <> 'given') s) t;
SELECT (SELECT max((idgen.instagram_parse(id)).ts) FROM shard_0042.photos WHERE id > 7) < mark AS ids_before_the_mark,
       mark_server = idgen.server_instance() AS mark_is_ours
FROM shard_0042.idgen_instagram_shard;

-- A mark that another server wrote (the shard held there before it moved here), 0.3 s ahead of
-- the clock: the next ID waits for it; then this server writes the mark.
UPDATE shard_0042.idgen_instagram_shard SET mark = clock_timestamp() + interval '0.3 s', mark_server = 1;
CREATE TEMP TABLE before AS SELECT mark FROM shard_0042.idgen_instagram_shard;
INSERT INTO shard_0042.photos (body) VALUES ('after the move');
SELECT (idgen.instagram_parse(p.id)).ts >= b.mark AS id_at_or_after_the_mark, clock_timestamp() >= b.mark AS waited,
       m.mark_server = idgen.server_instance() AS mark_is_ours_again
FROM shard_0042.photos p, before b, shard_0042.idgen_instagram_shard m WHERE p.body = 'after the move';
-- An hour ahead: refused (55000), nothing waits.
UPDATE shard_0042.idgen_instagram_shard SET mark = clock_timestamp() + interval '1 hour', mark_server = 1;
SELECT pg_temp.refusal($$INSERT INTO shard_0042.photos (body) VALUES ('refused')$$);
SELECT pg_temp.refusal($$SELECT idgen.instagram_id(42, clock_timestamp() + interval '1 hour')$$);
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
SELECT count(*) AS shards_with_their_mark_ahead FROM app.idgen_instagram_shard m
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
SELECT idgen.bind_instagram_shard('"Mixed"', 6);
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
DROP SCHEMA shared CASCADE;
DROP ROLE idgen_shard_intruder;

DROP SCHEMA shard_0042, app CASCADE;
DROP TABLE public.unbound;
DROP EXTENSION idgen;
