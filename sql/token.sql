-- Signed tokens: HMAC-SHA256 under idgen.token_secret, verified in constant time.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never

-- No secret: a clear error, never a token signed with an empty key.
SELECT idgen.signed_token('reset');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.verify_token('reset_x');
\echo :LAST_ERROR_SQLSTATE
SET idgen.token_secret = 'too short';
SELECT idgen.signed_token('reset');
\echo :LAST_ERROR_SQLSTATE

SET idgen.token_secret = '6d3c0b9f1e2a4c5b8d7e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
CREATE TEMP TABLE t AS SELECT idgen.signed_token('reset') AS token;
SELECT token ~ '^reset_[0-9A-Za-z]{86}$' AS shape, idgen.verify_token(token) AS verifies FROM t;

-- Flipping any one character, anywhere, makes it fail.
SELECT count(*) AS positions, count(*) FILTER (WHERE idgen.verify_token(flipped)) AS still_verify
FROM t, generate_series(1, length(token)) AS i,
     LATERAL (SELECT overlay(token PLACING CASE WHEN substr(token, i, 1) = 'a' THEN 'b' ELSE 'a' END FROM i FOR 1)) AS f(flipped);

-- Not shaped like a token: false, not an error.
SELECT idgen.verify_token(v) FROM (VALUES (''), ('reset'), ('reset_' || repeat('0', 86)), ((SELECT token || '0' FROM t))) AS x(v);

-- Another secret: every earlier token fails.
SET idgen.token_secret = 'another secret, also at least thirty-two bytes long';
SELECT idgen.verify_token(token) AS verifies_under_another_secret FROM t;
RESET idgen.token_secret;

SET idgen.token_secret = '6d3c0b9f1e2a4c5b8d7e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
SELECT count(DISTINCT idgen.signed_token('session')) AS distinct_tokens FROM generate_series(1, 1000);
SELECT idgen.signed_token('Reset');
\echo :LAST_ERROR_SQLSTATE

-- The secret is the superuser's: others can neither read nor set it, but they can sign and verify.
ALTER SYSTEM SET idgen.token_secret = '6d3c0b9f1e2a4c5b8d7e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
CREATE ROLE idgen_token_user;
GRANT SELECT ON t TO idgen_token_user;
SET ROLE idgen_token_user;
SHOW idgen.token_secret;
\echo :LAST_ERROR_SQLSTATE
SELECT current_setting('idgen.token_secret');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM pg_settings WHERE name = 'idgen.token_secret';
SET idgen.token_secret = 'a different secret of at least thirty-two bytes';
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.verify_token(token) AS verifies FROM t;
RESET ROLE;
ALTER SYSTEM RESET idgen.token_secret;
DROP TABLE t;
DROP ROLE idgen_token_user;
DROP EXTENSION idgen;
