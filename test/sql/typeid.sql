-- Typed, prefixed IDs: format, parse, check, typed domains, the prefix registry, errors.
CREATE EXTENSION idgen;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- Format: <prefix>_<25 base36 characters>, lowercase; the RFC UUID and the TypeID spec vectors.
SELECT idgen.typeid('post') ~ '^post_[0-9a-z]{25}$' AS base36_form;
SELECT idgen.typeid('user', encoding => 'base32') ~ '^user_[0-7][0-9a-hjkmnp-tv-z]{25}$' AS base32_form;
SELECT idgen.typeid_from_uuid('post', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT idgen.typeid_from_uuid('prefix', '01890a5d-ac96-774b-bcce-b302099a8057', 'base32');
SELECT idgen.typeid_from_uuid('user_account', 'ffffffff-ffff-ffff-ffff-ffffffffffff');

-- Parse: either encoding, lowercase (prefix and body, as the type's input); the time of an
-- ordered body.
SELECT * FROM idgen.typeid_parse('post_036twi214qwj7mgsvq83nm8wf');
SELECT * FROM idgen.typeid_parse('prefix_01h455vb4pex5vsknk084sn02q');
SELECT * FROM idgen.typeid_parse('prefix_0123456789abcdefghjkmnpqrs');
SELECT * FROM idgen.typeid_parse('01h455vb4pex5vsknk084sn02q');
SELECT idgen.typeid_uuid('post_036twi214qwj7mgsvq83nm8wf', 'post');
SELECT idgen.typeid_time('post_036twi214qwj7mgsvq83nm8wf');
SELECT idgen.typeid_time('prefix_01h455vb4pex5vsknk084sn02q');
SELECT idgen.typeid_time(idgen.typeid('post')) BETWEEN now() AND clock_timestamp() + interval '1 ms' AS time_is_now;
SELECT (p).prefix = 'a_b' AND (p).id = u AS round_trip
FROM (VALUES ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid)) v(u), idgen.typeid_parse(idgen.typeid_from_uuid('a_b', u)) p;

-- Unguessable bodies: ordered => false is 122 CSPRNG bits (a UUIDv4), and holds no time.
SELECT substr((idgen.typeid_parse(idgen.typeid('token', ordered => false))).id::text, 15, 1) AS version;
SELECT count(DISTINCT idgen.typeid('token', false)) AS distinct_tokens FROM generate_series(1, 1000);

-- 100 000 sequential IDs: text order (C collation) equals uuid order equals generation order.
CREATE TEMP TABLE gen AS SELECT n, idgen.typeid('post') AS id FROM generate_series(1, 100000) AS n;
SELECT count(DISTINCT id) AS distinct_ids FROM gen;
SELECT (SELECT array_agg(n ORDER BY id COLLATE "C") FROM gen) = (SELECT array_agg(n ORDER BY n) FROM gen) AS text_order_is_generation_order,
       (SELECT array_agg(n ORDER BY (idgen.typeid_parse(id)).id) FROM gen) = (SELECT array_agg(n ORDER BY n) FROM gen) AS uuid_order_is_generation_order;
DROP TABLE gen;

-- typeid_is_valid never raises an error.
SELECT v, idgen.typeid_is_valid(v, 'post') AS valid
FROM (VALUES ('post_036twi214qwj7mgsvq83nm8wf'), ('post_036TWI214QWJ7MGSVQ83NM8WF'), ('post_01h455vb4pex5vsknk084sn02q'),
             ('user_036twi214qwj7mgsvq83nm8wf'), ('post_f5lxx1zz5pnorynqglhzmsp34'), ('post_36twi214qwj7mgsvq83nm8wf'),
             ('Post_036twi214qwj7mgsvq83nm8wf'), ('post036twi214qwj7mgsvq83nm8wf'), ('post_'), (''), ('_'),
             ('post_036twi214qwj7mgsvq83nm8w!')) AS t(v);

-- One ID, one spelling: every reader of the text functions reads a body as the type's input does,
-- lowercase only, so a text key checked by typeid_is_valid holds an ID once. The upper- and
-- mixed-case spellings of a base36 body are refused by every reader (the cast from text to the
-- type included), as those of a base32 one.
CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN others THEN
  RETURN SQLSTATE;
END
$$;
SELECT t, idgen.typeid_is_valid(t, 'post') AS is_valid,
       sqlstate_of(format('SELECT idgen.typeid_parse(%L)', t)) AS parse,
       sqlstate_of(format('SELECT idgen.typeid_uuid(%L, %L)', t, 'post')) AS uuid,
       sqlstate_of(format('SELECT idgen.typeid_time(%L)', t)) AS time,
       sqlstate_of(format('SELECT idgen.typeid_table(%L)', t)) AS tbl,
       sqlstate_of(format('SELECT %L::text::idgen.type_id', t)) AS type_cast
FROM (VALUES ('post_036twi214qwj7mgsvq83nm8wf'), ('post_036TWI214QWJ7MGSVQ83NM8WF'), ('post_036Twi214qwj7mgsvq83nm8wf'),
             ('post_036twi214qwj7mgsvq83nm8wF'), ('post_01fwhe4ydgfk1shh6w1g60eecf'), ('post_01FWHE4YDGFK1SHH6W1G60EECF')) AS v(t);
CREATE TABLE spelled (id text PRIMARY KEY CHECK (idgen.typeid_is_valid(id, 'post')));
INSERT INTO spelled VALUES ('post_036twi214qwj7mgsvq83nm8wf');
INSERT INTO spelled VALUES ('post_036TWI214QWJ7MGSVQ83NM8WF');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO spelled VALUES ('post_036Twi214qwj7mgsvq83nm8wf');
\echo :LAST_ERROR_SQLSTATE
SELECT id, (idgen.typeid_parse(id)).id FROM spelled;
DROP TABLE spelled;

-- The spec's empty prefix: its typeid is the bare body of 26 base32 digits, which every text
-- function writes and reads as the type does; idgen's base36 has no form without a prefix (22023
-- from every writer), and a "_" with nothing before it is no typeid.
SELECT idgen.typeid_from_uuid('', '01890a5d-ac96-774b-bcce-b302099a8057', 'base32') AS bare;
SELECT * FROM idgen.typeid_parse(idgen.typeid_from_uuid('', '01890a5d-ac96-774b-bcce-b302099a8057', 'base32'));
SELECT t ~ '^[0-7][0-9a-hjkmnp-tv-z]{25}$' AS bare_body, idgen.typeid_is_valid(t, '') AS is_valid,
       idgen.typeid_uuid(t, '') = t::idgen.type_id::uuid AS same_uuid, t::idgen.type_id::text = t AS type_writes_it,
       idgen.type_id_prefix(t::idgen.type_id) = '' AS type_reads_it,
       idgen.typeid_time(t) BETWEEN now() AND clock_timestamp() + interval '1 ms' AS time_is_now
