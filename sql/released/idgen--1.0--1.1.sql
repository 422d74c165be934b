-- idgen 1.1: exact decodes and bounds, no drift, no privilege leaks, durable marks, PostgreSQL 17
-- and 18. Also what CREATE EXTENSION idgen runs after idgen--1.0.sql: 1.1 = 1.0 + this file.
\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- The schema: idgen's functions must not share it with anyone else's objects. A schema that
-- another role owns, or that already held objects, lets that role plant a better-matching
-- overload (idgen.instagram_id(shard int)) that a superuser's idgen.instagram_id(5) would run.
---------------------------------------------------------------------------------------------------

DO $guard$
DECLARE
  schema_owner pg_catalog.regrole;
  strangers text;
BEGIN
  SELECT n.nspowner::pg_catalog.regrole INTO schema_owner FROM pg_catalog.pg_namespace n WHERE n.nspname = 'idgen';
  IF NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.oid = schema_owner)
     AND schema_owner <> '@extowner@'::pg_catalog.regrole THEN
    RAISE EXCEPTION 'schema "idgen" belongs to role %, which is not a superuser', schema_owner
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'Whoever owns the schema of idgen''s functions can add functions that calls of idgen.* would run.',
            HINT = 'Drop schema idgen, or make a superuser its owner (ALTER SCHEMA idgen OWNER TO postgres), then install idgen again.';
  END IF;
  SELECT pg_catalog.string_agg(o.what, ', ' ORDER BY o.what) INTO strangers FROM (
    SELECT 'function ' || p.oid::pg_catalog.regprocedure::text AS what
      FROM pg_catalog.pg_proc p WHERE p.pronamespace = 'idgen'::pg_catalog.regnamespace
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
                                                            AND d.objid = p.oid AND d.deptype = 'e')
    UNION ALL
    SELECT 'relation ' || c.oid::pg_catalog.regclass::text
      FROM pg_catalog.pg_class c WHERE c.relnamespace = 'idgen'::pg_catalog.regnamespace
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
                                                            AND d.objid = c.oid AND d.deptype IN ('e', 'a', 'i'))
    UNION ALL
    SELECT 'type ' || t.oid::pg_catalog.regtype::text
      FROM pg_catalog.pg_type t WHERE t.typnamespace = 'idgen'::pg_catalog.regnamespace AND t.typrelid = 0
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_type e WHERE e.typarray = t.oid)
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d WHERE d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass
                                                            AND d.objid = t.oid AND d.deptype = 'e')
    UNION ALL
    SELECT 'operator ' || o.oid::pg_catalog.regoperator::text
      FROM pg_catalog.pg_operator o WHERE o.oprnamespace = 'idgen'::pg_catalog.regnamespace
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d WHERE d.classid = 'pg_catalog.pg_operator'::pg_catalog.regclass
                                                            AND d.objid = o.oid AND d.deptype = 'e')
  ) o;
  IF strangers IS NOT NULL THEN
    RAISE EXCEPTION 'schema "idgen" holds objects that are not part of extension idgen: %', strangers
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Functions or operators in the schema of idgen''s functions can take the place of idgen''s own in calls of idgen.*.',
            HINT = 'Move or drop those objects (or the whole schema), then install idgen again.';
  END IF;
  -- A trusted install by a database owner created the schema as that role: hand it to the
  -- superuser that runs this script, so that nobody but superusers can create objects in it.
  IF NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.oid = schema_owner) THEN
    EXECUTE pg_catalog.format('ALTER SCHEMA idgen OWNER TO %I', current_user);
  END IF;
END
$guard$;

---------------------------------------------------------------------------------------------------
-- search_path: every SQL and PL/pgSQL function runs with pg_catalog first and nothing else, so no
-- caller's schema can shadow format(), unnest(), string_agg() or an operator they use.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.define_id_type(prefix text, type_name text) RETURNS regtype
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  qualified text;
BEGIN
  PERFORM idgen.typeid_from_uuid(prefix, '00000000-0000-0000-0000-000000000000');  -- checks the prefix rule
  SELECT string_agg(quote_ident(part), '.') INTO qualified FROM unnest(parse_ident(type_name)) AS part;
  -- The domain stores one text per ID: idgen's lowercase base36 form only, so that a unique index
  -- on the text is unique on the ID; in the C collation, so that its order is the IDs' time order.
  EXECUTE format('CREATE DOMAIN %s AS text COLLATE "C" CHECK (VALUE OPERATOR(pg_catalog.~) %L AND idgen.typeid_is_valid(VALUE, %L)) DEFAULT idgen.typeid(%L)',
                 qualified, '^' || prefix || '_[0-9a-z]{25}$', prefix, prefix);
  EXECUTE format('COMMENT ON DOMAIN %s IS %L', qualified, 'typeid with prefix ' || prefix || ' (idgen.define_id_type)');
  RETURN qualified::regtype;
