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
INSERT INTO events (id, what) VALUES (idgen.uuidv7(timestamptz '2026-01-15 09:30:00+00'), 'imported from January');
EXPLAIN (COSTS OFF)
SELECT * FROM events WHERE id >= idgen.uuidv7_min('2026-01-01') AND id < idgen.uuidv7_min('2026-02-01');
SELECT id, what, idgen.uuidv7_time(id) AS created FROM events
WHERE id >= idgen.uuidv7_min('2026-01-01') AND id < idgen.uuidv7_min('2026-02-01');

\echo '== Instagram: CREATE TABLE posts (id bigint PRIMARY KEY DEFAULT idgen.instagram_id(shard => 5), body text)'
CREATE TABLE posts (id bigint PRIMARY KEY DEFAULT idgen.instagram_id(shard => 5), body text);
INSERT INTO posts (body) VALUES ('first post'), ('second post'), ('third post');
INSERT INTO posts (id, body) VALUES (idgen.instagram_id(shard => 1234567 % 2000), 'a post of user 1234567');
SELECT p.id, p.body, d.ts, d.shard, d.seq FROM posts p, idgen.instagram_parse(p.id) d ORDER BY p.id;

\echo '== Snowflake with idgen.node_id = 33: CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT idgen.snowflake_id())'
-- (the node id is the server's configuration: ALTER SYSTEM, then a reload)
ALTER SYSTEM SET idgen.node_id = 33;
SELECT pg_reload_conf(), pg_sleep(0.3) \g /dev/null
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), item text);
INSERT INTO orders (item) SELECT 'item ' || n FROM generate_series(1, 3) AS n;
SELECT o.id, o.item, d.ts, d.node, d.seq FROM orders o, idgen.snowflake_parse(o.id) d ORDER BY o.id;

\echo '== Typed IDs: SELECT idgen.define_id_type(''user'', ''user_id''); CREATE TABLE users (id user_id PRIMARY KEY, name text)'
SELECT idgen.define_id_type('user', 'user_id');
CREATE TABLE users (id user_id PRIMARY KEY, name text);
SELECT idgen.register_prefix('user', 'users');
INSERT INTO users (name) VALUES ('ada'), ('grace'), ('edsger');
SELECT u.id, u.name, p.id AS uuid, idgen.typeid_time(u.id) AS created, idgen.typeid_table(u.id) AS registered_table
FROM users u, idgen.typeid_parse(u.id) p ORDER BY u.id;
\echo '   the TypeID spec form of the same IDs, and an unguessable token:'
SELECT idgen.typeid_from_uuid('user', (idgen.typeid_parse(id)).id, 'base32') AS spec_typeid FROM users ORDER BY id;
SELECT idgen.typeid('reset', ordered => false) AS unguessable;

\echo '== ObjectId: CREATE TABLE docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), body jsonb)'
CREATE TABLE docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), body jsonb);
INSERT INTO docs (body) VALUES ('{"title": "a"}'), ('{"title": "b"}'), ('{"title": "c"}');
INSERT INTO docs (id, body) VALUES ('507f191e810c19729de860ea', '{"title": "from MongoDB"}');
SELECT id, body, idgen.objectid_time(id) AS created, pg_column_size(id) AS bytes FROM docs ORDER BY id;

\echo '== More schemes: JS-safe, DecimalId, 20-digit UIDs, nanosecond base36 IDs'
ALTER SYSTEM SET idgen.node_id = 7;
ALTER SYSTEM SET idgen.uid20_server = 3;
ALTER SYSTEM SET idgen.launch_id = 65;
SELECT pg_reload_conf(), pg_sleep(0.3) \g /dev/null
SELECT idgen.js_id() AS js_id, idgen.decimal_id() AS decimal_id, idgen.uid20() AS uid20, idgen.uid20_sec() AS uid20_sec,
       idgen.ns_id() AS ns_id;
SELECT (idgen.js_parse(idgen.js_id())).*;
SELECT (idgen.decimal_parse(14150009200065)).*;
SELECT (idgen.uid20_parse(18290880000001234561)).*;

\echo '== Look-random public IDs of a sequence: SELECT id, idgen.public_id_text(id) (under idgen.public_id_key)'
ALTER SYSTEM SET idgen.public_id_key = 'the demo''s public-id key, thirty-two bytes or more';
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
SELECT id, idgen.public_id(id) AS public_id, idgen.public_id_text(id) AS public_text,
       idgen.private_id_text(idgen.public_id_text(id)) AS back
FROM generate_series(1, 4) AS id;

\echo '== Public UUIDs: a UUIDv7 shown as a UUIDv4-shaped façade that hides its time (uuidv47''s mapping)'
ALTER SYSTEM SET idgen.public_uuid_key = 'efcdab8967452301:1032547698badcfe';
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
SELECT id, idgen.public_uuid(id) AS facade, idgen.private_uuid(idgen.public_uuid(id)) = id AS read_back
FROM (SELECT idgen.uuidv7() AS id FROM generate_series(1, 3)) s;
SELECT idgen.public_typeid(idgen.typeid('user', encoding => 'base32')) AS public_typeid;

\echo '== Moving a bigserial table to idgen: SELECT idgen.convert_column(''legacy'', ''id'', ''snowflake'')'
CREATE TABLE legacy (id bigserial PRIMARY KEY, note text);
INSERT INTO legacy (note) VALUES ('old 1'), ('old 2');
SELECT idgen.convert_column('legacy', 'id', 'snowflake');
INSERT INTO legacy (note) VALUES ('new');
SELECT * FROM legacy ORDER BY id;

\echo '== Published IDs decode: an Instagram ID from 2020, the Snowflake vector epoch + 1 ms, node 33'
SELECT * FROM idgen.instagram_parse(2384288897814875714);
SELECT * FROM idgen.snowflake_parse(4329472);

\echo '== What the generators have issued (idgen.stats)'
SELECT * FROM idgen.stats;
SQL

echo "Stopping the cluster."
