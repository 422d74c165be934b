-- idgen 1.2 -> 1.3. The one script written for 1.3: ALTER EXTENSION idgen UPDATE runs it after the
-- frozen updates from 1.0 or 1.1 to 1.2 (sql/released/), and the build appends it to the frozen
-- complete 1.2 script to make the complete 1.3 script (scripts/complete-script.sh): a fresh install
-- and every update run the same statements.
--
-- It runs as a superuser (a trusted install or update included): every operator, function, cast
-- and type a statement names, or a function body resolves when it is created, is named in
-- pg_catalog or idgen (test/t/plant.pl plants a look-alike of every one and checks none ran).
\echo Use "ALTER EXTENSION idgen UPDATE TO '1.3'" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- The schema. From 1.3 on, idgen lives in a schema that its own script made, in the transaction
-- that installs or updates it, as a member of the extension: no other session can see that schema
-- before the transaction commits, so nothing can have been put in it, by an explicit transaction, a
-- prepared one, or a session that connected at the wrong moment. A schema made before is never
-- used, whoever made it and however empty it looks. A fresh install (the complete script) creates it
-- first of all; an update renames the schema it finds, creates schema idgen, moves every object of
-- the extension into it, and drops the old schema when nothing else is left there (else it stays,
-- renamed, with a warning). The extension's own schema (pg_extension.extnamespace) becomes
-- pg_catalog, as the control file says from 1.3 on, so that a dump restores into a fresh install.
---------------------------------------------------------------------------------------------------

DO $schema$
DECLARE
  ext pg_catalog.oid;
  old_schema pg_catalog.oid;
  old_name pg_catalog.text;
  member record;
  kind pg_catalog.text;
  identity pg_catalog.text;
  statement pg_catalog.text;
  member_owner pg_catalog.oid;
  left_over pg_catalog.int8;
