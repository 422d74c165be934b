# Nothing that a database owner plants is run, or chosen, by idgen's install and upgrade scripts
# (issue 19). The scripts run as a superuser (a trusted install by a plain owner included) with
# search_path set to idgen: an unqualified operator, function or aggregate would take an object that
# the owner put in schema idgen whose signature matches the call better than pg_catalog's own (an
# exact match where pg_catalog's needs an implicit coercion), and run it as the superuser.
#
# The look-alikes are generated, not hand-picked: every name that the scripts write before a "(" and
# every operator symbol in them (with those that SQL's syntax implies: IN, BETWEEN, CASE, NULLIF,
# LIKE, SIMILAR TO) gives, for each function, aggregate and operator of that name in pg_catalog (and
# in idgen, once installed), a look-alike with the same signature, and one with each signature that
# changes one argument (or one polymorphic family) to a type that the original takes only through an
# implicit coercion, in schema idgen and in public. Called, a look-alike counts the call on a
# sequence (no rollback undoes it) and raises a WARNING naming itself and current_user. No casts or
# types are planted: pg_catalog is searched before idgen, and types do not overload.
#
# Each run gets its own copy of a planted database; in none may a look-alike be called (the warnings,
# the counter), be chosen at all (the parse trees the server logs with debug_print_parse, for what
# runs and for what is only planned), or be named by what the script made (pg_depend: SQL-standard
# function bodies, constraints, views). The runs:
# - the scripts as they are: a superuser's CREATE EXTENSION idgen and a trusted one by the database
#   owner, with look-alikes in public, and in a schema idgen that the owner made first (refused);
#   ALTER EXTENSION idgen UPDATE by the owner from 1.0 and from 1.1 (trusted installs, with data),
#   with look-alikes in public, and in schema idgen as members of the extension (its owner may add
#   them), where they pass for idgen's own. A run that installs must leave idgen 1.2 in a schema
#   that a superuser owns, where nobody else may create objects, holding idgen's objects only.
# - the scripts without their guard (the first DO block, which refuses a schema idgen that anyone
#   else could have filled), so that every statement after it meets the look-alikes in schema idgen:
#   a name left unqualified anywhere in a script fails the test, whatever the guard.
# Last, the test proves it can fail: copies of the scripts with one comparison unqualified must be
# caught, one by its calls, one by the parse trees, one by pg_depend.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EXTDIR="$("${PG_CONFIG:-pg_config}" --sharedir)/extension"
SERVER_LOG="$PGHOST/server.log"  # scripts/cluster.sh's
OWNER=idgen_plant_owner
D=idgen_multi_plant
SCRIPTS=("$ROOT"/sql/idgen--1.2.sql "$ROOT"/sql/idgen--1.0--1.2.sql "$ROOT"/sql/idgen--1.1--1.2.sql "$ROOT"/sql/idgen--1.0.sql "$ROOT"/sql/idgen--1.0--1.1.sql)
START=$SECONDS
[ -r "$SERVER_LOG" ] || fail "no server log at $SERVER_LOG: the test reads the parse trees the server logs"
# The server built with sanitizers is several times slower (the test takes 200 s there), and the
# scripts are SQL, which that server runs no differently: every other server of the suite runs it.
if [ -n "${IDGEN_SANITIZED:-}" ]; then
  echo "plant: the install and update scripts are checked on every major's own server, not under sanitizers"
  exit 0
fi

# Every query of the test itself runs with pg_catalog alone on its path: the look-alikes are for
# the scripts, not for the test.
export PGOPTIONS="-c search_path=pg_catalog,pg_temp"
qs() { q -X -v VERBOSITY=verbose "$@"; }

# ---- the frozen scripts of 1.0 and 1.1, the probes, and what the test leaves behind -----------

ADDED=()
add_script() {  # add_script <file> <name in the extension directory>: removed at the end unless it was there
  if [ -e "$EXTDIR/$2" ] && [[ "$2" != *plant_* ]]; then
    cmp -s "$1" "$EXTDIR/$2" || fail "$EXTDIR/$2 exists and differs from $1"
  else
    cp "$1" "$EXTDIR/$2"
    ADDED+=("$EXTDIR/$2")
  fi
}
drop_all() {
  local db
  for db in $(q -d postgres -c "SELECT datname FROM pg_database WHERE datname LIKE '${D}%'"); do
    q -d postgres -c "DROP DATABASE $db" >/dev/null 2>&1
  done
  q -d postgres -c "DROP ROLE IF EXISTS $OWNER" >/dev/null 2>&1
  return 0
}
plant_cleanup() {  # PLANT_KEEP=<directory>: keep the databases, and the test's files there
  local f
  if [ -n "${PLANT_KEEP:-}" ]; then cp -r "$WORK/." "$PLANT_KEEP/"; else drop_all; fi
  for f in "${ADDED[@]}"; do rm -f "$f"; done
  cleanup
}
trap plant_cleanup EXIT
drop_all
add_script "$ROOT/sql/idgen--1.0.sql" idgen--1.0.sql
add_script "$ROOT/sql/idgen--1.0--1.1.sql" idgen--1.0--1.1.sql

