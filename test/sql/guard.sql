-- The error door: every error kind reachable from SQL arrives with its SQLSTATE, its message, its
-- detail and hint, and the session carries on.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never

-- 22023 invalid_parameter_value
SELECT idgen.uuidv7_time('00000000-0000-4000-8000-000000000000');
\echo :LAST_ERROR_SQLSTATE

-- 22008 datetime_field_overflow
SELECT idgen.uuidv7_min('1900-01-01');
\echo :LAST_ERROR_SQLSTATE

-- Settings of idgen are reserved: a misspelt one is an error, not a silent placeholder.
SET idgen.no_such_setting = 1;
\echo :LAST_ERROR_SQLSTATE

DROP EXTENSION idgen;
