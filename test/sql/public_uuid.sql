-- Public UUIDs: a UUIDv7 shown as a version-4-shaped façade that hides its time, under
-- idgen.public_uuid_key (uuidv47's mapping, or idgen's opaque one), and back.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never
-- The keys change by ALTER SYSTEM and a reload; log_autovacuum_min_duration changes with them, so
-- that the session can wait until it has read the new configuration (the key shows as ********).

-- UUIDv7s of fixed bits (so that every count below is the same at each run), times below 2^42 ms.
CREATE FUNCTION pg_temp.v7(i int) RETURNS uuid LANGUAGE sql IMMUTABLE
RETURN overlay(overlay(overlay(md5('v7' || i)::text placing '01' from 1 for 2) placing '7' from 13 for 1)
               placing substr('89ab', i % 4 + 1, 1) from 17 for 1)::uuid;
-- Whether a call is refused, and with which SQLSTATE.
CREATE FUNCTION pg_temp.sqlstate_of(call text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'SELECT ' || call;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END
$$;

-- No key: refused, never a façade under an empty key.
SELECT idgen.public_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE

-- A key that is not one is refused where it is set, saying what is wrong and never quoting it (a
-- line of postgresql.conf that holds one is refused at start and at each reload, and makes every
-- call refuse: t/public_uuid.pl).
ALTER SYSTEM SET idgen.public_uuid_key = 'a passphrase of thirty-two bytes or more is not a key';
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET idgen.public_uuid_key = 'efcdab8967452301:1032547698badcfe sealed:000102030405060708090a0b0c0d0e0f';
ALTER SYSTEM SET idgen.public_uuid_key = '0123456789abcdeffedcba987654321';
ALTER SYSTEM SET idgen.public_uuid_key = 'efcdab8967452301:1032547698badcfe 000102030405060708090a0b0c0d0e0f 000102030405060708090a0b0c0d0e0f';
SELECT idgen.public_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE

-- uuidv47's key of its tests and ports (k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210, written as
-- the key's 16 bytes, each half little-endian, as uuidv47's PostgreSQL extension reads uuid47.key).
ALTER SYSTEM SET idgen.public_uuid_key = 'efcdab8967452301:1032547698badcfe';
ALTER SYSTEM SET log_autovacuum_min_duration = 1003;
SELECT pg_reload_conf();
\set ECHO none
\o /dev/null
SELECT 'SELECT pg_sleep(0.02) WHERE current_setting(''log_autovacuum_min_duration'') <> ''1003ms''' FROM generate_series(1, 250) \gexec
\o
\set ECHO all

-- uuidv47's vectors (its README's v7, the Go port's published vectors): idgen makes the peers'
-- façades and reads them.
SELECT v7, idgen.public_uuid(v7) AS facade, idgen.public_uuid(v7) = facade AS same_as_uuidv47,
       idgen.private_uuid(facade) = v7 AS read_back, idgen.private_uuid_candidates(facade) = ARRAY[v7] AS one_reading
FROM (VALUES ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'::uuid, '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f'::uuid),
             ('00000000-0000-7000-8000-000000000000', '22d97126-9609-4000-8000-000000000000'),
             ('00000000-007b-7aaa-8123-456789abcdef', 'b108050e-46b6-4aaa-8123-456789abcdef'),
             ('00000010-007b-7aad-9032-547698badcfe', 'bc75bd50-97ef-4aad-9032-547698badcfe'),
             ('00000020-007b-7aa4-a301-6745ab89efcd', 'a3e09c87-bf85-4aa4-a301-6745ab89efcd')) AS v(v7, facade);

-- 100 000 of idgen's UUIDv7s: each façade is version 4 of the RFC variant, unlike its UUIDv7's time,
-- the same beyond the time, distinct, and read back.
CREATE TEMP TABLE made AS SELECT idgen.uuidv7() AS id FROM generate_series(1, 100000);
CREATE TEMP TABLE shown AS SELECT id, idgen.public_uuid(id) AS facade FROM made;
SELECT count(*) AS facades, count(DISTINCT facade) AS distinct_facades,
       bool_and(substr(facade::text, 15, 1) = '4' AND substr(facade::text, 20, 1) IN ('8', '9', 'a', 'b')) AS v4_shaped,
       bool_and(substr(facade::text, 16) = substr(id::text, 16)) AS rest_kept,
       count(*) FILTER (WHERE left(facade::text, 13) = left(id::text, 13)) AS times_shown,
       bool_and(idgen.private_uuid(facade) = id) AS read_back
