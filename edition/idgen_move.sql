-- Swaps idgen and its SQL edition (idgen_sql) in place, in one database and one transaction, keeping
-- the rows, the column defaults and the idgen.objectid columns; new 64-bit IDs come out above the old.
--
--   psql -X -v ON_ERROR_STOP=1 -v to=idgen     -d app -f idgen_move.sql   # the edition -> idgen
--   psql -X -v ON_ERROR_STOP=1 -v to=idgen_sql -d app -f idgen_move.sql   # idgen -> the edition
--   (-v max_wait=30s: the longest it waits for the clock, moving to idgen; 10s when not given)
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
-- 4, and the transaction with it. Nothing it runs resolves a name through a schema a database owner
-- could write to: search_path is pg_catalog, pg_temp, and every other name is schema-qualified
-- (operators are written plainly: under that path they resolve in pg_catalog alone, as pg_temp is
-- never searched for operators or functions).
\if :{?to}
\else
\echo 'usage: psql -X -v ON_ERROR_STOP=1 -v to=idgen|idgen_sql [-v max_wait=10s] -d DATABASE -f idgen_move.sql'
\quit
\endif
\if :{?max_wait}
\else
\set max_wait 10s
\endif

BEGIN;
SET LOCAL search_path = pg_catalog, pg_temp;
SELECT pg_catalog.set_config('idgen_move.target', :'to', true) AS target,
       pg_catalog.set_config('idgen_move.max_wait', :'max_wait', true) AS max_wait \gset idgen_move_
