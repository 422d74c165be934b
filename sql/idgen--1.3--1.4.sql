-- idgen 1.3 -> 1.4. The complete 1.4 script is the complete 1.3 script and this one
-- (scripts/chain-scripts.sh): a fresh install runs what an update runs. Every name is
-- pg_catalog- or idgen-qualified; the script runs with search_path = idgen (CREATE EXTENSION).
\echo Use "ALTER EXTENSION idgen UPDATE TO '1.4'" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- Public UUIDs: a UUIDv7, time-ordered where it is stored, shown as a version-4-shaped façade that
-- hides its time (uuidv47's mapping, or idgen's opaque one), and back, under idgen.public_uuid_key.
-- Capabilities, not PUBLIC's: the façade of a UUID of the caller's choosing unmasks every façade with
-- the same random bits, and reading a façade reads its time. The key is not given to parallel workers.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.public_uuid(id uuid) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_uuid'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.public_uuid(uuid) IS
'the façade of a UUIDv7: a version-4-shaped UUID that hides its time, under the server''s key idgen.public_uuid_key (idgen.private_uuid reverses it)';

CREATE FUNCTION idgen.private_uuid(facade uuid) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_private_uuid'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.private_uuid(uuid) IS
'the UUIDv7 whose façade this is, under the first key of idgen.public_uuid_key that reads it (the inverse of idgen.public_uuid)';

CREATE FUNCTION idgen.private_uuid_candidates(facade uuid) RETURNS uuid[]
AS 'MODULE_PATHNAME', 'idgen_private_uuid_candidates'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.private_uuid_candidates(uuid) IS
'every UUIDv7 a façade reads as under the keys of idgen.public_uuid_key, the first key''s first: for lookups while keys rotate (WHERE id = ANY (...))';

CREATE FUNCTION idgen.public_typeid(value text) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_public_typeid'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.public_typeid(text) IS
'a typeid whose body is a UUIDv7, with the body''s façade: the prefix and the encoding kept';

CREATE FUNCTION idgen.private_typeid(value text) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_private_typeid'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.private_typeid(text) IS
'the typeid whose façade this is (the inverse of idgen.public_typeid(text))';

CREATE FUNCTION idgen.public_typeid(id idgen.type_id) RETURNS idgen.type_id
LANGUAGE sql STABLE STRICT PARALLEL RESTRICTED
RETURN idgen.type_id_from_uuid(idgen.type_id_prefix(id), idgen.public_uuid(idgen.type_id_uuid(id)));
COMMENT ON FUNCTION idgen.public_typeid(idgen.type_id) IS
'a type_id whose UUID is a UUIDv7, with the UUID''s façade: the prefix kept';

CREATE FUNCTION idgen.private_typeid(id idgen.type_id) RETURNS idgen.type_id
LANGUAGE sql STABLE STRICT PARALLEL RESTRICTED
RETURN idgen.type_id_from_uuid(idgen.type_id_prefix(id), idgen.private_uuid(idgen.type_id_uuid(id)));
COMMENT ON FUNCTION idgen.private_typeid(idgen.type_id) IS
'the type_id whose façade this is (the inverse of idgen.public_typeid(idgen.type_id))';

REVOKE EXECUTE ON FUNCTION idgen.public_uuid(uuid), idgen.private_uuid(uuid), idgen.private_uuid_candidates(uuid),
  idgen.public_typeid(text), idgen.private_typeid(text), idgen.public_typeid(idgen.type_id),
  idgen.private_typeid(idgen.type_id) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.public_uuid(uuid), idgen.private_uuid(uuid), idgen.private_uuid_candidates(uuid),
  idgen.public_typeid(text), idgen.private_typeid(text), idgen.public_typeid(idgen.type_id),
  idgen.private_typeid(idgen.type_id) TO @extowner@ WITH GRANT OPTION;
