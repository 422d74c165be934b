# UUIDv7 under 8 concurrent sessions x 50 000 inserts into one primary key: no error, no duplicate;
# preloaded, cluster-wide order (an ID made after another returned is greater); not preloaded,
# per-session order. gen_random_uuid() through the same check proves the check can fail.
source "$(dirname "$0")/lib.sh"
fresh_db uuidv7
CLIENTS=8 PER_CLIENT=${PER_CLIENT:-50000}

witness_table t "uuid PRIMARY KEY DEFAULT idgen.uuidv7()"
witness_table control "uuid PRIMARY KEY DEFAULT gen_random_uuid()"
bench_sessions $CLIENTS $PER_CLIENT "$WORK/t.sql"

expect "rows" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(*) FROM t')"
expect "distinct ids" $((CLIENTS * PER_CLIENT)) "$(q -c 'SELECT count(DISTINCT id) FROM t')"
expect "version 7 ids" $((CLIENTS * PER_CLIENT)) "$(q -c "SELECT count(*) FROM t WHERE substr(id::text, 15, 1) = '7'")"
expect "per-session order violations" 0 "$(session_order_violations t)"
if state_is_shared; then
  expect "cluster-wide order violations" 0 "$(order_violations t)"
  expect "issued in idgen.stats at least" t "$(q -c "SELECT issued >= $((CLIENTS * PER_CLIENT)) FROM idgen.stats WHERE family = 'uuidv7'")"
fi

# The control: the same check on random UUIDs finds violations, so it is able to fail.
bench_sessions $CLIENTS 2000 "$WORK/control.sql" >/dev/null
[ "$(order_violations control)" -gt 0 ] && pass "the order check catches unordered IDs" ||
  fail "the order check found no violation among random UUIDs"

# The time inside a UUIDv7 follows the clock at any rate: never more than 1 ms ahead of the clock
# at the moment it is made, which idgen.stats measures in the generator (max_lead). In one session,
# also from outside, with clock_timestamp() read just before and just after each call: the lead
# against the clock read after is never more than the true lead, so it must be within 1 ms however
# the session is scheduled (the one against the clock read before, an upper bound that a preemption
# between the two reads inflates, is printed).
echo "-- the lead over the clock: one statement of 5 000 000 UUIDs, then 16 sessions flat out"
regressions_before=$(q -c "SELECT clock_regressions FROM idgen.stats WHERE family = 'uuidv7'")
read -r upper lower < <(q -F ' ' -c "
  SELECT round(extract(epoch FROM max(idgen.uuidv7_time(u) - b)) * 1000000),
         round(extract(epoch FROM max(idgen.uuidv7_time(u) - a)) * 1000000)
  FROM (SELECT clock_timestamp() AS b, idgen.uuidv7() AS u, clock_timestamp() AS a
        FROM generate_series(1, ${LEAD_ROWS:-5000000}) OFFSET 0) s")
echo 'SELECT count(idgen.uuidv7()) FROM generate_series(1, 200000);' >"$WORK/flat_out.sql"
bench_sessions 16 "${LEAD_TRANSACTIONS:-5}" "$WORK/flat_out.sql" >/dev/null
lead=$(q -c "SELECT extract(epoch FROM max_lead) * 1000000 FROM idgen.stats WHERE family = 'uuidv7'")
echo "maximum lead: one statement, from outside, between ${lower} and ${upper} us; the generator, all sessions: ${lead} us"
expect "lead of one statement within 1 ms" t "$(q -c "SELECT $lower <= 1000")"
expect "lead of the generator within 1 ms" t "$(q -c "SELECT $lead <= 1000")"
expect "clock regressions counted under load" "$regressions_before" \
  "$(q -c "SELECT clock_regressions FROM idgen.stats WHERE family = 'uuidv7'")"
