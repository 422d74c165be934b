-- idgen 1.1 -> 1.2: nobody promoted, nothing repeated. Runs as a superuser (a trusted install's
-- owner included) with search_path set to idgen, in a schema the database owner may own and may
-- have filled: every name is qualified (see idgen--1.2.sql), and the first statement refuses a
-- schema that holds anything but idgen's own objects.
\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- The schema: idgen's objects only, and only superusers may create objects in it.
---------------------------------------------------------------------------------------------------

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
-- idgen 1.1's define_id_type made its domains in pg_catalog, which pg_dump skips (a restore lost
-- the tables that used them): each moves to the schema of a table that uses it (else public), owned
-- by that table's owner.
---------------------------------------------------------------------------------------------------

DO $domains$
DECLARE
  d pg_catalog.record;
  target pg_catalog.oid;
  new_owner pg_catalog.oid;
BEGIN
  FOR d IN
    SELECT t.oid, t.typname FROM pg_catalog.pg_type t
    WHERE t.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
      AND t.typtype OPERATOR(pg_catalog.=) 'd'::pg_catalog.char
      AND pg_catalog.obj_description(t.oid, 'pg_type') OPERATOR(pg_catalog.~) '^typeid with prefix .* \(idgen\.define_id_type\)$'
  LOOP
    SELECT c.relnamespace, c.relowner INTO target, new_owner
    FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) a.attrelid
    WHERE a.atttypid OPERATOR(pg_catalog.=) d.oid AND NOT a.attisdropped
      AND c.relnamespace OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.regnamespace
    ORDER BY c.relnamespace::pg_catalog.regnamespace::pg_catalog.text, c.relname
    LIMIT 1;
    IF target IS NULL THEN
      target := pg_catalog.to_regnamespace('public');
      new_owner := (SELECT e.extowner FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name);
    END IF;
    IF target IS NULL THEN
      RAISE WARNING 'domain pg_catalog.% stays in pg_catalog: no table uses it and there is no schema public', d.typname
        USING HINT = 'Move it yourself: ALTER DOMAIN pg_catalog.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(d.typname) OPERATOR(pg_catalog.||) ' SET SCHEMA <schema>.';
      CONTINUE;
    END IF;
    EXECUTE pg_catalog.format('ALTER DOMAIN pg_catalog.%I SET SCHEMA %I', d.typname, target::pg_catalog.regnamespace);
    EXECUTE pg_catalog.format('ALTER DOMAIN %I.%I OWNER TO %I', target::pg_catalog.regnamespace, d.typname,
                              pg_catalog.pg_get_userbyid(new_owner));
    RAISE NOTICE 'domain %.% moved out of pg_catalog', target::pg_catalog.regnamespace, d.typname;
  END LOOP;
END
$domains$;

---------------------------------------------------------------------------------------------------
-- idgen 1.1 kept a mark per family in each database; 1.2 keeps the server's mark in a replication
-- origin and, per database, one copy in Unix milliseconds. The copy starts at the highest of the
-- old marks, as another server's (idgen.mark_server = 0): the first IDs after the update lie above
-- it even if the clock is behind. The DecimalId generator ids of 1.1 were this database's own: its
-- copy records the last one, so that the server's do not repeat them under the same launch id.
---------------------------------------------------------------------------------------------------

DO $marks$
DECLARE
  epoch pg_catalog.int8;
  mark_ms pg_catalog.int8 := 0;
  taken pg_catalog.int8;
  launch pg_catalog.int8;
BEGIN
  PERFORM idgen.uuidv7_min('2026-01-01 00:00:00+00'::pg_catalog.timestamptz);  -- loads the library: its settings
  -- Every OPERATOR(pg_catalog.x) has the same precedence, left to right: parentheses give the order.
  mark_ms := GREATEST(mark_ms,
    (SELECT s.last_value FROM idgen.uuidv7_mark s) OPERATOR(pg_catalog./) 4096 OPERATOR(pg_catalog.+) 1,
    (SELECT s.last_value FROM idgen.ns_mark s) OPERATOR(pg_catalog./) 1000000 OPERATOR(pg_catalog.+) 1);
  FOR epoch, taken IN
    SELECT pg_catalog.current_setting('idgen.instagram_epoch_ms')::pg_catalog.int8, s.last_value FROM idgen.instagram_mark s
    UNION ALL SELECT pg_catalog.current_setting('idgen.snowflake_epoch_ms')::pg_catalog.int8, s.last_value FROM idgen.snowflake_mark s
    UNION ALL SELECT pg_catalog.current_setting('idgen.uid20_epoch_ms')::pg_catalog.int8, s.last_value FROM idgen.uid20_mark s
  LOOP
    mark_ms := GREATEST(mark_ms, epoch OPERATOR(pg_catalog.+) taken OPERATOR(pg_catalog.+) 1);
  END LOOP;
  FOR epoch, taken IN
    SELECT pg_catalog.current_setting('idgen.sonyflake_epoch_ms')::pg_catalog.int8, s.last_value FROM idgen.sonyflake_mark s
    UNION ALL SELECT pg_catalog.current_setting('idgen.js_epoch_ms')::pg_catalog.int8, s.last_value FROM idgen.js_mark s
  LOOP
    mark_ms := GREATEST(mark_ms, epoch OPERATOR(pg_catalog.+) ((taken OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) 10));
  END LOOP;
  FOR epoch, taken IN
    SELECT pg_catalog.current_setting('idgen.trace_epoch_ms')::pg_catalog.int8, s.last_value FROM idgen.trace_mark s
    UNION ALL SELECT pg_catalog.current_setting('idgen.uid20_epoch_ms')::pg_catalog.int8, s.last_value FROM idgen.uid20_sec_mark s
  LOOP
    mark_ms := GREATEST(mark_ms, epoch OPERATOR(pg_catalog.+) ((taken OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) 1000));
  END LOOP;
  PERFORM pg_catalog.setval('idgen.mark'::pg_catalog.regclass, mark_ms, true);
  PERFORM pg_catalog.setval('idgen.mark_server'::pg_catalog.regclass, 0, true);
  taken := (SELECT s.last_value FROM idgen.decimal_generator s);
  launch := GREATEST(pg_catalog.current_setting('idgen.launch_id')::pg_catalog.int8, 0);
  IF taken OPERATOR(pg_catalog.>) 0 THEN
    PERFORM pg_catalog.setval('idgen.decimal_id_generator'::pg_catalog.regclass,
                              launch OPERATOR(pg_catalog.*) 100000 OPERATOR(pg_catalog.+) taken OPERATOR(pg_catalog.-) 1, true);
  END IF;
END
$marks$;

-- Out of the extension first: that also takes them out of its configuration tables (pg_dump).
ALTER EXTENSION idgen DROP SEQUENCE idgen.uuidv7_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.instagram_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.snowflake_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.sonyflake_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.trace_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.js_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.uid20_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.uid20_sec_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.ns_mark;
ALTER EXTENSION idgen DROP SEQUENCE idgen.decimal_generator;
DROP SEQUENCE idgen.uuidv7_mark, idgen.instagram_mark, idgen.snowflake_mark, idgen.sonyflake_mark, idgen.trace_mark,
  idgen.js_mark, idgen.uid20_mark, idgen.uid20_sec_mark, idgen.ns_mark, idgen.decimal_generator;

COMMENT ON FUNCTION idgen.decimal_id() IS
'a new DecimalId: counter * 10^10 + generator_id * 10^5 + idgen.launch_id, read c...cggggglllll; each generator''s IDs increase';

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
