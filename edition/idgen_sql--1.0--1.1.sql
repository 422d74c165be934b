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
            DETAIL = 'A façade carries the times of UUIDv7s before 2109-05-15 07:35:11.104 UTC: the bits above them tell a façade made under another key.';
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
              ' decodes to a time after 2109-05-15, which no façade carries: it was made under another key, or altered, or it is not a façade (a random UUIDv4 is refused 63 times in 64).'),
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

CREATE FUNCTION idgen.private_typeid(value text, key text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
RETURN idgen.edition_public_typeid(value, key, false);
COMMENT ON FUNCTION idgen.private_typeid(text, text) IS
'the typeid whose façade this is (the inverse of idgen.public_typeid(text, text))';
