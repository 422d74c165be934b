-- The subjects of make bench: the floors, idgen's generators, and their peers. Run by
-- scripts/bench.sh with :floor_lib set to the compiled floor library.
CREATE EXTENSION idgen;
CREATE EXTENSION pgstattuple;
CREATE SCHEMA bench;

CREATE FUNCTION bench.floor_int8() RETURNS bigint AS :'floor_lib', 'bench_floor_int8' LANGUAGE C VOLATILE;
CREATE FUNCTION bench.floor_int8(bigint) RETURNS bigint AS :'floor_lib', 'bench_floor_int8_arg' LANGUAGE C VOLATILE;
CREATE FUNCTION bench.floor_uuid() RETURNS uuid AS :'floor_lib', 'bench_floor_uuid' LANGUAGE C VOLATILE;

-- nextval() of a bigserial.
CREATE SEQUENCE bench.seq;

-- Instagram's PL/pgSQL next_id(), from its published description (Instagram Engineering,
-- "Sharding & IDs at Instagram", 2011): milliseconds since their epoch << 23, the shard << 10,
-- and nextval() of a per-table sequence modulo 1024.
CREATE SEQUENCE bench.instagram_seq;
CREATE FUNCTION bench.instagram_next_id(OUT result bigint) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  our_epoch bigint := 1314220021721;
  seq_id bigint;
  now_millis bigint;
  shard_id int := 5;
BEGIN
  SELECT nextval('bench.instagram_seq') % 1024 INTO seq_id;
  SELECT floor(extract(epoch FROM clock_timestamp()) * 1000) INTO now_millis;
  result := (now_millis - our_epoch) << 23;
  result := result | (shard_id << 10);
  result := result | seq_id;
END
$$;

-- A 24-character text ObjectId in plain SQL: hex seconds and 16 hex digits of a random UUID.
CREATE FUNCTION bench.sql_objectid() RETURNS text LANGUAGE sql VOLATILE
RETURN lpad(to_hex(floor(extract(epoch FROM clock_timestamp()))::bigint), 8, '0')
       || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16);

