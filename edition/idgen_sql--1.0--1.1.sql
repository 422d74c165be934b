-- idgen_sql 1.0 -> 1.1. The update of every form (ALTER EXTENSION idgen_sql UPDATE, pg_tle's update
-- path, idgen_sql.update.sql), and the second half of 1.1's complete script: 1.1's body is 1.0's
-- (edition/idgen_sql.body.sql, as released) followed by this file (edition/build.sh). It runs as
-- the role that installs or updates the edition, under search_path pg_catalog (pg_temp last):
-- every name it uses is qualified with its schema.

---------------------------------------------------------------------------------------------------
-- The version, and a schema for the generators' state that no other role can name.
--
-- PostgreSQL locks a relation named in a statement before it checks the privileges on it: a role
-- with nothing but CONNECT can PREPARE a query of any relation of a schema it may use (holding its
-- lock to the end of its transaction) and queue CREATE RULE's ACCESS EXCLUSIVE lock behind it, and
-- every nextval() of that relation then waits. A schema without USAGE for PUBLIC stops that at the
-- name: its relations are reachable only by OID, through the edition's functions, whose calls take
-- no lock but RowExclusiveLock, which nothing a role without privileges can take conflicts with.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.edition_version() RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN '1.1';

DO $schema$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen_sql_state'::pg_catalog.name) THEN
    RAISE EXCEPTION 'schema "idgen_sql_state" already exists'
      USING ERRCODE = 'duplicate_schema',
            DETAIL = 'The SQL edition keeps the state of its generators in a schema it makes itself, and never uses one made before.',
            HINT = 'Drop or rename schema idgen_sql_state, then install or update the edition.';
  END IF;
END
$schema$;
CREATE SCHEMA idgen_sql_state;
REVOKE ALL ON SCHEMA idgen_sql_state FROM PUBLIC;
COMMENT ON SCHEMA idgen_sql_state IS
'idgen (SQL edition): the state of the generators, reachable only through the functions of schema idgen';

-- The jumpers' mutex: a table that only the edition's owner can lock (see edition_next below).
CREATE TABLE idgen_sql_state.gate ();
REVOKE ALL ON TABLE idgen_sql_state.gate FROM PUBLIC;
COMMENT ON TABLE idgen_sql_state.gate IS
'the lock that one jump of a 64-bit generator''s offset to the clock holds at a time (no rows)';

