-- The planter's kit of t/plant.pl, made by the database owner in a database of hers: a counter of
-- calls that no rollback undoes, the look-alikes and their generator, and what the test reads.
CREATE SCHEMA plant_rec;
GRANT USAGE ON SCHEMA plant_rec TO PUBLIC;
CREATE SEQUENCE plant_rec.hits;
GRANT USAGE, SELECT, UPDATE ON SEQUENCE plant_rec.hits TO PUBLIC;
CREATE TABLE plant_rec.planted (oid oid PRIMARY KEY, kind "char", sig text);
CREATE TABLE plant_rec.skipped (sig text, why text);

-- The types, other than t, that an argument of type t accepts through an implicit coercion (for a
-- polymorphic t: every type it takes).
CREATE FUNCTION plant_rec.variants(t oid) RETURNS SETOF oid
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  WITH scalar AS (
    SELECT y.oid FROM pg_type y
    WHERE y.typtype = 'b' AND y.typcategory <> 'A' AND y.typisdefined
      AND y.typnamespace IN (SELECT n.oid FROM pg_namespace n WHERE n.nspname IN ('pg_catalog', 'idgen'))),
  arrays AS (SELECT y.typarray AS oid FROM pg_type y JOIN scalar s ON s.oid = y.oid WHERE y.typarray <> 0)
  SELECT v FROM (
    SELECT s.oid AS v FROM scalar s
     WHERE t IN ('anyelement'::regtype, 'anynonarray'::regtype, 'anycompatible'::regtype,
                 'anycompatiblenonarray'::regtype, '"any"'::regtype)
    UNION SELECT a.oid FROM arrays a
     WHERE t IN ('anyarray'::regtype, 'anycompatiblearray'::regtype, 'anyelement'::regtype,
                 'anycompatible'::regtype, '"any"'::regtype)
    UNION SELECT r.rngtypid FROM pg_range r WHERE t IN ('anyrange'::regtype, 'anycompatiblerange'::regtype)
    UNION SELECT r.rngmultitypid FROM pg_range r WHERE t IN ('anymultirange'::regtype, 'anycompatiblemultirange'::regtype)
    UNION SELECT e.enumtypid FROM pg_enum e WHERE t = 'anyenum'::regtype
    UNION SELECT c.castsource FROM pg_cast c WHERE c.casttarget = t AND c.castcontext = 'i'
    UNION SELECT sy.typarray FROM pg_type ty JOIN pg_cast c ON c.casttarget = ty.typelem AND c.castcontext = 'i'
          JOIN pg_type sy ON sy.oid = c.castsource
     WHERE ty.oid = t AND ty.typcategory = 'A' AND sy.typarray <> 0
  ) x WHERE v IS DISTINCT FROM t AND v <> 0
$$;

-- The type that polymorphic type p stands for once an argument of polymorphic type poly is of type
-- conc; NULL when p is not of poly's family.
CREATE FUNCTION plant_rec.resolve(p oid, poly oid, conc oid) RETURNS oid
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  fam1 oid[] := ARRAY['anyelement', 'anynonarray', 'anyarray', 'anyenum', 'anyrange', 'anymultirange']::regtype[];
  fam2 oid[] := ARRAY['anycompatible', 'anycompatiblenonarray', 'anycompatiblearray', 'anycompatiblerange', 'anycompatiblemultirange']::regtype[];
  elem oid; arr oid; rng oid; mrng oid;
  k int;
BEGIN
  IF NOT ((p = ANY (fam1) AND poly = ANY (fam1)) OR (p = ANY (fam2) AND poly = ANY (fam2))) THEN RETURN NULL; END IF;
  k := coalesce(array_position(fam1, poly), array_position(fam2, poly));
  IF k IN (1, 2, 4) THEN elem := conc;
  ELSIF k = 3 THEN arr := conc; elem := (SELECT typelem FROM pg_type WHERE oid = conc);
  ELSIF k = 5 THEN rng := conc; elem := (SELECT rngsubtype FROM pg_range WHERE rngtypid = conc);
  ELSE mrng := conc; SELECT rngtypid, rngsubtype INTO rng, elem FROM pg_range WHERE rngmultitypid = conc;
  END IF;
  arr := coalesce(arr, (SELECT typarray FROM pg_type WHERE oid = elem));
  rng := coalesce(rng, (SELECT rngtypid FROM pg_range WHERE rngsubtype = elem LIMIT 1));
  mrng := coalesce(mrng, (SELECT rngmultitypid FROM pg_range WHERE rngtypid = rng));
  k := coalesce(array_position(fam1, p), array_position(fam2, p));
  RETURN CASE WHEN k IN (1, 2, 4) THEN elem WHEN k = 3 THEN arr WHEN k = 5 THEN rng ELSE mrng END;
