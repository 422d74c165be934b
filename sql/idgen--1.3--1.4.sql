-- idgen 1.3 -> 1.4. The complete 1.4 script is the complete 1.3 script and this one
-- (scripts/chain-scripts.sh): a fresh install runs what an update runs. Every name is
-- pg_catalog- or idgen-qualified; the script runs with search_path = idgen (CREATE EXTENSION).
\echo Use "ALTER EXTENSION idgen UPDATE TO '1.4'" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- The identity kept part by part: a database's copy records, with idgen.mark_server, the parts of
-- the identity that its values of the 64-bit layouts, UID20 and Instagram were made under (the
-- node ids, the UID20 digits and the Instagram shards: core/identity.hpp), so that another server
-- honors the copy for each family whose part could meet them, and no other.
---------------------------------------------------------------------------------------------------

CREATE SEQUENCE idgen.mark_parts AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen.mark_parts IS
'this database''s copy of the durable mark: the node ids and UID20 digits of the values it holds (with the shards in idgen.mark_server); written by idgen, carried by pg_dump and pg_upgrade';
SELECT pg_catalog.pg_extension_config_dump('idgen.mark_parts', '');
GRANT SELECT, UPDATE ON SEQUENCE idgen.mark_parts TO @extowner@;
GRANT SELECT ON SEQUENCE idgen.mark_parts TO PUBLIC;  -- whoever dumps the database reads it

COMMENT ON SEQUENCE idgen.mark_server IS
'this database''s copy of the durable mark: who wrote idgen.mark and idgen.mark_identity (a run of a server) and the Instagram shards of the values it holds (idgen 1.3: a hash of the identity; 1.2: the system identifier)';

---------------------------------------------------------------------------------------------------
-- Ticket and range sequences across a failover. Their values are PostgreSQL's: an asynchronous
-- standby may lack the last ones its primary gave, and nothing tells how many. Through
-- idgen.sequence_nextval(), a sequence that has given no value since this server's WAL timeline
-- began (a promotion, a recovery to a point in time) is refused until idgen.sequence_resume() (or
-- setval()) has set it past what the old primary gave; an unlogged or temporary one always is.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.sequence_nextval(seq pg_catalog.regclass) RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'idgen_sequence_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION idgen.sequence_nextval(pg_catalog.regclass) IS
'nextval() of a sequence, refused after a failover until idgen.sequence_resume() sets it past what the old primary gave, and for a sequence that is not WAL-logged';

-- The position is read as ticket_sequence reads it (locked by its OID, SELECT or USAGE, its row's
-- tableoid the sequence); setval() needs UPDATE, and writes the sequence on this timeline.
CREATE FUNCTION idgen.sequence_resume(seq pg_catalog.regclass, skip pg_catalog.int8)
RETURNS pg_catalog.int8
LANGUAGE plpgsql VOLATILE STRICT SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s record;
  pos record;
  next pg_catalog.numeric;
  resumed pg_catalog.numeric;
BEGIN
  IF skip OPERATOR(pg_catalog.<) 0 THEN
    RAISE EXCEPTION 'cannot skip % values', skip
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Give how many of its values to skip, 0 or more.';
  END IF;
  SELECT p.* INTO s FROM pg_catalog.pg_sequence p WHERE p.seqrelid OPERATOR(pg_catalog.=) seq;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not a sequence', seq USING ERRCODE = 'wrong_object_type';
  END IF;
  IF s.seqincrement OPERATOR(pg_catalog.<) 0 THEN
    RAISE EXCEPTION 'sequence % counts down (increment %)', seq, s.seqincrement
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Which values a sequence that counts down gave cannot be told from its position.';
  END IF;
  PERFORM pg_catalog.pg_sequence_last_value(seq);  -- (locks it by its OID; SELECT or USAGE)
  EXECUTE pg_catalog.format('SELECT q.last_value, q.is_called, q.tableoid FROM %s q', seq) INTO pos;
  IF pos.tableoid OPERATOR(pg_catalog.<>) seq::pg_catalog.oid THEN
    RAISE EXCEPTION 'sequence % changed while it was read', seq USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  next := CASE WHEN pos.is_called THEN pos.last_value::pg_catalog.numeric OPERATOR(pg_catalog.+) s.seqincrement
               ELSE pos.last_value::pg_catalog.numeric END;
  -- (skipped in steps of its increment: a ticket server keeps its residue; OPERATOR() binds every
  -- operator alike, from the left: the parentheses give the order)
  resumed := next OPERATOR(pg_catalog.+) (skip::pg_catalog.numeric OPERATOR(pg_catalog.*) s.seqincrement);
  IF resumed OPERATOR(pg_catalog.>) s.seqmax THEN
    RAISE EXCEPTION 'sequence % has no value left after skipping %', seq, skip
      USING ERRCODE = 'numeric_value_out_of_range',
            DETAIL = pg_catalog.format('Its next value would be %s, beyond its maximum %s.', resumed, s.seqmax);
  END IF;
  PERFORM pg_catalog.setval(seq, resumed::pg_catalog.int8, false);
  RETURN resumed::pg_catalog.int8;
