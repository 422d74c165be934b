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

-- XX000 could not generate random values (idgen.debug_fault makes the random source fail)
SET idgen.debug_fault = 'random';
SELECT idgen.uuidv7();
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.uuidv7(timestamptz '2026-01-01');
\echo :LAST_ERROR_SQLSTATE

-- 53200 out_of_memory (std::bad_alloc)
SET idgen.debug_fault = 'out_of_memory';
SELECT idgen.uuidv7();
\echo :LAST_ERROR_SQLSTATE

-- XX000 internal error (any other C++ exception)
SET idgen.debug_fault = 'internal';
SELECT idgen.uuidv7();
\echo :LAST_ERROR_SQLSTATE

-- The backend survived every one of them, and works again once the fault is gone.
RESET idgen.debug_fault;
SELECT substr(idgen.uuidv7()::text, 15, 1) AS version;

-- Settings of idgen are reserved: a misspelt one is an error, not a silent placeholder.
SET idgen.no_such_setting = 1;
\echo :LAST_ERROR_SQLSTATE

-- The fault setting is for superusers only.
CREATE ROLE idgen_guard_user;
SET ROLE idgen_guard_user;
SET idgen.debug_fault = 'random';
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE idgen_guard_user;

DROP EXTENSION idgen;
