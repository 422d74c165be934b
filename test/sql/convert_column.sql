-- Moving an existing table to idgen: a bigserial or identity column gets an idgen default.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never

CREATE TABLE orders (id bigserial PRIMARY KEY, what text);
CREATE TABLE lines (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, order_id bigint REFERENCES orders, n int);
INSERT INTO orders (what) SELECT 'order ' || n FROM generate_series(1, 1000) AS n;
INSERT INTO lines (order_id, n) SELECT o.id, n FROM orders o, generate_series(1, 3) AS n;

SELECT regexp_replace(idgen.convert_column('orders', 'id', 'snowflake'), 'start at \d+', 'start at ...');
SELECT regexp_replace(idgen.convert_column('lines', 'id', 'instagram', shard => 5), 'start at \d+', 'start at ...');
-- The type, the values and the foreign keys are kept; new rows get the new IDs, above the old.
SELECT pg_get_expr(d.adbin, d.adrelid), a.attidentity FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = 'orders'::regclass AND a.attname = 'id';
SELECT a.atttypid::regtype, a.attidentity = '' AS no_identity FROM pg_attribute a WHERE a.attrelid = 'lines'::regclass AND a.attname = 'id';
INSERT INTO orders (what) VALUES ('new') RETURNING id > 1000 AS above_the_old;
INSERT INTO lines (order_id, n) SELECT max(id), 1 FROM orders RETURNING (idgen.instagram_parse(id)).shard;
SELECT count(*) AS orders, count(*) FILTER (WHERE id <= 1000) AS old_ids FROM orders;
SELECT count(*) AS lines_with_their_order FROM lines JOIN orders ON orders.id = lines.order_id;

-- Refused: values that new IDs could reach, a column that is not bigint, unknown families.
CREATE TABLE big (id bigint PRIMARY KEY);
INSERT INTO big VALUES (9000000000000000000);
\set VERBOSITY sqlstate
SELECT idgen.convert_column('big', 'id', 'snowflake');  -- (the message names today's first ID)
\set VERBOSITY default
INSERT INTO big VALUES (20000000000);
DELETE FROM big WHERE id = 9000000000000000000;
ALTER SYSTEM SET idgen.launch_id = 1;
SELECT pg_reload_conf(), pg_sleep(0.3);
SELECT idgen.convert_column('big', 'id', 'decimal_id');
\echo :LAST_ERROR_SQLSTATE
SELECT pg_get_expr(d.adbin, d.adrelid) IS NULL AS default_unchanged
FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = 'big'::regclass AND a.attname = 'id';
CREATE TABLE small (id serial PRIMARY KEY);
SELECT idgen.convert_column('small', 'id', 'snowflake');
\echo :LAST_ERROR_SQLSTATE
-- TraceIds wrap every 388 days: a key column of them would meet a duplicate key (issue 20.8).
SELECT idgen.convert_column('orders', 'id', 'trace');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.convert_column('orders', 'id', 'uuidv7');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.convert_column('orders', 'nope', 'snowflake');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.convert_column('orders', 'id', 'instagram');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.convert_column('orders', 'id', 'snowflake', shard => 3);
\echo :LAST_ERROR_SQLSTATE

-- It sees every row, or refuses (issue 29, item 11). Row-level security forced on the table's owner
-- hides a row above the first new ID: refused, 42501 (it took the maximum of the rows the owner saw,
-- and set the default). Without FORCE the owner sees every row, the hidden one too: 55000.
CREATE ROLE idgen_convert_owner;
CREATE TABLE hidden (id bigserial PRIMARY KEY, what text);
ALTER TABLE hidden OWNER TO idgen_convert_owner;
INSERT INTO hidden (what) VALUES ('seen');
INSERT INTO hidden (id, what) VALUES (9000000000000000000, 'hidden');
ALTER TABLE hidden ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY only_small ON hidden USING (id < 1000);
SET ROLE idgen_convert_owner;
SELECT count(*) AS rows_the_owner_sees FROM hidden;
SELECT idgen.convert_column('hidden', 'id', 'snowflake');
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE hidden NO FORCE ROW LEVEL SECURITY;
SELECT count(*) AS rows_the_owner_sees FROM hidden;
\set VERBOSITY sqlstate
SELECT idgen.convert_column('hidden', 'id', 'snowflake');  -- (the message names today's first ID)
\set VERBOSITY default
RESET ROLE;
SELECT pg_get_expr(d.adbin, d.adrelid) AS default_unchanged
FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = 'hidden'::regclass AND a.attname = 'id';
-- Nor through a view, whose WHERE can hide rows: only a table's column is converted.
CREATE VIEW first_orders AS SELECT * FROM orders WHERE id < 10;
SELECT idgen.convert_column('first_orders', 'id', 'snowflake');
\echo :LAST_ERROR_SQLSTATE

-- idgen.column_max, the maximum convert_column reads from the heaps: of the table and its
-- partitions (the same as max()), under the caller's right to read the column.
CREATE TABLE parted (id bigint, at int) PARTITION BY RANGE (at);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM (0) TO (10);
CREATE TABLE parted_2 (at int, dropped int, id bigint);
ALTER TABLE parted_2 DROP COLUMN dropped;
ALTER TABLE parted ATTACH PARTITION parted_2 FOR VALUES FROM (10) TO (20);
INSERT INTO parted VALUES (5, 1), (7, 11), (NULL, 12);
SELECT idgen.column_max('parted', 'id') AS column_max, (SELECT max(id) FROM parted) AS max,
       idgen.column_max('parted_1', 'id') AS of_a_partition;
SELECT idgen.column_max('parted', 'at');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.column_max('parted', 'nope');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.column_max(0, 'id');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.column_max('first_orders', 'id');
\echo :LAST_ERROR_SQLSTATE
SET ROLE idgen_convert_owner;
SELECT idgen.column_max('parted', 'id');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
-- SELECT on the table is not enough without USAGE on its schema, as for a query (by its OID).
CREATE SCHEMA unreachable;
CREATE TABLE unreachable.t (id bigint);
GRANT SELECT ON unreachable.t TO idgen_convert_owner;
SELECT 'unreachable.t'::regclass::oid AS unreachable_oid \gset
SET ROLE idgen_convert_owner;
SELECT idgen.column_max(:unreachable_oid, 'id');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP SCHEMA unreachable CASCADE;
DROP TABLE parted;

DROP VIEW first_orders;
DROP TABLE lines, orders, big, small, hidden;
DROP ROLE idgen_convert_owner;
ALTER SYSTEM RESET idgen.launch_id;
SELECT pg_reload_conf(), pg_sleep(0.3);
DROP EXTENSION idgen;