FROM shown;
-- Time order is gone: consecutive UUIDv7s' façades are in order about half the time.
SELECT round(avg((facade > prev)::int), 1) AS share_increasing
FROM (SELECT facade, lag(facade) OVER (ORDER BY id) AS prev FROM shown) s WHERE prev IS NOT NULL;

-- Typeids: the prefix and the encoding kept, the body the façade; text and idgen.type_id.
SELECT idgen.public_typeid('user_01hyttsxmaftfrgzxv38p4tqkf') AS base32,
       idgen.private_typeid(idgen.public_typeid('user_01hyttsxmaftfrgzxv38p4tqkf'), 'user') AS back,
       idgen.public_typeid(idgen.typeid_from_uuid('user', '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')) AS base36,
       idgen.typeid_uuid(idgen.public_typeid(idgen.typeid_from_uuid('user', '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')), 'user') AS body,
       idgen.public_typeid('01hyttsxmaftfrgzxv38p4tqkf') AS bare;
SELECT idgen.public_typeid('user_01hyttsxmaftfrgzxv38p4tqkf'::idgen.type_id) AS native,
       idgen.private_typeid(idgen.public_typeid('user_01hyttsxmaftfrgzxv38p4tqkf'::idgen.type_id), 'user')::text AS back;
SELECT count(*) FILTER (WHERE idgen.private_typeid(idgen.public_typeid(t), 'post') <> t) AS text_mismatches,
       count(*) FILTER (WHERE idgen.private_typeid(idgen.public_typeid(n), 'post') <> n) AS native_mismatches,
       bool_and(idgen.typeid_uuid(idgen.public_typeid(t), 'post') = idgen.public_uuid(id)) AS body_is_the_facade
FROM (SELECT id, idgen.typeid_from_uuid('post', id, 'base32') AS t, idgen.type_id_from_uuid('post', id) AS n
      FROM made LIMIT 10000) s;
