#!/usr/bin/env bash
# The reference of every SQL function of idgen (docs/reference.md), generated from the catalog: each
# function that is a member of extension idgen (pg_depend, deptype 'e'), with its arguments (and
# defaults) and what it returns, joined with its one line in docs/functions.tsv.
#
#   scripts/reference.sh            print the Markdown table
#   scripts/reference.sh --check    fail, saying what to do, when a function has no line in
#                                   docs/functions.tsv, a line names no function, or the section of
#                                   docs/reference.md (between <!-- reference:begin --> and
#                                   <!-- reference:end -->) is not what this prints
#   scripts/reference.sh --update   rewrite that section (what make reference runs)
#
# It connects with psql to PGHOST/PGPORT/PGUSER/PGDATABASE: a database where idgen is installed.
# With --own-cluster first, it starts a throwaway cluster of PG_CONFIG (idgen installed there),
# creates the extension and runs there (make reference).
#
# docs/functions.tsv: one line per function, "<schema>.<name>(<argument types>)", a tab, then one
# line of description; lines starting with # are comments. The signature is the one PostgreSQL
# prints with search_path = pg_catalog (types as format_type writes them: bigint, timestamp with
# time zone, idgen.objectid), which is what --check prints for a function without a line.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# (other files, for the test that shows the check fails: test/t/docs.pl)
TSV=${IDGEN_REFERENCE_TSV:-$ROOT/docs/functions.tsv}
PAGE=${IDGEN_REFERENCE_FILE:-$ROOT/docs/reference.md}
PAGE_NAME=${PAGE#"$ROOT"/}
BEGIN_MARK='<!-- reference:begin -->'
END_MARK='<!-- reference:end -->'

if [ "${1:-}" = --own-cluster ]; then
  shift
  # shellcheck source=scripts/cluster.sh
  source scripts/cluster.sh
  cluster_start no-preload >/dev/null
  "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE idgen_reference"
  export PGDATABASE=idgen_reference
  "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION idgen"
fi
PSQL=${PG_BIN:-$(dirname "$(command -v psql)")}/psql
mode=${1:-print}

WORK=$(mktemp -d)
# (with --own-cluster, cluster.sh's own EXIT trap stops and removes the cluster: keep it)
trap 'rm -rf "$WORK"; if declare -F cluster_cleanup >/dev/null; then cluster_cleanup; fi' EXIT

# docs/functions.tsv without its comments, as "line number <tab> signature <tab> description".
awk -F '\t' -v file="docs/functions.tsv" '
  /^#/ || /^[[:space:]]*$/ { next }
  NF != 2 || $1 == "" || $2 == "" {
    printf "%s:%d: not \"signature<TAB>description\": %s\n", file, NR, $0 > "/dev/stderr"; bad = 1; next }
  { printf "%d\t%s\t%s\n", NR, $1, $2 }
  END { exit bad }' "$TSV" >"$WORK/lines.tsv"

# One SQL run: the catalog's functions, the lines, and what is missing on either side.
{
  echo "SET search_path = pg_catalog;"
  echo "CREATE TEMP TABLE line (lineno int, signature text, description text);"
  echo "\\copy line FROM '$WORK/lines.tsv'"
  cat <<'SQL'
CREATE TEMP TABLE fn AS
SELECT n.nspname || '.' || p.proname || '(' || oidvectortypes(p.proargtypes) || ')' AS signature,
       n.nspname || '.' || p.proname || '(' || coalesce((
         SELECT string_agg(CASE a.mode WHEN 'v' THEN 'VARIADIC ' ELSE '' END
                           || coalesce(nullif(a.name, '') || ' ', '') || format_type(a.type, NULL)
                           || coalesce(' DEFAULT ' || pg_get_function_arg_default(p.oid, a.ord::int), ''),
                           ', ' ORDER BY a.ord)
         FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargnames, p.proargmodes)
              WITH ORDINALITY AS a(type, name, mode, ord)
         WHERE a.type IS NOT NULL AND coalesce(a.mode, 'i') IN ('i', 'b', 'v')), '') || ')' AS call,
       CASE WHEN p.proretset THEN 'setof ' ELSE '' END || coalesce((
         SELECT '(' || string_agg(a.name || ' ' || format_type(a.type, NULL), ', ' ORDER BY a.ord) || ')'
         FROM unnest(p.proallargtypes, p.proargnames, p.proargmodes) WITH ORDINALITY AS a(type, name, mode, ord)
         WHERE a.mode IN ('o', 'b', 't')), format_type(p.prorettype, NULL))
       || CASE p.prokind WHEN 'a' THEN ' (aggregate)' ELSE '' END AS returns
FROM pg_depend d
JOIN pg_proc p ON p.oid = d.objid
JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen');
SELECT 'count' || E'\t' || count(*) FROM fn;
SELECT 'missing' || E'\t' || f.signature FROM fn f
WHERE NOT EXISTS (SELECT FROM line l WHERE l.signature = f.signature) ORDER BY f.signature;
SELECT 'stale' || E'\t' || l.lineno || E'\t' || l.signature FROM line l
WHERE NOT EXISTS (SELECT FROM fn f WHERE f.signature = l.signature) ORDER BY l.lineno;
SELECT 'twice' || E'\t' || l.signature FROM line l GROUP BY l.signature HAVING count(*) > 1 ORDER BY l.signature;
SELECT 'row' || E'\t' || '| `' || f.call || '` | `' || f.returns || '` | '
       || replace(l.description, '|', '\|') || ' |'
FROM fn f JOIN line l ON l.signature = f.signature
ORDER BY f.signature COLLATE "C";
SQL
} | "$PSQL" -X -q -At -v ON_ERROR_STOP=1 >"$WORK/out"