---------------------------------------------------------------------------------------------------
-- Raising an error from an SQL expression: a function whose body is one expression can be inlined
-- into the query that calls it, and raises through this one, on the branch of a CASE that is taken.
-- (Its arguments always include the input, so that no plan evaluates it before the CASE does.)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.edition_raise(code text, message text, detail text, hint text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF detail IS NOT NULL AND hint IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message, DETAIL = detail, HINT = hint;
  ELSIF detail IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message, DETAIL = detail;
  ELSIF hint IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message, HINT = hint;
  END IF;
  RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END
$$;
COMMENT ON FUNCTION idgen.edition_raise(text, text, text, text) IS 'internal: raises an error (code, message, detail, hint) from an expression';

---------------------------------------------------------------------------------------------------
-- Instants. idgen refuses an instant outside a format's field with 22008, the largest timestamptz
-- included (whose microseconds since 1970 overflow a bigint); and writes times exactly.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.edition_us("at" timestamptz, what text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  us pg_catalog.numeric;
BEGIN
  IF pg_catalog.isfinite("at") THEN
    us := pg_catalog."numeric_mul"(EXTRACT(EPOCH FROM pg_catalog.timezone('UTC'::pg_catalog.text, "at")), 1000000::pg_catalog.numeric);
    IF us OPERATOR(pg_catalog.<=) 9223372036854775807::pg_catalog.numeric THEN
      RETURN CAST(us AS pg_catalog.int8);
    END IF;
  END IF;
  RAISE EXCEPTION 'timestamp out of range for %', what USING ERRCODE = 'datetime_field_overflow';
END
$$;

-- The instant of microseconds since 1970, exactly (two products of whole numbers below 2^53), as an
-- expression of timestamp arithmetic, which is immutable: callers inline it.
CREATE OR REPLACE FUNCTION idgen.edition_ts(us bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.timezone('UTC'::pg_catalog.text,
  ('1970-01-01 00:00:00'::pg_catalog."timestamp"
     OPERATOR(pg_catalog.+) (CAST((us OPERATOR(pg_catalog./) 1000000) AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 second'::pg_catalog.interval))
     OPERATOR(pg_catalog.+) (CAST((us OPERATOR(pg_catalog.%) 1000000) AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 microsecond'::pg_catalog.interval));

-- The instant of milliseconds since 1970, below 2^53 / 125 (year 4254: every 64-bit family's time
-- field, under any epoch the settings take): ms * 1000 microseconds is then a product of whole
-- numbers that a double holds exactly.
CREATE FUNCTION idgen.edition_ts_ms(ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.timezone('UTC'::pg_catalog.text,
  '1970-01-01 00:00:00'::pg_catalog."timestamp" OPERATOR(pg_catalog.+) (CAST(ms AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 millisecond'::pg_catalog.interval));
COMMENT ON FUNCTION idgen.edition_ts_ms(bigint) IS 'internal: the instant of milliseconds since 1970';

---------------------------------------------------------------------------------------------------
-- Epoch settings, read as idgen reads them: a whole number of milliseconds (spaces and a sign
-- before it, as strtoll takes them), from 0 to 2100-01-01; anything else refused (22023).
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.edition_epoch(family text) RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  setting pg_catalog.text := pg_catalog.current_setting(pg_catalog.concat('idgen.', family, '_epoch_ms'), true);
  ms pg_catalog.int8;
BEGIN
  IF setting IS NULL OR setting OPERATOR(pg_catalog.=) '' THEN
    RETURN (idgen.edition_layout(family)).epoch_ms;
  END IF;
  IF setting OPERATOR(pg_catalog.~) '^[ \t\n\v\f\r]*[+-]?0*[0-9]{1,13}$' THEN
    ms := CAST(pg_catalog.ltrim(setting, E' \t\n\v\f\r') AS pg_catalog.int8);
    IF ms OPERATOR(pg_catalog.>=) 0 AND ms OPERATOR(pg_catalog.<=) 4102444800000 THEN
      RETURN ms;
    END IF;
  END IF;
  RAISE EXCEPTION 'invalid value for parameter "idgen.%_epoch_ms": "%"', family, setting
    USING ERRCODE = 'invalid_parameter_value',
          DETAIL = 'An epoch is a whole number of milliseconds since 1970-01-01 00:00:00 UTC, before 2100.';
END
$$;

---------------------------------------------------------------------------------------------------
-- The identity of a database. Without shared memory the edition's unit is the database: two
-- databases of one server keep their state words apart, so they must never share a node id (or an
-- Instagram shard), nor use one that idgen uses on the same server. A database's identity is a tag
-- in its comment, [idgen_sql node=3 instagram=0-8191], which only its owner (or a superuser) can
-- write (COMMENT ON DATABASE) and every role of the server can read (pg_shdescription): the one
-- place PostgreSQL gives a role without superuser that is per database, shared and its own. The
-- generators check it against every other database's tag, and against idgen's settings where
-- idgen is on this server, and refuse (55000) a missing or shared identity.
--
-- Node ids are 0 to 1023 (the widest that Snowflake holds; JS-safe IDs take 0 to 31). Instagram
-- shards come in blocks of 128 (0-127, 0-8191, 1024-2047): a database owns one range of them.
---------------------------------------------------------------------------------------------------

-- Every database's tag: its node, and its Instagram shard blocks (NULL when it has none). A tag
-- counts in the first 1024 characters of a comment only: any database's owner may write a comment
-- of any size, and every check on the server reads them all (a slice of a long value is read
-- without the rest of it).
CREATE FUNCTION idgen.edition_identities(OUT datid oid, OUT datname name, OUT node int, OUT lo_block int, OUT hi_block int)
RETURNS SETOF record
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT d.oid, d.datname, CAST(m[1] AS pg_catalog.int4),
         CAST(CAST(m[2] AS pg_catalog.int4) OPERATOR(pg_catalog./) 128 AS pg_catalog.int4),
         CAST(CAST(m[3] AS pg_catalog.int4) OPERATOR(pg_catalog./) 128 AS pg_catalog.int4)
    FROM pg_catalog.pg_database d
    JOIN pg_catalog.pg_shdescription s
      ON s.objoid OPERATOR(pg_catalog.=) d.oid AND s.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_database'::pg_catalog.regclass,
         LATERAL pg_catalog.regexp_match(pg_catalog.substr(s.description, 1, 1024),
                                         '\[idgen_sql node=([0-9]{1,4})(?: instagram=([0-9]{1,4})-([0-9]{1,4}))?\]') m
   WHERE m IS NOT NULL;
END;
COMMENT ON FUNCTION idgen.edition_identities() IS
'internal: the identity tag of every database of this server that has one (its comment)';

-- Whether idgen can make IDs on this server (its files are here), and what it takes: its node id
-- (NULL where it reads it from Citus, which this side cannot know), its Instagram shards.
CREATE FUNCTION idgen.edition_idgen_here(OUT here boolean, OUT node int, OUT shards int4multirange)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  setting pg_catalog.text;
  source pg_catalog.text;
  shards_text pg_catalog.text;
  part pg_catalog.text;
  m pg_catalog.text[];
BEGIN
  here := EXISTS (SELECT FROM pg_catalog.pg_available_extensions() a WHERE a.name OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name);
  IF NOT here THEN RETURN; END IF;
  -- The server's values (its configuration, or a superuser's for the role or database), never what
  -- this session SET: where idgen is not loaded here its settings are placeholders, which any
  -- session may set. RESET, in a subtransaction rolled back at once, reads them and keeps the
  -- session's own.
  BEGIN
    -- (where idgen is loaded here they are its settings, which a session cannot change: no RESET)
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_settings g WHERE g.name OPERATOR(pg_catalog.=) 'idgen.node_id') THEN
      RESET idgen.node_id;
      RESET idgen.node_id_source;
      RESET idgen.instagram_shards;
    END IF;
    setting := pg_catalog.current_setting('idgen.node_id', true);
    source := pg_catalog.current_setting('idgen.node_id_source', true);
    shards_text := pg_catalog.current_setting('idgen.instagram_shards', true);
    RAISE SQLSTATE 'IDGR0';
  EXCEPTION WHEN SQLSTATE 'IDGR0' THEN NULL;
  END;
  IF source IS NULL OR source OPERATOR(pg_catalog.<>) 'citus' THEN
    setting := pg_catalog.btrim(COALESCE(setting, ''));
    node := CASE WHEN setting OPERATOR(pg_catalog.=) '' THEN 0
                 WHEN setting OPERATOR(pg_catalog.~) '^[0-9]{1,9}$' THEN CAST(setting AS pg_catalog.int4) END;
  END IF;
  -- (idgen's syntax: "0-8191", "5,9,100-199"; its default, every shard)
  setting := pg_catalog.btrim(COALESCE(NULLIF(shards_text, ''), '0-8191'));
  shards := '{}';
  FOREACH part IN ARRAY pg_catalog.string_to_array(setting, ',') LOOP
    m := pg_catalog.regexp_match(part, '^\s*([0-9]{1,4})\s*(?:-\s*([0-9]{1,4})\s*)?$');
    CONTINUE WHEN m IS NULL;
    shards := shards OPERATOR(pg_catalog.+) pg_catalog.int4multirange(pg_catalog.int4range(
      CAST(m[1] AS pg_catalog.int4), CAST(COALESCE(m[2], m[1]) AS pg_catalog.int4), '[]'));
  END LOOP;
END
$$;
COMMENT ON FUNCTION idgen.edition_idgen_here() IS
'internal: whether idgen is on this server, and the node id and Instagram shards it takes';

-- This database's identity, and what is wrong with it: no tag, or a node id or shards that another
-- database or idgen also takes.
CREATE FUNCTION idgen.edition_identity(OUT node int, OUT instagram_shards text, OUT node_problem text, OUT shards_problem text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  mine record;
  other pg_catalog.text;
  theirs record;
BEGIN
  SELECT * INTO mine FROM idgen.edition_identities() i WHERE i.datid OPERATOR(pg_catalog.=) idgen.edition_database();
  IF NOT FOUND THEN
    node_problem := 'This database has no identity of the SQL edition.';
    shards_problem := node_problem;
    RETURN;
  END IF;
  node := mine.node;
  IF mine.lo_block IS NOT NULL THEN
    instagram_shards := pg_catalog.format('%s-%s', mine.lo_block OPERATOR(pg_catalog.*) 128, (mine.hi_block OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127);
  END IF;
  IF node OPERATOR(pg_catalog.>) 1023 THEN
    node_problem := pg_catalog.format('Its node id %s is above 1023.', node);
  END IF;
  SELECT pg_catalog.string_agg(pg_catalog.quote_ident(i.datname), ', ' ORDER BY i.datname) INTO other
    FROM idgen.edition_identities() i WHERE i.datid OPERATOR(pg_catalog.<>) mine.datid AND i.node OPERATOR(pg_catalog.=) edition_identity.node;
  IF other IS NOT NULL THEN
    node_problem := pg_catalog.format('Node id %s is also the node id of database %s.', node, other);
  END IF;
  IF mine.lo_block IS NULL THEN
    shards_problem := 'This database owns no Instagram shards.';
  ELSIF mine.lo_block OPERATOR(pg_catalog.>) mine.hi_block OR mine.hi_block OPERATOR(pg_catalog.>) 63 THEN
    shards_problem := pg_catalog.format('Its Instagram shards "%s-%s" are no range of 0 to 8191.', mine.lo_block OPERATOR(pg_catalog.*) 128,
                                        (mine.hi_block OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127);
  ELSE
    SELECT pg_catalog.string_agg(pg_catalog.quote_ident(i.datname), ', ' ORDER BY i.datname) INTO other
      FROM idgen.edition_identities() i
     WHERE i.datid OPERATOR(pg_catalog.<>) mine.datid AND i.lo_block IS NOT NULL
       AND i.lo_block OPERATOR(pg_catalog.<=) mine.hi_block AND i.hi_block OPERATOR(pg_catalog.>=) mine.lo_block;
    IF other IS NOT NULL THEN
      shards_problem := pg_catalog.format('Instagram shards %s are also shards of database %s.', instagram_shards, other);
    END IF;
  END IF;
  SELECT * INTO theirs FROM idgen.edition_idgen_here();
  IF theirs.here THEN
    IF theirs.node IS NULL THEN
      node_problem := COALESCE(node_problem, 'idgen is on this server and takes its node id from Citus (idgen.node_id_source), which the SQL edition cannot read.');
    ELSIF theirs.node OPERATOR(pg_catalog.=) node THEN
      node_problem := COALESCE(node_problem, pg_catalog.format('idgen is on this server with node id %s (idgen.node_id).', node));
    END IF;
    IF shards_problem IS NULL AND theirs.shards OPERATOR(pg_catalog.&&) pg_catalog.int4multirange(pg_catalog.int4range(
         mine.lo_block OPERATOR(pg_catalog.*) 128, (mine.hi_block OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127, '[]')) THEN
      shards_problem := pg_catalog.format('idgen is on this server and owns some of Instagram shards %s (idgen.instagram_shards).', instagram_shards);
    END IF;
  END IF;
END
$$;
COMMENT ON FUNCTION idgen.edition_identity() IS
'the identity of this database for the SQL edition''s 64-bit generators (a tag in its comment), and what keeps them from making IDs with it';

---------------------------------------------------------------------------------------------------
-- 64-bit generators: Instagram, Snowflake, Sonyflake, TraceId, JS-safe.
--
-- The state of a family is two sequences of schema idgen_sql_state: a counter, of which nextval()
-- never returns a value twice, and an offset. An ID's word (tick << seq_bits | seq, as idgen's
-- shared memory holds it) is counter + offset, where the offset is the same before and after the
-- call's nextval (read twice: a call that straddles a change of it starts again). The offset only
-- grows, and only one call at a time changes it (the one that holds the lock on
-- idgen_sql_state.gate, a table no other role can lock or name), so words grow with the counter:
-- no two calls, in any session, get the same word. When the word falls behind the clock, that
-- call raises the offset so that the next word is the clock's tick (a jump); no call waits for
-- another except during a jump's few statements, and no role without the owner's rights can hold
-- anything a call needs. A burst beyond a tick's sequence field runs on into the next tick, and a
-- clock stepped back is ridden out, ahead of it, as in 1.0.
--
-- The offset sequence also holds what the last check of the database's identity found: its top
-- bits are the node id (Instagram: the first and last block of its shards), and it is negative
-- while the identity is unchecked (after a jump of the identity, a change, a copy of the
-- database), which sends every call through the check.
---------------------------------------------------------------------------------------------------

DO $state$
DECLARE
  f pg_catalog.text;
  w pg_catalog.int8;
BEGIN
  FOREACH f IN ARRAY ARRAY['instagram', 'snowflake', 'sonyflake', 'trace', 'js'] LOOP
    EXECUTE pg_catalog.format('CREATE SEQUENCE idgen_sql_state.%I AS pg_catalog.int8 MINVALUE 1 CACHE 1', f || '_counter');
    EXECUTE pg_catalog.format('CREATE SEQUENCE idgen_sql_state.%I AS pg_catalog.int8 MINVALUE -9223372036854775808 START 0 CACHE 1', f || '_offset');
    -- (no privilege for any other role: a closed schema hides only the names, and nextval() of a
    -- sequence by its OID would run the words ahead of the clock; the generators reach them as
    -- their owner, through functions that take no sequence from the caller)
    EXECUTE pg_catalog.format('REVOKE ALL ON SEQUENCE idgen_sql_state.%I, idgen_sql_state.%I FROM PUBLIC', f || '_counter', f || '_offset');
    EXECUTE pg_catalog.format('COMMENT ON SEQUENCE idgen_sql_state.%I IS %L', f || '_counter',
                              pg_catalog.format('the counter of %s IDs: one value per ID made, never twice', f));
    EXECUTE pg_catalog.format('COMMENT ON SEQUENCE idgen_sql_state.%I IS %L', f || '_offset',
                              pg_catalog.format('the offset of %s IDs'' words from their counter, and the identity last checked', f));
    -- 1.0's word goes on: the new words start above it. (Its generators wait until this
    -- transaction ends: ALTER SEQUENCE locks the sequence against nextval.)
    EXECUTE pg_catalog.format('ALTER SEQUENCE idgen.%I NO CYCLE', 'edition_' || f || '_seq');
    w := COALESCE(pg_catalog.pg_sequence_last_value(CAST(pg_catalog.format('idgen.%I', 'edition_' || f || '_seq') AS pg_catalog.regclass)), 0);
    IF f OPERATOR(pg_catalog.=) 'trace' THEN
      -- (TraceId's words count seconds from 2020 here, not from 1970: 31 bits of them fit the
      -- offset's 53 until 2088)
      w := pg_catalog.int8larger(w OPERATOR(pg_catalog.-) (1577836800::pg_catalog.int8 OPERATOR(pg_catalog.<<) 22), 0);
    END IF;
    PERFORM pg_catalog.setval(CAST(pg_catalog.format('idgen_sql_state.%I', f || '_offset') AS pg_catalog.regclass),
                              OPERATOR(pg_catalog.~) w, true);
  END LOOP;
END
$state$;

-- The layout of each family as the generators use it: the word's epoch and tick, the field widths
-- and where each field goes in the ID. (TraceId's word counts seconds from 2020-01-01; its ID holds
-- them from 1970, on 25 bits that wrap.)
CREATE TYPE idgen.edition_generator_layout AS (name text, title text, counter regclass, offsets regclass, word_epoch_ms bigint, unit_ms bigint,
  seq_bits int, max_tick bigint, time_shift int, node_shift int, seq_shift int, tick_base bigint, time_mask bigint, offset_mask bigint,
  published_epoch_ms bigint, node_max int);
COMMENT ON TYPE idgen.edition_generator_layout IS 'internal: the state and layout of a 64-bit family, as its generator uses them';
CREATE FUNCTION idgen.edition_generator(family int) RETURNS idgen.edition_generator_layout
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE family
  WHEN 1 THEN ROW('instagram'::pg_catalog.text, 'Instagram'::pg_catalog.text, 'idgen_sql_state.instagram_counter'::pg_catalog.regclass,
                  'idgen_sql_state.instagram_offset'::pg_catalog.regclass, 1314220021721::pg_catalog.int8, 1::pg_catalog.int8, 10,
                  1099511627775::pg_catalog.int8, 23, 10, 0, 0::pg_catalog.int8, -1::pg_catalog.int8, 2251799813685247::pg_catalog.int8,
                  1314220021721::pg_catalog.int8, 8191)::idgen.edition_generator_layout
  WHEN 2 THEN ROW('snowflake'::pg_catalog.text, 'Snowflake'::pg_catalog.text, 'idgen_sql_state.snowflake_counter'::pg_catalog.regclass,
                  'idgen_sql_state.snowflake_offset'::pg_catalog.regclass, 1288834974657::pg_catalog.int8, 1::pg_catalog.int8, 12,
                  2199023255551::pg_catalog.int8, 22, 12, 0, 0::pg_catalog.int8, -1::pg_catalog.int8, 9007199254740991::pg_catalog.int8,
                  1288834974657::pg_catalog.int8, 1023)::idgen.edition_generator_layout
  WHEN 3 THEN ROW('sonyflake'::pg_catalog.text, 'Sonyflake'::pg_catalog.text, 'idgen_sql_state.sonyflake_counter'::pg_catalog.regclass,
                  'idgen_sql_state.sonyflake_offset'::pg_catalog.regclass, 1409529600000::pg_catalog.int8, 10::pg_catalog.int8, 8,
                  549755813887::pg_catalog.int8, 24, 0, 16, 0::pg_catalog.int8, -1::pg_catalog.int8, 9007199254740991::pg_catalog.int8,
                  1409529600000::pg_catalog.int8, 65535)::idgen.edition_generator_layout
  WHEN 4 THEN ROW('trace'::pg_catalog.text, 'TraceId'::pg_catalog.text, 'idgen_sql_state.trace_counter'::pg_catalog.regclass,
                  'idgen_sql_state.trace_offset'::pg_catalog.regclass, 1577836800000::pg_catalog.int8, 1000::pg_catalog.int8, 22,
                  2147483647::pg_catalog.int8, 38, 22, 0, 1577836800::pg_catalog.int8, 33554431::pg_catalog.int8, 9007199254740991::pg_catalog.int8,
                  0::pg_catalog.int8, 65535)::idgen.edition_generator_layout
  WHEN 5 THEN ROW('js'::pg_catalog.text, 'JS-safe'::pg_catalog.text, 'idgen_sql_state.js_counter'::pg_catalog.regclass,
                  'idgen_sql_state.js_offset'::pg_catalog.regclass, 1767225600000::pg_catalog.int8, 10::pg_catalog.int8, 10,
                  274877906943::pg_catalog.int8, 15, 10, 0, 0::pg_catalog.int8, -1::pg_catalog.int8, 9007199254740991::pg_catalog.int8,
                  1767225600000::pg_catalog.int8, 31)::idgen.edition_generator_layout END;
COMMENT ON FUNCTION idgen.edition_generator(int) IS 'internal: the state and layout of a 64-bit family, as its generator uses them';

-- The database whose identity the offsets' top bits hold: a copy of the database (CREATE DATABASE
-- ... TEMPLATE, a dump restored beside it) has the original's offsets, and checks its own identity
-- before it uses them. And the instant (ms) of the last check of the identity in this database, by
-- any session: the generators look at the catalogs again a second after it. Both are kept where no
-- session can write them but through the edition's functions (a session's own settings would let
-- it skip the check).
CREATE SEQUENCE idgen_sql_state.identity_of AS pg_catalog.int8 MINVALUE 0 START 0 CACHE 1;
REVOKE ALL ON SEQUENCE idgen_sql_state.identity_of FROM PUBLIC;
COMMENT ON SEQUENCE idgen_sql_state.identity_of IS 'the OID of the database whose identity the offsets hold';
CREATE SEQUENCE idgen_sql_state.identity_checked AS pg_catalog.int8 MINVALUE 0 START 0 CACHE 1;
REVOKE ALL ON SEQUENCE idgen_sql_state.identity_checked FROM PUBLIC;
COMMENT ON SEQUENCE idgen_sql_state.identity_checked IS 'when the identity was last checked in this database (ms since 1970)';
-- And the transaction that last stopped the generators to change the identity (edition_fence): a
-- transaction whose snapshot does not see it reads the catalogs as they were before the change.
CREATE SEQUENCE idgen_sql_state.identity_changed AS pg_catalog.int8 MINVALUE 0 START 0 CACHE 1;
REVOKE ALL ON SEQUENCE idgen_sql_state.identity_changed FROM PUBLIC;
COMMENT ON SEQUENCE idgen_sql_state.identity_changed IS 'the transaction (xid8) that last stopped the generators to change the identity';

-- This database's OID, from the path of one of its relations (base/<database>/<file>, or under a
-- tablespace .../<database>/<file>): the server's memory, not pg_database, whose lock any role can
-- make others wait for, and cheap enough for every call of a generator.
CREATE FUNCTION idgen.edition_database() RETURNS oid
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CAST(pg_catalog.split_part(pg_catalog.pg_relation_filepath('idgen_sql_state.gate'::pg_catalog.regclass), '/', -2) AS pg_catalog.oid);
COMMENT ON FUNCTION idgen.edition_database() IS 'internal: the OID of this database';

-- The identity an offset's top bits hold, for a family: {node, first block, last block}.
CREATE FUNCTION idgen.edition_offset_identity(o bigint, family int) RETURNS int[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN family OPERATOR(pg_catalog.=) 1
            THEN ARRAY[-1, CAST(o OPERATOR(pg_catalog.>>) 57 AS pg_catalog.int4), CAST((o OPERATOR(pg_catalog.>>) 51) OPERATOR(pg_catalog.&) 63 AS pg_catalog.int4)]
            ELSE ARRAY[CAST(o OPERATOR(pg_catalog.>>) 53 AS pg_catalog.int4), -1, -1] END;
COMMENT ON FUNCTION idgen.edition_offset_identity(bigint, int) IS 'internal: the identity an offset holds';

-- idgen.edition_identity(), waiting for no lock more than 10 ms (the setting is this function's
-- alone: a SET clause restores it when the function returns).
CREATE FUNCTION idgen.edition_identity_at_once(OUT node int, OUT instagram_shards text, OUT node_problem text, OUT shards_problem text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp SET lock_timeout = '10ms' AS $$
BEGIN
  SELECT * INTO node, instagram_shards, node_problem, shards_problem FROM idgen.edition_identity();
END
$$;
COMMENT ON FUNCTION idgen.edition_identity_at_once() IS 'internal: idgen.edition_identity(), or an error (55P03) where a lock on the catalogs keeps it waiting';

-- This database's identity for a family: {node, first block, last block} (-1 where there is none,
-- or it is not usable): from the offset's top bits, where the offset holds a checked one, the
-- offsets are this database's, the identity was checked in this database within a second and this
-- session has checked it once; else checked now, from the catalogs. Called with the gate's lock
-- held, so that no change of the identity (which takes the lock) falls between the check and the
-- offset it writes.
CREATE FUNCTION idgen.edition_checked_identity(o bigint, family int) RETURNS int[]
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  now_ms pg_catalog.int8 := CAST(pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000) AS pg_catalog.int8);
  mine pg_catalog.oid := idgen.edition_database();
  checked boolean := o OPERATOR(pg_catalog.>=) 0
    AND pg_catalog.pg_sequence_last_value('idgen_sql_state.identity_of') OPERATOR(pg_catalog.=) CAST(mine AS pg_catalog.int8);
  since pg_catalog.int8 := now_ms OPERATOR(pg_catalog.-) COALESCE(pg_catalog.pg_sequence_last_value('idgen_sql_state.identity_checked'), 0);
  found record;
  node pg_catalog.int4;
  lo_block pg_catalog.int4;
  hi_block pg_catalog.int4;
BEGIN
  IF checked AND since OPERATOR(pg_catalog.>=) 0 AND since OPERATOR(pg_catalog.<) 1000
     AND COALESCE(pg_catalog.current_setting('idgen_sql.identity', true), '') OPERATOR(pg_catalog.<>) '' THEN
    RETURN idgen.edition_offset_identity(o, family);
  END IF;
  -- A transaction that reads under one snapshot (REPEATABLE READ, SERIALIZABLE) sees the catalogs
  -- as they were when it began: where that was before the last change of the identity, it could
  -- read an identity given up since as this database's. Such a transaction never checks: it makes
  -- IDs under the identity the offsets hold, where they hold one of this database (a change of
  -- the identity makes them negative, at once, for every transaction), or none.
  IF pg_catalog.current_setting('transaction_isolation') OPERATOR(pg_catalog.<>) 'read committed'
     AND NOT pg_catalog.pg_visible_in_snapshot(
           CAST(CAST(COALESCE(pg_catalog.pg_sequence_last_value('idgen_sql_state.identity_changed'), 0) AS pg_catalog.text) AS pg_catalog.xid8),
           pg_catalog.pg_current_snapshot()) THEN
    IF checked THEN
      RETURN idgen.edition_offset_identity(o, family);
    END IF;
    RAISE EXCEPTION 'this database''s identity cannot be checked in this transaction'
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = pg_catalog.format('Its identity changed after this %s transaction took its snapshot, which does not see the change.',
                                       pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))),
            HINT = 'Retry in a new transaction.';
  END IF;
  -- The catalogs are read with a lock any role can make others wait for (a role's PREPARE of a
  -- query on them, and a CREATE RULE queued behind it): never waited for. Where they cannot be read
  -- at once, the identity checked before goes on (another database can take it only by checking
  -- theirs, which sees this one's); with none, no ID.
  BEGIN
    SELECT * INTO found FROM idgen.edition_identity_at_once();
  EXCEPTION WHEN lock_not_available THEN
    IF checked THEN
      -- (looked at again in a second, not at every call: each look may wait its lock_timeout)
      PERFORM pg_catalog.setval('idgen_sql_state.identity_checked', pg_catalog.int8larger(now_ms, 0), true);
      PERFORM pg_catalog.set_config('idgen_sql.identity', CAST(now_ms AS pg_catalog.text), false);
      RETURN idgen.edition_offset_identity(o, family);
    END IF;
    RAISE EXCEPTION 'the identities of the databases cannot be read now'
      USING ERRCODE = 'lock_not_available',
            DETAIL = 'A lock on pg_shdescription or pg_database is held or waited for, and this database''s identity is not checked yet.',
            HINT = 'Try again once the transaction holding it ends (see pg_locks).';
  END;
  node := CASE WHEN found.node_problem IS NULL THEN found.node ELSE -1 END;
  lo_block := CASE WHEN found.shards_problem IS NULL THEN CAST(pg_catalog.split_part(found.instagram_shards, '-', 1) AS pg_catalog.int4) OPERATOR(pg_catalog./) 128 ELSE -1 END;
  hi_block := CASE WHEN found.shards_problem IS NULL THEN CAST(pg_catalog.split_part(found.instagram_shards, '-', 2) AS pg_catalog.int4) OPERATOR(pg_catalog./) 128 ELSE -1 END;
  PERFORM pg_catalog.setval('idgen_sql_state.identity_of', CAST(mine AS pg_catalog.int8), true);
  PERFORM pg_catalog.setval('idgen_sql_state.identity_checked', pg_catalog.int8larger(now_ms, 0), true);
  PERFORM pg_catalog.set_config('idgen_sql.identity', CAST(now_ms AS pg_catalog.text), false);
  RETURN ARRAY[node, lo_block, hi_block];
END
$$;
COMMENT ON FUNCTION idgen.edition_checked_identity(bigint, int) IS 'internal: this database''s identity for a family, as last checked (within a second), or checked now';

-- How far a 64-bit family's words may lead the clock, in its ticks: a second, rounded up, and one
-- tick. A burst beyond the family's capacity, or a clock stepped back, waits for the clock to come
-- within it; an identity new to a database starts its words just past it. So a node id (or a block
-- of Instagram shards) that leaves a database by any way at all, and is taken by another at once,
-- starts there above every ID made under it (unless the clock was stepped back between the two).
CREATE FUNCTION idgen.edition_lead_ticks(unit_ms bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((999 OPERATOR(pg_catalog.+) unit_ms) OPERATOR(pg_catalog./) unit_ms) OPERATOR(pg_catalog.+) 1;
COMMENT ON FUNCTION idgen.edition_lead_ticks(bigint) IS 'internal: how far a 64-bit family''s words may lead the clock, in its ticks';

-- A new ID, the careful way: the check of the identity and of the epoch setting, and the jump of the
-- offset to the clock, under the lock of idgen_sql_state.gate. Security definer: it alone sets the
-- offsets (the owner's); it takes a family's number and a shard, never a sequence.
CREATE FUNCTION idgen.edition_next(family int, shard bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  l record;
  id pg_catalog.int4[];
  o pg_catalog.int8;
  off pg_catalog.int8;
  bits pg_catalog.int8;
  c pg_catalog.int8;
  w pg_catalog.int8;
  node pg_catalog.int8;
  now_tick pg_catalog.int8;
  lead pg_catalog.int8;
  problem pg_catalog.text;
  setting pg_catalog.text;
  checked_at pg_catalog.text;
  waited_from pg_catalog.timestamptz;
BEGIN
  l := idgen.edition_generator(family);
  lead := idgen.edition_lead_ticks(l.unit_ms);
  IF l.name IS NULL THEN
    RAISE EXCEPTION 'no 64-bit family %', family USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- An epoch setting of this session, database or role (any but the server's configuration's),
  -- even the published epoch, refused as idgen refuses it; one that is no epoch, 22023.
  setting := pg_catalog.current_setting((('idgen.' OPERATOR(pg_catalog.||) l.name) OPERATOR(pg_catalog.||) '_epoch_ms'), true);
  IF COALESCE(setting, '') OPERATOR(pg_catalog.<>) ''
     AND (idgen.edition_epoch(l.name) OPERATOR(pg_catalog.<>) l.published_epoch_ms
          OR NOT EXISTS (SELECT FROM pg_catalog.pg_settings g
                          WHERE g.name OPERATOR(pg_catalog.=) (('idgen.' OPERATOR(pg_catalog.||) l.name) OPERATOR(pg_catalog.||) '_epoch_ms')
                            AND g.source OPERATOR(pg_catalog.=) ANY (ARRAY['default', 'configuration file', 'command line', 'environment variable']))) THEN
    RAISE EXCEPTION 'idgen.%_epoch_ms is set for this session, database or role', l.name
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'The SQL edition makes IDs under the published epochs only; the setting changes how IDs decode.',
            HINT = pg_catalog.format('Decode IDs of another epoch under it; make IDs with it reset (RESET idgen.%s_epoch_ms).', l.name);
  END IF;
  IF family OPERATOR(pg_catalog.=) 1 AND (shard OPERATOR(pg_catalog.<) 0 OR shard OPERATOR(pg_catalog.>) 8191) THEN
    RAISE EXCEPTION 'shard % is out of range for Instagram IDs', shard
      USING ERRCODE = 'invalid_parameter_value', DETAIL = 'Instagram shards are between 0 and 8191.';
  END IF;
  -- (the identity is checked under the gate's lock: a change of it, which takes the lock, falls
  -- wholly before the check or wholly after the offset is written, never between)
  BEGIN
    LOCK TABLE idgen_sql_state.gate IN SHARE UPDATE EXCLUSIVE MODE;
    o := pg_catalog.pg_sequence_last_value(l.offsets);
    id := idgen.edition_checked_identity(o, family);
    -- (the session's record of its check, which the block's end would undo: set again after it)
    checked_at := pg_catalog.current_setting('idgen_sql.identity', true);
    IF family OPERATOR(pg_catalog.=) 1 THEN
      node := shard;
      IF id[2] OPERATOR(pg_catalog.<) 0 THEN
        problem := (idgen.edition_identity()).shards_problem;
      ELSIF (shard OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.<) id[2] OR (shard OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.>) id[3] THEN
        RAISE EXCEPTION 'Instagram shard % is not one of this database''s', shard
          USING ERRCODE = 'invalid_parameter_value',
                DETAIL = pg_catalog.format('This database makes Instagram IDs of shards %s to %s (its identity, idgen.edition_identity()).',
                                           id[2] OPERATOR(pg_catalog.*) 128, (id[3] OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127);
      END IF;
      bits := (CAST(id[2] AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 57) OPERATOR(pg_catalog.|) (CAST(id[3] AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 51);
    ELSE
      node := id[1];
      IF node OPERATOR(pg_catalog.<) 0 THEN
        problem := (idgen.edition_identity()).node_problem;
      ELSIF node OPERATOR(pg_catalog.>) l.node_max THEN
        RAISE EXCEPTION 'node id % is out of range for % IDs', node, l.title
          USING ERRCODE = 'object_not_in_prerequisite_state',
                DETAIL = pg_catalog.format('%s IDs hold node ids 0 to %s.', l.title, l.node_max),
                HINT = 'Give this database a node id they hold (idgen.edition_set_identity).';
      END IF;
      bits := node OPERATOR(pg_catalog.<<) 53;
    END IF;
    o := pg_catalog.pg_sequence_last_value(l.offsets);
    off := CASE WHEN o OPERATOR(pg_catalog.<) 0 THEN OPERATOR(pg_catalog.~) o ELSE o END OPERATOR(pg_catalog.&) l.offset_mask;
    IF problem IS NOT NULL THEN
      IF o OPERATOR(pg_catalog.>=) 0 THEN
        PERFORM pg_catalog.setval(l.offsets, OPERATOR(pg_catalog.~) off, true);
      END IF;
      RAISE EXCEPTION 'this database has no usable identity for % IDs', l.title
        USING ERRCODE = 'object_not_in_prerequisite_state', DETAIL = problem,
              HINT = 'Give it one that no other database of this server and no idgen here takes: SELECT idgen.edition_set_identity(...), as the database owner (docs/managed.md).';
    END IF;
    c := pg_catalog.nextval(l.counter);
    now_tick := CAST(pg_catalog.floor(((pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000)
                  OPERATOR(pg_catalog.-) l.word_epoch_ms) OPERATOR(pg_catalog./) l.unit_ms) AS pg_catalog.int8);
    IF now_tick OPERATOR(pg_catalog.<) 0 OR now_tick OPERATOR(pg_catalog.>) l.max_tick THEN
      RAISE EXCEPTION 'timestamp out of range for % IDs', l.title USING ERRCODE = 'datetime_field_overflow';
    END IF;
    -- An identity new to these offsets (never used here, given by hand, taken from a database
    -- that gave it up or was dropped, the edition made again) starts its words past the lead:
    -- every database's words lie at most a lead ahead of the clock (below), so they start above
    -- every ID another holder of this node id or these shards made, however it let them go.
    IF o OPERATOR(pg_catalog.<=) 0 OR (o OPERATOR(pg_catalog.&) (OPERATOR(pg_catalog.~) l.offset_mask)) OPERATOR(pg_catalog.<>) bits THEN
      now_tick := now_tick OPERATOR(pg_catalog.+) lead OPERATOR(pg_catalog.+) 1;
    END IF;
    IF (c OPERATOR(pg_catalog.+) off) OPERATOR(pg_catalog.<) (now_tick OPERATOR(pg_catalog.<<) l.seq_bits) THEN
      off := ((now_tick OPERATOR(pg_catalog.<<) l.seq_bits) OPERATOR(pg_catalog.-) c) OPERATOR(pg_catalog.-) 1;
    END IF;
    IF (bits OPERATOR(pg_catalog.|) off) OPERATOR(pg_catalog.<>) o THEN
      PERFORM pg_catalog.setval(l.offsets, bits OPERATOR(pg_catalog.|) off, true);
    END IF;
    w := pg_catalog.nextval(l.counter) OPERATOR(pg_catalog.+) off;
    IF (w OPERATOR(pg_catalog.>>) l.seq_bits) OPERATOR(pg_catalog.>) l.max_tick THEN
      RAISE EXCEPTION 'timestamp out of range for % IDs', l.title USING ERRCODE = 'datetime_field_overflow',
        DETAIL = 'A burst beyond the sequence field ran the time field past its end.';
    END IF;
    -- (leaves the block the only way that gives the lock back at once: its subtransaction aborted)
    RAISE SQLSTATE 'IDGJ0';
  EXCEPTION WHEN SQLSTATE 'IDGJ0' THEN NULL;
  END;
  IF checked_at OPERATOR(pg_catalog.<>) '' THEN
    PERFORM pg_catalog.set_config('idgen_sql.identity', checked_at, false);
  END IF;
  -- A word more than the lead ahead of the clock (a burst beyond the family's capacity, a clock
  -- stepped back) waits until the clock is within the lead of it, up to 10 s; beyond, 55000.
  LOOP
    now_tick := CAST(pg_catalog.floor(((pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000)
                  OPERATOR(pg_catalog.-) l.word_epoch_ms) OPERATOR(pg_catalog./) l.unit_ms) AS pg_catalog.int8);
    EXIT WHEN (w OPERATOR(pg_catalog.>>) l.seq_bits) OPERATOR(pg_catalog.<=) (now_tick OPERATOR(pg_catalog.+) lead);
    waited_from := COALESCE(waited_from, pg_catalog.clock_timestamp());
    IF pg_catalog.clock_timestamp() OPERATOR(pg_catalog.>) (waited_from OPERATOR(pg_catalog.+) CAST('10 seconds' AS pg_catalog.interval)) THEN
      RAISE EXCEPTION 'the % IDs of this database run ahead of the clock by more than 10 s', l.title
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = pg_catalog.format('The next lies %s ms ahead; the edition lets IDs lead the clock by %s ms at most.',
                         ((w OPERATOR(pg_catalog.>>) l.seq_bits) OPERATOR(pg_catalog.-) now_tick) OPERATOR(pg_catalog.*) l.unit_ms,
                         lead OPERATOR(pg_catalog.*) l.unit_ms),
              HINT = 'The clock was stepped back: IDs go on once it passes them again.';
    END IF;
    PERFORM pg_catalog.pg_sleep(CAST(l.unit_ms AS pg_catalog.float8) OPERATOR(pg_catalog./) 1000);
  END LOOP;
  RETURN ((((w OPERATOR(pg_catalog.>>) l.seq_bits) OPERATOR(pg_catalog.+) l.tick_base) OPERATOR(pg_catalog.&) l.time_mask) OPERATOR(pg_catalog.<<) l.time_shift)
    OPERATOR(pg_catalog.|) (node OPERATOR(pg_catalog.<<) l.node_shift)
    OPERATOR(pg_catalog.|) ((w OPERATOR(pg_catalog.&) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.seq_bits) OPERATOR(pg_catalog.-) 1)) OPERATOR(pg_catalog.<<) l.seq_shift);
END
$$;
COMMENT ON FUNCTION idgen.edition_next(int, bigint) IS
'internal: a new 64-bit ID, checking the identity and the epoch setting and moving the offset to the clock under the gate''s lock';

-- A new ID, the fast way: counter + offset, when the offset held across the nextval, the identity
-- is checked (the offset is not negative, it is this database's, the identity was checked in this
-- database within a second, and this session has checked it once: a setting of the session, which
-- it may set itself, only ever adds a check), no epoch setting is set, the word is not behind the clock, and
-- nothing else needs a look (one counter value in 4096 goes the careful way, so that a change of
-- the identity is seen during a burst too). One function a family, made from one text here, with
-- the family's layout and state as constants: the generator's one frame (the SQL wrappers below
-- are inlined into the calling query). Security definer: the state sequences are the owner's
-- alone, and it takes no relation from its caller.
DO $fast$
DECLARE
  g record;
BEGIN
  FOR g IN SELECT * FROM (VALUES
      -- name, number, seq bits, word epoch (ms), tick (ms), largest tick, time, node and sequence
      -- shifts, tick base and mask (TraceId's 25 bits of seconds from 1970), offset mask, epoch text
      ('instagram', 1, 10, '1314220021721', 1, '1099511627775', 23, 10, 0, '0', '-1', '2251799813685247', '1314220021721'),
      ('snowflake', 2, 12, '1288834974657', 1, '2199023255551', 22, 12, 0, '0', '-1', '9007199254740991', '1288834974657'),
      ('sonyflake', 3, 8, '1409529600000', 10, '549755813887', 24, 0, 16, '0', '-1', '9007199254740991', '1409529600000'),
      ('trace', 4, 22, '1577836800000', 1000, '2147483647', 38, 22, 0, '1577836800', '33554431', '9007199254740991', '0'),
      ('js', 5, 10, '1767225600000', 10, '274877906943', 15, 10, 0, '0', '-1', '9007199254740991', '1767225600000'))
    v(name, family, seq_bits, word_epoch, unit, max_tick, time_shift, node_shift, seq_shift, tick_base, time_mask, offset_mask, epoch_text)
  LOOP
    EXECUTE pg_catalog.format($f$
CREATE FUNCTION idgen.%1$I(%2$s) RETURNS pg_catalog.int8
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  o pg_catalog.int8 := pg_catalog.pg_sequence_last_value(%22$L::pg_catalog.regclass);
  c pg_catalog.int8 := pg_catalog.nextval(%23$L::pg_catalog.regclass);
  w pg_catalog.int8 := c OPERATOR(pg_catalog.+) (o OPERATOR(pg_catalog.&) %3$s);
  ms pg_catalog.float8 := pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000;
  since pg_catalog.float8 := ms OPERATOR(pg_catalog.-) CAST(pg_catalog.pg_sequence_last_value('idgen_sql_state.identity_checked'::pg_catalog.regclass) AS pg_catalog.float8);
BEGIN
  IF o OPERATOR(pg_catalog.=) pg_catalog.pg_sequence_last_value(%22$L::pg_catalog.regclass) AND o OPERATOR(pg_catalog.>=) 0
     AND (c OPERATOR(pg_catalog.&) 4095) OPERATOR(pg_catalog.<>) 0
     AND (w OPERATOR(pg_catalog.>>) %4$s) OPERATOR(pg_catalog.<=) %5$s
     AND CAST((w OPERATOR(pg_catalog.>>) %4$s) OPERATOR(pg_catalog.+) 1 AS pg_catalog.float8) OPERATOR(pg_catalog.>) ((ms OPERATOR(pg_catalog.-) %6$s) OPERATOR(pg_catalog./) %7$s)
     AND CAST(w OPERATOR(pg_catalog.>>) %4$s AS pg_catalog.float8) OPERATOR(pg_catalog.<=) (((ms OPERATOR(pg_catalog.-) %6$s) OPERATOR(pg_catalog./) %7$s) OPERATOR(pg_catalog.+) %24$s)
     AND pg_catalog.pg_sequence_last_value('idgen_sql_state.identity_of'::pg_catalog.regclass) OPERATOR(pg_catalog.=)
         CAST(pg_catalog.split_part(pg_catalog.pg_relation_filepath('idgen_sql_state.gate'::pg_catalog.regclass), '/', -2) AS pg_catalog.int8)
     AND since OPERATOR(pg_catalog.>=) 0 AND since OPERATOR(pg_catalog.<) 1000
     AND pg_catalog.current_setting('idgen_sql.identity', true) OPERATOR(pg_catalog.<>) ''
     AND COALESCE(pg_catalog.current_setting(%8$L, true), '') OPERATOR(pg_catalog.=) ''%10$s THEN
    RETURN ((((w OPERATOR(pg_catalog.>>) %4$s) OPERATOR(pg_catalog.+) %11$s) OPERATOR(pg_catalog.&) %12$s) OPERATOR(pg_catalog.<<) %13$s)
      OPERATOR(pg_catalog.|) (%14$s OPERATOR(pg_catalog.<<) %15$s)
      OPERATOR(pg_catalog.|) ((w OPERATOR(pg_catalog.&) %16$s) OPERATOR(pg_catalog.<<) %17$s);
  END IF;
  RETURN idgen.edition_next(%18$s, %19$s);
END
$$;
COMMENT ON FUNCTION idgen.%1$I(%20$s) IS %21$L;$f$,
      'edition_' || g.name || '_id',
      CASE g.family WHEN 1 THEN 'shard pg_catalog.int8' ELSE '' END,
      g.offset_mask, g.seq_bits, g.max_tick, g.word_epoch, g.unit,
      'idgen.' || g.name || '_epoch_ms', g.epoch_text,
      CASE g.family WHEN 1 THEN $c$
     AND (shard OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.>=) (o OPERATOR(pg_catalog.>>) 57)
     AND (shard OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.<=) ((o OPERATOR(pg_catalog.>>) 51) OPERATOR(pg_catalog.&) 63)$c$ ELSE '' END,
      g.tick_base, g.time_mask, g.time_shift,
      CASE g.family WHEN 1 THEN 'shard' ELSE '(o OPERATOR(pg_catalog.>>) 53)' END, g.node_shift,
      (1::pg_catalog.int8 OPERATOR(pg_catalog.<<) g.seq_bits) OPERATOR(pg_catalog.-) 1, g.seq_shift,
      g.family, CASE g.family WHEN 1 THEN 'shard' ELSE '-1' END,
      CASE g.family WHEN 1 THEN 'pg_catalog.int8' ELSE '' END,
      pg_catalog.format('internal: a new %s ID from its counter and offset (the careful way, idgen.edition_next, where one is needed)', g.name),
      'idgen_sql_state.' || g.name || '_offset', 'idgen_sql_state.' || g.name || '_counter',
      idgen.edition_lead_ticks(g.unit));
  END LOOP;
END
$fast$;

-- The generators: one expression each, which a query inlines, calling their family's fast way.
CREATE OR REPLACE FUNCTION idgen.instagram_id(shard bigint) RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN idgen.edition_instagram_id(shard);
CREATE OR REPLACE FUNCTION idgen.snowflake_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN idgen.edition_snowflake_id();
CREATE OR REPLACE FUNCTION idgen.sonyflake_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN idgen.edition_sonyflake_id();
CREATE OR REPLACE FUNCTION idgen.trace_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN idgen.edition_trace_id();
CREATE OR REPLACE FUNCTION idgen.js_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN idgen.edition_js_id();

-- 1.0's generators, state words and advisory-lock protocol, gone.
DROP FUNCTION idgen.edition_next_id(text, bigint);
DROP FUNCTION idgen.edition_next_word(text);
DROP FUNCTION idgen.edition_node_id();
DROP SEQUENCE idgen.edition_instagram_seq, idgen.edition_snowflake_seq, idgen.edition_sonyflake_seq,
  idgen.edition_trace_seq, idgen.edition_js_seq;

-- Stops every 64-bit generator of this database until the caller's transaction ends (the gate's
-- lock, and every offset negative: calls go the careful way and wait for the lock), and says the
-- highest word each family has reached. For the owner's operations only (moving the database,
-- changing its identity): the role that logged in must be a member of the database's owner as it
-- is at the call (ALTER DATABASE ... OWNER TO gives it to the new owner and takes it from the old
-- one), or of the edition's owner.
CREATE FUNCTION idgen.edition_fence(OUT family text, OUT word bigint) RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  l record;
  o pg_catalog.int8;
  off pg_catalog.int8;
BEGIN
  -- (a security definer sees its owner as current_user: the caller is who logged in)
  IF NOT pg_catalog.pg_has_role(SESSION_USER, CURRENT_USER, 'MEMBER')
     AND NOT pg_catalog.pg_has_role(SESSION_USER, (SELECT d.datdba FROM pg_catalog.pg_database d WHERE d.oid OPERATOR(pg_catalog.=) idgen.edition_database()), 'MEMBER') THEN
    RAISE EXCEPTION 'permission denied for function edition_fence'
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'Only the owner of the database and the owner of the edition stop its generators.';
  END IF;
  LOCK TABLE idgen_sql_state.gate IN SHARE UPDATE EXCLUSIVE MODE;
  PERFORM pg_catalog.setval('idgen_sql_state.identity_changed', CAST(CAST(pg_catalog.pg_current_xact_id() AS pg_catalog.text) AS pg_catalog.int8), true);
  FOR k IN 1 .. 5 LOOP
    l := idgen.edition_generator(k);
    o := pg_catalog.pg_sequence_last_value(l.offsets);
    off := CASE WHEN o OPERATOR(pg_catalog.<) 0 THEN OPERATOR(pg_catalog.~) o ELSE o END OPERATOR(pg_catalog.&) l.offset_mask;
    IF o OPERATOR(pg_catalog.>=) 0 THEN
      PERFORM pg_catalog.setval(l.offsets, OPERATOR(pg_catalog.~) off, true);
    END IF;
    family := l.name;
    word := COALESCE(pg_catalog.pg_sequence_last_value(l.counter), 0) OPERATOR(pg_catalog.+) off;
    RETURN NEXT;
  END LOOP;
END
$$;
COMMENT ON FUNCTION idgen.edition_fence() IS
'stops the 64-bit generators until this transaction ends and returns the highest word of each family (for moving the database, and changing its identity)';
-- (EXECUTE for every role: whether the caller may is checked at each call, against the owner then)

-- Gives this database its identity (its owner only: COMMENT ON DATABASE is hers): a node id no other
-- database of the server and no idgen here has, and the Instagram shards it makes IDs of (a range
-- of whole blocks of 128, '0-8191' or '1024-2047'; NULL: none). It stops the generators while it
-- works, and, where the node id changes, waits until the clock has passed every ID made under the
-- old one (up to max_wait), so that another database may take it at once.
CREATE FUNCTION idgen.edition_set_identity(node int, instagram_shards text DEFAULT NULL, max_wait interval DEFAULT '10 seconds')
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  m pg_catalog.text[];
  lo pg_catalog.int4;
  hi pg_catalog.int4;
  mine pg_catalog.oid := (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database());
  other pg_catalog.text;
  theirs record;
  was record;
  until_ms pg_catalog.int8;
  f record;
  l record;
  tag pg_catalog.text;
  comment pg_catalog.text := pg_catalog.shobj_description(mine, 'pg_database');
BEGIN
  IF node IS NULL OR node OPERATOR(pg_catalog.<) 0 OR node OPERATOR(pg_catalog.>) 1023 THEN
    RAISE EXCEPTION 'node id % is out of range for the SQL edition', node
      USING ERRCODE = 'invalid_parameter_value', HINT = 'A node id is from 0 to 1023 (JS-safe IDs take 0 to 31).';
  END IF;
  IF instagram_shards IS NOT NULL THEN
    m := pg_catalog.regexp_match(instagram_shards, '^\s*([0-9]{1,4})\s*-\s*([0-9]{1,4})\s*$');
    lo := CAST(m[1] AS pg_catalog.int4);
    hi := CAST(m[2] AS pg_catalog.int4);
    IF m IS NULL OR lo OPERATOR(pg_catalog.%) 128 OPERATOR(pg_catalog.<>) 0 OR (hi OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.%) 128 OPERATOR(pg_catalog.<>) 0
       OR lo OPERATOR(pg_catalog.>) hi OR hi OPERATOR(pg_catalog.>) 8191 THEN
      RAISE EXCEPTION 'invalid Instagram shards for the SQL edition: "%"', instagram_shards
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'Give one range of whole blocks of 128 shards, from a multiple of 128 to one less than a multiple: ''0-8191'', ''1024-2047''.';
    END IF;
  END IF;
  SELECT pg_catalog.string_agg(pg_catalog.quote_ident(i.datname), ', ' ORDER BY i.datname) INTO other
    FROM idgen.edition_identities() i WHERE i.datid OPERATOR(pg_catalog.<>) mine AND i.node OPERATOR(pg_catalog.=) edition_set_identity.node;
  IF other IS NOT NULL THEN
    RAISE EXCEPTION 'node id % is the node id of database %', node, other
      USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'Give each database of a server its own node id (SELECT node FROM idgen.edition_identities()).';
  END IF;
  SELECT pg_catalog.string_agg(pg_catalog.quote_ident(i.datname), ', ' ORDER BY i.datname) INTO other
    FROM idgen.edition_identities() i
   WHERE i.datid OPERATOR(pg_catalog.<>) mine AND i.lo_block IS NOT NULL
     AND (i.lo_block OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.<=) hi AND ((i.hi_block OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127) OPERATOR(pg_catalog.>=) lo;
  IF other IS NOT NULL THEN
    RAISE EXCEPTION 'Instagram shards % are shards of database %', instagram_shards, other
      USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'Give each database of a server Instagram shards of its own.';
  END IF;
  SELECT * INTO theirs FROM idgen.edition_idgen_here();
  IF theirs.here AND (theirs.node IS NULL OR theirs.node OPERATOR(pg_catalog.=) node) THEN
    RAISE EXCEPTION 'idgen is on this server and takes node id %', COALESCE(CAST(theirs.node AS pg_catalog.text), 'its Citus group id')
      USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'Give this database a node id that idgen.node_id is not.';
  END IF;
  IF theirs.here AND lo IS NOT NULL AND theirs.shards OPERATOR(pg_catalog.&&) pg_catalog.int4multirange(pg_catalog.int4range(lo, hi, '[]')) THEN
    RAISE EXCEPTION 'idgen is on this server and owns some of Instagram shards %', instagram_shards
      USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'Give this database shards that idgen.instagram_shards does not list.';
  END IF;
  -- The generators stop here until this transaction ends; then each checks the new identity.
  SELECT * INTO was FROM idgen.edition_identities() i WHERE i.datid OPERATOR(pg_catalog.=) mine;
  FOR f IN SELECT * FROM idgen.edition_fence() LOOP
    CONTINUE WHEN was.node IS NULL OR (was.node OPERATOR(pg_catalog.=) node AND f.family OPERATOR(pg_catalog.<>) 'instagram')
                  OR (f.family OPERATOR(pg_catalog.=) 'instagram' AND was.lo_block IS NOT DISTINCT FROM (lo OPERATOR(pg_catalog./) 128)
                      AND was.hi_block IS NOT DISTINCT FROM (hi OPERATOR(pg_catalog./) 128));
    l := idgen.edition_generator(CASE f.family WHEN 'instagram' THEN 1 WHEN 'snowflake' THEN 2 WHEN 'sonyflake' THEN 3 WHEN 'trace' THEN 4 ELSE 5 END);
    until_ms := pg_catalog.int8larger(COALESCE(until_ms, 0),
      CAST(l.word_epoch_ms OPERATOR(pg_catalog.+) (((f.word OPERATOR(pg_catalog.>>) l.seq_bits) OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) l.unit_ms) AS pg_catalog.int8));
  END LOOP;
  IF until_ms IS NOT NULL THEN
    IF idgen.edition_ts_ms(until_ms) OPERATOR(pg_catalog.>) (pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) max_wait) THEN
      RAISE EXCEPTION 'the IDs of this database run ahead of the clock by more than max_wait (%)', max_wait
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'Another database could take its node id or shards once they are given up: they are given up when the clock has passed every ID made under them.',
              HINT = pg_catalog.format('Call it again after %s, or with a larger max_wait.', idgen.edition_ts_ms(until_ms));
    END IF;
    WHILE pg_catalog.clock_timestamp() OPERATOR(pg_catalog.<) idgen.edition_ts_ms(until_ms) LOOP
      PERFORM pg_catalog.pg_sleep(0.01);
    END LOOP;
  END IF;
  tag := pg_catalog.concat('[idgen_sql node=', node, CASE WHEN lo IS NOT NULL THEN pg_catalog.format(' instagram=%s-%s', lo, hi) END, ']');
  comment := pg_catalog.btrim(pg_catalog.regexp_replace(COALESCE(comment, ''), '\s*\[idgen_sql node=[^]]*\]', '', 'g'));
  -- (after the rest, where it stays in the first 1024 characters, where a tag counts; else first)
  comment := pg_catalog.btrim(CASE WHEN pg_catalog.length(comment) OPERATOR(pg_catalog.<) 960 THEN pg_catalog.concat(comment, ' ', tag)
                                   ELSE pg_catalog.concat(tag, ' ', comment) END);
  EXECUTE pg_catalog.format('COMMENT ON DATABASE %I IS %L', pg_catalog.current_database(), comment);
  RETURN tag;
END
$$;
COMMENT ON FUNCTION idgen.edition_set_identity(int, text, interval) IS
'gives this database its identity for the SQL edition''s 64-bit generators: a node id and Instagram shards that no other database of the server and no idgen here take (as the database owner)';

-- An identity at install or update, where the database has none and the role that installs may
-- write it: the lowest node id free on this server (1.0's idgen.node_id first, where idgen is not
-- here to take it), and every Instagram shard where no other database and no idgen takes one, else
-- the first run of free blocks.
DO $identity$
DECLARE
  mine pg_catalog.oid := (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database());
  owner pg_catalog.oid := (SELECT d.datdba FROM pg_catalog.pg_database d WHERE d.oid OPERATOR(pg_catalog.=) mine);
  theirs record;
  taken pg_catalog.int4[];
  blocks pg_catalog.int4multirange := '{}';
  wanted pg_catalog.text := pg_catalog.btrim(COALESCE(pg_catalog.current_setting('idgen.node_id', true), ''));
  node pg_catalog.int4;
  lo pg_catalog.int4;
  hi pg_catalog.int4;
BEGIN
  IF EXISTS (SELECT FROM idgen.edition_identities() i WHERE i.datid OPERATOR(pg_catalog.=) mine) THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER AND r.rolsuper)
     AND NOT pg_catalog.pg_has_role(owner, 'USAGE') THEN
    RAISE NOTICE 'this database has no identity for the SQL edition''s 64-bit generators'
      USING DETAIL = 'Only the owner of the database can give it one; until then, they refuse.',
            HINT = 'As the database owner: SELECT idgen.edition_set_identity(<node id>, ''0-8191'') (docs/managed.md).';
    RETURN;
  END IF;
  SELECT * INTO theirs FROM idgen.edition_idgen_here();
  taken := ARRAY(SELECT i.node FROM idgen.edition_identities() i);
  IF theirs.here THEN
    taken := taken OPERATOR(pg_catalog.||) COALESCE(theirs.node, -1);
    blocks := theirs.shards;
  END IF;
  IF NOT theirs.here AND wanted OPERATOR(pg_catalog.~) '^[0-9]{1,4}$' AND CAST(wanted AS pg_catalog.int4) OPERATOR(pg_catalog.<=) 1023
     AND NOT CAST(wanted AS pg_catalog.int4) OPERATOR(pg_catalog.=) ANY (taken) THEN
    node := CAST(wanted AS pg_catalog.int4);
  ELSIF theirs.here AND theirs.node IS NULL THEN
    node := NULL;  -- (idgen takes Citus's group ids: none is known to be free)
  ELSE
    SELECT pg_catalog.min(n) INTO node FROM pg_catalog.generate_series(0, 1023) n WHERE NOT n OPERATOR(pg_catalog.=) ANY (taken);
  END IF;
  SELECT blocks OPERATOR(pg_catalog.+) COALESCE(pg_catalog.range_agg(pg_catalog.int4range(i.lo_block OPERATOR(pg_catalog.*) 128,
           (i.hi_block OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127, '[]')), '{}')
    INTO blocks FROM idgen.edition_identities() i WHERE i.lo_block IS NOT NULL;
  SELECT pg_catalog.min(b), NULL INTO lo, hi FROM pg_catalog.generate_series(0, 63) b
   WHERE NOT blocks OPERATOR(pg_catalog.&&) pg_catalog.int4range(b OPERATOR(pg_catalog.*) 128, (b OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127, '[]');
  IF lo IS NOT NULL THEN
    SELECT pg_catalog.max(b) INTO hi FROM pg_catalog.generate_series(lo, 63) b
     WHERE NOT EXISTS (SELECT FROM pg_catalog.generate_series(lo, b) x
                       WHERE blocks OPERATOR(pg_catalog.&&) pg_catalog.int4range(x OPERATOR(pg_catalog.*) 128, (x OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127, '[]'));
  END IF;
  IF node IS NULL THEN
    RAISE NOTICE 'this database has no identity for the SQL edition''s 64-bit generators'
      USING DETAIL = 'idgen is on this server and takes its node id from Citus.',
            HINT = 'As the database owner: SELECT idgen.edition_set_identity(<node id>, ...) with a node id no Citus node has (docs/managed.md).';
    RETURN;
  END IF;
  EXECUTE pg_catalog.format('COMMENT ON DATABASE %I IS %L', pg_catalog.current_database(),
    pg_catalog.btrim(pg_catalog.concat('[idgen_sql node=', node,
      CASE WHEN lo IS NOT NULL THEN pg_catalog.format(' instagram=%s-%s', lo OPERATOR(pg_catalog.*) 128, (hi OPERATOR(pg_catalog.*) 128) OPERATOR(pg_catalog.+) 127) END, '] ',
      COALESCE(pg_catalog.shobj_description(mine, 'pg_database'), ''))));
END
$identity$;

---------------------------------------------------------------------------------------------------
-- UUIDv7, ULID, typeid: one frame a call. The session's state word (Unix ms << 16 | fraction << 4 |
-- counter) is 1.0's; the random bits are those of one gen_random_uuid(), taken as its text.
---------------------------------------------------------------------------------------------------

-- This session's next state word, from the clock (or one past the last).
CREATE FUNCTION idgen.edition_uuidv7_next() RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  us pg_catalog.int8 := CAST(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
  clock pg_catalog.int8 := (((us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.<<) 12)
                            OPERATOR(pg_catalog.|) (((us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000)) OPERATOR(pg_catalog.<<) 4;
  last pg_catalog.int8 := CAST(COALESCE(NULLIF(pg_catalog.current_setting('idgen_sql.uuidv7_word', true), ''), '0') AS pg_catalog.int8);
BEGIN
  IF clock OPERATOR(pg_catalog.<=) last THEN
    clock := last OPERATOR(pg_catalog.+) 1;
  END IF;
  PERFORM pg_catalog.set_config('idgen_sql.uuidv7_word', CAST(clock AS pg_catalog.text), false);
  RETURN clock;
END
$$;
COMMENT ON FUNCTION idgen.edition_uuidv7_next() IS 'internal: the next UUIDv7/ULID state word of this session';

CREATE OR REPLACE FUNCTION idgen.uuidv7() RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  us pg_catalog.int8 := CAST(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
  word pg_catalog.int8 := (((us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.<<) 12)
                           OPERATOR(pg_catalog.|) (((us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000)) OPERATOR(pg_catalog.<<) 4;
  last pg_catalog.int8 := CAST(COALESCE(NULLIF(pg_catalog.current_setting('idgen_sql.uuidv7_word', true), ''), '0') AS pg_catalog.int8);
  r pg_catalog.text := CAST(pg_catalog.gen_random_uuid() AS pg_catalog.text);
BEGIN
  IF word OPERATOR(pg_catalog.<=) last THEN
    word := last OPERATOR(pg_catalog.+) 1;
  END IF;
  PERFORM pg_catalog.set_config('idgen_sql.uuidv7_word', CAST(word AS pg_catalog.text), false);
  -- ms (12 hex) 7 fraction (3) | variant and counter (2 hex), random (14 hex: r's, but its version
  -- and variant digits; r's variant digit gives the two random bits after the counter)
  RETURN CAST(pg_catalog.concat(
    pg_catalog.lpad(pg_catalog.to_hex(word OPERATOR(pg_catalog.>>) 16), 12, '0'), '7',
    pg_catalog.lpad(pg_catalog.to_hex((word OPERATOR(pg_catalog.>>) 4) OPERATOR(pg_catalog.&) 4095), 3, '0'),
    pg_catalog.to_hex(8 OPERATOR(pg_catalog.|) ((word OPERATOR(pg_catalog.&) 15) OPERATOR(pg_catalog.>>) 2)),
    pg_catalog.to_hex(((word OPERATOR(pg_catalog.&) 3) OPERATOR(pg_catalog.<<) 2) OPERATOR(pg_catalog.|) (pg_catalog.strpos('89ab', pg_catalog.substr(r, 20, 1)) OPERATOR(pg_catalog.-) 1)),
    pg_catalog.substr(r, 22, 2), pg_catalog.substr(r, 25, 12)) AS pg_catalog.uuid);
END
$$;

-- Calendar time, as idgen adds it: a month is a month (clock_timestamp() + shift), not 30 days.
CREATE OR REPLACE FUNCTION idgen.uuidv7(shift interval) RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  "at" pg_catalog.timestamptz;
BEGIN
  IF NOT pg_catalog.isfinite(shift) THEN
    RAISE EXCEPTION 'timestamp out of range for UUIDv7' USING ERRCODE = 'datetime_field_overflow',
      DETAIL = 'An infinite interval shifts the time past any a UUIDv7 holds.';
  END IF;
  "at" := pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) shift;
  RETURN idgen.edition_uuidv7_compose(idgen.edition_uuidv7_bits(idgen.edition_us("at", 'UUIDv7'), 'UUIDv7'), idgen.edition_random64());
EXCEPTION WHEN datetime_field_overflow THEN
  RAISE EXCEPTION 'timestamp out of range for UUIDv7' USING ERRCODE = 'datetime_field_overflow',
    DETAIL = 'A UUIDv7 holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
END
$$;

-- The 26 characters of Crockford's base32 of 128 bits (two signed 64-bit halves), in an alphabet.
CREATE FUNCTION idgen.edition_base32(hi bigint, lo bigint, digits text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 61) OPERATOR(pg_catalog.&) 7 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 56) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 51) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 46) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 41) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 36) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 31) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 26) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 21) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 11) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 6) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((hi OPERATOR(pg_catalog.>>) 1) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST(((hi OPERATOR(pg_catalog.&) 1) OPERATOR(pg_catalog.<<) 4) OPERATOR(pg_catalog.|) ((lo OPERATOR(pg_catalog.>>) 60) OPERATOR(pg_catalog.&) 15) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 55) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 50) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 45) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 35) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 30) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 25) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 20) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 15) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST((lo OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr(digits, CAST(lo OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1);
COMMENT ON FUNCTION idgen.edition_base32(bigint, bigint, text) IS 'internal: 128 bits as 26 digits of Crockford''s base32, in an alphabet';

-- The twelve base36 digits of a number below 36^12, and the 25 of a uuid (the number it writes
-- split at 36^12 and 36^24 by two numeric divisions, the rest in bigints).
CREATE FUNCTION idgen.edition_base36_12(x bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 131621703842267136) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 3656158440062976) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 101559956668416) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 2821109907456) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 78364164096) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 2176782336) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 60466176) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 1679616) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 46656) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 1296) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST((x OPERATOR(pg_catalog./) 36) OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1)
  OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST(x OPERATOR(pg_catalog.%) 36 AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1);
