-- The extension as a whole: where it lives, what it is called, what every object says of itself.
CREATE EXTENSION idgen;

SELECT extname, extversion, extnamespace::regnamespace, extrelocatable FROM pg_extension WHERE extname = 'idgen';

-- Every member object carries a comment.
SELECT pg_describe_object(d.classid, d.objid, 0) AS uncommented
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND obj_description(d.objid, d.classid::regclass::text) IS NULL
  AND d.classid <> 'pg_type'::regclass  -- a table's row type and array types are described by their table
ORDER BY 1;
SELECT t.typname AS uncommented_type FROM pg_type t
WHERE t.typnamespace = 'idgen'::regnamespace AND t.typtype IN ('b', 'd') AND t.typcategory <> 'A'
  AND obj_description(t.oid, 'pg_type') IS NULL;
SELECT obj_description('idgen'::regnamespace, 'pg_namespace') IS NOT NULL AS schema_commented;

-- Every object lives in schema idgen; every C function is bound to idgen_<its name>[_<variant>].
SELECT p.oid::regprocedure AS misnamed FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
  AND p.prosrc NOT LIKE 'idgen\_' || p.proname || '%';
SELECT count(*) AS c_functions FROM pg_proc
WHERE pronamespace = 'idgen'::regnamespace AND prolang = (SELECT oid FROM pg_language WHERE lanname = 'c');

-- No bare uuidv7() or uuidv4() anywhere (PostgreSQL 18 has its own).
SELECT p.oid::regprocedure FROM pg_proc p WHERE p.proname IN ('uuidv7', 'uuidv4') AND p.pronamespace <> 'idgen'::regnamespace;

-- Generators volatile, decoders not; nothing that generates is immutable.
SELECT p.proname, p.provolatile, count(*) FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND (p.proname ~ '_id$' OR p.proname IN ('uuidv7', 'typeid', 'objectid', 'signed_token'))
GROUP BY 1, 2 ORDER BY 1, 2;

-- Settings: the idgen prefix is reserved; the ones that could cause collisions are the superuser's.
SELECT name, context, vartype, unit FROM pg_settings WHERE name LIKE 'idgen.%' ORDER BY name;

-- DROP EXTENSION removes every object; PostgreSQL keeps the schema that the control file named
-- (it cannot be a member of the extension it contains), empty.
DROP EXTENSION idgen;
SELECT count(*) AS objects_left FROM pg_class WHERE relnamespace = 'idgen'::regnamespace;
SELECT count(*) AS functions_left FROM pg_proc WHERE pronamespace = 'idgen'::regnamespace;
