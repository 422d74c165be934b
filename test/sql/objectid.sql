-- The idgen.objectid type: I/O, operators, indexes, casts, the generator and decoders.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- Text I/O: 24 hex digits in either case, lowercase out; 12 bytes on disk.
SELECT '507f191e810c19729de860ea'::idgen.objectid, '507F1F77BCF86CD799439011'::idgen.objectid;
SELECT typlen, typbyval, typalign, typstorage FROM pg_type WHERE oid = 'idgen.objectid'::regtype;
SELECT pg_column_size('507f191e810c19729de860ea'::idgen.objectid) AS bytes;

-- Decoders: the spec vectors, and unsigned seconds past 2038.
SELECT idgen.objectid_time('507f191e810c19729de860ea'), idgen.objectid_time('507f1f77bcf86cd799439011');
SELECT v, idgen.objectid_time(v::idgen.objectid)
FROM (VALUES ('000000000000000000000000'), ('7fffffff0000000000000000'), ('800000000000000000000000'),
             ('ffffffffffffffffffffffff')) AS t(v);
SELECT idgen.objectid_min('2012-10-17 20:46:22.999+00'), idgen.objectid_min('2106-02-07 06:28:15+00');
-- (A quoted literal alone would be read as objectid text: idgen.objectid('…') is a cast.)
SELECT idgen.objectid_time(idgen.objectid(timestamptz '2038-01-19 03:14:08.5+00'));

-- The generator: the time is now; one process value per session; the counter counts up.
CREATE TEMP TABLE gen AS
SELECT n, clock_timestamp() AS before, idgen.objectid() AS id, clock_timestamp() AS after FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids,
       count(DISTINCT substr(id::text, 9, 10)) AS process_values,
       bool_and(idgen.objectid_time(id) BETWEEN date_trunc('second', before) AND after) AS time_is_now
FROM gen;
SELECT count(*) AS counter_steps_not_one
FROM (SELECT ('x' || substr(id::text, 19, 6))::bit(24)::int AS c, lag(('x' || substr(id::text, 19, 6))::bit(24)::int) OVER (ORDER BY n) AS prev FROM gen) s
WHERE c <> (prev + 1) % 16777216;
DROP TABLE gen;

-- The operators work with the default search_path, as for built-in types: they live in
-- pg_catalog, which every search_path searches first.
SHOW search_path;
SELECT '507f191e810c19729de860ea'::idgen.objectid = '507F191E810C19729DE860EA' AS equal,
       '507f191e810c19729de860ea'::idgen.objectid < '507f1f77bcf86cd799439011' AS less;
SELECT o.oprnamespace::regnamespace, count(*) FROM pg_operator o WHERE o.oprleft = 'idgen.objectid'::regtype GROUP BY 1;

-- Operators against a known ordering (byte order: time first).
CREATE TABLE o (id idgen.objectid PRIMARY KEY, label text);
INSERT INTO o VALUES ('507f191e810c19729de860ea', 'b'), ('507f1f77bcf86cd799439011', 'c'), ('000000000000000000000001', 'a'),
                     ('800000000000000000000000', 'd'), ('ffffffffffffffffffffffff', 'e');
SELECT string_agg(label, '' ORDER BY id) AS ascending, string_agg(label, '' ORDER BY id DESC) AS descending FROM o;
SELECT a.label, b.label, a.id < b.id AS lt, a.id <= b.id AS le, a.id = b.id AS eq, a.id <> b.id AS ne,
       a.id >= b.id AS ge, a.id > b.id AS gt, idgen.objectid_cmp(a.id, b.id) AS cmp
FROM o a, o b WHERE a.label IN ('b', 'c') AND b.label IN ('b', 'c') ORDER BY 1, 2;
SELECT count(DISTINCT id) FROM (SELECT id FROM o UNION ALL SELECT id FROM o) s;
INSERT INTO o VALUES ('507F191E810C19729DE860EA', 'duplicate');
\echo :LAST_ERROR_SQLSTATE

