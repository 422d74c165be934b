-- Nanosecond IDs: ns since 1970 << random_bits | random, fixed-width base36 text.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- Widths per random_bits, and the decoding of a known value (1767225600123456789 ns, random 0).
SELECT b, length(idgen.ns_id(b)) AS width FROM (VALUES (0), (16), (32), (64)) AS v(b);
SELECT idgen.ns_id_time('0qhp7de6ysws55ci680');
SELECT idgen.ns_id_time(upper('0qhp7de6ysws55ci680')) AS case_insensitive;

-- Generated: text order is time order and generation order; the time is now.
CREATE TEMP TABLE gen AS
SELECT n, clock_timestamp() AS before, idgen.ns_id() AS id, clock_timestamp() AS after FROM generate_series(1, 100000) AS n;
SELECT count(DISTINCT id) AS distinct_ids, bool_and(id ~ '^[0-9a-z]{19}$') AS base36,
       bool_and(idgen.ns_id_time(id) BETWEEN date_trunc('milliseconds', before) AND after + interval '1 ms') AS time_is_now FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id COLLATE "C" <= prev COLLATE "C";

-- Another alphabet (ascending, so that text order is time order), and another width.
SELECT idgen.ns_id(32, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') ~ '^[0-9A-Za-z]{16}$' AS base62;
SELECT idgen.ns_id_time(x, 16, '01') BETWEEN now() AND clock_timestamp() + interval '1 ms' AS base2 FROM (SELECT idgen.ns_id(16, '01') AS x) s;

-- Errors.
SELECT idgen.ns_id(65);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ns_id(32, 'zyx');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ns_id(32, 'a');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ns_id_time('0qhp7de6ysws55ci68');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ns_id_time('0qhp7de6ysws55ci68-');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ns_id_time('zzzzzzzzzzzzzzzzzzz');
\echo :LAST_ERROR_SQLSTATE

DROP EXTENSION idgen;
