-- Ticket servers and partitioned sequences.
CREATE EXTENSION idgen;
\set SHOW_CONTEXT never

-- The Flickr way: server k of n starts at k and steps by n.
CREATE SEQUENCE t1;
SELECT idgen.ticket_sequence('t1', 2, 3);
SELECT array_agg(nextval('t1')) AS values FROM generate_series(1, 4);
SELECT array_agg(idgen.ticket_server(v, 3)) FROM unnest(ARRAY[2, 5, 8, 11, 1, 3]) AS v;
SELECT idgen.ticket_sequence('t1', 2, 3);  -- the same setup again: nothing to do
SELECT nextval('t1');
-- A plain counter that gave values: it moves on above them, in its residue.
CREATE SEQUENCE t2;
SELECT nextval('t2') FROM generate_series(1, 10) OFFSET 9;
SELECT idgen.ticket_sequence('t2', 1, 4);
SELECT nextval('t2');
-- Refused: impossible or overlapping setups.
SELECT idgen.ticket_sequence('t1', 4, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ticket_sequence('t1', 0, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ticket_sequence('t1', 1, 5);
\echo :LAST_ERROR_SQLSTATE
CREATE SEQUENCE t3 CYCLE;
SELECT idgen.ticket_sequence('t3', 1, 2);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ticket_sequence('pg_class', 1, 2);
\echo :LAST_ERROR_SQLSTATE

-- The trillion-per-shard way: server k (from 0) owns k * range + 1 .. (k + 1) * range.
CREATE SEQUENCE r1;
SELECT idgen.range_sequence('r1', 3, 1000000000000);
SELECT nextval('r1'), nextval('r1');
SELECT idgen.range_server(3000000000001, 1000000000000), idgen.range_server(1, 1000000000000),
       idgen.range_server(1000000000000, 1000000000000), idgen.range_server(1000000000001, 1000000000000);
SELECT idgen.range_sequence('r1', 3, 1000000000000);  -- again: carries on
SELECT nextval('r1');
CREATE SEQUENCE r2 AS int;
SELECT idgen.range_sequence('r2', 1, 1000);
SELECT nextval('r2');
-- Its range ends: the sequence refuses to go on.
CREATE SEQUENCE r3;
SELECT idgen.range_sequence('r3', 0, 2);
SELECT nextval('r3'), nextval('r3');
SELECT nextval('r3');
\echo :LAST_ERROR_SQLSTATE
-- Refused: values of another server's range, a range beyond the type, impossible arguments.
CREATE SEQUENCE r4;
SELECT nextval('r4');
SELECT idgen.range_sequence('r4', 1, 100);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.range_sequence('r2', 5000000, 1000);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.range_sequence('r1', 9223372, 1000000000000);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.range_sequence('r1', -1, 10);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.ticket_server(0, 3) IS NULL AS zero_is_no_ticket;

DROP SEQUENCE t1, t2, t3, r1, r2, r3, r4;
DROP EXTENSION idgen;
