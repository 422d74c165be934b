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

-- A positioned sequence: every value below its next value counts as given (a load that ends with
-- setval(s, max + 1, false), START, RESTART), though pg_sequence_last_value() is NULL until called.
CREATE SEQUENCE p1;
SELECT setval('p1', 1000, false);
SELECT idgen.ticket_sequence('p1', 2, 3);
SELECT nextval('p1');
CREATE SEQUENCE p2 START 1000;
SELECT idgen.ticket_sequence('p2', 1, 2);
SELECT nextval('p2');
CREATE SEQUENCE p3;
SELECT nextval('p3');
ALTER SEQUENCE p3 RESTART 500;
SELECT idgen.ticket_sequence('p3', 3, 4);
SELECT nextval('p3');
CREATE SEQUENCE p4;
SELECT setval('p4', 1000, false);
SELECT idgen.range_sequence('p4', 0, 1000000);
SELECT nextval('p4');
CREATE SEQUENCE p5 START 1000;
SELECT idgen.range_sequence('p5', 1, 500);
SELECT nextval('p5');
SELECT idgen.range_sequence('p5', 2, 500);
\echo :LAST_ERROR_SQLSTATE
-- A set-up ticket sequence moved off its residue moves on to its next value in it.
SELECT setval('p1', 2000, false);
SELECT idgen.ticket_sequence('p1', 2, 3);
SELECT nextval('p1');
-- Exhausted: its next value is beyond its range.
CREATE SEQUENCE p6;
SELECT setval('p6', 100);
SELECT idgen.range_sequence('p6', 0, 100);
\echo :LAST_ERROR_SQLSTATE
-- A sequence that counts down is refused: which values it gave cannot be told.
CREATE SEQUENCE p7 INCREMENT -1;
SELECT idgen.ticket_sequence('p7', 1, 2);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.range_sequence('p7', 0, 100);
\echo :LAST_ERROR_SQLSTATE
-- Reading the position needs SELECT on the sequence, setting it up its ownership.
CREATE ROLE idgen_ticket_reader;
CREATE SEQUENCE p8;
GRANT USAGE ON SEQUENCE p8 TO idgen_ticket_reader;
SET ROLE idgen_ticket_reader;
\set VERBOSITY terse
SELECT idgen.ticket_sequence('p8', 1, 3);
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
GRANT SELECT ON SEQUENCE p8 TO idgen_ticket_reader;
SET ROLE idgen_ticket_reader;
SELECT idgen.ticket_sequence('p8', 1, 3);
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
\set VERBOSITY default
DROP OWNED BY idgen_ticket_reader;
DROP ROLE idgen_ticket_reader;

-- Each way of positioning a sequence: the first value after ticket_sequence and range_sequence is at
-- or above the next value the sequence would have given (a twin positioned the same way says which),
-- in the server's residue or range; or the setup is refused.
CREATE TABLE positionings (way text, statements text);
INSERT INTO positionings VALUES
  ('fresh', ''),
  ('used', 'SELECT nextval(''%1$s''); SELECT nextval(''%1$s'');'),
  ('setval', 'SELECT setval(''%1$s'', 1000);'),
  ('setval, not called', 'SELECT setval(''%1$s'', 1000, false);'),
  ('setval, not called, used', 'SELECT setval(''%1$s'', 1000, false); SELECT nextval(''%1$s'');'),
  ('start', 'ALTER SEQUENCE %1$s START 1000 RESTART;'),
  ('restart', 'SELECT nextval(''%1$s''); ALTER SEQUENCE %1$s RESTART 500;'),
  ('restart, used', 'ALTER SEQUENCE %1$s RESTART 500; SELECT nextval(''%1$s'');'),
  ('minvalue far', 'ALTER SEQUENCE %1$s MINVALUE 5000 START 5000 RESTART;'),
  ('minvalue below 1', 'ALTER SEQUENCE %1$s MINVALUE -100 START -100 RESTART;'),
  ('increment 5', 'ALTER SEQUENCE %1$s INCREMENT 5; SELECT nextval(''%1$s''); SELECT nextval(''%1$s'');'),
  ('increment 5, start', 'ALTER SEQUENCE %1$s INCREMENT 5 START 1000 RESTART;'),
  ('counts down', 'ALTER SEQUENCE %1$s INCREMENT -1 MINVALUE -10 MAXVALUE 2000 START 2000 RESTART; SELECT nextval(''%1$s'');'),
  ('as integer', 'ALTER SEQUENCE %1$s AS integer START 70000 RESTART;');
CREATE FUNCTION first_after(way_ text, setup text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  statements text := (SELECT p.statements FROM positionings p WHERE p.way = way_);
  would bigint;
  first bigint;
BEGIN
  CREATE SEQUENCE pos_a;
  CREATE SEQUENCE pos_b;
  IF statements <> '' THEN
    EXECUTE format(statements, 'pos_a');
    EXECUTE format(statements, 'pos_b');
  END IF;
  would := nextval('pos_b');
  BEGIN
    IF setup = 'ticket' THEN
      PERFORM idgen.ticket_sequence('pos_a', 2, 3);
    ELSE
      PERFORM idgen.range_sequence('pos_a', 0, 1000000);
    END IF;
  EXCEPTION WHEN object_not_in_prerequisite_state THEN
    DROP SEQUENCE pos_a, pos_b;
    RETURN 'refused (' || SQLERRM || ')';
  END;
  first := nextval('pos_a');
  DROP SEQUENCE pos_a, pos_b;
  RETURN CASE WHEN first >= would AND (setup <> 'ticket' OR first % 3 = 2) AND (setup = 'ticket' OR first <= 1000000)
              THEN 'above' ELSE format('FAILS: %s, the sequence would have given %s', first, would) END;
END
$$;
SET client_min_messages = warning;
SELECT way, first_after(way, 'ticket') AS ticket, first_after(way, 'range') AS range FROM positionings;
RESET client_min_messages;
DROP FUNCTION first_after(text, text);
DROP TABLE positionings;

-- Through idgen: nextval() on a server that was never promoted; after a failover it refuses until
-- sequence_resume() moves the sequence past the old primary (t/standby.pl). A sequence that is not
-- WAL-logged starts again after a crash: refused always.
CREATE SEQUENCE s1; SELECT idgen.ticket_sequence('s1', 2, 3);
SELECT idgen.sequence_nextval('s1') AS first, idgen.sequence_nextval('s1') AS second;
SELECT idgen.sequence_resume('s1', 10) AS resumed, idgen.sequence_nextval('s1') AS next,
       idgen.ticket_server(idgen.sequence_nextval('s1'), 3) AS server;
SELECT idgen.sequence_resume('s1', -1);
\echo :LAST_ERROR_SQLSTATE
CREATE SEQUENCE s2 MAXVALUE 100; SELECT idgen.sequence_resume('s2', 100);
\echo :LAST_ERROR_SQLSTATE
CREATE UNLOGGED SEQUENCE s3; SELECT idgen.sequence_nextval('s3');
\echo :LAST_ERROR_SQLSTATE
CREATE TEMP SEQUENCE s4; SELECT idgen.sequence_nextval('s4');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen.sequence_nextval('pg_class');
\echo :LAST_ERROR_SQLSTATE

DROP SEQUENCE t1, t2, t3, r1, r2, r3, r4, p1, p2, p3, p4, p5, p6, p7, p8, s1, s2, s3;
DROP EXTENSION idgen;
