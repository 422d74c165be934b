-- idgen 1.0 -> 1.2: what 1.1 added, then what 1.2 changed (the second half is idgen--1.1--1.2.sql
-- after its guard, word for word, less the repairs of what only 1.1 made: test/multi/upgrade.sh
-- checks it). A trusted 1.0 install left its
-- schema to the database owner who installed it: the first statement refuses anything but idgen's
-- own objects in it, and every name below is qualified (see idgen--1.2.sql).
\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit

DO $guard$
DECLARE
  extension_oid pg_catalog.oid;
  schema_oid pg_catalog.oid;
  strangers pg_catalog.text;
BEGIN
  SELECT e.oid, e.extnamespace INTO extension_oid, schema_oid
  FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name;
  SELECT pg_catalog.string_agg(o.what, ', ' ORDER BY o.what) INTO strangers FROM (
    SELECT 'function ' OPERATOR(pg_catalog.||) p.oid::pg_catalog.regprocedure::pg_catalog.text AS what
      FROM pg_catalog.pg_proc p
     WHERE p.pronamespace OPERATOR(pg_catalog.=) schema_oid
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                          AND d.objid OPERATOR(pg_catalog.=) p.oid
                          AND d.refobjid OPERATOR(pg_catalog.=) extension_oid
                          AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char)
    UNION ALL
    SELECT 'relation ' OPERATOR(pg_catalog.||) c.oid::pg_catalog.regclass::pg_catalog.text
      FROM pg_catalog.pg_class c
     WHERE c.relnamespace OPERATOR(pg_catalog.=) schema_oid
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                          AND d.objid OPERATOR(pg_catalog.=) c.oid
                          AND d.deptype OPERATOR(pg_catalog.=) ANY ('{e,a,i}'::pg_catalog.char[]))
    UNION ALL
    SELECT 'type ' OPERATOR(pg_catalog.||) t.oid::pg_catalog.regtype::pg_catalog.text
      FROM pg_catalog.pg_type t
     WHERE t.typnamespace OPERATOR(pg_catalog.=) schema_oid
       AND t.typrelid OPERATOR(pg_catalog.=) 0::pg_catalog.oid
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_type e WHERE e.typarray OPERATOR(pg_catalog.=) t.oid)
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
                          AND d.objid OPERATOR(pg_catalog.=) t.oid
                          AND d.refobjid OPERATOR(pg_catalog.=) extension_oid
                          AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char)
    UNION ALL
    SELECT 'operator ' OPERATOR(pg_catalog.||) o.oid::pg_catalog.regoperator::pg_catalog.text
      FROM pg_catalog.pg_operator o
     WHERE o.oprnamespace OPERATOR(pg_catalog.=) schema_oid
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
                          AND d.objid OPERATOR(pg_catalog.=) o.oid
                          AND d.refobjid OPERATOR(pg_catalog.=) extension_oid
                          AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char)
    UNION ALL
    SELECT 'operator family ' OPERATOR(pg_catalog.||) f.opfname::pg_catalog.text
      FROM pg_catalog.pg_opfamily f
     WHERE f.opfnamespace OPERATOR(pg_catalog.=) schema_oid
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_opfamily'::pg_catalog.regclass
                          AND d.objid OPERATOR(pg_catalog.=) f.oid
                          AND d.refobjid OPERATOR(pg_catalog.=) extension_oid
                          AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char)
    UNION ALL
    SELECT 'function owned by a non-superuser ' OPERATOR(pg_catalog.||) p.oid::pg_catalog.regprocedure::pg_catalog.text
      FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) p.proowner
     WHERE p.pronamespace OPERATOR(pg_catalog.=) schema_oid AND NOT r.rolsuper
    UNION ALL
    SELECT 'operator owned by a non-superuser ' OPERATOR(pg_catalog.||) o.oid::pg_catalog.regoperator::pg_catalog.text
      FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) o.oprowner
     WHERE o.oprnamespace OPERATOR(pg_catalog.=) schema_oid AND NOT r.rolsuper
    UNION ALL
    SELECT 'collation ' OPERATOR(pg_catalog.||) l.collname::pg_catalog.text
      FROM pg_catalog.pg_collation l WHERE l.collnamespace OPERATOR(pg_catalog.=) schema_oid
    UNION ALL
    SELECT 'conversion ' OPERATOR(pg_catalog.||) v.conname::pg_catalog.text
      FROM pg_catalog.pg_conversion v WHERE v.connamespace OPERATOR(pg_catalog.=) schema_oid
  ) o;
  IF strangers IS NOT NULL THEN
    RAISE EXCEPTION 'schema "idgen" holds objects that are not part of extension idgen: %', strangers
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Objects in the schema of idgen''s functions can take the place of idgen''s own in calls of idgen.*.',
            HINT = 'Move or drop those objects, then run ALTER EXTENSION idgen UPDATE again.';
  END IF;
  -- Every trusted 1.0 install left the schema to the database owner who installed it.
  IF NOT (SELECT r.rolsuper FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r
           ON r.oid OPERATOR(pg_catalog.=) n.nspowner WHERE n.oid OPERATOR(pg_catalog.=) schema_oid) THEN
    -- A session of the schema's owner could be creating an object in it right now, checked against
    -- her rights and committed after this script (found by an adversarial pass): the schema changes
    -- hands only while no other session is connected to this database, here and at the script's end.
    IF EXISTS (SELECT FROM pg_catalog.pg_stat_activity a
               WHERE a.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()
                 AND a.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
                 AND a.backend_type OPERATOR(pg_catalog.=) 'client backend'::pg_catalog.text) THEN
      RAISE EXCEPTION 'schema "idgen" belongs to a role that is not a superuser, and other sessions are connected to this database'
        USING ERRCODE = 'object_in_use',
              DETAIL = 'idgen hands its schema to the superuser; a session connected meanwhile could still add a function to it under its owner''s rights.',
              HINT = 'Run this again while no other session is connected to the database (or drop the empty schema idgen first, before CREATE EXTENSION).';
    END IF;
    PERFORM pg_catalog.set_config('idgen_install.schema_taken_over', 'on', true);
    EXECUTE pg_catalog.format('ALTER SCHEMA idgen OWNER TO %I', CURRENT_USER);
  END IF;
