-- Without shared_preload_libraries: UUIDv7 falls back to per-backend state.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
SHOW shared_preload_libraries;

-- Still strictly increasing within the session, and still unique.
CREATE TEMP TABLE gen AS SELECT n, idgen.uuidv7() AS id FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id <= prev;
SELECT idgen.uuidv7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');

-- The 64-bit families need shared memory: they refuse, and say how to fix it.
\set SHOW_CONTEXT never
SELECT idgen.instagram_id(1);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.snowflake_id();
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.sonyflake_id();
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.trace_id();
\echo :LAST_ERROR_SQLSTATE
-- Their decoders and bounds need no state.
SELECT * FROM idgen.instagram_parse(2384288897814875714);
SELECT idgen.snowflake_min('2010-11-04 01:42:54.658+00');

-- The counters are this backend's own.
SELECT family, scope, issued FROM idgen.stats ORDER BY family;

DROP EXTENSION idgen;
