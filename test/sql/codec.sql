-- Encodings: base16, base36, base62 text of bigints and uuids.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never

-- Vectors (../shared/vectors.md).
SELECT idgen.base36_encode(9223372036854775807) AS max_bigint, idgen.base36_decode_bigint('1y2p0ij32e8e7') AS back;
SELECT idgen.base36_encode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid) AS rfc_uuid_padded;
SELECT idgen.base36_decode_uuid('36twi214qwj7mgsvq83nm8wf') AS unpadded_reads_too;
SELECT idgen.base36_decode_uuid('f5lxx1zz5pnorynqglhzmsp33') AS max_uuid;
SELECT idgen.base36_decode_uuid('F5LXX1ZZ5PNORYNQGLHZMSP33') AS either_case;
SELECT idgen.base16_encode(255), idgen.base16_encode(0), idgen.base62_encode(61), idgen.base62_encode(62);
SELECT idgen.base16_encode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid) = replace('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '-', '') AS base16_is_uuid_hex;
SELECT idgen.base62_encode('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid), idgen.base62_encode('00000000-0000-0000-0000-000000000000'::uuid);
SELECT idgen.base62_decode_bigint('A') AS upper_a, idgen.base62_decode_bigint('a') AS lower_a;

-- Round trips of random values, and fixed-width uuid text sorts like the uuids (C collation).
CREATE TEMP TABLE r AS
SELECT (random() * 9223372036854775807)::bigint AS b, gen_random_uuid() AS u FROM generate_series(1, 10000);
SELECT count(*) FILTER (WHERE idgen.base16_decode_bigint(idgen.base16_encode(b)) <> b) AS base16_bigint,
       count(*) FILTER (WHERE idgen.base36_decode_bigint(idgen.base36_encode(b)) <> b) AS base36_bigint,
       count(*) FILTER (WHERE idgen.base62_decode_bigint(idgen.base62_encode(b)) <> b) AS base62_bigint,
       count(*) FILTER (WHERE idgen.base16_decode_uuid(idgen.base16_encode(u)) <> u) AS base16_uuid,
       count(*) FILTER (WHERE idgen.base36_decode_uuid(idgen.base36_encode(u)) <> u) AS base36_uuid,
       count(*) FILTER (WHERE idgen.base62_decode_uuid(idgen.base62_encode(u)) <> u) AS base62_uuid
FROM r;
SELECT (SELECT array_agg(u ORDER BY idgen.base36_encode(u) COLLATE "C") FROM r) = (SELECT array_agg(u ORDER BY u) FROM r) AS base36_sorts,
       (SELECT array_agg(u ORDER BY idgen.base62_encode(u) COLLATE "C") FROM r) = (SELECT array_agg(u ORDER BY u) FROM r) AS base62_sorts;
-- Unpadded text would not: a 1970 UUIDv7 against one of today.
SELECT ltrim(idgen.base36_encode(idgen.uuidv7_min('1970-01-02')), '0') COLLATE "C" < ltrim(idgen.base36_encode(idgen.uuidv7_min('2026-01-01')), '0') AS unpadded_sorts,
       idgen.base36_encode(idgen.uuidv7_min('1970-01-02')) COLLATE "C" < idgen.base36_encode(idgen.uuidv7_min('2026-01-01')) AS padded_sorts;

-- Errors.
SELECT idgen.base36_decode_uuid('f5lxx1zz5pnorynqglhzmsp34');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base36_decode_bigint('1y2p0ij32e8e8');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base36_decode_bigint('3w5e11264sgsf');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base36_encode(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base16_decode_bigint('xyz');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base62_decode_uuid('');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base62_decode_uuid('abc-def');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base36_decode_uuid(repeat('0', 26));
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base16_decode_uuid(repeat('f', 33));
\echo :LAST_ERROR_SQLSTATE

-- base32hex of a uuid, as PostgreSQL 19's rtrim(encode(u::bytea, 'base32hex'), '=') writes it (the
-- comparison with core's, for 100,000 UUIDs, is test/t/codec.pl's on 19): the ends, sorting, and
-- back with or without the padding, in either case.
SELECT idgen.base32hex_encode('00000000-0000-0000-0000-000000000000') AS nil,
       idgen.base32hex_encode('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       idgen.base32hex_encode('0190b4d5-e1a2-7c3b-8d4e-5f60718293a4') AS v7;
SELECT idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJKG') AS upper,
       idgen.base32hex_decode_uuid('0690b9e1k8u3n3ae7t0e32cjkg======') AS lower_padded;
SELECT count(*) FILTER (WHERE idgen.base32hex_decode_uuid(idgen.base32hex_encode(u)) <> u) AS round_trip_errors,
       count(*) FILTER (WHERE (idgen.base32hex_encode(u) COLLATE "C" < idgen.base32hex_encode(v) COLLATE "C") <> (u < v)) AS order_errors
FROM (SELECT gen_random_uuid() AS u, gen_random_uuid() AS v FROM generate_series(1, 10000)) s;
SELECT idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJK');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJKW');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJKH');
\echo :LAST_ERROR_SQLSTATE
-- What PostgreSQL 19's decode(..., 'base32hex') reads after a uuid's 26 digits, idgen reads as the
-- same uuid: '=' padding of any length (none, part of it, all of it, more), and spaces, tabs and
-- newlines anywhere. What decode() refuses is 22P02: a digit after the padding, '=' where padding
-- cannot start (after 25 digits: 1 of a group of 8), a character outside the alphabet.
SELECT pad, idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJKG' || repeat('=', pad)) AS id
FROM generate_series(0, 9) AS pad;
SELECT idgen.base32hex_decode_uuid(E' 0690b9e1 K8U3N3AE\t7T0E32CJKG\r\n= ===') AS spaced;
SELECT idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJKG==0');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJK=');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base32hex_decode_uuid('0690B9E1K8U3N3AE7T0E32CJKG=.');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.base32hex_decode_uuid(' = ');
\echo :LAST_ERROR_SQLSTATE

DROP EXTENSION idgen;
