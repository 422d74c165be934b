-- The native typeid type, idgen.type_id: the TypeID spec's vectors, text and binary forms, size on
-- disk, order, index support and the planner's estimates, casts, decoders, a domain of one prefix,
-- a text column moved to the type and back, every class of malformed text.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- The spec's valid vectors (jetify-com/typeid spec/valid.yml, 0.3.0): each reads, writes back its
-- own text, and holds its prefix and UUID.
SELECT v AS typeid, v::idgen.type_id::text = v AS same_text, idgen.type_id_prefix(v::idgen.type_id) AS prefix,
       v::idgen.type_id::uuid AS uuid
FROM (VALUES ('00000000000000000000000000'), ('00000000000000000000000001'), ('0000000000000000000000000a'),
             ('0000000000000000000000000g'), ('00000000000000000000000010'), ('7zzzzzzzzzzzzzzzzzzzzzzzzz'),
             ('prefix_0123456789abcdefghjkmnpqrs'), ('prefix_01h455vb4pex5vsknk084sn02q'),
             ('pre_fix_00000000000000000000000000')) AS t(v);

-- idgen's base36 form: the cast from text reads it as the same value (the type's input does not,
-- below); type_id_text writes either form.
SELECT 'post_036twi214qwj7mgsvq83nm8wf'::text::idgen.type_id AS from_base36,
       idgen.type_id_text('post_036twi214qwj7mgsvq83nm8wf', 'base36') AS base36,
       idgen.type_id_text('post_036twi214qwj7mgsvq83nm8wf') AS base32;
SELECT count(*) AS same_uuid FROM (SELECT idgen.typeid('post') AS t FROM generate_series(1, 1000)) s
WHERE t::idgen.type_id::uuid = (idgen.typeid_parse(t)).id AND idgen.type_id_text(t::idgen.type_id, 'base36') = t;

-- Binary form: the UUID's 16 bytes, then the prefix.
SELECT idgen.type_id_send('user_01h455vb4pex5vsknk084sn02q') AS binary,
       idgen.type_id_send('01h455vb4pex5vsknk084sn02q') AS binary_empty_prefix;

-- On disk: 24 bytes for a prefix of up to 12 characters and a UUIDv7 or v4, 25 for another UUID,
-- 17 + the length for a longer prefix (the 1-byte header included).
CREATE TABLE sizes (label text, v idgen.type_id);
INSERT INTO sizes VALUES
  ('v7, 4 characters', idgen.type_id_generate('user')),
  ('v7, 12 characters', idgen.type_id_generate('user_account')),
  ('v4, 12 characters', idgen.type_id_generate('user_account', ordered => false)),
  ('v7, empty prefix', idgen.type_id_from_uuid('', idgen.uuidv7())),
  ('nil uuid', idgen.type_id_from_uuid('user', '00000000-0000-0000-0000-000000000000')),
  ('v7, 13 characters', idgen.type_id_generate('user_accounts')),
  ('v7, 63 characters', idgen.type_id_generate(repeat('a', 63)));
SELECT label, pg_column_size(v) AS bytes FROM sizes;
SELECT label, pg_column_size(v::text) AS text_bytes FROM sizes WHERE label = 'v7, 4 characters';
DROP TABLE sizes;

-- Order: prefix, then UUID, which is the order of the texts under the C collation. 100,000 values
-- of one session are in generation order.
CREATE TEMP TABLE gen AS SELECT n, idgen.type_id_generate('post') AS id FROM generate_series(1, 100000) AS n;
SELECT count(DISTINCT id) AS distinct_ids,
       (SELECT array_agg(n ORDER BY id) FROM gen) = (SELECT array_agg(n ORDER BY n) FROM gen) AS generation_order
FROM gen;
DROP TABLE gen;
CREATE TEMP TABLE mixed AS
SELECT idgen.type_id_from_uuid(p, CASE g % 3 WHEN 0 THEN idgen.uuidv7() WHEN 1 THEN gen_random_uuid() ELSE md5(g::text)::uuid END) AS v
FROM unnest(ARRAY['', 'a', 'a_b', 'ab', 'abc', 'z', 'user', 'user_account', 'users', 'abcdefghijkl', 'abcdefghijklm']) AS p,
     generate_series(1, 150) AS g;
