#!/usr/bin/env bash
# The size and speed of idgen.type_id and of a type of one prefix (idgen.define_uuid_type) against a
# text typeid and uuid (issue 33): for each subject a
# table keyed by it, ROWS rows inserted with the key as the column DEFAULT, then the heap, the
# primary key's b-tree (pgstattuple's pgstatindex: size, leaf pages, leaf density), the bytes of a
# value on disk and the seconds of the insert. Then the instructions of one call of each generator,
# counted by callgrind in a single-user backend (where valgrind is installed; "not run" otherwise).
#
#   bench/type_id.sh                   10,000,000 rows (PG_CONFIG= another major), a few minutes a subject
#   ROWS=100000 bench/type_id.sh       smaller
#   bench/type_id.sh --smoke           2,000 rows and 2,000 calls: that the script runs
#
# On its own it starts a throwaway cluster with idgen preloaded (scripts/cluster.sh); from
# scripts/bench.sh, which has one running and sets TYPE_ID_BENCH_IN_CLUSTER=1, it uses that one.
# Writes $OUT/type_id.md (build/bench/type_id.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --smoke ]; then
  ROWS=2000 CALLS=2000 OUT=${OUT:-build/bench-smoke}
else
  ROWS=${ROWS:-10000000} CALLS=${CALLS:-20000} OUT=${OUT:-build/bench}
fi
PG_CONFIG=${PG_CONFIG:-pg_config}
mkdir -p "$OUT"
say() { printf '%s\n' "$*" >&2; }

if [ -z "${TYPE_ID_BENCH_IN_CLUSTER:-}" ]; then
  source scripts/cluster.sh
  say "Starting a throwaway cluster with idgen preloaded..."
  cluster_start preload
  echo "max_wal_size = 8GB" >>"$CLUSTER_DIR/data/idgen.conf"
  cluster_start preload
fi
PG_BIN=$("$PG_CONFIG" --bindir)
q() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
db=idgen_bench_type_id
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
q -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION idgen" -c "CREATE EXTENSION pgstattuple" -c "CREATE SCHEMA b" \
  -c "SELECT idgen.define_uuid_type('user', 'b.user_uid'), idgen.define_uuid_type('user_account', 'b.account_uid')" \
  -c "CREATE TABLE b.result (ord int, name text, heap bigint, index bigint, leaf_pages bigint, density float8,
                             value_bytes float8, ms float8)"

# name | column type | DEFAULT
subjects=(
  "uuid (idgen.uuidv7())|uuid|idgen.uuidv7()"
  "text typeid 'user', TypeID base32|text COLLATE \"C\"|idgen.typeid('user', encoding => 'base32')"
  "text typeid 'user', idgen base36|text COLLATE \"C\"|idgen.typeid('user')"
  "idgen.type_id 'user'|idgen.type_id|idgen.type_id_generate('user')"
  "text typeid 'user_account', TypeID base32|text COLLATE \"C\"|idgen.typeid('user_account', encoding => 'base32')"
  "idgen.type_id 'user_account'|idgen.type_id|idgen.type_id_generate('user_account')"
  "define_uuid_type 'user'|b.user_uid|idgen.uuidv7()::b.user_uid"
  "define_uuid_type 'user_account'|b.account_uid|idgen.uuidv7()::b.account_uid"
)
say "type_id: $ROWS rows into a primary key, per subject..."
ord=0
for subject in "${subjects[@]}"; do
  IFS='|' read -r name type default <<<"$subject"
  ord=$((ord + 1))
  q -d "$db" -c "DROP TABLE IF EXISTS b.t" -c "CREATE TABLE b.t (id $type PRIMARY KEY DEFAULT $default, n int)" -c "CHECKPOINT"
  start=$(date +%s%N)
  q -d "$db" -c "INSERT INTO b.t (n) SELECT g FROM generate_series(1, $ROWS) AS g"
  ms=$((($(date +%s%N) - start) / 1000000))
  printf '%s\n' "INSERT INTO b.result
    SELECT $ord, :'name', pg_relation_size('b.t'), pg_relation_size('b.t_pkey'), s.leaf_pages, s.avg_leaf_density,
           (SELECT avg(pg_column_size(id)) FROM (SELECT id FROM b.t LIMIT 100000) v), $ms
    FROM pgstatindex('b.t_pkey') s" | q -d "$db" -v name="$name"
  say "  $name: $ms ms"
done
q -d "$db" -c "DROP TABLE b.t"