-- Times one statement in the server, in milliseconds.
CREATE FUNCTION bench.time_ms(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz := clock_timestamp();
BEGIN
  EXECUTE query;
  RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END
$$;

-- name: as printed; floor: the subject it is compared with; call: the per-call expression (may
-- use g, the generate_series value); key: the column type of the bulk insert (NULL: none);
-- bulk: the column default of the bulk insert (default: call).
CREATE TABLE bench.subjects (
  ord serial, name text PRIMARY KEY, kind text NOT NULL, floor text, call text NOT NULL, key text, bulk text
);
INSERT INTO bench.subjects (name, kind, floor, call, key, bulk) VALUES
  ('floor: C constant int8',        'floor', NULL, 'bench.floor_int8()', 'bigint', NULL),
  ('floor: C constant uuid',        'floor', NULL, 'bench.floor_uuid()', NULL, NULL),
  ('floor: C constant int8(g % 2000)', 'floor', NULL, 'bench.floor_int8(g % 2000)', NULL, NULL),
  ('idgen.instagram_id(g % 2000)',  'idgen', 'floor: C constant int8(g % 2000)', 'idgen.instagram_id(g % 2000)', NULL, NULL),
  ('idgen.instagram_id(5)',         'idgen', 'floor: C constant int8', 'idgen.instagram_id(5)', 'bigint', NULL),
  ('idgen.snowflake_id()',          'idgen', 'floor: C constant int8', 'idgen.snowflake_id()', 'bigint', NULL),
  ('idgen.trace_id()',              'idgen', 'floor: C constant int8', 'idgen.trace_id()', NULL, NULL),
  ('idgen.uuidv7()',                'idgen', 'floor: C constant uuid', 'idgen.uuidv7()', 'uuid', NULL),
  ('idgen.typeid(''post'')',        'idgen', 'floor: C constant uuid', 'idgen.typeid(''post'')', 'text COLLATE "C"', NULL),
  ('idgen.objectid()',              'idgen', 'floor: C constant uuid', 'idgen.objectid()', 'idgen.objectid', NULL),
  ('idgen.js_id()',                 'idgen', 'floor: C constant int8', 'idgen.js_id()', 'bigint', NULL),
  ('idgen.uid20()',                 'idgen', 'floor: C constant int8', 'idgen.uid20()', 'bigint', NULL),
  ('idgen.decimal_id()',            'idgen', 'floor: C constant int8', 'idgen.decimal_id()', 'bigint', NULL),
  ('idgen.ns_id()',                 'idgen', 'floor: C constant uuid', 'idgen.ns_id()', 'text COLLATE "C"', NULL),
  ('idgen.ulid()',                  'idgen', 'floor: C constant uuid', 'idgen.ulid()', NULL, NULL),
  ('idgen.public_id(g)',            'idgen', 'floor: C constant int8(g % 2000)', 'idgen.public_id(g)', NULL, NULL),
  ('idgen.public_uuid(v7)',         'idgen', 'floor: C constant uuid', 'idgen.public_uuid(''018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'')', NULL, NULL),
  ('idgen.private_uuid(façade)',    'idgen', 'floor: C constant uuid', 'idgen.private_uuid(''2463c780-7fca-4def-8c3f-7b1a2c4d5e6f'')', NULL, NULL),
  ('nextval() of a bigserial',      'peer',  'floor: C constant int8', 'nextval(''bench.seq'')', 'bigint', NULL),
  ('Instagram PL/pgSQL next_id()',  'peer',  'floor: C constant int8', 'bench.instagram_next_id()', 'bigint', NULL),
  ('gen_random_uuid()',             'peer',  'floor: C constant uuid', 'gen_random_uuid()', 'uuid', NULL),
  ('SQL text ObjectId',             'peer',  'floor: C constant uuid', 'bench.sql_objectid()', 'text COLLATE "C"', NULL);

-- PostgreSQL 18's own uuidv7(), beside idgen's.
DO $$
BEGIN
  IF to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL THEN
    INSERT INTO bench.subjects (name, kind, floor, call, key)
    VALUES ('uuidv7() (PostgreSQL core)', 'peer', 'floor: C constant uuid', 'pg_catalog.uuidv7()', 'uuid');
  END IF;
END
$$;

-- uuidv47's extension, uuid47 (built from IDGEN_PEERS by scripts/bench.sh), beside idgen.public_uuid:
-- the façade of the same UUIDv7 under the same key (uuid47.key takes the text idgen.public_uuid_key
-- takes), and its reading. Its value is the UUIDv7; its cast to uuid writes the façade.
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_available_extensions WHERE name = 'uuid47') THEN
    CREATE EXTENSION IF NOT EXISTS uuid47;
    EXECUTE format('ALTER DATABASE %I SET uuid47.key = %L', current_database(), 'efcdab8967452301:1032547698badcfe');
    INSERT INTO bench.subjects (name, kind, floor, call, key) VALUES
      ('uuid47_to_uuid(v7) (uuid47)', 'peer', 'floor: C constant uuid', 'uuid47_to_uuid(''018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f''::uuid47)', NULL),
      ('uuid_to_uuid47(façade) (uuid47)', 'peer', 'floor: C constant uuid', 'uuid_to_uuid47(''2463c780-7fca-4def-8c3f-7b1a2c4d5e6f''::uuid)', NULL);
  END IF;
END
$$;

-- Other ID extensions, when they happen to be installed.
DO $$
DECLARE
  peer record;
BEGIN
  FOR peer IN SELECT * FROM (VALUES
      ('uuid-ossp', 'uuid_generate_v4()', 'uuid'), ('uuid-ossp', 'uuid_generate_v1mc()', 'uuid'),
      ('pg_uuidv7', 'uuid_generate_v7()', 'uuid'), ('pgx_ulid', 'gen_ulid()', NULL),
      ('ulid', 'gen_ulid()', NULL), ('pg_idkit', 'idkit_uuidv7_generate_uuid()', 'uuid'))
      AS p(extension, call, key)
  LOOP
    IF EXISTS (SELECT FROM pg_available_extensions WHERE name = peer.extension) THEN
      EXECUTE format('CREATE EXTENSION IF NOT EXISTS %I', peer.extension);
      INSERT INTO bench.subjects (name, kind, floor, call, key)
      VALUES (peer.call || ' (' || peer.extension || ')', 'peer',
              CASE WHEN peer.key = 'uuid' THEN 'floor: C constant uuid' ELSE 'floor: C constant int8' END,
              peer.call, peer.key)
      ON CONFLICT DO NOTHING;
    END IF;
  END LOOP;
END
$$;

