-- idgen_uuidv7 1.1: its uuidv7() is PARALLEL UNSAFE, as idgen.uuidv7() is from idgen 1.3 (and as
-- nextval() is): each call moves the order that every session of the server shares and may write
-- the durable mark, which nothing in parallel mode may do. On PostgreSQL 18 and later the extension
-- defines nothing, and this changes nothing (core's pg_catalog.uuidv7() is not the extension's).
--
-- It runs as a superuser with search_path set to the extension's schema: the function is found by
-- its dependency on the extension, never by name.
\echo Use "ALTER EXTENSION idgen_uuidv7 UPDATE" to load this file. \quit

DO $update$
DECLARE
  fn pg_catalog.regprocedure;
BEGIN
  FOR fn IN
    SELECT d.objid::pg_catalog.regprocedure
      FROM pg_catalog.pg_depend d
     WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
       AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
       AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                              WHERE e.extname OPERATOR(pg_catalog.=) 'idgen_uuidv7')
       AND d.deptype OPERATOR(pg_catalog.=) 'e'
  LOOP
    EXECUTE pg_catalog.format('ALTER FUNCTION %s PARALLEL UNSAFE', fn);
  END LOOP;
END
$update$;