END
$$;

-- plant(schema, function names, operator symbols, names idgen makes, part, parts): in that schema,
-- a look-alike of every function, aggregate (plain) and operator of pg_catalog and idgen with one of
-- those names (those whose name hashes to part of parts), with the same signature (not in the
-- original's own schema, nor in idgen for a name that idgen makes there), and with each signature
-- that changes one argument (or one polymorphic family) to a type that the original accepts only
-- through a coercion, unless the schema has it already. Returns how many it made; plant_rec.skipped
-- says which it could not.
CREATE FUNCTION plant_rec.plant(target name, fnames text[], onames text[], made_names text[], part int, parts int) RETURNS int
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp SET check_function_bodies = off AS $$
DECLARE
  tgt oid := (SELECT n.oid FROM pg_namespace n WHERE n.nspname = target);
  o record;
  v record;
  made int := 0;
  k int := (SELECT count(*) FROM plant_rec.planted);  -- with part: a name of its own
  sig text;
  args text;
  outs text;
  body text;
  fn text;
  newins oid[];
  rettype oid;
  outtypes oid[];
  j int;
  new_oid oid;
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS plant_seen (sig text PRIMARY KEY);
  TRUNCATE plant_seen;
  FOR o IN
    SELECT 'f' AS kind, p.oid, p.proname::text AS name, p.pronamespace, p.prokind, ARRAY(SELECT unnest(p.proargtypes)) AS ins,
           p.prorettype, p.proretset, p.pronargdefaults,
           (SELECT array_agg(t ORDER BY n) FROM unnest(p.proallargtypes, p.proargmodes) WITH ORDINALITY AS u(t, m, n) WHERE m IN ('o', 't')) AS outtypes,
           (SELECT array_agg(nm ORDER BY n) FROM unnest(p.proallargtypes, p.proargmodes, p.proargnames) WITH ORDINALITY AS u(t, m, nm, n) WHERE m IN ('o', 't')) AS outnames,
           CASE WHEN p.proargmodes IS NULL THEN p.proargnames
                ELSE (SELECT array_agg(nm ORDER BY n) FROM unnest(p.proargnames, p.proargmodes) WITH ORDINALITY AS u(nm, m, n) WHERE m IN ('i', 'b', 'v')) END AS innames
      FROM pg_proc p
     WHERE p.pronamespace IN (SELECT n.oid FROM pg_namespace n WHERE n.nspname IN ('pg_catalog', 'idgen'))
       AND p.proname = ANY (fnames) AND p.oid NOT IN (SELECT oid FROM plant_rec.planted)
       AND abs(hashtext(p.proname)) % parts = part
       AND (p.prokind = 'f' OR (p.prokind = 'a' AND EXISTS (SELECT FROM pg_aggregate a WHERE a.aggfnoid = p.oid AND a.aggkind = 'n')))
    UNION ALL
    SELECT 'o', op.oid, op.oprname::text, op.oprnamespace, 'o',
           CASE WHEN op.oprleft = 0 THEN ARRAY[op.oprright] ELSE ARRAY[op.oprleft, op.oprright] END,
           op.oprresult, false, 0, NULL, NULL, NULL
      FROM pg_operator op
     WHERE op.oprnamespace IN (SELECT n.oid FROM pg_namespace n WHERE n.nspname IN ('pg_catalog', 'idgen'))
       AND op.oprname = ANY (onames) AND op.oid NOT IN (SELECT oid FROM plant_rec.planted)
       AND abs(hashtext(op.oprname)) % parts = part
  LOOP
    FOR v IN  -- (0, 0): the same signature; (i, type): argument i of that type
      SELECT 0 AS pos, 0::oid AS typ
      UNION ALL
      SELECT a.n::int, x.x FROM unnest(o.ins) WITH ORDINALITY AS a(t, n), plant_rec.variants(a.t) AS x(x)
    LOOP
      newins := o.ins;
      rettype := o.prorettype;
      outtypes := o.outtypes;
      IF v.pos > 0 THEN
        FOR j IN 1 .. cardinality(newins) LOOP
          newins[j] := CASE WHEN j = v.pos THEN v.typ ELSE coalesce(plant_rec.resolve(newins[j], o.ins[v.pos], v.typ), newins[j]) END;
        END LOOP;
        rettype := coalesce(plant_rec.resolve(rettype, o.ins[v.pos], v.typ), rettype);
        FOR j IN 1 .. coalesce(cardinality(outtypes), 0) LOOP
          outtypes[j] := coalesce(plant_rec.resolve(outtypes[j], o.ins[v.pos], v.typ), outtypes[j]);
        END LOOP;
      END IF;
      CONTINUE WHEN 0 = ANY (newins) OR rettype = 0 OR 0 = ANY (outtypes);
      CONTINUE WHEN v.pos = 0 AND (o.pronamespace = tgt OR (target = 'idgen' AND o.name = ANY (made_names)));
      sig := format('%I.%s(%s)', target, CASE WHEN o.kind = 'o' THEN o.name ELSE quote_ident(o.name) END,
                    coalesce((SELECT string_agg(format_type(t, NULL), ', ' ORDER BY n) FROM unnest(newins) WITH ORDINALITY AS u(t, n)), ''));
      INSERT INTO plant_seen VALUES (sig) ON CONFLICT DO NOTHING;
      CONTINUE WHEN NOT FOUND;
      CONTINUE WHEN o.kind = 'o' AND EXISTS (SELECT FROM pg_operator op WHERE op.oprnamespace = tgt AND op.oprname = o.name
                         AND op.oprleft = CASE WHEN cardinality(newins) = 2 THEN newins[1] ELSE 0 END AND op.oprright = newins[cardinality(newins)]);
      CONTINUE WHEN o.kind = 'f' AND EXISTS (SELECT FROM pg_proc p WHERE p.pronamespace = tgt AND p.proname = o.name
                         AND p.proargtypes = array_to_string(newins, ' ')::oidvector);
      -- PL/pgSQL takes no "any", internal or cstring, and an aggregate needs a concrete state
      IF EXISTS (SELECT FROM unnest(newins || rettype || outtypes) AS u(t) JOIN pg_type y ON y.oid = u.t
                  WHERE y.typtype = 'p' AND y.typname !~ '^any.' AND y.typname NOT IN ('record', 'void'))
         OR (o.prokind = 'a' AND (SELECT y.typtype = 'p' FROM pg_type y WHERE y.oid = rettype)) THEN
        INSERT INTO plant_rec.skipped VALUES (sig, 'a pseudo-type PL/pgSQL cannot take');
        CONTINUE;
      END IF;
      k := k + 1;
      body := format($b$
BEGIN
  PERFORM pg_catalog.nextval('plant_rec.hits'::pg_catalog.regclass);
  RAISE WARNING 'PLANTED %% called by %%', %L, CURRENT_USER;
  RETURN %s;
END$b$, sig, CASE WHEN o.proretset OR outtypes IS NOT NULL OR rettype = 'void'::regtype THEN '' ELSE 'NULL' END);
      BEGIN
        IF o.kind = 'o' THEN
          fn := format('plant_rec.o%s_%s', part, k);
          EXECUTE format('CREATE FUNCTION %s(%s) RETURNS %s LANGUAGE plpgsql AS %L', fn,
                         (SELECT string_agg(format_type(t, NULL), ', ' ORDER BY n) FROM unnest(newins) WITH ORDINALITY AS u(t, n)),
                         format_type(rettype, NULL), body);
          EXECUTE format('CREATE OPERATOR %I.%s (FUNCTION = %s, %s RIGHTARG = %s)', target, o.name, fn,
                         CASE WHEN cardinality(newins) = 2 THEN format('LEFTARG = %s,', format_type(newins[1], NULL)) ELSE '' END,
                         format_type(newins[cardinality(newins)], NULL));
          new_oid := (SELECT op.oid FROM pg_operator op WHERE op.oprnamespace = tgt AND op.oprname = o.name
                         AND op.oprleft = CASE WHEN cardinality(newins) = 2 THEN newins[1] ELSE 0 END AND op.oprright = newins[cardinality(newins)]);
        ELSIF o.prokind = 'a' THEN
          fn := format('plant_rec.a%s_%s', part, k);
          EXECUTE format('CREATE FUNCTION %s(%s) RETURNS %s LANGUAGE plpgsql AS %L', fn,
                         (SELECT string_agg(format_type(t, NULL), ', ' ORDER BY n) FROM unnest(rettype || newins) WITH ORDINALITY AS u(t, n)),
                         format_type(rettype, NULL), body);
          EXECUTE format('CREATE AGGREGATE %I.%I(%s) (SFUNC = %s, STYPE = %s)', target, o.name,
                         coalesce((SELECT string_agg(format_type(t, NULL), ', ' ORDER BY n) FROM unnest(newins) WITH ORDINALITY AS u(t, n)), '*'),
                         fn, format_type(rettype, NULL));
          new_oid := (SELECT p.oid FROM pg_proc p WHERE p.pronamespace = tgt AND p.proname = o.name AND p.proargtypes = array_to_string(newins, ' ')::oidvector);
        ELSE
          args := (SELECT string_agg(format('%s %s%s', coalesce(nullif(quote_ident(o.innames[n]), '""'), 'p' || n), format_type(t, NULL),
                                            CASE WHEN n > cardinality(newins) - o.pronargdefaults THEN ' DEFAULT NULL' ELSE '' END), ', ' ORDER BY n)
                     FROM unnest(newins) WITH ORDINALITY AS u(t, n));
          outs := (SELECT string_agg(format('OUT %s %s', coalesce(nullif(quote_ident(o.outnames[n]), '""'), 'o' || n), format_type(t, NULL)), ', ' ORDER BY n)
                     FROM unnest(outtypes) WITH ORDINALITY AS u(t, n));
          EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s%s LANGUAGE plpgsql AS %L', target, o.name,
                         concat_ws(', ', args, outs), CASE WHEN o.proretset THEN 'SETOF ' ELSE '' END, format_type(rettype, NULL), body);
          new_oid := (SELECT p.oid FROM pg_proc p WHERE p.pronamespace = tgt AND p.proname = o.name AND p.proargtypes = array_to_string(newins, ' ')::oidvector);
        END IF;
        INSERT INTO plant_rec.planted VALUES (new_oid, o.prokind, sig);
        made := made + 1;
      EXCEPTION WHEN OTHERS THEN
        INSERT INTO plant_rec.skipped VALUES (sig, SQLERRM);
      END;
    END LOOP;
  END LOOP;
  RETURN made;
