# Restart and crash (test/run.sh drives the phases): IDs made after a clean restart, and after a
# crash (immediate stop, crash recovery), are distinct from and greater than every ID made before.
source "$(dirname "$0")/lib.sh"
KEEP_DB=1
export PGDATABASE=idgen_multi_restart
# The throwaway cluster commits asynchronously; these rows must survive the crash.
export PGOPTIONS="-c synchronous_commit=on"

case "$IDGEN_PHASE" in
  before)
    fresh_db restart
    q -c "CREATE TABLE r (phase int NOT NULL, u uuid PRIMARY KEY DEFAULT idgen.uuidv7(),
                          i bigint UNIQUE DEFAULT idgen.instagram_id(3), s bigint UNIQUE DEFAULT idgen.snowflake_id())"
    q -c "INSERT INTO r (phase) SELECT 1 FROM generate_series(1, 1000)"
    pass "1000 rows before the restart"
    ;;
  restarted)
    q -c "INSERT INTO r (phase) SELECT 2 FROM generate_series(1, 1000)"
    pass "1000 rows after a clean restart"
    ;;
  crashed)
    q -c "INSERT INTO r (phase) SELECT 3 FROM generate_series(1, 1000)"
    expect "rows that survived and were added" 3000 "$(q -c 'SELECT count(*) FROM r')"
    # uuid has no min/max: its text in the C collation sorts like its bytes.
    for column in 'u::text COLLATE "C"' i s; do
      expect "distinct $column" 3000 "$(q -c "SELECT count(DISTINCT $column) FROM r")"
      expect "phases whose $column all exceed the previous phase's" 2 "$(q -c "
        SELECT count(*) FROM (SELECT phase, min($column) AS lo, lag(max($column)) OVER (ORDER BY phase) AS prev_hi
                              FROM r GROUP BY phase) s WHERE lo > prev_hi")"
    done
    KEEP_DB=""
    ;;
esac
