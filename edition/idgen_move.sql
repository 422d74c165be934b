-- Swaps idgen and its SQL edition (idgen_sql) in place, in one database and one transaction, keeping
-- the rows, the column defaults and the idgen.objectid columns; new 64-bit IDs come out above the old.
--
--   psql -X -v ON_ERROR_STOP=1 -v to=idgen     -d app -f idgen_move.sql   # the edition -> idgen
--   psql -X -v ON_ERROR_STOP=1 -v to=idgen_sql -d app -f idgen_move.sql   # idgen -> the edition
--   (-v max_wait=30s: the longest it waits for the clock, moving to idgen; 10s when not given;
--    -v lock_timeout=30s: the longest it waits for a lock another session holds; 10s)
--
-- Run it as the owner of the installed extension (or a superuser; a database owner who created a
-- trusted one is), where the other one can be created (idgen: its library installed, and preloaded
-- on 15 and 16; the edition: its files, or pg_tle with it installed). In one transaction it:
--   1. records every column default that depends on an object of the installed extension (its
--      expression, as pg_get_expr writes it: schema-qualified) and every column of type
--      idgen.objectid;
--   2. drops those defaults (their tables stay locked to the end), and finds the highest time each
--      64-bit family has reached: a new ID of the family (above every one made before: the
--      edition's state word is a sequence, idgen's the server's; idgen's Instagram words are one a
--      shard, so for Instagram moving from idgen the columns alone say), and the largest ID of each
--      column such a generator fills. The other edition's words start from the clock, so it waits
--      for the clock to pass that time, up to max_wait, and refuses beyond (55000);
--   3. turns the objectid columns to text (collation "C"), drops the extension WITHOUT CASCADE
--      (anything else that depends on it: a view, an index on one of its functions, a function whose
--      body calls one, a column of another of its types, makes the drop fail, and with it the whole
--      transaction, changing nothing), and creates the other;
--   4. turns the objectid columns back to idgen.objectid (now the other's type; the table is
--      rewritten) and puts each default back as it was, then checks that every one depends on the
--      new extension.
-- A default that calls what the target lacks (idgen.decimal_id() moving to the edition) fails step
-- 4, and the transaction with it.
--
-- It runs no code of another role. Whoever runs it (a superuser, often) runs with their own rights
-- everything the move evaluates, so it evaluates nothing that a role other than the caller or a
-- superuser owns or wrote, or refuses before changing anything (42501), naming what and whose:
--   - the relations it touches (those whose defaults move, whose largest ID it reads, those with an
--     objectid column, which it rewrites, and their partitions and children) are found from the
--     catalogs alone and locked first; then each of them, and everything reachable from them
--     through the catalog's dependencies (their constraints, indexes, statistics, defaults, column
--     types and what those call: functions, operators, operator classes, a domain's checks, a
--     foreign key's table), must belong to the caller or a superuser, before any expression of
--     theirs is read. The owner of another role's tables runs the move herself;
--   - the objectid columns must be of the source's own type (idgen's base type, or the edition's
--     domain over text, whose casts call nothing);
--   - it calls none of the edition's functions: the state words are read from the edition's
--     sequences, and IDs are decoded here, with the layouts both editions publish (a caller who
--     may not read the sequences falls back on the edition's functions only where the caller or a
--     superuser owns them: the extension installed from files, whose objects the bootstrap
--     superuser owns);
--   - it calls idgen's functions only where a superuser owns them (a C function always is);
--   - a superuser's move to the edition refuses where pg_tle would run an install script that a
--     role without superuser installed;
--   - it runs as the role that connected: a role set for the session (ALTER DATABASE ... SET role)
--     is refused.
-- The tables it reads for their largest ID are read with row_security off: a policy of another
-- role is never evaluated, and a table it would filter fails the move instead. Nothing it runs
-- resolves a name through a schema a database owner could write to: search_path is pg_catalog,
-- pg_temp, and every other name is schema-qualified (operators are written plainly: under that
-- path they resolve in pg_catalog alone, as pg_temp is never searched for operators or functions).
\if :{?to}
\else
\echo 'usage: psql -X -v ON_ERROR_STOP=1 -v to=idgen|idgen_sql [-v max_wait=10s] [-v lock_timeout=10s] -d DATABASE -f idgen_move.sql'
\quit
\endif
\if :{?max_wait}
\else
\set max_wait 10s
\endif
\if :{?lock_timeout}
\else
\set lock_timeout 10s
\endif

-- (read committed whatever a database sets: each statement sees what the locks before it settled)
BEGIN ISOLATION LEVEL READ COMMITTED;
SET LOCAL search_path = pg_catalog, pg_temp;
-- A lock another session holds on a table or an extension the move changes (another role's open
-- transaction that read one) is waited for up to lock_timeout, then the move fails, changing nothing.
SELECT pg_catalog.set_config('lock_timeout', :'lock_timeout', true) AS lock_timeout \gset idgen_move_
SELECT pg_catalog.set_config('idgen_move.target', :'to', true) AS target,
       pg_catalog.set_config('idgen_move.max_wait', :'max_wait', true) AS max_wait \gset idgen_move_