END
$$;

-- The owner of the extension adds the look-alikes in schema idgen to it, where they pass for
-- idgen's own objects.
CREATE FUNCTION plant_rec.members() RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
BEGIN
  FOR p IN SELECT * FROM plant_rec.planted WHERE sig LIKE 'idgen.%' LOOP
    EXECUTE CASE p.kind
      WHEN 'o' THEN format('ALTER EXTENSION idgen ADD OPERATOR %s', p.oid::regoperator)
      WHEN 'a' THEN format('ALTER EXTENSION idgen ADD AGGREGATE %s', regexp_replace(p.oid::regprocedure::text, '\(\)$', '(*)'))
      ELSE format('ALTER EXTENSION idgen ADD FUNCTION %s', p.oid::regprocedure) END;
  END LOOP;
END
$$;

-- The look-alikes planted in schema idgen_planted move into schema idgen (once idgen is installed
-- there); those of a name and signature that idgen has are dropped from the list (its own).
CREATE FUNCTION plant_rec.move_in() RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
BEGIN
  FOR p IN SELECT * FROM plant_rec.planted WHERE sig LIKE 'idgen.%' LOOP
    BEGIN
      EXECUTE CASE p.kind
        WHEN 'o' THEN format('ALTER OPERATOR %s SET SCHEMA idgen', p.oid::regoperator)
        WHEN 'a' THEN format('ALTER AGGREGATE %s SET SCHEMA idgen', regexp_replace(p.oid::regprocedure::text, '\(\)$', '(*)'))
        ELSE format('ALTER FUNCTION %s SET SCHEMA idgen', p.oid::regprocedure) END;
    EXCEPTION WHEN duplicate_function OR duplicate_object THEN
      DELETE FROM plant_rec.planted WHERE oid = p.oid;
    END;
  END LOOP;