FROM (SELECT idgen.typeid('', encoding => 'base32') AS t) s;
SELECT idgen.typeid_min('', '2026-01-01 00:00+00', 'base32') AS bare_min,
       idgen.typeid_min('', '2026-01-01 00:00+00', 'base32') = idgen.type_id_min('', '2026-01-01 00:00+00')::text AS as_the_type;
SELECT idgen.typeid_is_valid('_01h455vb4pex5vsknk084sn02q', '') AS separated, idgen.typeid_is_valid('01h455vb4pex5vsknk084sn02q', 'post') AS other_prefix;
SELECT idgen.typeid_from_uuid('', '01890a5d-ac96-774b-bcce-b302099a8057');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid('', encoding => 'base36');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('_01h455vb4pex5vsknk084sn02q');
\echo :LAST_ERROR_SQLSTATE

-- A base32 body whose first digit is above 7 holds more than 128 bits: text that is no typeid,
-- 22P02 from every reader, as from the type's input.
SELECT t, idgen.typeid_is_valid(t, 'prefix') AS is_valid,
       sqlstate_of(format('SELECT idgen.typeid_parse(%L)', t)) AS parse,
       sqlstate_of(format('SELECT idgen.typeid_uuid(%L, %L)', t, 'prefix')) AS uuid,
       sqlstate_of(format('SELECT idgen.typeid_time(%L)', t)) AS time,
       sqlstate_of(format('SELECT %L::idgen.type_id', t)) AS type_input,
       sqlstate_of(format('SELECT %L::text::idgen.type_id', t)) AS type_cast
FROM (VALUES ('prefix_7zzzzzzzzzzzzzzzzzzzzzzzzz'), ('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz'), ('zzzzzzzzzzzzzzzzzzzzzzzzzz'),
             ('prefix_f5lxx1zz5pnorynqglhzmsp34')) AS v(t);
SELECT * FROM idgen.typeid_parse('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz');
\echo :LAST_ERROR_SQLSTATE
DROP FUNCTION sqlstate_of;

