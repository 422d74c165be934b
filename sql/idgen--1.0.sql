-- idgen 1.0: unique IDs generated inside PostgreSQL. Every object lives in schema idgen.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

---------------------------------------------------------------------------------------------------
-- UUIDv7 (RFC 9562)
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.uuidv7() RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7() IS
'a new UUIDv7: Unix milliseconds, a sub-millisecond fraction and 62 random bits; strictly increasing across the cluster when idgen is preloaded, per session otherwise';

CREATE FUNCTION idgen.uuidv7("at" timestamptz) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7(timestamptz) IS
'a new UUIDv7 for the given instant (for backfills); its random bits are still random';

CREATE FUNCTION idgen.uuidv7_time(id uuid) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_uuidv7_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7_time(uuid) IS
'the instant a UUIDv7 holds, to the microsecond; an error for other UUID versions';

CREATE FUNCTION idgen.uuidv7_min("at" timestamptz) RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.uuidv7_min(timestamptz) IS
'the smallest UUIDv7 at the given instant, the bound of a primary-key range scan';

---------------------------------------------------------------------------------------------------
-- Observability
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.stats(
    OUT family text, OUT scope text, OUT issued bigint, OUT exhaustion_waits bigint,
    OUT clock_regressions bigint, OUT max_clock_regression interval)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'idgen_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.stats() IS
'per generator family: IDs issued, waits for an exhausted sequence, calls that found the clock behind the last ID and the largest such gap';

CREATE VIEW idgen.stats AS SELECT * FROM idgen.stats();
COMMENT ON VIEW idgen.stats IS
'per generator family: IDs issued, waits for an exhausted sequence, clock regressions; cluster-wide when idgen is preloaded, this session''s otherwise';