COMMENT ON FUNCTION idgen.edition_base36_12(bigint) IS 'internal: twelve base36 digits of a number below 36^12';

CREATE FUNCTION idgen.edition_base36(id uuid) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  h pg_catalog.text := pg_catalog.replace(CAST(id AS pg_catalog.text), '-', '');
  n pg_catalog.numeric := (CAST(CAST(CAST(pg_catalog.concat('x00000000', pg_catalog.substr(h, 1, 8)) AS pg_catalog.bit(64)) AS pg_catalog.int8) AS pg_catalog.numeric)
                            OPERATOR(pg_catalog.*) 79228162514264337593543950336::pg_catalog.numeric)
                          OPERATOR(pg_catalog.+) (CAST(CAST(CAST(pg_catalog.concat('x00', pg_catalog.substr(h, 9, 14)) AS pg_catalog.bit(64)) AS pg_catalog.int8) AS pg_catalog.numeric)
                            OPERATOR(pg_catalog.*) 1099511627776::pg_catalog.numeric)
                          OPERATOR(pg_catalog.+) CAST(CAST(CAST(pg_catalog.concat('x000000', pg_catalog.substr(h, 23, 10)) AS pg_catalog.bit(64)) AS pg_catalog.int8) AS pg_catalog.numeric);
  q pg_catalog.numeric := pg_catalog.div(n, 4738381338321616896::pg_catalog.numeric);
  -- (the helpers are inlined into this expression: their arguments are variables, evaluated once)
  b pg_catalog.int8 := CAST(pg_catalog.mod(q, 4738381338321616896::pg_catalog.numeric) AS pg_catalog.int8);
  c pg_catalog.int8 := CAST(pg_catalog.mod(n, 4738381338321616896::pg_catalog.numeric) AS pg_catalog.int8);