BEGIN
  SELECT e.oid, e.extnamespace INTO ext, old_schema
  FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name;
  -- A fresh install: the complete script made schema idgen, a member of the extension.
  IF EXISTS (SELECT FROM pg_catalog.pg_depend d
             JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) d.objid
             WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
               AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
               AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char
               AND n.nspname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name) THEN
    RETURN;
  END IF;
  IF (SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.oid OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.<>) 'idgen'::pg_catalog.name THEN
    RAISE EXCEPTION 'extension idgen does not live in schema idgen'
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Releases 1.0 to 1.2 of idgen live in schema idgen, which this update moves.',
            HINT = 'Rename the schema that holds idgen''s functions back to idgen, then update.';
  END IF;
  old_name := 'idgen_1_2_' OPERATOR(pg_catalog.||) old_schema::pg_catalog.text;
  EXECUTE pg_catalog.format('ALTER SCHEMA idgen RENAME TO %I', old_name);
  CREATE SCHEMA idgen;
  -- Tables and views first: each takes its indexes, row type and owned sequences along, as a type takes its
  -- array type; what has moved already is skipped.
  FOR member IN
    SELECT d.classid, d.objid
    FROM pg_catalog.pg_depend d, LATERAL pg_catalog.pg_identify_object(d.classid, d.objid, 0) o
    WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char
      AND o.schema OPERATOR(pg_catalog.=) old_name
    ORDER BY d.classid OPERATOR(pg_catalog.<>) 'pg_catalog.pg_class'::pg_catalog.regclass, o.type, o.identity
  LOOP
    SELECT o.type, o.identity INTO kind, identity
    FROM pg_catalog.pg_identify_object(member.classid, member.objid, 0) o
    WHERE o.schema OPERATOR(pg_catalog.=) old_name;
    CONTINUE WHEN NOT FOUND;
    -- idgen's own objects are a superuser's (the one who ran its scripts); a member of another
    -- owner was added to the extension by its owner (ALTER EXTENSION idgen ADD): it leaves the
    -- extension and stays where it is, out of the schema that the new install keeps to itself.
    member_owner := CASE member.classid
      WHEN 'pg_catalog.pg_class'::pg_catalog.regclass THEN
        (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_proc'::pg_catalog.regclass THEN
        (SELECT p.proowner FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_type'::pg_catalog.regclass THEN
        (SELECT t.typowner FROM pg_catalog.pg_type t WHERE t.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_operator'::pg_catalog.regclass THEN
        (SELECT o.oprowner FROM pg_catalog.pg_operator o WHERE o.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_opclass'::pg_catalog.regclass THEN
        (SELECT o.opcowner FROM pg_catalog.pg_opclass o WHERE o.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_opfamily'::pg_catalog.regclass THEN
        (SELECT o.opfowner FROM pg_catalog.pg_opfamily o WHERE o.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_collation'::pg_catalog.regclass THEN
        (SELECT c.collowner FROM pg_catalog.pg_collation c WHERE c.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_conversion'::pg_catalog.regclass THEN
        (SELECT c.conowner FROM pg_catalog.pg_conversion c WHERE c.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_statistic_ext'::pg_catalog.regclass THEN
        (SELECT x.stxowner FROM pg_catalog.pg_statistic_ext x WHERE x.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_ts_config'::pg_catalog.regclass THEN
        (SELECT c.cfgowner FROM pg_catalog.pg_ts_config c WHERE c.oid OPERATOR(pg_catalog.=) member.objid)
      WHEN 'pg_catalog.pg_ts_dict'::pg_catalog.regclass THEN
        (SELECT d.dictowner FROM pg_catalog.pg_ts_dict d WHERE d.oid OPERATOR(pg_catalog.=) member.objid)
    END;
    IF member_owner IS NOT NULL AND NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles r
                                         WHERE r.oid OPERATOR(pg_catalog.=) member_owner) THEN
      DELETE FROM pg_catalog.pg_depend d
      WHERE d.classid OPERATOR(pg_catalog.=) member.classid AND d.objid OPERATOR(pg_catalog.=) member.objid
        AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
        AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char;
      CONTINUE;
    END IF;
    statement := CASE kind
      WHEN 'table' THEN 'TABLE' WHEN 'sequence' THEN 'SEQUENCE' WHEN 'view' THEN 'VIEW'
      WHEN 'function' THEN 'FUNCTION' WHEN 'procedure' THEN 'PROCEDURE' WHEN 'aggregate' THEN 'AGGREGATE'
      WHEN 'type' THEN 'TYPE' WHEN 'domain' THEN 'DOMAIN' WHEN 'composite type' THEN 'TYPE'
      WHEN 'operator' THEN 'OPERATOR'
      WHEN 'operator class' THEN 'OPERATOR CLASS' WHEN 'operator family' THEN 'OPERATOR FAMILY'
      WHEN 'materialized view' THEN 'MATERIALIZED VIEW' WHEN 'foreign table' THEN 'FOREIGN TABLE'
      WHEN 'collation' THEN 'COLLATION' WHEN 'conversion' THEN 'CONVERSION'
      WHEN 'statistics object' THEN 'STATISTICS'
      WHEN 'text search configuration' THEN 'TEXT SEARCH CONFIGURATION'
      WHEN 'text search dictionary' THEN 'TEXT SEARCH DICTIONARY'
      WHEN 'text search parser' THEN 'TEXT SEARCH PARSER' WHEN 'text search template' THEN 'TEXT SEARCH TEMPLATE'
    END;
    IF statement IS NULL THEN  -- (a member idgen never made: ALTER EXTENSION idgen ADD by its owner)
      RAISE EXCEPTION 'idgen cannot move the % % of extension idgen to its new schema', kind, identity
        USING ERRCODE = 'feature_not_supported',
              HINT = 'Take it out of the extension (ALTER EXTENSION idgen DROP ...), then update.';
    END IF;
    -- (an aggregate of no argument is named count(*) in ALTER AGGREGATE, count() by pg_identify_object)
    IF kind OPERATOR(pg_catalog.=) 'aggregate' THEN
      identity := pg_catalog.regexp_replace(identity, '\(\)$', '(*)');
    END IF;
    EXECUTE pg_catalog.format('ALTER %s %s SET SCHEMA idgen', statement, identity);
  END LOOP;
  UPDATE pg_catalog.pg_extension SET extnamespace = 'pg_catalog'::pg_catalog.regnamespace
  WHERE oid OPERATOR(pg_catalog.=) ext;
  DELETE FROM pg_catalog.pg_depend
  WHERE classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
    AND objid OPERATOR(pg_catalog.=) ext
    AND refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
    AND refobjid OPERATOR(pg_catalog.=) old_schema;
  SELECT (SELECT pg_catalog.count(*) FROM pg_catalog.pg_class c WHERE c.relnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_proc p WHERE p.pronamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_type t WHERE t.typnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_operator o WHERE o.oprnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_opfamily f WHERE f.opfnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_collation l WHERE l.collnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_conversion v WHERE v.connamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_ts_config s WHERE s.cfgnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_ts_dict s WHERE s.dictnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_ts_parser s WHERE s.prsnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_ts_template s WHERE s.tmplnamespace OPERATOR(pg_catalog.=) old_schema)
     OPERATOR(pg_catalog.+) (SELECT pg_catalog.count(*) FROM pg_catalog.pg_statistic_ext s WHERE s.stxnamespace OPERATOR(pg_catalog.=) old_schema)
    INTO left_over;
  IF left_over OPERATOR(pg_catalog.=) 0 THEN
    EXECUTE pg_catalog.format('DROP SCHEMA %I', old_name);
  ELSE
    -- Not idgen's: what someone else put in the old schema stays there, out of every call of idgen.*.
    EXECUTE pg_catalog.format('REVOKE ALL ON SCHEMA %I FROM PUBLIC', old_name);
    EXECUTE pg_catalog.format('COMMENT ON SCHEMA %I IS %L', old_name,
                              'what schema idgen held besides idgen''s own objects when idgen was updated to 1.3');
    RAISE WARNING 'schema idgen held % objects that are not idgen''s: they stay in schema %', left_over, old_name
      USING DETAIL = 'idgen now lives in a new schema idgen that its update made; nothing in the old one can take the place of its functions.',
            HINT = pg_catalog.format('Look at what schema %I holds, and drop it if you did not put it there.', old_name);
  END IF;
  -- An update (not a fresh install) converts the marks tables of idgen 1.2 below, with this
  -- function, which it then drops.
  CREATE FUNCTION idgen.convert_instagram_shard_marks() RETURNS pg_catalog.void
  AS 'MODULE_PATHNAME', 'idgen_convert_instagram_shard_marks' LANGUAGE C;
END
$schema$;

REVOKE ALL ON SCHEMA idgen FROM PUBLIC;
GRANT USAGE ON SCHEMA idgen TO PUBLIC;
COMMENT ON SCHEMA idgen IS 'idgen: unique IDs generated inside PostgreSQL';

---------------------------------------------------------------------------------------------------
-- The database's copy of the mark survives what the owner may do: DROP EXTENSION idgen (or DROP
-- OWNED BY its owner) is refused while the copy records IDs that this server has not passed (a
-- restored dump from a server whose clock was ahead, a copy of this server): dropped and created
-- again, the extension would start from this server's state, below them. The copy's writer is
-- this run of the server and its node identity (idgen.mark_server), not the system identifier,
-- which a pg_basebackup copy shares.
---------------------------------------------------------------------------------------------------

-- The trigger's function is PL/pgSQL, never the library's: an event trigger whose function cannot
-- be loaded fails every statement it fires on, so with idgen.so missing (removed before the
-- extension, a package uninstalled) or of another release, no DROP EXTENSION or DROP OWNED could run
-- in any database that has idgen. The function proves the library loads by a probe call, in a block
-- of its own: when that fails (58P01 for a missing file; XX000 for another release's library; 42883
-- for one without the function), the drop goes on with a warning that the copy was not checked.
-- Once the library loads, the check runs outside that block: its refusal is never caught.
CREATE FUNCTION idgen.drop_guard_check(command_tag pg_catalog.text, probe pg_catalog.bool) RETURNS pg_catalog.void
AS 'MODULE_PATHNAME', 'idgen_drop_guard_check'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION idgen.drop_guard_check(pg_catalog.text, pg_catalog.bool) IS
'for idgen.drop_guard(): refuses the DROP EXTENSION or DROP OWNED under way (the command tag) when it drops idgen while this database holds IDs, by its copy of the durable mark, that this server has not passed; a probe only loads the library';

CREATE FUNCTION idgen.drop_guard() RETURNS pg_catalog.event_trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  BEGIN
    PERFORM idgen.drop_guard_check(TG_TAG, true);
  EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'idgen''s library cannot be loaded: % goes on without checking this database''s copy of the durable mark', TG_TAG
      USING DETAIL = pg_catalog.format('%s (SQLSTATE %s)', SQLERRM, SQLSTATE),
            HINT = 'Dropped and created again, idgen could repeat IDs that this database holds from another server or a clock that was ahead: install the library that matches the extension before you create it again.';
    RETURN;
  END;
  PERFORM idgen.drop_guard_check(TG_TAG, false);
END
$$;
COMMENT ON FUNCTION idgen.drop_guard() IS
'event trigger: refuses DROP EXTENSION idgen (and DROP OWNED BY its owner) while this database holds IDs, by its copy of the durable mark, that this server has not passed; lets every drop go on, with a warning, when the library cannot be loaded';

CREATE EVENT TRIGGER idgen_drop_guard ON ddl_command_start
  WHEN TAG IN ('DROP EXTENSION', 'DROP OWNED')
  EXECUTE FUNCTION idgen.drop_guard();
COMMENT ON EVENT TRIGGER idgen_drop_guard IS
'keeps this database''s copy of the durable mark while it records IDs that this server has not passed (idgen.drop_guard)';

CREATE SEQUENCE idgen.mark_identity AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.mark_identity IS
'this database''s copy of the durable mark of the IDs with a node identity (Instagram, Snowflake, Sonyflake, TraceId, JS-safe, UID20): below idgen.mark after idgen.restart_at_clock() moved them back to the clock; written by idgen, carried by pg_dump and pg_upgrade';
SELECT pg_catalog.pg_extension_config_dump('idgen.mark_identity', '');
GRANT SELECT, UPDATE ON SEQUENCE idgen.mark_identity TO @extowner@;
GRANT SELECT ON SEQUENCE idgen.mark_identity TO PUBLIC;  -- whoever dumps the database reads it

COMMENT ON SEQUENCE idgen.mark_server IS
'this database''s copy of the durable mark: who wrote idgen.mark and idgen.mark_identity (a run of a server and the node identity it had; idgen 1.2: the system identifier)';
COMMENT ON SEQUENCE idgen.decimal_id_generator IS
'this database''s copy of the DecimalId generator: run * 10^10 + launch id * 10^5 + the generator id of its last DecimalId (idgen 1.2: without the run)';

---------------------------------------------------------------------------------------------------
-- The native typeid type, idgen.type_id: a TypeID's prefix and UUID in 24 bytes on disk (a prefix of
-- up to 12 characters, a UUIDv7 or v4; 25 for other UUIDs, 17 + the length for longer prefixes),
-- written as the TypeID spec's text (prefix, "_", 26 base32 digits) and read in it or in idgen's
-- base36 form. Ordered as its text under the C collation: prefix, then UUID. It is not named
-- typeid: PostgreSQL reads typename('literal') as a cast, and idgen.typeid('user') must stay the
-- generator of 1.2. Its operators and aggregates live in pg_catalog, as objectid's do.
---------------------------------------------------------------------------------------------------

CREATE TYPE idgen.type_id;

CREATE FUNCTION idgen.type_id_in(cstring) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_in(cstring) IS
'input of type_id: the TypeID spec''s text (prefix, "_", 26 base32 digits), lowercase';
CREATE FUNCTION idgen.type_id_out(idgen.type_id) RETURNS cstring
AS 'MODULE_PATHNAME', 'idgen_type_id_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_out(idgen.type_id) IS 'output of type_id: the TypeID spec''s text';
CREATE FUNCTION idgen.type_id_recv(internal) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_recv(internal) IS 'binary input of type_id: the 16 bytes of the UUID, then the prefix';
CREATE FUNCTION idgen.type_id_send(idgen.type_id) RETURNS bytea
AS 'MODULE_PATHNAME', 'idgen_type_id_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_send(idgen.type_id) IS 'binary output of type_id: the 16 bytes of the UUID, then the prefix';

-- A varlena whose bytes are never compared with PostgreSQL's own functions. STORAGE main: a short
-- (1-byte) header on disk, and no move out of the row unless the row cannot fit otherwise.
CREATE TYPE idgen.type_id (
  INPUT = idgen.type_id_in, OUTPUT = idgen.type_id_out,
  RECEIVE = idgen.type_id_recv, SEND = idgen.type_id_send,
  INTERNALLENGTH = VARIABLE, STORAGE = main
);
COMMENT ON TYPE idgen.type_id IS
'a TypeID: prefix and UUID, 24 bytes on disk for a prefix of up to 12 characters and a UUIDv7 (idgen.define_id_type(prefix, name, native => true) makes a domain for one prefix)';

CREATE FUNCTION idgen.type_id_cmp(idgen.type_id, idgen.type_id) RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_type_id_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_cmp(idgen.type_id, idgen.type_id) IS 'btree comparison of type_ids (prefix, then UUID)';
CREATE FUNCTION idgen.type_id_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME', 'idgen_type_id_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_sortsupport(internal) IS 'sort support of type_id, with abbreviated keys';
CREATE FUNCTION idgen.type_id_hash(idgen.type_id) RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_type_id_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_hash(idgen.type_id) IS 'hash of a type_id';
CREATE FUNCTION idgen.type_id_hash_extended(idgen.type_id, bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_type_id_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_hash_extended(idgen.type_id, bigint) IS '64-bit seeded hash of a type_id';

CREATE FUNCTION idgen.type_id_lt(idgen.type_id, idgen.type_id) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_type_id_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.type_id_lt(idgen.type_id, idgen.type_id) IS 'implementation of < for type_id';
CREATE FUNCTION idgen.type_id_le(idgen.type_id, idgen.type_id) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_type_id_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.type_id_le(idgen.type_id, idgen.type_id) IS 'implementation of <= for type_id';
CREATE FUNCTION idgen.type_id_eq(idgen.type_id, idgen.type_id) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_type_id_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.type_id_eq(idgen.type_id, idgen.type_id) IS 'implementation of = for type_id';
CREATE FUNCTION idgen.type_id_ne(idgen.type_id, idgen.type_id) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_type_id_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.type_id_ne(idgen.type_id, idgen.type_id) IS 'implementation of <> for type_id';
CREATE FUNCTION idgen.type_id_ge(idgen.type_id, idgen.type_id) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_type_id_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.type_id_ge(idgen.type_id, idgen.type_id) IS 'implementation of >= for type_id';
CREATE FUNCTION idgen.type_id_gt(idgen.type_id, idgen.type_id) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_type_id_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION idgen.type_id_gt(idgen.type_id, idgen.type_id) IS 'implementation of > for type_id';

-- The estimators are core's: eqsel counts a unique column's equality as one row (an index scan),
-- the scalar ones read the column's histogram with the type's own < (no built-in interpolation).
CREATE OPERATOR pg_catalog.< (
  LEFTARG = idgen.type_id, RIGHTARG = idgen.type_id, FUNCTION = idgen.type_id_lt,
  COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
  RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
COMMENT ON OPERATOR pg_catalog.< (idgen.type_id, idgen.type_id) IS '< for type_id (prefix, then UUID: the order of the text under the C collation)';
CREATE OPERATOR pg_catalog.<= (
  LEFTARG = idgen.type_id, RIGHTARG = idgen.type_id, FUNCTION = idgen.type_id_le,
  COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
  RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
COMMENT ON OPERATOR pg_catalog.<= (idgen.type_id, idgen.type_id) IS '<= for type_id (prefix, then UUID: the order of the text under the C collation)';
CREATE OPERATOR pg_catalog.= (
  LEFTARG = idgen.type_id, RIGHTARG = idgen.type_id, FUNCTION = idgen.type_id_eq,
  COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
  RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
COMMENT ON OPERATOR pg_catalog.= (idgen.type_id, idgen.type_id) IS '= for type_id (same prefix and UUID)';
CREATE OPERATOR pg_catalog.<> (
  LEFTARG = idgen.type_id, RIGHTARG = idgen.type_id, FUNCTION = idgen.type_id_ne,
  COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
  RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
COMMENT ON OPERATOR pg_catalog.<> (idgen.type_id, idgen.type_id) IS '<> for type_id';
CREATE OPERATOR pg_catalog.>= (
  LEFTARG = idgen.type_id, RIGHTARG = idgen.type_id, FUNCTION = idgen.type_id_ge,
  COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
  RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR pg_catalog.>= (idgen.type_id, idgen.type_id) IS '>= for type_id (prefix, then UUID: the order of the text under the C collation)';
CREATE OPERATOR pg_catalog.> (
  LEFTARG = idgen.type_id, RIGHTARG = idgen.type_id, FUNCTION = idgen.type_id_gt,
  COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
  RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
COMMENT ON OPERATOR pg_catalog.> (idgen.type_id, idgen.type_id) IS '> for type_id (prefix, then UUID: the order of the text under the C collation)';

-- btequalimage: equal values have equal bytes, so the b-tree deduplicates them.
CREATE OPERATOR CLASS idgen.type_id_ops DEFAULT FOR TYPE idgen.type_id USING btree AS
  OPERATOR 1 pg_catalog.< (idgen.type_id, idgen.type_id),
  OPERATOR 2 pg_catalog.<= (idgen.type_id, idgen.type_id),
  OPERATOR 3 pg_catalog.= (idgen.type_id, idgen.type_id),
  OPERATOR 4 pg_catalog.>= (idgen.type_id, idgen.type_id),
  OPERATOR 5 pg_catalog.> (idgen.type_id, idgen.type_id),
  FUNCTION 1 idgen.type_id_cmp(idgen.type_id, idgen.type_id),
  FUNCTION 2 idgen.type_id_sortsupport(internal),
  FUNCTION 4 pg_catalog.btequalimage(oid);
COMMENT ON OPERATOR CLASS idgen.type_id_ops USING btree IS 'default btree operator class of type_id';
COMMENT ON OPERATOR FAMILY idgen.type_id_ops USING btree IS 'btree operators of type_id';

CREATE OPERATOR CLASS idgen.type_id_hash_ops DEFAULT FOR TYPE idgen.type_id USING hash AS
  OPERATOR 1 pg_catalog.= (idgen.type_id, idgen.type_id),
  FUNCTION 1 idgen.type_id_hash(idgen.type_id),
  FUNCTION 2 idgen.type_id_hash_extended(idgen.type_id, bigint);
COMMENT ON OPERATOR CLASS idgen.type_id_hash_ops USING hash IS 'default hash operator class of type_id';
COMMENT ON OPERATOR FAMILY idgen.type_id_hash_ops USING hash IS 'hash operators of type_id';

CREATE OPERATOR CLASS idgen.type_id_minmax_ops DEFAULT FOR TYPE idgen.type_id USING brin AS
  OPERATOR 1 pg_catalog.< (idgen.type_id, idgen.type_id),
  OPERATOR 2 pg_catalog.<= (idgen.type_id, idgen.type_id),
  OPERATOR 3 pg_catalog.= (idgen.type_id, idgen.type_id),
  OPERATOR 4 pg_catalog.>= (idgen.type_id, idgen.type_id),
  OPERATOR 5 pg_catalog.> (idgen.type_id, idgen.type_id),
  FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
  FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
  FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
  FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS idgen.type_id_minmax_ops USING brin IS
'default BRIN (minmax) operator class of type_id: a tiny index for time ranges of an append-only table of one prefix';
COMMENT ON OPERATOR FAMILY idgen.type_id_minmax_ops USING brin IS 'BRIN minmax operators of type_id';

CREATE FUNCTION idgen.type_id_smaller(idgen.type_id, idgen.type_id) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_smaller(idgen.type_id, idgen.type_id) IS 'the smaller of two type_ids, for min()';
CREATE FUNCTION idgen.type_id_larger(idgen.type_id, idgen.type_id) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_larger(idgen.type_id, idgen.type_id) IS 'the larger of two type_ids, for max()';

CREATE AGGREGATE pg_catalog.min(idgen.type_id) (
  SFUNC = idgen.type_id_smaller, STYPE = idgen.type_id, COMBINEFUNC = idgen.type_id_smaller,
  SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE
);
COMMENT ON AGGREGATE pg_catalog.min(idgen.type_id) IS 'the smallest type_id (of one prefix: the earliest); can use a btree index';
CREATE AGGREGATE pg_catalog.max(idgen.type_id) (
  SFUNC = idgen.type_id_larger, STYPE = idgen.type_id, COMBINEFUNC = idgen.type_id_larger,
  SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE
);
COMMENT ON AGGREGATE pg_catalog.max(idgen.type_id) IS 'the largest type_id (of one prefix: the latest); can use a btree index';

CREATE FUNCTION idgen.type_id_uuid(value idgen.type_id) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_type_id_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_uuid(idgen.type_id) IS 'the UUID of a type_id (the cast to uuid)';
CREATE FUNCTION idgen.type_id_of_uuid(id uuid) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_of_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_of_uuid(uuid) IS 'the type_id of a UUID with the empty prefix (the cast from uuid; idgen.type_id_from_uuid names a prefix)';

CREATE FUNCTION idgen.type_id_of_text(value text) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_of_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_of_text(text) IS
'the type_id of the TypeID spec''s text or of idgen''s base36 form (the cast from text)';

-- Explicit casts only: implicit ones make "operator is not unique". The type's input reads the
-- TypeID text only (26 digits: a literal of 25 is more likely a TypeID that lost one than idgen's
-- base36 form); the cast from text reads both, for a column of idgen.typeid() values.
CREATE CAST (idgen.type_id AS text) WITH INOUT;
COMMENT ON CAST (idgen.type_id AS text) IS 'the TypeID spec''s text of a type_id';
CREATE CAST (text AS idgen.type_id) WITH FUNCTION idgen.type_id_of_text(text);
COMMENT ON CAST (text AS idgen.type_id) IS 'a type_id from the TypeID spec''s text or idgen''s base36 form';
CREATE CAST (idgen.type_id AS uuid) WITH FUNCTION idgen.type_id_uuid(idgen.type_id);
COMMENT ON CAST (idgen.type_id AS uuid) IS 'the UUID inside a type_id';
CREATE CAST (uuid AS idgen.type_id) WITH FUNCTION idgen.type_id_of_uuid(uuid);
COMMENT ON CAST (uuid AS idgen.type_id) IS 'the type_id of a UUID with the empty prefix';

CREATE FUNCTION idgen.type_id_generate(prefix text, ordered boolean DEFAULT true) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_generate' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.type_id_generate(text, boolean) IS
'a new type_id with the prefix: its UUID a UUIDv7 from the server''s UUIDv7 state (ordered across sessions, as idgen.typeid), or 122 random bits (ordered => false)';

CREATE FUNCTION idgen.type_id_from_uuid(prefix text, id uuid) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_from_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_from_uuid(text, uuid) IS 'the type_id of a UUID with the given prefix';

CREATE FUNCTION idgen.type_id_min(prefix text, "at" timestamptz) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_type_id_min' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_min(text, timestamptz) IS
'the smallest ordered type_id with the prefix at the instant: the bound of a range scan (id >= type_id_min(p, t1) AND id < type_id_min(p, t2))';

CREATE FUNCTION idgen.type_id_time(value idgen.type_id) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_type_id_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_time(idgen.type_id) IS 'the instant of an ordered type_id (its UUID a UUIDv7); 22023 for another UUID';

CREATE FUNCTION idgen.type_id_prefix(value idgen.type_id) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_type_id_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_prefix(idgen.type_id) IS 'the prefix of a type_id (empty for the spec''s bare body)';

CREATE FUNCTION idgen.type_id_text(value idgen.type_id, encoding text DEFAULT 'base32') RETURNS text
AS 'MODULE_PATHNAME', 'idgen_type_id_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_text(idgen.type_id, text) IS
'the text of a type_id: the TypeID spec''s (base32, the cast to text) or idgen''s base36 form, as idgen.typeid writes it';

CREATE FUNCTION idgen.type_id_check(value idgen.type_id, prefix text) RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_type_id_check' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.type_id_check(idgen.type_id, text) IS
'true when the type_id has the prefix; otherwise 22P02 naming both prefixes (the check of a domain made by idgen.define_id_type(..., native => true))';

-- A domain per prefix: idgen.define_id_type(prefix, name, native => true) makes one over
-- idgen.type_id whose check refuses another prefix with 22P02 naming both, and whose default makes
-- a value of its prefix. The body of 1.2's define_id_type(prefix, type_name) moves here, and that
-- function makes the text domain through it, as before. Neither pins search_path: the domain goes
-- in the caller's current schema (see 1.2's comment above define_id_type); every name is qualified.
CREATE FUNCTION idgen.define_id_type(prefix text, type_name text, native boolean) RETURNS regtype
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
  IF native THEN
    EXECUTE pg_catalog.format('CREATE DOMAIN %s AS idgen.type_id CHECK (idgen.type_id_check(VALUE, %L)) DEFAULT idgen.type_id_generate(%L)',
                              target, prefix, prefix);
    EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', target,
                              'type_id with prefix ' OPERATOR(pg_catalog.||) prefix OPERATOR(pg_catalog.||) ' (idgen.define_id_type)');
  ELSE
    -- The domain stores one text per ID: idgen's lowercase base36 form only, so that a unique index
    -- on the text is unique on the ID; in the C collation, so that its order is the IDs' time order.
    EXECUTE pg_catalog.format('CREATE DOMAIN %s AS pg_catalog.text COLLATE pg_catalog."C" CHECK (VALUE OPERATOR(pg_catalog.~) %L AND idgen.typeid_is_valid(VALUE, %L)) DEFAULT idgen.typeid(%L)',
                              target, '^' OPERATOR(pg_catalog.||) prefix OPERATOR(pg_catalog.||) '_[0-9a-z]{25}$', prefix, prefix);
    EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', target,
                              'typeid with prefix ' OPERATOR(pg_catalog.||) prefix OPERATOR(pg_catalog.||) ' (idgen.define_id_type)');
  END IF;
  RETURN pg_catalog.to_regtype(target);
END
$$;
COMMENT ON FUNCTION idgen.define_id_type(text, text, boolean) IS
'creates a domain for IDs with this prefix, in the named schema or the caller''s current one, owned by the caller: over idgen.type_id (native => true: its check refuses another prefix, its default is idgen.type_id_generate(prefix)) or over text (as define_id_type(prefix, type_name))';

CREATE OR REPLACE FUNCTION idgen.define_id_type(prefix text, type_name text) RETURNS regtype
LANGUAGE plpgsql VOLATILE STRICT AS $$
BEGIN
  RETURN idgen.define_id_type(prefix, type_name, false);
END
$$;

---------------------------------------------------------------------------------------------------
-- A type of one prefix, for a superuser: idgen.define_uuid_type('user', 'user_id') makes a base
-- type whose values are a uuid's 16 bytes and whose text is the TypeID of its prefix. Its b-tree is
-- a uuid's (one type_id's value carries its prefix: 24 bytes, 36 in a b-tree entry; here the type is
-- the prefix: 16 and 28). Comparison, hashing and sorting are uuid's own functions, declared for the
-- type (LANGUAGE internal); text and binary I/O are idgen's, which find the prefix in the name of the
-- output function's argument (src/pg/type_id_fmgr.cpp). CREATE TYPE of a base type and functions in
-- C are for superusers only, and so is restoring them: pg_restore of such a type needs a superuser.
-- Like define_id_type it goes in the caller's current schema unless named, so it does not pin
-- search_path, and every name it uses is qualified.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.uuid_type_prefix(type regtype) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_uuid_type_prefix' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuid_type_prefix(regtype) IS
'the prefix of a type made by idgen.define_uuid_type (42809 for another type)';

CREATE FUNCTION idgen.define_uuid_type(prefix text, type_name text) RETURNS regtype
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp SET client_min_messages = warning AS $$  -- not the shell types' notices
DECLARE
  parts pg_catalog.text[] := pg_catalog.parse_ident(type_name);
  schema_oid pg_catalog.oid;
  s pg_catalog.text;    -- the schema, quoted
  t pg_catalog.text;    -- the type, qualified and quoted
  f pg_catalog.text[];  -- the names of its functions, qualified and quoted
  part pg_catalog.text;
  op record;
BEGIN
  IF NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
    RAISE EXCEPTION 'idgen.define_uuid_type needs a superuser'
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'It makes a base type and functions in C, which PostgreSQL lets superusers alone create (and restore from a dump).',
            HINT = 'A database owner makes a domain of one prefix with idgen.define_id_type(prefix, name, native => true): 24 bytes a value.';
  END IF;
  IF prefix OPERATOR(pg_catalog.=) '' THEN
    RAISE EXCEPTION 'a type of one prefix needs a prefix'
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'A TypeID without a prefix is the bare body of a uuid: keep the uuid, or use idgen.type_id.';
  END IF;
  PERFORM idgen.typeid_from_uuid(prefix, '00000000-0000-0000-0000-000000000000'::pg_catalog.uuid);  -- checks the prefix rule
  IF pg_catalog.cardinality(parts) OPERATOR(pg_catalog.<>) 2 THEN
    RAISE EXCEPTION 'type name "%" does not name its schema', type_name
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'Name the type as schema.name, in a schema that is a superuser''s alone (CREATE SCHEMA ids; ... ''ids.user_id'').';
  END IF;
  -- The schema as the catalog has it now (not as this transaction's snapshot may show it): one that
  -- exists, is no system or temporary schema, is a superuser's, and where only superusers may
  -- create (pg_database_owner stands for the database's owner). Whoever may create or drop objects
  -- there could put an operator of her own where the type's are (an operator class's, or one ahead
  -- of them on a search_path), run by whoever compares two values. A schema a superuser owns
  -- changes owner or grants only by a superuser's hand.
  schema_oid := pg_catalog.to_regnamespace(pg_catalog.quote_ident(parts[1]));
  IF schema_oid IS NULL THEN
    RAISE EXCEPTION 'schema "%" does not exist', parts[1] USING ERRCODE = 'invalid_schema_name';
  END IF;
  IF parts[1] OPERATOR(pg_catalog.~) '^pg_' OR parts[1] OPERATOR(pg_catalog.=) ANY ('{idgen,information_schema}'::pg_catalog.text[]) THEN
    RAISE EXCEPTION 'idgen does not create types in schema "%"', parts[1]
      USING ERRCODE = 'invalid_schema_name',
            HINT = 'Create the type in a schema of the database: pg_dump does not dump system schemas, and schema idgen holds idgen''s objects only.';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.oid OPERATOR(pg_catalog.=) schema_oid)
     OR EXISTS (SELECT FROM pg_catalog.pg_namespace n
                CROSS JOIN LATERAL (SELECT n.nspowner AS role, 'CREATE' AS privilege_type
                                    UNION ALL SELECT a.grantee, a.privilege_type
                                    FROM pg_catalog.aclexplode(n.nspacl) a) r
                LEFT JOIN pg_catalog.pg_roles o
                  ON o.oid OPERATOR(pg_catalog.=) CASE WHEN r.role OPERATOR(pg_catalog.=) 'pg_database_owner'::pg_catalog.regrole
                                                       THEN (SELECT d.datdba FROM pg_catalog.pg_database d
                                                             WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
                                                       ELSE r.role END
                WHERE n.oid OPERATOR(pg_catalog.=) schema_oid AND r.privilege_type OPERATOR(pg_catalog.=) 'CREATE'
                  AND NOT COALESCE(o.rolsuper, false)) THEN
    RAISE EXCEPTION 'schema "%" is not a superuser''s alone', parts[1]
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'A role that owns the schema or may create in it could replace the type''s operators with functions of its own, run by whoever compares two values (and a schema made after this transaction began cannot be checked in it).',
            HINT = 'Create a schema for the types (CREATE SCHEMA ids), name it (ids.user_id), and put it first on the search_path of whoever uses the type (ALTER DATABASE ... SET search_path = ids, "$user", public).';
  END IF;
  IF pg_catalog.octet_length(parts[2]) OPERATOR(pg_catalog.>) 49 THEN
    RAISE EXCEPTION 'type name "%" is longer than 49 bytes', parts[2]
      USING ERRCODE = 'name_too_long', HINT = 'Its functions are named after it, with suffixes of up to 14 bytes.';
  END IF;
  s := pg_catalog.quote_ident(parts[1]);
  t := s OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(parts[2]);
  FOREACH part IN ARRAY '{in,out,recv,send,eq,ne,lt,le,gt,ge,cmp,hash,hash_extended,smaller,larger}'::pg_catalog.text[] LOOP
    f := f OPERATOR(pg_catalog.||) (s OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||)
                                    pg_catalog.quote_ident(parts[2] OPERATOR(pg_catalog.||) '_' OPERATOR(pg_catalog.||) part));
  END LOOP;

  EXECUTE pg_catalog.format('CREATE TYPE %s', t);
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(pg_catalog.cstring, pg_catalog.oid, pg_catalog.int4) RETURNS %s '
                            'AS %L, %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE', f[1], t, 'MODULE_PATHNAME', 'idgen_uuid_type_in');
  -- The argument's name is the prefix: the output function reads it (see above).
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(%I %s) RETURNS pg_catalog.cstring '
                            'AS %L, %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE', f[2], prefix, t, 'MODULE_PATHNAME', 'idgen_uuid_type_out');
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(pg_catalog.internal, pg_catalog.oid, pg_catalog.int4) RETURNS %s '
                            'AS %L, %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE', f[3], t, 'MODULE_PATHNAME', 'idgen_uuid_type_recv');
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(%s) RETURNS pg_catalog.bytea '
                            'AS %L, %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE', f[4], t, 'MODULE_PATHNAME', 'idgen_uuid_type_send');
  EXECUTE pg_catalog.format('CREATE TYPE %s (INPUT = %s, OUTPUT = %s, RECEIVE = %s, SEND = %s, LIKE = pg_catalog.uuid)',
                            t, f[1], f[2], f[3], f[4]);
  EXECUTE pg_catalog.format('COMMENT ON TYPE %s IS %L', t,
                            'a TypeID of prefix ' OPERATOR(pg_catalog.||) prefix OPERATOR(pg_catalog.||) ': a uuid''s 16 bytes (idgen.define_uuid_type)');

  -- uuid's functions, declared for the type: the same bytes, the same order (the TypeID text's).
  FOR op IN SELECT * FROM (VALUES (5, 'uuid_eq', 'bool'), (6, 'uuid_ne', 'bool'), (7, 'uuid_lt', 'bool'),
                                  (8, 'uuid_le', 'bool'), (9, 'uuid_gt', 'bool'), (10, 'uuid_ge', 'bool'),
                                  (11, 'uuid_cmp', 'int4')) v(i, builtin, result) LOOP
    EXECUTE pg_catalog.format('CREATE FUNCTION %s(%s, %s) RETURNS pg_catalog.%s LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE%s AS %L',
                              f[op.i], t, t, op.result, CASE WHEN op.result OPERATOR(pg_catalog.=) 'bool' THEN ' LEAKPROOF' ELSE '' END, op.builtin);
  END LOOP;
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(%s) RETURNS pg_catalog.int4 LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE AS %L',
                            f[12], t, 'uuid_hash');
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(%s, pg_catalog.int8) RETURNS pg_catalog.int8 LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE AS %L',
                            f[13], t, 'uuid_hash_extended');
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(%s, %s) RETURNS %s AS %L, %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE',
                            f[14], t, t, t, 'MODULE_PATHNAME', 'idgen_uuid_type_smaller');
  EXECUTE pg_catalog.format('CREATE FUNCTION %s(%s, %s) RETURNS %s AS %L, %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE',
                            f[15], t, t, t, 'MODULE_PATHNAME', 'idgen_uuid_type_larger');

  -- Operators beside the type, with core's estimators (an equality on a unique column is one row).
  FOR op IN SELECT * FROM (VALUES ('=', 5, '=', '<>', 'eqsel', 'eqjoinsel', ', HASHES, MERGES'),
                                  ('<>', 6, '<>', '=', 'neqsel', 'neqjoinsel', ''),
                                  ('<', 7, '>', '>=', 'scalarltsel', 'scalarltjoinsel', ''),
                                  ('<=', 8, '>=', '>', 'scalarlesel', 'scalarlejoinsel', ''),
                                  ('>', 9, '<', '<=', 'scalargtsel', 'scalargtjoinsel', ''),
                                  ('>=', 10, '<=', '<', 'scalargesel', 'scalargejoinsel', '')) v(name, i, commutator, negator, rsel, jsel, extra) LOOP
    EXECUTE pg_catalog.format('CREATE OPERATOR %s.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = %s, COMMUTATOR = OPERATOR(%s.%s), '
                              'NEGATOR = OPERATOR(%s.%s), RESTRICT = pg_catalog.%s, JOIN = pg_catalog.%s%s)',
                              s, op.name, t, t, f[op.i], s, op.commutator, s, op.negator, op.rsel, op.jsel, op.extra);
  END LOOP;
  EXECUTE pg_catalog.format('CREATE OPERATOR CLASS %s DEFAULT FOR TYPE %s USING btree AS '
                            'OPERATOR 1 %s.< , OPERATOR 2 %s.<= , OPERATOR 3 %s.= , OPERATOR 4 %s.>= , OPERATOR 5 %s.> , '
                            'FUNCTION 1 %s(%s, %s), FUNCTION 2 pg_catalog.uuid_sortsupport(pg_catalog.internal), '
                            'FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid)',
                            s OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(parts[2] OPERATOR(pg_catalog.||) '_ops'),
                            t, s, s, s, s, s, f[11], t, t);
  EXECUTE pg_catalog.format('CREATE OPERATOR CLASS %s DEFAULT FOR TYPE %s USING hash AS '
                            'OPERATOR 1 %s.= , FUNCTION 1 %s(%s), FUNCTION 2 %s(%s, pg_catalog.int8)',
                            s OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(parts[2] OPERATOR(pg_catalog.||) '_hash_ops'),
                            t, s, f[12], t, f[13], t);
  EXECUTE pg_catalog.format('CREATE OPERATOR CLASS %s DEFAULT FOR TYPE %s USING brin AS '
                            'OPERATOR 1 %s.< , OPERATOR 2 %s.<= , OPERATOR 3 %s.= , OPERATOR 4 %s.>= , OPERATOR 5 %s.> , '
                            'FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal), '
                            'FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal), '
                            'FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal), '
                            'FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal)',
                            s OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(parts[2] OPERATOR(pg_catalog.||) '_minmax_ops'),
                            t, s, s, s, s, s);
  EXECUTE pg_catalog.format('CREATE AGGREGATE %s.min(%s) (SFUNC = %s, STYPE = %s, COMBINEFUNC = %s, SORTOP = OPERATOR(%s.<), PARALLEL = SAFE)',
                            s, t, f[14], t, f[14], s);
  EXECUTE pg_catalog.format('CREATE AGGREGATE %s.max(%s) (SFUNC = %s, STYPE = %s, COMBINEFUNC = %s, SORTOP = OPERATOR(%s.>), PARALLEL = SAFE)',
                            s, t, f[15], t, f[15], s);

  -- Explicit casts: to and from uuid (the same bytes), and through the text to and from idgen.type_id
  -- (its input checks the prefix). Text needs none: PostgreSQL casts through the I/O functions.
  EXECUTE pg_catalog.format('CREATE CAST (%s AS pg_catalog.uuid) WITHOUT FUNCTION', t);
  EXECUTE pg_catalog.format('CREATE CAST (pg_catalog.uuid AS %s) WITHOUT FUNCTION', t);
  EXECUTE pg_catalog.format('CREATE CAST (%s AS idgen.type_id) WITH INOUT', t);
  EXECUTE pg_catalog.format('CREATE CAST (idgen.type_id AS %s) WITH INOUT', t);
  IF (SELECT y.typnamespace FROM pg_catalog.pg_type y WHERE y.oid OPERATOR(pg_catalog.=) pg_catalog.to_regtype(t))
     OPERATOR(pg_catalog.<>) schema_oid THEN
    RAISE EXCEPTION 'type % was not made in the schema that was checked', t USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  RETURN pg_catalog.to_regtype(t);
END
$$;
COMMENT ON FUNCTION idgen.define_uuid_type(text, text) IS
'creates a type of TypeIDs of one prefix, 16 bytes a value (a uuid''s), with its operators, b-tree, hash and BRIN classes and casts; for a superuser (a database owner uses idgen.define_id_type(prefix, name, native => true))';

---------------------------------------------------------------------------------------------------
-- base32hex of a UUID, as PostgreSQL 19 writes it (rtrim(encode(u::bytea, 'base32hex'), '='): the
-- 26-character sortable form its documentation recommends), and back, on every major.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.base32hex_encode(value uuid) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_base32hex_encode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base32hex_encode(uuid) IS
'the 26-character base32hex text of a uuid (RFC 4648, 0-9 and A-V, sorts like the uuid): what PostgreSQL 19''s rtrim(encode(value::bytea, ''base32hex''), ''='') writes';

CREATE FUNCTION idgen.base32hex_decode_uuid(value text) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_base32hex_decode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.base32hex_decode_uuid(text) IS
'the uuid of a base32hex text: 26 digits of either case, then ''='' padding (all of it, part or none) and spaces, as PostgreSQL 19''s decode(value, ''base32hex'') reads them';

---------------------------------------------------------------------------------------------------
-- convert_column sees every row, or refuses (issue 29, item 11). Before, it took the maximum of the
-- rows that row-level security let the caller see (a policy forced on the table's owner could hide
-- a row above the first new ID), and of the rows a view's WHERE kept. It runs as its caller, who
-- must own the table (ALTER TABLE): now it refuses (42501) where row-level security applies to that
-- role, runs with row_security off (PostgreSQL then fails any query that a policy would filter,
-- rather than filter it), and converts a table's column only (42809 for a view or a foreign table).
---------------------------------------------------------------------------------------------------

-- Its maximum is read from the heap (idgen.column_max), never by a query on the table: planning one
-- folds the immutable functions that the table's owner put in an index's expression or predicate
-- or a statistics object, which would run in the caller's session, a superuser's among them.
CREATE FUNCTION idgen.column_max(tbl pg_catalog.regclass, col pg_catalog.name) RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'idgen_column_max'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION idgen.column_max(pg_catalog.regclass, pg_catalog.name) IS
'the largest value of a bigint column of a table, its partitions and its children, read from their heaps as committed now (convert_column locks the table first) without running anything of the table''s owner (what idgen.convert_column compares with the first new ID); needs SELECT on the column, refuses where row-level security applies; a Citus table''s by its owner only';

CREATE OR REPLACE FUNCTION idgen.convert_column(tbl regclass, col name, family text, shard int DEFAULT NULL) RETURNS text
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET row_security = off AS $$
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
  -- A table's column only: the maximum through a view (its WHERE) or a foreign table need not be
  -- the maximum of the rows that new IDs must stay above.
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = tbl) NOT IN ('r', 'p') THEN
    RAISE EXCEPTION '% is not a table', tbl
      USING ERRCODE = 'wrong_object_type',
            HINT = 'Convert the column of the table that holds the rows.';
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
  -- The maximum of every row, as this role reads the table: row-level security that applies to it
  -- would hide rows that new IDs could repeat. Refused then; and the function runs with
  -- row_security off, so that any policy that still applied would make the query fail (42501)
  -- rather than hide rows. (The lock keeps policies from changing meanwhile.)
  IF pg_catalog.row_security_active(tbl) THEN
    RAISE EXCEPTION 'row-level security hides rows of % from role %', tbl, current_user
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'New IDs must start above every existing value, the hidden ones too.',
            HINT = 'Run idgen.convert_column as a role that bypasses row-level security (a superuser, or a role with BYPASSRLS), or as the table''s owner after ALTER TABLE ... NO FORCE ROW LEVEL SECURITY.';
  END IF;
  current_max := idgen.column_max(tbl, col);
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

