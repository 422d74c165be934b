-- Signed tokens: HMAC-SHA256 under idgen.token_secret, verified in constant time. The secret is set
-- in the server's configuration only, and no one reads it: SHOW and pg_settings print ******** even to a
-- superuser.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never
-- A reload reaches this session between two statements: these run up to 250 short statements
-- until the session has a secret, or has none.
\set wait_until_set 'SELECT ''SELECT pg_sleep(0.02) WHERE current_setting(''''idgen.token_secret'''') = '''''''''' FROM generate_series(1, 250) \\gexec'
\set wait_until_unset 'SELECT ''SELECT pg_sleep(0.02) WHERE current_setting(''''idgen.token_secret'''') <> '''''''''' FROM generate_series(1, 250) \\gexec'

-- No secret: a clear error, never a token signed with an empty key.
SELECT idgen.signed_token('reset');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.verify_token('reset_x');
\echo :LAST_ERROR_SQLSTATE

-- Set only in the server's configuration, its length checked when it is set, its value never
-- echoed back.
SET idgen.token_secret = '6d3c0b9f1e2a4c5b8d7e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
\echo :LAST_ERROR_SQLSTATE
ALTER DATABASE idgen_regression SET idgen.token_secret = '6d3c0b9f1e2a4c5b8d7e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
\echo :LAST_ERROR_SQLSTATE
CREATE ROLE idgen_token_user;
ALTER ROLE idgen_token_user SET idgen.token_secret = '6d3c0b9f1e2a4c5b8d7e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS stored_per_database_or_role FROM pg_db_role_setting, unnest(setconfig) AS c WHERE c LIKE 'idgen.%';
ALTER SYSTEM SET idgen.token_secret = 'too short, and not to be seen';
\echo :LAST_ERROR_SQLSTATE

ALTER SYSTEM SET idgen.token_secret = '6d3c0b9f1e2a4c5b8d7e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
SELECT pg_reload_conf();
\set ECHO none
\o /dev/null
:wait_until_set
\o
\set ECHO all
SHOW idgen.token_secret;
SELECT setting, reset_val, boot_val, context FROM pg_settings WHERE name = 'idgen.token_secret';

CREATE TEMP TABLE t AS SELECT idgen.signed_token('reset') AS token;
SELECT token ~ '^reset_[0-9A-Za-z]{86}$' AS shape, idgen.verify_token(token) AS verifies FROM t;

-- Flipping any one character, anywhere, makes it fail.
SELECT count(*) AS positions, count(*) FILTER (WHERE idgen.verify_token(flipped)) AS still_verify
FROM t, generate_series(1, length(token)) AS i,
     LATERAL (SELECT overlay(token PLACING CASE WHEN substr(token, i, 1) = 'a' THEN 'b' ELSE 'a' END FROM i FOR 1)) AS f(flipped);

-- Not shaped like a token: false, not an error.
SELECT idgen.verify_token(v) FROM (VALUES (''), ('reset'), ('reset_' || repeat('0', 86)), ((SELECT token || '0' FROM t))) AS x(v);

SELECT count(DISTINCT idgen.signed_token('session')) AS distinct_tokens FROM generate_series(1, 1000);
SELECT idgen.signed_token('Reset');
\echo :LAST_ERROR_SQLSTATE

-- Nobody but a superuser reads it: a plain role gets an error by every route, a monitoring role
-- (pg_monitor, which holds pg_read_all_settings) sees a mask.
GRANT SELECT ON t TO idgen_token_user;
CREATE ROLE idgen_token_monitor IN ROLE pg_monitor;
SET ROLE idgen_token_user;
-- (the wording of this error changed in PostgreSQL 16: the SQLSTATE is what holds)
\set VERBOSITY sqlstate
SHOW idgen.token_secret;
SELECT current_setting('idgen.token_secret');
\set VERBOSITY default
SELECT count(*) FROM pg_settings WHERE name = 'idgen.token_secret';
SELECT count(*) FROM pg_file_settings WHERE name = 'idgen.token_secret';
\echo :LAST_ERROR_SQLSTATE
-- Tokens are a capability: signing is granted, not public; verifying is open to all.
SELECT idgen.signed_token('reset');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.verify_token(token) AS verifies FROM t;
SET ROLE idgen_token_monitor;
SHOW idgen.token_secret;
SELECT current_setting('idgen.token_secret');
SELECT setting, reset_val, boot_val FROM pg_settings WHERE name = 'idgen.token_secret';
RESET ROLE;
GRANT EXECUTE ON FUNCTION idgen.signed_token(text) TO idgen_token_user;
SET ROLE idgen_token_user;
SELECT idgen.verify_token(idgen.signed_token('invite')) AS a_granted_role_signs;
RESET ROLE;

-- Another secret: every earlier token fails.
ALTER SYSTEM SET idgen.token_secret = 'another secret, also at least thirty-two bytes long';
SELECT pg_reload_conf();
\set ECHO none
\o /dev/null
SELECT 'SELECT pg_sleep(0.02) WHERE idgen.verify_token(' || quote_literal(token) || ')' FROM t, generate_series(1, 250) \gexec
\o
\set ECHO all
SELECT idgen.verify_token(token) AS verifies_under_another_secret FROM t;

-- Removed from the configuration: no secret again.
ALTER SYSTEM RESET idgen.token_secret;
SELECT pg_reload_conf();
\set ECHO none
\o /dev/null
:wait_until_unset
\o
\set ECHO all
SELECT idgen.signed_token('reset');
\echo :LAST_ERROR_SQLSTATE

-- Parallel workers never hold the secret: the functions run in the leader.
SELECT p.proname, p.proparallel, has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute
FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname IN ('signed_token', 'verify_token') ORDER BY 1;

DROP TABLE t;
REVOKE EXECUTE ON FUNCTION idgen.signed_token(text) FROM idgen_token_user;
DROP ROLE idgen_token_user;
DROP ROLE idgen_token_monitor;
DROP EXTENSION idgen;
