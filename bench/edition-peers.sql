-- The pure-SQL peers of the SQL edition (make bench, scripts/bench.sh edition()): what a team on a
-- managed server would paste instead, written here from the descriptions their authors published
-- (no code copied), each keeping the promise the edition's function keeps, or said otherwise:
--
--   UUIDv7   a PL/pgSQL function with a per-session counter (RFC 9562's method 1: the counter in
--            rand_a, the millisecond and counter kept in a setting of the session), and the plain
--            SQL expression blog posts give (gen_random_uuid() with the time written over its first
--            48 bits and the version set): no order within a millisecond
--   ULID     pgulid's scheme (48-bit milliseconds, 80 random bits, Crockford's base32 computed
--            from the 16 bytes), with a per-session counter as above; and pgulid's own, random
--   typeid   typeid-sql's scheme (the prefix, "_", the UUIDv7 in lowercase Crockford base32 of the
--            16 bytes), on the per-session UUIDv7 above
--   64-bit   Instagram's next_id() of 2011: nextval() % 1024 and the milliseconds since its epoch,
--            as published (SELECT ... INTO) and in assignments (the fastest it goes in PL/pgSQL)
--   decoders the expression one writes by hand for the time of an ID
-- None of them has a SET clause: as pasted.

CREATE SCHEMA IF NOT EXISTS bench_peer;

-- UUIDv7 ----------------------------------------------------------------------------------------------
CREATE FUNCTION bench_peer.uuidv7_session() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  now_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  last bigint := coalesce(nullif(current_setting('bench_peer.uuidv7', true), ''), '0')::bigint;
  word bigint := now_ms << 12;
  b bytea := uuid_send(gen_random_uuid());
BEGIN
  IF word <= last THEN word := last + 1; END IF;          -- same millisecond: the counter steps
  PERFORM set_config('bench_peer.uuidv7', word::text, false);
  b := overlay(b placing substring(int8send(word >> 12) from 3) from 1 for 6);
  b := set_byte(set_byte(b, 6, 112 | ((word >> 8) & 15)::int), 7, (word & 255)::int);
  RETURN encode(b, 'hex')::uuid;
END $$;

CREATE FUNCTION bench_peer.uuidv7_pasted() RETURNS uuid LANGUAGE sql VOLATILE
RETURN encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
  substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid;

