-- idgen_sql: the SQL edition of idgen, for servers that load no C library (managed PostgreSQL).
-- SQL and PL/pgSQL only, in schema idgen, with idgen's names and signatures for what it has; for
-- the same input every encoder, decoder and bound returns what idgen returns (test/t/sql_edition.pl
-- compares them). edition/build.sh wraps this body three ways: an extension script, a plain script
-- and a pg_tle installer. Everything it names is pg_catalog- or idgen-qualified, and every function
-- runs with search_path = pg_catalog, pg_temp: nothing a database owner plants is chosen.

DO $prologue$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name) THEN
    RAISE EXCEPTION 'idgen is installed in this database'
      USING ERRCODE = 'duplicate_object',
            DETAIL = 'The SQL edition (idgen_sql) and idgen use the same schema and names; one database has one of them.',
            HINT = 'idgen already has every function of the SQL edition. To move a database from idgen to the edition, see docs/managed.md.';
  END IF;
  IF EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen'::pg_catalog.name) THEN
    RAISE EXCEPTION 'schema "idgen" already exists'
      USING ERRCODE = 'duplicate_schema',
            DETAIL = 'The SQL edition makes its own schema when it is installed, and never uses one made before.',
            HINT = 'Drop or rename schema idgen, then install the edition. A dump of a database with the edition or idgen creates the schema: restore it where the edition was installed first (docs/managed.md).';
  END IF;
END
$prologue$;

CREATE SCHEMA idgen;
REVOKE ALL ON SCHEMA idgen FROM PUBLIC;
GRANT USAGE ON SCHEMA idgen TO PUBLIC;
COMMENT ON SCHEMA idgen IS 'idgen (SQL edition): unique IDs generated inside PostgreSQL';

---------------------------------------------------------------------------------------------------
-- Internal helpers (edition_*): instants as microseconds, 128-bit numbers, digits.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.edition_version() RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN '1.0';
COMMENT ON FUNCTION idgen.edition_version() IS 'the version of the SQL edition of idgen installed here (idgen itself has no such function)';

