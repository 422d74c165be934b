-- The error door under a fault of the random source (idgen.debug_fault, only in a build for the
-- tests: make IDGEN_DEBUG=1): each error kind arrives with its SQLSTATE and message, and the session
-- carries on.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never

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

-- The fault setting is for superusers only.
CREATE ROLE idgen_debug_fault_user;
SET ROLE idgen_debug_fault_user;
SET idgen.debug_fault = 'random';
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE idgen_debug_fault_user;

DROP EXTENSION idgen;