END
$$;

CREATE OR REPLACE FUNCTION idgen.register_prefix(prefix text, tbl regclass) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
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

CREATE OR REPLACE FUNCTION idgen.typeid_table(value text) RETURNS regclass
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN (SELECT r.tbl FROM idgen.prefix_registry AS r WHERE r.prefix = (idgen.typeid_parse(value)).prefix);

---------------------------------------------------------------------------------------------------
-- The prefix registry stays true: a dropped table leaves it (a renamed one needs nothing: the
-- registry holds its OID, and pg_dump writes its current name).
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.prefix_registry_forget_dropped() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  DELETE FROM idgen.prefix_registry AS r
  USING pg_event_trigger_dropped_objects() AS o
  WHERE o.classid = 'pg_catalog.pg_class'::regclass AND o.objsubid = 0 AND r.tbl::oid = o.objid;
END
$$;
REVOKE ALL ON FUNCTION idgen.prefix_registry_forget_dropped() FROM PUBLIC;
COMMENT ON FUNCTION idgen.prefix_registry_forget_dropped() IS
'event trigger function: removes the prefixes of dropped tables from idgen.prefix_registry';

CREATE EVENT TRIGGER idgen_prefix_registry_forget_dropped ON sql_drop
EXECUTE FUNCTION idgen.prefix_registry_forget_dropped();
COMMENT ON EVENT TRIGGER idgen_prefix_registry_forget_dropped IS
'keeps idgen.prefix_registry true: a dropped table leaves it';

-- A trusted install gives the database owner who installed idgen the registry to manage.
GRANT SELECT, INSERT, UPDATE, DELETE ON idgen.prefix_registry TO @extowner@;

---------------------------------------------------------------------------------------------------
-- Tokens are a capability: granted, not public. They read a secret that parallel workers do not
-- get, so they run in the leader.
---------------------------------------------------------------------------------------------------

REVOKE EXECUTE ON FUNCTION idgen.signed_token(text) FROM PUBLIC;
ALTER FUNCTION idgen.signed_token(text) PARALLEL RESTRICTED;
ALTER FUNCTION idgen.verify_token(text) PARALLEL RESTRICTED;

---------------------------------------------------------------------------------------------------
-- Per-session order holds in parallel queries: generators whose order is per process run in the
-- leader (without shared state, a parallel worker would start its own).
---------------------------------------------------------------------------------------------------

ALTER FUNCTION idgen.uuidv7() PARALLEL RESTRICTED;
ALTER FUNCTION idgen.typeid(text, boolean, text) PARALLEL RESTRICTED;
ALTER FUNCTION idgen.objectid() PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.uuidv7() IS
'a new UUIDv7: Unix milliseconds, a sub-millisecond fraction, a 4-bit counter and 58 random bits; strictly increasing across the server when its state is shared, per session otherwise';
COMMENT ON FUNCTION idgen.uuidv7_time(uuid) IS
'the instant a UUIDv7 holds, to the microsecond: always in the millisecond of its 48-bit field, and never below idgen.uuidv7_min of it';

CREATE FUNCTION idgen.uuidv7(shift interval) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_shift'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.uuidv7(interval) IS
'a new UUIDv7 whose time is the current time shifted by the interval (as PostgreSQL 18''s uuidv7(shift)); a constant shift keeps the order';

---------------------------------------------------------------------------------------------------
-- Durable marks: per family, a sequence whose value lies above every value issued in this
-- database, WAL-logged ahead of use, so that no restart, crash or failover repeats an ID.
---------------------------------------------------------------------------------------------------

