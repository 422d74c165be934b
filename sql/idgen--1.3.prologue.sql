-- The first statements of the complete 1.3 script (scripts/complete-script.sh puts them before the
-- frozen 1.2 script): idgen makes its schema itself, in the installing transaction, as a member of
-- the extension. A schema idgen made before is never used, whoever made it and however empty it
-- looks: whoever could create objects in it could have added, or still be adding, a function that a
-- call of idgen.* would run (an explicit transaction, a prepared one, a session connected meanwhile).
DO $prologue$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen_sql'::pg_catalog.name) THEN
    RAISE EXCEPTION 'the SQL edition of idgen (idgen_sql) is installed in this database'
      USING ERRCODE = 'duplicate_object',
            DETAIL = 'idgen and its SQL edition use the same schema and names; one database has one of them.',
            HINT = 'To move this database from the SQL edition to idgen in place, run edition/idgen_move.sql with -v to=idgen; or restore a dump of it into a database where CREATE EXTENSION idgen has run first, without the edition (docs/managed.md).';
  END IF;
  IF EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name) THEN
    RAISE EXCEPTION 'schema "idgen" already exists'
      USING ERRCODE = 'duplicate_schema',
            DETAIL = 'idgen makes its own schema when it is installed, and never uses one made before.',
            HINT = 'Drop or rename schema idgen, then create the extension. A dump of idgen 1.2 or earlier creates the schema: restore it into a database where CREATE EXTENSION idgen has run first.';
  END IF;
END
$prologue$;
CREATE SCHEMA idgen;