# Copies of the scripts, as versions of their own. plant_body: without the guard. The probes, each
# with one comparison unqualified: plant_probe, in the install script's guard, an oid compared with
# an integer (the guard's first query runs in a schema idgen that the owner made, before it refuses
# it); 1.1--plant_probe, in the 1.1 -> 1.2 guard, an oid with a regclass (its query runs, before it
# refuses a schema holding objects of others); plant_body_probe, in the install script without its
# guard, a bigint % an integer in a SQL-standard body.
unguard() {  # unguard <file>: the script without its first DO $guard$ block
  perl -0pe 's/^DO \$guard\$.*?^\$guard\$;\n//ms' "$1"
}
unqualify() {  # unqualify <qualified text> <unqualified text>: stdin with the first one replaced
  REPL_FROM=$1 REPL_TO=$2 perl -pe 'BEGIN { $done = 0 } if (!$done && (my $i = index($_, $ENV{REPL_FROM})) >= 0) { substr($_, $i, length $ENV{REPL_FROM}) = $ENV{REPL_TO}; $done = 1 }'
}
for f in idgen--1.2.sql idgen--1.0--1.2.sql idgen--1.1--1.2.sql; do
  v=${f/1.2.sql/plant_body.sql}
  unguard "$ROOT/sql/$f" >"$WORK/$v"
  if grep -q '^DO \$guard\$' "$ROOT/sql/$f" && cmp -s "$ROOT/sql/$f" "$WORK/$v"; then fail "the guard of sql/$f was not removed"; fi
  add_script "$WORK/$v" "$v"
done
probe() {  # probe <version file> <source> <qualified text> <unqualified text>
  grep -qF "$3" "$2" || fail "the probe's comparison \"$3\" is no longer in $2: choose another"
  unqualify "$3" "$4" <"$2" >"$WORK/$1"
  [ "$(grep -cF "$3" "$WORK/$1")" -eq $(($(grep -cF "$3" "$2") - 1)) ] || fail "the probe $1 was not made"
  add_script "$WORK/$1" "$1"
}
probe idgen--plant_probe.sql "$ROOT/sql/idgen--1.2.sql" \
  "a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid" "a.grantee = 0"
probe idgen--1.1--plant_probe.sql "$ROOT/sql/idgen--1.1--1.2.sql" \
  "d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass" "d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass"
probe idgen--plant_body_probe.sql "$WORK/idgen--plant_body.sql" \
  "OPERATOR(pg_catalog.%) servers" "% servers"

# ---- what the scripts use --------------------------------------------------------------------

# Function and aggregate names: every identifier before a "(" (keywords and words of comments
# match nothing in the catalog). Operators: every run of operator characters, and those that SQL's
# syntax implies without writing them.
FNAMES=$(cat "${SCRIPTS[@]}" | grep -oE '[A-Za-z_][A-Za-z0-9_$]*[[:space:]]*\(' | sed -E 's/[[:space:]]*\($//' | tr '[:upper:]' '[:lower:]' | sort -u | paste -sd, -)
ONAMES=$( (cat "${SCRIPTS[@]}" | grep -oE '[-+*/<>=~!@#%^&|`?]+'; printf '%s\n' '=' '<>' '<' '>' '<=' '>=' '~~' '!~~' '~~*' '!~~*' '~' '!~') |
  sort -u | sed 's/"/\\"/g; s/.*/"&"/' | paste -sd, -)
# The functions and aggregates that the scripts make in schema idgen: no look-alike of their name
# with the same signature as pg_catalog's goes there (uuidv7 is in pg_catalog from PostgreSQL 18).
MADE=$(cat "${SCRIPTS[@]}" | grep -oiE 'CREATE +(OR +REPLACE +)?(FUNCTION|AGGREGATE) +idgen\.[a-z0-9_]+' | sed -E 's/.*\.//' | sort -u | paste -sd, -)
echo "names before \"(\" in the scripts: $(tr ',' '\n' <<<"$FNAMES" | wc -l); operator symbols: $(tr ',' '\n' <<<"$ONAMES" | wc -l)"