count=$(sed -n 's/^count\t//p' "$WORK/out")
{
  echo "| function | returns | description |"
  echo "|---|---|---|"
  sed -n 's/^row\t//p' "$WORK/out"
} >"$WORK/table.md"

problems=0
while IFS=$'\t' read -r kind a b; do
  case $kind in
    missing)
      echo "docs/functions.tsv has no line for $a, a function of idgen: add this line (signature, a tab, one line saying what it does):" >&2
      printf '%s\t<what it does, in one line>\n' "$a" >&2
      problems=$((problems + 1)) ;;
    stale)
      echo "docs/functions.tsv:$a names $b, which is no function of idgen: remove the line, or correct its signature" >&2
      problems=$((problems + 1)) ;;
    twice)
      echo "docs/functions.tsv describes $a more than once: keep one line" >&2
      problems=$((problems + 1)) ;;
  esac
done < <(grep -E '^(missing|stale|twice)' "$WORK/out" || true)

# The page's section: the lines between the markers.
page_section() {
  awk -v b="$BEGIN_MARK" -v e="$END_MARK" '$0 == e { inside = 0 } inside { print } $0 == b { inside = 1 }' "$PAGE"
}
markers_ok() {
  [ "$(grep -cxF "$BEGIN_MARK" "$PAGE")" = 1 ] && [ "$(grep -cxF "$END_MARK" "$PAGE")" = 1 ]
}

case $mode in
  print)
    cat "$WORK/table.md"
    [ "$problems" -eq 0 ] ;;
  --check)
    if ! markers_ok; then
      echo "$PAGE_NAME must hold one line '$BEGIN_MARK' and one line '$END_MARK' around the reference" >&2
      problems=$((problems + 1))
    elif ! diff -u <(page_section) "$WORK/table.md" >"$WORK/diff"; then
      echo "$PAGE_NAME is not what the catalog and docs/functions.tsv give: run make reference (the difference, the page first):" >&2
      cat "$WORK/diff" >&2
      problems=$((problems + 1))
    fi
    if [ "$problems" -ne 0 ]; then
      echo "the reference: $problems problem(s), $count functions in the catalog" >&2
      exit 1
    fi
    echo "the reference: $count functions, each with its line, $PAGE_NAME up to date" ;;
  --update)
    [ "$problems" -eq 0 ] || { echo "not updating $PAGE_NAME: fix docs/functions.tsv first" >&2; exit 1; }
    markers_ok || { echo "$PAGE_NAME must hold one line '$BEGIN_MARK' and one line '$END_MARK'" >&2; exit 1; }
    awk -v b="$BEGIN_MARK" -v e="$END_MARK" -v table="$WORK/table.md" '
      $0 == b { print; while ((getline l < table) > 0) print l; skip = 1; next }
      $0 == e { skip = 0 }
      !skip { print }' "$PAGE" >"$WORK/page.md"
    cat "$WORK/page.md" >"$PAGE"
    echo "$PAGE_NAME: the reference of $count functions" ;;
  *)
    echo "usage: scripts/reference.sh [--own-cluster] [--check|--update]" >&2
    exit 2 ;;
esac
