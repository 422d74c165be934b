-- idgen_uuidv7 1.0: a bare uuidv7() for PostgreSQL 15 to 17, so that the column default an ORM
-- writes (DEFAULT uuidv7(): Rails, Prisma, Drizzle, Sequelize) finds a function there, made by
-- idgen's generator (the same C function as idgen.uuidv7(): cluster-wide order, durable mark).
--
--   CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE;   -- CASCADE installs idgen too
--
-- PostgreSQL 18 has its own pg_catalog.uuidv7() (ordered per session), which a bare uuidv7() finds
-- first: there this script defines nothing and says so (a warning), so that idgen never stands
-- beside core's under the same name, and a migration history that installs the extension replays
-- on every major (it was refused, 0A000, and the migrations after it never ran). Write
-- idgen.uuidv7() in the default for idgen's order on every major.
--
-- It runs as a superuser (a trusted install included), with search_path set to the schema the
-- installer chose (a relocatable extension: CREATE EXTENSION puts that schema first, and the
-- unqualified CREATE FUNCTION below creates in it): everything the script calls is qualified
-- (pg_catalog.*, OPERATOR(pg_catalog.=)), and a uuidv7() already in that schema is refused before
-- anything is created. The function is created by EXECUTE in the block that checks, so that 18 and
-- later skip it.
\echo Use "CREATE EXTENSION idgen_uuidv7" to load this file. \quit

DO $guard$
BEGIN
  IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 180000 THEN
    -- (a WARNING: CREATE EXTENSION raises client_min_messages to WARNING while its script runs, so a
    -- NOTICE here would never reach the client; both travel as the protocol's notice message)
    RAISE WARNING 'idgen_uuidv7 defines nothing on PostgreSQL %: a bare uuidv7() is core''s pg_catalog.uuidv7()',
      pg_catalog.current_setting('server_version')
      USING DETAIL = 'Core''s uuidv7() orders the UUIDs of one session only. The extension is installed, empty, so that migrations that install it run on every major.',
            HINT = 'For idgen''s order across every session, write idgen.uuidv7() in the column default (DEFAULT idgen.uuidv7()).';
    RETURN;
  END IF;
  -- pg_catalog is searched first: a uuidv7() there would stand in core's place once the cluster is
  -- upgraded to 18 (pg_upgrade keeps extensions' objects, and would fail on core's own).
  IF pg_catalog.current_schema() OPERATOR(pg_catalog.=) 'pg_catalog' THEN
    RAISE EXCEPTION 'idgen_uuidv7 does not go in schema pg_catalog'
      USING ERRCODE = 'invalid_schema_name',
            HINT = 'Install it into a schema on the search_path of the roles that run the migrations: CREATE EXTENSION idgen_uuidv7 SCHEMA public.';
  END IF;
  -- The script runs as a superuser: it creates uuidv7() only where the installing role could create
  -- it herself (found by an adversarial pass: a trusted install put a superuser's uuidv7() in
  -- another role's schema, in information_schema, in pg_toast and in another session's pg_temp,
  -- squatting the name there), and never in a system or temporary schema.
  IF pg_catalog.current_schema() OPERATOR(pg_catalog.=) 'information_schema'
     OR pg_catalog.current_schema() OPERATOR(pg_catalog.~) '^pg_(temp|toast)'
     OR NOT (SELECT pg_catalog.has_schema_privilege(e.extowner, n.oid, 'CREATE')
               FROM pg_catalog.pg_extension e, pg_catalog.pg_namespace n
              WHERE e.extname OPERATOR(pg_catalog.=) 'idgen_uuidv7'
                AND n.nspname OPERATOR(pg_catalog.=) pg_catalog.current_schema()) THEN
    RAISE EXCEPTION 'idgen_uuidv7 goes only in a schema where its installer may create functions: not in %',
      pg_catalog.current_schema()
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Install it into a schema of yours (CREATE EXTENSION idgen_uuidv7 SCHEMA public, where you have CREATE), never a system or temporary schema.';
  END IF;
  IF EXISTS (SELECT FROM pg_catalog.pg_proc p
             JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
             WHERE p.proname OPERATOR(pg_catalog.=) 'uuidv7'
               AND n.nspname OPERATOR(pg_catalog.=) pg_catalog.current_schema()
               AND p.pronargs OPERATOR(pg_catalog.=) 0) THEN
    RAISE EXCEPTION 'schema % already has a function uuidv7()', pg_catalog.current_schema()
      USING ERRCODE = 'duplicate_function',
            HINT = 'Install idgen_uuidv7 into another schema (CREATE EXTENSION idgen_uuidv7 SCHEMA ...), or drop that function first.';
  END IF;
  EXECUTE $create$
    CREATE FUNCTION uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuidv7'
    LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED
  $create$;
  EXECUTE $comment$
    COMMENT ON FUNCTION uuidv7() IS
    'a new UUIDv7 from idgen (the same generator as idgen.uuidv7()): strictly increasing across the server when its state is shared'
  $comment$;
END
$guard$;