END
$$;

-- What a run that installs must leave: idgen at its version, in a schema owned by a superuser,
-- where only superusers may create objects, holding only idgen's members (and the indexes of its
-- tables), owned by superusers.
CREATE FUNCTION plant_rec.state() RETURNS text LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
      WITH s AS (SELECT oid FROM pg_namespace WHERE nspname = 'idgen'),
      ext AS (SELECT oid FROM pg_extension WHERE extname = 'idgen'),
      objects AS (
        SELECT 'pg_proc'::regclass AS c, p.oid, 'function ' || p.oid::regprocedure AS what, p.proowner AS owner FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM s)
        UNION ALL SELECT 'pg_operator'::regclass, o.oid, 'operator ' || o.oid::regoperator, o.oprowner FROM pg_operator o WHERE o.oprnamespace = (SELECT oid FROM s)
        UNION ALL SELECT 'pg_class'::regclass, c.oid, 'relation ' || c.oid::regclass, c.relowner FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM s)
        UNION ALL SELECT 'pg_type'::regclass, t.oid, 'type ' || t.oid::regtype, t.typowner FROM pg_type t WHERE t.typnamespace = (SELECT oid FROM s)
          AND t.typrelid = 0 AND NOT EXISTS (SELECT FROM pg_type e WHERE e.typarray = t.oid)
        UNION ALL SELECT 'pg_opfamily'::regclass, f.oid, 'operator family ' || f.opfname, f.opfowner FROM pg_opfamily f WHERE f.opfnamespace = (SELECT oid FROM s)
        UNION ALL SELECT 'pg_opclass'::regclass, f.oid, 'operator class ' || f.opcname, f.opcowner FROM pg_opclass f WHERE f.opcnamespace = (SELECT oid FROM s)
        UNION ALL SELECT 'pg_collation'::regclass, l.oid, 'collation ' || l.collname, l.collowner FROM pg_collation l WHERE l.collnamespace = (SELECT oid FROM s)
        UNION ALL SELECT 'pg_conversion'::regclass, v.oid, 'conversion ' || v.conname, v.conowner FROM pg_conversion v WHERE v.connamespace = (SELECT oid FROM s)),
      member AS (SELECT d.classid, d.objid FROM pg_depend d WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = (SELECT oid FROM ext) AND d.deptype = 'e'
                 UNION ALL  -- the indexes of its tables
                 SELECT 'pg_class'::regclass, i.indexrelid FROM pg_index i JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = i.indrelid
                  WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = (SELECT oid FROM ext) AND d.deptype = 'e')
      SELECT concat_ws(' | ',
        'version ' || (SELECT extversion FROM pg_extension WHERE oid = (SELECT oid FROM ext)),
        'owner ' || (SELECT n.nspowner::regrole || CASE WHEN r.rolsuper THEN ' (superuser)' ELSE ' (not a superuser)' END
                      FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner WHERE n.oid = (SELECT oid FROM s)),
        'CREATE for ' || coalesce((SELECT string_agg(DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END, ', ')
                                    FROM pg_namespace n, aclexplode(n.nspacl) a LEFT JOIN pg_roles g ON g.oid = a.grantee
                                   WHERE n.oid = (SELECT oid FROM s) AND a.privilege_type = 'CREATE' AND NOT coalesce(g.rolsuper, false)), 'superusers only'),
        'strangers: ' || coalesce((SELECT string_agg(o.what, ', ' ORDER BY o.what) FROM objects o
          WHERE NOT EXISTS (SELECT FROM member m WHERE m.classid = o.c AND m.objid = o.oid)
            AND NOT EXISTS (SELECT FROM pg_depend d JOIN member m ON m.classid = d.refclassid AND m.objid = d.refobjid
                             WHERE d.classid = o.c AND d.objid = o.oid AND d.deptype IN ('a', 'i'))), 'none'),
        'owned by others: ' || coalesce((SELECT o.owner::regrole || ' owns ' || count(*) || ' (' || min(o.what) || ', ...)' FROM objects o
          JOIN pg_roles r ON r.oid = o.owner WHERE NOT r.rolsuper GROUP BY o.owner LIMIT 1), 'none'))
$$;
