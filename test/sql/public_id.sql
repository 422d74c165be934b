-- Look-random public IDs: a keyed permutation of the positive bigints, under idgen.public_id_key.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never
\set wait_until_set 'SELECT ''SELECT pg_sleep(0.02) WHERE current_setting(''''idgen.public_id_key'''') = '''''''''' FROM generate_series(1, 250) \\gexec'

-- No key: refused, never a permutation under an empty key.
SELECT idgen.public_id(1);
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.public_id_key = 'public-id key of at least thirty-two bytes, for the tests';
SELECT pg_reload_conf();
\set ECHO none
\o /dev/null
:wait_until_set
\o
\set ECHO all

-- A bijection: 100 000 IDs map to 100 000 distinct positive public IDs, and back.
CREATE TEMP TABLE m AS SELECT id, idgen.public_id(id) AS pub FROM generate_series(1, 100000) AS id;
SELECT count(DISTINCT pub) AS distinct_public_ids, min(pub) > 0 AS positive,
       bool_and(idgen.private_id(pub) = id) AS reversible FROM m;
-- Consecutive IDs do not look consecutive: their public IDs are out of order about half the time.
SELECT round(avg((pub > prev)::int), 1) AS share_increasing
FROM (SELECT pub, lag(pub) OVER (ORDER BY id) AS prev FROM m) s WHERE prev IS NOT NULL;
-- The ends of the domain.
SELECT idgen.private_id(idgen.public_id(9223372036854775807)) = 9223372036854775807 AS max_round_trips,
       idgen.private_id(idgen.public_id(1)) = 1 AS one_round_trips;
-- The text form: 11 base62 characters.
SELECT length(t) AS width, t ~ '^[0-9A-Za-z]{11}$' AS base62, idgen.private_id_text(t) AS back
FROM (SELECT idgen.public_id_text(42) AS t) s;
SELECT count(*) FILTER (WHERE idgen.private_id_text(idgen.public_id_text(id)) <> id) AS text_mismatches FROM m;

-- Errors.
SELECT idgen.public_id(0);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_id(-7);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_id_text('short');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_id_text('AzL8n0Y58m8');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_id_text('0000000000!');
\echo :LAST_ERROR_SQLSTATE

-- The key is a secret held like the token secret: server configuration only, masked to everyone.
SET idgen.public_id_key = 'a session''s own key, at least thirty-two bytes';
\echo :LAST_ERROR_SQLSTATE
CREATE ROLE idgen_public_monitor IN ROLE pg_monitor;
SET ROLE idgen_public_monitor;
SHOW idgen.public_id_key;
RESET ROLE;
DROP ROLE idgen_public_monitor;
SELECT p.proname, p.provolatile, p.proparallel FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname ~ '^(public|private)_id' ORDER BY 1;

ALTER SYSTEM RESET idgen.public_id_key;
SELECT pg_reload_conf();
DROP EXTENSION idgen;
