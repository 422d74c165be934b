-- idgen 1.0: unique IDs generated inside PostgreSQL. Every object lives in schema idgen.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- Every role may use idgen's functions and types; settings that could cause collisions are the
-- superuser's.
GRANT USAGE ON SCHEMA idgen TO PUBLIC;

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
-- 64-bit layouts: Instagram, Snowflake, Sonyflake, TraceId. Generators need the library preloaded
-- (their state is in shared memory); decoders and bounds read the epoch setting, hence STABLE.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.instagram_id(shard bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_instagram_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.instagram_id(bigint) IS
'a new Instagram ID: 41-bit milliseconds since 2011-08-24 21:07:01.721 UTC, 13-bit shard, 10-bit sequence per shard';

CREATE FUNCTION idgen.instagram_parse(id bigint, OUT ts timestamptz, OUT shard int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_instagram_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.instagram_parse(bigint) IS
'the time, shard and sequence of an Instagram ID, under the epoch setting idgen.instagram_epoch_ms';

CREATE FUNCTION idgen.instagram_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_instagram_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.instagram_min(timestamptz) IS
'the smallest Instagram ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.snowflake_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_snowflake_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.snowflake_id() IS
'a new Snowflake ID: 41-bit milliseconds since 2010-11-04 01:42:54.657 UTC, 10-bit node (idgen.node_id), 12-bit sequence';

CREATE FUNCTION idgen.snowflake_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_snowflake_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.snowflake_parse(bigint) IS
'the time, node and sequence of a Snowflake ID, under the epoch setting idgen.snowflake_epoch_ms';

CREATE FUNCTION idgen.snowflake_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_snowflake_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.snowflake_min(timestamptz) IS
'the smallest Snowflake ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.sonyflake_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_sonyflake_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.sonyflake_id() IS
'a new Sonyflake ID: 39 bits of 10 ms since 2014-09-01 UTC, 8-bit sequence, 16-bit machine id (idgen.node_id)';

CREATE FUNCTION idgen.sonyflake_parse(id bigint, OUT ts timestamptz, OUT machine_id int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_sonyflake_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.sonyflake_parse(bigint) IS
'the time, machine id and sequence of a Sonyflake ID, under the epoch setting idgen.sonyflake_epoch_ms';

CREATE FUNCTION idgen.sonyflake_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_sonyflake_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.sonyflake_min(timestamptz) IS
'the smallest Sonyflake ID at the given instant, the bound of a primary-key range scan';

CREATE FUNCTION idgen.trace_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_trace_id'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.trace_id() IS
'a new TraceId ID: 25-bit seconds that wrap every 388 days, 16-bit node (idgen.node_id), 22-bit counter; unique within one wrap period';

CREATE FUNCTION idgen.trace_parse(id bigint, OUT ts timestamptz, OUT node int, OUT seq int) RETURNS record
AS 'MODULE_PATHNAME', 'idgen_trace_parse'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.trace_parse(bigint) IS
'the time, node and sequence of a TraceId ID, under the epoch setting idgen.trace_epoch_ms';

CREATE FUNCTION idgen.trace_min("at" timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_trace_min'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idgen.trace_min(timestamptz) IS
'the smallest TraceId ID at the given instant, the bound of a primary-key range scan';

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
GRANT SELECT ON idgen.stats TO PUBLIC;
COMMENT ON VIEW idgen.stats IS
'per generator family: IDs issued, waits for an exhausted sequence, clock regressions; cluster-wide when idgen is preloaded, this session''s otherwise';