-- Index scan, range scan, hash join, and a hash index.
INSERT INTO o SELECT idgen.objectid(t), 'filler' FROM generate_series('2020-01-01'::timestamptz, '2020-12-31', '1 hour') AS t;
ANALYZE o;
EXPLAIN (COSTS OFF) SELECT * FROM o WHERE id = '507f191e810c19729de860ea';
EXPLAIN (COSTS OFF) SELECT count(*) FROM o WHERE id >= idgen.objectid_min('2020-02-01') AND id < idgen.objectid_min('2020-03-01');
SELECT count(*) AS february FROM o WHERE id >= idgen.objectid_min('2020-02-01') AND id < idgen.objectid_min('2020-03-01');
CREATE TABLE h AS SELECT id, label FROM o;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM o JOIN h ON o.id = h.id;
SELECT count(*) FROM o JOIN h ON o.id = h.id;
RESET enable_mergejoin;
RESET enable_nestloop;
SELECT count(*) AS groups FROM (SELECT id FROM o GROUP BY id) s;
CREATE INDEX h_hash ON h USING hash (id);
ANALYZE h;
EXPLAIN (COSTS OFF) SELECT label FROM h WHERE id = '507f1f77bcf86cd799439011';
SELECT label FROM h WHERE id = '507f1f77bcf86cd799439011';
DROP TABLE h;
-- min() and max(), from the index (the plan's wording varies between majors: look for the scan).
CREATE FUNCTION plan_has(query text, node text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF line LIKE '%' || node || '%' THEN RETURN true; END IF;
  END LOOP;
  RETURN false;
END
$$;
SELECT min(id), max(id) FROM o;
SELECT plan_has('SELECT max(id) FROM o', 'Index Only Scan Backward using o_pkey') AS max_from_the_index,
       plan_has('SELECT min(id) FROM o', 'Index Only Scan using o_pkey') AS min_from_the_index;
SELECT min(id) AS of_nothing FROM o WHERE false;
SELECT hashtext('x') IS NOT NULL, idgen.objectid_hash('507f191e810c19729de860ea') = idgen.objectid_hash('507F191E810C19729DE860EA') AS same_hash,
       idgen.objectid_hash_extended('507f191e810c19729de860ea', 1) <> idgen.objectid_hash_extended('507f191e810c19729de860ea', 2) AS seeded;
DROP TABLE o;

-- Casts are explicit: text and bytea.
SELECT '507f191e810c19729de860ea'::idgen.objectid::text, '507f191e810c19729de860ea'::idgen.objectid::bytea;
SELECT '\x507f191e810c19729de860ea'::bytea::idgen.objectid, 'abcdefabcdefabcdefabcdef'::text::idgen.objectid;
SELECT c.castsource::regtype, c.casttarget::regtype, c.castcontext FROM pg_cast c
WHERE 'idgen.objectid'::regtype IN (c.castsource, c.casttarget) ORDER BY 1, 2;
-- (terse: PostgreSQL 19 splits the hint of this message into a detail)
\set VERBOSITY terse
SELECT '507f191e810c19729de860ea'::idgen.objectid = '507f191e810c19729de860ea'::text;
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE

-- An operator planted in public by someone who may create there does not take their place: a
-- superuser's query with the default search_path still runs idgen's = and uses the index.
CREATE TABLE docs (id idgen.objectid PRIMARY KEY, body text);
INSERT INTO docs SELECT idgen.objectid(t), 'doc' FROM generate_series('2021-01-01'::timestamptz, '2021-06-30', '1 hour') AS t;
INSERT INTO docs VALUES ('507f191e810c19729de860ea', 'wanted');
ANALYZE docs;
CREATE ROLE idgen_planter;
GRANT CREATE ON SCHEMA public TO idgen_planter;
SET ROLE idgen_planter;
CREATE FUNCTION public.always(idgen.objectid, idgen.objectid) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = idgen.objectid, RIGHTARG = idgen.objectid, FUNCTION = public.always);
RESET ROLE;
SELECT count(*) AS rows_matching FROM docs WHERE id = '507f191e810c19729de860ea';
EXPLAIN (COSTS OFF) SELECT * FROM docs WHERE id = '507f191e810c19729de860ea';
SELECT count(*) AS in_march FROM docs WHERE id >= idgen.objectid_min('2021-03-01') AND id < idgen.objectid_min('2021-04-01');
DROP OPERATOR public.= (idgen.objectid, idgen.objectid);
DROP FUNCTION public.always(idgen.objectid, idgen.objectid);
REVOKE CREATE ON SCHEMA public FROM idgen_planter;
DROP ROLE idgen_planter;

-- A BRIN index (minmax) keeps a large append-only table's time ranges cheap.
CREATE INDEX docs_brin ON docs USING brin (id) WITH (pages_per_range = 4);
SET enable_indexscan = off;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM docs WHERE id >= idgen.objectid_min('2021-03-01') AND id < idgen.objectid_min('2021-04-01');
SELECT count(*) AS in_march_by_brin FROM docs WHERE id >= idgen.objectid_min('2021-03-01') AND id < idgen.objectid_min('2021-04-01');
RESET enable_indexscan;
RESET enable_seqscan;
SELECT pg_relation_size('docs_brin') <= 3 * 8192 AS tiny;
DROP TABLE docs;

-- Sorting with abbreviated keys, and without them when they do not help: 20 000 IDs of one second
-- from one session share their first 8 bytes, so the abbreviations are abandoned; both orders are
-- the order of the text.
CREATE TEMP TABLE same_second AS SELECT idgen.objectid(timestamptz '2026-01-01 00:00:00+00') AS id FROM generate_series(1, 20000);
CREATE TEMP TABLE many_seconds AS SELECT idgen.objectid(timestamptz '2026-01-01' + n * interval '1 second') AS id FROM generate_series(1, 20000) AS n;
SELECT (SELECT array_agg(id::text ORDER BY id) FROM same_second) = (SELECT array_agg(id::text ORDER BY id::text COLLATE "C") FROM same_second) AS same_second_sorted,
       (SELECT array_agg(id::text ORDER BY id DESC) FROM many_seconds) = (SELECT array_agg(id::text ORDER BY id::text COLLATE "C" DESC) FROM many_seconds) AS many_seconds_sorted;
DROP TABLE same_second, many_seconds;
DROP FUNCTION plan_has(text, text);

-- Errors.
SELECT 'xyz'::idgen.objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '507f191e810c19729de860e'::idgen.objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '507f191e810c19729de860eaa'::idgen.objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::idgen.objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT ' 507f191e810c19729de860e'::idgen.objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '\x507f191e810c19729de860'::bytea::idgen.objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.objectid_min('1969-12-31 23:59:59+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.objectid(timestamptz '2106-02-07 06:28:16+00');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.objectid(timestamptz 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.objectid_min('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.objectid('2026-01-01 00:00:00+00');
\echo :LAST_ERROR_SQLSTATE

DROP EXTENSION idgen;