---------------------------------------------------------------------------------------------------
-- Instagram's logical shards at production speed (docs/citus.md). The trigger is C: what 1.2 redid
-- for every row (the ID and shard columns, the marks table and its owner, the plan of its queries) is
-- done once per table and kept until the catalog changes. No insert waits for another: a transaction
-- whose IDs pass the committed marks inserts a mark of its own into the schema's table (the shard,
-- the ID, a mark a second beyond it, the server run), committed with its IDs; no mark row is ever
-- updated, and the marks are read as committed, not through the transaction's snapshot (so
-- REPEATABLE READ and SERIALIZABLE inserts never fail on them). One maker per shard: the registry
-- idgen.instagram_shard_schemas says which schema holds each bound shard (on Citus a reference
-- table, read on every node), binding a second schema to a bound shard is refused, and
-- idgen.instagram_id(shard) of a bound shard is made only on the node that holds its schema, under its
-- marks. The inserting role needs no right on the marks, and nothing of the marks table's owner runs
-- when idgen reads or writes them.
---------------------------------------------------------------------------------------------------

-- A schema is the shard's by its OID for the schema's life (a rename keeps the binding, a drop ends
-- it); an OID means something only where it was written (oid_space: this cluster's system
-- identifier, this database and this table), so that a restored dump, a pg_upgrade'd cluster or a
-- Citus worker, whose OIDs differ, goes by the name, and refuses where the name is no longer found.
-- (No regnamespace column: pg_upgrade refuses a user table with one.)
CREATE TABLE idgen.instagram_shard_schemas (
  shard pg_catalog.int4 PRIMARY KEY CHECK (shard OPERATOR(pg_catalog.>=) 0 AND shard OPERATOR(pg_catalog.<=) 8191),
  schema_name pg_catalog.name NOT NULL,
  schema_oid pg_catalog.oid NOT NULL,
  oid_space pg_catalog.int8 NOT NULL
);
COMMENT ON TABLE idgen.instagram_shard_schemas IS
'the schema each bound Instagram shard lives in (idgen.bind_instagram_shard): its IDs are made only where that schema is, by the trigger idgen.instagram_shard_id() or idgen.instagram_id(shard); on Citus a reference table';
COMMENT ON COLUMN idgen.instagram_shard_schemas.schema_name IS
'the schema''s name when it was bound (bound again: refreshed); what decides where schema_oid means nothing';
COMMENT ON COLUMN idgen.instagram_shard_schemas.schema_oid IS
'the schema''s OID where oid_space is this database''s: a rename keeps the binding, a drop ends it';
COMMENT ON COLUMN idgen.instagram_shard_schemas.oid_space IS
'where schema_oid was written: this cluster, database and table (another after a restore, a pg_upgrade, or on a Citus worker)';
GRANT SELECT ON idgen.instagram_shard_schemas TO PUBLIC;
-- (its rows are in the database's dump: the owner who restores it writes them, as she writes the
-- durable marks; binding stays idgen.bind_instagram_shard's, and a shard has one row: the key)
GRANT INSERT ON idgen.instagram_shard_schemas TO @extowner@;
SELECT pg_catalog.pg_extension_config_dump('idgen.instagram_shard_schemas', '');

-- The marks tables of 1.2 (one row per shard, keyed by the shard) are converted here, once, to 1.3's
-- (a column id, the key (shard, id)), their writes left to their owner and their shards registered;
-- a table that is not exactly as 1.2 made it is left, with a warning, and never written. idgen
-- writes into a marks table only through the heap and its key, and only into one that has exactly
-- the shape it makes (src/pg/shard_marks.cpp): nothing its owner attached to it ever runs.
DO $convert$
BEGIN
  IF pg_catalog.to_regprocedure('idgen.convert_instagram_shard_marks()') IS NOT NULL THEN
    PERFORM idgen.convert_instagram_shard_marks();
    DROP FUNCTION idgen.convert_instagram_shard_marks();
  END IF;
END
$convert$;

CREATE OR REPLACE FUNCTION idgen.instagram_shard_id() RETURNS pg_catalog.trigger
AS 'MODULE_PATHNAME', 'idgen_instagram_shard_id'
LANGUAGE C;
COMMENT ON FUNCTION idgen.instagram_shard_id() IS
'trigger (BEFORE INSERT, FOR EACH ROW; arguments: the ID column, default id, and optionally the column holding the row''s shard): fills a NULL ID with an Instagram ID of the shard bound to its schema (idgen.bind_instagram_shard) or named by the row, where the row is stored, after the marks of the servers that held the shard before; a transaction whose IDs pass the marks adds a mark of its own, so that no insert waits for another';

CREATE OR REPLACE FUNCTION idgen.bind_instagram_shard(schema pg_catalog.regnamespace, shard pg_catalog.int4) RETURNS pg_catalog.void
AS 'MODULE_PATHNAME', 'idgen_bind_instagram_shard'
LANGUAGE C VOLATILE STRICT SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION idgen.bind_instagram_shard(pg_catalog.regnamespace, pg_catalog.int4) IS
'binds an Instagram shard to a schema its caller owns: a row of the schema''s table idgen_instagram_shard (created on first use, never taken over, converted from idgen 1.2''s layout in a restored dump, writable by its owner only), which idgen.instagram_shard_id() reads, and of idgen.instagram_shard_schemas (a shard bound to another schema is refused); on Citus, on the coordinator, before citus_schema_distribute, so that the table moves with the schema''s';

---------------------------------------------------------------------------------------------------
-- Ticket servers and partitioned sequences set up on a positioned sequence. Every value below a
-- sequence's next value counts as given (next = last_value + increment once called, else
-- last_value): setval('s', 1000, false) after a load, CREATE SEQUENCE s START 1000 and ALTER
-- SEQUENCE s RESTART 500 are positions too, which pg_sequence_last_value() (NULL until called) does
-- not show. The position is read from the sequence itself, after pg_sequence_last_value() has locked
-- it by its OID (its name then names it until the transaction ends) and checked SELECT or USAGE; the
-- read needs SELECT, and its row's tableoid must be the sequence (a sequence runs nothing: no
-- trigger, no policy, no rule). ALTER SEQUENCE needs its ownership. A sequence that counts down is
-- refused: which values it gave cannot be told from its position.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.ticket_sequence(seq pg_catalog.regclass, server pg_catalog.int4, servers pg_catalog.int4)
RETURNS pg_catalog.void
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s record;
  pos record;
  next pg_catalog.numeric;
  first pg_catalog.numeric;
