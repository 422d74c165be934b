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