-- Microseconds since 1970 of an instant (exact: extract returns numeric); 22008 for infinity.
CREATE FUNCTION idgen.edition_us("at" timestamptz, what text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT pg_catalog.isfinite("at") THEN
    RAISE EXCEPTION 'timestamp out of range for %', what USING ERRCODE = 'datetime_field_overflow';
  END IF;
  RETURN CAST(pg_catalog."numeric_mul"(EXTRACT(EPOCH FROM "at"), 1000000::pg_catalog.numeric) AS pg_catalog.int8);
END
$$;
COMMENT ON FUNCTION idgen.edition_us(timestamptz, text) IS 'internal: microseconds since 1970 of an instant';

-- The instant of microseconds since 1970 (exact: two products of whole numbers below 2^53).
CREATE FUNCTION idgen.edition_ts(us bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
  OPERATOR(pg_catalog.+) (CAST(us OPERATOR(pg_catalog./) 1000000 AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 second'::pg_catalog.interval)
  OPERATOR(pg_catalog.+) (CAST(us OPERATOR(pg_catalog.%) 1000000 AS pg_catalog.float8) OPERATOR(pg_catalog.*) '1 microsecond'::pg_catalog.interval);
COMMENT ON FUNCTION idgen.edition_ts(bigint) IS 'internal: the instant of microseconds since 1970';

CREATE FUNCTION idgen.edition_floordiv(a bigint, b bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN a OPERATOR(pg_catalog.>=) 0 THEN a OPERATOR(pg_catalog./) b
            ELSE (a OPERATOR(pg_catalog.-) (b OPERATOR(pg_catalog.-) 1)) OPERATOR(pg_catalog./) b END;
COMMENT ON FUNCTION idgen.edition_floordiv(bigint, bigint) IS 'internal: floor division by a positive divisor';

-- A 64-bit word (bigint, any sign) as 16 lowercase hexadecimal digits.
CREATE FUNCTION idgen.edition_hex64(w bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN pg_catalog.lpad(pg_catalog.to_hex(w), 16, '0');
COMMENT ON FUNCTION idgen.edition_hex64(bigint) IS 'internal: a 64-bit word as 16 hexadecimal digits';

-- The two 64-bit halves of a uuid (as signed words).
CREATE FUNCTION idgen.edition_hi(u uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CAST(CAST(pg_catalog.concat('x', pg_catalog.substr(pg_catalog.replace(CAST(u AS pg_catalog.text), '-', ''), 1, 16)) AS pg_catalog.bit(64)) AS pg_catalog.int8);
CREATE FUNCTION idgen.edition_lo(u uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CAST(CAST(pg_catalog.concat('x', pg_catalog.substr(pg_catalog.replace(CAST(u AS pg_catalog.text), '-', ''), 17, 16)) AS pg_catalog.bit(64)) AS pg_catalog.int8);
COMMENT ON FUNCTION idgen.edition_hi(uuid) IS 'internal: the first 64 bits of a uuid';
COMMENT ON FUNCTION idgen.edition_lo(uuid) IS 'internal: the last 64 bits of a uuid';

CREATE FUNCTION idgen.edition_uuid(hi bigint, lo bigint) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CAST(pg_catalog.concat(idgen.edition_hex64(hi), idgen.edition_hex64(lo)) AS pg_catalog.uuid);
COMMENT ON FUNCTION idgen.edition_uuid(bigint, bigint) IS 'internal: the uuid of two 64-bit halves';

-- A uuid as the unsigned 128-bit number it writes, and back.
CREATE FUNCTION idgen.edition_u2n(u uuid) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  hi pg_catalog.numeric := idgen.edition_hi(u);
  lo pg_catalog.numeric := idgen.edition_lo(u);
BEGIN
  IF hi OPERATOR(pg_catalog.<) 0 THEN hi := hi OPERATOR(pg_catalog.+) 18446744073709551616::pg_catalog.numeric; END IF;
  IF lo OPERATOR(pg_catalog.<) 0 THEN lo := lo OPERATOR(pg_catalog.+) 18446744073709551616::pg_catalog.numeric; END IF;
  RETURN hi OPERATOR(pg_catalog.*) 18446744073709551616::pg_catalog.numeric OPERATOR(pg_catalog.+) lo;
END
$$;
COMMENT ON FUNCTION idgen.edition_u2n(uuid) IS 'internal: a uuid as an unsigned 128-bit number';

CREATE FUNCTION idgen.edition_n2u(n numeric) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  hi pg_catalog.numeric := pg_catalog.div(n, 18446744073709551616::pg_catalog.numeric);
  lo pg_catalog.numeric := pg_catalog.mod(n, 18446744073709551616::pg_catalog.numeric);
BEGIN
  IF hi OPERATOR(pg_catalog.>=) 9223372036854775808::pg_catalog.numeric THEN hi := hi OPERATOR(pg_catalog.-) 18446744073709551616::pg_catalog.numeric; END IF;
  IF lo OPERATOR(pg_catalog.>=) 9223372036854775808::pg_catalog.numeric THEN lo := lo OPERATOR(pg_catalog.-) 18446744073709551616::pg_catalog.numeric; END IF;
  RETURN idgen.edition_uuid(CAST(hi AS pg_catalog.int8), CAST(lo AS pg_catalog.int8));
END
$$;
COMMENT ON FUNCTION idgen.edition_n2u(numeric) IS 'internal: the uuid of an unsigned 128-bit number';

-- Digits of a non-negative number, zero-padded to width (or shortest with width 0).
CREATE FUNCTION idgen.edition_digits(n numeric, digits text, width int) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  radix pg_catalog.numeric := pg_catalog.length(digits);
  out pg_catalog.text := '';
  d pg_catalog.int4;
BEGIN
  LOOP
    d := CAST(pg_catalog.mod(n, radix) AS pg_catalog.int4);
    out := pg_catalog.concat(pg_catalog.substr(digits, d OPERATOR(pg_catalog.+) 1, 1), out);
    n := pg_catalog.div(n, radix);
    EXIT WHEN (width OPERATOR(pg_catalog.=) 0 AND n OPERATOR(pg_catalog.=) 0)
           OR (width OPERATOR(pg_catalog.>) 0 AND pg_catalog.length(out) OPERATOR(pg_catalog.>=) width);
  END LOOP;
  RETURN out;
END
$$;
COMMENT ON FUNCTION idgen.edition_digits(numeric, text, int) IS 'internal: a number written in an alphabet';

-- The number that text writes in an alphabet (digits), whose characters it has checked; NULL when
-- a character is no digit.
CREATE FUNCTION idgen.edition_value(t text, digits text) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  radix pg_catalog.numeric := pg_catalog.length(digits);
  n pg_catalog.numeric := 0;
  d pg_catalog.int4;
  i pg_catalog.int4;
BEGIN
  FOR i IN 1 .. pg_catalog.length(t) LOOP
    d := pg_catalog.strpos(digits, pg_catalog.substr(t, i, 1));
    IF d OPERATOR(pg_catalog.=) 0 THEN RETURN NULL; END IF;
    n := n OPERATOR(pg_catalog.*) radix OPERATOR(pg_catalog.+) (d OPERATOR(pg_catalog.-) 1);
  END LOOP;
  RETURN n;
END
$$;
COMMENT ON FUNCTION idgen.edition_value(text, text) IS 'internal: the number text writes in an alphabet';

-- The alphabets, and how many digits a uuid and a bigint take in each.
CREATE FUNCTION idgen.edition_alphabet(base text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE base
  WHEN 'base16' THEN '0123456789abcdef'
  WHEN 'base32' THEN '0123456789abcdefghjkmnpqrstvwxyz'
  WHEN 'base36' THEN '0123456789abcdefghijklmnopqrstuvwxyz'
  WHEN 'base62' THEN '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' END;
COMMENT ON FUNCTION idgen.edition_alphabet(text) IS 'internal: the digits of a base';

CREATE FUNCTION idgen.edition_width(base text, nbytes int) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE base
  WHEN 'base16' THEN nbytes OPERATOR(pg_catalog.*) 2
  WHEN 'base32' THEN CASE nbytes WHEN 16 THEN 26 ELSE 13 END
  WHEN 'base36' THEN CASE nbytes WHEN 16 THEN 25 ELSE 13 END
  WHEN 'base62' THEN CASE nbytes WHEN 16 THEN 22 ELSE 11 END END;
COMMENT ON FUNCTION idgen.edition_width(text, int) IS 'internal: the digits of nbytes bytes in a base';

-- Decodes text of a base into a number of nbytes bytes, with idgen's errors: 22P02 for text that
-- is no number of the base, 22003 for one too large.
CREATE FUNCTION idgen.edition_decode(t text, base text, nbytes int, target text) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  width pg_catalog.int4 := idgen.edition_width(base, nbytes);
  folded pg_catalog.text := t;
  n pg_catalog.numeric;
BEGIN
  IF t OPERATOR(pg_catalog.=) '' THEN
    RAISE EXCEPTION 'invalid % text for %: "%"', base, target, t
      USING ERRCODE = 'invalid_text_representation', DETAIL = 'The text is empty.';
  END IF;
  IF pg_catalog.octet_length(t) OPERATOR(pg_catalog.>) width THEN
    RAISE EXCEPTION 'invalid % text for %: "%"', base, target, pg_catalog."left"(t, 100)
      USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('It has %s digits; a %s has at most %s.', pg_catalog.octet_length(t), target, width);
  END IF;
  IF base OPERATOR(pg_catalog.=) ANY ('{base16,base36}'::pg_catalog.text[]) THEN
    folded := pg_catalog.translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');
  END IF;
  n := idgen.edition_value(folded, idgen.edition_alphabet(base));
  IF n IS NULL THEN
    RAISE EXCEPTION 'invalid % text for %: "%"', base, target, t
      USING ERRCODE = 'invalid_text_representation', DETAIL = pg_catalog.format('It has a character that is not a %s digit.', base);
  END IF;
  IF n OPERATOR(pg_catalog.>=) pg_catalog.power(2::pg_catalog.numeric, (8 OPERATOR(pg_catalog.*) nbytes)::pg_catalog.numeric) THEN
    RAISE EXCEPTION '% value "%" is out of range for %', base, t, target
      USING ERRCODE = 'numeric_value_out_of_range', DETAIL = pg_catalog.format('A %s holds %s bits.', target, 8 OPERATOR(pg_catalog.*) nbytes);
  END IF;
  RETURN n;
END
$$;
COMMENT ON FUNCTION idgen.edition_decode(text, text, int, text) IS 'internal: the number of a text of a base, with idgen''s errors';

---------------------------------------------------------------------------------------------------
-- Encodings: base16, base36, base62 of bigints (shortest) and uuids (fixed width: 32, 25, 22),
-- base32hex of uuids (26).
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.edition_encode_bigint(value bigint, base text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  digits pg_catalog.text := idgen.edition_alphabet(base);
  radix pg_catalog.int8 := pg_catalog.length(digits);
  out pg_catalog.text := '';
BEGIN
  IF value OPERATOR(pg_catalog.<) 0 THEN
    RAISE EXCEPTION 'cannot encode negative bigint %', value
      USING ERRCODE = 'numeric_value_out_of_range',
            DETAIL = pg_catalog.format('Only bigints from 0 to 9223372036854775807 have a %s form.', base);
  END IF;
  LOOP
    out := pg_catalog.concat(pg_catalog.substr(digits, CAST(value OPERATOR(pg_catalog.%) radix AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1), out);
    value := value OPERATOR(pg_catalog./) radix;
    EXIT WHEN value OPERATOR(pg_catalog.=) 0;
  END LOOP;
  RETURN out;
END
$$;
COMMENT ON FUNCTION idgen.edition_encode_bigint(bigint, text) IS 'internal: the shortest text of a non-negative bigint in a base';

CREATE FUNCTION idgen.edition_decode_bigint(value text, base text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n pg_catalog.numeric := idgen.edition_decode(value, base, 8, 'bigint');
BEGIN
  IF n OPERATOR(pg_catalog.>) 9223372036854775807::pg_catalog.numeric THEN
    RAISE EXCEPTION '% value "%" is out of range for bigint', base, value
      USING ERRCODE = 'numeric_value_out_of_range', DETAIL = 'A bigint holds at most 9223372036854775807.';
  END IF;
  RETURN CAST(n AS pg_catalog.int8);
END
$$;
COMMENT ON FUNCTION idgen.edition_decode_bigint(text, text) IS 'internal: the bigint of a text in a base';

CREATE FUNCTION idgen.base16_encode(value bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_encode_bigint(value, 'base16');
COMMENT ON FUNCTION idgen.base16_encode(bigint) IS 'base16 text of a non-negative bigint, shortest form (0-9a-f, either case on input)';

CREATE FUNCTION idgen.base16_encode(value uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN pg_catalog.replace(CAST(value AS pg_catalog.text), '-', '');
COMMENT ON FUNCTION idgen.base16_encode(uuid) IS 'base16 text of a uuid, 32 characters, zero-padded so that it sorts like the uuid';

CREATE FUNCTION idgen.base16_decode_bigint(value text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_decode_bigint(value, 'base16');
COMMENT ON FUNCTION idgen.base16_decode_bigint(text) IS 'the bigint of base16 text';

CREATE FUNCTION idgen.base16_decode_uuid(value text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_n2u(idgen.edition_decode(value, 'base16', 16, 'uuid'));
COMMENT ON FUNCTION idgen.base16_decode_uuid(text) IS 'the uuid of base16 text (up to 32 characters)';

CREATE FUNCTION idgen.base36_encode(value bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_encode_bigint(value, 'base36');
COMMENT ON FUNCTION idgen.base36_encode(bigint) IS 'base36 text of a non-negative bigint, shortest form (0-9a-z, either case on input)';

CREATE FUNCTION idgen.base36_encode(value uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_digits(idgen.edition_u2n(value), idgen.edition_alphabet('base36'), 25);
COMMENT ON FUNCTION idgen.base36_encode(uuid) IS 'base36 text of a uuid, 25 characters, zero-padded so that it sorts like the uuid';

CREATE FUNCTION idgen.base36_decode_bigint(value text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_decode_bigint(value, 'base36');
COMMENT ON FUNCTION idgen.base36_decode_bigint(text) IS 'the bigint of base36 text';

CREATE FUNCTION idgen.base36_decode_uuid(value text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_n2u(idgen.edition_decode(value, 'base36', 16, 'uuid'));
COMMENT ON FUNCTION idgen.base36_decode_uuid(text) IS 'the uuid of base36 text (up to 25 characters)';

CREATE FUNCTION idgen.base62_encode(value bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_encode_bigint(value, 'base62');
COMMENT ON FUNCTION idgen.base62_encode(bigint) IS 'base62 text of a non-negative bigint, shortest form (0-9A-Za-z, case-sensitive)';

CREATE FUNCTION idgen.base62_encode(value uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_digits(idgen.edition_u2n(value), idgen.edition_alphabet('base62'), 22);
COMMENT ON FUNCTION idgen.base62_encode(uuid) IS 'base62 text of a uuid, 22 characters, zero-padded so that it sorts like the uuid';

CREATE FUNCTION idgen.base62_decode_bigint(value text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_decode_bigint(value, 'base62');
COMMENT ON FUNCTION idgen.base62_decode_bigint(text) IS 'the bigint of base62 text';

CREATE FUNCTION idgen.base62_decode_uuid(value text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_n2u(idgen.edition_decode(value, 'base62', 16, 'uuid'));
COMMENT ON FUNCTION idgen.base62_decode_uuid(text) IS 'the uuid of base62 text (up to 22 characters)';

-- base32hex: RFC 4648's extended-hex alphabet, 5 bits a digit from the first bit, the last digit
-- padded with zero bits (as PostgreSQL 19's encode(u::bytea, 'base32hex') without its '=').
CREATE FUNCTION idgen.base32hex_encode(value uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_digits(idgen.edition_u2n(value) OPERATOR(pg_catalog.*) 4::pg_catalog.numeric, '0123456789ABCDEFGHIJKLMNOPQRSTUV', 26);
COMMENT ON FUNCTION idgen.base32hex_encode(uuid) IS 'base32hex text of a uuid, 26 characters (0-9A-V), as PostgreSQL 19''s rtrim(encode(u::bytea, ''base32hex''), ''=''); sorts like the uuid';

CREATE FUNCTION idgen.base32hex_decode_uuid(value text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n pg_catalog.numeric;
  body pg_catalog.text := value;
BEGIN
  -- As PostgreSQL 19's decode(..., 'base32hex') reads it, and idgen: spaces, tabs and line ends
  -- anywhere, then the digits, then any number of '=' to the end.
  body := pg_catalog.regexp_replace(value, '[ \t\r\n]', '', 'g');
  IF body OPERATOR(pg_catalog.=) '' THEN
    RAISE EXCEPTION 'invalid base32hex text for uuid: "%"', pg_catalog."left"(value, 100)
      USING ERRCODE = 'invalid_text_representation', DETAIL = 'The text is empty.';
  END IF;
  body := (pg_catalog.regexp_match(body, '^([0-9A-Va-v]*)=*$'))[1];
  IF body IS NULL OR pg_catalog.octet_length(body) OPERATOR(pg_catalog.<>) 26 THEN
    RAISE EXCEPTION 'invalid base32hex text for uuid: "%"', pg_catalog."left"(value, 100)
      USING ERRCODE = 'invalid_text_representation',
            DETAIL = 'A uuid is 26 base32hex digits, then any ''='' padding.';
  END IF;
  n := idgen.edition_value(pg_catalog.translate(body, 'abcdefghijklmnopqrstuv', 'ABCDEFGHIJKLMNOPQRSTUV'), '0123456789ABCDEFGHIJKLMNOPQRSTUV');
  IF n IS NULL THEN
    RAISE EXCEPTION 'invalid base32hex text for uuid: "%"', value
      USING ERRCODE = 'invalid_text_representation', HINT = 'base32hex digits are 0-9 and A-V, in either case.';
  END IF;
  IF pg_catalog.mod(n, 4::pg_catalog.numeric) OPERATOR(pg_catalog.<>) 0 THEN
    RAISE EXCEPTION 'invalid base32hex text for uuid: "%"', value
      USING ERRCODE = 'invalid_text_representation', DETAIL = 'Its last character holds bits beyond the 128 of a uuid, which must be 0.',
            HINT = 'The base32hex text of a uuid ends in 0, 4, 8, C, G, K, O or S.';
  END IF;
  RETURN idgen.edition_n2u(pg_catalog.div(n, 4::pg_catalog.numeric));
END
$$;
COMMENT ON FUNCTION idgen.base32hex_decode_uuid(text) IS 'the uuid of a base32hex text: 26 characters of either case, with or without the padding';

---------------------------------------------------------------------------------------------------
-- UUIDv7 (RFC 9562): 48-bit Unix milliseconds, version, 12-bit fraction of the millisecond
-- (method 3), variant, 4-bit counter, 58 random bits. The random bits come from gen_random_uuid()
-- (core, a CSPRNG). Without shared memory the order is per session: each session keeps its last
-- time word in a setting of its own (idgen_sql.uuidv7_word) and steps past it.
---------------------------------------------------------------------------------------------------

-- The 60 time bits (ms << 12 | fraction) of microseconds since 1970; 22008 outside the field.
CREATE FUNCTION idgen.edition_uuidv7_bits(us bigint, what text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF us OPERATOR(pg_catalog.<) 0 OR us OPERATOR(pg_catalog./) 1000 OPERATOR(pg_catalog.>) 281474976710655 THEN
    RAISE EXCEPTION 'timestamp out of range for %', what
      USING ERRCODE = 'datetime_field_overflow',
            DETAIL = pg_catalog.format('A %s holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.', what);
  END IF;
  RETURN ((us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.<<) 12)
    OPERATOR(pg_catalog.|) ((us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096 OPERATOR(pg_catalog./) 1000);
END
$$;
COMMENT ON FUNCTION idgen.edition_uuidv7_bits(bigint, text) IS 'internal: the 60 time bits of a UUIDv7 or ULID at an instant';

-- The UUIDv7 of 60 time bits and 62 bits of rand_b (counter and random).
CREATE FUNCTION idgen.edition_uuidv7_compose(time_bits bigint, rand_b bigint) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CAST(pg_catalog.concat(
  pg_catalog.lpad(pg_catalog.to_hex(time_bits OPERATOR(pg_catalog.>>) 12), 12, '0'), '7',
  pg_catalog.lpad(pg_catalog.to_hex(time_bits OPERATOR(pg_catalog.&) 4095), 3, '0'),
  idgen.edition_hex64((rand_b OPERATOR(pg_catalog.&) 4611686018427387903) OPERATOR(pg_catalog.|) (-9223372036854775808)::pg_catalog.int8))
  AS pg_catalog.uuid);
COMMENT ON FUNCTION idgen.edition_uuidv7_compose(bigint, bigint) IS 'internal: the UUIDv7 of 60 time bits and 62 bits of rand_b';

-- 64 CSPRNG bits: gen_random_uuid()'s, less its version and variant, from two of them.
CREATE FUNCTION idgen.edition_random64() RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN (idgen.edition_lo(pg_catalog.gen_random_uuid()) OPERATOR(pg_catalog.&) 4611686018427387903)
  OPERATOR(pg_catalog.#) (idgen.edition_hi(pg_catalog.gen_random_uuid()) OPERATOR(pg_catalog.<<) 2);
COMMENT ON FUNCTION idgen.edition_random64() IS 'internal: 64 random bits from the server''s CSPRNG';

-- The next state word of this session, (time bits << 4 | counter): the clock's, or one past the
-- last when the clock has not passed it.
CREATE FUNCTION idgen.edition_uuidv7_word(shift_us bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  clock pg_catalog.int8 := idgen.edition_uuidv7_bits(
      idgen.edition_us(pg_catalog.clock_timestamp(), 'UUIDv7') OPERATOR(pg_catalog.+) shift_us, 'UUIDv7') OPERATOR(pg_catalog.<<) 4;
  last pg_catalog.int8 := CAST(COALESCE(NULLIF(pg_catalog.current_setting('idgen_sql.uuidv7_word', true), ''), '0') AS pg_catalog.int8);
  word pg_catalog.int8 := CASE WHEN clock OPERATOR(pg_catalog.>) last THEN clock ELSE last OPERATOR(pg_catalog.+) 1 END;
BEGIN
  IF shift_us OPERATOR(pg_catalog.=) 0 THEN
    PERFORM pg_catalog.set_config('idgen_sql.uuidv7_word', CAST(word AS pg_catalog.text), false);
    RETURN word;
  END IF;
  RETURN clock;
END
$$;
COMMENT ON FUNCTION idgen.edition_uuidv7_word(bigint) IS 'internal: the next UUIDv7/ULID state word of this session';

CREATE FUNCTION idgen.uuidv7() RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  word pg_catalog.int8 := idgen.edition_uuidv7_word(0);
BEGIN
  RETURN idgen.edition_uuidv7_compose(word OPERATOR(pg_catalog.>>) 4,
    ((word OPERATOR(pg_catalog.&) 15) OPERATOR(pg_catalog.<<) 58) OPERATOR(pg_catalog.|) (idgen.edition_random64() OPERATOR(pg_catalog.&) 288230376151711743));
END
$$;
COMMENT ON FUNCTION idgen.uuidv7() IS
'a new UUIDv7: Unix milliseconds, a sub-millisecond fraction, a 4-bit counter and 58 random bits; increasing per session (the SQL edition shares no state between sessions)';

CREATE FUNCTION idgen.uuidv7(shift interval) RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  shift_us pg_catalog.int8 := CAST(pg_catalog."numeric_mul"(EXTRACT(EPOCH FROM shift), 1000000::pg_catalog.numeric) AS pg_catalog.int8);
  word pg_catalog.int8 := idgen.edition_uuidv7_word(shift_us);
BEGIN
  RETURN idgen.edition_uuidv7_compose(word OPERATOR(pg_catalog.>>) 4, idgen.edition_random64());
END
$$;
COMMENT ON FUNCTION idgen.uuidv7(interval) IS
'a new UUIDv7 whose time is the current time shifted by the interval (as PostgreSQL 18''s uuidv7(shift))';

CREATE FUNCTION idgen.uuidv7("at" timestamptz) RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_uuidv7_compose(idgen.edition_uuidv7_bits(idgen.edition_us("at", 'UUIDv7'), 'UUIDv7'), idgen.edition_random64());
COMMENT ON FUNCTION idgen.uuidv7(timestamptz) IS
'a new UUIDv7 for the given instant (for backfills); its random bits are still random';

CREATE FUNCTION idgen.uuidv7_time(id uuid) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  hi pg_catalog.int8 := idgen.edition_hi(id);
  lo pg_catalog.int8 := idgen.edition_lo(id);
  version pg_catalog.int4 := CAST((hi OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 15 AS pg_catalog.int4);
  fraction pg_catalog.int8 := hi OPERATOR(pg_catalog.&) 4095;
  ms pg_catalog.int8 := (hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655;
BEGIN
  IF version OPERATOR(pg_catalog.<>) 7 OR (lo OPERATOR(pg_catalog.>>) 62) OPERATOR(pg_catalog.<>) -2 THEN
    RAISE EXCEPTION 'uuid "%" is version %, not a UUIDv7', id, pg_catalog.concat(version,
      CASE WHEN (lo OPERATOR(pg_catalog.>>) 62) OPERATOR(pg_catalog.=) -2 THEN '' ELSE ' of a non-RFC variant' END)
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Only a version 7 UUID of the RFC 9562 variant holds a time.';
  END IF;
  RETURN idgen.edition_ts((ms OPERATOR(pg_catalog.*) 1000)
    OPERATOR(pg_catalog.+) ((((fraction OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) 1000) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog./) 4096));
END
$$;
COMMENT ON FUNCTION idgen.uuidv7_time(uuid) IS
'the instant a UUIDv7 holds, to the microsecond: always in the millisecond of its 48-bit field, and never below idgen.uuidv7_min of it';

CREATE FUNCTION idgen.uuidv7_min("at" timestamptz) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_uuidv7_compose(idgen.edition_uuidv7_bits(idgen.edition_us("at", 'UUIDv7'), 'UUIDv7'), 0);
COMMENT ON FUNCTION idgen.uuidv7_min(timestamptz) IS
'the smallest UUIDv7 at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.uuidv7_text_time(id text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF id OPERATOR(pg_catalog.!~) '^[0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12}$' THEN
    RAISE EXCEPTION 'invalid input syntax for a UUIDv7: "%"', pg_catalog."left"(id, 100)
      USING ERRCODE = 'invalid_text_representation',
            HINT = 'A UUID as text is 32 hexadecimal digits, in groups of 8-4-4-4-12 with or without hyphens: pass a uuid cast to text.';
  END IF;
  RETURN idgen.uuidv7_time(CAST(id AS pg_catalog.uuid));
END
$$;
COMMENT ON FUNCTION idgen.uuidv7_text_time(text) IS
'idgen.uuidv7_time of a UUIDv7 written as text: the time decoder pg_partman calls with a uuid column cast to text';

---------------------------------------------------------------------------------------------------
-- ULID: 48-bit Unix milliseconds, the 12-bit fraction and 4-bit counter of UUIDv7's state word
-- (this session's), 64 random bits; 26 characters of Crockford base32 or the same 128 bits in a uuid.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.ulid_from_uuid(id uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_digits(idgen.edition_u2n(id), '0123456789ABCDEFGHJKMNPQRSTVWXYZ', 26);
COMMENT ON FUNCTION idgen.ulid_from_uuid(uuid) IS
'the ULID text of any uuid, bit for bit (a UUIDv7 gives a ULID of its millisecond)';

CREATE FUNCTION idgen.ulid_uuid() RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  word pg_catalog.int8 := idgen.edition_uuidv7_word(0);
BEGIN
  RETURN idgen.edition_uuid(word, idgen.edition_random64());
END
$$;
COMMENT ON FUNCTION idgen.ulid_uuid() IS
'a new ULID as a uuid (the same 128 bits as idgen.ulid(), 16 bytes): uuid order is ULID order';

CREATE FUNCTION idgen.ulid() RETURNS text
LANGUAGE sql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp
RETURN idgen.ulid_from_uuid(idgen.ulid_uuid());
COMMENT ON FUNCTION idgen.ulid() IS
'a new ULID, 26 uppercase Crockford base32 characters: Unix milliseconds, a sub-millisecond fraction, a 4-bit counter and 64 random bits; increasing per session (the SQL edition shares no state between sessions)';

CREATE FUNCTION idgen.ulid_to_uuid(value text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n pg_catalog.numeric;
BEGIN
  IF value OPERATOR(pg_catalog.=) '' OR pg_catalog.octet_length(value) OPERATOR(pg_catalog.<>) 26 THEN
    RAISE EXCEPTION 'invalid ULID "%"', pg_catalog."left"(value, 100)
      USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('It is %s bytes long; a ULID is 26 characters.', pg_catalog.octet_length(value));
  END IF;
  n := idgen.edition_value(pg_catalog.translate(value, 'abcdefghjkmnpqrstvwxyzIiLlOo', 'ABCDEFGHJKMNPQRSTVWXYZ111100'),
                           '0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  IF n IS NULL THEN
    RAISE EXCEPTION 'invalid ULID "%"', value
      USING ERRCODE = 'invalid_text_representation',
            HINT = 'A ULID is 26 characters of Crockford base32: 0-9 and A-Z without I, L, O and U (I and L read as 1, O as 0, either case), the first at most 7.';
  END IF;
  IF n OPERATOR(pg_catalog.>=) 340282366920938463463374607431768211456::pg_catalog.numeric THEN
    RAISE EXCEPTION 'invalid ULID "%"', value
      USING ERRCODE = 'invalid_text_representation',
            DETAIL = 'Its first character is above 7: the value does not fit 128 bits (the largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ).';
  END IF;
  RETURN idgen.edition_n2u(n);
END
$$;
COMMENT ON FUNCTION idgen.ulid_to_uuid(text) IS
'the 128 bits of a ULID as a uuid, bit for bit; reads either case, I and L as 1, O as 0';

CREATE FUNCTION idgen.ulid_time(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_ts(((idgen.edition_hi(id) OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655) OPERATOR(pg_catalog.*) 1000);
COMMENT ON FUNCTION idgen.ulid_time(uuid) IS
'the millisecond a ULID stored as a uuid holds (its first 48 bits)';

CREATE FUNCTION idgen.ulid_time(value text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.ulid_time(idgen.ulid_to_uuid(value));
COMMENT ON FUNCTION idgen.ulid_time(text) IS
'the millisecond a ULID holds (its 48-bit field)';

CREATE FUNCTION idgen.ulid_min_uuid("at" timestamptz) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ms pg_catalog.int8 := idgen.edition_floordiv(idgen.edition_us("at", 'ULID'), 1000);
BEGIN
  IF ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 281474976710655 THEN
    RAISE EXCEPTION 'timestamp out of range for ULID'
      USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
  END IF;
  RETURN idgen.edition_uuid(ms OPERATOR(pg_catalog.<<) 16, 0);
END
$$;
COMMENT ON FUNCTION idgen.ulid_min_uuid(timestamptz) IS
'the smallest ULID of the millisecond of the given instant as a uuid, the bound of a range scan on a uuid key';

CREATE FUNCTION idgen.ulid_min("at" timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.ulid_from_uuid(idgen.ulid_min_uuid("at"));
COMMENT ON FUNCTION idgen.ulid_min(timestamptz) IS
'the smallest ULID of the millisecond of the given instant, the bound of a range scan (compare under COLLATE "C")';

---------------------------------------------------------------------------------------------------
-- typeid as text: <prefix>_<body>, the body a UUID in base36 (25 characters, idgen's form) or in
-- the TypeID spec's lowercase Crockford base32 (26). (idgen's native type idgen.type_id, the
-- domains of define_id_type and the prefix registry are idgen's only.)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.edition_valid_prefix(prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN pg_catalog.octet_length(prefix) OPERATOR(pg_catalog.<=) 63
  AND prefix OPERATOR(pg_catalog.~) '^[a-z]([a-z_]*[a-z])?$';
COMMENT ON FUNCTION idgen.edition_valid_prefix(text) IS 'internal: true for a typeid prefix (1 to 63 of a-z and _, a letter first and last)';

CREATE FUNCTION idgen.edition_typeid_encoding(encoding text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF encoding OPERATOR(pg_catalog.=) ANY ('{base36,base32}'::pg_catalog.text[]) THEN RETURN encoding; END IF;
  RAISE EXCEPTION 'unknown typeid encoding "%"', encoding
    USING ERRCODE = 'invalid_parameter_value',
          HINT = 'Use ''base36'' (idgen''s form, 25 characters) or ''base32'' (the TypeID spec''s, 26 characters).';
END
$$;
COMMENT ON FUNCTION idgen.edition_typeid_encoding(text) IS 'internal: checks a typeid encoding';

CREATE FUNCTION idgen.typeid_from_uuid(prefix text, id uuid, encoding text DEFAULT 'base36') RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT idgen.edition_valid_prefix(prefix) THEN
    RAISE EXCEPTION 'invalid typeid prefix "%"', prefix
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'A prefix is 1 to 63 lowercase ASCII letters (a-z) and underscores, starting and ending with a letter.';
  END IF;
  IF idgen.edition_typeid_encoding(encoding) OPERATOR(pg_catalog.=) 'base36' THEN
    RETURN pg_catalog.concat(prefix, '_', idgen.base36_encode(id));
  END IF;
  RETURN pg_catalog.concat(prefix, '_', idgen.edition_digits(idgen.edition_u2n(id), idgen.edition_alphabet('base32'), 26));
END
$$;
COMMENT ON FUNCTION idgen.typeid_from_uuid(text, uuid, text) IS
'the typeid of a UUID with the given prefix';

CREATE FUNCTION idgen.typeid(prefix text, ordered boolean DEFAULT true, encoding text DEFAULT 'base36') RETURNS text
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT idgen.edition_valid_prefix(prefix) THEN
    RAISE EXCEPTION 'invalid typeid prefix "%"', prefix
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'A prefix is 1 to 63 lowercase ASCII letters (a-z) and underscores, starting and ending with a letter.';
  END IF;
  PERFORM idgen.edition_typeid_encoding(encoding);
  RETURN idgen.typeid_from_uuid(prefix, CASE WHEN ordered THEN idgen.uuidv7() ELSE pg_catalog.gen_random_uuid() END, encoding);
END
$$;
COMMENT ON FUNCTION idgen.typeid(text, boolean, text) IS
'a new typeid <prefix>_<body>: the body a UUIDv7 (ordered) or 122 random bits (ordered => false), in base36 (25 characters, sorts like time under the C collation) or base32 (the TypeID spec)';

-- The prefix and UUID of a typeid; with raise false, NULLs instead of errors.
CREATE FUNCTION idgen.edition_typeid_split(value text, raise boolean, OUT prefix text, OUT id uuid)
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  sep pg_catalog.int4 := pg_catalog.length(value) OPERATOR(pg_catalog.-) pg_catalog.strpos(pg_catalog.reverse(value), '_') OPERATOR(pg_catalog.+) 1;
  body pg_catalog.text;
  n pg_catalog.numeric;
  problem pg_catalog.text;
  code pg_catalog.text := 'invalid_text_representation';
BEGIN
  IF value OPERATOR(pg_catalog.=) '' THEN
    problem := 'The text is empty.';
  ELSIF pg_catalog.strpos(value, '_') OPERATOR(pg_catalog.=) 0 THEN
    IF pg_catalog.octet_length(value) OPERATOR(pg_catalog.<>) 26 THEN
      problem := 'There is no "_" between a prefix and a body.';
    END IF;
    prefix := '';
    body := value;
  ELSE
    prefix := pg_catalog.substr(value, 1, sep OPERATOR(pg_catalog.-) 1);
    body := pg_catalog.substr(value, sep OPERATOR(pg_catalog.+) 1);
    IF NOT idgen.edition_valid_prefix(prefix) THEN
      problem := pg_catalog.format('Its prefix "%s" is not a valid prefix.', prefix);
    END IF;
  END IF;
  IF problem IS NULL THEN
    IF pg_catalog.octet_length(body) OPERATOR(pg_catalog.=) 25 THEN
      -- (lowercase only, as idgen reads it: one spelling per ID)
      n := idgen.edition_value(body, idgen.edition_alphabet('base36'));
    ELSIF pg_catalog.octet_length(body) OPERATOR(pg_catalog.=) 26 THEN
      n := idgen.edition_value(body, idgen.edition_alphabet('base32'));
    ELSE
      problem := pg_catalog.format('Its body has %s characters, not 25 (base36) or 26 (base32).', pg_catalog.octet_length(body));
    END IF;
  END IF;
  IF problem IS NULL AND n IS NULL THEN
    problem := 'Its body has a character that is not a digit of its encoding.';
  END IF;
  IF problem IS NULL AND n OPERATOR(pg_catalog.>=) 340282366920938463463374607431768211456::pg_catalog.numeric THEN
    problem := 'Its body is larger than 128 bits.';
  END IF;
  IF problem IS NOT NULL THEN
    prefix := NULL;
    IF raise THEN
      RAISE EXCEPTION 'invalid typeid "%"', pg_catalog."left"(value, 100)
        USING ERRCODE = code, DETAIL = problem,
              HINT = 'A typeid is a prefix, "_", and a body of 25 base36 or 26 base32 characters.';
    END IF;
    RETURN;
  END IF;
  id := idgen.edition_n2u(n);
END
$$;
COMMENT ON FUNCTION idgen.edition_typeid_split(text, boolean) IS 'internal: the prefix and UUID of a typeid';

CREATE FUNCTION idgen.typeid_parse(value text, OUT prefix text, OUT id uuid) RETURNS record
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_typeid_split(value, true);
COMMENT ON FUNCTION idgen.typeid_parse(text) IS
'the prefix and the UUID of a typeid, in either encoding';

CREATE FUNCTION idgen.typeid_uuid(value text, prefix text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  parsed record := idgen.edition_typeid_split(value, true);
BEGIN
  IF parsed.prefix OPERATOR(pg_catalog.<>) typeid_uuid.prefix THEN
    RAISE EXCEPTION 'typeid "%" is not a "%" ID', value, typeid_uuid.prefix
      USING ERRCODE = 'invalid_text_representation', DETAIL = pg_catalog.format('Its prefix is "%s".', parsed.prefix);
  END IF;
  RETURN parsed.id;
END
$$;
COMMENT ON FUNCTION idgen.typeid_uuid(text, text) IS
'the UUID of a typeid that must have the given prefix; an error (22P02) for any other prefix';

CREATE FUNCTION idgen.typeid_time(value text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  parsed record := idgen.edition_typeid_split(value, true);
  version pg_catalog.int8 := (idgen.edition_hi(parsed.id) OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 15;
BEGIN
  IF version OPERATOR(pg_catalog.<>) 7 THEN
    RAISE EXCEPTION 'typeid "%" holds no time', value
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('Its body is a version %s UUID; only ordered typeids (UUIDv7 bodies) hold a time.', version);
  END IF;
  RETURN idgen.uuidv7_time(parsed.id);
END
$$;
COMMENT ON FUNCTION idgen.typeid_time(text) IS
'the instant of an ordered typeid (its body is a UUIDv7); an error for a random body';

CREATE FUNCTION idgen.typeid_is_valid(value text, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN COALESCE((idgen.edition_typeid_split(value, false)).prefix OPERATOR(pg_catalog.=) prefix, false);
COMMENT ON FUNCTION idgen.typeid_is_valid(text, text) IS
'true when the text is a typeid with this prefix, in either encoding; never an error, for CHECK constraints';

CREATE FUNCTION idgen.typeid_min(prefix text, "at" timestamptz, encoding text DEFAULT 'base36') RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.typeid_from_uuid(prefix, idgen.uuidv7_min("at"), encoding);
COMMENT ON FUNCTION idgen.typeid_min(text, timestamptz, text) IS
'the smallest ordered typeid with the given prefix at the given instant, the bound of a range scan (C collation) and, wrapped per prefix, a pg_partman time encoder';

---------------------------------------------------------------------------------------------------
-- 64-bit layouts: Instagram, Snowflake, Sonyflake, TraceId, JS-safe. Decoders and bounds read the
-- epoch settings idgen.<family>_epoch_ms as idgen does (a session may decode under another epoch);
-- the generators make IDs under the published epochs only.
--
-- The generators: a PostgreSQL sequence per family holds the state word (tick << seq_bits | seq),
-- as idgen's shared memory does. nextval never returns a value twice, so no two IDs share their
-- time and sequence fields: a burst beyond the sequence field runs on into the next tick, a clock
-- stepped back is ridden out ahead of it. When the word is behind the clock it jumps to it with
-- setval, which no nextval may overtake: every nextval holds an advisory lock in share mode for its
-- instant, the jump holds it exclusively, and only when no nextval is in flight (pg_try_advisory_lock):
-- a jump is never waited for, and one skipped leaves the word behind the clock for that call only.
---------------------------------------------------------------------------------------------------

-- The layout of a family: the published epoch, the tick, the field widths.
CREATE FUNCTION idgen.edition_layout(family text, OUT epoch_ms bigint, OUT unit_ms bigint, OUT time_bits int,
    OUT node_bits int, OUT seq_bits int, OUT node_below_seq boolean, OUT time_wraps boolean, OUT title text, OUT node_field text)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CASE family
  WHEN 'instagram' THEN ROW(1314220021721::pg_catalog.int8, 1::pg_catalog.int8, 41, 13, 10, false, false, 'Instagram'::pg_catalog.text, 'shard'::pg_catalog.text)
  WHEN 'snowflake' THEN ROW(1288834974657::pg_catalog.int8, 1::pg_catalog.int8, 41, 10, 12, false, false, 'Snowflake'::pg_catalog.text, 'node'::pg_catalog.text)
  WHEN 'sonyflake' THEN ROW(1409529600000::pg_catalog.int8, 10::pg_catalog.int8, 39, 16, 8, true, false, 'Sonyflake'::pg_catalog.text, 'machine id'::pg_catalog.text)
  WHEN 'trace' THEN ROW(0::pg_catalog.int8, 1000::pg_catalog.int8, 25, 16, 22, false, true, 'TraceId'::pg_catalog.text, 'node'::pg_catalog.text)
  WHEN 'js' THEN ROW(1767225600000::pg_catalog.int8, 10::pg_catalog.int8, 38, 5, 10, false, false, 'JS-safe'::pg_catalog.text, 'node'::pg_catalog.text) END;
COMMENT ON FUNCTION idgen.edition_layout(text) IS 'internal: the layout of a 64-bit family';

-- The epoch a session decodes under: idgen.<family>_epoch_ms when set, else the published one.
CREATE FUNCTION idgen.edition_epoch(family text) RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  setting pg_catalog.text := pg_catalog.current_setting(pg_catalog.concat('idgen.', family, '_epoch_ms'), true);
BEGIN
  IF setting IS NULL OR setting OPERATOR(pg_catalog.=) '' THEN
    RETURN (idgen.edition_layout(family)).epoch_ms;
  END IF;
  IF setting OPERATOR(pg_catalog.!~) '^\s*-?[0-9]{1,15}\s*$' THEN
    RAISE EXCEPTION 'invalid value for idgen.%_epoch_ms: "%"', family, setting
      USING ERRCODE = 'invalid_parameter_value', HINT = 'An epoch is milliseconds since 1970-01-01 00:00:00 UTC.';
  END IF;
  RETURN CAST(setting AS pg_catalog.int8);
END
$$;
COMMENT ON FUNCTION idgen.edition_epoch(text) IS 'internal: the epoch of a family under this session''s settings';

-- The largest tick an ID holds: the time field, or the sign bit of a bigint if that comes first.
CREATE FUNCTION idgen.edition_max_ticks(family text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN (SELECT (1::pg_catalog.int8 OPERATOR(pg_catalog.<<) CASE WHEN l.time_wraps THEN l.time_bits
          ELSE LEAST(l.time_bits, 63 OPERATOR(pg_catalog.-) l.node_bits OPERATOR(pg_catalog.-) l.seq_bits) END)
        OPERATOR(pg_catalog.-) 1
        FROM idgen.edition_layout(family) l);
COMMENT ON FUNCTION idgen.edition_max_ticks(text) IS 'internal: the largest tick of a family''s IDs';

-- The tick of an instant (Unix milliseconds) under an epoch; 22008 outside the field.
CREATE FUNCTION idgen.edition_tick(family text, epoch bigint, unix_ms bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  l record;
  tick pg_catalog.int8;
BEGIN
  SELECT * INTO l FROM idgen.edition_layout(family);
  IF unix_ms OPERATOR(pg_catalog.>=) epoch THEN
    tick := (unix_ms OPERATOR(pg_catalog.-) epoch) OPERATOR(pg_catalog./) l.unit_ms;
    IF l.time_wraps OR tick OPERATOR(pg_catalog.<=) idgen.edition_max_ticks(family) THEN
      RETURN tick;
    END IF;
  END IF;
  RAISE EXCEPTION 'timestamp out of range for % IDs', l.title
    USING ERRCODE = 'datetime_field_overflow',
          DETAIL = pg_catalog.format('%s IDs hold times from %s (the epoch) on, to the end of their time field.', l.title,
                                     pg_catalog.to_char(idgen.edition_ts(epoch OPERATOR(pg_catalog.*) 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS "UTC"')),
          HINT = pg_catalog.format('The setting idgen.%s_epoch_ms moves this range; read the README before changing it on a live system.', family);
END
$$;
COMMENT ON FUNCTION idgen.edition_tick(text, bigint, bigint) IS 'internal: the tick of an instant in a family''s time field';

CREATE FUNCTION idgen.edition_compose(family text, tick bigint, node bigint, seq bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN (SELECT ((tick OPERATOR(pg_catalog.&) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.time_bits) OPERATOR(pg_catalog.-) 1))
                  OPERATOR(pg_catalog.<<) (l.node_bits OPERATOR(pg_catalog.+) l.seq_bits))
          OPERATOR(pg_catalog.|) (node OPERATOR(pg_catalog.<<) CASE WHEN l.node_below_seq THEN 0 ELSE l.seq_bits END)
          OPERATOR(pg_catalog.|) (seq OPERATOR(pg_catalog.<<) CASE WHEN l.node_below_seq THEN l.node_bits ELSE 0 END)
        FROM idgen.edition_layout(family) l);
COMMENT ON FUNCTION idgen.edition_compose(text, bigint, bigint, bigint) IS 'internal: the ID of a tick, a node and a sequence';

CREATE FUNCTION idgen.edition_min(family text, "at" timestamptz) RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  epoch pg_catalog.int8 := idgen.edition_epoch(family);
  us pg_catalog.int8 := idgen.edition_us("at", pg_catalog.concat((idgen.edition_layout(family)).title, ' IDs'));
BEGIN
  RETURN idgen.edition_compose(family, idgen.edition_tick(family, epoch, idgen.edition_floordiv(us, 1000)), 0, 0);
END
$$;
COMMENT ON FUNCTION idgen.edition_min(text, timestamptz) IS 'internal: the smallest ID of a family at an instant';

CREATE FUNCTION idgen.edition_parse(family text, id bigint, OUT ts timestamptz, OUT node int, OUT seq int)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  l record;
  epoch pg_catalog.int8 := idgen.edition_epoch(family);
  shift pg_catalog.int4;
  tick pg_catalog.int8;
  period pg_catalog.int8;
  reference pg_catalog.int8;
BEGIN
  SELECT * INTO l FROM idgen.edition_layout(family);
  shift := l.node_bits OPERATOR(pg_catalog.+) l.seq_bits;
  IF id OPERATOR(pg_catalog.<) 0 THEN
    RAISE EXCEPTION '% is not a valid % ID', id, l.title
      USING ERRCODE = 'invalid_parameter_value', DETAIL = pg_catalog.format('%s IDs are positive bigints.', l.title);
  END IF;
  tick := id OPERATOR(pg_catalog.>>) shift;
  IF NOT l.time_wraps AND tick OPERATOR(pg_catalog.>) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.time_bits) OPERATOR(pg_catalog.-) 1) THEN
    RAISE EXCEPTION '% is not a valid % ID', id, l.title
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('%s IDs hold %s bits.', l.title, l.time_bits OPERATOR(pg_catalog.+) shift);
  END IF;
  IF l.time_wraps THEN
    -- the latest tick with these low bits that is no later than a day after the transaction's start
    period := 1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.time_bits;
    reference := idgen.edition_floordiv(idgen.edition_us(pg_catalog.now(), l.title) OPERATOR(pg_catalog./) 1000
                   OPERATOR(pg_catalog.+) 86400000 OPERATOR(pg_catalog.-) epoch, l.unit_ms);
    IF reference OPERATOR(pg_catalog.>) tick THEN
      tick := tick OPERATOR(pg_catalog.+) (idgen.edition_floordiv(reference OPERATOR(pg_catalog.-) tick, period) OPERATOR(pg_catalog.*) period);
    END IF;
  END IF;
  ts := idgen.edition_ts((epoch OPERATOR(pg_catalog.+) (tick OPERATOR(pg_catalog.*) l.unit_ms)) OPERATOR(pg_catalog.*) 1000);
  node := CAST((id OPERATOR(pg_catalog.>>) CASE WHEN l.node_below_seq THEN 0 ELSE l.seq_bits END)
               OPERATOR(pg_catalog.&) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.node_bits) OPERATOR(pg_catalog.-) 1) AS pg_catalog.int4);
  seq := CAST((id OPERATOR(pg_catalog.>>) CASE WHEN l.node_below_seq THEN l.node_bits ELSE 0 END)
              OPERATOR(pg_catalog.&) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.seq_bits) OPERATOR(pg_catalog.-) 1) AS pg_catalog.int4);
END
$$;
COMMENT ON FUNCTION idgen.edition_parse(text, bigint) IS 'internal: the time, node and sequence of an ID of a family';

-- The state words, one sequence per family (WAL-logged: a crash or a promoted standby goes on
-- after every value a committed transaction used). Nobody but the generator below uses them.
CREATE SEQUENCE idgen.edition_instagram_seq AS bigint CACHE 1;
CREATE SEQUENCE idgen.edition_snowflake_seq AS bigint CACHE 1;
CREATE SEQUENCE idgen.edition_sonyflake_seq AS bigint CACHE 1;
CREATE SEQUENCE idgen.edition_trace_seq AS bigint CACHE 1;
CREATE SEQUENCE idgen.edition_js_seq AS bigint CACHE 1;
REVOKE ALL ON SEQUENCE idgen.edition_instagram_seq, idgen.edition_snowflake_seq, idgen.edition_sonyflake_seq,
  idgen.edition_trace_seq, idgen.edition_js_seq FROM PUBLIC;
COMMENT ON SEQUENCE idgen.edition_instagram_seq IS 'the state word of Instagram IDs (tick << 10 | sequence), of every shard';
COMMENT ON SEQUENCE idgen.edition_snowflake_seq IS 'the state word of Snowflake IDs (tick << 12 | sequence)';
COMMENT ON SEQUENCE idgen.edition_sonyflake_seq IS 'the state word of Sonyflake IDs (tick << 8 | sequence)';
COMMENT ON SEQUENCE idgen.edition_trace_seq IS 'the state word of TraceId IDs (second << 22 | counter)';
COMMENT ON SEQUENCE idgen.edition_js_seq IS 'the state word of JS-safe IDs (tick << 10 | sequence)';

-- The next state word of a family (security definer: the sequences are its owner's alone, so that
-- no caller can move them back with setval). It takes only a family name, never a sequence.
CREATE FUNCTION idgen.edition_next_word(family text) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  seq pg_catalog.regclass;
  k pg_catalog.int4;
  l record;
  now_tick pg_catalog.int8;
  word pg_catalog.int8;
BEGIN
  SELECT * INTO l FROM idgen.edition_layout(family);
  CASE family
    WHEN 'instagram' THEN seq := 'idgen.edition_instagram_seq'::pg_catalog.regclass; k := 1;
    WHEN 'snowflake' THEN seq := 'idgen.edition_snowflake_seq'::pg_catalog.regclass; k := 2;
    WHEN 'sonyflake' THEN seq := 'idgen.edition_sonyflake_seq'::pg_catalog.regclass; k := 3;
    WHEN 'trace' THEN seq := 'idgen.edition_trace_seq'::pg_catalog.regclass; k := 4;
    WHEN 'js' THEN seq := 'idgen.edition_js_seq'::pg_catalog.regclass; k := 5;
  END CASE;
  now_tick := idgen.edition_tick(family, l.epoch_ms,
                idgen.edition_floordiv(idgen.edition_us(pg_catalog.clock_timestamp(), l.title), 1000));
  PERFORM pg_catalog.pg_advisory_lock_shared(1768187763, k);
  word := pg_catalog.nextval(seq);
  PERFORM pg_catalog.pg_advisory_unlock_shared(1768187763, k);
  IF (word OPERATOR(pg_catalog.>>) l.seq_bits) OPERATOR(pg_catalog.>=) now_tick
     OR NOT pg_catalog.pg_try_advisory_lock(1768187763, k) THEN
    RETURN word;
  END IF;
  -- no nextval is in flight, and none starts before the unlock
  word := pg_catalog.nextval(seq);
  IF (word OPERATOR(pg_catalog.>>) l.seq_bits) OPERATOR(pg_catalog.<) now_tick THEN
    word := now_tick OPERATOR(pg_catalog.<<) l.seq_bits;
    PERFORM pg_catalog.setval(seq, word, true);
  END IF;
  PERFORM pg_catalog.pg_advisory_unlock(1768187763, k);
  RETURN word;
END
$$;
COMMENT ON FUNCTION idgen.edition_next_word(text) IS 'internal: the next state word of a 64-bit family, from its sequence';

-- A new ID of a family for a node: refuses an epoch setting other than the published one (IDs are
-- made under the published epochs only) and a node out of the field.
CREATE FUNCTION idgen.edition_next_id(family text, node bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  l record;
  word pg_catalog.int8;
  tick pg_catalog.int8;
BEGIN
  SELECT * INTO l FROM idgen.edition_layout(family);
  IF idgen.edition_epoch(family) OPERATOR(pg_catalog.<>) l.epoch_ms THEN
    RAISE EXCEPTION 'idgen.%_epoch_ms is set', family
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'The SQL edition makes IDs under the published epochs only; the setting changes how IDs decode.',
            HINT = pg_catalog.format('Decode IDs of another epoch under it; make IDs with it reset (RESET idgen.%s_epoch_ms).', family);
  END IF;
  IF node OPERATOR(pg_catalog.<) 0 OR node OPERATOR(pg_catalog.>=) (1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.node_bits) THEN
    RAISE EXCEPTION '% % is out of range for % IDs', l.node_field, node, l.title
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('%s %ss are between 0 and %s.', l.title, l.node_field,
                                       (1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.node_bits) OPERATOR(pg_catalog.-) 1);
  END IF;
  word := idgen.edition_next_word(family);
  tick := word OPERATOR(pg_catalog.>>) l.seq_bits;
  IF NOT l.time_wraps AND tick OPERATOR(pg_catalog.>) idgen.edition_max_ticks(family) THEN
    RAISE EXCEPTION 'timestamp out of range for % IDs', l.title USING ERRCODE = 'datetime_field_overflow';
  END IF;
  RETURN idgen.edition_compose(family, tick, node,
                               word OPERATOR(pg_catalog.&) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) l.seq_bits) OPERATOR(pg_catalog.-) 1));
END
$$;
COMMENT ON FUNCTION idgen.edition_next_id(text, bigint) IS 'internal: a new ID of a 64-bit family';

-- This server's node id: idgen.node_id, as idgen reads it (0 when unset).
CREATE FUNCTION idgen.edition_node_id() RETURNS bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  setting pg_catalog.text := pg_catalog.current_setting('idgen.node_id', true);
BEGIN
  IF setting IS NULL OR setting OPERATOR(pg_catalog.=) '' THEN RETURN 0; END IF;
  IF setting OPERATOR(pg_catalog.!~) '^\s*[0-9]{1,9}\s*$' THEN
    RAISE EXCEPTION 'invalid value for idgen.node_id: "%"', setting
      USING ERRCODE = 'invalid_parameter_value', HINT = 'A node id is a whole number from 0 to 65535.';
  END IF;
  RETURN CAST(setting AS pg_catalog.int8);
END
$$;
COMMENT ON FUNCTION idgen.edition_node_id() IS 'internal: the node id of this server (idgen.node_id)';

CREATE FUNCTION idgen.instagram_id(shard bigint) RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_next_id('instagram', shard);
COMMENT ON FUNCTION idgen.instagram_id(bigint) IS
'a new Instagram ID: 41-bit milliseconds since 2011-08-24 21:07:01.721 UTC, 13-bit shard, 10-bit sequence (in the SQL edition, one sequence for every shard)';

CREATE FUNCTION idgen.instagram_parse(id bigint, OUT ts timestamptz, OUT shard int, OUT seq int) RETURNS record
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_parse('instagram', id);
COMMENT ON FUNCTION idgen.instagram_parse(bigint) IS
'the time, shard and sequence of an Instagram ID, under the epoch setting idgen.instagram_epoch_ms';

CREATE FUNCTION idgen.instagram_min("at" timestamptz) RETURNS bigint
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_min('instagram', "at");
COMMENT ON FUNCTION idgen.instagram_min(timestamptz) IS
'the smallest Instagram ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.snowflake_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_next_id('snowflake', idgen.edition_node_id());
COMMENT ON FUNCTION idgen.snowflake_id() IS
'a new Snowflake ID: 41-bit milliseconds since 2010-11-04 01:42:54.657 UTC, 10-bit node (idgen.node_id), 12-bit sequence';

CREATE FUNCTION idgen.snowflake_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_parse('snowflake', id);
COMMENT ON FUNCTION idgen.snowflake_parse(bigint) IS
'the time, node and sequence of a Snowflake ID, under the epoch setting idgen.snowflake_epoch_ms';

CREATE FUNCTION idgen.snowflake_min("at" timestamptz) RETURNS bigint
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_min('snowflake', "at");
COMMENT ON FUNCTION idgen.snowflake_min(timestamptz) IS
'the smallest Snowflake ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.sonyflake_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_next_id('sonyflake', idgen.edition_node_id());
COMMENT ON FUNCTION idgen.sonyflake_id() IS
'a new Sonyflake ID: 39 bits of 10 ms since 2014-09-01 UTC, 8-bit sequence, 16-bit machine id (idgen.node_id)';

CREATE FUNCTION idgen.sonyflake_parse(id bigint, OUT ts timestamptz, OUT machine_id int, OUT seq int) RETURNS record
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_parse('sonyflake', id);
COMMENT ON FUNCTION idgen.sonyflake_parse(bigint) IS
'the time, machine id and sequence of a Sonyflake ID, under the epoch setting idgen.sonyflake_epoch_ms';

CREATE FUNCTION idgen.sonyflake_min("at" timestamptz) RETURNS bigint
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_min('sonyflake', "at");
COMMENT ON FUNCTION idgen.sonyflake_min(timestamptz) IS
'the smallest Sonyflake ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.trace_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_next_id('trace', idgen.edition_node_id());
COMMENT ON FUNCTION idgen.trace_id() IS
'a new TraceId ID: 25-bit seconds that wrap every 388 days, 16-bit node (idgen.node_id), 22-bit counter; unique within one wrap period';

CREATE FUNCTION idgen.trace_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_parse('trace', id);
COMMENT ON FUNCTION idgen.trace_parse(bigint) IS
'the time, node and sequence of a TraceId ID, under the epoch setting idgen.trace_epoch_ms';

CREATE FUNCTION idgen.trace_min("at" timestamptz) RETURNS bigint
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_min('trace', "at");
COMMENT ON FUNCTION idgen.trace_min(timestamptz) IS
'the smallest TraceId ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.js_id() RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_next_id('js', idgen.edition_node_id());
COMMENT ON FUNCTION idgen.js_id() IS
'a new JS-safe ID, 1 to 2^53 - 1: 38 bits of 10 ms since 2026-01-01 UTC, 5-bit node (idgen.node_id, 0 to 31), 10-bit sequence';

CREATE FUNCTION idgen.js_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_parse('js', id);
COMMENT ON FUNCTION idgen.js_parse(bigint) IS
'the time, node and sequence of a JS-safe ID, under the epoch setting idgen.js_epoch_ms';

CREATE FUNCTION idgen.js_min("at" timestamptz) RETURNS bigint
LANGUAGE sql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_min('js', "at");
COMMENT ON FUNCTION idgen.js_min(timestamptz) IS
'the smallest JS-safe ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.is_js_safe(value bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN value OPERATOR(pg_catalog.>=) 1 AND value OPERATOR(pg_catalog.<=) 9007199254740991;
COMMENT ON FUNCTION idgen.is_js_safe(bigint) IS
'true when the value is from 1 to 2^53 - 1, so that a JavaScript number holds it exactly';

---------------------------------------------------------------------------------------------------
-- MongoDB ObjectId: 4-byte Unix seconds, 5 random bytes per session, 3-byte counter. In the SQL
-- edition idgen.objectid is a domain over text (24 lowercase hexadecimal digits, collation "C", so
-- that its order is the bytes' order), not idgen's 12-byte type.
---------------------------------------------------------------------------------------------------

CREATE DOMAIN idgen.objectid AS text COLLATE pg_catalog."C"
  CONSTRAINT objectid_format CHECK (VALUE OPERATOR(pg_catalog.~) '^[0-9a-f]{24}$');
COMMENT ON DOMAIN idgen.objectid IS 'a MongoDB ObjectId as 24 lowercase hexadecimal digits (the SQL edition''s form of idgen.objectid)';

CREATE SEQUENCE idgen.edition_objectid_seq AS bigint CACHE 1;
REVOKE ALL ON SEQUENCE idgen.edition_objectid_seq FROM PUBLIC;
GRANT USAGE ON SEQUENCE idgen.edition_objectid_seq TO PUBLIC;
COMMENT ON SEQUENCE idgen.edition_objectid_seq IS 'the counter of ObjectIds (its low 24 bits)';

CREATE FUNCTION idgen.edition_objectid_seconds(us bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  seconds pg_catalog.int8 := idgen.edition_floordiv(us, 1000000);
BEGIN
  IF seconds OPERATOR(pg_catalog.<) 0 OR seconds OPERATOR(pg_catalog.>) 4294967295 THEN
    RAISE EXCEPTION 'timestamp out of range for ObjectId'
      USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'An ObjectId holds times from 1970-01-01 00:00:00 UTC to 2106-02-07 06:28:15 UTC.';
  END IF;
  RETURN seconds;
END
$$;
COMMENT ON FUNCTION idgen.edition_objectid_seconds(bigint) IS 'internal: the seconds field of an ObjectId at an instant';

CREATE FUNCTION idgen.edition_objectid_at(us bigint) RETURNS idgen.objectid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  process pg_catalog.text := pg_catalog.current_setting('idgen_sql.objectid_process', true);
BEGIN
  IF process IS NULL OR process OPERATOR(pg_catalog.!~) '^[0-9a-f]{10}$' THEN
    process := pg_catalog.substr(idgen.edition_hex64(idgen.edition_random64()), 1, 10);
    PERFORM pg_catalog.set_config('idgen_sql.objectid_process', process, false);
  END IF;
  RETURN CAST(pg_catalog.concat(
    pg_catalog.lpad(pg_catalog.to_hex(idgen.edition_objectid_seconds(us)), 8, '0'), process,
    pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.nextval('idgen.edition_objectid_seq'::pg_catalog.regclass) OPERATOR(pg_catalog.&) 16777215), 6, '0'))
    AS idgen.objectid);
END
$$;
COMMENT ON FUNCTION idgen.edition_objectid_at(bigint) IS 'internal: a new ObjectId at an instant';

CREATE FUNCTION idgen.objectid() RETURNS idgen.objectid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_objectid_at(idgen.edition_us(pg_catalog.clock_timestamp(), 'ObjectId'));
COMMENT ON FUNCTION idgen.objectid() IS
'a new ObjectId: Unix seconds, a random value per session, a counter; increasing per session within a second';

CREATE FUNCTION idgen.objectid("at" timestamptz) RETURNS idgen.objectid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_objectid_at(idgen.edition_us("at", 'ObjectId'));
COMMENT ON FUNCTION idgen.objectid(timestamptz) IS
'a new ObjectId for the second of the given instant (for backfills)';

CREATE FUNCTION idgen.objectid_time(id idgen.objectid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_ts(CAST(CAST(pg_catalog.concat('x00000000', pg_catalog.substr(id, 1, 8)) AS pg_catalog.bit(64)) AS pg_catalog.int8)
                        OPERATOR(pg_catalog.*) 1000000);
COMMENT ON FUNCTION idgen.objectid_time(idgen.objectid) IS
'the second an ObjectId holds (unsigned: 2038 and later decode correctly)';

CREATE FUNCTION idgen.objectid_min("at" timestamptz) RETURNS idgen.objectid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN CAST(pg_catalog.concat(pg_catalog.lpad(pg_catalog.to_hex(idgen.edition_objectid_seconds(idgen.edition_us("at", 'ObjectId'))), 8, '0'),
                              '0000000000000000') AS idgen.objectid);
COMMENT ON FUNCTION idgen.objectid_min(timestamptz) IS
'the smallest ObjectId at the second of the given instant, the bound of a range scan';

CREATE FUNCTION idgen.objectid_to_bytea(idgen.objectid) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN pg_catalog.decode($1, 'hex');
COMMENT ON FUNCTION idgen.objectid_to_bytea(idgen.objectid) IS 'the 12 bytes of an objectid';

CREATE FUNCTION idgen.objectid_from_bytea(bytea) RETURNS idgen.objectid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF pg_catalog.length($1) OPERATOR(pg_catalog.<>) 12 THEN
    RAISE EXCEPTION 'invalid binary objectid of % bytes', pg_catalog.length($1)
      USING ERRCODE = 'invalid_binary_representation', DETAIL = 'An ObjectId is 12 bytes.';
  END IF;
  RETURN CAST(pg_catalog.encode($1, 'hex') AS idgen.objectid);
END
$$;
COMMENT ON FUNCTION idgen.objectid_from_bytea(bytea) IS 'the objectid of exactly 12 bytes';