-- A façade read with another prefix than the one expected (a client swapped it) is refused before
-- its body is read: the error quotes the façade, which the client has, and nothing after the reading
-- can refuse the prefix and quote the reading (the time of a row), as a domain's CHECK on
-- what private_typeid returned would.
SELECT idgen.public_typeid('org_01hyttsxmaftfrgzxv38p4tqkf') AS shown \gset
SELECT idgen.private_typeid(replace(:'shown', 'org_', 'xyz_'), 'org');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_typeid(replace(:'shown', 'org_', 'xyz_')::idgen.type_id, 'org');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_typeid(:'shown', 'org') AS read, idgen.private_typeid(:'shown'::idgen.type_id, 'org')::text AS read_native;
SELECT idgen.define_id_type('org', 'public.org_id', native => true);
SELECT idgen.private_typeid(:'shown'::org_id, 'org')::org_id AS typed;
SELECT idgen.private_typeid(replace(:'shown', 'org_', 'xyz_')::org_id, 'org');
\echo :LAST_ERROR_SQLSTATE
-- Whatever the prefix sent (another, none, a longer one, one the domain refuses), and whichever form,
-- no error holds the reading's body.
CREATE FUNCTION pg_temp.error_of(call text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE m text; d text; h text;
BEGIN
  EXECUTE 'SELECT ' || call;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
  RETURN concat_ws(' ', m, d, h);
END
$$;
SELECT count(*) AS calls, count(*) FILTER (WHERE e = 'ok') AS read,
       count(*) FILTER (WHERE position('01hyttsxmaftfrgzxv38p4tqkf' IN e) > 0) AS quoting_the_reading
FROM (SELECT pg_temp.error_of(format(call, replace(:'shown', 'org_', p))) AS e
      FROM unnest(ARRAY['xyz_', '', 'orgs_', 'org_x_', 'Org_']) AS p,
           unnest(ARRAY['idgen.private_typeid(%L, ''org'')', 'idgen.private_typeid(%L::idgen.type_id, ''org'')',
                        'idgen.private_typeid(%L::org_id, ''org'')::org_id',
                        'idgen.private_typeid(%L, ''xyz'')']) AS call) s;
DROP DOMAIN org_id;
-- A type of one prefix (define_uuid_type) is a uuid's bytes: its façade is the uuid's, cast.
SELECT idgen.define_uuid_type('member', 'public.member_id');
SELECT idgen.public_uuid('member_01hyttsxmaftfrgzxv38p4tqkf'::member_id::uuid)::member_id AS facade,
       idgen.private_uuid(idgen.public_uuid('member_01hyttsxmaftfrgzxv38p4tqkf'::member_id::uuid))::member_id AS back;

-- A lookup of a façade reads the primary key's index: the function runs once, not per row.
CREATE TABLE accounts (id uuid PRIMARY KEY DEFAULT idgen.uuidv7(), n int);
INSERT INTO accounts (id, n) SELECT id, row_number() OVER () FROM made;
CREATE TABLE members (id member_id PRIMARY KEY, n int);
INSERT INTO members SELECT id::member_id, n FROM accounts;
ANALYZE accounts, members;
EXPLAIN (COSTS OFF) SELECT n FROM accounts WHERE id = idgen.private_uuid('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f');
EXPLAIN (COSTS OFF) SELECT n FROM accounts WHERE id = ANY (idgen.private_uuid_candidates('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f'));
EXPLAIN (COSTS OFF) SELECT n FROM members
WHERE id = idgen.private_uuid('member_6mhft4ncg49tfrgzxv38p4tqkf'::member_id::uuid)::member_id;
PREPARE by_facade(uuid) AS SELECT n FROM accounts WHERE id = idgen.private_uuid($1);
SELECT (SELECT n FROM accounts ORDER BY id LIMIT 1) AS first_row;
\set ECHO none
SELECT 'EXECUTE by_facade(' || quote_literal(idgen.public_uuid(id)) || ')' FROM accounts ORDER BY id LIMIT 1 \gexec
\set ECHO all

-- Errors: a UUID that is no UUIDv7 has no façade (22023), nor one too late (22008); a UUID that is
-- no façade is not read (22023), nor one made under another key; text that is no typeid is 22P02.
SELECT idgen.public_uuid('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.public_uuid('018f2d9f-9a2a-1def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.public_uuid('018f2d9f-9a2a-7def-cc3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.public_uuid('03ffffff-ffff-7fff-bfff-ffffffffffff') AS last_millisecond;
SELECT idgen.public_uuid('04000000-0000-7000-8000-000000000000');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_uuid('00000000-0000-0000-0000-000000000000');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_uuid('fa5ade00-0000-4000-8000-000000000000');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_uuid_candidates('fa5ade00-0000-4000-8000-000000000000');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.public_typeid('user_01hyttsxmaftfrgzxv38p4tqkff');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_typeid('User_01hyttsxmaftfrgzxv38p4tqkf', 'user');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf', 'User');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.public_typeid('user_');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.public_typeid(idgen.typeid_from_uuid('user', '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f'));
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf', 'user');
\echo :LAST_ERROR_SQLSTATE
-- Of random UUIDv4s, 63 in 64 are refused as façades of this key (the rest read as some UUIDv7).
SELECT count(*) FILTER (WHERE pg_temp.sqlstate_of(format('idgen.private_uuid(%L)', u)) = '22023') AS refused,
       count(*) AS random_uuids
FROM (SELECT overlay(overlay(md5('r' || i)::text placing '4' from 13 for 1) placing '8' from 17 for 1)::uuid AS u
      FROM generate_series(1, 6400) i) s;

-- Keys that change: the new key makes façades, the old one still reads its own.
CREATE TEMP TABLE old_facades AS SELECT i, pg_temp.v7(i) AS id, idgen.public_uuid(pg_temp.v7(i)) AS facade
FROM generate_series(1, 20000) i;
ALTER SYSTEM SET idgen.public_uuid_key = 'opaque:000102030405060708090a0b0c0d0e0f efcdab8967452301:1032547698badcfe';
ALTER SYSTEM SET log_autovacuum_min_duration = 1004;
SELECT pg_reload_conf();
\set ECHO none
\o /dev/null
SELECT 'SELECT pg_sleep(0.02) WHERE current_setting(''log_autovacuum_min_duration'') <> ''1004ms''' FROM generate_series(1, 250) \gexec
\o
\set ECHO all
-- The opaque mapping's known answer (the unit tests' and the SQL edition's), and what it hides: every
-- field, the sub-millisecond fraction and the counter included.
SELECT idgen.public_uuid('00000000-0000-7000-8000-000000000000') AS opaque_facade;
SELECT count(*) FILTER (WHERE substr(facade::text, 16, 3) = substr(id::text, 16, 3)) AS fractions_shown,
       count(*) FILTER (WHERE substr(facade::text, 25) = substr(id::text, 25)) AS random_bits_shown,
       bool_and(idgen.private_uuid(facade) = id) AS read_back
FROM (SELECT id, idgen.public_uuid(id) AS facade FROM old_facades) s;
-- Façades made under the old key: the candidates always hold the right UUID; idgen.private_uuid
-- takes the new key's reading where both keys read one (1 in 64): another UUIDv7, which no row has.
SELECT count(*) AS old_facades,
       count(*) FILTER (WHERE id = ANY (idgen.private_uuid_candidates(facade))) AS found_by_candidates,
       count(*) FILTER (WHERE cardinality(idgen.private_uuid_candidates(facade)) = 2) AS read_by_both_keys,
       count(*) FILTER (WHERE idgen.private_uuid(facade) = id) AS read_back,
       count(*) FILTER (WHERE idgen.private_uuid(facade) <> id) AS read_as_another
FROM old_facades;
-- What is no façade (a random UUIDv4) reads as one 1 time in 64 per key held: about 1 in 32 under
-- two keys (127 in 4096), and the refusal says so.
SELECT count(*) FILTER (WHERE pg_temp.sqlstate_of(format('idgen.private_uuid(%L)', u)) = '22023') AS refused,
       count(*) AS random_uuids
FROM (SELECT overlay(overlay(md5('r' || i)::text placing '4' from 13 for 1) placing '8' from 17 for 1)::uuid AS u
      FROM generate_series(1, 6400) i) s;
SELECT idgen.private_uuid('fa5ade00-0000-4000-8000-000000000000');
\echo :LAST_ERROR_SQLSTATE
-- A lookup while keys rotate finds every row by the candidates, and all but those by private_uuid.
CREATE TABLE rotating (id uuid PRIMARY KEY);
INSERT INTO rotating SELECT id FROM old_facades;
SELECT count(*) FILTER (WHERE EXISTS (SELECT FROM rotating r WHERE r.id = ANY (idgen.private_uuid_candidates(o.facade)))) AS found_by_candidates,
       count(*) FILTER (WHERE EXISTS (SELECT FROM rotating r WHERE r.id = idgen.private_uuid(o.facade))) AS found_by_private_uuid
FROM old_facades o;
-- The old key removed: its façades are refused, but 1 in 64 per key that reads them as some UUIDv7.
ALTER SYSTEM SET idgen.public_uuid_key = 'opaque:000102030405060708090a0b0c0d0e0f';
ALTER SYSTEM SET log_autovacuum_min_duration = 1005;
SELECT pg_reload_conf();
\set ECHO none
\o /dev/null
SELECT 'SELECT pg_sleep(0.02) WHERE current_setting(''log_autovacuum_min_duration'') <> ''1005ms''' FROM generate_series(1, 250) \gexec
\o
\set ECHO all
SELECT count(*) FILTER (WHERE pg_temp.sqlstate_of(format('idgen.private_uuid(%L)', facade)) = '22023') AS refused,
       count(*) AS old_facades
FROM old_facades;
SELECT idgen.private_uuid('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE

-- Capabilities: not PUBLIC's (the façade of a chosen UUID unmasks others; reading one reads its time).
CREATE ROLE idgen_public_uuid_app;
SET ROLE idgen_public_uuid_app;
SELECT idgen.public_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf'::idgen.type_id, 'user');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
GRANT EXECUTE ON FUNCTION idgen.public_uuid(uuid), idgen.private_uuid(uuid) TO idgen_public_uuid_app;
SET ROLE idgen_public_uuid_app;
SELECT idgen.private_uuid(idgen.public_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')) AS granted;
RESET ROLE;
REVOKE ALL ON FUNCTION idgen.public_uuid(uuid), idgen.private_uuid(uuid) FROM idgen_public_uuid_app;
DROP ROLE idgen_public_uuid_app;

-- The key is a secret held like the others: server configuration only, masked to everyone.
SET idgen.public_uuid_key = '000102030405060708090a0b0c0d0e0f';
\echo :LAST_ERROR_SQLSTATE
SHOW idgen.public_uuid_key;
CREATE ROLE idgen_public_uuid_monitor IN ROLE pg_monitor;
SET ROLE idgen_public_uuid_monitor;
SHOW idgen.public_uuid_key;
RESET ROLE;
DROP ROLE idgen_public_uuid_monitor;
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel, p.proacl IS NOT NULL AND NOT EXISTS (
         SELECT FROM aclexplode(p.proacl) a WHERE a.grantee = 0) AS not_public
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname ~ '^(public|private)_(uuid|typeid)' ORDER BY 1::text;

DROP TABLE accounts, members, rotating;
SET client_min_messages = warning;
DROP TYPE member_id CASCADE;
RESET client_min_messages;
ALTER SYSTEM RESET idgen.public_uuid_key;
ALTER SYSTEM RESET log_autovacuum_min_duration;
SELECT pg_reload_conf();
DROP EXTENSION idgen;
