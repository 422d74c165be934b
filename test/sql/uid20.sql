-- 20-digit decimal UIDs: ms (or s) since 2011-01-01 | sequence | server digit.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- The vectors (vectors.md), the last one above a bigint.
SELECT * FROM idgen.uid20_parse(1234561);
SELECT * FROM idgen.uid20_parse(315360000001234561);
SELECT * FROM idgen.uid20_parse(18290880000001234561);
SELECT * FROM idgen.uid20_parse(18446744073709551615);
SELECT * FROM idgen.uid20_sec_parse(31536000123456781);

-- Generated: the time is now, the server digit is idgen.uid20_server, never a repeat.
SHOW idgen.uid20_epoch_ms;
ALTER SYSTEM SET idgen.uid20_server = 7;
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT server, ts BETWEEN date_trunc('milliseconds', now()) AND clock_timestamp() AS time_is_now
FROM idgen.uid20_parse(idgen.uid20());
SELECT server, ts BETWEEN date_trunc('second', now()) AND clock_timestamp() AS time_is_now
FROM idgen.uid20_sec_parse(idgen.uid20_sec());
SELECT pg_typeof(n), n::text ~ '^[0-9]{19,20}$' AS digits, (idgen.uid20_parse(n)).server
FROM (SELECT idgen.uid20_numeric() AS n) s;
CREATE TEMP TABLE gen AS SELECT n, idgen.uid20() AS id FROM generate_series(1, 100000) AS n;
SELECT count(DISTINCT id) AS distinct_ids, bool_and(id::text ~ '^[0-9]{18,20}$') AS digits,
       count(*) FILTER (WHERE (idgen.uid20_parse(id)).server <> 7) AS other_servers
FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id <= prev;
ALTER SYSTEM SET idgen.uid20_server = 10;
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM RESET idgen.uid20_server;
SELECT pg_reload_conf(), pg_sleep(0.3);

-- The bigint form ends in 2040, the numeric form in 2069 (MySQL's unsigned BIGINT).
SELECT ts AS last_bigint FROM idgen.uid20_parse(9223372036854775807);
-- Another epoch moves every decoded time (set it before the first ID: the server's UID20s are one
-- sequence, under one epoch).
SET idgen.uid20_epoch_ms = 1767225600000;  -- 2026-01-01
SELECT ts AS under_another_epoch FROM idgen.uid20_parse(1234561);
RESET idgen.uid20_epoch_ms;

-- Bad input.
SELECT * FROM idgen.uid20_parse(18446744073709551616);
\echo :LAST_ERROR_SQLSTATE
-- Beyond 128 bits too: 2^128 + 5 is out of range, never read as 5.
SELECT * FROM idgen.uid20_parse(340282366920938463463374607431768211461);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.uid20_sec_parse(340282366920938463463374607431768211461);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.uid20_parse(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.uid20_parse(1.5);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.uid20_parse('NaN');
\echo :LAST_ERROR_SQLSTATE

DROP EXTENSION idgen;