END
$guard$;

---------------------------------------------------------------------------------------------------
-- What idgen 1.1 added.
---------------------------------------------------------------------------------------------------

-- Generators whose order is per process without shared state run in a parallel query's leader;
-- tokens read a secret that parallel workers do not get.
ALTER FUNCTION idgen.uuidv7() PARALLEL RESTRICTED;
ALTER FUNCTION idgen.typeid(text, boolean, text) PARALLEL RESTRICTED;
ALTER FUNCTION idgen.objectid() PARALLEL RESTRICTED;
ALTER FUNCTION idgen.signed_token(text) PARALLEL RESTRICTED;
ALTER FUNCTION idgen.verify_token(text) PARALLEL RESTRICTED;
REVOKE EXECUTE ON FUNCTION idgen.signed_token(text) FROM PUBLIC;

COMMENT ON FUNCTION idgen.uuidv7() IS
'a new UUIDv7: Unix milliseconds, a sub-millisecond fraction, a 4-bit counter and 58 random bits; strictly increasing across the server when its state is shared, per session otherwise';
COMMENT ON FUNCTION idgen.uuidv7_time(uuid) IS
'the instant a UUIDv7 holds, to the microsecond: always in the millisecond of its 48-bit field, and never below idgen.uuidv7_min of it';

CREATE FUNCTION idgen.uuidv7(shift interval) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_shift'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.uuidv7(interval) IS
'a new UUIDv7 whose time is the current time shifted by the interval (as PostgreSQL 18''s uuidv7(shift)); a constant shift keeps the order';