-- The subjects of the scaling mode (scripts/bench.sh --scaling): idgen's coordinated families (a
-- state word shared by every session) and their peers. batch: the expression of
-- SELECT count(batch) FROM generate_series(1, 200) AS g; single: of SELECT single (pgbench's :g is
-- random, 0 to 1999); key and insert_default: the insert workload's key column and its default
-- (NULL key: no insert; the key bigserial: nextval() of its own sequence).
CREATE TABLE bench.scaling (
  ord serial, name text PRIMARY KEY, kind text NOT NULL, batch text NOT NULL, single text NOT NULL, key text,
  insert_default text
);
INSERT INTO bench.scaling (name, kind, batch, single, key, insert_default) VALUES
  ('floor: C constant int8', 'floor', 'bench.floor_int8()', 'bench.floor_int8()', NULL, NULL),
  ('nextval() / bigserial', 'peer', 'nextval(''bench.seq'')', 'nextval(''bench.seq'')', 'bigserial', NULL),
  ('gen_random_uuid()', 'peer', 'gen_random_uuid()', 'gen_random_uuid()', 'uuid', 'gen_random_uuid()');
DO $$
BEGIN
  IF to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL THEN
    INSERT INTO bench.scaling (name, kind, batch, single, key, insert_default)
    VALUES ('uuidv7() (PostgreSQL core)', 'peer', 'pg_catalog.uuidv7()', 'pg_catalog.uuidv7()', 'uuid', 'pg_catalog.uuidv7()');
  END IF;
  IF to_regprocedure('public.uuid_generate_v7()') IS NOT NULL THEN
    INSERT INTO bench.scaling (name, kind, batch, single, key, insert_default)
    VALUES ('uuid_generate_v7() (pg_uuidv7)', 'peer', 'uuid_generate_v7()', 'uuid_generate_v7()', 'uuid', 'uuid_generate_v7()');
  END IF;
  -- pgEdge's snowflake, where its sources were at hand (IDGEN_PEERS): a sequence of its own.
  IF EXISTS (SELECT FROM pg_available_extensions WHERE name = 'snowflake') THEN
    CREATE EXTENSION IF NOT EXISTS snowflake;
    CREATE SEQUENCE bench.sf_seq;
    INSERT INTO bench.scaling (name, kind, batch, single, key, insert_default)
    VALUES ('snowflake.nextval() (pgEdge)', 'peer', 'snowflake.nextval(''bench.sf_seq'')',
            'snowflake.nextval(''bench.sf_seq'')', 'bigint', 'snowflake.nextval(''bench.sf_seq'')');
  END IF;
END
$$;
INSERT INTO bench.scaling (name, kind, batch, single, key, insert_default) VALUES
  ('idgen.uuidv7()', 'idgen', 'idgen.uuidv7()', 'idgen.uuidv7()', 'uuid', 'idgen.uuidv7()'),
  ('idgen.snowflake_id()', 'idgen', 'idgen.snowflake_id()', 'idgen.snowflake_id()', 'bigint', 'idgen.snowflake_id()'),
  ('idgen.instagram_id(shard of 2000)', 'idgen', 'idgen.instagram_id(g % 2000)', 'idgen.instagram_id(:g)', 'bigint',
   'idgen.instagram_id(floor(random() * 2000)::int)'),
  ('idgen.trace_id()', 'idgen', 'idgen.trace_id()', 'idgen.trace_id()', 'bigint', 'idgen.trace_id()'),
  ('idgen.ns_id()', 'idgen', 'idgen.ns_id()', 'idgen.ns_id()', 'text COLLATE "C"', 'idgen.ns_id()'),
  ('idgen.uid20()', 'idgen', 'idgen.uid20()', 'idgen.uid20()', 'bigint', 'idgen.uid20()'),
  ('idgen.decimal_id()', 'idgen', 'idgen.decimal_id()', 'idgen.decimal_id()', 'bigint', 'idgen.decimal_id()');

CREATE TABLE bench.per_call (name text, run int, ms float8);
CREATE TABLE bench.bulk (name text, run int, ms float8, heap bigint, index bigint, leaf_density float8);
CREATE TABLE bench.tps (name text, clients int, tps float8);
-- Instructions per row of SELECT count(call) FROM generate_series(...) (callgrind), and of count(g).
CREATE TABLE bench.instructions (name text PRIMARY KEY, per_row float8);
-- The scaling mode: per workload, subject, number of clients and round, pgbench's TPS and the IDs
-- (or rows) a second.
CREATE TABLE bench.scale (workload text, name text, clients int, tps float8, per_second float8, round int);