BEGIN
  IF servers OPERATOR(pg_catalog.<) 1 OR server OPERATOR(pg_catalog.<) 1 OR server OPERATOR(pg_catalog.>) servers THEN
    RAISE EXCEPTION 'server % of % is not a ticket server', server, servers
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Ticket servers are numbered from 1 to the number of servers.';
  END IF;
  SELECT p.* INTO s FROM pg_catalog.pg_sequence p WHERE p.seqrelid OPERATOR(pg_catalog.=) seq;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not a sequence', seq USING ERRCODE = 'wrong_object_type';
  END IF;
  IF s.seqcycle THEN
    RAISE EXCEPTION 'sequence % cycles', seq
      USING ERRCODE = 'object_not_in_prerequisite_state', DETAIL = 'A cycling sequence repeats its values.',
            HINT = pg_catalog.format('ALTER SEQUENCE %s NO CYCLE first.', seq);
  END IF;
  IF s.seqincrement OPERATOR(pg_catalog.<) 0 THEN
    RAISE EXCEPTION 'sequence % counts down (increment %)', seq, s.seqincrement
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Which values a sequence that counts down gave cannot be told from its position.',
            HINT = pg_catalog.format('Set up a new sequence, or ALTER SEQUENCE %s INCREMENT BY 1 RESTART WITH a value above every value it gave first.', seq);
  END IF;
  PERFORM pg_catalog.pg_sequence_last_value(seq);  -- (locks it by its OID; SELECT or USAGE)
  EXECUTE pg_catalog.format('SELECT q.last_value, q.is_called, q.tableoid FROM %s q', seq) INTO pos;
  IF pos.tableoid OPERATOR(pg_catalog.<>) seq::pg_catalog.oid THEN
    RAISE EXCEPTION 'sequence % changed while it was read', seq USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  next := CASE WHEN pos.is_called THEN pos.last_value::pg_catalog.numeric OPERATOR(pg_catalog.+) s.seqincrement
               ELSE pos.last_value::pg_catalog.numeric END;
  IF s.seqincrement OPERATOR(pg_catalog.=) servers AND s.seqstart OPERATOR(pg_catalog.=) server
     AND next OPERATOR(pg_catalog.>=) server
     AND (next OPERATOR(pg_catalog.-) server) OPERATOR(pg_catalog.%) servers OPERATOR(pg_catalog.=) 0 THEN
    RETURN;  -- already set up so
  END IF;
  IF next OPERATOR(pg_catalog.>) 1 AND s.seqincrement OPERATOR(pg_catalog.<>) 1
     AND NOT (s.seqincrement OPERATOR(pg_catalog.=) servers AND s.seqstart OPERATOR(pg_catalog.=) server) THEN
    RAISE EXCEPTION 'sequence % is already set up with increment %', seq, s.seqincrement
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Its values so far could repeat those of another ticket server under the new setup.',
            HINT = 'Set up a new sequence for the ticket scheme.';
  END IF;
  -- The first value of the server's residue at or above the next value: every value below it
  -- counts as given.
  first := server;
  IF next OPERATOR(pg_catalog.>) server THEN
    -- (OPERATOR() binds every operator alike, from the left: the parentheses give the order)
    first := next OPERATOR(pg_catalog.+)
             (((server OPERATOR(pg_catalog.-) next) OPERATOR(pg_catalog.%) servers OPERATOR(pg_catalog.+) servers)
              OPERATOR(pg_catalog.%) servers);
  END IF;
  IF first OPERATOR(pg_catalog.>) s.seqmax THEN
    RAISE EXCEPTION 'sequence % has no value left for server % of %', seq, server, servers
      USING ERRCODE = 'numeric_value_out_of_range';
  END IF;
  IF next OPERATOR(pg_catalog.>) 1 THEN
    RAISE NOTICE 'sequence % counts the values up to % as given: every other ticket server must start above it',
      seq, next OPERATOR(pg_catalog.-) 1;
  END IF;
  EXECUTE pg_catalog.format('ALTER SEQUENCE %s INCREMENT BY %s MINVALUE 1 START WITH %s RESTART WITH %s NO CYCLE',
                            seq, servers, server, first);