END
$$;
COMMENT ON FUNCTION idgen.sequence_resume(pg_catalog.regclass, pg_catalog.int8) IS
'after a failover: moves a sequence past what the old primary gave, skipping that many of its values (0 after a switchover), and returns its next value';

---------------------------------------------------------------------------------------------------
-- The way out of a copy far ahead of the clock (a database restored from a server whose clock ran
-- ahead): refused until the clock passes it, or carried on above, ahead of the clock, once a
-- superuser has the server adopt it. And the drop guard: the library checks each drop of what holds
-- the copy (its object access hook, in every mode); the event trigger loads the library first, for
-- every statement that can drop it.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.adopt_copy() RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'idgen_adopt_copy'
LANGUAGE C VOLATILE STRICT;
REVOKE ALL ON FUNCTION idgen.adopt_copy() FROM PUBLIC;
COMMENT ON FUNCTION idgen.adopt_copy() IS
'superuser only: this server carries on above this database''s copy of the durable mark, however far ahead of the clock (its IDs then lie ahead of the clock until it catches up)';

DROP EVENT TRIGGER idgen_drop_guard;
CREATE EVENT TRIGGER idgen_drop_guard ON ddl_command_start
  WHEN TAG IN ('DROP EXTENSION', 'DROP OWNED', 'DROP SCHEMA', 'DROP SEQUENCE', 'ALTER EXTENSION')
  EXECUTE FUNCTION idgen.drop_guard();
COMMENT ON EVENT TRIGGER idgen_drop_guard IS
'loads idgen''s library before a statement that can drop this database''s copy of the durable mark, whose every drop the library checks';
COMMENT ON FUNCTION idgen.drop_guard() IS
'event trigger: loads idgen''s library, whose object access hook refuses each drop of this database''s copy of the durable mark while it records IDs that this server has not passed; lets every drop go on, with a warning, when the library cannot be loaded';
COMMENT ON FUNCTION idgen.drop_guard_check(pg_catalog.text, pg_catalog.bool) IS
'for idgen.drop_guard(): loads the library (its object access hook checks each drop)';

---------------------------------------------------------------------------------------------------
-- Public UUIDs: a UUIDv7, time-ordered where it is stored, shown as a version-4-shaped façade that
-- hides its time (uuidv47's mapping, or idgen's opaque one), and back, under idgen.public_uuid_key.
-- Capabilities, not PUBLIC's: the façade of a UUID of the caller's choosing unmasks every façade with
-- the same random bits, and reading a façade reads its time. The key is not given to parallel workers.
-- A reading is never quoted in an error: the typeid forms take the prefix the caller expects and
-- compare it before they read the body, so that no check of the prefix after them can refuse it.
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

CREATE FUNCTION idgen.private_typeid(value text, prefix text) RETURNS text
AS 'MODULE_PATHNAME', 'idgen_private_typeid'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.private_typeid(text, text) IS
'the typeid whose façade this is, which must have the prefix given (the inverse of idgen.public_typeid(text))';

CREATE FUNCTION idgen.public_typeid(id idgen.type_id) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_public_typeid_native'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.public_typeid(idgen.type_id) IS
'a type_id whose UUID is a UUIDv7, with the UUID''s façade: the prefix kept';

CREATE FUNCTION idgen.private_typeid(id idgen.type_id, prefix text) RETURNS idgen.type_id
AS 'MODULE_PATHNAME', 'idgen_private_typeid_native'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen.private_typeid(idgen.type_id, text) IS
'the type_id whose façade this is, which must have the prefix given (the inverse of idgen.public_typeid(idgen.type_id))';

REVOKE EXECUTE ON FUNCTION idgen.public_uuid(uuid), idgen.private_uuid(uuid), idgen.private_uuid_candidates(uuid),
  idgen.public_typeid(text), idgen.private_typeid(text, text), idgen.public_typeid(idgen.type_id),
  idgen.private_typeid(idgen.type_id, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.public_uuid(uuid), idgen.private_uuid(uuid), idgen.private_uuid_candidates(uuid),
  idgen.public_typeid(text), idgen.private_typeid(text, text), idgen.public_typeid(idgen.type_id),
  idgen.private_typeid(idgen.type_id, text) TO @extowner@ WITH GRANT OPTION;

---------------------------------------------------------------------------------------------------
-- On a server that has made IDs, a new copy of the durable mark starts at the server's leases,
-- under this run and the parts its lease holds, before the extension is used: a dump made before
-- the database's next ID then still covers the rows it held before a DROP EXTENSION. Only a copy
-- that nothing set yet is started (an update keeps the copy it has); an error is the statement's.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.start_copy() RETURNS pg_catalog.void
AS 'MODULE_PATHNAME', 'idgen_start_copy'
LANGUAGE C VOLATILE STRICT;
REVOKE ALL ON FUNCTION idgen.start_copy() FROM PUBLIC;
COMMENT ON FUNCTION idgen.start_copy() IS
'for CREATE EXTENSION: starts this database''s copy of the durable mark at the server''s leases, where nothing set it yet';
SELECT idgen.start_copy();
