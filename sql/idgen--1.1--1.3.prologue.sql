-- The first statements of the update from 1.1 (scripts/chain-scripts.sh puts them before the frozen
-- 1.1 -> 1.2 script, whose own move of these domains then finds none). idgen 1.1's define_id_type
-- made its domains in pg_catalog, which pg_dump skips. The frozen update moved each to the schema of
-- the table using it whose name sorts first, and gave it to that table's owner, quoting the schema's
-- name twice on the way: any role that could create a schema and a table using the domain (a schema
-- "0evil" sorts before the owner's) got the domain, and with it a constraint that a superuser's
-- inserts run, or a DROP DOMAIN ... CASCADE of the owner's columns (issue 29, item 2, and its
-- adversarial pass). Each domain moves instead to a schema that the extension's owner or a
-- superuser owns and that a table using it is in (else to public, when public belongs to one of
-- them, or to pg_database_owner), and keeps the owner who made it.
DO $domains$
DECLARE
  d pg_catalog.record;
  target pg_catalog.oid;
  owner_of_idgen pg_catalog.oid;
BEGIN
  SELECT e.extowner INTO owner_of_idgen FROM pg_catalog.pg_extension e
  WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name;
  FOR d IN
    SELECT t.oid, t.typname FROM pg_catalog.pg_type t
    WHERE t.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
      AND t.typtype OPERATOR(pg_catalog.=) 'd'::pg_catalog.char
      AND pg_catalog.obj_description(t.oid, 'pg_type') OPERATOR(pg_catalog.~) '^typeid with prefix .* \(idgen\.define_id_type\)$'
  LOOP
    target := NULL;
    SELECT c.relnamespace INTO target
    FROM pg_catalog.pg_attribute a
    JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) a.attrelid
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
    JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
    WHERE a.atttypid OPERATOR(pg_catalog.=) d.oid AND NOT a.attisdropped
      AND c.relnamespace OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.regnamespace
      AND (n.nspowner OPERATOR(pg_catalog.=) owner_of_idgen OR r.rolsuper)
    ORDER BY n.nspname, c.relname
    LIMIT 1;
    IF target IS NULL THEN
      SELECT n.oid INTO target
      FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
      WHERE n.nspname OPERATOR(pg_catalog.=) 'public'::pg_catalog.name
        AND (n.nspowner OPERATOR(pg_catalog.=) owner_of_idgen OR r.rolsuper
             OR r.rolname OPERATOR(pg_catalog.=) 'pg_database_owner'::pg_catalog.name);
    END IF;
    IF target IS NULL THEN
      RAISE WARNING 'domain pg_catalog.% stays in pg_catalog: no schema of the extension''s owner or of a superuser uses it, and public is another role''s', d.typname
        USING HINT = 'Move it yourself, as a superuser: ALTER DOMAIN pg_catalog.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(d.typname) OPERATOR(pg_catalog.||) ' SET SCHEMA <schema>.';
      CONTINUE;
    END IF;
    EXECUTE pg_catalog.format('ALTER DOMAIN pg_catalog.%I SET SCHEMA %I', d.typname,
                              (SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.oid OPERATOR(pg_catalog.=) target));
    RAISE NOTICE 'domain %.% moved out of pg_catalog', target::pg_catalog.regnamespace, d.typname;
  END LOOP;
END
$domains$;