BEGIN
  RETURN pg_catalog.concat(
    pg_catalog.substr('0123456789abcdefghijklmnopqrstuvwxyz', CAST(pg_catalog.div(q, 4738381338321616896::pg_catalog.numeric) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1),
    idgen.edition_base36_12(b), idgen.edition_base36_12(c));
END
$$;
COMMENT ON FUNCTION idgen.edition_base36(uuid) IS 'internal: the 25 base36 digits of a uuid';

CREATE OR REPLACE FUNCTION idgen.base36_encode(value uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.edition_base36(value);

-- The 128 bits of ULIDs and base32 typeids: a uuid's two halves.
CREATE OR REPLACE FUNCTION idgen.ulid_from_uuid(id uuid) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  t pg_catalog.text := pg_catalog.replace(CAST(id AS pg_catalog.text), '-', '');
  hi pg_catalog.int8 := CAST(CAST(pg_catalog.concat('x', pg_catalog.substr(t, 1, 16)) AS pg_catalog.bit(64)) AS pg_catalog.int8);
  lo pg_catalog.int8 := CAST(CAST(pg_catalog.concat('x', pg_catalog.substr(t, 17, 16)) AS pg_catalog.bit(64)) AS pg_catalog.int8);
BEGIN
  RETURN idgen.edition_base32(hi, lo, '0123456789ABCDEFGHJKMNPQRSTVWXYZ');
END
$$;

CREATE OR REPLACE FUNCTION idgen.ulid_uuid() RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  r pg_catalog.text := CAST(pg_catalog.gen_random_uuid() AS pg_catalog.text);
BEGIN
  RETURN CAST(pg_catalog.concat(pg_catalog.lpad(pg_catalog.to_hex(idgen.edition_uuidv7_next()), 16, '0'),
                                pg_catalog.substr(r, 1, 8), pg_catalog.substr(r, 10, 4), pg_catalog.substr(r, 25, 4)) AS pg_catalog.uuid);
END
$$;

CREATE OR REPLACE FUNCTION idgen.ulid() RETURNS text
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  r pg_catalog.text := CAST(pg_catalog.gen_random_uuid() AS pg_catalog.text);
  hi pg_catalog.int8 := idgen.edition_uuidv7_next();
  lo pg_catalog.int8 := CAST(CAST(pg_catalog.concat('x', pg_catalog.substr(r, 1, 8), pg_catalog.substr(r, 10, 4), pg_catalog.substr(r, 25, 4)) AS pg_catalog.bit(64)) AS pg_catalog.int8);
BEGIN
  RETURN idgen.edition_base32(hi, lo, '0123456789ABCDEFGHJKMNPQRSTVWXYZ');
END
$$;

-- (1.0's helpers of the generators above, which no function uses any more)
DROP FUNCTION idgen.edition_uuidv7_word(bigint);

-- typeid: the empty prefix writes the spec's bare base32 body, and has no base36 form (as idgen).
CREATE FUNCTION idgen.edition_typeid_check(prefix text, encoding text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF encoding OPERATOR(pg_catalog.<>) ALL ('{base36,base32}'::pg_catalog.text[]) THEN
    RAISE EXCEPTION 'unknown typeid encoding "%"', encoding
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'Use ''base36'' (idgen''s form, 25 characters) or ''base32'' (the TypeID spec''s, 26 characters).';
  END IF;
  IF prefix OPERATOR(pg_catalog.=) '' THEN
    IF encoding OPERATOR(pg_catalog.=) 'base36' THEN
      RAISE EXCEPTION 'a typeid with the empty prefix has no base36 form'
        USING ERRCODE = 'invalid_parameter_value', DETAIL = 'Its text is the spec''s bare body of 26 base32 characters (encoding => ''base32'').';
    END IF;
  ELSIF NOT idgen.edition_valid_prefix(prefix) THEN
    RAISE EXCEPTION 'invalid typeid prefix "%"', prefix
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'A prefix is 1 to 63 lowercase ASCII letters (a-z) and underscores, starting and ending with a letter.';
  END IF;
  RETURN encoding OPERATOR(pg_catalog.=) 'base36';
END
$$;
COMMENT ON FUNCTION idgen.edition_typeid_check(text, text) IS 'internal: checks a typeid prefix and encoding; true for base36';

CREATE OR REPLACE FUNCTION idgen.typeid_from_uuid(prefix text, id uuid, encoding text DEFAULT 'base36') RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  t pg_catalog.text;
  hi pg_catalog.int8;
  lo pg_catalog.int8;
BEGIN
  IF idgen.edition_typeid_check(prefix, encoding) THEN
    RETURN pg_catalog.concat(prefix, '_', idgen.edition_base36(id));
  END IF;
  t := pg_catalog.replace(CAST(id AS pg_catalog.text), '-', '');
  hi := CAST(CAST(pg_catalog.concat('x', pg_catalog.substr(t, 1, 16)) AS pg_catalog.bit(64)) AS pg_catalog.int8);
  lo := CAST(CAST(pg_catalog.concat('x', pg_catalog.substr(t, 17, 16)) AS pg_catalog.bit(64)) AS pg_catalog.int8);
  RETURN pg_catalog.concat(prefix, CASE WHEN prefix OPERATOR(pg_catalog.<>) '' THEN '_' END,
                           idgen.edition_base32(hi, lo, '0123456789abcdefghjkmnpqrstvwxyz'));
END
$$;

CREATE OR REPLACE FUNCTION idgen.typeid(prefix text, ordered boolean DEFAULT true, encoding text DEFAULT 'base36') RETURNS text
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF idgen.edition_typeid_check(prefix, encoding) THEN
    RETURN pg_catalog.concat(prefix, '_', idgen.edition_base36(CASE WHEN ordered THEN idgen.uuidv7() ELSE pg_catalog.gen_random_uuid() END));
  END IF;
  RETURN idgen.typeid_from_uuid(prefix, CASE WHEN ordered THEN idgen.uuidv7() ELSE pg_catalog.gen_random_uuid() END, encoding);
END
$$;
DROP FUNCTION idgen.edition_typeid_encoding(text);

---------------------------------------------------------------------------------------------------
-- ObjectId: the counter moves to the state schema; the domain refuses bad text as idgen's type
-- does (22P02), through a check that the query inlines.
---------------------------------------------------------------------------------------------------

ALTER SEQUENCE idgen.edition_objectid_seq SET SCHEMA idgen_sql_state;
ALTER SEQUENCE idgen_sql_state.edition_objectid_seq RENAME TO objectid_counter;
-- (the owner's alone, as the other state sequences: ObjectIds reach it through a security definer)
REVOKE ALL ON SEQUENCE idgen_sql_state.objectid_counter FROM PUBLIC;

CREATE FUNCTION idgen.edition_not_objectid(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.edition_raise('22P02', pg_catalog.format('invalid input syntax for type objectid: "%s"', pg_catalog."left"(value, 100)), NULL,
  'An ObjectId of the SQL edition is 24 lowercase hexadecimal digits.');
COMMENT ON FUNCTION idgen.edition_not_objectid(text) IS 'internal: the error of a text that is no ObjectId (22P02, as idgen)';

CREATE FUNCTION idgen.edition_objectid_valid(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN value IS NULL OR value OPERATOR(pg_catalog.~) '^[0-9a-f]{24}$' THEN true
  ELSE CAST(idgen.edition_not_objectid(value) AS pg_catalog.bool) END;
COMMENT ON FUNCTION idgen.edition_objectid_valid(text) IS 'internal: true for the text of an ObjectId, else an error (22P02)';
ALTER DOMAIN idgen.objectid DROP CONSTRAINT objectid_format;
-- (NOT VALID: every value the old check let in, this one does too)
ALTER DOMAIN idgen.objectid ADD CONSTRAINT objectid_format CHECK (idgen.edition_objectid_valid(VALUE)) NOT VALID;

CREATE FUNCTION idgen.edition_objectid(seconds bigint) RETURNS idgen.objectid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  process pg_catalog.text := pg_catalog.current_setting('idgen_sql.objectid_process', true);
BEGIN
  IF seconds OPERATOR(pg_catalog.<) 0 OR seconds OPERATOR(pg_catalog.>) 4294967295 THEN
    RAISE EXCEPTION 'timestamp out of range for ObjectId'
      USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'An ObjectId holds times from 1970-01-01 00:00:00 UTC to 2106-02-07 06:28:15 UTC.';
  END IF;
  IF process IS NULL OR pg_catalog.length(process) OPERATOR(pg_catalog.<>) 10 OR process OPERATOR(pg_catalog.!~) '^[0-9a-f]{10}$' THEN
    process := pg_catalog.substr(pg_catalog.replace(CAST(pg_catalog.gen_random_uuid() AS pg_catalog.text), '-', ''), 1, 10);
    PERFORM pg_catalog.set_config('idgen_sql.objectid_process', process, false);
  END IF;
  RETURN pg_catalog.concat(pg_catalog.lpad(pg_catalog.to_hex(seconds), 8, '0'), process,
    pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.nextval('idgen_sql_state.objectid_counter'::pg_catalog.regclass) OPERATOR(pg_catalog.&) 16777215), 6, '0'));
END
$$;
COMMENT ON FUNCTION idgen.edition_objectid(bigint) IS 'internal: a new ObjectId of a second';

CREATE OR REPLACE FUNCTION idgen.objectid() RETURNS idgen.objectid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN idgen.edition_objectid(CAST(pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp())) AS pg_catalog.int8));
CREATE OR REPLACE FUNCTION idgen.objectid("at" timestamptz) RETURNS idgen.objectid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN idgen.edition_objectid(idgen.edition_floordiv(idgen.edition_us("at", 'ObjectId'), 1000000));
DROP FUNCTION idgen.edition_objectid_at(bigint);

---------------------------------------------------------------------------------------------------
-- Decoders: one expression each, which the calling query inlines (a function whose body is a
-- CASE is not strict: each returns NULL for NULL itself). Errors are raised on the branch taken.
---------------------------------------------------------------------------------------------------

-- The error of a uuid that is no UUIDv7 (22023, as idgen). (Typed as the decoder's result: a cast
-- from text to timestamptz is stable, and would keep the decoder, immutable, from being inlined.)
CREATE FUNCTION idgen.edition_not_uuidv7(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST(idgen.edition_raise('22023', pg_catalog.format('uuid "%s" is version %s, not a UUIDv7', id,
         pg_catalog.concat(pg_catalog.strpos('0123456789abcdef', pg_catalog.substr(CAST(id AS pg_catalog.text), 15, 1)) OPERATOR(pg_catalog.-) 1,
           CASE WHEN pg_catalog.strpos('89ab', pg_catalog.substr(CAST(id AS pg_catalog.text), 20, 1)) OPERATOR(pg_catalog.>) 0 THEN '' ELSE ' of a non-RFC variant' END)),
         NULL, 'Only a version 7 UUID of the RFC 9562 variant holds a time.') AS pg_catalog.timestamptz);
COMMENT ON FUNCTION idgen.edition_not_uuidv7(uuid) IS 'internal: the error of a uuid that is no UUIDv7';

-- The instant a UUIDv7 holds: its millisecond, and its 12-bit fraction as a microsecond rounded up
-- (so that uuidv7_min of the result is never above the UUID). Written out in full, from the bytes
-- of uuid_send (cheaper than its text): exact (milliseconds split into seconds and the rest, each
-- a product of whole numbers below 2^53), and inlined by the calling query.
CREATE OR REPLACE FUNCTION idgen.uuidv7_time(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN id IS NULL THEN NULL
  WHEN (pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.>>) 4) OPERATOR(pg_catalog.=) 7
       AND (pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6) OPERATOR(pg_catalog.=) 2
    THEN pg_catalog.timezone('UTC'::pg_catalog.text,
      ('1970-01-01 00:00:00'::pg_catalog."timestamp"
        OPERATOR(pg_catalog.+) (CAST(((((((CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 0) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 1) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 32))
      OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 2) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 24)) OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 3) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 16))
      OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 4) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 8)) OPERATOR(pg_catalog.|) CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 5) AS pg_catalog.int8)) OPERATOR(pg_catalog./) 1000 AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 second'::pg_catalog.interval))
        OPERATOR(pg_catalog.+) (CAST((((((((((CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 0) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 1) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 32))
      OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 2) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 24)) OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 3) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 16))
      OPERATOR(pg_catalog.|) (CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 4) AS pg_catalog.int8) OPERATOR(pg_catalog.<<) 8)) OPERATOR(pg_catalog.|) CAST(pg_catalog.get_byte(pg_catalog.uuid_send(id), 5) AS pg_catalog.int8)) OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 1000)
             OPERATOR(pg_catalog.+) ((((((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.&) 15) OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|) pg_catalog.get_byte(pg_catalog.uuid_send(id), 7)) OPERATOR(pg_catalog.*) 1000) OPERATOR(pg_catalog.+) 999) OPERATOR(pg_catalog./) 4096))
           AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 microsecond'::pg_catalog.interval))
  ELSE idgen.edition_not_uuidv7(id) END;