-- The comparison operators of objectid move to pg_catalog, which every search_path searches first;
-- they keep their OIDs, so indexes and operator classes built on them are untouched.
ALTER OPERATOR idgen.< (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.<= (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.= (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.<> (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.>= (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.> (idgen.objectid, idgen.objectid) SET SCHEMA pg_catalog;

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

---------------------------------------------------------------------------------------------------
-- DecimalId: counter * 10^10 + generator_id * 10^5 + launch_id. One generator per server and
-- start of the server; generator ids are the server's, never used twice.
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
RETURN CASE WHEN value OPERATOR(pg_catalog.>=) 1 AND servers OPERATOR(pg_catalog.>=) 1
            THEN (((value OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.%) servers) OPERATOR(pg_catalog.+) 1)::pg_catalog.int4 END;
COMMENT ON FUNCTION idgen.ticket_server(bigint, int) IS
'the ticket server (1 to servers) a value of ticket_sequence came from; NULL for a value below 1';

CREATE FUNCTION idgen.range_server(value bigint, range_size bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN value OPERATOR(pg_catalog.>=) 1 AND range_size OPERATOR(pg_catalog.>=) 1
            THEN (value OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog./) range_size END;
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
  IF family = 'trace' THEN
    RAISE EXCEPTION 'TraceIds cannot key a column'
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'Their 25-bit seconds wrap every 388 days: a key of TraceIds would repeat itself 388 days after its first row.',
            HINT = 'Choose snowflake, sonyflake, js or uid20 for a node-wide key, or instagram with a shard.';
  END IF;
  generator := CASE family
    WHEN 'instagram' THEN format('idgen.instagram_id(%s)', shard)
    WHEN 'snowflake' THEN 'idgen.snowflake_id()'
    WHEN 'sonyflake' THEN 'idgen.sonyflake_id()'
    WHEN 'js' THEN 'idgen.js_id()'
    WHEN 'uid20' THEN 'idgen.uid20()'
    WHEN 'decimal_id' THEN 'idgen.decimal_id()'
  END;
  IF generator IS NULL THEN
    RAISE EXCEPTION 'unknown family "%"', family
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'The families with bigint IDs that can key a column: instagram (with a shard), snowflake, sonyflake, js, uid20, decimal_id.';
  END IF;
  -- No row can arrive until this transaction ends: the check and the new default hold together.
  EXECUTE format('LOCK TABLE %s IN EXCLUSIVE MODE', tbl);
  EXECUTE format('SELECT max(%I) FROM %s', col, tbl) INTO current_max;
  -- The first new ID: the generator's next, above which it only goes (DecimalIds only per generator:
  -- their floor is the smallest DecimalId).
  EXECUTE 'SELECT ' || generator INTO first_id;
  floor_id := CASE WHEN family = 'decimal_id' THEN 10000000000 ELSE first_id END;
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
'turns a bigserial or identity bigint column into one whose default is an idgen generator (instagram with a shard, snowflake, sonyflake, js, uid20, decimal_id), after checking that new IDs start above every existing value; keeps the type, foreign keys and values';

-- The registry stays true: a dropped table leaves it (a renamed one needs nothing: the registry
-- holds its OID, and pg_dump writes its current name). The event trigger runs on every DROP in the
-- database, as the superuser that owns it: search_path is pinned and every name qualified.
CREATE FUNCTION idgen.prefix_registry_forget_dropped() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  DELETE FROM idgen.prefix_registry AS r
  USING pg_catalog.pg_event_trigger_dropped_objects() AS o
  WHERE o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
    AND o.objsubid OPERATOR(pg_catalog.=) 0
    AND r.tbl::pg_catalog.oid OPERATOR(pg_catalog.=) o.objid;
END
$$;
REVOKE ALL ON FUNCTION idgen.prefix_registry_forget_dropped() FROM PUBLIC;
COMMENT ON FUNCTION idgen.prefix_registry_forget_dropped() IS
'event trigger function: removes the prefixes of dropped tables from idgen.prefix_registry';

CREATE EVENT TRIGGER idgen_prefix_registry_forget_dropped ON sql_drop
EXECUTE FUNCTION idgen.prefix_registry_forget_dropped();
COMMENT ON EVENT TRIGGER idgen_prefix_registry_forget_dropped IS
'keeps idgen.prefix_registry true: a dropped table leaves it';

GRANT SELECT, INSERT, UPDATE, DELETE ON idgen.prefix_registry TO @extowner@;

---------------------------------------------------------------------------------------------------
-- What idgen 1.2 changed: word for word the rest of idgen--1.1--1.2.sql.
---------------------------------------------------------------------------------------------------

---------------------------------------------------------------------------------------------------
-- The schema's privileges: USAGE for everyone, nothing else for anyone but its superuser owner.
---------------------------------------------------------------------------------------------------

DO $acl$
DECLARE
  grantee pg_catalog.oid;
BEGIN
  FOR grantee IN
    SELECT DISTINCT a.grantee FROM pg_catalog.pg_namespace n, pg_catalog.aclexplode(n.nspacl) a
    WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name
      AND a.grantee OPERATOR(pg_catalog.<>) n.nspowner AND a.grantee OPERATOR(pg_catalog.<>) 0::pg_catalog.oid
  LOOP
    EXECUTE pg_catalog.format('REVOKE ALL ON SCHEMA idgen FROM %I CASCADE', pg_catalog.pg_get_userbyid(grantee));
  END LOOP;
END
$acl$;
REVOKE ALL ON SCHEMA idgen FROM PUBLIC;
GRANT USAGE ON SCHEMA idgen TO PUBLIC;

---------------------------------------------------------------------------------------------------
-- Function bodies and constraints whose names were resolved when they were created, in a schema the
-- database owner may have filled: made again with every name qualified. define_id_type creates its
-- domains where the caller's own objects go.
---------------------------------------------------------------------------------------------------

-- The domain goes where the caller's own objects go: in the schema type_name names, or in the
-- caller's current schema (the first existing schema of the caller's search_path), owned by the
-- caller, so that pg_dump dumps it with the tables that use it. So this function does not pin
-- search_path (that would make current_schema() pg_catalog): every name in its body is qualified.
CREATE OR REPLACE FUNCTION idgen.define_id_type(prefix text, type_name text) RETURNS regtype
LANGUAGE plpgsql VOLATILE STRICT AS $$
DECLARE
  parts pg_catalog.text[] := pg_catalog.parse_ident(type_name);
  target pg_catalog.text;
BEGIN
  PERFORM idgen.typeid_from_uuid(prefix, '00000000-0000-0000-0000-000000000000'::pg_catalog.uuid);  -- checks the prefix rule
  IF pg_catalog.cardinality(parts) OPERATOR(pg_catalog.>) 2 THEN
    RAISE EXCEPTION 'type name "%" has too many dots', type_name
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Name the domain as name or schema.name.';
  END IF;
  IF pg_catalog.cardinality(parts) OPERATOR(pg_catalog.=) 1 THEN
    IF pg_catalog.current_schema() IS NULL THEN
      RAISE EXCEPTION 'no schema has been selected to create in'
        USING ERRCODE = 'invalid_schema_name',
              HINT = 'Name the schema with the type (schema.name), or set search_path to a schema that exists.';
    END IF;
    parts := pg_catalog.array_prepend(pg_catalog.current_schema()::pg_catalog.text, parts);
  END IF;
  IF parts[1] OPERATOR(pg_catalog.=) ANY ('{pg_catalog,idgen,information_schema,pg_toast}'::pg_catalog.text[]) THEN
    RAISE EXCEPTION 'idgen does not create types in schema "%"', parts[1]
      USING ERRCODE = 'invalid_schema_name',
            HINT = 'Create the type in one of your own schemas: pg_dump does not dump system schemas, and schema idgen holds idgen''s objects only.';
  END IF;
  target := pg_catalog.quote_ident(parts[1]) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(parts[2]);
  -- The domain stores one text per ID: idgen's lowercase base36 form only, so that a unique index
  -- on the text is unique on the ID; in the C collation, so that its order is the IDs' time order.
  EXECUTE pg_catalog.format('CREATE DOMAIN %s AS pg_catalog.text COLLATE pg_catalog."C" CHECK (VALUE OPERATOR(pg_catalog.~) %L AND idgen.typeid_is_valid(VALUE, %L)) DEFAULT idgen.typeid(%L)',
                            target, '^' OPERATOR(pg_catalog.||) prefix OPERATOR(pg_catalog.||) '_[0-9a-z]{25}$', prefix, prefix);
  EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', target,
                            'typeid with prefix ' OPERATOR(pg_catalog.||) prefix OPERATOR(pg_catalog.||) ' (idgen.define_id_type)');
  RETURN pg_catalog.to_regtype(target);
END
$$;
COMMENT ON FUNCTION idgen.define_id_type(text, text) IS
'creates a domain over text for IDs with this prefix, in the named schema or the caller''s current one, owned by the caller: it checks the prefix and the canonical form, and defaults to a new idgen.typeid(prefix)';

-- The prefix registry: a trusted install gives the database owner who installed idgen the
-- registry to manage.
GRANT SELECT, INSERT, UPDATE, DELETE ON idgen.prefix_registry TO @extowner@;

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
COMMENT ON FUNCTION idgen.register_prefix(text, regclass) IS
'registers the table whose IDs carry this prefix; a prefix can be registered once';

CREATE OR REPLACE FUNCTION idgen.typeid_table(value text) RETURNS regclass
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN (SELECT r.tbl FROM idgen.prefix_registry AS r
        WHERE r.prefix OPERATOR(pg_catalog.=) (idgen.typeid_parse(value)).prefix);
COMMENT ON FUNCTION idgen.typeid_table(text) IS
'the table registered for the prefix of a typeid, NULL when the prefix is not registered';


CREATE OR REPLACE FUNCTION idgen.prefix_registry_forget_dropped() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  DELETE FROM idgen.prefix_registry AS r
  USING pg_catalog.pg_event_trigger_dropped_objects() AS o
  WHERE o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
    AND o.objsubid OPERATOR(pg_catalog.=) 0
    AND r.tbl::pg_catalog.oid OPERATOR(pg_catalog.=) o.objid;
END
$$;

CREATE OR REPLACE FUNCTION idgen.ticket_server(value bigint, servers int) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN value OPERATOR(pg_catalog.>=) 1 AND servers OPERATOR(pg_catalog.>=) 1
            THEN (((value OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.%) servers) OPERATOR(pg_catalog.+) 1)::pg_catalog.int4 END;
COMMENT ON FUNCTION idgen.ticket_server(bigint, int) IS
'the ticket server (1 to servers) a value of ticket_sequence came from; NULL for a value below 1';

CREATE OR REPLACE FUNCTION idgen.range_server(value bigint, range_size bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN value OPERATOR(pg_catalog.>=) 1 AND range_size OPERATOR(pg_catalog.>=) 1
            THEN (value OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog./) range_size END;
COMMENT ON FUNCTION idgen.range_server(bigint, bigint) IS
'the range server (from 0) a value of range_sequence came from; NULL for a value below 1';

ALTER TABLE idgen.prefix_registry DROP CONSTRAINT prefix_registry_prefix_check;
ALTER TABLE idgen.prefix_registry ADD CONSTRAINT prefix_registry_prefix_check
  CHECK (idgen.typeid_is_valid(prefix OPERATOR(pg_catalog.||) '_0000000000000000000000000', prefix));

---------------------------------------------------------------------------------------------------
-- Grants work for whoever installed idgen: the owner may grant tokens, and dump and restore the
-- registry and the copies of the durable mark.
---------------------------------------------------------------------------------------------------

GRANT EXECUTE ON FUNCTION idgen.signed_token(text) TO @extowner@ WITH GRANT OPTION;

---------------------------------------------------------------------------------------------------
-- convert_column refuses TraceIds (they wrap every 388 days) and names DecimalIds decimal_id.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.convert_column(tbl regclass, col name, family text, shard int DEFAULT NULL) RETURNS text
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
  IF family = 'trace' THEN
    RAISE EXCEPTION 'TraceIds cannot key a column'
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'Their 25-bit seconds wrap every 388 days: a key of TraceIds would repeat itself 388 days after its first row.',
            HINT = 'Choose snowflake, sonyflake, js or uid20 for a node-wide key, or instagram with a shard.';
  END IF;
  generator := CASE family
    WHEN 'instagram' THEN format('idgen.instagram_id(%s)', shard)
    WHEN 'snowflake' THEN 'idgen.snowflake_id()'
    WHEN 'sonyflake' THEN 'idgen.sonyflake_id()'
    WHEN 'js' THEN 'idgen.js_id()'
    WHEN 'uid20' THEN 'idgen.uid20()'
    WHEN 'decimal_id' THEN 'idgen.decimal_id()'
  END;
  IF generator IS NULL THEN
    RAISE EXCEPTION 'unknown family "%"', family
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'The families with bigint IDs that can key a column: instagram (with a shard), snowflake, sonyflake, js, uid20, decimal_id.';
  END IF;
  -- No row can arrive until this transaction ends: the check and the new default hold together.
  EXECUTE format('LOCK TABLE %s IN EXCLUSIVE MODE', tbl);
  EXECUTE format('SELECT max(%I) FROM %s', col, tbl) INTO current_max;
  -- The first new ID: the generator's next, above which it only goes (DecimalIds only per generator:
  -- their floor is the smallest DecimalId).
  EXECUTE 'SELECT ' || generator INTO first_id;
  floor_id := CASE WHEN family = 'decimal_id' THEN 10000000000 ELSE first_id END;
  IF current_max IS NOT NULL AND current_max >= floor_id THEN
    RAISE EXCEPTION 'column "%" of % holds values up to %, not below the first new ID of % (%)', col, tbl, current_max, family, floor_id
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
'turns a bigserial or identity bigint column into one whose default is an idgen generator (instagram with a shard, snowflake, sonyflake, js, uid20, decimal_id), after checking that new IDs start above every existing value; keeps the type, foreign keys and values';


---------------------------------------------------------------------------------------------------
-- Durable marks. The server keeps the high-water mark of its coordinated generators itself (in a
-- replication origin, WAL-logged: it survives restarts, crashes, DROP EXTENSION and failovers, and
-- covers every database). Each database keeps a copy that pg_dump, pg_restore and pg_upgrade carry
-- with its rows: idgen.mark (Unix milliseconds: every ID made in this database lies below it) and
-- idgen.decimal_id_generator (the launch id and the last generator id of the DecimalIds made here).
-- idgen writes them with generic WAL; whoever installed idgen may read them (pg_dump) and set them
-- (pg_restore). A copy ahead of the clock makes this database wait for the clock, never another.
---------------------------------------------------------------------------------------------------

CREATE SEQUENCE idgen.mark AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.mark IS
'durable mark of this database, in Unix milliseconds: every ID of a coordinated family made here lies below it; written by idgen, carried by pg_dump and pg_upgrade';
SELECT pg_catalog.pg_extension_config_dump('idgen.mark', '');
GRANT SELECT, UPDATE ON SEQUENCE idgen.mark TO @extowner@;
GRANT SELECT ON SEQUENCE idgen.mark TO PUBLIC;  -- whoever dumps the database reads it

CREATE SEQUENCE idgen.mark_server AS bigint START 0 MINVALUE -9223372036854775808 NO CYCLE;
COMMENT ON SEQUENCE idgen.mark_server IS
'the system identifier of the server whose mark idgen.mark is; another server''s mark (a restored dump, pg_upgrade) is honored until the clock passes it';
SELECT pg_catalog.pg_extension_config_dump('idgen.mark_server', '');
GRANT SELECT, UPDATE ON SEQUENCE idgen.mark_server TO @extowner@;
GRANT SELECT ON SEQUENCE idgen.mark_server TO PUBLIC;  -- whoever dumps the database reads it

CREATE SEQUENCE idgen.decimal_id_generator AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.decimal_id_generator IS
'the DecimalIds made in this database: launch_id * 100000 + the largest generator id; written by idgen, carried by pg_dump and pg_upgrade';
SELECT pg_catalog.pg_extension_config_dump('idgen.decimal_id_generator', '');
GRANT SELECT, UPDATE ON SEQUENCE idgen.decimal_id_generator TO @extowner@;
GRANT SELECT ON SEQUENCE idgen.decimal_id_generator TO PUBLIC;  -- whoever dumps the database reads it

-- After the clock was set ahead and then right again (the 64-bit generators refuse, the last ID
-- lying far ahead of the clock): a superuser moves the server to a new node id, UID20 server digit
-- and Instagram shard range, then calls this, and every generator carries on from the clock.
CREATE FUNCTION idgen.restart_at_clock() RETURNS text
AS 'MODULE_PATHNAME', 'idgen_restart_at_clock'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
REVOKE EXECUTE ON FUNCTION idgen.restart_at_clock() FROM PUBLIC;
COMMENT ON FUNCTION idgen.restart_at_clock() IS
'superuser only: once idgen.node_id, idgen.uid20_server and idgen.instagram_shards name an identity that no server has used, lowers this server''s durable mark and every generator to the clock, after a clock that jumped ahead and back';

---------------------------------------------------------------------------------------------------
-- pg_partman: time partitioning of tables keyed by idgen's IDs. pg_partman 5.x partitions a uuid
-- or text column by time through an encoder (timestamptz -> the column's lower bound at that time)
-- and a decoder that it calls with the column cast to text. UUIDv7: idgen.uuidv7_min encodes,
-- idgen.uuidv7_text_time decodes; typeid: idgen.typeid_min (in a one-line wrapper that names the
-- prefix) encodes, idgen.typeid_time decodes. The 64-bit families partition by ID ranges whose
-- bounds idgen.<family>_min gives (README, "pg_partman").
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.uuidv7_text_time(id text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF id OPERATOR(pg_catalog.!~) '^[0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12}$' THEN
    RAISE EXCEPTION 'invalid input syntax for a UUIDv7: "%"', pg_catalog."left"(id, 100)
      USING ERRCODE = 'invalid_text_representation',
            HINT = 'A UUID as text is 32 hexadecimal digits, in groups of 8-4-4-4-12 with or without hyphens: pass a uuid cast to text.';
  END IF;
  RETURN idgen.uuidv7_time(CAST(id AS pg_catalog.uuid));
END
$$;
COMMENT ON FUNCTION idgen.uuidv7_text_time(text) IS
'idgen.uuidv7_time of a UUIDv7 written as text: the time decoder pg_partman calls with a uuid column cast to text';

CREATE FUNCTION idgen.typeid_min(prefix text, "at" timestamptz, encoding text DEFAULT 'base36') RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.typeid_from_uuid(prefix, idgen.uuidv7_min("at"), encoding);
COMMENT ON FUNCTION idgen.typeid_min(text, timestamptz, text) IS
'the smallest ordered typeid with the given prefix at the given instant, the bound of a range scan (C collation) and, wrapped per prefix, a pg_partman time encoder';

---------------------------------------------------------------------------------------------------
-- ULID (github.com/ulid/spec): 48-bit Unix milliseconds then 80 bits, as 26 characters of Crockford
-- base32 or as the same 128 bits in a uuid. The generators share UUIDv7's state word and durable
-- mark (strictly increasing across the server when shared): per process otherwise, hence they run
-- in the leader of a parallel query.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.ulid() RETURNS text
AS 'MODULE_PATHNAME', 'idgen_ulid'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.ulid() IS
'a new ULID, 26 uppercase Crockford base32 characters: Unix milliseconds, a sub-millisecond fraction, a 4-bit counter and 64 random bits; strictly increasing across the server when its state is shared, per session otherwise';

CREATE FUNCTION idgen.ulid_uuid() RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_ulid_uuid'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.ulid_uuid() IS
'a new ULID as a uuid (the same 128 bits as idgen.ulid(), 16 bytes): uuid order is ULID order';

CREATE FUNCTION idgen.ulid_to_uuid(value text) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_ulid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ulid_to_uuid(text) IS
'the 128 bits of a ULID as a uuid, bit for bit; reads either case, I and L as 1, O as 0';

CREATE FUNCTION idgen.ulid_from_uuid(id uuid) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_ulid_from_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ulid_from_uuid(uuid) IS
'the ULID text of any uuid, bit for bit (a UUIDv7 gives a ULID of its millisecond)';

CREATE FUNCTION idgen.ulid_time(value text) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_ulid_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ulid_time(text) IS
'the millisecond a ULID holds (its 48-bit field)';

CREATE FUNCTION idgen.ulid_time(id uuid) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_ulid_time_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ulid_time(uuid) IS
'the millisecond a ULID stored as a uuid holds (its first 48 bits)';

CREATE FUNCTION idgen.ulid_min("at" timestamptz) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_ulid_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ulid_min(timestamptz) IS
'the smallest ULID of the millisecond of the given instant, the bound of a range scan (compare under COLLATE "C")';

CREATE FUNCTION idgen.ulid_min_uuid("at" timestamptz) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_ulid_min_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.ulid_min_uuid(timestamptz) IS
'the smallest ULID of the millisecond of the given instant as a uuid, the bound of a range scan on a uuid key';

---------------------------------------------------------------------------------------------------
-- Instagram's logical shards as schemas (and, on Citus, as distributed schemas), or as a column of
-- the rows (a table distributed by it): a schema's table idgen_instagram_shard holds each shard
-- bound to it, its mark (the time before which all its IDs lie) and the run of the server that
-- wrote the mark (idgen.server_instance()), and moves with the rows (citus_schema_move; colocated,
-- citus_move_shard_placement). A BEFORE INSERT trigger fills a row's ID with an Instagram ID of its
-- schema's shard, or of the shard its row names, on the server that stores the row (Citus evaluates
-- a column default on the node that takes the insert, which may not hold the shard); on a server
-- run that did not write the mark (another server, a copy, a restart), after the mark; and it keeps
-- the mark ahead of the IDs in the inserting transaction.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.instagram_id(shard bigint, not_before timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_instagram_id_not_before'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.instagram_id(bigint, timestamptz) IS
'a new Instagram ID of the shard at or after not_before (the mark of a shard that moved from another server): waits for the clock to reach it, up to idgen.max_clock_regression, refuses beyond (55000)';

CREATE FUNCTION idgen.server_instance() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_server_instance'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.server_instance() IS
'a random number drawn at each start of this server, that no copy of it shares: the server run that wrote a shard''s mark (idgen_instagram_shard.mark_server)';

CREATE FUNCTION idgen.bind_instagram_shard(schema regnamespace, shard integer) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  distributed boolean;
  schema_name name := (SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.oid = schema);
BEGIN
  IF shard < 0 OR shard > 8191 THEN
    RAISE EXCEPTION 'shard % is out of range for Instagram IDs', shard
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Instagram shards are between 0 and 8191.';
  END IF;
  IF pg_catalog.to_regclass(pg_catalog.format('%I.idgen_instagram_shard', schema_name)) IS NULL THEN
    -- Citus makes a table created in a distributed schema one of the schema's only at the top
    -- level, not in a function: here it would stay on the coordinator, away from the schema's tables.
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_schema') IS NOT NULL THEN
      EXECUTE 'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_schema WHERE schemaid OPERATOR(pg_catalog.=) $1)'
        INTO distributed USING schema;
      IF distributed THEN
        RAISE EXCEPTION 'schema % is already distributed by Citus', schema
          USING ERRCODE = 'object_not_in_prerequisite_state',
                DETAIL = 'Citus adds a table created by a function to no distributed schema: the shard''s table would stay on the coordinator.',
                HINT = pg_catalog.format('Bind a schema before Citus distributes it: SELECT citus_schema_undistribute(%L); SELECT idgen.bind_instagram_shard(%L, %s); SELECT citus_schema_distribute(%L);',
                                         schema, schema, shard, schema);
      END IF;
    END IF;
    EXECUTE pg_catalog.format(
      'CREATE TABLE %I.idgen_instagram_shard (shard integer PRIMARY KEY CHECK (shard BETWEEN 0 AND 8191), mark timestamptz NOT NULL, mark_server bigint NOT NULL)',
      schema_name);
    EXECUTE pg_catalog.format('COMMENT ON TABLE %I.idgen_instagram_shard IS %L', schema_name,
      'the Instagram shards bound to this schema, each with its mark (every ID made for the shard lies before it) and the run of the server that wrote the mark, idgen.server_instance() (idgen.bind_instagram_shard)');
  END IF;
  -- No ID of the shard yet: a mark at the Unix epoch holds no server back.
  EXECUTE pg_catalog.format('INSERT INTO %I.idgen_instagram_shard VALUES ($1, pg_catalog.to_timestamp(0), $2) ON CONFLICT (shard) DO NOTHING',
                            schema_name)
    USING shard, idgen.server_instance();
END
$$;
COMMENT ON FUNCTION idgen.bind_instagram_shard(regnamespace, integer) IS
'binds an Instagram shard to a schema: a row of the schema''s table idgen_instagram_shard (created on first use: each shard, its mark and the mark''s server), which idgen.instagram_shard_id() reads; on Citus, before citus_schema_distribute, so that the table moves with the schema''s';

CREATE FUNCTION idgen.instagram_shard_id() RETURNS trigger
LANGUAGE plpgsql
-- (Citus hides its shards from the pg_class of client sessions: the trigger reads its own table's.)
SET search_path = pg_catalog, pg_temp SET citus.override_table_visibility = off AS $$
DECLARE
  id_column text := coalesce(TG_ARGV[0], 'id');
  shard_column text := TG_ARGV[1];
  row_json jsonb := pg_catalog.to_jsonb(NEW);
  marks regclass;
  marks_trusted boolean;
  id_type regtype;
  id_filled_elsewhere boolean;
  rows_bound bigint;
  shard_of integer;
  mark timestamptz;
  mark_server bigint;
  here bigint := idgen.server_instance();
  id bigint;
  made timestamptz;
BEGIN
  IF TG_WHEN <> 'BEFORE' OR TG_LEVEL <> 'ROW' OR TG_OP <> 'INSERT' OR TG_NARGS > 2 THEN
    RAISE EXCEPTION 'idgen.instagram_shard_id() must be a BEFORE INSERT ... FOR EACH ROW trigger with at most two arguments'
      USING ERRCODE = 'invalid_object_definition',
            HINT = 'CREATE TRIGGER ... BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id(''id''), or (''id'', ''shard'') to take the shard from a column.';
  END IF;
  IF NOT row_json ? id_column OR NOT row_json ? coalesce(shard_column, id_column) THEN
    RAISE EXCEPTION 'table %.% has no column "%"', TG_TABLE_SCHEMA, TG_TABLE_NAME,
                    CASE WHEN row_json ? id_column THEN shard_column ELSE id_column END
      USING ERRCODE = 'undefined_column',
            HINT = 'The trigger''s arguments name the bigint column that takes the ID (''id'' when there is none) and, where the row names its shard, the column that holds it.';
  END IF;
  -- The table idgen_instagram_shard is read as the role that inserts: only a plain table of the
  -- owner of the table that fires the trigger is read (a view that another role with CREATE on the
  -- schema put there would run its code as that role). The ID column is a bigint that nothing else
  -- fills (a default or an identity would leave the trigger nothing to fill).
  marks := pg_catalog.to_regclass(pg_catalog.format('%I.idgen_instagram_shard', TG_TABLE_SCHEMA));
  SELECT m.relkind = 'r' AND m.relowner = t.relowner, a.atttypid,
         a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> ''
    INTO marks_trusted, id_type, id_filled_elsewhere
    FROM pg_catalog.pg_class t
    JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attname = id_column AND NOT a.attisdropped
    LEFT JOIN pg_catalog.pg_class m ON m.oid = marks
   WHERE t.oid = TG_RELID;
  IF id_type IS DISTINCT FROM 'pg_catalog.int8'::pg_catalog.regtype OR id_filled_elsewhere THEN
    RAISE EXCEPTION 'column "%" of table %.% cannot take Instagram IDs from idgen.instagram_shard_id()', id_column, TG_TABLE_SCHEMA, TG_TABLE_NAME
      USING ERRCODE = 'datatype_mismatch',
            DETAIL = CASE WHEN id_filled_elsewhere THEN 'It has a default, an identity or a generation expression, which fills it before the trigger.'
                          ELSE pg_catalog.format('It is %s; Instagram IDs are bigint.', id_type) END,
            HINT = 'Make the ID column a plain bigint with no default: the trigger fills it.';
  END IF;
  IF marks IS NOT NULL AND NOT marks_trusted THEN
    RAISE EXCEPTION '%.idgen_instagram_shard is not a table of the owner of %.%', pg_catalog.quote_ident(TG_TABLE_SCHEMA),
                    pg_catalog.quote_ident(TG_TABLE_SCHEMA), pg_catalog.quote_ident(TG_TABLE_NAME)
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'idgen_instagram_shard is made by idgen.bind_instagram_shard, as the role that owns the schema''s tables: drop the impostor, bind again as that role.';
  END IF;
  IF row_json -> id_column <> 'null'::jsonb THEN
    RETURN NEW;  -- an ID given by the statement is kept, as over a column default
  END IF;
  IF shard_column IS NOT NULL THEN
    shard_of := CAST(row_json ->> shard_column AS integer);
    IF shard_of IS NULL THEN
      RAISE EXCEPTION 'column "%" of table %.% holds no shard', shard_column, TG_TABLE_SCHEMA, TG_TABLE_NAME
        USING ERRCODE = 'not_null_violation', HINT = 'Insert the row''s logical shard (for a user''s rows, user_id % 2000, say) with it.';
    END IF;
  END IF;
  -- The schema's shard (one row), or the row's (its own row).
  IF marks IS NOT NULL THEN
    EXECUTE pg_catalog.format('SELECT count(*), min(shard), max(mark), min(mark_server), count(*) FILTER (WHERE mark IS NULL OR mark_server IS NULL) FROM %I.idgen_instagram_shard WHERE $1 IS NULL OR shard = $1',
                              TG_TABLE_SCHEMA)
      INTO rows_bound, shard_of, mark, mark_server, id USING shard_of;
    IF id > 0 THEN
      RAISE EXCEPTION 'the mark of Instagram shard % in %.idgen_instagram_shard is NULL', shard_of, pg_catalog.quote_ident(TG_TABLE_SCHEMA)
        USING ERRCODE = 'object_not_in_prerequisite_state',
              HINT = 'Its IDs cannot be placed above the ones made before: set the mark back to the last one (at least), and its columns NOT NULL.';
    END IF;
  END IF;
  IF rows_bound IS DISTINCT FROM 1 THEN
    IF shard_column IS NULL THEN
      RAISE EXCEPTION 'schema % is not bound to one Instagram shard', pg_catalog.quote_ident(TG_TABLE_SCHEMA)
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = pg_catalog.format('Its table idgen_instagram_shard %s.',
                                         CASE WHEN rows_bound IS NULL THEN 'does not exist' ELSE 'holds ' || rows_bound || ' shards' END),
              HINT = pg_catalog.format('Bind it to its shard, once: SELECT idgen.bind_instagram_shard(%L, <shard>);', TG_TABLE_SCHEMA);
    END IF;
    RAISE EXCEPTION 'Instagram shard % is not bound to schema %', CAST(row_json ->> shard_column AS integer), pg_catalog.quote_ident(TG_TABLE_SCHEMA)
      USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = pg_catalog.format('Bind each shard the rows use, once: SELECT idgen.bind_instagram_shard(%L, s) FROM generate_series(0, 1999) s;', TG_TABLE_SCHEMA);
  END IF;
  -- This run of this server has state above every ID it made of the shard; IDs made elsewhere (before
  -- the shard moved here, before a restart, on a server this one was copied from) lie before the mark.
  IF mark_server = here THEN
    id := idgen.instagram_id(shard_of);
  ELSE
    id := idgen.instagram_id(shard_of, mark);
  END IF;
  made := (idgen.instagram_parse(id)).ts;
  -- Every committed ID lies before the committed mark: an ID at or past it moves the mark a second
  -- beyond it in this transaction (a concurrent one that does the same waits for this one's row).
  IF made >= mark OR mark_server <> here THEN
    EXECUTE pg_catalog.format('UPDATE %I.idgen_instagram_shard SET mark = greatest(mark, $1), mark_server = $2 WHERE shard = $3',
                              TG_TABLE_SCHEMA)
      USING made + interval '1 second', here, shard_of;
  END IF;
  RETURN pg_catalog.jsonb_populate_record(NEW, pg_catalog.jsonb_build_object(id_column, id));
END
$$;
COMMENT ON FUNCTION idgen.instagram_shard_id() IS
'trigger (BEFORE INSERT, FOR EACH ROW; arguments: the ID column, default id, and optionally the column holding the row''s shard): fills a NULL ID with an Instagram ID of the shard bound to its schema (idgen.bind_instagram_shard) or named by the row, where the row is stored, after the mark of a server that held the shard before';

---------------------------------------------------------------------------------------------------
-- The last statement. Where this script took schema idgen over from a role that is not a superuser
-- (above), no other session may have connected to the database since: one that did could be adding
-- an object to the schema under its former owner's rights, to commit after this script.
---------------------------------------------------------------------------------------------------

DO $taken$
BEGIN
  IF pg_catalog.current_setting('idgen_install.schema_taken_over', true) OPERATOR(pg_catalog.=) 'on'::pg_catalog.text
     AND EXISTS (SELECT FROM pg_catalog.pg_stat_activity a
                 WHERE a.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()
                   AND a.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
                   AND a.backend_type OPERATOR(pg_catalog.=) 'client backend'::pg_catalog.text) THEN
    RAISE EXCEPTION 'another session connected to this database while schema "idgen" changed hands'
      USING ERRCODE = 'object_in_use',
            DETAIL = 'idgen hands its schema to the superuser; a session connected meanwhile could still add a function to it under its former owner''s rights.',
            HINT = 'Run this again while no other session is connected to the database.';
  END IF;
END
$taken$;