INSERT INTO mixed VALUES ('00000000000000000000000000'), ('7zzzzzzzzzzzzzzzzzzzzzzzzz'),
  ('a_00000000000000000000000000'), ('a_7zzzzzzzzzzzzzzzzzzzzzzzzz');
ALTER TABLE mixed ADD COLUMN t text COLLATE "C";
UPDATE mixed SET t = v::text;
SELECT (SELECT array_agg(t ORDER BY v) FROM mixed) = (SELECT array_agg(t ORDER BY t) FROM mixed) AS order_is_text_order,
       (SELECT count(*) FROM mixed a JOIN mixed b ON a.v < b.v) = (SELECT count(*) FROM mixed a JOIN mixed b ON a.t < b.t)
  AS less_than_agrees,
       (SELECT count(*) FROM mixed a JOIN mixed b ON a.v = b.v) AS equal_pairs;
DROP TABLE mixed;

-- Index support. The plan's first node and its estimated rows, from EXPLAIN's JSON.
CREATE FUNCTION plan_of(query text, OUT node text, OUT index_name text, OUT rows numeric) LANGUAGE plpgsql AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
  plan := plan -> 0 -> 'Plan';
  WHILE plan ->> 'Node Type' IN ('Aggregate', 'Limit', 'Result') AND plan -> 'Plans' IS NOT NULL LOOP
    plan := plan -> 'Plans' -> 0;
  END LOOP;
  node := plan ->> 'Node Type';
  index_name := coalesce(plan ->> 'Index Name', plan -> 'Plans' -> 0 ->> 'Index Name');
  rows := (plan ->> 'Plan Rows')::numeric;
END
$$;