# ---- the planted databases (templates of the runs) ---------------------------------------------

q -d postgres -c "CREATE ROLE $OWNER LOGIN"
clone() { q -d postgres -c "CREATE DATABASE $1 TEMPLATE $2 OWNER $OWNER"; }
as_owner() { qs -U "$OWNER" "$@"; }

q -d postgres -c "CREATE DATABASE ${D}_base OWNER $OWNER"
as_owner -d "${D}_base" <<'SQL'
-- The planter's kit: a counter of calls that no rollback undoes, the look-alikes, the generator.
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
SQL

plant() {  # plant <database> <schema>: the look-alikes, as the owner, in two sessions (by name)
  local made=0 part pids=() start=$SECONDS
  for part in 0 1; do
    as_owner -d "$1" -c "SELECT plant_rec.plant('$2', '{$FNAMES}', '{${ONAMES//\'/\'\'}}', '{$MADE}', $part, 2)" >"$WORK/plant.$part" &
    pids+=($!)
  done
  for part in 0 1; do
    wait "${pids[$part]}" || fail "planting in $1 failed"
    made=$((made + $(cat "$WORK/plant.$part")))
  done
  echo "planted in $1, schema $2 ($((SECONDS - start)) s): $made look-alikes (not plantable: $(q -d "$1" -c "SELECT coalesce(string_agg(why || ': ' || c, ', '), 'none') FROM (SELECT why, count(*) AS c FROM plant_rec.skipped WHERE sig LIKE '$2.%' GROUP BY why) s"))"
}
# Data before an upgrade (a superuser's: 1.0 lets only superusers register prefixes): a typed
# domain, a registered prefix (the upgrade checks its constraint again), objectid keys.
DATA="
SELECT idgen.define_id_type('post', 'public.post_id');
CREATE TABLE public.posts (id public.post_id PRIMARY KEY, body text);
INSERT INTO public.posts (body) SELECT 'post ' || n FROM generate_series(1, 10) AS n;
SELECT idgen.register_prefix('post', 'public.posts');
CREATE TABLE public.docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int);
INSERT INTO public.docs (n) SELECT generate_series(1, 10);"

# members <database>: the owner of the extension adds the look-alikes in schema idgen to it, where
# they pass for idgen's own objects.
members() {
  as_owner -d "$1" <<'SQL'
DO $$
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
SQL
}

clone "${D}_pub" "${D}_base"
plant "${D}_pub" public
clone "${D}_pub_schema" "${D}_pub"
as_owner -d "${D}_pub_schema" -c "CREATE SCHEMA idgen"
plant "${D}_pub_schema" idgen
for from in 1.0 1.1; do
  t=${D}_up${from//./}
  clone "$t" "${D}_pub"
  as_owner -d "$t" -c "CREATE EXTENSION idgen VERSION '$from'"
  qs -d "$t" -c "$DATA" >/dev/null
  echo "idgen $from installed by the owner: schema idgen owned by $(q -d "$t" -c "SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'idgen'")"
  # The same with look-alikes in schema idgen: those planted already, moved in once idgen is
  # installed (1.1 gave the schema to a superuser: a superuser let the owner create objects in it
  # again), then those of idgen's functions and types.
  clone "${t}_schema" "${D}_pub_schema"
  as_owner -d "${t}_schema" -c "ALTER SCHEMA idgen RENAME TO idgen_planted" -c "CREATE EXTENSION idgen VERSION '$from'"
  qs -d "${t}_schema" -c "$DATA" >/dev/null
  [ "$from" = 1.0 ] || q -d "${t}_schema" -c "GRANT CREATE ON SCHEMA idgen TO $OWNER"
  as_owner -d "${t}_schema" <<'SQL'
DO $$
DECLARE
  p record;
BEGIN
  FOR p IN SELECT * FROM plant_rec.planted WHERE sig LIKE 'idgen.%' LOOP
    BEGIN
      EXECUTE CASE p.kind
        WHEN 'o' THEN format('ALTER OPERATOR %s SET SCHEMA idgen', p.oid::regoperator)
        WHEN 'a' THEN format('ALTER AGGREGATE %s SET SCHEMA idgen', regexp_replace(p.oid::regprocedure::text, '\(\)$', '(*)'))
        ELSE format('ALTER FUNCTION %s SET SCHEMA idgen', p.oid::regprocedure) END;
    EXCEPTION WHEN duplicate_function OR duplicate_object THEN  -- idgen has one so: its own
      DELETE FROM plant_rec.planted WHERE oid = p.oid;
    END;
  END LOOP;
END
$$;
DROP SCHEMA idgen_planted CASCADE;
SQL
  plant "${t}_schema" idgen
  members "${t}_schema"
  echo "the owner made the look-alikes in ${t}_schema members of extension idgen"
done
echo "(the planted databases: $((SECONDS - START)) s)"

# ---- the runs ----------------------------------------------------------------------------------

PROBLEMS=()
problem() { echo "PROBLEM: $*" >&2; PROBLEMS+=("$*"); }
RUN_CALLS=0 RUN_CHOSEN=0 RUN_DEPS=0 RUN_CAUGHT=""  # what the last run caught, for the probes

# What a run that succeeds must leave: idgen 1.2, in a schema owned by a superuser, where only
# superusers may create objects, holding only idgen's members (and the indexes of its tables),
# owned by superusers.
STATE="
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
          JOIN pg_roles r ON r.oid = o.owner WHERE NOT r.rolsuper GROUP BY o.owner LIMIT 1), 'none'))"