DO $move$
DECLARE
  target pg_catalog.text := pg_catalog.current_setting('idgen_move.target');
  max_wait pg_catalog.interval := CAST(pg_catalog.current_setting('idgen_move.max_wait') AS pg_catalog.interval);
  source pg_catalog.text;
  ext pg_catalog.oid;
  families pg_catalog.text[] := ARRAY['instagram', 'snowflake', 'sonyflake', 'trace', 'js'];
  units pg_catalog.jsonb := '{"instagram": 1, "snowflake": 1, "sonyflake": 10, "trace": 1000, "js": 10}';
  -- the end of the highest tick each family's IDs have reached, in Unix milliseconds
  reached pg_catalog.jsonb := '{}';
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
  SELECT e.oid INTO ext FROM pg_catalog.pg_extension e WHERE e.extname = source;
  IF ext IS NULL THEN
    RAISE EXCEPTION '% is not installed in this database', source
      USING ERRCODE = 'undefined_object',
            HINT = pg_catalog.format('Moving to %s swaps %s for it; a database with neither needs only CREATE EXTENSION %s.', target, source, target);
  END IF;

  -- 1. What moves: each default that depends on a member of the extension (not a generated
  -- column's expression), of an ordinary, partitioned or foreign table, with the family of the
  -- 64-bit generator it calls, if any; each column of type idgen.objectid that is not inherited
  -- (ALTER TYPE on its table's root reaches the rest).
  SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'schema', n.nspname, 'table', r.relname, 'column', a.attname, 'expr', pg_catalog.pg_get_expr(ad.adbin, ad.adrelid),
           'family', (SELECT pg_catalog.min(pg_catalog.regexp_replace(p.proname, '_id$', ''))
                      FROM pg_catalog.pg_depend dp JOIN pg_catalog.pg_proc p ON p.oid = dp.refobjid
                      WHERE dp.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
                        AND dp.objid = ad.oid
                        AND dp.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
                        AND p.pronamespace = 'idgen'::pg_catalog.regnamespace
                        AND p.proname = ANY (ARRAY['instagram_id', 'snowflake_id', 'sonyflake_id', 'trace_id', 'js_id'])
                        AND a.atttypid = 'pg_catalog.int8'::pg_catalog.regtype))
           ORDER BY n.nspname, r.relname, a.attnum), '[]')
    INTO defaults
  FROM pg_catalog.pg_attrdef ad
  JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
  JOIN pg_catalog.pg_class r ON r.oid = ad.adrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
  WHERE a.attgenerated = '' AND r.relkind = ANY (ARRAY['r', 'p', 'f']::pg_catalog."char"[])
    AND EXISTS (SELECT FROM pg_catalog.pg_depend dd
                JOIN pg_catalog.pg_depend de ON de.classid = dd.refclassid AND de.objid = dd.refobjid
                WHERE dd.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass AND dd.objid = ad.oid
                  AND de.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                  AND de.refobjid = ext AND de.deptype = 'e');

  SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('schema', n.nspname, 'table', r.relname, 'column', a.attname)
           ORDER BY n.nspname, r.relname, a.attnum), '[]')
    INTO columns
  FROM pg_catalog.pg_attribute a
  JOIN pg_catalog.pg_class r ON r.oid = a.attrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
  JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
  WHERE t.typname = 'objectid' AND t.typnamespace = 'idgen'::pg_catalog.regnamespace
    AND a.attnum > 0 AND NOT a.attisdropped AND a.attinhcount = 0
    AND r.relkind = ANY (ARRAY['r', 'p', 'f']::pg_catalog."char"[]);

  -- 2. The defaults out first: their tables locked, no row takes a default of either until the end.
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(defaults) x LOOP
    EXECUTE pg_catalog.format('ALTER TABLE ONLY %I.%I ALTER COLUMN %I DROP DEFAULT',
                              d ->> 'schema', d ->> 'table', d ->> 'column');
  END LOOP;

  -- The highest tick each 64-bit family has reached: a new ID of each family (the edition's state
  -- word is a sequence, idgen's the server's: a new ID is above every one either made; idgen's
  -- Instagram words are one a shard, so for it the columns alone say), and the largest ID of each
  -- column that such a generator fills. The edition's generators wait on these advisory locks
  -- (its state words) until this transaction ends.
  IF source = 'idgen_sql' THEN
    FOR k IN 1 .. 5 LOOP
      PERFORM pg_catalog.pg_advisory_xact_lock(1768187763, k);
    END LOOP;
  END IF;
  FOREACH f IN ARRAY families LOOP
    CONTINUE WHEN source = 'idgen' AND f = 'instagram';
    BEGIN
      EXECUTE pg_catalog.format('SELECT CAST(pg_catalog.floor(EXTRACT(EPOCH FROM (idgen.%I(idgen.%s)).ts) * 1000) AS pg_catalog.int8)',
                                f || '_parse', CASE f WHEN 'instagram' THEN 'instagram_id(0)' ELSE f || '_id()' END) INTO ms;
    EXCEPTION WHEN object_not_in_prerequisite_state OR invalid_parameter_value THEN
      CONTINUE;  -- (a family this server refuses, its node id too wide for it: it makes no IDs now)
    END;
    reached := reached || pg_catalog.jsonb_build_object(f, ms + CAST(units ->> f AS pg_catalog.int8));
  END LOOP;
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(defaults) x WHERE x ->> 'family' IS NOT NULL LOOP
    f := d ->> 'family';
    BEGIN
      EXECUTE pg_catalog.format('SELECT CAST(pg_catalog.floor(EXTRACT(EPOCH FROM (idgen.%I(pg_catalog.max(%I))).ts) * 1000) AS pg_catalog.int8) FROM %I.%I',
                                f || '_parse', d ->> 'column', d ->> 'schema', d ->> 'table') INTO ms;
    EXCEPTION WHEN invalid_parameter_value OR datetime_field_overflow THEN
      ms := NULL;  -- (the largest value is no ID of this family: the column holds IDs of another too)
    END;
    CONTINUE WHEN ms IS NULL;
    ms := ms + CAST(units ->> f AS pg_catalog.int8);
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
    EXECUTE pg_catalog.format('ALTER TABLE %I.%I ALTER COLUMN %I TYPE pg_catalog.text COLLATE pg_catalog."C" USING CAST(%I AS pg_catalog.text)',
                              d ->> 'schema', d ->> 'table', d ->> 'column', d ->> 'column');
  END LOOP;
  BEGIN
    EXECUTE pg_catalog.format('DROP EXTENSION %I', source);
  EXCEPTION WHEN dependent_objects_still_exist THEN
    GET STACKED DIAGNOSTICS message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    RAISE EXCEPTION '%', message
      USING ERRCODE = 'dependent_objects_still_exist', DETAIL = detail,
            HINT = 'The move carries column defaults and idgen.objectid columns only. Drop these objects, move, and make them again. Nothing has changed.';
  END;
  EXECUTE pg_catalog.format('CREATE EXTENSION %I', target);

  -- 4. The columns back to idgen.objectid, the defaults back as they were.
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(columns) x LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %I.%I ALTER COLUMN %I TYPE idgen.objectid USING CAST(%I AS idgen.objectid)',
                              d ->> 'schema', d ->> 'table', d ->> 'column',
                              d ->> 'column');
  END LOOP;
  FOR d IN SELECT x FROM pg_catalog.jsonb_array_elements(defaults) x LOOP
    BEGIN
      EXECUTE pg_catalog.format('ALTER TABLE ONLY %I.%I ALTER COLUMN %I SET DEFAULT %s',
                                d ->> 'schema', d ->> 'table', d ->> 'column',
                                d ->> 'expr');
    EXCEPTION WHEN undefined_function OR undefined_object THEN
      GET STACKED DIAGNOSTICS message = MESSAGE_TEXT;
      RAISE EXCEPTION 'the default of %.%.% cannot move to %: %', d ->> 'schema', d ->> 'table',
                      d ->> 'column', target, message
        USING ERRCODE = 'feature_not_supported',
              DETAIL = pg_catalog.format('The default is %s.', d ->> 'expr'),
              HINT = 'docs/managed.md lists what the SQL edition has. Nothing has changed.';
    END;
  END LOOP;

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
                WHERE s.nspname = x ->> 'schema'
                  AND r.relname = x ->> 'table'
                  AND a.attname = x ->> 'column'
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
