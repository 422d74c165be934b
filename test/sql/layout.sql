-- 64-bit layouts: Instagram, Snowflake, Sonyflake, TraceId. Decoders on published IDs, bounds,
-- generators by their properties, settings, errors.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- Published IDs decode exactly (../shared/vectors.md).
SELECT * FROM idgen.instagram_parse(2384288897814875714);
SELECT * FROM idgen.snowflake_parse(4329472);
SELECT * FROM idgen.sonyflake_parse((7::bigint << 24) | (5 << 16) | 300);
SELECT * FROM idgen.instagram_parse(0);
-- TraceId: timestamp * 2^38 + node * 2^22 + counter (vectors.md), decoded near the instant it names.
SELECT * FROM idgen.trace_parse((1767225600::bigint % (1 << 25)) * (1::bigint << 38) + 9 * (1 << 22) + 1);

-- Bounds: the smallest ID at an instant.
SELECT idgen.instagram_min('2020-08-26 13:43:27.313+00');
SELECT idgen.instagram_min('2020-08-26 13:43:27.313+00') <= 2384288897814875714
   AND 2384288897814875714 < idgen.instagram_min('2020-08-26 13:43:27.314+00') AS published_id_in_its_millisecond;
SELECT idgen.snowflake_min('2010-11-04 01:42:54.658+00');
SELECT idgen.instagram_min('2011-08-24 21:07:01.721+00') AS at_the_epoch;
SELECT idgen.instagram_min('2046-06-27 17:00:49.496+00') AS last_positive_millisecond;
SELECT ts FROM idgen.sonyflake_parse(idgen.sonyflake_min('2026-01-01 00:00:00.005+00'));

-- Instagram generator: the shard is the argument, the time is now.
SELECT shard, ts BETWEEN now() - interval '1 s' AND clock_timestamp() AS time_is_now
FROM idgen.instagram_parse(idgen.instagram_id(5));
SELECT shard FROM idgen.instagram_parse(idgen.instagram_id(shard => 8191));
SELECT shard FROM idgen.instagram_parse(idgen.instagram_id(shard => 123456789::bigint % 2000));

-- 10 000 IDs of one shard in one session: distinct, increasing, the sequence within 0..1023.
CREATE TEMP TABLE gen AS SELECT n, idgen.instagram_id(7) AS id FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids, min(id) > 0 AS positive FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id <= prev;
SELECT min((idgen.instagram_parse(id)).seq) >= 0 AND max((idgen.instagram_parse(id)).seq) <= 1023 AS seq_in_range,
       count(DISTINCT (idgen.instagram_parse(id)).shard) AS shards FROM gen;
DROP TABLE gen;

-- Snowflake, Sonyflake and TraceId take their node from idgen.node_id: the server's configuration,
-- never a session's (PGC_SIGHUP), a superuser's included.
SHOW idgen.node_id;
SET idgen.node_id = 33;
\echo :LAST_ERROR_SQLSTATE
SELECT set_config('idgen.node_id', '33', true);
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.node_id = 33;
SELECT pg_reload_conf(), pg_sleep(0.3);
SHOW idgen.node_id;
SELECT node FROM idgen.snowflake_parse(idgen.snowflake_id());
SELECT machine_id FROM idgen.sonyflake_parse(idgen.sonyflake_id());
SELECT node, ts BETWEEN date_trunc('second', now()) AND clock_timestamp() AS time_is_now
FROM idgen.trace_parse(idgen.trace_id());
SELECT count(DISTINCT id) AS distinct_snowflakes FROM (SELECT idgen.snowflake_id() AS id FROM generate_series(1, 10000)) s;
SELECT count(DISTINCT id) AS distinct_sonyflakes FROM (SELECT idgen.sonyflake_id() AS id FROM generate_series(1, 300)) s;
-- Each family takes the full width of its node field: 16 bits for Sonyflake and TraceId; Snowflake,
-- whose node is 10 bits, refuses a node it cannot hold rather than cut it.
ALTER SYSTEM SET idgen.node_id = 65535;
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT machine_id FROM idgen.sonyflake_parse(idgen.sonyflake_id());
SELECT node FROM idgen.trace_parse(idgen.trace_id());
ALTER SYSTEM SET idgen.node_id = 1024;
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT idgen.snowflake_id();
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.node_id = 65536;
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM RESET idgen.node_id;
SELECT pg_reload_conf(), pg_sleep(0.3);