-- A domain of one prefix: its default makes a value of its prefix, its check refuses another.
SELECT idgen.define_id_type('user', 'user_id', native => true);
SELECT typname, typbasetype::regtype, pg_get_constraintdef(c.oid) AS check, typdefault
FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid WHERE typname = 'user_id';
CREATE TABLE users (id user_id PRIMARY KEY, n int NOT NULL);
-- Before ANALYZE: the unique index says one row.
SELECT * FROM plan_of($$SELECT * FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q'$$);
INSERT INTO users (n) SELECT g FROM generate_series(1, 20000) AS g;
ANALYZE users;
SELECT count(*) FILTER (WHERE idgen.type_id_prefix(id) = 'user') AS user_prefix, count(DISTINCT id) AS distinct_ids FROM users;
-- Equality on the unique column: one row, through the primary key.
SELECT * FROM plan_of(format('SELECT * FROM users WHERE id = %L', (SELECT id FROM users WHERE n = 777)));
SELECT n FROM users WHERE id = (SELECT id FROM users WHERE n = 777);
SELECT * FROM plan_of($$SELECT * FROM users WHERE id <> 'user_01h455vb4pex5vsknk084sn02q'$$);
-- Time ranges from type_id_min bounds: the estimate follows the histogram.
CREATE TABLE events (id idgen.type_id PRIMARY KEY, n int);
INSERT INTO events SELECT idgen.type_id_min('evt', timestamptz '2026-01-01' + g * interval '1 minute'), g
FROM generate_series(0, 9999) AS g;
ANALYZE events;
SELECT node, index_name, rows BETWEEN 50 AND 200 AS about_120
FROM plan_of($$SELECT * FROM events WHERE id >= idgen.type_id_min('evt', '2026-01-02') AND id < idgen.type_id_min('evt', '2026-01-02 02:00')$$);
SELECT count(*), min(n), max(n) FROM events
WHERE id >= idgen.type_id_min('evt', '2026-01-02') AND id < idgen.type_id_min('evt', '2026-01-02 02:00');
SELECT rows BETWEEN 4000 AND 6000 AS about_half FROM plan_of($$SELECT * FROM events WHERE id < idgen.type_id_min('evt', '2026-01-04 11:20')$$);
SELECT min(id) = idgen.type_id_min('evt', '2026-01-01') AS min_is_first, idgen.type_id_time(max(id)) AS latest FROM events;
SELECT node, index_name FROM plan_of('SELECT max(id) FROM events');
-- A join: the estimate is the join's size, not a half of the product.
SELECT rows BETWEEN 5000 AND 20000 AS join_estimate FROM plan_of('SELECT * FROM events a JOIN events b USING (id)');
SELECT count(*) FROM events a JOIN events b USING (id);
SET enable_hashjoin = off;
SELECT count(*) FROM events a JOIN events b USING (id);
RESET enable_hashjoin;
-- Hash and BRIN indexes, and a sort through the b-tree's sort support (abbreviated keys).
CREATE TABLE events_hash AS SELECT * FROM events;
CREATE INDEX events_hash_id ON events_hash USING hash (id);
CREATE TABLE events_brin AS SELECT * FROM events;
CREATE INDEX events_brin_id ON events_brin USING brin (id);
ANALYZE events_hash, events_brin;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT node, index_name FROM plan_of($$SELECT * FROM events_hash WHERE id = idgen.type_id_min('evt', '2026-01-03')$$);
SELECT n FROM events_hash WHERE id = idgen.type_id_min('evt', '2026-01-03');
RESET enable_bitmapscan;
SELECT node, index_name FROM plan_of($$SELECT * FROM events_brin WHERE id >= idgen.type_id_min('evt', '2026-01-03') AND id < idgen.type_id_min('evt', '2026-01-03 01:00')$$);
SELECT count(*), min(n), max(n) FROM events_brin
WHERE id >= idgen.type_id_min('evt', '2026-01-03') AND id < idgen.type_id_min('evt', '2026-01-03 01:00');
RESET enable_seqscan;
DROP TABLE events_hash, events_brin;
ALTER TABLE events DROP CONSTRAINT events_pkey;
CREATE INDEX events_sorted ON events (id);
SET enable_seqscan = off;
SELECT (SELECT array_agg(n ORDER BY id) FROM events) = (SELECT array_agg(n ORDER BY n) FROM events) AS sorted_by_index;
RESET enable_seqscan;
SET work_mem = '64kB';
SELECT (SELECT array_agg(n ORDER BY id DESC) FROM events) = (SELECT array_agg(n ORDER BY n DESC) FROM events) AS sorted_on_disk;
RESET work_mem;
DROP TABLE events;
DROP FUNCTION plan_of;

-- The domain refuses another prefix (22P02, naming both), from text, a value, and a uuid.
INSERT INTO users VALUES ('post_01h455vb4pex5vsknk084sn02q', 1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO users VALUES (idgen.type_id_from_uuid('post', '01890a5d-ac96-774b-bcce-b302099a8057'), 1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO users VALUES ('01890a5d-ac96-774b-bcce-b302099a8057'::uuid::idgen.type_id, 1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO users VALUES (idgen.type_id_from_uuid('user', '01890a5d-ac96-774b-bcce-b302099a8057'), 1) RETURNING id;
SELECT idgen.type_id_check('user_01h455vb4pex5vsknk084sn02q', 'user') AS check_ok;
DROP TABLE users;
DROP DOMAIN user_id;

-- Casts and decoders.
SELECT 'prefix_01h455vb4pex5vsknk084sn02q'::idgen.type_id::uuid AS uuid,
       '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::idgen.type_id AS from_uuid,
       idgen.type_id_from_uuid('prefix', '01890a5d-ac96-774b-bcce-b302099a8057') AS with_prefix,
       idgen.type_id_time('prefix_01h455vb4pex5vsknk084sn02q') AS time,
       idgen.type_id_time('prefix_01h455vb4pex5vsknk084sn02q') = idgen.typeid_time('prefix_01h455vb4pex5vsknk084sn02q') AS same_time;
SELECT idgen.type_id_time(idgen.type_id_generate('post')) BETWEEN now() AND clock_timestamp() + interval '1 ms' AS time_is_now,
       idgen.type_id_min('post', '2026-01-01 12:00') AS lower_bound,
       idgen.type_id_min('post', '2026-01-01 12:00')::uuid = idgen.uuidv7_min('2026-01-01 12:00') AS bound_is_uuidv7_min;
SELECT idgen.type_id_text(idgen.type_id_generate('token', ordered => false)) ~ '^token_[0-7][0-9a-hjkmnp-tv-z]{25}$' AS random_body,
       substr(idgen.type_id_generate('token', ordered => false)::uuid::text, 15, 1) AS version;
SELECT id = id::text::idgen.type_id AND id::uuid = (idgen.typeid_parse(id::text)).id AS text_round_trip
FROM (SELECT idgen.type_id_generate('round') AS id) s;
-- = and hash agree: GROUP BY through a hash, DISTINCT through a sort.
SELECT count(*) AS groups FROM (SELECT id FROM (VALUES ('a_00000000000000000000000000'::idgen.type_id), ('a_00000000000000000000000000'),
  ('post_036twi214qwj7mgsvq83nm8wf'), ('post_01fwhe4ydgfk1shh6w1g60eecf')) AS v(id) GROUP BY id) g;

-- A text typeid column (idgen.typeid's base36) moves to the type in one ALTER TABLE, keeping every
-- UUID, and back to the same text.
CREATE TABLE legacy (id text PRIMARY KEY DEFAULT idgen.typeid('post'), n int);
INSERT INTO legacy (n) SELECT g FROM generate_series(1, 1000) AS g;
CREATE TEMP TABLE before AS SELECT id, n FROM legacy;
ALTER TABLE legacy ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE idgen.type_id USING id::idgen.type_id,
  ALTER COLUMN id SET DEFAULT idgen.type_id_generate('post');
SELECT format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid) FROM pg_attribute JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
WHERE attrelid = 'legacy'::regclass AND attname = 'id';
SELECT count(*) AS moved FROM legacy JOIN before USING (n) WHERE legacy.id::uuid = (idgen.typeid_parse(before.id)).id;
INSERT INTO legacy (n) VALUES (1001);
ALTER TABLE legacy ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE text USING idgen.type_id_text(id, 'base36'),
  ALTER COLUMN id SET DEFAULT idgen.typeid('post');
SELECT count(*) AS back FROM legacy JOIN before USING (n) WHERE legacy.id = before.id;
SELECT id ~ '^post_[0-9a-z]{25}$' AS new_one_base36 FROM legacy WHERE n = 1001;
DROP TABLE legacy, before;

-- Malformed text: 22P02 with a detail and a hint, for each class.
\set VERBOSITY default
SELECT 'post_01h455vb4pex5vsknk084sn02q'::idgen.type_id AS ok;
SELECT 'Post_01h455vb4pex5vsknk084sn02q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_01H455VB4PEX5VSKNK084SN02Q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_036TWI214QWJ7MGSVQ83NM8WF'::text::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
-- A body of 25 characters: a TypeID that lost a digit, or idgen's base36 form, which only the cast
-- from text reads.
SELECT 'post_036twi214qwj7mgsvq83nm8wf'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_81h455vb4pex5vsknk084sn02q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_f5lxx1zz5pnorynqglhzmsp34'::text::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_01h455vb4pex5vsknk084sn02'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_01h455vb4pex5vsknk084sn02qq'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_01h455vb4pex5vsknk084sn0iq'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post_01h455vb4pex5vsknk084sn0-q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post1_01h455vb4pex5vsknk084sn02q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'post__01h455vb4pex5vsknk084sn02q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT '_01h455vb4pex5vsknk084sn02q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT (repeat('a', 64) || '_01h455vb4pex5vsknk084sn02q')::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
SELECT ' post_01h455vb4pex5vsknk084sn02q'::idgen.type_id;
\echo :LAST_ERROR_SQLSTATE
-- A bare prefix in a cast, the mistake of idgen.type_id('user') for idgen.type_id_generate('user').
SELECT idgen.type_id('user');
\echo :LAST_ERROR_SQLSTATE
-- Bad arguments.
SELECT idgen.type_id_generate('Post');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.type_id_from_uuid('post_', '01890a5d-ac96-774b-bcce-b302099a8057');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.type_id_time('post_00000000000000000000000000');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.type_id_text('01h455vb4pex5vsknk084sn02q', 'base36');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.type_id_text('post_01h455vb4pex5vsknk084sn02q', 'base64');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.type_id_min('post', 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_id_type('Post', 'bad_id', true);
\echo :LAST_ERROR_SQLSTATE

DROP EXTENSION idgen;
