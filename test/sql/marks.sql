-- This database's copy of the durable mark (idgen.mark, idgen.mark_server), on one server. A copy
-- that this run of the server did not write and that lies ahead of it (a restored dump of a server
-- whose clock was ahead, a dump restored into a copy of its server) makes every family that could
-- repeat it wait for the clock, or refuse when it lies further ahead than
-- idgen.max_clock_regression (55000); DROP EXTENSION is refused while it is there (dropped and
-- created again, idgen would forget it: issue 29.4). (test/t/marks.pl: restores, clones, restarts.)
CREATE ROLE idgen_marks_owner;
GRANT CREATE ON DATABASE idgen_regression TO idgen_marks_owner;
SET ROLE idgen_marks_owner;
CREATE EXTENSION idgen;
RESET ROLE;
\set SHOW_CONTEXT never
SELECT setval('idgen.mark', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint) > 0 AS ahead,
       setval('idgen.mark_server', 42) = 42 AS written_elsewhere;
\c
\set VERBOSITY sqlstate
SELECT idgen.snowflake_id();
SELECT idgen.uuidv7();
\set VERBOSITY terse
DROP EXTENSION idgen;
\echo :LAST_ERROR_SQLSTATE
-- ... the owner's DROP OWNED too.
DROP OWNED BY idgen_marks_owner;
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
-- A copy that lies behind the clock is passed: every family goes on, the drop too.
SELECT setval('idgen.mark', 1) = 1 AS behind;
\c
SELECT idgen.snowflake_id() > 0 AS goes_on, idgen.uuidv7() IS NOT NULL AS uuidv7_too;
SELECT (last_value >> 63) <> 0 AS written_by_this_run FROM idgen.mark_server;
DROP OWNED BY idgen_marks_owner;
SELECT count(*) AS dropped FROM pg_extension WHERE extname = 'idgen';
REVOKE CREATE ON DATABASE idgen_regression FROM idgen_marks_owner;
DROP ROLE idgen_marks_owner;