-- Shards this server owns: idgen.instagram_shards; any other shard is refused.
SHOW idgen.instagram_shards;
ALTER SYSTEM SET idgen.instagram_shards = '0-99, 200-299,4000';
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT shard FROM idgen.instagram_parse(idgen.instagram_id(99));
SELECT shard FROM idgen.instagram_parse(idgen.instagram_id(4000));
SELECT idgen.instagram_id(100);
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.instagram_shards = '99-5';
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.instagram_shards = '0-8192';
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.instagram_shards = 'all';
\echo :LAST_ERROR_SQLSTATE
-- A list keeps each range exactly: at most 32 of them.
SELECT pg_catalog.string_agg((2 * g)::text, ',') AS many FROM generate_series(0, 32) g \gset
ALTER SYSTEM SET idgen.instagram_shards = :'many';
\echo :LAST_ERROR_SQLSTATE
-- An empty list: this server makes no Instagram ID (restart_at_clock() needs it where the server
-- had every shard).
ALTER SYSTEM SET idgen.instagram_shards = '';
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT idgen.instagram_id(0);
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM RESET idgen.instagram_shards;
SELECT pg_reload_conf(), pg_sleep(0.3);

-- Epochs: the published ones by default; a custom epoch shifts the time field.
SHOW idgen.instagram_epoch_ms;
SHOW idgen.snowflake_epoch_ms;
SHOW idgen.sonyflake_epoch_ms;
SHOW idgen.trace_epoch_ms;
SET idgen.snowflake_epoch_ms = 1767225600000;
SELECT * FROM idgen.snowflake_parse(4329472);
SELECT idgen.snowflake_min('2026-01-01 00:00:00.001+00');
SET idgen.snowflake_epoch_ms = 'yesterday';
\echo :LAST_ERROR_SQLSTATE
SET idgen.snowflake_epoch_ms = -1;
\echo :LAST_ERROR_SQLSTATE
RESET idgen.snowflake_epoch_ms;

-- An epoch set for a session (or a database, a role) decodes IDs made under it, and makes none
-- (55000): IDs made under it would lie where the durable mark does not hold them, and the server
-- could repeat them after a restart. (The server's epoch moved later since IDs were issued, ridden
-- out or refused: test/t/marks.pl.)
SET idgen.snowflake_epoch_ms = 1288834984657;
SELECT idgen.snowflake_id();
\echo :LAST_ERROR_SQLSTATE
SELECT node, seq FROM idgen.snowflake_parse(1541815603606036480);
RESET idgen.snowflake_epoch_ms;
SELECT idgen.snowflake_id() > 0 AS under_the_servers_epoch;

-- A time range is a primary-key range scan.
-- (The rows of the first quarter of 2026 are made from the bounds: shard 5, sequence 0.)
CREATE TABLE posts (id bigint PRIMARY KEY DEFAULT idgen.instagram_id(shard => 5), body text);
INSERT INTO posts (id, body)
SELECT idgen.instagram_min(t) | (5 << 10), 'posted at ' || t
FROM generate_series('2026-01-01'::timestamptz, '2026-03-31', '1 hour') AS t;
INSERT INTO posts (body) SELECT 'post ' || n FROM generate_series(1, 100) AS n;
ANALYZE posts;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM posts WHERE id >= idgen.instagram_min('2026-02-01') AND id < idgen.instagram_min('2026-03-01');
SELECT count(*) AS february, min(ts), max(ts), min(shard) AS shard
FROM posts, idgen.instagram_parse(id)
WHERE id >= idgen.instagram_min('2026-02-01') AND id < idgen.instagram_min('2026-03-01');
SELECT count(*) AS posts_this_hour FROM posts
WHERE id >= idgen.instagram_min(now() - interval '1 hour') AND id < idgen.instagram_min(now() + interval '1 hour');
DROP TABLE posts;

