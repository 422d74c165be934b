# The reference, docs/reference.md (scripts/reference.sh --check): every function of idgen in the
# catalog has its line in docs/functions.tsv, every line names a function, and the page's section is
# what the generator prints. Then the check is shown to fail, saying what to do, on a copy with a
# line missing, a line for a function that does not exist, and a section edited by hand.
source "$(dirname "$0")/lib.sh"
# The catalog is the same with and without preload: once per major is enough.
if [ "$IDGEN_MODE" != preloaded ]; then
  echo "not run: the reference checks the catalog, which preload does not change (run preloaded)"
  exit 0
fi
fresh_db reference
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
check() { PG_BIN=$PG_BIN "$ROOT/scripts/reference.sh" --check; }

check || fail "the reference: see above (make reference rewrites the section of docs/reference.md)"
pass "the reference matches the catalog"

echo "-- the check fails when a function has no line"
grep -v '^idgen\.uuidv7_min(' "$ROOT/docs/functions.tsv" >"$WORK/missing.tsv"
out=$(IDGEN_REFERENCE_TSV=$WORK/missing.tsv check 2>&1) && fail "a function without a line passed"
[[ "$out" == *"has no line for idgen.uuidv7_min(timestamp with time zone), a function of idgen: add this line"* ]] &&
  [[ "$out" == *$'\nidgen.uuidv7_min(timestamp with time zone)\t<what it does, in one line>'* ]] &&
  pass "missing line: says which line to add" || fail "missing line: $out"

echo "-- the check fails when a line names no function"
{ cat "$ROOT/docs/functions.tsv"; printf 'idgen.no_such_function(bigint)\tgone\n'; } >"$WORK/stale.tsv"
out=$(IDGEN_REFERENCE_TSV=$WORK/stale.tsv check 2>&1) && fail "a line for no function passed"
[[ "$out" == *"names idgen.no_such_function(bigint), which is no function of idgen"* ]] &&
  pass "stale line: named" || fail "stale line: $out"

echo "-- the check fails when the page's section differs"
sed 's/^| `idgen.uuidv7()` | `uuid` | .*/| `idgen.uuidv7()` | `uuid` | edited by hand |/' "$ROOT/docs/reference.md" >"$WORK/reference.md"
cmp -s "$ROOT/docs/reference.md" "$WORK/reference.md" && fail "the edit did not change the page's copy"
out=$(IDGEN_REFERENCE_FILE=$WORK/reference.md check 2>&1) && fail "an edited reference passed"
[[ "$out" == *"run make reference"* && "$out" == *"edited by hand"* ]] &&
  pass "reference edited: run make reference" || fail "reference edited: $out"

echo "-- CHANGELOG.md has a section for the version idgen.control installs"
version=$(sed -nE "s/^default_version = '([^']+)'/\1/p" "$ROOT/idgen.control")
grep -qx "## $version" "$ROOT/CHANGELOG.md" && pass "CHANGELOG.md: ## $version" ||
  fail "CHANGELOG.md has no section '## $version' for default_version $version of idgen.control: add what it changed and how to upgrade"