-- Crockford's base32 of 16 bytes, 26 characters (2 zero bits first), in an alphabet: typeid-sql's and
-- pgulid's way, byte by byte.
CREATE FUNCTION bench_peer.base32(b bytea, a text) RETURNS text LANGUAGE sql IMMUTABLE
RETURN substr(a, ((get_byte(b, 0) & 224) >> 5) + 1, 1) || substr(a, (get_byte(b, 0) & 31) + 1, 1)
  || substr(a, ((get_byte(b, 1) & 248) >> 3) + 1, 1) || substr(a, (((get_byte(b, 1) & 7) << 2) | ((get_byte(b, 2) & 192) >> 6)) + 1, 1)
  || substr(a, ((get_byte(b, 2) & 62) >> 1) + 1, 1) || substr(a, (((get_byte(b, 2) & 1) << 4) | ((get_byte(b, 3) & 240) >> 4)) + 1, 1)
  || substr(a, (((get_byte(b, 3) & 15) << 1) | ((get_byte(b, 4) & 128) >> 7)) + 1, 1) || substr(a, ((get_byte(b, 4) & 124) >> 2) + 1, 1)
  || substr(a, (((get_byte(b, 4) & 3) << 3) | ((get_byte(b, 5) & 224) >> 5)) + 1, 1) || substr(a, (get_byte(b, 5) & 31) + 1, 1)
  || substr(a, ((get_byte(b, 6) & 248) >> 3) + 1, 1) || substr(a, (((get_byte(b, 6) & 7) << 2) | ((get_byte(b, 7) & 192) >> 6)) + 1, 1)
  || substr(a, ((get_byte(b, 7) & 62) >> 1) + 1, 1) || substr(a, (((get_byte(b, 7) & 1) << 4) | ((get_byte(b, 8) & 240) >> 4)) + 1, 1)
  || substr(a, (((get_byte(b, 8) & 15) << 1) | ((get_byte(b, 9) & 128) >> 7)) + 1, 1) || substr(a, ((get_byte(b, 9) & 124) >> 2) + 1, 1)
  || substr(a, (((get_byte(b, 9) & 3) << 3) | ((get_byte(b, 10) & 224) >> 5)) + 1, 1) || substr(a, (get_byte(b, 10) & 31) + 1, 1)
  || substr(a, ((get_byte(b, 11) & 248) >> 3) + 1, 1) || substr(a, (((get_byte(b, 11) & 7) << 2) | ((get_byte(b, 12) & 192) >> 6)) + 1, 1)
  || substr(a, ((get_byte(b, 12) & 62) >> 1) + 1, 1) || substr(a, (((get_byte(b, 12) & 1) << 4) | ((get_byte(b, 13) & 240) >> 4)) + 1, 1)
  || substr(a, (((get_byte(b, 13) & 15) << 1) | ((get_byte(b, 14) & 128) >> 7)) + 1, 1) || substr(a, ((get_byte(b, 14) & 124) >> 2) + 1, 1)
  || substr(a, (((get_byte(b, 14) & 3) << 3) | ((get_byte(b, 15) & 224) >> 5)) + 1, 1) || substr(a, (get_byte(b, 15) & 31) + 1, 1);

-- ULID ------------------------------------------------------------------------------------------------
CREATE FUNCTION bench_peer.ulid_session() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  now_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  last bigint := coalesce(nullif(current_setting('bench_peer.ulid', true), ''), '0')::bigint;
  word bigint := now_ms << 16;
  b bytea := uuid_send(gen_random_uuid());
BEGIN
  IF word <= last THEN word := last + 1; END IF;           -- a 16-bit counter after the millisecond
  PERFORM set_config('bench_peer.ulid', word::text, false);
  RETURN bench_peer.base32(overlay(b placing int8send(word) from 1 for 8), '0123456789ABCDEFGHJKMNPQRSTVWXYZ');
END $$;

CREATE FUNCTION bench_peer.pgulid() RETURNS text LANGUAGE sql VOLATILE
RETURN bench_peer.base32(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) from 3)
  from 1 for 6), '0123456789ABCDEFGHJKMNPQRSTVWXYZ');

-- typeid ----------------------------------------------------------------------------------------------
CREATE FUNCTION bench_peer.typeid_session(prefix text) RETURNS text LANGUAGE sql VOLATILE
RETURN prefix || '_' || bench_peer.base32(uuid_send(bench_peer.uuidv7_session()), '0123456789abcdefghjkmnpqrstvwxyz');

-- Instagram's next_id() ---------------------------------------------------------------------------------
CREATE SEQUENCE bench_peer.table_id_seq;
CREATE FUNCTION bench_peer.next_id_published(OUT result bigint) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  our_epoch bigint := 1314220021721;
  seq_id bigint;
  now_millis bigint;
  shard_id int := 5;
BEGIN
  SELECT nextval('bench_peer.table_id_seq') % 1024 INTO seq_id;
  SELECT floor(extract(epoch FROM clock_timestamp()) * 1000) INTO now_millis;
  result := (now_millis - our_epoch) << 23;
  result := result | (shard_id << 10);
  result := result | (seq_id);
END $$;

CREATE FUNCTION bench_peer.next_id(shard_id int) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  seq_id bigint := nextval('bench_peer.table_id_seq') % 1024;
  now_millis bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
BEGIN
  RETURN ((now_millis - 1314220021721) << 23) | (shard_id << 10) | seq_id;
END $$;