-- JS-safe IDs: from 1 to 2^53 - 1, so that JavaScript numbers hold them exactly.
SELECT * FROM idgen.js_parse(9007199254740991);
SELECT idgen.js_min('2026-01-01 00:00:00+00') AS at_the_epoch, idgen.js_min('2113-02-08 13:44:29.439+00') AS last_tick;
ALTER SYSTEM SET idgen.node_id = 31;
SELECT pg_reload_conf(), pg_sleep(0.3);
CREATE TEMP TABLE js AS SELECT n, idgen.js_id() AS id FROM generate_series(1, 20000) AS n;
SELECT count(DISTINCT id) AS distinct_ids, bool_and(idgen.is_js_safe(id)) AS all_safe,
       min((idgen.js_parse(id)).node) AS node, max((idgen.js_parse(id)).seq) <= 1023 AS seq_in_range FROM js;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM js) s WHERE id <= prev;
SELECT ts BETWEEN date_trunc('second', now()) AND clock_timestamp() AS time_is_now FROM idgen.js_parse(idgen.js_id());
ALTER SYSTEM SET idgen.node_id = 32;
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT idgen.js_id();
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM RESET idgen.node_id;
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT v, idgen.is_js_safe(v) FROM (VALUES (0::bigint), (1), (9007199254740991), (9007199254740992), (-1)) AS t(v);
SELECT * FROM idgen.js_parse(9007199254740992);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.js_min('2113-02-08 13:44:29.440+00');
\echo :LAST_ERROR_SQLSTATE

-- Statistics.
SELECT family, scope, issued > 0 AS issued FROM idgen.stats WHERE family <> 'uuidv7' ORDER BY family;

-- NULL in, NULL out.
SELECT idgen.instagram_id(NULL) IS NULL AS a, idgen.instagram_parse(NULL) IS NULL AS b, idgen.snowflake_min(NULL) IS NULL AS c;

-- Errors.
SELECT idgen.instagram_id(8192);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.instagram_id(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.instagram_min('2046-06-27 17:00:49.497+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.instagram_min('2011-08-24 21:07:01.720+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.snowflake_min('infinity');
\echo :LAST_ERROR_SQLSTATE
-- No instant of any ID is infinite, not even for TraceId, whose seconds wrap.
\set VERBOSITY sqlstate
SELECT idgen.instagram_min('infinity');
SELECT idgen.instagram_min('-infinity');
SELECT idgen.snowflake_min('-infinity');
SELECT idgen.sonyflake_min('infinity');
SELECT idgen.sonyflake_min('-infinity');
SELECT idgen.trace_min('infinity');
SELECT idgen.trace_min('-infinity');
\set VERBOSITY default
SELECT idgen.trace_min('1969-12-31 23:59:59+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.trace_min('200000-01-01 00:00:00+00') > 0 AS far_future_wraps;
SELECT idgen.trace_min('294276-12-31 23:59:59+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.sonyflake_min('2200-01-01');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.instagram_parse(-1);
\echo :LAST_ERROR_SQLSTATE

-- Settings that could cause collisions are for superusers only.
CREATE ROLE idgen_layout_user;
SET ROLE idgen_layout_user;
SET idgen.node_id = 5;
\echo :LAST_ERROR_SQLSTATE
SET idgen.instagram_epoch_ms = 0;
\echo :LAST_ERROR_SQLSTATE
SET idgen.max_clock_regression = '1h';
\echo :LAST_ERROR_SQLSTATE
SET idgen.instagram_shards = '0-8191';
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.instagram_id(1) > 0 AS but_anyone_generates;
RESET ROLE;
DROP ROLE idgen_layout_user;

-- Catalog: volatility and parallel safety as documented.
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, p.provolatile, p.proparallel
FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace
  AND p.proname ~ '^(instagram|snowflake|sonyflake|trace)_' ORDER BY 1, 2;

DROP EXTENSION idgen;
