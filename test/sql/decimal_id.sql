-- DecimalId: counter * 10^10 + generator_id * 10^5 + launch_id.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never

-- The vectors (vectors.md): 14150009200065 = counter 1415, generator 92, launch 65; the largest.
SELECT * FROM idgen.decimal_parse(14150009200065);
SELECT * FROM idgen.decimal_parse(9223372029999999999);
SELECT * FROM idgen.decimal_parse(10000000000);

-- Until the deployment's launch id is set, DecimalIds are refused: no default is guessed. (-1 is
-- the setting's default, "not set", given here for a server configured with one; ALTER SYSTEM RESET
-- at the end gives it back.)
ALTER SYSTEM SET idgen.launch_id = -1;
SELECT pg_reload_conf(), pg_sleep(0.3);
SHOW idgen.launch_id;
SELECT idgen.decimal_id();
\echo :LAST_ERROR_SQLSTATE

-- (the launch id is the server's configuration, as the node identity is: no session has its own)
SET idgen.launch_id = 65;
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.launch_id = 65;
SELECT pg_reload_conf(), pg_sleep(0.3);
-- One generator per server and start of the server, shared by every database: its counter goes up
-- by one per ID; its id is the server's (durable, in replication origin idgen_decimal_id).
CREATE TEMP TABLE gen AS SELECT n, idgen.decimal_id() AS id FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids, count(DISTINCT (idgen.decimal_parse(id)).generator_id) AS generators,
       min((idgen.decimal_parse(id)).launch_id) AS launch,
       max((idgen.decimal_parse(id)).counter) - min((idgen.decimal_parse(id)).counter) AS counter_span
FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id <= prev;
SELECT (SELECT last_value % 10000000000 FROM idgen.decimal_id_generator) = (SELECT p.launch_id * 100000 + p.generator_id FROM gen, idgen.decimal_parse(id) p LIMIT 1) AS generator_id_recorded,
       (SELECT last_value / 10000000000 > 0 FROM idgen.decimal_id_generator) AS with_its_writer;
SELECT id::text ~ '^[0-9]{11,19}$' AS legible FROM gen LIMIT 1;

-- Launch ids: 0 only for tests, 1 to 99999; the setting is the server's.
ALTER SYSTEM SET idgen.launch_id = 100000;
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.launch_id = 0;
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT (idgen.decimal_parse(idgen.decimal_id())).launch_id;
CREATE ROLE idgen_decimal_user;
SET ROLE idgen_decimal_user;
SET idgen.launch_id = 7;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE idgen_decimal_user;

-- A copy of DecimalIds that this server could repeat (another server's, or set by hand: 1.2's form,
-- launch id 65, generator id 99999) makes this database refuse DecimalIds of that launch id, from the
-- next session on, and DROP EXTENSION (dropped, idgen would forget them); it moves nothing of the
-- server's (issue 29.5: it used to move the server's generator ids, for every database).
SELECT setval('idgen.decimal_id_generator', 65 * 100000 + 99999) > 0 AS set_by_hand;
ALTER SYSTEM SET idgen.launch_id = 65;
SELECT pg_reload_conf(), pg_sleep(0.3);
\c
SELECT idgen.decimal_id();
\echo :LAST_ERROR_SQLSTATE
DROP EXTENSION idgen;
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.launch_id = 66;
SELECT pg_reload_conf(), pg_sleep(0.3);
\c
SELECT (idgen.decimal_parse(idgen.decimal_id())).launch_id AS another_launch_id_goes_on;
ALTER SYSTEM RESET idgen.launch_id;
SELECT pg_reload_conf(), pg_sleep(0.3);

-- Bad IDs.
SELECT * FROM idgen.decimal_parse(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.decimal_parse(9999999999);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.decimal_parse(9223372036854775807);
\echo :LAST_ERROR_SQLSTATE

DROP EXTENSION idgen;
