-- idgen beside PostgreSQL 18's own uuidv7(): both write the RFC 9562 layout with a 12-bit
-- sub-millisecond fraction, so each one's decoder reads the other's UUIDs to the same millisecond.
-- Before 18 there is no core uuidv7() (expected/uuidv7_core_1.out).
CREATE EXTENSION idgen;
SET timezone = 'UTC';
SELECT to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL AS core_has_uuidv7 \gset
-- Which of the two expected outputs this server must match: each names its answer here.
\echo core_has_uuidv7 :core_has_uuidv7
\if :core_has_uuidv7
-- Core's uuid_extract_timestamp() of idgen's UUIDs, and idgen.uuidv7_time() of core's.
SELECT count(*) AS idgen_uuids,
       count(*) FILTER (WHERE uuid_extract_timestamp(u) = date_trunc('milliseconds', idgen.uuidv7_time(u))) AS same_millisecond
FROM (SELECT idgen.uuidv7() AS u FROM generate_series(1, 10000)) s;
SELECT count(*) AS core_uuids,
       count(*) FILTER (WHERE date_trunc('milliseconds', idgen.uuidv7_time(u)) = uuid_extract_timestamp(u)) AS same_millisecond
FROM (SELECT uuidv7() AS u FROM generate_series(1, 10000)) s;
-- The shifted forms agree too.
SELECT uuid_extract_timestamp(idgen.uuidv7(interval '-1 day')) BETWEEN now() - interval '1 day 1 second' AND now() - interval '23 hours' AS idgen_shift,
       date_trunc('day', idgen.uuidv7_time(uuidv7(interval '-1 day'))) = date_trunc('day', now() - interval '1 day') AS core_shift;
-- Side by side: core's bare uuidv7() is not idgen's, and idgen defines no bare one.
SELECT p.oid::regprocedure, p.pronamespace::regnamespace FROM pg_proc p WHERE p.proname = 'uuidv7' ORDER BY 2, 1::text;
\else
\echo this PostgreSQL has no uuidv7() of its own
SELECT p.oid::regprocedure, p.pronamespace::regnamespace FROM pg_proc p WHERE p.proname = 'uuidv7' ORDER BY 2, 1::text;
\endif
DROP EXTENSION idgen;
