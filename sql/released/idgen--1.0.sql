-- idgen 1.0: unique IDs generated inside PostgreSQL. Every object lives in schema idgen.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- Every role may use idgen's functions and types; settings that could cause collisions are the
-- superuser's.
GRANT USAGE ON SCHEMA idgen TO PUBLIC;
COMMENT ON SCHEMA idgen IS 'idgen: unique IDs generated inside PostgreSQL';

---------------------------------------------------------------------------------------------------
-- UUIDv7 (RFC 9562)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.uuidv7() RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7() IS
'a new UUIDv7: Unix milliseconds, a sub-millisecond fraction and 62 random bits; strictly increasing across the cluster when idgen is preloaded, per session otherwise';

CREATE FUNCTION idgen.uuidv7("at" timestamptz) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7(timestamptz) IS
'a new UUIDv7 for the given instant (for backfills); its random bits are still random';

CREATE FUNCTION idgen.uuidv7_time(id uuid) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_uuidv7_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7_time(uuid) IS
'the instant a UUIDv7 holds, to the microsecond; an error for other UUID versions';

CREATE FUNCTION idgen.uuidv7_min("at" timestamptz) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7_min(timestamptz) IS
'the smallest UUIDv7 at the given instant, the bound of a primary-key range scan';

---------------------------------------------------------------------------------------------------
-- 64-bit layouts: Instagram, Snowflake, Sonyflake, TraceId. Generators need the library preloaded
-- (their state is in shared memory); decoders and bounds read the epoch setting, hence STABLE.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.instagram_id(shard bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_instagram_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.instagram_id(bigint) IS
'a new Instagram ID: 41-bit milliseconds since 2011-08-24 21:07:01.721 UTC, 13-bit shard, 10-bit sequence per shard';

CREATE FUNCTION idgen.instagram_parse(id bigint, OUT ts timestamptz, OUT shard int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_instagram_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.instagram_parse(bigint) IS
'the time, shard and sequence of an Instagram ID, under the epoch setting idgen.instagram_epoch_ms';

CREATE FUNCTION idgen.instagram_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_instagram_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.instagram_min(timestamptz) IS
'the smallest Instagram ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.snowflake_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_snowflake_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.snowflake_id() IS
'a new Snowflake ID: 41-bit milliseconds since 2010-11-04 01:42:54.657 UTC, 10-bit node (idgen.node_id), 12-bit sequence';

CREATE FUNCTION idgen.snowflake_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_snowflake_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.snowflake_parse(bigint) IS
'the time, node and sequence of a Snowflake ID, under the epoch setting idgen.snowflake_epoch_ms';

CREATE FUNCTION idgen.snowflake_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_snowflake_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.snowflake_min(timestamptz) IS
'the smallest Snowflake ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.sonyflake_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_sonyflake_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.sonyflake_id() IS
'a new Sonyflake ID: 39 bits of 10 ms since 2014-09-01 UTC, 8-bit sequence, 16-bit machine id (idgen.node_id)';

CREATE FUNCTION idgen.sonyflake_parse(id bigint, OUT ts timestamptz, OUT machine_id int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_sonyflake_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.sonyflake_parse(bigint) IS
'the time, machine id and sequence of a Sonyflake ID, under the epoch setting idgen.sonyflake_epoch_ms';

CREATE FUNCTION idgen.sonyflake_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_sonyflake_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.sonyflake_min(timestamptz) IS
'the smallest Sonyflake ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.trace_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_trace_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.trace_id() IS
'a new TraceId ID: 25-bit seconds that wrap every 388 days, 16-bit node (idgen.node_id), 22-bit counter; unique within one wrap period';

CREATE FUNCTION idgen.trace_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_trace_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.trace_parse(bigint) IS
'the time, node and sequence of a TraceId ID, under the epoch setting idgen.trace_epoch_ms';

CREATE FUNCTION idgen.trace_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_trace_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.trace_min(timestamptz) IS
'the smallest TraceId ID at the given instant, the bound of a primary-key range scan';

---------------------------------------------------------------------------------------------------
-- Typed, prefixed IDs: <prefix>_<body>, the body a UUID in base36 (25 characters, idgen's form)
-- or in the TypeID spec's lowercase Crockford base32 (26 characters).
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.typeid(prefix text, ordered boolean DEFAULT true, encoding text DEFAULT 'base36') RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.typeid(text, boolean, text) IS
'a new typeid <prefix>_<body>: the body a UUIDv7 (ordered) or 122 random bits (ordered => false), in base36 (25 characters, sorts like time under the C collation) or base32 (the TypeID spec)';

CREATE FUNCTION idgen.typeid_parse(value text, OUT prefix text, OUT id uuid) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_typeid_parse'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.typeid_parse(text) IS
'the prefix and the UUID of a typeid, in either encoding';

CREATE FUNCTION idgen.typeid_uuid(value text, prefix text) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_typeid_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.typeid_uuid(text, text) IS
'the UUID of a typeid that must have the given prefix; an error (22P02) for any other prefix';

CREATE FUNCTION idgen.typeid_from_uuid(prefix text, id uuid, encoding text DEFAULT 'base36') RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid_from_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.typeid_from_uuid(text, uuid, text) IS
'the typeid of a UUID with the given prefix';

CREATE FUNCTION idgen.typeid_time(value text) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_typeid_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.typeid_time(text) IS
'the instant of an ordered typeid (its body is a UUIDv7); an error for a random body';

CREATE FUNCTION idgen.typeid_is_valid(value text, prefix text) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_is_valid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.typeid_is_valid(text, text) IS
'true when the text is a typeid with this prefix, in either encoding; never an error, for CHECK constraints';

CREATE FUNCTION idgen.define_id_type(prefix text, type_name text) RETURNS regtype
LANGUAGE plpgsql VOLATILE STRICT AS $$
DECLARE
  qualified text;
BEGIN
  PERFORM idgen.typeid_from_uuid(prefix, '00000000-0000-0000-0000-000000000000');  -- checks the prefix rule
  SELECT string_agg(pg_catalog.quote_ident(part), '.') INTO qualified FROM unnest(pg_catalog.parse_ident(type_name)) AS part;
  -- The domain stores one text per ID: idgen's lowercase base36 form only, so that a unique index
  -- on the text is unique on the ID; in the C collation, so that its order is the IDs' time order.
  EXECUTE format('CREATE DOMAIN %s AS text COLLATE "C" CHECK (VALUE ~ %L AND idgen.typeid_is_valid(VALUE, %L)) DEFAULT idgen.typeid(%L)',
                 qualified, '^' || prefix || '_[0-9a-z]{25}$', prefix, prefix);
  EXECUTE format('COMMENT ON DOMAIN %s IS %L', qualified, 'typeid with prefix ' || prefix || ' (idgen.define_id_type)');
  RETURN qualified::regtype;
END
$$;
COMMENT ON FUNCTION idgen.define_id_type(text, text) IS
'creates a domain over text for IDs with this prefix: it checks the prefix and the canonical form, and defaults to a new idgen.typeid(prefix)';

-- The prefix registry: which table each prefix names. Dumped by pg_dump with the database.
CREATE TABLE idgen.prefix_registry (
  prefix text PRIMARY KEY CHECK (idgen.typeid_is_valid(prefix || '_0000000000000000000000000', prefix)),
  tbl regclass NOT NULL
);
COMMENT ON TABLE idgen.prefix_registry IS 'typeid prefixes and the tables whose IDs they name (idgen.register_prefix)';
SELECT pg_catalog.pg_extension_config_dump('idgen.prefix_registry', '');
GRANT SELECT ON idgen.prefix_registry TO PUBLIC;

CREATE FUNCTION idgen.register_prefix(prefix text, tbl regclass) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT AS $$
DECLARE
  current_owner regclass;
BEGIN
  PERFORM idgen.typeid_from_uuid(prefix, '00000000-0000-0000-0000-000000000000');  -- checks the prefix rule
  INSERT INTO idgen.prefix_registry AS r VALUES (register_prefix.prefix, register_prefix.tbl)
  ON CONFLICT ON CONSTRAINT prefix_registry_pkey DO NOTHING;
  IF NOT FOUND THEN
    SELECT r.tbl INTO current_owner FROM idgen.prefix_registry AS r WHERE r.prefix = register_prefix.prefix;
    RAISE EXCEPTION 'prefix "%" is already registered to table %', register_prefix.prefix, current_owner
      USING ERRCODE = 'unique_violation',
            HINT = 'A prefix names one kind of entity. Choose another prefix, or delete its row from idgen.prefix_registry first.';
  END IF;
END
$$;
COMMENT ON FUNCTION idgen.register_prefix(text, regclass) IS
'registers the table whose IDs carry this prefix; a prefix can be registered once';

CREATE FUNCTION idgen.typeid_table(value text) RETURNS regclass
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN (SELECT r.tbl FROM idgen.prefix_registry AS r WHERE r.prefix = (idgen.typeid_parse(value)).prefix);
COMMENT ON FUNCTION idgen.typeid_table(text) IS
'the table registered for the prefix of a typeid, NULL when the prefix is not registered';

---------------------------------------------------------------------------------------------------
-- Signed tokens: <prefix>_<256 random bits><HMAC-SHA256 tag>, base62, under idgen.token_secret.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.signed_token(prefix text) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_signed_token'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.signed_token(text) IS
'a new unguessable token: the prefix, 256 random bits and their HMAC-SHA256 under the server''s secret idgen.token_secret';

CREATE FUNCTION idgen.verify_token(token text) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_verify_token'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.verify_token(text) IS
'true when the token was signed with the server''s current secret (compared in constant time); false for anything else';

---------------------------------------------------------------------------------------------------
-- Encodings: base16, base36, base62 text of bigints (shortest) and uuids (fixed width: 32, 25, 22).
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.base16_encode(value bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_base16_encode_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base16_encode(bigint) IS 'base16 text of a non-negative bigint, shortest form (0-9a-f, either case on input)';

CREATE FUNCTION idgen.base16_encode(value uuid) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_base16_encode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base16_encode(uuid) IS 'base16 text of a uuid, 32 characters, zero-padded so that it sorts like the uuid';

CREATE FUNCTION idgen.base16_decode_bigint(value text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_base16_decode_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base16_decode_bigint(text) IS 'the bigint of base16 text';

CREATE FUNCTION idgen.base16_decode_uuid(value text) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_base16_decode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base16_decode_uuid(text) IS 'the uuid of base16 text (up to 32 characters)';

CREATE FUNCTION idgen.base36_encode(value bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_base36_encode_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base36_encode(bigint) IS 'base36 text of a non-negative bigint, shortest form (0-9a-z, either case on input)';

CREATE FUNCTION idgen.base36_encode(value uuid) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_base36_encode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base36_encode(uuid) IS 'base36 text of a uuid, 25 characters, zero-padded so that it sorts like the uuid';

CREATE FUNCTION idgen.base36_decode_bigint(value text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_base36_decode_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base36_decode_bigint(text) IS 'the bigint of base36 text';

CREATE FUNCTION idgen.base36_decode_uuid(value text) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_base36_decode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base36_decode_uuid(text) IS 'the uuid of base36 text (up to 25 characters)';

CREATE FUNCTION idgen.base62_encode(value bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_base62_encode_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base62_encode(bigint) IS 'base62 text of a non-negative bigint, shortest form (0-9A-Za-z, case-sensitive)';

CREATE FUNCTION idgen.base62_encode(value uuid) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_base62_encode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base62_encode(uuid) IS 'base62 text of a uuid, 22 characters, zero-padded so that it sorts like the uuid';

CREATE FUNCTION idgen.base62_decode_bigint(value text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_base62_decode_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base62_decode_bigint(text) IS 'the bigint of base62 text';

CREATE FUNCTION idgen.base62_decode_uuid(value text) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_base62_decode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base62_decode_uuid(text) IS 'the uuid of base62 text (up to 22 characters)';

---------------------------------------------------------------------------------------------------
-- MongoDB ObjectId: the 12-byte type idgen.objectid, its generator and decoders.
---------------------------------------------------------------------------------------------------

CREATE TYPE idgen.objectid;

CREATE FUNCTION idgen.objectid_in(cstring) RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_in(cstring) IS 'input of objectid: 24 hexadecimal digits, either case';
CREATE FUNCTION idgen.objectid_out(idgen.objectid) RETURNS cstring
AS 'MODULE_PATHNAME', 'idgen_objectid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_out(idgen.objectid) IS 'output of objectid: 24 lowercase hexadecimal digits';
CREATE FUNCTION idgen.objectid_recv(internal) RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_recv(internal) IS 'binary input of objectid: exactly 12 bytes';
CREATE FUNCTION idgen.objectid_send(idgen.objectid) RETURNS bytea
AS 'MODULE_PATHNAME', 'idgen_objectid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_send(idgen.objectid) IS 'binary output of objectid: its 12 bytes';

CREATE TYPE idgen.objectid (
  INPUT = idgen.objectid_in, OUTPUT = idgen.objectid_out,
  RECEIVE = idgen.objectid_recv, SEND = idgen.objectid_send,
  INTERNALLENGTH = 12, ALIGNMENT = char, STORAGE = plain
);
COMMENT ON TYPE idgen.objectid IS 'MongoDB ObjectId: 12 bytes (4-byte seconds, 5-byte process value, 3-byte counter)';

CREATE FUNCTION idgen.objectid_cmp(idgen.objectid, idgen.objectid) RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_objectid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_cmp(idgen.objectid, idgen.objectid) IS 'btree comparison of objectids (byte order)';
CREATE FUNCTION idgen.objectid_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME', 'idgen_objectid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_sortsupport(internal) IS 'sort support of objectid, with abbreviated keys';
CREATE FUNCTION idgen.objectid_hash(idgen.objectid) RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_objectid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_hash(idgen.objectid) IS 'hash of an objectid';
CREATE FUNCTION idgen.objectid_hash_extended(idgen.objectid, bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_objectid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_hash_extended(idgen.objectid, bigint) IS '64-bit seeded hash of an objectid';

CREATE FUNCTION idgen.objectid_lt(idgen.objectid, idgen.objectid) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_objectid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.objectid_lt(idgen.objectid, idgen.objectid) IS 'implementation of < for objectid';
CREATE OPERATOR idgen.< (
  LEFTARG = idgen.objectid, RIGHTARG = idgen.objectid, FUNCTION = idgen.objectid_lt,
  COMMUTATOR = OPERATOR(idgen.>), NEGATOR = OPERATOR(idgen.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR idgen.< (idgen.objectid, idgen.objectid) IS '< for objectid (byte order: time first)';

CREATE FUNCTION idgen.objectid_le(idgen.objectid, idgen.objectid) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_objectid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.objectid_le(idgen.objectid, idgen.objectid) IS 'implementation of <= for objectid';
CREATE OPERATOR idgen.<= (
  LEFTARG = idgen.objectid, RIGHTARG = idgen.objectid, FUNCTION = idgen.objectid_le,
  COMMUTATOR = OPERATOR(idgen.>=), NEGATOR = OPERATOR(idgen.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR idgen.<= (idgen.objectid, idgen.objectid) IS '<= for objectid (byte order: time first)';

CREATE FUNCTION idgen.objectid_eq(idgen.objectid, idgen.objectid) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_objectid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.objectid_eq(idgen.objectid, idgen.objectid) IS 'implementation of = for objectid';
CREATE OPERATOR idgen.= (
  LEFTARG = idgen.objectid, RIGHTARG = idgen.objectid, FUNCTION = idgen.objectid_eq,
  COMMUTATOR = OPERATOR(idgen.=), NEGATOR = OPERATOR(idgen.<>), RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
COMMENT ON OPERATOR idgen.= (idgen.objectid, idgen.objectid) IS '= for objectid (byte order: time first)';

CREATE FUNCTION idgen.objectid_ne(idgen.objectid, idgen.objectid) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_objectid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.objectid_ne(idgen.objectid, idgen.objectid) IS 'implementation of <> for objectid';
CREATE OPERATOR idgen.<> (
  LEFTARG = idgen.objectid, RIGHTARG = idgen.objectid, FUNCTION = idgen.objectid_ne,
  COMMUTATOR = OPERATOR(idgen.<>), NEGATOR = OPERATOR(idgen.=), RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR idgen.<> (idgen.objectid, idgen.objectid) IS '<> for objectid (byte order: time first)';

CREATE FUNCTION idgen.objectid_ge(idgen.objectid, idgen.objectid) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_objectid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.objectid_ge(idgen.objectid, idgen.objectid) IS 'implementation of >= for objectid';
CREATE OPERATOR idgen.>= (
  LEFTARG = idgen.objectid, RIGHTARG = idgen.objectid, FUNCTION = idgen.objectid_ge,
  COMMUTATOR = OPERATOR(idgen.<=), NEGATOR = OPERATOR(idgen.<), RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR idgen.>= (idgen.objectid, idgen.objectid) IS '>= for objectid (byte order: time first)';

CREATE FUNCTION idgen.objectid_gt(idgen.objectid, idgen.objectid) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_objectid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.objectid_gt(idgen.objectid, idgen.objectid) IS 'implementation of > for objectid';
CREATE OPERATOR idgen.> (
  LEFTARG = idgen.objectid, RIGHTARG = idgen.objectid, FUNCTION = idgen.objectid_gt,
  COMMUTATOR = OPERATOR(idgen.<), NEGATOR = OPERATOR(idgen.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR idgen.> (idgen.objectid, idgen.objectid) IS '> for objectid (byte order: time first)';

CREATE OPERATOR CLASS idgen.objectid_ops DEFAULT FOR TYPE idgen.objectid USING btree AS
  OPERATOR 1 idgen.<, OPERATOR 2 idgen.<=, OPERATOR 3 idgen.=, OPERATOR 4 idgen.>=, OPERATOR 5 idgen.>,
  FUNCTION 1 idgen.objectid_cmp(idgen.objectid, idgen.objectid),
  FUNCTION 2 idgen.objectid_sortsupport(internal),
  FUNCTION 4 pg_catalog.btequalimage(oid);
COMMENT ON OPERATOR CLASS idgen.objectid_ops USING btree IS 'default btree operator class of objectid';
COMMENT ON OPERATOR FAMILY idgen.objectid_ops USING btree IS 'btree operators of objectid';

CREATE OPERATOR CLASS idgen.objectid_hash_ops DEFAULT FOR TYPE idgen.objectid USING hash AS
  OPERATOR 1 idgen.=,
  FUNCTION 1 idgen.objectid_hash(idgen.objectid),
  FUNCTION 2 idgen.objectid_hash_extended(idgen.objectid, bigint);
COMMENT ON OPERATOR CLASS idgen.objectid_hash_ops USING hash IS 'default hash operator class of objectid';
COMMENT ON OPERATOR FAMILY idgen.objectid_hash_ops USING hash IS 'hash operators of objectid';

CREATE FUNCTION idgen.objectid_to_bytea(idgen.objectid) RETURNS bytea
AS 'MODULE_PATHNAME', 'idgen_objectid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_to_bytea(idgen.objectid) IS 'the 12 bytes of an objectid';
CREATE FUNCTION idgen.objectid_from_bytea(bytea) RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_from_bytea(bytea) IS 'the objectid of exactly 12 bytes';

-- Explicit casts only: implicit ones make "operator is not unique".
CREATE CAST (idgen.objectid AS text) WITH INOUT;
COMMENT ON CAST (idgen.objectid AS text) IS 'the 24 hexadecimal digits of an objectid';
CREATE CAST (text AS idgen.objectid) WITH INOUT;
COMMENT ON CAST (text AS idgen.objectid) IS 'an objectid from its 24 hexadecimal digits';
CREATE CAST (idgen.objectid AS bytea) WITH FUNCTION idgen.objectid_to_bytea(idgen.objectid);
COMMENT ON CAST (idgen.objectid AS bytea) IS 'the 12 bytes of an objectid';
CREATE CAST (bytea AS idgen.objectid) WITH FUNCTION idgen.objectid_from_bytea(bytea);
COMMENT ON CAST (bytea AS idgen.objectid) IS 'an objectid from exactly 12 bytes';

CREATE FUNCTION idgen.objectid() RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid() IS
'a new ObjectId: Unix seconds, a random value of this session''s process, a counter; increasing per session within a second';

CREATE FUNCTION idgen.objectid("at" timestamptz) RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid(timestamptz) IS 'a new ObjectId for the second of the given instant (for backfills)';

CREATE FUNCTION idgen.objectid_time(id idgen.objectid) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_objectid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_time(idgen.objectid) IS 'the second an ObjectId holds (unsigned: 2038 and later decode correctly)';

CREATE FUNCTION idgen.objectid_min("at" timestamptz) RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid_min' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_min(timestamptz) IS 'the smallest ObjectId at the second of the given instant, the bound of a range scan';

---------------------------------------------------------------------------------------------------
-- Observability
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.stats(
    OUT family text, OUT scope text, OUT issued bigint, OUT exhaustion_waits bigint,
    OUT clock_regressions bigint, OUT max_clock_regression interval)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'idgen_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.stats() IS
'per generator family: IDs issued, waits for an exhausted sequence, calls that found the clock behind the last ID and the largest such gap';

CREATE VIEW idgen.stats AS SELECT * FROM idgen.stats();
GRANT SELECT ON idgen.stats TO PUBLIC;
COMMENT ON VIEW idgen.stats IS
'per generator family: IDs issued, waits for an exhausted sequence, clock regressions; cluster-wide when idgen is preloaded, this session''s otherwise';