END
$$;
COMMENT ON FUNCTION idgen.ticket_sequence(pg_catalog.regclass, pg_catalog.int4, pg_catalog.int4) IS
'sets up a sequence as ticket server k of n (1-based), the Flickr way: start k, increment n, above every value below its next value; refuses cycling sequences, sequences that count down and setups that could repeat values';

CREATE OR REPLACE FUNCTION idgen.range_sequence(seq pg_catalog.regclass, server pg_catalog.int4, range_size pg_catalog.int8)
RETURNS pg_catalog.void
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s record;
  pos record;
  next pg_catalog.numeric;
  low pg_catalog.int8;
  high pg_catalog.int8;
BEGIN
  IF server OPERATOR(pg_catalog.<) 0 OR range_size OPERATOR(pg_catalog.<) 1 THEN
    RAISE EXCEPTION 'server % with ranges of % is not a range server', server, range_size
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Servers are numbered from 0; a range holds at least 1 value.';
  END IF;
  SELECT p.* INTO s FROM pg_catalog.pg_sequence p WHERE p.seqrelid OPERATOR(pg_catalog.=) seq;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not a sequence', seq USING ERRCODE = 'wrong_object_type';
  END IF;
  BEGIN
    low := server::pg_catalog.int8 OPERATOR(pg_catalog.*) range_size OPERATOR(pg_catalog.+) 1;
    high := (server::pg_catalog.int8 OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) range_size;
  EXCEPTION WHEN numeric_value_out_of_range THEN
    RAISE EXCEPTION 'the range of server % (% values each) does not fit a bigint', server, range_size
      USING ERRCODE = 'numeric_value_out_of_range';
  END;
  IF high OPERATOR(pg_catalog.>) s.seqmax AND s.seqtypid OPERATOR(pg_catalog.<>) 'pg_catalog.int8'::pg_catalog.regtype THEN
    RAISE EXCEPTION 'the range of server % ends at %, beyond the sequence''s type %', server, high, s.seqtypid::pg_catalog.regtype
      USING ERRCODE = 'numeric_value_out_of_range';
  END IF;
  IF s.seqincrement OPERATOR(pg_catalog.<) 0 THEN
    RAISE EXCEPTION 'sequence % counts down (increment %)', seq, s.seqincrement
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Which values a sequence that counts down gave cannot be told from its position.',
            HINT = pg_catalog.format('Set up a new sequence, or ALTER SEQUENCE %s INCREMENT BY 1 RESTART WITH a value above every value it gave first.', seq);
  END IF;
  PERFORM pg_catalog.pg_sequence_last_value(seq);  -- (locks it by its OID; SELECT or USAGE)
  EXECUTE pg_catalog.format('SELECT q.last_value, q.is_called, q.tableoid FROM %s q', seq) INTO pos;
  IF pos.tableoid OPERATOR(pg_catalog.<>) seq::pg_catalog.oid THEN
    RAISE EXCEPTION 'sequence % changed while it was read', seq USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  next := CASE WHEN pos.is_called THEN pos.last_value::pg_catalog.numeric OPERATOR(pg_catalog.+) s.seqincrement
               ELSE pos.last_value::pg_catalog.numeric END;
  IF next OPERATOR(pg_catalog.>) high THEN
    RAISE EXCEPTION 'sequence % is past the range % to % of server %: its next value is %', seq, low, high, server, next
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Every value below a sequence''s next value counts as given.',
            HINT = 'Set up a new sequence for the range scheme.';
  END IF;
  IF next OPERATOR(pg_catalog.>) 1 AND next OPERATOR(pg_catalog.<=) low AND server OPERATOR(pg_catalog.>) 0 THEN
    RAISE EXCEPTION 'sequence % counts the values up to % as given, in the range of server %', seq,
      next OPERATOR(pg_catalog.-) 1, pg_catalog.div(next OPERATOR(pg_catalog.-) 2, range_size::pg_catalog.numeric)
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'That server would give them again (every value below a sequence''s next value counts as given).',
            HINT = 'Set up a new sequence for the range scheme.';
  END IF;
  EXECUTE pg_catalog.format('ALTER SEQUENCE %s INCREMENT BY 1 MINVALUE %s MAXVALUE %s START WITH %s RESTART WITH %s NO CYCLE',
                            seq, low, high, low, GREATEST(low::pg_catalog.numeric, next));
