-- UUIDv7: generator properties, decoders on known values, range-scan bounds, errors.
CREATE EXTENSION idgen;
SET timezone = 'UTC';

-- The RFC 9562 vector (appendix A.6): rand_a read as a sub-millisecond fraction.
SELECT idgen.uuidv7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');

-- Exact decodes: the last fractions of a millisecond stay in it (the 48-bit field says .518), and
-- the bound of a decoded time is never above the UUID, for every one of the 4096 fractions.
SELECT idgen.uuidv7_time('01890a5d-ac96-7fff-8000-000000000000');
SELECT idgen.uuidv7_time('01890a5d-ac96-7ffe-bfff-ffffffffffff');
WITH ids AS (
  SELECT f, ('01890a5d-ac96-7' || lpad(to_hex(f), 3, '0') || '-8000-000000000000')::uuid AS id
  FROM generate_series(0, 4095) AS f)
SELECT count(*) AS fractions,
       count(*) FILTER (WHERE date_trunc('milliseconds', idgen.uuidv7_time(id)) = '2023-06-30 03:34:18.518+00') AS in_their_millisecond,
       count(*) FILTER (WHERE idgen.uuidv7_min(idgen.uuidv7_time(id)) <= id) AS above_their_bound,
       count(DISTINCT idgen.uuidv7_time(id)) AS distinct_microseconds
FROM ids;

-- Version and variant bits of generated values.
SELECT substr(u::text, 15, 1) AS version, substr(u::text, 20, 1) IN ('8', '9', 'a', 'b') AS rfc_variant
FROM (SELECT idgen.uuidv7() AS u) s;

-- 100 000 values from one session: distinct, strictly increasing, ORDER BY id = generation order.
CREATE TEMP TABLE gen AS SELECT n, idgen.uuidv7() AS id FROM generate_series(1, 100000) AS n;
SELECT count(*) AS total, count(DISTINCT id) AS distinct_ids FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id <= prev;
SELECT (SELECT array_agg(n ORDER BY id) FROM gen) = (SELECT array_agg(n ORDER BY n) FROM gen) AS id_order_is_generation_order;
SELECT count(DISTINCT substr(id::text, 20)) AS distinct_random_tails FROM gen;

-- The time is now: within the statement's clock readings (a fraction can round up by < 1 us).
SELECT idgen.uuidv7_time(idgen.uuidv7()) BETWEEN now() AND clock_timestamp() + interval '1 ms' AS time_is_now;

-- Backfills: uuidv7(at) holds exactly that instant, to the microsecond; its random bits differ.
SELECT idgen.uuidv7_time(idgen.uuidv7(timestamptz '2026-01-01 12:34:56.789012+00'));
SELECT idgen.uuidv7_time(idgen.uuidv7(timestamptz '1970-01-01 00:00:00+00'));
SELECT idgen.uuidv7_time(idgen.uuidv7(timestamptz '10889-08-02 05:31:50.655999+00'));
SELECT idgen.uuidv7(timestamptz '2026-01-01') <> idgen.uuidv7(timestamptz '2026-01-01') AS random_bits_differ;
-- An untyped literal could be an instant or a shift: PostgreSQL asks which.
-- (terse: PostgreSQL 19 splits the hint of this message into a detail)
\set VERBOSITY terse
SELECT idgen.uuidv7('2026-01-01');
\set VERBOSITY default

-- uuidv7(shift interval), PostgreSQL 18's meaning: the time written is now + shift; a constant
-- shift keeps the order.
SELECT idgen.uuidv7_time(idgen.uuidv7(interval '-1 day')) BETWEEN now() - interval '1 day'
       AND clock_timestamp() - interval '1 day' + interval '1 ms' AS shifted_a_day_back;
SELECT idgen.uuidv7_time(idgen.uuidv7(interval '1 month')) BETWEEN now() + interval '1 month'
       AND clock_timestamp() + interval '1 month' + interval '1 ms' AS shifted_a_month_on;
CREATE TEMP TABLE shifted AS SELECT n, idgen.uuidv7(interval '-3 hours') AS id FROM generate_series(1, 10000) AS n;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM shifted) s WHERE id <= prev;
SELECT count(*) AS wrong FROM generate_series(0, 999) AS us
WHERE idgen.uuidv7_time(idgen.uuidv7('2026-03-04 05:06:07+00'::timestamptz + us * interval '1 microsecond'))
   <> '2026-03-04 05:06:07+00'::timestamptz + us * interval '1 microsecond';

