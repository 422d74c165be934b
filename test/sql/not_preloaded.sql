-- Without shared_preload_libraries. On PostgreSQL 15 and 16 the state of the generators needs the
-- shared memory of a preloaded library: the 64-bit families refuse, and say how to fix it, while
-- UUIDv7 keeps per-session state. From 17 on, a named DSM segment holds the same cluster-wide
-- state without preload: every family works (expected/not_preloaded_1.out).
CREATE EXTENSION idgen;
SET timezone = 'UTC';
SHOW shared_preload_libraries;
-- Which of the two expected outputs this server must match: each names its major's answer here.
SELECT current_setting('server_version_num')::int >= 170000 AS state_in_dsm_registry;

-- UUIDv7: strictly increasing within the session, and unique.
CREATE TEMP TABLE gen AS SELECT n, idgen.uuidv7() AS id FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id <= prev;
SELECT idgen.uuidv7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');

-- The 64-bit families.
\set SHOW_CONTEXT never
SELECT idgen.instagram_id(1) > 0 AS instagram;
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.snowflake_id() > 0 AS snowflake;
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.sonyflake_id() > 0 AS sonyflake;
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.trace_id() > 0 AS trace;
\echo :LAST_ERROR_SQLSTATE
-- Their decoders and bounds need no state.
SELECT * FROM idgen.instagram_parse(2384288897814875714);
SELECT idgen.snowflake_min('2010-11-04 01:42:54.658+00');

-- A parallel query keeps the session's order: generators whose order is per process run in the
-- leader (a parallel worker would otherwise start its own state, on 15 and 16).
CREATE TABLE numbers AS SELECT n FROM generate_series(1, 50000) AS n;
ANALYZE numbers;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE TABLE made AS SELECT n, idgen.uuidv7() AS u, idgen.objectid() AS o, idgen.typeid('x') AS t FROM numbers WHERE n % 7 <> 3;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE u <= prev_u) AS uuidv7_out_of_order,
       count(*) FILTER (WHERE o <= prev_o) AS objectid_out_of_order,
       count(*) FILTER (WHERE t COLLATE "C" <= prev_t COLLATE "C") AS typeid_out_of_order
FROM (SELECT u, o, t, lag(u) OVER w AS prev_u, lag(o) OVER w AS prev_o, lag(t) OVER w AS prev_t
      FROM made WINDOW w AS (ORDER BY ctid)) s;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE numbers, made;

-- ns_id without shared state is unique by its random bits alone: fewer than 48 are refused there
-- (issue 20.7: 33,727 duplicates at 0 bits, 118 at 8), 48 and more work everywhere.
SELECT length(idgen.ns_id(8)) AS eight_random_bits;
\echo :LAST_ERROR_SQLSTATE
SELECT length(idgen.ns_id(48)) AS forty_eight_random_bits;
-- Its default of 32 random bits included: refused without shared state (the README said it fell
-- back there: issue 29, item 12).
SELECT length(idgen.ns_id()) AS default_random_bits;
\echo :LAST_ERROR_SQLSTATE

-- The counters: this backend's own, or the cluster's.
-- (the families this test makes: from 17 on the counters are the cluster's, where other tests ran)
SELECT family, scope, issued > 0 AS issued FROM idgen.stats
WHERE family IN ('instagram', 'ns_id', 'snowflake', 'sonyflake', 'trace', 'uuidv7') ORDER BY family;

DROP EXTENSION idgen;