END
$$;
COMMENT ON FUNCTION idgen.range_sequence(pg_catalog.regclass, pg_catalog.int4, pg_catalog.int8) IS
'sets up a sequence to give server k (0-based) its own range k * range_size + 1 .. (k + 1) * range_size, above every value below its next value; refuses sequences that count down and ranges that overlap what it gave';

---------------------------------------------------------------------------------------------------
-- The coordinated generators are PARALLEL UNSAFE, as nextval() is: each call moves state that every
-- session of the server shares and may write the durable marks (WAL, the database's copy), which
-- a parallel worker must not do. A query that calls one is planned without parallel workers; a
-- query that only decodes or bounds IDs keeps them (those functions stay PARALLEL SAFE).
---------------------------------------------------------------------------------------------------

ALTER FUNCTION idgen.uuidv7() PARALLEL UNSAFE;
ALTER FUNCTION idgen.uuidv7(pg_catalog.interval) PARALLEL UNSAFE;
ALTER FUNCTION idgen.instagram_id(pg_catalog.int8) PARALLEL UNSAFE;
ALTER FUNCTION idgen.instagram_id(pg_catalog.int8, pg_catalog.timestamptz) PARALLEL UNSAFE;
ALTER FUNCTION idgen.snowflake_id() PARALLEL UNSAFE;
ALTER FUNCTION idgen.sonyflake_id() PARALLEL UNSAFE;
ALTER FUNCTION idgen.trace_id() PARALLEL UNSAFE;
ALTER FUNCTION idgen.js_id() PARALLEL UNSAFE;
ALTER FUNCTION idgen.typeid(pg_catalog.text, pg_catalog.bool, pg_catalog.text) PARALLEL UNSAFE;
ALTER FUNCTION idgen.type_id_generate(pg_catalog.text, pg_catalog.bool) PARALLEL UNSAFE;
ALTER FUNCTION idgen.uid20() PARALLEL UNSAFE;
ALTER FUNCTION idgen.uid20_numeric() PARALLEL UNSAFE;
ALTER FUNCTION idgen.uid20_sec() PARALLEL UNSAFE;
ALTER FUNCTION idgen.ns_id(pg_catalog.int4, pg_catalog.text) PARALLEL UNSAFE;
ALTER FUNCTION idgen.decimal_id() PARALLEL UNSAFE;
ALTER FUNCTION idgen.ulid() PARALLEL UNSAFE;
ALTER FUNCTION idgen.ulid_uuid() PARALLEL UNSAFE;

---------------------------------------------------------------------------------------------------
-- On a server that has made IDs, a new copy of the durable mark starts at the server's leases,
-- under this run of the server (one value writes it): a dump made before the database's next ID
-- then still covers the rows it held before a DROP EXTENSION. (A server that never made an ID has
-- no lease to start from; an update keeps the copy it has.) Where the server cannot make a value
-- now (a setting it rejected, no shared state), the copy stays at 0 and the first ID writes it.
---------------------------------------------------------------------------------------------------

DO $start_copy$
BEGIN
  IF (SELECT s.last_value OPERATOR(pg_catalog.=) 0 AND NOT s.is_called FROM idgen.mark s)
     AND EXISTS (SELECT FROM pg_catalog.pg_replication_origin o WHERE o.roname OPERATOR(pg_catalog.=) 'idgen_mark') THEN
    BEGIN
      PERFORM idgen.uuidv7();
    EXCEPTION WHEN OTHERS THEN
      NULL;
    END;
  END IF;
END
$start_copy$;
