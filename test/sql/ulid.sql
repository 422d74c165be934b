-- ULID: the spec's examples, text <-> uuid bit for bit, decoders, range-scan bounds, generator
-- properties, errors.
CREATE EXTENSION idgen;
SET timezone = 'UTC';

-- The spec's example (github.com/ulid/spec): its 128 bits, its millisecond, and back.
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT idgen.ulid_from_uuid('01563e3a-b5d3-d676-4c61-efb99302bd5b');
SELECT idgen.ulid_time('01ARZ3NDEKTSV4RRFFQ69G5FAV'), idgen.ulid_time('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid);
-- The spec's monotonic pair: the same millisecond, the second one above.
SELECT idgen.ulid_to_uuid('01BX5ZZKBKACTAV9WEVGEMMVRZ') AS a, idgen.ulid_to_uuid('01BX5ZZKBKACTAV9WEVGEMMVS0') AS b,
       idgen.ulid_to_uuid('01BX5ZZKBKACTAV9WEVGEMMVRZ') < idgen.ulid_to_uuid('01BX5ZZKBKACTAV9WEVGEMMVS0') AS ordered;
-- The extremes: 0 and 2^128 - 1 (the spec's largest, at 2^48 - 1 ms).
SELECT idgen.ulid_to_uuid('00000000000000000000000000'), idgen.ulid_to_uuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
SELECT idgen.ulid_time('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
SELECT idgen.ulid_from_uuid('ffffffff-ffff-ffff-ffff-ffffffffffff'), idgen.ulid_from_uuid('00000000-0000-0000-0000-000000000000');

-- Either case; Crockford's I and L read as 1, O as 0; written back canonical.
SELECT idgen.ulid_from_uuid(idgen.ulid_to_uuid(v)) AS canonical
FROM (VALUES ('01arz3ndektsv4rrffq69g5fav'), ('0IARZ3NDEKTSV4RRFFQ69G5FAV'), ('0lARZ3NDEKTSV4RRFFQ69G5FAV'),
             ('o1ARZ3NDEKTSV4RRFFQ69G5FAV')) AS t(v);

-- Round trips both ways: 10 000 random uuids, and every ULID the generators make.
SELECT count(*) AS uuids,
       count(*) FILTER (WHERE idgen.ulid_to_uuid(idgen.ulid_from_uuid(u)) = u) AS round_trips,
       count(*) FILTER (WHERE (idgen.ulid_from_uuid(u) COLLATE "C" < idgen.ulid_from_uuid(v) COLLATE "C") = (u < v)) AS same_order
FROM (SELECT gen_random_uuid() AS u, gen_random_uuid() AS v FROM generate_series(1, 10000)) s;

-- 100 000 ULIDs from one session: 26 canonical characters, distinct, strictly increasing in text
-- (C collation) and in their uuid form, ORDER BY = generation order.
CREATE TEMP TABLE gen AS SELECT n, idgen.ulid() AS id FROM generate_series(1, 100000) AS n;
SELECT count(*) AS total, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$') AS canonical,
       count(*) FILTER (WHERE idgen.ulid_from_uuid(idgen.ulid_to_uuid(id)) = id) AS round_trips
FROM gen;
SELECT count(*) AS out_of_order FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE id COLLATE "C" <= prev;
SELECT count(*) AS out_of_order_as_uuid
FROM (SELECT idgen.ulid_to_uuid(id) AS u, lag(idgen.ulid_to_uuid(id)) OVER (ORDER BY n) AS prev FROM gen) s WHERE u <= prev;
SELECT count(DISTINCT substr(id, 17)) AS distinct_random_tails FROM gen;
CREATE TEMP TABLE gen_uuid AS SELECT n, idgen.ulid_uuid() AS id FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids,
       (SELECT array_agg(n ORDER BY id) FROM gen_uuid) = (SELECT array_agg(n ORDER BY n) FROM gen_uuid) AS uuid_order_is_generation_order,
       (SELECT id FROM gen_uuid ORDER BY id LIMIT 1) > (SELECT idgen.ulid_to_uuid(id) FROM gen ORDER BY 1 DESC LIMIT 1) AS after_the_text_ones
FROM gen_uuid;

-- ULIDs and UUIDv7s share one state: a ULID made after a UUIDv7 carries a later or equal millisecond.
SELECT idgen.ulid_time(idgen.ulid()) >= date_trunc('milliseconds', idgen.uuidv7_time(u)) AS after_the_uuidv7
FROM (SELECT idgen.uuidv7() AS u) s;

-- The time is now: in the statement's millisecond range (at most 1 ms ahead of the clock).
SELECT idgen.ulid_time(idgen.ulid()) BETWEEN date_trunc('milliseconds', now()) AND clock_timestamp() + interval '1 ms' AS time_is_now;

-- Bounds: the smallest ULID of the millisecond (rounded down), in text and uuid, below every ULID
-- of that millisecond and above every ULID before it.
SELECT idgen.ulid_min('2016-07-30 23:54:10.259+00'), idgen.ulid_min('2016-07-30 23:54:10.259999+00'),
       idgen.ulid_min_uuid('2016-07-30 23:54:10.259+00');
SELECT idgen.ulid_min('1970-01-01 00:00:00+00'), idgen.ulid_min('10889-08-02 05:31:50.655999+00');
SELECT idgen.ulid_min('2016-07-30 23:54:10.259+00') COLLATE "C" <= '01ARZ3NDEKTSV4RRFFQ69G5FAV' AS at_or_below,
       idgen.ulid_min('2016-07-30 23:54:10.260+00') COLLATE "C" > '01ARZ3NDEKTSV4RRFFQ69G5FAV' AS next_ms_above;
SELECT count(*) FILTER (WHERE idgen.ulid_min(idgen.ulid_time(id)) COLLATE "C" <= id) AS above_their_bound,
       count(*) FILTER (WHERE idgen.ulid_min_uuid(idgen.ulid_time(id)) <= idgen.ulid_to_uuid(id)) AS above_their_uuid_bound
FROM gen;
-- A range scan on a text key (C collation) and on a uuid key.
CREATE TEMP TABLE t (id text COLLATE "C" PRIMARY KEY);
INSERT INTO t SELECT idgen.ulid_min(timestamptz '2026-01-01' + d * interval '1 day')
FROM generate_series(0, 9) AS d;
SELECT count(*) FROM t WHERE id >= idgen.ulid_min('2026-01-03') AND id < idgen.ulid_min('2026-01-06');

-- Errors: 22P02 with the reason and a hint; times outside the field 22008.
\set VERBOSITY sqlstate
SELECT idgen.ulid_to_uuid('80000000000000000000000000');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAU');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FA');
SELECT idgen.ulid_time('');
SELECT idgen.ulid_min('1969-12-31 23:59:59.999999+00');
SELECT idgen.ulid_min('10889-08-02 05:31:50.656+00');
SELECT idgen.ulid_min_uuid('infinity');
\set VERBOSITY default
SELECT idgen.ulid_to_uuid('80000000000000000000000000');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAU');
SELECT idgen.ulid_time('01ARZ3NDEKTSV4RRFFQ69G5FA');
SELECT idgen.ulid_time('01ARZ3NDEKTSV4RRFFQ69G5FA€');
SELECT idgen.ulid_min('1969-12-31 23:59:59.999999+00');

-- Strictness: NULL in, NULL out.
SELECT idgen.ulid_to_uuid(NULL) IS NULL AS a, idgen.ulid_from_uuid(NULL) IS NULL AS b, idgen.ulid_time(NULL::text) IS NULL AS c,
       idgen.ulid_min(NULL) IS NULL AS d;

DROP TABLE t;
DROP EXTENSION idgen;