# run <name> <template> <role> <expected: installed|refused|any (of those two)|body (runs to its end)|probe> <SQL>
run() {
  local name=$1 template=$2 role=$3 want=$4 sql=$5 db=${D}_run_$1 off out rc=0 start=$SECONDS
  local hits0 hits1 chosen deps seen state calls traced outcome called
  clone "$db" "$template"
  hits0=$(q -d "$db" -c "SELECT last_value::text || is_called::text FROM plant_rec.hits")
  off=$(stat -c %s "$SERVER_LOG")
  # As the planter would have it: the session's search_path puts public first; the server logs the
  # parse tree of every query, and warnings reach the client.
  out=$(PGOPTIONS="-c search_path=public -c debug_print_parse=on -c debug_pretty_print=off -c client_min_messages=warning" \
    q -d "$db" -U "$role" -v VERBOSITY=verbose -c "$sql" 2>&1) || rc=$?
  # The OIDs of the operators, functions and aggregates that the logged parse trees name.
  local oids
  tail -c +$((off + 1)) "$SERVER_LOG" >"$WORK/$name.log"
  oids=$({ tr -s '\n\t' '  ' <"$WORK/$name.log" |  # (a tree is broken into lines of about 80 characters)
    grep -oE ':(opno|opfuncid|funcid|aggfnoid|winfnoid|sortop|eqop|hashfuncid|negfuncid) +[0-9]+|:opnos +\(o[ 0-9]*\)' || true; } |
    grep -oE '[0-9]+' | sort -un | paste -sd, -)
  IFS=$'\x1f' read -r hits1 chosen deps seen state < <(q -d "$db" -F $'\x1f' -c "
    SELECT (SELECT last_value::text || is_called::text FROM plant_rec.hits),
      -- chosen: a look-alike named by a parse tree
      (SELECT string_agg(sig, '; ' ORDER BY sig) FROM plant_rec.planted WHERE oid = ANY ('{$oids}'::oid[])),
      -- named by what the script made: a dependency on a look-alike
      (SELECT string_agg(pg_describe_object(d.classid, d.objid, d.objsubid) || ' uses ' || p.sig, '; ' ORDER BY 1)
         FROM pg_depend d JOIN plant_rec.planted p ON p.oid = d.refobjid
          AND d.refclassid = CASE p.kind WHEN 'o' THEN 'pg_operator'::regclass ELSE 'pg_proc'::regclass END
        WHERE NOT (d.classid IN ('pg_operator'::regclass, 'pg_proc'::regclass) AND d.objid IN (SELECT oid FROM plant_rec.planted))),
      (SELECT string_agg(n || ' ' || c, ', ' ORDER BY n) FROM (SELECT split_part(sig, '.', 1) AS n, count(*) AS c FROM plant_rec.planted GROUP BY 1) s),
      ($STATE)")
  [ -n "${PLANT_KEEP:-}" ] || q -d postgres -c "DROP DATABASE $db"

  # Called: the warnings, and the counter.
  calls=$(grep -c 'PLANTED' <<<"$out" || true)
  [ "$hits0" = "$hits1" ] || calls=$((calls > 0 ? calls : 1))
  called=$(grep -oE 'PLANTED .*' <<<"$out" | sort | uniq -c | sort -rn | head -n 10 | sed -E 's/^ *([0-9]+) PLANTED (.*)/\2 (\1 times)/' | paste -sd';' - || true)
  traced=$([ -n "$chosen" ] && tr ';' '\n' <<<"$chosen" | wc -l || echo 0)
  if [ $rc -eq 0 ]; then
    outcome=installed
  elif grep -qE 'ERROR:  (42P06|55000): schema "idgen" (already exists|already holds|holds objects that are not part of)' <<<"$out"; then
    outcome=refused
  else
    outcome="failed: $(grep -m1 'ERROR:' <<<"$out")"
  fi
  RUN_CALLS=$calls RUN_CHOSEN=$traced RUN_DEPS=$([ -n "$deps" ] && tr ';' '\n' <<<"$deps" | wc -l || echo 0)
  RUN_CAUGHT="calls=$RUN_CALLS chosen=$RUN_CHOSEN dependencies=$RUN_DEPS"
  echo "-- $name ($role, $((SECONDS - start)) s): $sql -> $outcome; look-alikes: $seen; $RUN_CAUGHT"
  if [ "$want" = probe ]; then
    echo "   caught: called: ${called:-nothing}; chosen: ${chosen:-nothing}; dependencies: ${deps:-none}"
    return 0
  fi
  [ "$calls" -eq 0 ] || problem "$name: $calls look-alike calls: $called"
  [ -z "$chosen" ] || problem "$name: the script chose look-alikes: $chosen"
  [ -z "$deps" ] || problem "$name: objects of the script use look-alikes: $deps"
  case $want:$outcome in
    installed:installed | refused:refused | any:installed | any:refused | body:installed) ;;
    body:*) problem "$name: expected the script to run to its end, got $outcome" ;;
    *) problem "$name: expected $want, got $outcome" ;;
  esac
  if [ "$want" != body ] && [ "$outcome" = installed ]; then
    echo "   $state"
    [[ "$state" == "version 1.2 | owner "*" (superuser) | CREATE for superusers only | strangers: none | owned by others: none" ]] ||
      problem "$name: after it, schema idgen is not idgen 1.2's alone: $state"
  fi
}

