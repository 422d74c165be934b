# Ticket and range sequences, two "servers" each, 16 concurrent sessions taking values from both:
# the values of the two servers never meet, and each value names its server.
source "$(dirname "$0")/lib.sh"
fresh_db ticket
CLIENTS=16 PER_CLIENT=${PER_CLIENT:-50000}
PER=$((PER_CLIENT / 10))
q <<'SQL'
CREATE SEQUENCE a; CREATE SEQUENCE b; CREATE SEQUENCE c; CREATE SEQUENCE d;
SELECT idgen.ticket_sequence('a', 1, 2), idgen.ticket_sequence('b', 2, 2),
       idgen.range_sequence('c', 0, 1000000000), idgen.range_sequence('d', 1, 1000000000);
CREATE TABLE t (v bigint, scheme text, server int);
SQL
cat >"$WORK/t.sql" <<'SQL'
INSERT INTO t VALUES (nextval('a'), 'ticket', 1), (nextval('b'), 'ticket', 2), (nextval('c'), 'range', 0), (nextval('d'), 'range', 1);
SQL
bench_sessions $CLIENTS $PER "$WORK/t.sql"
expect "values" $((CLIENTS * PER * 4)) "$(q -c 'SELECT count(*) FROM t')"
expect "distinct values per scheme" "$((CLIENTS * PER * 2))|$((CLIENTS * PER * 2))" \
  "$(q -c "SELECT count(DISTINCT v) FILTER (WHERE scheme = 'ticket'), count(DISTINCT v) FILTER (WHERE scheme = 'range') FROM t")"
expect "values that name another server" 0 \
  "$(q -c "SELECT count(*) FROM t WHERE server <> CASE scheme WHEN 'ticket' THEN idgen.ticket_server(v, 2) ELSE idgen.range_server(v, 1000000000) END")"
