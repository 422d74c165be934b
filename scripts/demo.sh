#!/usr/bin/env bash
# make demo: a throwaway cluster with idgen preloaded, tables keyed by idgen generators, a few rows,
# their IDs and what they decode to. The cluster is stopped and removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cluster.sh

echo "Starting a throwaway PostgreSQL cluster with shared_preload_libraries = 'idgen'..."
cluster_start preload

"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off <<'SQL'
SET timezone = 'UTC';
CREATE EXTENSION idgen;

\echo
\echo '== UUIDv7: CREATE TABLE events (id uuid PRIMARY KEY DEFAULT idgen.uuidv7(), what text)'
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT idgen.uuidv7(), what text);
INSERT INTO events (what) VALUES ('signed up'), ('logged in'), ('posted'), ('logged out');
SELECT id, what, idgen.uuidv7_time(id) AS created FROM events ORDER BY id;

\echo '== Backfill: a UUIDv7 for a past instant, and the range scan over the primary key'
INSERT INTO events (id, what) VALUES (idgen.uuidv7('2026-01-15 09:30:00+00'), 'imported from January');
EXPLAIN (COSTS OFF)
SELECT * FROM events WHERE id >= idgen.uuidv7_min('2026-01-01') AND id < idgen.uuidv7_min('2026-02-01');
SELECT id, what, idgen.uuidv7_time(id) AS created FROM events
WHERE id >= idgen.uuidv7_min('2026-01-01') AND id < idgen.uuidv7_min('2026-02-01');

\echo '== What the generators have issued (idgen.stats)'
SELECT * FROM idgen.stats;
SQL

echo "Stopping the cluster."
