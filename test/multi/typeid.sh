# typeid under 16 concurrent sessions x 50 000 inserts into a text primary key: no error, no
# duplicate, every ID well-formed; preloaded, text order is cluster-wide generation order.
source "$(dirname "$0")/lib.sh"
fresh_db typeid
CLIENTS=16 PER_CLIENT=${PER_CLIENT:-50000}
TOTAL=$((CLIENTS * PER_CLIENT))

q <<'SQL'
CREATE SEQUENCE witness;
CREATE TABLE t (id text COLLATE "C" PRIMARY KEY DEFAULT idgen.typeid('post'), client int NOT NULL, witness bigint NOT NULL);
SQL
cat >"$WORK/insert.sql" <<'SQL'
SELECT nextval('witness') AS w \gset
INSERT INTO t (client, witness) VALUES (:client_id, :w);
SQL
bench_sessions $CLIENTS $PER_CLIENT "$WORK/insert.sql"
expect "rows" $TOTAL "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $TOTAL "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "distinct uuids" $TOTAL "$(q -c 'SELECT count(DISTINCT (idgen.typeid_parse(id)).id) FROM t')"
expect "well-formed" $TOTAL "$(q -c "SELECT count(*) FROM t WHERE idgen.typeid_is_valid(id, 'post') AND id ~ '^post_[0-9a-z]{25}\$'")"
expect "per-session order violations" 0 "$(session_order_violations t)"
if [ "$IDGEN_MODE" = preloaded ]; then
  expect "cluster-wide order violations" 0 "$(order_violations t)"
fi
