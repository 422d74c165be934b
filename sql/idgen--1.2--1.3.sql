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
    statement := CASE kind
      WHEN 'table' THEN 'TABLE' WHEN 'sequence' THEN 'SEQUENCE' WHEN 'view' THEN 'VIEW'
      WHEN 'function' THEN 'FUNCTION' WHEN 'procedure' THEN 'PROCEDURE' WHEN 'aggregate' THEN 'AGGREGATE'
      WHEN 'type' THEN 'TYPE' WHEN 'domain' THEN 'DOMAIN'
      WHEN 'operator class' THEN 'OPERATOR CLASS' WHEN 'operator family' THEN 'OPERATOR FAMILY'
    END;
    IF statement IS NULL THEN
      RAISE EXCEPTION 'idgen cannot move its % % to its new schema', kind, identity
        USING ERRCODE = 'internal_error';
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

CREATE FUNCTION idgen.drop_guard() RETURNS event_trigger
AS 'MODULE_PATHNAME', 'idgen_drop_guard'
LANGUAGE C;
COMMENT ON FUNCTION idgen.drop_guard() IS
'event trigger: refuses DROP EXTENSION idgen (and DROP OWNED BY its owner) while this database holds IDs, by its copy of the durable mark, that this server has not passed';

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