DO $move$
#variable_conflict error
DECLARE
  target pg_catalog.text := pg_catalog.current_setting('idgen_move.target');
  max_wait pg_catalog.interval := CAST(pg_catalog.current_setting('idgen_move.max_wait') AS pg_catalog.interval);
  source pg_catalog.text;
  ext pg_catalog.oid;
  families pg_catalog.text[] := ARRAY['instagram', 'snowflake', 'sonyflake', 'trace', 'js'];
  -- Each 64-bit family's layout, as both editions publish it: its epoch and tick (milliseconds), the
  -- bits of its time field, the bits below it (node and sequence), those of its sequence, whether
  -- its time wraps. The move decodes IDs and state words with these itself.
  layouts pg_catalog.jsonb := '{
    "instagram": {"epoch": 1314220021721, "unit": 1, "time": 41, "low": 23, "seq": 10, "wraps": false},
    "snowflake": {"epoch": 1288834974657, "unit": 1, "time": 41, "low": 22, "seq": 12, "wraps": false},
    "sonyflake": {"epoch": 1409529600000, "unit": 10, "time": 39, "low": 24, "seq": 8, "wraps": false},
    "trace": {"epoch": 0, "unit": 1000, "time": 25, "low": 38, "seq": 22, "wraps": true},
    "js": {"epoch": 1767225600000, "unit": 10, "time": 38, "low": 15, "seq": 10, "wraps": false}}';
  l pg_catalog.jsonb;
  epoch pg_catalog.int8;
  tick pg_catalog.int8;
  id pg_catalog.int8;
  reference pg_catalog.int8;
  seq pg_catalog.oid;
  foreign_code pg_catalog.text;
  rels pg_catalog.oid[];
  locked pg_catalog.oid[] := '{}';
  rel pg_catalog.oid;
  -- the end of the highest tick each family's IDs have reached, in Unix milliseconds
  reached pg_catalog.jsonb := '{}';
  -- the edition's (1.1) highest word of each family
  words pg_catalog.jsonb := '{}';
  defaults pg_catalog.jsonb;
  columns pg_catalog.jsonb;
  d pg_catalog.jsonb;
  f pg_catalog.text;
  ms pg_catalog.int8;
  now_ms pg_catalog.int8;
  deadline pg_catalog.timestamptz;
  n pg_catalog.int8;
  k pg_catalog.int4;
  message pg_catalog.text;
  detail pg_catalog.text;