-- Bounds: the smallest UUIDv7 at an instant.
SELECT idgen.uuidv7_min('2022-02-22 19:22:22+00');
SELECT idgen.uuidv7_min('2022-02-22 19:22:22.000456+00');
SELECT idgen.uuidv7_min('2022-02-22 19:22:22.000797+00') <= '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'
   AND idgen.uuidv7_min('2022-02-22 19:22:22.000798+00') > '017f22e2-79b0-7cc3-98c4-dc0c0c07398f' AS decoded_time_is_the_latest_bound_below;
SELECT idgen.uuidv7_min('1970-01-01 00:00:00+00');
SELECT idgen.uuidv7_min('2022-02-22 19:22:22+00') < '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'
   AND '017f22e2-79b0-7cc3-98c4-dc0c0c07398f' < idgen.uuidv7_min('2022-02-22 19:22:22.001+00') AS rfc_vector_in_its_millisecond;
SELECT idgen.uuidv7_time(idgen.uuidv7_min('2026-05-06 07:08:09.123456+00'));

-- A time range is a primary-key range scan.
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT idgen.uuidv7(), at timestamptz);
INSERT INTO events (id, at)
SELECT idgen.uuidv7(t), t FROM generate_series('2026-01-01'::timestamptz, '2026-03-31', '1 hour') AS t;
ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id >= idgen.uuidv7_min('2026-02-01') AND id < idgen.uuidv7_min('2026-03-01');
SELECT count(*) AS february, min(at), max(at) FROM events
WHERE id >= idgen.uuidv7_min('2026-02-01') AND id < idgen.uuidv7_min('2026-03-01');
WITH inserted AS (INSERT INTO events (at) VALUES (now()), (now()) RETURNING id)
SELECT count(*) AS default_ids_made_now FROM inserted WHERE idgen.uuidv7_time(id) BETWEEN now() AND clock_timestamp() + interval '1 ms';
DROP TABLE events;

-- NULL in, NULL out.
SELECT idgen.uuidv7(NULL::timestamptz) IS NULL AS a, idgen.uuidv7(NULL::interval) IS NULL AS shift, idgen.uuidv7_time(NULL) IS NULL AS b, idgen.uuidv7_min(NULL) IS NULL AS c;

-- Errors.
\set SHOW_CONTEXT never
SELECT idgen.uuidv7_time('5bd1ac3e-1b8b-4a4a-9bd1-66a4b2ee1aa4');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_time('00000000-0000-0000-0000-000000000000');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_time('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_min('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_min('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7(timestamptz '-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_min('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7(interval '-60 years');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7(interval '9000 years');
\echo :LAST_ERROR_SQLSTATE
-- idgen.max_clock_lead is the server's (issue 29, item 6): a session that sent the shared state back
-- to the clock would break every other session's order. 55P02, in a session, a database or a role.
SET idgen.max_clock_lead = '1s';
\echo :LAST_ERROR_SQLSTATE
SELECT set_config('idgen.max_clock_lead', '0', false);
\echo :LAST_ERROR_SQLSTATE
ALTER ROLE CURRENT_USER SET idgen.max_clock_lead = 0;
\echo :LAST_ERROR_SQLSTATE
SELECT context FROM pg_settings WHERE name = 'idgen.max_clock_lead';

-- uuidv7_text_time: the time decoder pg_partman calls with a uuid column cast to text.
SELECT idgen.uuidv7_text_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT idgen.uuidv7_text_time('017F22E279B07CC398C4DC0C0C07398F');
SELECT idgen.uuidv7_text_time(NULL) IS NULL AS strict;
SELECT count(*) AS differ FROM (SELECT idgen.uuidv7(timestamptz '2026-01-01 00:00+00' + n * interval '997 us') AS u
  FROM generate_series(1, 1000) AS n) g WHERE idgen.uuidv7_text_time(u::text) IS DISTINCT FROM idgen.uuidv7_time(u);
SELECT idgen.uuidv7_text_time('nonsense');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_text_time('');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_text_time('{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_text_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_text_time(E'017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7_text_time('5bd1ac3e-1b8b-4a4a-9bd1-66a4b2ee1aa4');
\echo :LAST_ERROR_SQLSTATE

-- Catalog: volatility and parallel safety as documented.
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, p.provolatile, p.proparallel, p.proisstrict
FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname LIKE 'uuidv7%' ORDER BY 1, 2;

DROP EXTENSION idgen;