CREATE SEQUENCE idgen.uuidv7_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.uuidv7_mark IS
'durable mark of UUIDv7 in this database, in 1/4096 ms since 1970: every UUIDv7 issued here lies below it; written by idgen only';
CREATE SEQUENCE idgen.instagram_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.instagram_mark IS
'durable mark of Instagram IDs in this database, in ms since the epoch: every Instagram ID issued here lies below it; written by idgen only';
CREATE SEQUENCE idgen.snowflake_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.snowflake_mark IS
'durable mark of Snowflake IDs in this database, in ms since the epoch: every Snowflake ID issued here lies below it; written by idgen only';
CREATE SEQUENCE idgen.sonyflake_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.sonyflake_mark IS
'durable mark of Sonyflake IDs in this database, in 10 ms since the epoch: every Sonyflake ID issued here lies below it; written by idgen only';
CREATE SEQUENCE idgen.trace_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.trace_mark IS
'durable mark of TraceId IDs in this database, in seconds since the epoch: every TraceId issued here lies below it; written by idgen only';
SELECT pg_catalog.pg_extension_config_dump('idgen.uuidv7_mark', '');
SELECT pg_catalog.pg_extension_config_dump('idgen.instagram_mark', '');
SELECT pg_catalog.pg_extension_config_dump('idgen.snowflake_mark', '');
SELECT pg_catalog.pg_extension_config_dump('idgen.sonyflake_mark', '');
SELECT pg_catalog.pg_extension_config_dump('idgen.trace_mark', '');

---------------------------------------------------------------------------------------------------
-- ObjectId, usable like a built-in type. Its comparison operators move to pg_catalog, which every
-- search_path searches first: `WHERE id = '507f...'` works with the default search_path, and no
-- operator planted in another schema can take their place. They keep their OIDs, so indexes and
-- operator classes built on them are untouched. min() and max() join them there.
---------------------------------------------------------------------------------------------------