# Instructions per call: a single-user backend under callgrind, collecting inside the generator's
# C function only (inclusive: the UUIDv7 state, the encoding, the allocation of the result).
callgrind_rows=""
if [ "${1:-}" != --smoke ] && command -v valgrind >/dev/null && [ -z "${TYPE_ID_BENCH_NO_CALLGRIND:-}" ]; then
  say "type_id: instructions per call under callgrind ($CALLS calls each)..."
  data=$(q -d "$db" -c "SHOW data_directory")
  owner=$(stat -c %U "$data")
  as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u "$owner" -- "$@"; else "$@"; fi; }
  work=$(mktemp -d)
  chmod 777 "$work"
  # A single-user backend needs the cluster stopped; its idgen is preloaded as in the server.
  as_owner "$PG_BIN/pg_ctl" -D "$data" status >/dev/null 2>&1 && as_owner "$PG_BIN/pg_ctl" -D "$data" -m fast -w stop >/dev/null
  for fn in "idgen_typeid|idgen.typeid('user')" "idgen_typeid|idgen.typeid('user', encoding => 'base32')" \
    "idgen_type_id_generate|idgen.type_id_generate('user')" "idgen_uuidv7|idgen.uuidv7()::b.user_uid" "idgen_uuidv7|idgen.uuidv7()"; do
    IFS='|' read -r symbol call <<<"$fn"
    printf 'SELECT count(%s) FROM generate_series(1, %s);\n' "$call" "$CALLS" >"$work/q.sql"
    as_owner valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" --toggle-collect="$symbol" \
      "$PG_BIN/postgres" --single -D "$data" -c shared_preload_libraries=idgen "$db" <"$work/q.sql" >/dev/null 2>"$work/vg.log"
    ir=$(sed -nE 's/^(summary|totals): *([0-9]+).*/\2/p' "$work/cg.out" | head -n 1)
    callgrind_rows+="| \`$call\` | $((ir / CALLS)) |"$'\n'
    say "  $call: $((ir / CALLS)) instructions a call"
  done
  rm -rf "$work"
  as_owner "$PG_BIN/pg_ctl" -D "$data" -l "$data/../server.log" -w start >/dev/null
fi

machine="$(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)), $(q -d "$db" -c 'SHOW server_version'), $(date -u +%Y-%m-%d)"
{
  printf '### idgen.type_id and define_uuid_type: %s rows, the key as the column DEFAULT\n\n%s, one run.\n\n' "$ROWS" "$machine"
  q -d "$db" -c "
    WITH r AS (SELECT * FROM b.result), u AS (SELECT index FROM r WHERE ord = 1)
    SELECT E'| key | value on disk | heap | primary key | leaf pages | leaf density | × uuid''s index | insert |\n'
        || E'|---|---:|---:|---:|---:|---:|---:|---:|\n'
        || string_agg(format('| %s | %s B | %s | %s | %s | %s %% | %s | %s s |', name, round(value_bytes::numeric, 1),
                             pg_size_pretty(heap), pg_size_pretty(r.index), leaf_pages, round(density::numeric, 1),
                             round(r.index::numeric / u.index, 3), round((ms / 1000)::numeric, 1)), E'\n' ORDER BY ord)
    FROM r, u"
  printf '\n'
  q -d "$db" -c "
    WITH r AS (SELECT * FROM b.result)
    SELECT format(E'| target (issue 33) | measured | goal |\n|---|---:|---:|\n'
                  '| native ''user'' index, × uuid''s | %s | ≤ 1.25 |\n'
                  '| native ''user'' index, × the TypeID text''s | %s | ≤ 0.7 |\n'
                  '| native ''user_account'' index, × the TypeID text''s | %s | ≤ 0.7 |\n'
                  '| native ''user_account'' value on disk | %s B | ≤ 24 B |\n'
                  '| define_uuid_type ''user'' index, × uuid''s | %s | ≤ 1.25 |\n'
                  '| define_uuid_type ''user'' index, × the TypeID text''s | %s | ≤ 0.7 |\n'
                  '| define_uuid_type ''user_account'' index, × the TypeID text''s | %s | ≤ 0.7 |\n'
                  '| define_uuid_type ''user_account'' value on disk | %s B | ≤ 24 B |\n',
                  round((SELECT index FROM r WHERE ord = 4)::numeric / (SELECT index FROM r WHERE ord = 1), 3),
                  round((SELECT index FROM r WHERE ord = 4)::numeric / (SELECT index FROM r WHERE ord = 2), 3),
                  round((SELECT index FROM r WHERE ord = 6)::numeric / (SELECT index FROM r WHERE ord = 5), 3),
                  round((SELECT value_bytes FROM r WHERE ord = 6)::numeric, 1),
                  round((SELECT index FROM r WHERE ord = 7)::numeric / (SELECT index FROM r WHERE ord = 1), 3),
                  round((SELECT index FROM r WHERE ord = 7)::numeric / (SELECT index FROM r WHERE ord = 2), 3),
                  round((SELECT index FROM r WHERE ord = 8)::numeric / (SELECT index FROM r WHERE ord = 5), 3),
                  round((SELECT value_bytes FROM r WHERE ord = 8)::numeric, 1))"
  if [ -n "$callgrind_rows" ]; then
    printf '\nInstructions per call inside the C function (callgrind, %s calls, single-user backend):\n\n' "$CALLS"
    printf '| call | instructions |\n|---|---:|\n%s' "$callgrind_rows"
  else
    printf '\nInstructions per call: not run (%s).\n' "$([ "${1:-}" = --smoke ] && echo 'smoke run' || echo 'no valgrind')"
  fi
} >"$OUT/type_id.md"
q -d postgres -c "DROP DATABASE $db"
cat "$OUT/type_id.md"
