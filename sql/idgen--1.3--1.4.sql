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