# The scripts as they are.
run superuser_install_public  "${D}_pub"          postgres installed "CREATE EXTENSION idgen"
run superuser_install_schema  "${D}_pub_schema"   postgres refused   "CREATE EXTENSION idgen"
run owner_install_public      "${D}_pub"          "$OWNER" installed "CREATE EXTENSION idgen"
run owner_install_schema      "${D}_pub_schema"   "$OWNER" refused   "CREATE EXTENSION idgen"
run update_from_1_0_public    "${D}_up10"         "$OWNER" installed "ALTER EXTENSION idgen UPDATE"
run update_from_1_0_schema    "${D}_up10_schema"  "$OWNER" any       "ALTER EXTENSION idgen UPDATE"
run update_from_1_1_public    "${D}_up11"         "$OWNER" installed "ALTER EXTENSION idgen UPDATE"
run update_from_1_1_schema    "${D}_up11_schema"  "$OWNER" any       "ALTER EXTENSION idgen UPDATE"
# Every statement after the guards, with the look-alikes in schema idgen.
run install_body              "${D}_pub_schema"   "$OWNER" body      "CREATE EXTENSION idgen VERSION 'plant_body'"
run update_from_1_0_body      "${D}_up10_schema"  "$OWNER" body      "ALTER EXTENSION idgen UPDATE TO 'plant_body'"
run update_from_1_1_body      "${D}_up11_schema"  "$OWNER" body      "ALTER EXTENSION idgen UPDATE TO 'plant_body'"

# ---- the test can fail ---------------------------------------------------------------------------

run probe_install "${D}_pub_schema" "$OWNER" probe "CREATE EXTENSION idgen VERSION 'plant_probe'"
[ "$RUN_CHOSEN" -gt 0 ] ||
  problem "the test cannot fail: the parse trees did not show the install script's guard choosing a look-alike for \"a.grantee = 0\""
run probe_update "${D}_up11_schema" "$OWNER" probe "ALTER EXTENSION idgen UPDATE TO 'plant_probe'"
[ "$RUN_CALLS" -gt 0 ] ||
  problem "the test cannot fail: the 1.1 -> 1.2 guard with \"d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass\" called no look-alike"
run probe_body "${D}_pub_schema" "$OWNER" probe "CREATE EXTENSION idgen VERSION 'plant_body_probe'"
[ "$RUN_DEPS" -gt 0 ] ||
  problem "the test cannot fail: pg_depend did not show idgen.ticket_server with \"% servers\" using a look-alike"

echo "(plant: $((SECONDS - START)) s)"
if [ ${#PROBLEMS[@]} -gt 0 ]; then
  printf '  %s\n' "${PROBLEMS[@]}" >&2
  fail "${#PROBLEMS[@]} problems"
fi
pass "no look-alike was called or chosen by the install and upgrade scripts, and the probes were caught"
