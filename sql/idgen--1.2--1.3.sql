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
-- convert_column sees every row, or refuses (issue 29, item 11). Before, it took the maximum of the
-- rows that row-level security let the caller see (a policy forced on the table's owner could hide
-- a row above the first new ID), and of the rows a view's WHERE kept. It runs as its caller, who
-- must own the table (ALTER TABLE): now it refuses (42501) where row-level security applies to that
-- role, runs with row_security off (PostgreSQL then fails any query that a policy would filter,
-- rather than filter it), and converts a table's column only (42809 for a view or a foreign table).
---------------------------------------------------------------------------------------------------

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
