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
-- marks. idgen.bind_instagram_shard converts a marks table of 1.2 (one row per shard, which the
-- trigger of 1.3 still updates in the inserting transaction until then) and leaves its writes to its
-- owner: the inserting role needs no right on the marks.
---------------------------------------------------------------------------------------------------

CREATE TABLE idgen.instagram_shard_schemas (
  shard pg_catalog.int4 PRIMARY KEY CHECK (shard OPERATOR(pg_catalog.>=) 0 AND shard OPERATOR(pg_catalog.<=) 8191),
  schema_name pg_catalog.name NOT NULL
);
COMMENT ON TABLE idgen.instagram_shard_schemas IS
'the schema each bound Instagram shard lives in (idgen.bind_instagram_shard): its IDs are made only where that schema is, by the trigger idgen.instagram_shard_id() or idgen.instagram_id(shard); on Citus a reference table';
GRANT SELECT ON idgen.instagram_shard_schemas TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('idgen.instagram_shard_schemas', '');

CREATE OR REPLACE FUNCTION idgen.instagram_shard_id() RETURNS pg_catalog.trigger
AS 'MODULE_PATHNAME', 'idgen_instagram_shard_id'
LANGUAGE C;
COMMENT ON FUNCTION idgen.instagram_shard_id() IS
'trigger (BEFORE INSERT, FOR EACH ROW; arguments: the ID column, default id, and optionally the column holding the row''s shard): fills a NULL ID with an Instagram ID of the shard bound to its schema (idgen.bind_instagram_shard) or named by the row, where the row is stored, after the marks of the servers that held the shard before; a transaction whose IDs pass the marks adds a mark of its own, so that no insert waits for another';

CREATE OR REPLACE FUNCTION idgen.bind_instagram_shard(schema pg_catalog.regnamespace, shard pg_catalog.int4) RETURNS pg_catalog.void
AS 'MODULE_PATHNAME', 'idgen_bind_instagram_shard'
LANGUAGE C VOLATILE STRICT SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION idgen.bind_instagram_shard(pg_catalog.regnamespace, pg_catalog.int4) IS
'binds an Instagram shard to a schema its caller owns: a row of the schema''s table idgen_instagram_shard (created on first use, or converted from idgen 1.2''s, writable by its owner only), which idgen.instagram_shard_id() reads, and of idgen.instagram_shard_schemas (a shard bound to another schema is refused); on Citus, on the coordinator, before citus_schema_distribute, so that the table moves with the schema''s';