BEGIN
  IF target = 'idgen' THEN
    source := 'idgen_sql';
  ELSIF target = 'idgen_sql' THEN
    source := 'idgen';
  ELSE
    RAISE EXCEPTION 'invalid value for to: "%"', target
      USING ERRCODE = 'invalid_parameter_value', HINT = 'to=idgen moves a database from the SQL edition to idgen; to=idgen_sql moves it back.';
  END IF;
  -- The move judges code by its owner against the role that runs it: a role set for the session
  -- (ALTER DATABASE ... SET role, a SET ROLE) is not the one that connected, whose rights the
  -- session still has.
  IF CURRENT_USER <> SESSION_USER THEN
    RAISE EXCEPTION 'the move runs as the role that connected (%), not as %', SESSION_USER, CURRENT_USER
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'A role set for the session (SET ROLE, or ALTER DATABASE or ALTER ROLE ... SET role) would decide whose code the move may run, while the session keeps the rights of the role that connected.',
            HINT = pg_catalog.format('Connect as the role that is to run the move, or remove that setting (ALTER DATABASE %I RESET role).', pg_catalog.current_database());
  END IF;
  SELECT e.oid INTO ext FROM pg_catalog.pg_extension e WHERE e.extname = source;
  IF ext IS NULL THEN
    RAISE EXCEPTION '% is not installed in this database', source
      USING ERRCODE = 'undefined_object',
            HINT = pg_catalog.format('Moving to %s swaps %s for it; a database with neither needs only CREATE EXTENSION %s.', target, source, target);
  END IF;

  -- 0. The relations the move touches, found from the catalogs alone: those whose column defaults
  -- depend on the extension, those with an idgen.objectid column, and their partitions and
  -- children. Reading the largest ID of the first, and rewriting the second, plans and evaluates
  -- what belongs to them and what that depends on: CHECK constraints (the planner folds them),
  -- index expressions and predicates, statistics, partition keys, column defaults and types (a
  -- constant's input and output, an index's support functions: a range type's subtype_diff, ...).
  -- A superuser would run all of it with a superuser's rights. So the move first locks every such
  -- relation (ACCESS EXCLUSIVE, until the end: nothing is added to them after they are judged),
  -- looking again until no new one appears, then requires that each of them, and everything
  -- reachable from them through the catalog's dependencies, belongs to the caller or a superuser,
  -- before any expression of theirs is read. Otherwise it refuses (42501), having changed nothing:
  -- whoever owns them runs the move, with her own rights.
  LOOP
    WITH RECURSIVE r(relid) AS (
      SELECT ad.adrelid FROM pg_catalog.pg_attrdef ad JOIN pg_catalog.pg_class c ON c.oid = ad.adrelid
       WHERE c.relkind = ANY (ARRAY['r', 'p', 'f']::pg_catalog."char"[])
         AND EXISTS (SELECT FROM pg_catalog.pg_depend dd
                     JOIN pg_catalog.pg_depend de ON de.classid = dd.refclassid AND de.objid = dd.refobjid
                     WHERE dd.classid = CAST('pg_catalog.pg_attrdef' AS pg_catalog.regclass) AND dd.objid = ad.oid
                       AND de.refclassid = CAST('pg_catalog.pg_extension' AS pg_catalog.regclass)
                       AND de.refobjid = ext AND de.deptype = 'e')
      UNION
      SELECT a.attrelid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
        JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
       WHERE t.typname = 'objectid' AND t.typnamespace = CAST('idgen' AS pg_catalog.regnamespace)
         AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind = ANY (ARRAY['r', 'p', 'f']::pg_catalog."char"[])
      UNION
      SELECT i.inhrelid FROM pg_catalog.pg_inherits i JOIN r ON i.inhparent = r.relid
    )
    SELECT COALESCE(pg_catalog.array_agg(DISTINCT r.relid), '{}') INTO rels FROM r;
    EXIT WHEN rels OPERATOR(pg_catalog.<@) locked;
    FOR rel IN SELECT x FROM pg_catalog.unnest(rels) x WHERE NOT x = ANY (locked) LOOP
      IF (SELECT c.relkind FROM pg_catalog.pg_class c WHERE c.oid = rel) = 'f' THEN
        -- (LOCK TABLE takes no foreign table: a change of owner to the owner it has locks it alone)
        EXECUTE pg_catalog.format('ALTER FOREIGN TABLE ONLY %s OWNER TO %I', CAST(rel AS pg_catalog.regclass),
                                  (SELECT r.rolname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_roles r ON r.oid = c.relowner WHERE c.oid = rel));
      ELSE
        EXECUTE pg_catalog.format('LOCK TABLE ONLY %s IN ACCESS EXCLUSIVE MODE', CAST(rel AS pg_catalog.regclass));
      END IF;
      locked := locked || rel;
    END LOOP;
  END LOOP;
  WITH RECURSIVE node(classid, objid) AS (
    SELECT CAST('pg_catalog.pg_class' AS pg_catalog.regclass), x FROM pg_catalog.unnest(rels) x
    UNION
    -- the source extension's members: what the move reads, drops, and relies on being the extension's
    SELECT dp.classid, dp.objid FROM pg_catalog.pg_depend dp
     WHERE dp.refclassid = CAST('pg_catalog.pg_extension' AS pg_catalog.regclass) AND dp.refobjid = ext AND dp.deptype = 'e'
    UNION
    SELECT n2.classid, n2.objid FROM node n CROSS JOIN LATERAL (
      -- what a relation holds
      SELECT CAST('pg_catalog.pg_attrdef' AS pg_catalog.regclass), d.oid FROM pg_catalog.pg_attrdef d
       WHERE n.classid = CAST('pg_catalog.pg_class' AS pg_catalog.regclass) AND d.adrelid = n.objid
      UNION ALL
      SELECT CAST('pg_catalog.pg_constraint' AS pg_catalog.regclass), k.oid FROM pg_catalog.pg_constraint k
       WHERE n.classid = CAST('pg_catalog.pg_class' AS pg_catalog.regclass) AND k.conrelid = n.objid
      UNION ALL
      -- (a foreign key of another table that points at it, checked again when its column changes type)
      SELECT CAST('pg_catalog.pg_constraint' AS pg_catalog.regclass), k.oid FROM pg_catalog.pg_constraint k
       WHERE n.classid = CAST('pg_catalog.pg_class' AS pg_catalog.regclass) AND k.confrelid = n.objid
      UNION ALL
      SELECT CAST('pg_catalog.pg_class' AS pg_catalog.regclass), i.indexrelid FROM pg_catalog.pg_index i
       WHERE n.classid = CAST('pg_catalog.pg_class' AS pg_catalog.regclass) AND i.indrelid = n.objid
      UNION ALL
      SELECT CAST('pg_catalog.pg_statistic_ext' AS pg_catalog.regclass), x.oid FROM pg_catalog.pg_statistic_ext x
       WHERE n.classid = CAST('pg_catalog.pg_class' AS pg_catalog.regclass) AND x.stxrelid = n.objid
      UNION ALL
      -- a domain's constraints, a composite type's relation
      SELECT CAST('pg_catalog.pg_constraint' AS pg_catalog.regclass), k.oid FROM pg_catalog.pg_constraint k
       WHERE n.classid = CAST('pg_catalog.pg_type' AS pg_catalog.regclass) AND k.contypid = n.objid
      UNION ALL
      SELECT CAST('pg_catalog.pg_class' AS pg_catalog.regclass), t.typrelid FROM pg_catalog.pg_type t
       WHERE n.classid = CAST('pg_catalog.pg_type' AS pg_catalog.regclass) AND t.oid = n.objid AND t.typrelid <> 0
      UNION ALL
      -- and what each depends on: types, functions, operators, operator classes and families,
      -- relations (a foreign key's table), constraints
      SELECT dp.refclassid, dp.refobjid FROM pg_catalog.pg_depend dp
       WHERE dp.classid = n.classid AND dp.objid = n.objid
         AND dp.refclassid = ANY (ARRAY[CAST('pg_catalog.pg_type' AS pg_catalog.regclass), CAST('pg_catalog.pg_proc' AS pg_catalog.regclass),
                                        CAST('pg_catalog.pg_operator' AS pg_catalog.regclass), CAST('pg_catalog.pg_opclass' AS pg_catalog.regclass),
                                        CAST('pg_catalog.pg_opfamily' AS pg_catalog.regclass), CAST('pg_catalog.pg_class' AS pg_catalog.regclass),
                                        CAST('pg_catalog.pg_constraint' AS pg_catalog.regclass)])
    ) n2(classid, objid)
  ), owned(classid, objid, owner) AS (
    SELECT n.classid, n.objid, CASE n.classid
        WHEN CAST('pg_catalog.pg_class' AS pg_catalog.regclass) THEN (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = n.objid)
        WHEN CAST('pg_catalog.pg_type' AS pg_catalog.regclass) THEN (SELECT t.typowner FROM pg_catalog.pg_type t WHERE t.oid = n.objid)
        WHEN CAST('pg_catalog.pg_proc' AS pg_catalog.regclass) THEN (SELECT p.proowner FROM pg_catalog.pg_proc p WHERE p.oid = n.objid)
        WHEN CAST('pg_catalog.pg_operator' AS pg_catalog.regclass) THEN (SELECT o.oprowner FROM pg_catalog.pg_operator o WHERE o.oid = n.objid)
        WHEN CAST('pg_catalog.pg_opclass' AS pg_catalog.regclass) THEN (SELECT o.opcowner FROM pg_catalog.pg_opclass o WHERE o.oid = n.objid)
        WHEN CAST('pg_catalog.pg_opfamily' AS pg_catalog.regclass) THEN (SELECT o.opfowner FROM pg_catalog.pg_opfamily o WHERE o.oid = n.objid)
        WHEN CAST('pg_catalog.pg_statistic_ext' AS pg_catalog.regclass) THEN (SELECT x.stxowner FROM pg_catalog.pg_statistic_ext x WHERE x.oid = n.objid)
        WHEN CAST('pg_catalog.pg_namespace' AS pg_catalog.regclass) THEN (SELECT x.nspowner FROM pg_catalog.pg_namespace x WHERE x.oid = n.objid)
        WHEN CAST('pg_catalog.pg_attrdef' AS pg_catalog.regclass) THEN
          (SELECT c.relowner FROM pg_catalog.pg_attrdef d JOIN pg_catalog.pg_class c ON c.oid = d.adrelid WHERE d.oid = n.objid)
        WHEN CAST('pg_catalog.pg_constraint' AS pg_catalog.regclass) THEN
          (SELECT COALESCE(c.relowner, t.typowner) FROM pg_catalog.pg_constraint k
             LEFT JOIN pg_catalog.pg_class c ON c.oid = k.conrelid LEFT JOIN pg_catalog.pg_type t ON t.oid = k.contypid
            WHERE k.oid = n.objid) END
      FROM node n
  )
  SELECT pg_catalog.string_agg(x.what, '; ' ORDER BY x.what) FILTER (WHERE x.rank <= 20)
         || CASE WHEN pg_catalog.count(*) > 20 THEN pg_catalog.format('; and %s more', pg_catalog.count(*) - 20) ELSE '' END
    INTO foreign_code
    FROM (SELECT y.what, pg_catalog.row_number() OVER (ORDER BY y.what) AS rank
            FROM (SELECT DISTINCT pg_catalog.format('%s (role %I)', pg_catalog.pg_describe_object(w.classid, w.objid, 0), r.rolname) AS what
                    FROM owned w JOIN pg_catalog.pg_roles r ON r.oid = w.owner
                   WHERE NOT r.rolsuper AND r.rolname <> CURRENT_USER) y) x;
  IF foreign_code IS NOT NULL THEN
    RAISE EXCEPTION 'the move would run code of another role as %', CURRENT_USER
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = pg_catalog.format('Reading the largest IDs of the tables whose defaults move and rewriting the tables with an idgen.objectid column evaluate what belongs to them and what it depends on, which must be the caller''s or a superuser''s: %s. Nothing has changed.', foreign_code),
            HINT = 'Run the move as that role (the database owner who installed the extension), or drop those objects, move, and have their owner make them again.';
  END IF;

  -- The objectid columns are of the source's own type: idgen's (a base type a superuser made) or
  -- the edition's (a domain over text, whose casts to and from text call nothing). Another type of
  -- that name (one the edition's installer put in its place) is refused.
  SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format_type(t.oid, NULL), ', ') INTO foreign_code
    FROM pg_catalog.pg_type t
   WHERE t.typname = 'objectid' AND t.typnamespace = CAST('idgen' AS pg_catalog.regnamespace)
     AND NOT (EXISTS (SELECT FROM pg_catalog.pg_depend dp
                       WHERE dp.classid = CAST('pg_catalog.pg_type' AS pg_catalog.regclass) AND dp.objid = t.oid
                         AND dp.refclassid = CAST('pg_catalog.pg_extension' AS pg_catalog.regclass)
                         AND dp.refobjid = ext AND dp.deptype = 'e')
              AND CASE source
                    WHEN 'idgen' THEN t.typtype = 'b'
                      AND EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.oid = t.typowner AND r.rolsuper)
                    ELSE t.typtype = 'd' AND t.typbasetype = CAST('pg_catalog.text' AS pg_catalog.regtype) END);
  IF foreign_code IS NOT NULL THEN
    RAISE EXCEPTION 'type % is not the objectid type of %', foreign_code, source
      USING ERRCODE = 'wrong_object_type',
            DETAIL = 'The move turns idgen.objectid columns to text and back; it does so only for the type the extension made. Nothing has changed.',
            HINT = 'Put the extension''s own idgen.objectid back, or move the columns yourself.';
  END IF;

  -- A superuser's CREATE EXTENSION idgen_sql through pg_tle runs the install script that a role
  -- granted pgtle_admin stored there, no superuser needed: refused where such a role did (the
  -- server's own files of the edition, when it has them, are what CREATE EXTENSION takes).
  IF target = 'idgen_sql' AND EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname = CURRENT_USER AND r.rolsuper)
     AND NOT EXISTS (SELECT FROM pg_catalog.pg_available_extensions a WHERE a.name = 'idgen_sql') THEN
    SELECT pg_catalog.string_agg(pg_catalog.format('%s (role %I)', CAST(p.oid AS pg_catalog.regprocedure), r.rolname), ', ' ORDER BY p.proname)
      INTO foreign_code
      FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace JOIN pg_catalog.pg_roles r ON r.oid = p.proowner
     WHERE n.nspname = 'pgtle' AND pg_catalog.starts_with(p.proname, 'idgen_sql') AND NOT r.rolsuper;
    IF foreign_code IS NOT NULL THEN
      RAISE EXCEPTION 'the move would run an install script of another role as %', CURRENT_USER
        USING ERRCODE = 'insufficient_privilege',
              DETAIL = pg_catalog.format('CREATE EXTENSION idgen_sql runs what pg_tle holds for it: %s, which no superuser installed. Nothing has changed.', foreign_code),
              HINT = 'Run the move as a role that is no superuser (a database owner: the script then runs with her rights), or have a superuser install the edition into pg_tle.';
    END IF;
  END IF;
  -- The largest IDs are read with row_security off: no policy of another role runs here.
  PERFORM pg_catalog.set_config('row_security', 'off', true);

  -- 1. What moves, of the relations locked and judged above: each default that depends on a member
  -- of the extension (not a generated column's expression), of an ordinary, partitioned or foreign
  -- table, with the family of the 64-bit generator it calls, if any; each column of type
  -- idgen.objectid that is not inherited (ALTER TYPE on its table's root reaches the rest).
  SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'relid', r.oid, 'attnum', a.attnum, 'column', a.attname, 'expr', pg_catalog.pg_get_expr(ad.adbin, ad.adrelid),
           'family', (SELECT pg_catalog.min(pg_catalog.regexp_replace(p.proname, '_id$', ''))
                      FROM pg_catalog.pg_depend dp JOIN pg_catalog.pg_proc p ON p.oid = dp.refobjid
                      WHERE dp.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
                        AND dp.objid = ad.oid
                        AND dp.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
                        AND p.pronamespace = 'idgen'::pg_catalog.regnamespace
                        AND p.proname = ANY (ARRAY['instagram_id', 'snowflake_id', 'sonyflake_id', 'trace_id', 'js_id'])
                        -- (a bigint, or a domain over one)
                        AND 'pg_catalog.int8'::pg_catalog.regtype = (
                              WITH RECURSIVE b(oid, base) AS (
                                SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type t WHERE t.oid = a.atttypid
                                UNION ALL
                                SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type t JOIN b ON t.oid = b.base)
                              SELECT b.oid FROM b WHERE b.base = 0)))
           ORDER BY n.nspname, r.relname, a.attnum), '[]')
    INTO defaults
  FROM pg_catalog.pg_attrdef ad
  JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
  JOIN pg_catalog.pg_class r ON r.oid = ad.adrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
  WHERE a.attgenerated = '' AND r.relkind = ANY (ARRAY['r', 'p', 'f']::pg_catalog."char"[]) AND r.oid = ANY (locked)
    AND EXISTS (SELECT FROM pg_catalog.pg_depend dd
                JOIN pg_catalog.pg_depend de ON de.classid = dd.refclassid AND de.objid = dd.refobjid
                WHERE dd.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass AND dd.objid = ad.oid
                  AND de.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                  AND de.refobjid = ext AND de.deptype = 'e');

  SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('relid', r.oid, 'column', a.attname)
           ORDER BY n.nspname, r.relname, a.attnum), '[]')
    INTO columns
  FROM pg_catalog.pg_attribute a
  JOIN pg_catalog.pg_class r ON r.oid = a.attrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
  JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
  WHERE t.typname = 'objectid' AND t.typnamespace = 'idgen'::pg_catalog.regnamespace
    AND a.attnum > 0 AND NOT a.attisdropped AND a.attinhcount = 0
    AND r.relkind = ANY (ARRAY['r', 'p', 'f']::pg_catalog."char"[]) AND r.oid = ANY (locked);

  -- 2. The defaults out first: their tables locked, no row takes a default of either until the end.
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(defaults) x LOOP
    EXECUTE pg_catalog.format('ALTER TABLE ONLY %s ALTER COLUMN %I DROP DEFAULT',
                              CAST(CAST(d ->> 'relid' AS pg_catalog.oid) AS pg_catalog.regclass), d ->> 'column');
  END LOOP;

  -- The highest tick each 64-bit family has reached, as the end of that tick in Unix
  -- milliseconds: the state word of each family (the edition's, in its sequence: above every ID it
  -- made; idgen's, in the server's memory, through a new ID; idgen's Instagram words are one a
  -- shard, so for it the columns alone say), and the largest ID of each column that such a
  -- generator fills. The edition's generators are stopped until this transaction ends: from 1.1,
  -- by the lock of its gate with every offset negative (the careful way of each call waits for the
  -- lock), which the caller takes itself where it owns the edition's state (or is a superuser), and
  -- otherwise through idgen.edition_fence() where a superuser or the caller owns that; in 1.0, by
  -- its advisory locks.
  IF source = 'idgen_sql' AND EXISTS (
       SELECT FROM pg_catalog.pg_depend dp JOIN pg_catalog.pg_namespace n ON n.oid = dp.objid
        WHERE dp.classid = CAST('pg_catalog.pg_namespace' AS pg_catalog.regclass) AND dp.refclassid = CAST('pg_catalog.pg_extension' AS pg_catalog.regclass)
          AND dp.refobjid = ext AND dp.deptype = 'e' AND n.nspname = 'idgen_sql_state') THEN
    IF EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname = CURRENT_USER AND r.rolsuper)
       OR pg_catalog.pg_has_role((SELECT n.nspowner FROM pg_catalog.pg_namespace n WHERE n.nspname = 'idgen_sql_state'), 'USAGE') THEN
      LOCK TABLE idgen_sql_state.gate IN SHARE UPDATE EXCLUSIVE MODE;
      FOREACH f IN ARRAY families LOOP
        -- (offsets: the top bits hold the identity, negative while unchecked; Instagram's offset is
        -- its low 51 bits, the others' 53)
        EXECUTE pg_catalog.format('SELECT pg_catalog.pg_sequence_last_value(%L), pg_catalog.pg_sequence_last_value(%L)',
                                  'idgen_sql_state.' || f || '_offset', 'idgen_sql_state.' || f || '_counter') INTO id, n;
        id := CASE WHEN id < 0 THEN ~id ELSE id END & CASE f WHEN 'instagram' THEN 2251799813685247 ELSE 9007199254740991 END;
        PERFORM pg_catalog.setval(CAST('idgen_sql_state.' || f || '_offset' AS pg_catalog.regclass), ~id, true);
        words := words || pg_catalog.jsonb_build_object(f, COALESCE(n, 0) + id);
      END LOOP;
    ELSIF EXISTS (SELECT FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_roles r ON r.oid = p.proowner
                  WHERE p.oid = CAST('idgen.edition_fence()' AS pg_catalog.regprocedure) AND (r.rolsuper OR r.rolname = CURRENT_USER))
          AND pg_catalog.has_function_privilege(CAST('idgen.edition_fence()' AS pg_catalog.regprocedure), 'EXECUTE') THEN
      SELECT pg_catalog.jsonb_object_agg(x.family, x.word) INTO words FROM idgen.edition_fence() x;
    ELSE
      RAISE EXCEPTION 'permission denied for the state of the SQL edition'
        USING ERRCODE = 'insufficient_privilege',
              DETAIL = pg_catalog.format('%s does not own the state of the edition (schema idgen_sql_state), and may not call idgen.edition_fence(), or a role other than a superuser or %s owns it: the move calls none of its functions then. Nothing has changed.',
                                         CURRENT_USER, CURRENT_USER),
              HINT = 'Run the move as the owner of the database or the role that installed the edition, or as a superuser.';
    END IF;
  ELSIF source = 'idgen_sql' THEN
    FOR k IN 1 .. 5 LOOP
      PERFORM pg_catalog.pg_advisory_xact_lock(1768187763, k);
    END LOOP;
  END IF;
  FOREACH f IN ARRAY families LOOP
    l := layouts -> f;
    id := NULL;
    tick := NULL;
    epoch := CAST(l ->> 'epoch' AS pg_catalog.int8);
    IF words ? f THEN
      -- (1.1's words: TraceId's count seconds from 2020-01-01, not 1970)
      tick := CAST(words ->> f AS pg_catalog.int8) >> CAST(l ->> 'seq' AS pg_catalog.int4);
      IF f = 'trace' THEN epoch := 1577836800000; END IF;
    ELSIF source = 'idgen_sql' AND words <> '{}' THEN
      CONTINUE;
    ELSIF source = 'idgen_sql' THEN
      -- (the sequence of that name in schema idgen, a member of the extension: nothing else of that name)
      SELECT c.oid INTO seq FROM pg_catalog.pg_class c
       WHERE c.relnamespace = CAST('idgen' AS pg_catalog.regnamespace) AND c.relname = pg_catalog.format('edition_%s_seq', f)
         AND c.relkind = 'S'
         AND EXISTS (SELECT FROM pg_catalog.pg_depend dp
                      WHERE dp.classid = CAST('pg_catalog.pg_class' AS pg_catalog.regclass) AND dp.objid = c.oid
                        AND dp.refclassid = CAST('pg_catalog.pg_extension' AS pg_catalog.regclass)
                        AND dp.refobjid = ext AND dp.deptype = 'e');
      CONTINUE WHEN seq IS NULL;
      IF pg_catalog.has_sequence_privilege(seq, 'SELECT') THEN
        tick := pg_catalog.pg_sequence_last_value(CAST(seq AS pg_catalog.regclass)) >> CAST(l ->> 'seq' AS pg_catalog.int4);
      ELSIF EXISTS (SELECT FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_roles r ON r.oid = p.proowner
                    WHERE p.pronamespace = CAST('idgen' AS pg_catalog.regnamespace) AND NOT r.rolsuper AND r.rolname <> CURRENT_USER) THEN
        RAISE EXCEPTION 'permission denied for the state of the SQL edition'
          USING ERRCODE = 'insufficient_privilege',
                DETAIL = pg_catalog.format('%s may not read %s, and functions of the edition belong to a role other than a superuser or %s: the move calls none of them. Nothing has changed.',
                                           CURRENT_USER, CAST(seq AS pg_catalog.regclass), CURRENT_USER),
                HINT = 'Run the move as the role that installed the edition, or as a superuser.';
      ELSE
        -- (a caller who may not read the sequences, where a superuser or the caller owns every function
        -- of the edition, as after CREATE EXTENSION from files: the edition's own generator)
        EXECUTE pg_catalog.format('SELECT idgen.%I(%s)', f || '_id', CASE f WHEN 'instagram' THEN '0' ELSE '' END) INTO id;
      END IF;
    ELSIF f <> 'instagram' THEN
      -- (idgen's generators are C functions, which only a superuser makes; idgen makes IDs under the
      -- server's epoch)
      IF EXISTS (SELECT FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_roles r ON r.oid = p.proowner
                 WHERE p.oid = CAST(pg_catalog.format('idgen.%I()', f || '_id') AS pg_catalog.regprocedure) AND NOT r.rolsuper) THEN
        RAISE EXCEPTION 'idgen.%() does not belong to a superuser', f || '_id'
          USING ERRCODE = 'insufficient_privilege', DETAIL = 'The move calls only idgen''s own functions, which a superuser owns. Nothing has changed.';
      END IF;
      epoch := CAST(COALESCE(NULLIF(pg_catalog.current_setting(pg_catalog.format('idgen.%s_epoch_ms', f), true), ''), l ->> 'epoch') AS pg_catalog.int8);
      BEGIN
        EXECUTE pg_catalog.format('SELECT idgen.%I()', f || '_id') INTO id;
      EXCEPTION WHEN object_not_in_prerequisite_state OR invalid_parameter_value THEN
        CONTINUE;  -- (a family this server refuses, its node id too wide for it: it makes no IDs now)
      END;
    END IF;
    IF id IS NOT NULL THEN
      tick := id >> CAST(l ->> 'low' AS pg_catalog.int4);
      IF CAST(l ->> 'wraps' AS pg_catalog.bool) THEN
        -- (an ID of a family whose time wraps holds the low bits of its tick: the latest tick with these
        -- low bits no later than a day after now)
        reference := (CAST(pg_catalog.floor(EXTRACT(EPOCH FROM pg_catalog.clock_timestamp()) * 1000) AS pg_catalog.int8) + 86400000 - epoch)
                     / CAST(l ->> 'unit' AS pg_catalog.int8);
        tick := tick + (((reference - tick) >> CAST(l ->> 'time' AS pg_catalog.int4)) << CAST(l ->> 'time' AS pg_catalog.int4));
      END IF;
    END IF;
    CONTINUE WHEN tick IS NULL;
    reached := reached || pg_catalog.jsonb_build_object(f, epoch + (tick + 1) * CAST(l ->> 'unit' AS pg_catalog.int8));
  END LOOP;
  -- Moving from idgen, where the caller may read it (a superuser), the server's lease: every ID
  -- idgen has made on this server lies below it, in any family and however it was called (a
  -- wrapper function of the owner's too, whose IDs no default says).
  IF source = 'idgen' AND pg_catalog.has_function_privilege('pg_catalog.pg_replication_origin_progress(pg_catalog.text, pg_catalog.bool)', 'EXECUTE')
     AND EXISTS (SELECT FROM pg_catalog.pg_replication_origin o WHERE o.roname = 'idgen_mark') THEN
    SELECT CAST(CAST(pg_catalog.concat('x', pg_catalog.lpad(pg_catalog.split_part(CAST(p AS pg_catalog.text), '/', 1), 8, '0'),
                                       pg_catalog.lpad(pg_catalog.split_part(CAST(p AS pg_catalog.text), '/', 2), 8, '0'))
                     AS pg_catalog.bit(64)) AS pg_catalog.int8)
      INTO id FROM pg_catalog.pg_replication_origin_progress('idgen_mark', false) p;
    -- (the lease in 10 ms units: bits 61 to 16 from idgen 1.4, bits 62 to 24 before)
    ms := CASE WHEN (id >> 62) & 3 = 3 THEN ((id >> 16) & ((CAST(1 AS pg_catalog.int8) << 46) - 1)) * 10
               ELSE ((id & 9223372036854775807) >> 24) * 10 END;
    IF ms > 0 THEN
      FOREACH f IN ARRAY families LOOP
        IF NOT reached ? f OR CAST(reached ->> f AS pg_catalog.int8) < ms THEN
          reached := reached || pg_catalog.jsonb_build_object(f, ms);
        END IF;
      END LOOP;
    END IF;
  END IF;
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(defaults) x WHERE x ->> 'family' IS NOT NULL LOOP
    f := d ->> 'family';
    l := layouts -> f;
    epoch := CAST(l ->> 'epoch' AS pg_catalog.int8);
    IF source = 'idgen' THEN
      epoch := CAST(COALESCE(NULLIF(pg_catalog.current_setting(pg_catalog.format('idgen.%s_epoch_ms', f), true), ''), l ->> 'epoch') AS pg_catalog.int8);
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.max(%I) FROM %s', d ->> 'column',
                              CAST(CAST(d ->> 'relid' AS pg_catalog.oid) AS pg_catalog.regclass)) INTO id;
    -- (a negative largest value, or one past the time field, is no ID of this family: the column holds
    -- IDs of another too)
    CONTINUE WHEN id IS NULL OR id < 0;
    tick := id >> CAST(l ->> 'low' AS pg_catalog.int4);
    IF CAST(l ->> 'wraps' AS pg_catalog.bool) THEN
      reference := (CAST(pg_catalog.floor(EXTRACT(EPOCH FROM pg_catalog.clock_timestamp()) * 1000) AS pg_catalog.int8) + 86400000 - epoch)
                   / CAST(l ->> 'unit' AS pg_catalog.int8);
      tick := tick + (((reference - tick) >> CAST(l ->> 'time' AS pg_catalog.int4)) << CAST(l ->> 'time' AS pg_catalog.int4));
    ELSIF tick >= (CAST(1 AS pg_catalog.int8) << CAST(l ->> 'time' AS pg_catalog.int4)) THEN
      CONTINUE;
    END IF;
    ms := epoch + (tick + 1) * CAST(l ->> 'unit' AS pg_catalog.int8);
    IF NOT reached ? f OR CAST(reached ->> f AS pg_catalog.int8) < ms THEN
      reached := reached || pg_catalog.jsonb_build_object(f, ms);
    END IF;
  END LOOP;

  -- Either edition's words start from the clock where it has made none: the clock must pass what
  -- the other reached (a burst, or a clock stepped back, runs IDs ahead of it), up to max_wait.
  SELECT pg_catalog.max(CAST(v.value AS pg_catalog.int8)) INTO ms FROM pg_catalog.jsonb_each_text(reached) v;
  now_ms := CAST(pg_catalog.floor(EXTRACT(EPOCH FROM pg_catalog.clock_timestamp()) * 1000) AS pg_catalog.int8);
  IF ms - now_ms > EXTRACT(EPOCH FROM max_wait) * 1000 THEN
    SELECT pg_catalog.string_agg(pg_catalog.format('%s by %s ms', v.key, CAST(v.value AS pg_catalog.int8) - now_ms), ', ' ORDER BY v.key)
      INTO detail FROM pg_catalog.jsonb_each_text(reached) v WHERE CAST(v.value AS pg_catalog.int8) > now_ms;
    RAISE EXCEPTION 'the IDs of % run ahead of the clock by more than max_wait (%)', source, max_wait
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = pg_catalog.format('Ahead of the clock: %s. %s''s new IDs start from the clock: until it passes these, they would be below them. Nothing has changed.', detail, target),
            HINT = pg_catalog.format('Run the move again after %s, or with a larger -v max_wait.',
                                     pg_catalog.to_char(CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz) + CAST(pg_catalog.format('%s milliseconds', ms) AS pg_catalog.interval), 'YYYY-MM-DD HH24:MI:SS.MS TZ'));
  END IF;
  deadline := CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz) + CAST(pg_catalog.format('%s milliseconds', COALESCE(ms, 0)) AS pg_catalog.interval);
  WHILE pg_catalog.clock_timestamp() < deadline LOOP
    PERFORM pg_catalog.pg_sleep(LEAST(0.1, EXTRACT(EPOCH FROM deadline - pg_catalog.clock_timestamp())));
  END LOOP;

  -- 3. The objectid columns as text, the extension out, the other in.
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(columns) x LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE pg_catalog.text COLLATE pg_catalog."C" USING CAST(%I AS pg_catalog.text)',
                              CAST(CAST(d ->> 'relid' AS pg_catalog.oid) AS pg_catalog.regclass), d ->> 'column', d ->> 'column');
  END LOOP;
  BEGIN
    EXECUTE pg_catalog.format('DROP EXTENSION %I', source);
  EXCEPTION WHEN dependent_objects_still_exist THEN
    GET STACKED DIAGNOSTICS message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    RAISE EXCEPTION '%', message
      USING ERRCODE = 'dependent_objects_still_exist', DETAIL = detail,
            HINT = 'The move carries column defaults and idgen.objectid columns only. Drop these objects, move, and make them again. Nothing has changed.';
  END;
  -- Leaving the edition, the database gives up its identity (the tag in its comment): the clock has
  -- passed every ID made under it (above), so another database may take it.
  IF source = 'idgen_sql' AND (EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname = CURRENT_USER AND r.rolsuper)
       OR pg_catalog.pg_has_role((SELECT d.datdba FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database()), 'USAGE')) THEN
    SELECT pg_catalog.shobj_description(d.oid, 'pg_database') INTO detail FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database();
    IF detail ~ '\[idgen_sql node=[^]]*\]' THEN
      detail := pg_catalog.btrim(pg_catalog.regexp_replace(detail, '\s*\[idgen_sql node=[^]]*\]', '', 'g'));
      EXECUTE pg_catalog.format('COMMENT ON DATABASE %I IS %L', pg_catalog.current_database(), NULLIF(detail, ''));
    END IF;
    detail := NULL;
  END IF;
  EXECUTE pg_catalog.format('CREATE EXTENSION %I', target);

  -- 4. The columns back to idgen.objectid, the defaults back as they were.
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(columns) x LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE idgen.objectid USING CAST(%I AS idgen.objectid)',
                              CAST(CAST(d ->> 'relid' AS pg_catalog.oid) AS pg_catalog.regclass), d ->> 'column',
                              d ->> 'column');
  END LOOP;
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(defaults) x LOOP
    BEGIN
      EXECUTE pg_catalog.format('ALTER TABLE ONLY %s ALTER COLUMN %I SET DEFAULT %s',
                                CAST(CAST(d ->> 'relid' AS pg_catalog.oid) AS pg_catalog.regclass), d ->> 'column',
                                d ->> 'expr');
    EXCEPTION WHEN undefined_function OR undefined_object THEN
      GET STACKED DIAGNOSTICS message = MESSAGE_TEXT;
      RAISE EXCEPTION 'the default of %.% cannot move to %: %', CAST(CAST(d ->> 'relid' AS pg_catalog.oid) AS pg_catalog.regclass),
                      d ->> 'column', target, message
        USING ERRCODE = 'feature_not_supported',
              DETAIL = pg_catalog.format('The default is %s.', d ->> 'expr'),
              HINT = 'docs/managed.md lists what the SQL edition has. Nothing has changed.';
    END;
  END LOOP;

  -- The edition's 64-bit generators make IDs only under an identity of this database that no other
  -- database of the server and no idgen here takes (CREATE EXTENSION gives it one where it can): a
  -- default they would refuse on every insert refuses the move instead. (The edition was created
  -- just now, by this transaction's role: its functions are that role's or a superuser's.)
  IF target = 'idgen_sql' THEN
    SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('%s IDs: %s', x ->> 'family',
             CASE WHEN x ->> 'family' = 'instagram' THEN i.shards_problem
                  WHEN x ->> 'family' = 'js' AND i.node_problem IS NULL AND i.node > 31 THEN pg_catalog.format('Its node id %s is above 31.', i.node)
                  ELSE i.node_problem END), ' ')
      INTO detail
      FROM pg_catalog.jsonb_array_elements(defaults) x CROSS JOIN idgen.edition_identity() i
     WHERE CASE WHEN x ->> 'family' = 'instagram' THEN i.shards_problem IS NOT NULL
                WHEN x ->> 'family' = 'js' THEN i.node_problem IS NOT NULL OR i.node > 31
                WHEN x ->> 'family' IS NOT NULL THEN i.node_problem IS NOT NULL
                ELSE false END;
    IF detail IS NOT NULL THEN
      RAISE EXCEPTION 'the SQL edition would refuse the 64-bit defaults of this database'
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = pg_catalog.format('%s Nothing has changed.', detail),
              HINT = 'Run the move as the database owner, where no other database of this server and no idgen here takes the identity it gives (docs/managed.md, "The identity of a database").';
    END IF;
  END IF;

  -- Every default is back, and calls the new extension.
  SELECT pg_catalog.count(*) INTO n
  FROM pg_catalog.jsonb_array_elements(defaults) x
  WHERE EXISTS (SELECT FROM pg_catalog.pg_attrdef ad
                JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                JOIN pg_catalog.pg_class r ON r.oid = ad.adrelid
                JOIN pg_catalog.pg_namespace s ON s.oid = r.relnamespace
                JOIN pg_catalog.pg_depend dd ON dd.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass AND dd.objid = ad.oid
                JOIN pg_catalog.pg_depend de ON de.classid = dd.refclassid AND de.objid = dd.refobjid
                JOIN pg_catalog.pg_extension e ON e.oid = de.refobjid
                WHERE r.oid = CAST(x ->> 'relid' AS pg_catalog.oid)
                  AND a.attnum = CAST(x ->> 'attnum' AS pg_catalog.int2)
                  AND de.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                  AND de.deptype = 'e' AND e.extname = target);
  IF n <> pg_catalog.jsonb_array_length(defaults) THEN
    RAISE EXCEPTION 'only % of % column defaults came back calling %', n, pg_catalog.jsonb_array_length(defaults), target
      USING ERRCODE = 'internal_error', HINT = 'Nothing has changed.';
  END IF;
  RAISE NOTICE 'moved to %: % column defaults, % idgen.objectid columns', target,
    pg_catalog.jsonb_array_length(defaults), pg_catalog.jsonb_array_length(columns);
END
$move$;
COMMIT;