ALTER OPERATOR idgen.< (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.<= (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.= (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.<> (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.>= (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.> (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;

CREATE FUNCTION idgen.objectid_smaller(idgen.objectid, idgen.objectid) RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_smaller(idgen.objectid, idgen.objectid) IS 'the smaller of two objectids, for min()';
CREATE FUNCTION idgen.objectid_larger(idgen.objectid, idgen.objectid) RETURNS idgen.objectid
AS 'MODULE_PATHNAME', 'idgen_objectid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.objectid_larger(idgen.objectid, idgen.objectid) IS 'the larger of two objectids, for max()';

CREATE AGGREGATE pg_catalog.min(idgen.objectid) (
  SFUNC = idgen.objectid_smaller, STYPE = idgen.objectid, COMBINEFUNC = idgen.objectid_smaller,
  SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE
);
COMMENT ON AGGREGATE pg_catalog.min(idgen.objectid) IS 'the smallest objectid (the earliest); can use a btree index';
CREATE AGGREGATE pg_catalog.max(idgen.objectid) (
  SFUNC = idgen.objectid_larger, STYPE = idgen.objectid, COMBINEFUNC = idgen.objectid_larger,
  SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE
);
COMMENT ON AGGREGATE pg_catalog.max(idgen.objectid) IS 'the largest objectid (the latest); can use a btree index';

CREATE OPERATOR CLASS idgen.objectid_minmax_ops DEFAULT FOR TYPE idgen.objectid USING brin AS
  OPERATOR 1 pg_catalog.< (idgen.objectid, idgen.objectid),
  OPERATOR 2 pg_catalog.<= (idgen.objectid, idgen.objectid),
  OPERATOR 3 pg_catalog.= (idgen.objectid, idgen.objectid),
  OPERATOR 4 pg_catalog.>= (idgen.objectid, idgen.objectid),
  OPERATOR 5 pg_catalog.> (idgen.objectid, idgen.objectid),
  FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
  FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
  FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
  FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS idgen.objectid_minmax_ops USING brin IS
'default BRIN (minmax) operator class of objectid: a tiny index for time ranges of append-only tables';
COMMENT ON OPERATOR FAMILY idgen.objectid_minmax_ops USING brin IS 'BRIN minmax operators of objectid';

---------------------------------------------------------------------------------------------------
-- idgen.stats tells the generator's own lead (UUIDv7 beyond 65,536 per millisecond) from a step
-- back of the clock.
---------------------------------------------------------------------------------------------------

DROP VIEW idgen.stats;
DROP FUNCTION idgen.stats();
CREATE FUNCTION idgen.stats(
    OUT family text, OUT scope text, OUT issued bigint, OUT exhaustion_waits bigint,
    OUT clock_regressions bigint, OUT max_clock_regression interval, OUT max_lead interval)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'idgen_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.stats() IS
'per generator family: IDs issued; waits for the clock (a used-up sequence, or UUIDv7 one millisecond ahead); calls that found the clock stepped back behind the last ID, and the largest such step; the furthest a value ran ahead of the clock by its own count';
CREATE VIEW idgen.stats AS SELECT * FROM idgen.stats();
GRANT SELECT ON idgen.stats TO PUBLIC;
COMMENT ON VIEW idgen.stats IS
'per generator family: IDs issued, waits for the clock, steps back of the clock, the generator''s own lead; cluster-wide when the state is shared, this session''s otherwise';

---------------------------------------------------------------------------------------------------
-- JS-safe IDs: a 64-bit-style layout inside 1 .. 2^53 - 1 (38 bits of 10 ms since 2026-01-01,
-- 5-bit node, 10-bit sequence), so that IDs survive JSON.parse() and JavaScript numbers.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.js_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_js_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.js_id() IS
'a new JS-safe ID, 1 to 2^53 - 1: 38 bits of 10 ms since 2026-01-01 UTC, 5-bit node (idgen.node_id, 0 to 31), 10-bit sequence';

CREATE FUNCTION idgen.js_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_js_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.js_parse(bigint) IS
'the time, node and sequence of a JS-safe ID, under the epoch setting idgen.js_epoch_ms';

CREATE FUNCTION idgen.js_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_js_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.js_min(timestamptz) IS
'the smallest JS-safe ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.is_js_safe(value bigint) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_is_js_safe'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.is_js_safe(bigint) IS
'true when the value is from 1 to 2^53 - 1, so that a JavaScript number holds it exactly';

CREATE SEQUENCE idgen.js_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.js_mark IS
'durable mark of JS-safe IDs in this database, in 10 ms since the epoch: every JS-safe ID issued here lies below it; written by idgen only';
SELECT pg_catalog.pg_extension_config_dump('idgen.js_mark', '');

---------------------------------------------------------------------------------------------------
-- 20-digit decimal UIDs (the MySQL BigInt UID scheme): milliseconds (or seconds) since 2011-01-01,
-- a per-tick sequence from a random start, a server digit. Coordinated: never a duplicate on one
-- server, unlike the published scheme's random digits.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.uid20() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_uid20'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uid20() IS
'a new 20-digit UID as a bigint: 13 digits of ms since idgen.uid20_epoch_ms, 6 of sequence, 1 server digit (idgen.uid20_server); an error past 2040-03-24 with the default epoch (use uid20_numeric)';

CREATE FUNCTION idgen.uid20_numeric() RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_uid20_numeric'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uid20_numeric() IS
'a new 20-digit UID as a numeric, for a numeric(20,0) column: the scheme''s whole range, up to 18446744073709551615 (2069 with the default epoch)';

CREATE FUNCTION idgen.uid20_parse(value numeric, OUT ts timestamptz, OUT seq int, OUT server int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_uid20_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uid20_parse(numeric) IS
'the time, sequence and server digit of a 20-digit UID (milliseconds variant), under idgen.uid20_epoch_ms';

CREATE FUNCTION idgen.uid20_sec() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_uid20_sec'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uid20_sec() IS
'a new 20-digit UID, seconds variant: 11 digits of seconds since idgen.uid20_epoch_ms, 8 of sequence, 1 server digit';

CREATE FUNCTION idgen.uid20_sec_parse(value numeric, OUT ts timestamptz, OUT seq int, OUT server int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_uid20_sec_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uid20_sec_parse(numeric) IS
'the time, sequence and server digit of a 20-digit UID (seconds variant), under idgen.uid20_epoch_ms';

CREATE SEQUENCE idgen.uid20_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.uid20_mark IS
'durable mark of 20-digit UIDs in this database, in ms since the epoch: every one issued here lies below it; written by idgen only';
CREATE SEQUENCE idgen.uid20_sec_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.uid20_sec_mark IS
'durable mark of 20-digit UIDs (seconds) in this database, in seconds since the epoch: every one issued here lies below it; written by idgen only';
SELECT pg_catalog.pg_extension_config_dump('idgen.uid20_mark', '');
SELECT pg_catalog.pg_extension_config_dump('idgen.uid20_sec_mark', '');

---------------------------------------------------------------------------------------------------
-- Nanosecond IDs: ns since 1970 << random_bits | random bits, fixed-width text in base36 (or an
-- ascending alphabet): short, case-insensitive, URL-safe, text order = time order.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.ns_id(random_bits int DEFAULT 32, alphabet text DEFAULT '0123456789abcdefghijklmnopqrstuvwxyz')
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_ns_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ns_id(int, text) IS
'a new nanosecond ID: ns since 1970 shifted left by random_bits CSPRNG bits, in fixed-width text of the alphabet (base36 by default); strictly increasing on this server';

CREATE FUNCTION idgen.ns_id_time(value text, random_bits int DEFAULT 32, alphabet text DEFAULT '0123456789abcdefghijklmnopqrstuvwxyz')
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_ns_id_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ns_id_time(text, int, text) IS
'the instant of a nanosecond ID made with these random_bits and alphabet, to the microsecond';

CREATE SEQUENCE idgen.ns_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.ns_mark IS
'durable mark of nanosecond IDs in this database, in ns since 1970: every one issued here lies below it; written by idgen only';
SELECT pg_catalog.pg_extension_config_dump('idgen.ns_mark', '');

---------------------------------------------------------------------------------------------------
-- DecimalId: counter * 10^10 + generator_id * 10^5 + launch_id. One generator per database and
-- start of the server; generator ids come from idgen.decimal_generator and are never reused.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.decimal_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_decimal_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.decimal_id() IS
'a new DecimalId: counter * 10^10 + generator_id * 10^5 + idgen.launch_id, read c...cggggglllll; each generator''s IDs increase';

CREATE FUNCTION idgen.decimal_parse(id bigint, OUT counter bigint, OUT generator_id int, OUT launch_id int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_decimal_parse'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.decimal_parse(bigint) IS
'the counter, generator id and launch id of a DecimalId';

CREATE SEQUENCE idgen.decimal_generator AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.decimal_generator IS
'the DecimalId generator ids this database has taken (the next one is its value): one per start of the server and per counter run out, never reused; written by idgen only';
SELECT pg_catalog.pg_extension_config_dump('idgen.decimal_generator', '');

---------------------------------------------------------------------------------------------------
-- Look-random public IDs: a keyed permutation of 1 .. 2^63 - 1 under idgen.public_id_key. It hides
-- counts and creation order; it does not encrypt. The secret is not given to parallel workers.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.public_id(id bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_public_id'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.public_id(bigint) IS
'the look-random public form of a positive bigint, under the server''s secret idgen.public_id_key (a keyed permutation: idgen.private_id reverses it)';

CREATE FUNCTION idgen.private_id(public_id bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_private_id'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.private_id(bigint) IS
'the bigint whose public form this is (the inverse of idgen.public_id)';

CREATE FUNCTION idgen.public_id_text(id bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_public_id_text'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.public_id_text(bigint) IS
'the public form of a positive bigint as 11 base62 characters';

CREATE FUNCTION idgen.private_id_text(value text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_private_id_text'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.private_id_text(text) IS
'the bigint whose public text form this is (the inverse of idgen.public_id_text)';

---------------------------------------------------------------------------------------------------
-- Ticket servers and partitioned sequences: server k of n the Flickr way (start k, increment n),
-- or its own range the trillion-per-shard way (k * range + 1 .. (k + 1) * range).
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.ticket_sequence(seq regclass, server int, servers int) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s record;
  last bigint;
  first bigint;
BEGIN
  IF servers < 1 OR server < 1 OR server > servers THEN
    RAISE EXCEPTION 'server % of % is not a ticket server', server, servers
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Ticket servers are numbered from 1 to the number of servers.';
  END IF;
  SELECT p.* INTO s FROM pg_sequence p WHERE p.seqrelid = seq;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not a sequence', seq USING ERRCODE = 'wrong_object_type';
  END IF;
  IF s.seqcycle THEN
    RAISE EXCEPTION 'sequence % cycles', seq
      USING ERRCODE = 'object_not_in_prerequisite_state', DETAIL = 'A cycling sequence repeats its values.',
            HINT = format('ALTER SEQUENCE %s NO CYCLE first.', seq);
  END IF;
  last := pg_sequence_last_value(seq);
  IF s.seqincrement = servers AND (last IS NULL OR (last - server) % servers = 0) AND s.seqstart = server THEN
    RETURN;  -- already set up so
  END IF;
  IF last IS NOT NULL AND s.seqincrement <> 1 THEN
    RAISE EXCEPTION 'sequence % is already set up with increment %', seq, s.seqincrement
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Its values so far could repeat those of another ticket server under the new setup.',
            HINT = 'Set up a new sequence for the ticket scheme.';
  END IF;
  -- The first value of the server's residue above every value the sequence gave.
  first := server;
  IF last IS NOT NULL AND last >= server THEN
    first := last + 1 + ((server - last - 1) % servers + servers) % servers;
  END IF;
  IF first > s.seqmax THEN
    RAISE EXCEPTION 'sequence % has no value left for server % of %', seq, server, servers
      USING ERRCODE = 'numeric_value_out_of_range';
  END IF;
  IF last IS NOT NULL THEN
    RAISE NOTICE 'sequence % gave values up to %: every other ticket server must start above it', seq, last;
  END IF;
  EXECUTE format('ALTER SEQUENCE %s INCREMENT BY %s MINVALUE 1 START WITH %s RESTART WITH %s NO CYCLE',
                 seq, servers, server, first);
END
$$;
COMMENT ON FUNCTION idgen.ticket_sequence(regclass, int, int) IS
'sets up a sequence as ticket server k of n (1-based), the Flickr way: start k, increment n; refuses cycling sequences and setups that could repeat values';

CREATE FUNCTION idgen.range_sequence(seq regclass, server int, range_size bigint) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s record;
  last bigint;
  low bigint;
  high bigint;
BEGIN
  IF server < 0 OR range_size < 1 THEN
    RAISE EXCEPTION 'server % with ranges of % is not a range server', server, range_size
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Servers are numbered from 0; a range holds at least 1 value.';
  END IF;
  SELECT p.* INTO s FROM pg_sequence p WHERE p.seqrelid = seq;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not a sequence', seq USING ERRCODE = 'wrong_object_type';
  END IF;
  BEGIN
    low := server::bigint * range_size + 1;
    high := (server::bigint + 1) * range_size;
  EXCEPTION WHEN numeric_value_out_of_range THEN
    RAISE EXCEPTION 'the range of server % (% values each) does not fit a bigint', server, range_size
      USING ERRCODE = 'numeric_value_out_of_range';
  END;
  IF high > s.seqmax AND s.seqtypid <> 'bigint'::regtype THEN
    RAISE EXCEPTION 'the range of server % ends at %, beyond the sequence''s type %', server, high, s.seqtypid::regtype
      USING ERRCODE = 'numeric_value_out_of_range';
  END IF;
  last := pg_sequence_last_value(seq);
  IF last IS NOT NULL AND last > high THEN
    RAISE EXCEPTION 'sequence % gave % already, beyond the range % to % of server %', seq, last, low, high, server
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  IF last IS NOT NULL AND last < low AND server > 0 THEN
    RAISE EXCEPTION 'sequence % gave values up to %, in the range of server %', seq, last, (last - 1) / range_size
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'That server would give them again.', HINT = 'Set up a new sequence for the range scheme.';
  END IF;
  EXECUTE format('ALTER SEQUENCE %s INCREMENT BY 1 MINVALUE %s MAXVALUE %s START WITH %s RESTART WITH %s NO CYCLE',
                 seq, low, high, low, greatest(low, coalesce(last + 1, low)));
END
$$;
COMMENT ON FUNCTION idgen.range_sequence(regclass, int, bigint) IS
'sets up a sequence to give server k (0-based) its own range k * range_size + 1 .. (k + 1) * range_size; refuses ranges that overlap what it gave';

CREATE FUNCTION idgen.ticket_server(value bigint, servers int) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN value >= 1 AND servers >= 1 THEN ((value - 1) % servers + 1)::int END;
COMMENT ON FUNCTION idgen.ticket_server(bigint, int) IS
'the ticket server (1 to servers) a value of ticket_sequence came from; NULL for a value below 1';

CREATE FUNCTION idgen.range_server(value bigint, range_size bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN value >= 1 AND range_size >= 1 THEN (value - 1) / range_size END;
COMMENT ON FUNCTION idgen.range_server(bigint, bigint) IS
'the range server (from 0) a value of range_sequence came from; NULL for a value below 1';

---------------------------------------------------------------------------------------------------
-- Moving an existing table to idgen: a bigserial or identity column gets an idgen generator as its
-- default, once the first new ID is known to be above every existing value.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.convert_column(tbl regclass, col name, family text, shard int DEFAULT NULL) RETURNS text
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  att record;
  generator text;
  current_max bigint;
  first_id bigint;
  floor_id bigint;
BEGIN
  IF tbl IS NULL OR col IS NULL OR family IS NULL THEN
    RAISE EXCEPTION 'table, column and family are required' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  SELECT a.atttypid, a.attidentity, a.attgenerated INTO att
  FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'column "%" of % does not exist', col, tbl USING ERRCODE = 'undefined_column';
  END IF;
  IF att.atttypid <> 'bigint'::regtype THEN
    RAISE EXCEPTION 'column "%" of % is %, not bigint', col, tbl, att.atttypid::regtype
      USING ERRCODE = 'datatype_mismatch', HINT = 'idgen''s IDs need 64 bits: ALTER TABLE ... ALTER COLUMN ... TYPE bigint first.';
  END IF;
  IF att.attgenerated <> '' THEN
    RAISE EXCEPTION 'column "%" of % is a generated column', col, tbl USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  IF (family = 'instagram') <> (shard IS NOT NULL) THEN
    RAISE EXCEPTION 'family % %', family, CASE WHEN shard IS NULL THEN 'needs a shard' ELSE 'takes no shard' END
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  generator := CASE family
    WHEN 'instagram' THEN format('idgen.instagram_id(%s)', shard)
    WHEN 'snowflake' THEN 'idgen.snowflake_id()'
    WHEN 'sonyflake' THEN 'idgen.sonyflake_id()'
    WHEN 'trace' THEN 'idgen.trace_id()'
    WHEN 'js' THEN 'idgen.js_id()'
    WHEN 'uid20' THEN 'idgen.uid20()'
    WHEN 'decimal' THEN 'idgen.decimal_id()'
  END;
  IF generator IS NULL THEN
    RAISE EXCEPTION 'unknown family "%"', family
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'The families with bigint IDs: instagram (with a shard), snowflake, sonyflake, trace, js, uid20, decimal.';
  END IF;
  -- No row can arrive until this transaction ends: the check and the new default hold together.
  EXECUTE format('LOCK TABLE %s IN EXCLUSIVE MODE', tbl);
  EXECUTE format('SELECT max(%I) FROM %s', col, tbl) INTO current_max;
  -- The first new ID: the generator's next, above which it only goes (DecimalIds only per generator:
  -- their floor is the smallest DecimalId).
  EXECUTE 'SELECT ' || generator INTO first_id;
  floor_id := CASE WHEN family = 'decimal' THEN 10000000000 ELSE first_id END;
  IF current_max IS NOT NULL AND current_max >= floor_id THEN
    RAISE EXCEPTION 'column "%" of % holds values up to %, not below the first new % ID %', col, tbl, current_max, family, floor_id
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'New IDs could repeat existing values.',
            HINT = 'Choose a family whose IDs start above the existing values, or renumber them first.';
  END IF;
  IF att.attidentity <> '' THEN
    EXECUTE format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', tbl, col);
  END IF;
  EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', tbl, col, generator);
  RETURN format('%s.%I: values up to %s; the default is now %s, whose IDs start at %s', tbl, col,
                coalesce(current_max::text, 'none'), generator, first_id);
END
$$;
COMMENT ON FUNCTION idgen.convert_column(regclass, name, text, int) IS
'turns a bigserial or identity bigint column into one whose default is an idgen generator (instagram with a shard, snowflake, sonyflake, trace, js, uid20, decimal), after checking that new IDs start above every existing value; keeps the type, foreign keys and values';