-- Typed IDs: a domain per entity. A user_ value does not go into a post_id column.
SELECT idgen.define_id_type('post', 'post_id');
SELECT idgen.define_id_type('user', 'public.user_id');
CREATE TABLE posts (id post_id PRIMARY KEY, author user_id NOT NULL, body text);
INSERT INTO posts (author, body) VALUES (idgen.typeid('user'), 'hello');
SELECT id ~ '^post_' AS post_default, author ~ '^user_' AS user_author FROM posts;
SELECT typname, typcollation::regcollation, pg_get_constraintdef(c.oid) AS check, typdefault
FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid WHERE typname = 'post_id';
INSERT INTO posts (id, author) VALUES (idgen.typeid('user'), idgen.typeid('user'));
\echo :LAST_ERROR_SQLSTATE
INSERT INTO posts (id, author) VALUES ('POST_036TWI214QWJ7MGSVQ83NM8WF', idgen.typeid('user'));
\echo :LAST_ERROR_SQLSTATE
INSERT INTO posts (id, author) VALUES ('post_01h455vb4pex5vsknk084sn02q', idgen.typeid('user'));
\echo :LAST_ERROR_SQLSTATE
CREATE FUNCTION post_body(p post_id) RETURNS text LANGUAGE sql RETURN (SELECT body FROM posts WHERE id = p);
SELECT post_body((SELECT id FROM posts));
SELECT post_body(idgen.typeid('user'));
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_id_type('Post', 'bad_id');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.define_id_type('', 'bad_id');
\echo :LAST_ERROR_SQLSTATE

-- The prefix registry: one table per prefix, and any ID back to its table.
SELECT idgen.register_prefix('post', 'posts');
SELECT idgen.register_prefix('user', 'pg_roles');
SELECT idgen.register_prefix('post', 'pg_class');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.register_prefix('Post', 'posts');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.register_prefix('', 'posts');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid_table(id) FROM posts;
SELECT idgen.typeid_table(idgen.typeid('user', encoding => 'base32'));
SELECT idgen.typeid_table(idgen.typeid('comment')) IS NULL AS unregistered;
SELECT * FROM idgen.prefix_registry ORDER BY prefix;
SELECT extconfig::regclass[] FROM pg_extension WHERE extname = 'idgen';

-- Errors.
SELECT idgen.typeid('Post');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid('');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid('post1');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid(repeat('a', 64));
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid('post', encoding => 'base64');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid_uuid('user_036twi214qwj7mgsvq83nm8wf', 'post');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('post036twi214qwj7mgsvq83nm8wf');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('post_36twi214qwj7mgsvq83nm8wf');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('post_036twi214qwj7mgsvq83nm8w!');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('prefix_0123456789ABCDEFGHJKMNPQRS');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('post_f5lxx1zz5pnorynqglhzmsp34');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('_post_036twi214qwj7mgsvq83nm8wf');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('POST_036TWI214QWJ7MGSVQ83NM8WF');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM idgen.typeid_parse('post_036TWI214QWJ7MGSVQ83NM8WF');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid_time(idgen.typeid_from_uuid('token', '5bd1ac3e-1b8b-4a4a-9bd1-66a4b2ee1aa4'));
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid_table('nonsense');
\echo :LAST_ERROR_SQLSTATE

-- typeid_min: the smallest ordered typeid of a prefix at an instant (pg_partman's encoder).
SELECT idgen.typeid_min('user', '2026-01-01 00:00+00');
SELECT idgen.typeid_min('user', '2026-01-01 00:00+00', 'base32');
SELECT idgen.typeid_min('user', '2026-01-01 00:00+00') = idgen.typeid_from_uuid('user', idgen.uuidv7_min('2026-01-01 00:00+00')) AS same;
SELECT idgen.typeid_time(idgen.typeid_min('user', '2026-01-01 12:34:56.789+00'));
SELECT idgen.typeid_min(NULL, now()) IS NULL AND idgen.typeid_min('user', NULL) IS NULL AS strict;
-- Every typeid made at or after t sorts at or above typeid_min(t), below typeid_min(t + 1 ms), in
-- both encodings (C collation).
SELECT count(*) FILTER (WHERE b36 COLLATE "C" < idgen.typeid_min('user', t) OR b36 COLLATE "C" >= idgen.typeid_min('user', t + interval '1 ms')
                           OR b32 COLLATE "C" < idgen.typeid_min('user', t, 'base32') OR b32 COLLATE "C" >= idgen.typeid_min('user', t + interval '1 ms', 'base32')) AS outside,
       count(*) AS made
FROM (SELECT t, idgen.typeid_from_uuid('user', u) AS b36, idgen.typeid_from_uuid('user', u, 'base32') AS b32
      FROM (SELECT timestamptz '2026-01-01 00:00+00' + n * interval '1 ms' AS t FROM generate_series(0, 999) AS n) s,
           LATERAL (SELECT idgen.uuidv7(s.t + f * interval '1 us') AS u FROM generate_series(0, 999, 111) AS f) g) x;
SELECT idgen.typeid_min('User', now());
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid_min('user', 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.typeid_min('user', now(), 'base64');
\echo :LAST_ERROR_SQLSTATE

DROP FUNCTION post_body;
DROP TABLE posts;
DROP DOMAIN post_id;
DROP DOMAIN user_id;
DROP EXTENSION idgen;