-- The instant of 48 bits of milliseconds (to year 10889), exactly: split into seconds and the rest.
CREATE FUNCTION idgen.edition_ts_ms48(ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.timezone('UTC'::pg_catalog.text,
  ('1970-01-01 00:00:00'::pg_catalog."timestamp"
     OPERATOR(pg_catalog.+) (CAST((ms OPERATOR(pg_catalog./) 1000) AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 second'::pg_catalog.interval))
     OPERATOR(pg_catalog.+) (CAST((ms OPERATOR(pg_catalog.%) 1000) AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 millisecond'::pg_catalog.interval));
COMMENT ON FUNCTION idgen.edition_ts_ms48(bigint) IS 'internal: the instant of 48 bits of milliseconds since 1970';

CREATE OR REPLACE FUNCTION idgen.ulid_time(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.edition_ts_ms48(CAST(CAST(('x' OPERATOR(pg_catalog.||) pg_catalog.translate(pg_catalog.substr(CAST(id AS pg_catalog.text), 1, 13), '-', '')) AS pg_catalog.bit(48)) AS pg_catalog.int8));

CREATE OR REPLACE FUNCTION idgen.objectid_time(id idgen.objectid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.edition_ts_ms(CAST(CAST(('x00000000' OPERATOR(pg_catalog.||) pg_catalog.substr(id, 1, 8)) AS pg_catalog.bit(64)) AS pg_catalog.int8) OPERATOR(pg_catalog.*) 1000);

-- The epoch a session decodes a family under: the published one unless its setting says another.
CREATE FUNCTION idgen.edition_decode_epoch(family text, published bigint) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE COALESCE(NULLIF(pg_catalog.current_setting((('idgen.' OPERATOR(pg_catalog.||) family) OPERATOR(pg_catalog.||) '_epoch_ms'), true), ''), CAST(published AS pg_catalog.text))
  WHEN CAST(published AS pg_catalog.text) THEN published ELSE idgen.edition_epoch(family) END;
COMMENT ON FUNCTION idgen.edition_decode_epoch(text, bigint) IS 'internal: the epoch of a family under this session''s settings';

-- An ID out of its family's range: 22023, as idgen (typed as the decoders' first field).
CREATE FUNCTION idgen.edition_invalid_id(id bigint, title text, bits int) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST(idgen.edition_raise('22023', pg_catalog.format('%s is not a valid %s ID', id, title),
  CASE WHEN id OPERATOR(pg_catalog.<) 0 THEN pg_catalog.format('%s IDs are positive bigints.', title) ELSE pg_catalog.format('%s IDs hold %s bits.', title, bits) END, NULL)
  AS pg_catalog.timestamptz);
COMMENT ON FUNCTION idgen.edition_invalid_id(bigint, text, int) IS 'internal: the error of an ID out of its family''s range';

-- TraceId's 25 bits of seconds wrap every 388 days: the latest second with them that is no later
-- than a day after the transaction's start.
CREATE FUNCTION idgen.edition_trace_ms(tick bigint, epoch bigint) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN epoch OPERATOR(pg_catalog.+) ((tick OPERATOR(pg_catalog.+) (pg_catalog.int8larger(
    idgen.edition_floordiv(idgen.edition_floordiv(CAST(pg_catalog.floor(EXTRACT(EPOCH FROM pg_catalog.now()) OPERATOR(pg_catalog.*) 1000) AS pg_catalog.int8)
                                                  OPERATOR(pg_catalog.+) 86400000 OPERATOR(pg_catalog.-) epoch, 1000) OPERATOR(pg_catalog.-) tick, 33554432), 0)
    OPERATOR(pg_catalog.*) 33554432)) OPERATOR(pg_catalog.*) 1000);
COMMENT ON FUNCTION idgen.edition_trace_ms(bigint, bigint) IS 'internal: the millisecond of a TraceId''s wrapped seconds';

-- The five decoders return a row type of their own: a function returning record (OUT parameters,
-- as in 1.0) is never inlined, and costs a frame per call; one returning a named row type is. The
-- rows have 1.0's fields; the functions are made anew (DROP FUNCTION), so what depends on them
-- (a view, an SQL-standard function) has to be dropped first and made again after the update.
DO $parse$
DECLARE
  dependents pg_catalog.text;
BEGIN
  SELECT pg_catalog.string_agg(pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid), ', ')
    INTO dependents
    FROM pg_catalog.pg_depend d
   WHERE d.refclassid OPERATOR(pg_catalog.=) CAST('pg_catalog.pg_proc' AS pg_catalog.regclass)
     AND d.refobjid OPERATOR(pg_catalog.=) ANY (ARRAY[
           CAST('idgen.instagram_parse(bigint)' AS pg_catalog.regprocedure), CAST('idgen.snowflake_parse(bigint)' AS pg_catalog.regprocedure),
           CAST('idgen.sonyflake_parse(bigint)' AS pg_catalog.regprocedure), CAST('idgen.trace_parse(bigint)' AS pg_catalog.regprocedure),
           CAST('idgen.js_parse(bigint)' AS pg_catalog.regprocedure)]::pg_catalog.oid[])
     AND d.deptype OPERATOR(pg_catalog.=) 'n';
  IF dependents IS NOT NULL THEN
    RAISE EXCEPTION 'the update of the SQL edition replaces the *_parse functions, and objects depend on them'
      USING ERRCODE = 'dependent_objects_still_exist',
            DETAIL = pg_catalog.format('Depending on them: %s. Nothing has changed.', dependents),
            HINT = 'Drop these objects, update, and make them again (their text is unchanged: the functions keep their names, arguments and fields).';
  END IF;
END
$parse$;
DROP FUNCTION idgen.instagram_parse(bigint), idgen.snowflake_parse(bigint), idgen.sonyflake_parse(bigint),
  idgen.trace_parse(bigint), idgen.js_parse(bigint), idgen.edition_parse(text, bigint);

CREATE TYPE idgen.instagram_parts AS (ts timestamptz, shard int, seq int);
CREATE TYPE idgen.snowflake_parts AS (ts timestamptz, node int, seq int);
CREATE TYPE idgen.sonyflake_parts AS (ts timestamptz, machine_id int, seq int);
CREATE TYPE idgen.trace_parts AS (ts timestamptz, node int, seq int);
CREATE TYPE idgen.js_parts AS (ts timestamptz, node int, seq int);
COMMENT ON TYPE idgen.instagram_parts IS 'the time, shard and sequence of an Instagram ID (idgen.instagram_parse)';
COMMENT ON TYPE idgen.snowflake_parts IS 'the time, node and sequence of a Snowflake ID (idgen.snowflake_parse)';
COMMENT ON TYPE idgen.sonyflake_parts IS 'the time, machine id and sequence of a Sonyflake ID (idgen.sonyflake_parse)';
COMMENT ON TYPE idgen.trace_parts IS 'the time, node and sequence of a TraceId ID (idgen.trace_parse)';
COMMENT ON TYPE idgen.js_parts IS 'the time, node and sequence of a JS-safe ID (idgen.js_parse)';

CREATE FUNCTION idgen.instagram_parse(id bigint) RETURNS idgen.instagram_parts
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN id IS NULL THEN NULL
  WHEN id OPERATOR(pg_catalog.<) 0 THEN CAST(ROW(idgen.edition_invalid_id(id, 'Instagram', 64), NULL, NULL) AS idgen.instagram_parts)
  ELSE CAST(ROW(idgen.edition_ts_ms(idgen.edition_decode_epoch('instagram', 1314220021721) OPERATOR(pg_catalog.+) (id OPERATOR(pg_catalog.>>) 23)),
                CAST((id OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 8191 AS pg_catalog.int4), CAST(id OPERATOR(pg_catalog.&) 1023 AS pg_catalog.int4)) AS idgen.instagram_parts) END;
COMMENT ON FUNCTION idgen.instagram_parse(bigint) IS
'the time, shard and sequence of an Instagram ID, under the epoch setting idgen.instagram_epoch_ms';

CREATE FUNCTION idgen.snowflake_parse(id bigint) RETURNS idgen.snowflake_parts
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN id IS NULL THEN NULL
  WHEN id OPERATOR(pg_catalog.<) 0 THEN CAST(ROW(idgen.edition_invalid_id(id, 'Snowflake', 63), NULL, NULL) AS idgen.snowflake_parts)
  ELSE CAST(ROW(idgen.edition_ts_ms(idgen.edition_decode_epoch('snowflake', 1288834974657) OPERATOR(pg_catalog.+) (id OPERATOR(pg_catalog.>>) 22)),
                CAST((id OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 1023 AS pg_catalog.int4), CAST(id OPERATOR(pg_catalog.&) 4095 AS pg_catalog.int4)) AS idgen.snowflake_parts) END;
COMMENT ON FUNCTION idgen.snowflake_parse(bigint) IS
'the time, node and sequence of a Snowflake ID, under the epoch setting idgen.snowflake_epoch_ms';

CREATE FUNCTION idgen.sonyflake_parse(id bigint) RETURNS idgen.sonyflake_parts
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN id IS NULL THEN NULL
  WHEN id OPERATOR(pg_catalog.<) 0 THEN CAST(ROW(idgen.edition_invalid_id(id, 'Sonyflake', 63), NULL, NULL) AS idgen.sonyflake_parts)
  ELSE CAST(ROW(idgen.edition_ts_ms(idgen.edition_decode_epoch('sonyflake', 1409529600000) OPERATOR(pg_catalog.+) ((id OPERATOR(pg_catalog.>>) 24) OPERATOR(pg_catalog.*) 10)),
                CAST(id OPERATOR(pg_catalog.&) 65535 AS pg_catalog.int4), CAST((id OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 255 AS pg_catalog.int4)) AS idgen.sonyflake_parts) END;
COMMENT ON FUNCTION idgen.sonyflake_parse(bigint) IS
'the time, machine id and sequence of a Sonyflake ID, under the epoch setting idgen.sonyflake_epoch_ms';

CREATE FUNCTION idgen.trace_parse(id bigint) RETURNS idgen.trace_parts
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN id IS NULL THEN NULL
  WHEN id OPERATOR(pg_catalog.<) 0 THEN CAST(ROW(idgen.edition_invalid_id(id, 'TraceId', 63), NULL, NULL) AS idgen.trace_parts)
  -- (the epoch given as a constant where the setting is the published one: the helper, which uses
  -- it twice, is then inlined too)
  ELSE CAST(ROW(idgen.edition_ts_ms(CASE COALESCE(NULLIF(pg_catalog.current_setting('idgen.trace_epoch_ms', true), ''), '0')
                  WHEN '0' THEN idgen.edition_trace_ms(id OPERATOR(pg_catalog.>>) 38, 0)
                  ELSE idgen.edition_trace_ms(id OPERATOR(pg_catalog.>>) 38, idgen.edition_epoch('trace')) END),
                CAST((id OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.&) 65535 AS pg_catalog.int4), CAST(id OPERATOR(pg_catalog.&) 4194303 AS pg_catalog.int4)) AS idgen.trace_parts) END;
COMMENT ON FUNCTION idgen.trace_parse(bigint) IS
'the time, node and sequence of a TraceId ID, under the epoch setting idgen.trace_epoch_ms';

CREATE FUNCTION idgen.js_parse(id bigint) RETURNS idgen.js_parts
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN id IS NULL THEN NULL
  WHEN id OPERATOR(pg_catalog.<) 0 OR id OPERATOR(pg_catalog.>) 9007199254740991 THEN CAST(ROW(idgen.edition_invalid_id(id, 'JS-safe', 53), NULL, NULL) AS idgen.js_parts)
  ELSE CAST(ROW(idgen.edition_ts_ms(idgen.edition_decode_epoch('js', 1767225600000) OPERATOR(pg_catalog.+) ((id OPERATOR(pg_catalog.>>) 15) OPERATOR(pg_catalog.*) 10)),
                CAST((id OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 31 AS pg_catalog.int4), CAST(id OPERATOR(pg_catalog.&) 1023 AS pg_catalog.int4)) AS idgen.js_parts) END;
COMMENT ON FUNCTION idgen.js_parse(bigint) IS
'the time, node and sequence of a JS-safe ID, under the epoch setting idgen.js_epoch_ms';

---------------------------------------------------------------------------------------------------
-- The rest of 1.0's one-expression functions: no SET clause. Their bodies bound every name when
-- they were created (SQL-standard bodies), so the setting protected nothing, and it kept a query
-- from inlining them and cost a frame on every call. Floor division is no longer strict: a CASE is
-- not, and a strict function whose body has one cannot be inlined (NULL still gives NULL).
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.edition_floordiv(a bigint, b bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN a OPERATOR(pg_catalog.>=) 0 THEN a OPERATOR(pg_catalog./) b
            ELSE (a OPERATOR(pg_catalog.-) (b OPERATOR(pg_catalog.-) 1)) OPERATOR(pg_catalog./) b END;

ALTER FUNCTION idgen.edition_hex64(bigint) RESET search_path;
ALTER FUNCTION idgen.edition_hi(uuid) RESET search_path;
ALTER FUNCTION idgen.edition_lo(uuid) RESET search_path;
ALTER FUNCTION idgen.edition_uuid(bigint, bigint) RESET search_path;
ALTER FUNCTION idgen.edition_alphabet(text) RESET search_path;
ALTER FUNCTION idgen.edition_width(text, int) RESET search_path;
ALTER FUNCTION idgen.base16_encode(bigint) RESET search_path;
ALTER FUNCTION idgen.base16_encode(uuid) RESET search_path;
ALTER FUNCTION idgen.base16_decode_bigint(text) RESET search_path;
ALTER FUNCTION idgen.base16_decode_uuid(text) RESET search_path;
ALTER FUNCTION idgen.base36_encode(bigint) RESET search_path;
ALTER FUNCTION idgen.base36_decode_bigint(text) RESET search_path;
ALTER FUNCTION idgen.base36_decode_uuid(text) RESET search_path;
ALTER FUNCTION idgen.base62_encode(bigint) RESET search_path;
ALTER FUNCTION idgen.base62_encode(uuid) RESET search_path;
ALTER FUNCTION idgen.base62_decode_bigint(text) RESET search_path;
ALTER FUNCTION idgen.base62_decode_uuid(text) RESET search_path;
ALTER FUNCTION idgen.base32hex_encode(uuid) RESET search_path;
ALTER FUNCTION idgen.edition_uuidv7_compose(bigint, bigint) RESET search_path;
ALTER FUNCTION idgen.edition_random64() RESET search_path;
ALTER FUNCTION idgen.uuidv7(timestamptz) RESET search_path;
ALTER FUNCTION idgen.uuidv7_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.ulid_time(text) RESET search_path;
ALTER FUNCTION idgen.ulid_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.edition_valid_prefix(text) RESET search_path;
ALTER FUNCTION idgen.typeid_parse(text) RESET search_path;
ALTER FUNCTION idgen.typeid_is_valid(text, text) RESET search_path;
ALTER FUNCTION idgen.typeid_min(text, timestamptz, text) RESET search_path;
ALTER FUNCTION idgen.edition_layout(text) RESET search_path;
ALTER FUNCTION idgen.edition_max_ticks(text) RESET search_path;
ALTER FUNCTION idgen.edition_compose(text, bigint, bigint, bigint) RESET search_path;
ALTER FUNCTION idgen.instagram_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.snowflake_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.sonyflake_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.trace_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.js_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.is_js_safe(bigint) RESET search_path;
ALTER FUNCTION idgen.objectid_min(timestamptz) RESET search_path;
ALTER FUNCTION idgen.objectid_to_bytea(idgen.objectid) RESET search_path;

---------------------------------------------------------------------------------------------------
-- Public UUIDs (edition 1.1): a UUIDv7 shown as a version-4-shaped façade that hides its time, and
-- back, bit for bit as idgen's idgen.public_uuid() and idgen.private_uuid() (uuidv47's mapping, or
-- idgen's opaque one). The edition has no place for a secret of the server's (no configuration
-- file of its own, and a table or a setting of a database or role is read by its owner and written
-- into dumps), so the key is an argument, given by the application with each call, as uuidv47's
-- libraries take it: the text of idgen.public_uuid_key (one or two keys, the first makes façades).
-- SipHash-2-4 in PL/pgSQL on bigints, whose additions modulo 2^64 are made of two 32-bit halves.
---------------------------------------------------------------------------------------------------

-- a + b modulo 2^64, on bigints of any sign (no overflow: two sums of 32-bit halves and a carry).
-- SQL-standard bodies without SET: the planner inlines them into the rounds below.
CREATE FUNCTION idgen.edition_add64(a bigint, b bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((((a OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295)
          OPERATOR(pg_catalog.+) ((b OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295)
          OPERATOR(pg_catalog.+) (((a OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (b OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.>>) 32))
         OPERATOR(pg_catalog.<<) 32)
  OPERATOR(pg_catalog.|) (((a OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (b OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.&) 4294967295);
COMMENT ON FUNCTION idgen.edition_add64(bigint, bigint) IS 'internal: the sum of two 64-bit words modulo 2^64';

-- x rotated left by b bits (1 to 63), as a 64-bit word.
CREATE FUNCTION idgen.edition_rotl64(x bigint, b int) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (x OPERATOR(pg_catalog.<<) b)
  OPERATOR(pg_catalog.|) ((x OPERATOR(pg_catalog.>>) (64 OPERATOR(pg_catalog.-) b)) OPERATOR(pg_catalog.&) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) b) OPERATOR(pg_catalog.-) 1));
COMMENT ON FUNCTION idgen.edition_rotl64(bigint, integer) IS 'internal: a 64-bit word rotated left';

-- SipHash-2-4 under the key (k0, k1) of a message of two blocks, b0 and b1 (the last block: the
-- message's last bytes, little-endian, and its length in the top byte). Both messages of public
-- UUIDs have two: uuidv47's mask (10 bytes) and the opaque mapping's rounds (8 bytes).
CREATE FUNCTION idgen.edition_siphash(k0 bigint, k1 bigint, b0 bigint, b1 bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v0 pg_catalog.int8 := k0 OPERATOR(pg_catalog.#) 8317987319222330741;  -- "somepseu"
  v1 pg_catalog.int8 := k1 OPERATOR(pg_catalog.#) 7237128888997146477;  -- "dorandom"
  v2 pg_catalog.int8 := k0 OPERATOR(pg_catalog.#) 7816392313619706465;  -- "lygenera"
  v3 pg_catalog.int8 := k1 OPERATOR(pg_catalog.#) 8387220255154660723;  -- "tedbytes"
  m pg_catalog.int8;
  rounds pg_catalog.int4;
BEGIN
  -- Two compression rounds a block, then 4 finalization rounds (v2 XOR 0xff first).
  FOREACH m IN ARRAY ARRAY[b0, b1, NULL] LOOP
    IF m IS NULL THEN
      v2 := v2 OPERATOR(pg_catalog.#) 255;
      rounds := 4;
    ELSE
      v3 := v3 OPERATOR(pg_catalog.#) m;
      rounds := 2;
    END IF;
    FOR r IN 1 .. rounds LOOP
      v0 := idgen.edition_add64(v0, v1);
      v1 := idgen.edition_rotl64(v1, 13) OPERATOR(pg_catalog.#) v0;
      v0 := idgen.edition_rotl64(v0, 32);
      v2 := idgen.edition_add64(v2, v3);
      v3 := idgen.edition_rotl64(v3, 16) OPERATOR(pg_catalog.#) v2;
      v0 := idgen.edition_add64(v0, v3);
      v3 := idgen.edition_rotl64(v3, 21) OPERATOR(pg_catalog.#) v0;
      v2 := idgen.edition_add64(v2, v1);
      v1 := idgen.edition_rotl64(v1, 17) OPERATOR(pg_catalog.#) v2;
      v2 := idgen.edition_rotl64(v2, 32);
    END LOOP;
    IF m IS NOT NULL THEN
      v0 := v0 OPERATOR(pg_catalog.#) m;
    END IF;
  END LOOP;
  RETURN v0 OPERATOR(pg_catalog.#) v1 OPERATOR(pg_catalog.#) v2 OPERATOR(pg_catalog.#) v3;
END
$$;
COMMENT ON FUNCTION idgen.edition_siphash(bigint, bigint, bigint, bigint) IS
'internal: SipHash-2-4 of a message of two 8-byte blocks, the last holding the length';

-- The keys of a key's text, as idgen.public_uuid_key reads it: one or two keys separated by white
-- space, each 32 hexadecimal digits (or 16, a colon and 16: the key's 16 bytes, k0 the first 8
-- read little-endian), "opaque:" or "uuidv47:" before it naming its mapping. 22023 otherwise,
-- never quoting the text.
CREATE FUNCTION idgen.edition_public_uuid_keys(key text, OUT k0 bigint[], OUT k1 bigint[], OUT opaque boolean[])
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  words pg_catalog.text[] := pg_catalog.regexp_split_to_array(pg_catalog.btrim(key, E' \t\n\r\x0b\f'), E'[ \t\n\r\x0b\f]+');
  word pg_catalog.text;
  n pg_catalog.int4 := 0;
  colon pg_catalog.int4;
  bytes pg_catalog.bytea;
  half pg_catalog.int8;
  problem pg_catalog.text;
BEGIN
  IF pg_catalog.btrim(key, E' \t\n\r\x0b\f') OPERATOR(pg_catalog.=) '' THEN
    problem := 'It holds no key.';
  END IF;
  k0 := '{}';
  k1 := '{}';
  opaque := '{}';
  IF problem IS NULL THEN
    FOREACH word IN ARRAY words LOOP
      n := n OPERATOR(pg_catalog.+) 1;
      IF n OPERATOR(pg_catalog.>) 2 THEN
        problem := 'It holds more than two keys: the key that makes façades, and at most one earlier key that still reads them.';
        n := 0;
        EXIT;
      END IF;
      opaque := pg_catalog.array_append(opaque, false);
      colon := pg_catalog.strpos(word, ':');
      IF colon OPERATOR(pg_catalog.>) 0 AND NOT (colon OPERATOR(pg_catalog.=) 17 AND pg_catalog.octet_length(word) OPERATOR(pg_catalog.=) 33) THEN
        IF pg_catalog.substr(word, 1, colon OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.=) 'opaque' THEN
          opaque[n] := true;
        ELSIF pg_catalog.substr(word, 1, colon OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.<>) 'uuidv47' THEN
          problem := CASE WHEN pg_catalog.substr(word, 1, colon OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.~) '^[0-9A-Fa-f]*$'
                          THEN 'A key is 16 bytes in hexadecimal: 32 digits, or 16, a colon and 16.'
                          ELSE 'A key may be preceded by "opaque:" or "uuidv47:" and nothing else.' END;
          EXIT;
        END IF;
        word := pg_catalog.substr(word, colon OPERATOR(pg_catalog.+) 1);
      END IF;
      IF pg_catalog.octet_length(word) OPERATOR(pg_catalog.=) 33 AND pg_catalog.substr(word, 17, 1) OPERATOR(pg_catalog.=) ':' THEN
        word := pg_catalog.overlay(word, '', 17, 1);
      ELSIF pg_catalog.octet_length(word) OPERATOR(pg_catalog.<>) 32 THEN
        problem := 'A key is 16 bytes in hexadecimal: 32 digits, or 16, a colon and 16.';
        EXIT;
      END IF;
      IF word OPERATOR(pg_catalog.!~) '^[0-9A-Fa-f]{32}$' THEN
        problem := 'A key is written in hexadecimal digits (0-9, a-f).';
        EXIT;
      END IF;
      bytes := pg_catalog.decode(word, 'hex');
      FOR h IN 0 .. 1 LOOP
        half := 0;
        FOR i IN REVERSE 7 .. 0 LOOP
          half := (half OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|) pg_catalog.get_byte(bytes, h OPERATOR(pg_catalog.*) 8 OPERATOR(pg_catalog.+) i);
        END LOOP;
        IF h OPERATOR(pg_catalog.=) 0 THEN k0 := pg_catalog.array_append(k0, half); ELSE k1 := pg_catalog.array_append(k1, half); END IF;
      END LOOP;
    END LOOP;
  END IF;
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION '%', CASE WHEN n OPERATOR(pg_catalog.=) 0 THEN 'the key''s text does not hold keys as idgen reads them'
                              ELSE pg_catalog.format('the %s key is not a key as idgen reads it', CASE n WHEN 1 THEN 'first' ELSE 'second' END) END
      USING ERRCODE = 'invalid_parameter_value', DETAIL = problem,
            HINT = 'Pass the text of idgen.public_uuid_key: one key a line (openssl rand -hex 16 writes one), the key that makes façades first.';
  END IF;
END
$$;
COMMENT ON FUNCTION idgen.edition_public_uuid_keys(text) IS 'internal: the keys of a public-UUID key''s text';

-- The façade of 128 bits under one key (encode), or the UUIDv7 of a façade (not encode): uuidv47's
-- mapping (the time XOR SipHash of the 10 bytes that it leaves alone) or the opaque one (a
-- Feistel network of 6 rounds on two halves of 61 bits). No check: the callers make them.
CREATE FUNCTION idgen.edition_public_uuid_map(id uuid, k0 bigint, k1 bigint, opaque boolean, encode boolean) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  hi pg_catalog.int8 := idgen.edition_hi(id);
  lo pg_catalog.int8 := idgen.edition_lo(id);
  version pg_catalog.int8 := CASE WHEN encode THEN 16384 ELSE 28672 END;  -- 4 or 7, in its place
  mask pg_catalog.int8;
  l pg_catalog.int8;
  r pg_catalog.int8;
  t pg_catalog.int8;
BEGIN
  IF NOT opaque THEN
    -- The message: b6 & 0x0f, b7, b8 & 0x3f, b9 .. b13 (little-endian), then b14, b15 and the length, 10.
    mask := idgen.edition_siphash(k0, k1,
      ((hi OPERATOR(pg_catalog.>>) 8) OPERATOR(pg_catalog.&) 15)
        OPERATOR(pg_catalog.|) ((hi OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 8)
        OPERATOR(pg_catalog.|) (((lo OPERATOR(pg_catalog.>>) 56) OPERATOR(pg_catalog.&) 63) OPERATOR(pg_catalog.<<) 16)
        OPERATOR(pg_catalog.|) (((lo OPERATOR(pg_catalog.>>) 48) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 24)
        OPERATOR(pg_catalog.|) (((lo OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 32)
        OPERATOR(pg_catalog.|) (((lo OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 40)
        OPERATOR(pg_catalog.|) (((lo OPERATOR(pg_catalog.>>) 24) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 48)
        OPERATOR(pg_catalog.|) (((lo OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 56),
      ((lo OPERATOR(pg_catalog.>>) 8) OPERATOR(pg_catalog.&) 255)
        OPERATOR(pg_catalog.|) ((lo OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 8)
        OPERATOR(pg_catalog.|) 720575940379279360) OPERATOR(pg_catalog.&) 281474976710655;
    RETURN idgen.edition_uuid(
      ((((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655) OPERATOR(pg_catalog.#) mask) OPERATOR(pg_catalog.<<) 16)
        OPERATOR(pg_catalog.|) version OPERATOR(pg_catalog.|) (hi OPERATOR(pg_catalog.&) 4095),
      (lo OPERATOR(pg_catalog.&) 4611686018427387903) OPERATOR(pg_catalog.|) (-9223372036854775808)::pg_catalog.int8);
  END IF;
  -- The halves: the 48-bit time, the 12 bits of rand_a and rand_b's top bit; rand_b's other 61.
  l := (((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655) OPERATOR(pg_catalog.<<) 13)
       OPERATOR(pg_catalog.|) ((hi OPERATOR(pg_catalog.&) 4095) OPERATOR(pg_catalog.<<) 1)
       OPERATOR(pg_catalog.|) ((lo OPERATOR(pg_catalog.>>) 61) OPERATOR(pg_catalog.&) 1);
  r := lo OPERATOR(pg_catalog.&) 2305843009213693951;
  IF encode THEN
    FOR i IN 0 .. 5 LOOP
      t := l OPERATOR(pg_catalog.#) (idgen.edition_siphash(k0, k1, (i::pg_catalog.int8 OPERATOR(pg_catalog.<<) 61) OPERATOR(pg_catalog.|) r,
                                                            576460752303423488) OPERATOR(pg_catalog.&) 2305843009213693951);
      l := r;
      r := t;
    END LOOP;
  ELSE
    FOR i IN REVERSE 5 .. 0 LOOP
      t := r OPERATOR(pg_catalog.#) (idgen.edition_siphash(k0, k1, (i::pg_catalog.int8 OPERATOR(pg_catalog.<<) 61) OPERATOR(pg_catalog.|) l,
                                                            576460752303423488) OPERATOR(pg_catalog.&) 2305843009213693951);
      r := l;
      l := t;
    END LOOP;
  END IF;
  RETURN idgen.edition_uuid(
    ((l OPERATOR(pg_catalog.>>) 13) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) version
      OPERATOR(pg_catalog.|) ((l OPERATOR(pg_catalog.>>) 1) OPERATOR(pg_catalog.&) 4095),
    (-9223372036854775808)::pg_catalog.int8 OPERATOR(pg_catalog.|) ((l OPERATOR(pg_catalog.&) 1) OPERATOR(pg_catalog.<<) 61) OPERATOR(pg_catalog.|) r);
END
$$;
COMMENT ON FUNCTION idgen.edition_public_uuid_map(uuid, bigint, bigint, boolean, boolean) IS
'internal: a public UUID''s mapping under one key, either way';

CREATE FUNCTION idgen.public_uuid(id uuid, key text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  keys record := idgen.edition_public_uuid_keys(key);
  hi pg_catalog.int8 := idgen.edition_hi(id);
  version pg_catalog.int4 := CAST((hi OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 15 AS pg_catalog.int4);
  rfc boolean := (idgen.edition_lo(id) OPERATOR(pg_catalog.>>) 62) OPERATOR(pg_catalog.=) -2;
BEGIN
  IF version OPERATOR(pg_catalog.<>) 7 OR NOT rfc THEN
    RAISE EXCEPTION 'uuid "%" is version %, not a UUIDv7', id, pg_catalog.concat(version, CASE WHEN rfc THEN '' ELSE ' of a non-RFC variant' END)
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'A façade hides the time of a UUIDv7 (version 7, RFC 9562 variant); a UUID of another version holds no time to hide.',
            HINT = CASE WHEN version OPERATOR(pg_catalog.=) 4 AND rfc THEN 'A UUID of version 4 may be a façade already: idgen.private_uuid() reads one.'
                        ELSE 'Show a random UUID as it is.' END;
  END IF;
  IF hi OPERATOR(pg_catalog.<) 0 OR hi OPERATOR(pg_catalog.>=) 288230376151711744 THEN
    RAISE EXCEPTION 'UUIDv7 "%" is too late for a façade', id
      USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'A façade carries the times of UUIDv7s before 2109-05-15 07:35:11.104 UTC: the bits above them tell a façade made under another key.',
            HINT = 'A UUIDv7 made by a clock that is right has a façade until then: this one was made by a clock far ahead, or written by hand. Give the row an id of idgen.uuidv7(), or show this one as it is.';
  END IF;
  RETURN idgen.edition_public_uuid_map(id, keys.k0[1], keys.k1[1], keys.opaque[1], true);
END
$$;
COMMENT ON FUNCTION idgen.public_uuid(uuid, text) IS
'the façade of a UUIDv7 under the first key of the key''s text (idgen.public_uuid_key''s form): a version-4-shaped UUID that hides its time; idgen.private_uuid reverses it';

CREATE FUNCTION idgen.private_uuid_candidates(facade uuid, key text) RETURNS uuid[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  keys record := idgen.edition_public_uuid_keys(key);
  hi pg_catalog.int8 := idgen.edition_hi(facade);
  version pg_catalog.int4 := CAST((hi OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 15 AS pg_catalog.int4);
  rfc boolean := (idgen.edition_lo(facade) OPERATOR(pg_catalog.>>) 62) OPERATOR(pg_catalog.=) -2;
  found pg_catalog.uuid[] := '{}';
  id pg_catalog.uuid;
BEGIN
  IF version OPERATOR(pg_catalog.<>) 4 OR NOT rfc THEN
    RAISE EXCEPTION 'uuid "%" is version %, not a façade', facade, pg_catalog.concat(version, CASE WHEN rfc THEN '' ELSE ' of a non-RFC variant' END)
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'A façade is a UUID of version 4 and the RFC 9562 variant, as idgen.public_uuid() writes it.',
            HINT = CASE WHEN version OPERATOR(pg_catalog.=) 7 THEN 'A UUIDv7 is the stored form itself: look it up as it is.'
                        ELSE 'Pass the UUID that idgen.public_uuid() or a uuidv47 library showed.' END;
  END IF;
  FOR i IN 1 .. pg_catalog.cardinality(keys.k0) LOOP
    id := idgen.edition_public_uuid_map(facade, keys.k0[i], keys.k1[i], keys.opaque[i], false);
    -- A time a façade carries: below 2^42 ms, the top 6 bits of the 48 zero.
    IF idgen.edition_hi(id) OPERATOR(pg_catalog.>=) 0 AND idgen.edition_hi(id) OPERATOR(pg_catalog.<) 288230376151711744 THEN
      found := pg_catalog.array_append(found, id);
    END IF;
  END LOOP;
  IF pg_catalog.cardinality(found) OPERATOR(pg_catalog.=) 0 THEN
    RAISE EXCEPTION 'uuid "%" is not a façade made under %', facade,
      CASE WHEN pg_catalog.cardinality(keys.k0) OPERATOR(pg_catalog.=) 1 THEN 'the key of this server' ELSE 'either key of this server' END
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.concat(CASE WHEN pg_catalog.cardinality(keys.k0) OPERATOR(pg_catalog.=) 1 THEN 'Under idgen.public_uuid_key it'
                                            ELSE 'Under each key of idgen.public_uuid_key it' END,
              ' decodes to a time after 2109-05-15, which no façade carries: it was made under another key, or altered, or it is not a façade (',
              CASE WHEN pg_catalog.cardinality(keys.k0) OPERATOR(pg_catalog.=) 1 THEN 'a random UUIDv4 is refused 63 times in 64'
                   ELSE 'a random UUIDv4 is refused about 31 times in 32: 63 in 64 under each key' END, ').'),
            HINT = 'A façade made under a key that has been removed can no longer be read: while façades made under a replaced key may come back, keep that key as the second one of idgen.public_uuid_key.';
  END IF;
  RETURN found;
END
$$;
COMMENT ON FUNCTION idgen.private_uuid_candidates(uuid, text) IS
'every UUIDv7 a façade reads as under the keys of the key''s text, the first key''s first: for lookups while keys rotate (WHERE id = ANY (...))';

CREATE FUNCTION idgen.private_uuid(facade uuid, key text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN (idgen.private_uuid_candidates(facade, key))[1];
COMMENT ON FUNCTION idgen.private_uuid(uuid, text) IS
'the UUIDv7 whose façade this is, under the first key of the key''s text that reads it (the inverse of idgen.public_uuid)';

-- A typeid with its body shown or read: the prefix and the encoding (by the body's length) kept.
-- (idgen.private_typeid compares the prefix first: a reading is never quoted in an error.)
CREATE FUNCTION idgen.edition_public_typeid(value text, key text, show boolean) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  parsed record := idgen.edition_typeid_split(value, true);
  body pg_catalog.uuid := CASE WHEN show THEN idgen.public_uuid(parsed.id, key) ELSE idgen.private_uuid(parsed.id, key) END;
  digits pg_catalog.text;
BEGIN
  IF (pg_catalog.octet_length(value) OPERATOR(pg_catalog.-) pg_catalog.octet_length(parsed.prefix) OPERATOR(pg_catalog.-)
       (CASE WHEN parsed.prefix OPERATOR(pg_catalog.=) '' THEN 0 ELSE 1 END)) OPERATOR(pg_catalog.=) 25 THEN
    digits := idgen.base36_encode(body);
  ELSE
    digits := idgen.edition_digits(idgen.edition_u2n(body), idgen.edition_alphabet('base32'), 26);
  END IF;
  RETURN CASE WHEN parsed.prefix OPERATOR(pg_catalog.=) '' THEN digits ELSE pg_catalog.concat(parsed.prefix, '_', digits) END;
END
$$;
COMMENT ON FUNCTION idgen.edition_public_typeid(text, text, boolean) IS 'internal: a typeid with its body shown or read';

CREATE FUNCTION idgen.public_typeid(value text, key text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_public_typeid(value, key, true);
COMMENT ON FUNCTION idgen.public_typeid(text, text) IS
'a typeid whose body is a UUIDv7, with the body''s façade under the first key of the key''s text: the prefix and the encoding kept';

-- The prefix the caller expects is compared with the façade's before its body is read, so that no
-- check of the prefix after it can refuse the reading (the time of a row) and quote it.
CREATE FUNCTION idgen.private_typeid(value text, prefix text, key text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF prefix OPERATOR(pg_catalog.<>) '' AND NOT idgen.edition_valid_prefix(prefix) THEN
    RAISE EXCEPTION 'invalid typeid prefix "%"', prefix
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'A prefix is 1 to 63 lowercase ASCII letters (a-z) and underscores, starting and ending with a letter.';
  END IF;
  PERFORM idgen.typeid_uuid(value, prefix);  -- 22P02 for another prefix, quoting the façade
  RETURN idgen.edition_public_typeid(value, key, false);
END
$$;
COMMENT ON FUNCTION idgen.private_typeid(text, text, text) IS
'the typeid whose façade this is, which must have the prefix given (the inverse of idgen.public_typeid(text, text))';
