-- Without shared_preload_libraries: UUIDv7 falls back to per-backend state.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
SHOW shared_preload_libraries;

-- Still strictly increasing within the session, and still unique.
CREATE TEMP TABLE gen AS SELECT n, idgen.uuidv7() AS id FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id <= prev;
SELECT idgen.uuidv7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');

-- The counters are this backend's own.
SELECT family, scope, issued FROM idgen.stats;

DROP EXTENSION idgen;
