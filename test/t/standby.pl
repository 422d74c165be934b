# Standbys and failover. The durable marks replay on a physical standby. On a hot standby the
# 64-bit generators refuse (it has its primary's node id and shards) while UUIDv7, typeid and
# ObjectId work. A promoted standby's first IDs are above every ID whose mark reached it; with
# synchronous replication, above every ID the old primary returned, even in a transaction that
# never committed, and even with the new primary's clock 30 s behind.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my @generators = (
	[ instagram => 'idgen.instagram_id(3)' ],
	[ snowflake => 'idgen.snowflake_id()' ],
	[ sonyflake => 'idgen.sonyflake_id()' ],
	[ trace => 'idgen.trace_id()' ]);

sub max_ids {
	my ($node, $rows, $rollback) = @_;
	my $select = join(', ', map { "max($_->[1])" } @generators);
	my $sql = "SELECT $select FROM generate_series(1, $rows)";
	$sql = "BEGIN; $sql; ROLLBACK" if $rollback;
	return split /\|/, $node->safe_psql('postgres', $sql);
}

sub min_ids {
	my ($node, $rows) = @_;
	my $select = join(', ', map { "min($_->[1])" } @generators);
	return split /\|/, $node->safe_psql('postgres', "SELECT $select FROM generate_series(1, $rows)");
}

sub above {
	my ($what, $before, $after) = @_;
	for my $i (0 .. $#generators) {
		my $gap = $after->[$i] - $before->[$i];
		cmp_ok($gap, '>', 0, "$what: $generators[$i][0] above the old primary's IDs (gap $gap)");
	}
}

# ---- asynchronous streaming ---------------------------------------------------------------------
my $primary = idgen_node('primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION idgen');
$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
# Promoted, it starts idgen.failover_margin (10 s) beyond the last lease it received: the 64-bit
# families wait that out (within max_clock_regression) or refuse (beyond it) until the clock is there.
$standby->append_conf('postgresql.conf', "idgen.max_clock_regression = '60s'");
$standby->start;

my @before = max_ids($primary, 20000, 0);
$primary->wait_for_catchup($standby, 'replay');
is($standby->safe_psql('postgres', "SELECT last_value FROM idgen.mark"),
	$primary->safe_psql('postgres', "SELECT last_value FROM idgen.mark"),
	"the database's copy of the durable mark replays on the standby");
for my $g (@generators) {
	my $family = $g->[0];
	my ($state, $message, $hint) = sqlstate_of($standby, "SELECT $g->[1]");
	is($state, '55000', "hot standby: $family refuses");
	like($message, qr/^cannot generate \w+ IDs during recovery/, "hot standby: $message");
}
for my $call ('idgen.js_id()', 'idgen.uid20()', 'idgen.uid20_sec()', 'idgen.decimal_id()') {
	my ($state, $message) = sqlstate_of($standby, "SELECT $call");
	is($state, '55000', "hot standby: $call refuses ($message)");
}
is($standby->safe_psql('postgres',
		"SELECT idgen.uuidv7() IS NOT NULL AND idgen.typeid('post') LIKE 'post_%' AND idgen.objectid() IS NOT NULL"
		  . " AND length(idgen.ns_id(48)) = 22"),
	't', 'hot standby: UUIDv7, typeid, ObjectId and ns_id with 48 random bits work');
# ns_id on a standby is unique by its random bits alone (issue 20.7: primary and standby made 33,727
# duplicates at 0 bits, 118 at 8): fewer than 48 are refused there.
my ($ns_state, $ns_message) = sqlstate_of($standby, 'SELECT idgen.ns_id(8)');
is($ns_state, '55000', "hot standby: ns_id with 8 random bits refuses ($ns_message)");

$primary->stop('immediate');
$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
my @after = min_ids($standby, 1000);
above('promoted after catching up', \@before, \@after);

# ---- synchronous replication, the new primary's clock 30 s behind ---------------------------------
my $sync_primary = idgen_node('sync_primary', allows_streaming => 1);
$sync_primary->start;
$sync_primary->safe_psql('postgres', 'CREATE EXTENSION idgen');
$sync_primary->backup('base');
my $sync_standby = PostgreSQL::Test::Cluster->new('sync_standby');
$sync_standby->init_from_backup($sync_primary, 'base', has_streaming => 1);
$sync_standby->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nidgen.max_clock_regression = '60s'");
$sync_standby->start;
$sync_primary->append_conf('postgresql.conf', "synchronous_standby_names = 'sync_standby'\nsynchronous_commit = on");
$sync_primary->reload;
$sync_primary->poll_query_until('postgres',
	"SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'sync_standby'");

# IDs returned in a transaction that rolls back: nothing of them is committed, but their marks were
# flushed to the synchronous standby before they were returned.
my @returned = max_ids($sync_primary, 50000, 1);
$sync_primary->stop('immediate');
$sync_standby->stop;
with_clock_offset(-30, sub { $sync_standby->start });
$sync_standby->promote;
$sync_standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
@after = min_ids($sync_standby, 200);
above('synchronous standby promoted, its clock 30 s behind', \@returned, \@after);

# ---- a synchronous standby that is down (issue 20.1) ----------------------------------------------
# Every session that waits for its mark's confirmation answers statement_timeout, a cancel and a
# terminate (a wait that did not answer would hang the test until its timeout), and returns no ID; a session of another family, or another database,
# is not blocked behind a lock (1.1 held an LWLock across the wait: nothing could be cancelled).
use Time::HiRes qw(time);
use IPC::Run;
my $lonely = idgen_node('lonely', allows_streaming => 1);
$lonely->start;
$lonely->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE DATABASE second');
$lonely->safe_psql('second', 'CREATE EXTENSION idgen');
$lonely->append_conf('postgresql.conf', "synchronous_standby_names = 'nobody'\nsynchronous_commit = on");
$lonely->reload;
# The lease the server had before is used up after a second; every later one waits for 'nobody'.
sleep 2;

my $t0 = time;
my ($ret, $out, $err) = $lonely->psql('postgres', "SET statement_timeout = '1s'; SELECT idgen.snowflake_id()");
my $took = time - $t0;
like($err, qr/canceling statement due to statement timeout/, 'a standby that is down: statement_timeout answers');
note(sprintf('answered %.2f s after the statement began (its timeout: 1 s)', $took));
is($out, '', 'and no ID was returned');

# A session waiting, cancelled and then terminated by another; meanwhile a second session of
# another family in another database waits too (for the same reason), not on a lock.
sub waiting_session {
	my ($db, $sql, $name) = @_;
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start([ 'psql', '-XAtq', '-d', $lonely->connstr($db), '-c', "SET application_name = '$name'", '-c', $sql ],
		'<', \undef, '>', \$stdout, '2>', \$stderr);
	$lonely->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = '$name' AND wait_event IS NOT NULL AND state = 'active'")
	  or die "session $name did not start waiting";
	return ($h, \$stdout, \$stderr);
}
for my $how ([ cancel => 'pg_cancel_backend', qr/canceling statement due to user request/ ],
	[ terminate => 'pg_terminate_backend', qr/terminating connection due to administrator command|server closed the connection/ ]) {
	my ($name, $function, $expected) = @$how;
	my ($h, $stdout, $stderr) = waiting_session('postgres', 'SELECT idgen.instagram_id(3)', "waiter_$name");
	my ($h2, $stdout2, $stderr2) = waiting_session('second', 'SELECT idgen.uid20()', "other_$name");
	my $event = $lonely->safe_psql('postgres', "SELECT wait_event_type || '/' || wait_event FROM pg_stat_activity WHERE application_name = 'other_$name'");
	unlike($event, qr/^LWLock/, "a second session, another family and database, waits for the standby, not on a lock ($event)");
	my $start = time;
	$lonely->safe_psql('postgres', "SELECT $function(pid) FROM pg_stat_activity WHERE application_name IN ('waiter_$name', 'other_$name')");
	$h->finish;
	$h2->finish;
	my $elapsed = time - $start;
	like($$stderr, $expected, "$name answers a session waiting for the standby");
	like($$stderr2, $expected, "$name answers the second one too");
	note(sprintf("$name: both answered in %.2f s", $elapsed));
	is($$stdout . $$stdout2, '', "$name: no ID was returned");
}
# A lease written under another identity that never became durable: the reload gives node 12; the
# first session's renewal under it waits for the standby and is cancelled. Nothing of it may be
# published: a second session under node 12 waits too, and returns no ID (1.3 published the new
# identity before the flush, and the second session's IDs lay under a lease the origin never held).
$lonely->safe_psql('postgres', 'ALTER SYSTEM SET idgen.node_id = 12; SELECT pg_reload_conf()');
$lonely->poll_query_until('postgres', "SELECT current_setting('idgen.node_id') = '12'");
($ret, $out, $err) = $lonely->psql('postgres', "SET statement_timeout = '1s'; SELECT idgen.snowflake_id()");
like($err, qr/canceling statement due to statement timeout/, 'node 12: the renewal waits for the standby, and is cancelled');
($ret, $out, $err) = $lonely->psql('postgres', "SET statement_timeout = '1s'; SELECT idgen.snowflake_id()");
like($err, qr/canceling statement due to statement timeout/, 'a second session under node 12 waits too');
is($out, '', 'and returns no ID: nothing of the renewal was published before it was durable');
$lonely->stop('immediate');

# ---- asynchronous failover after a lag, the promoted server's clock behind (issue 20.2) --------------
# The standby stops receiving (down for 8 s) while the primary carries on; then the primary dies and
# the standby, its clock 9 s behind, is promoted: it starts beyond the last lease it received plus
# idgen.failover_margin (10 s by default), so none of the IDs the primary returned during the lag
# repeats. (1.1: 43 k to 55 k repeats per 64-bit family.)
my $a_primary = idgen_node('a_primary', allows_streaming => 1);
$a_primary->start;
$a_primary->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE TABLE t (i bigint, s bigint, y bigint, j bigint)');
$a_primary->backup('base');
my $a_standby = PostgreSQL::Test::Cluster->new('a_standby');
$a_standby->init_from_backup($a_primary, 'base', has_streaming => 1);
$a_standby->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nidgen.max_clock_regression = '60s'");
$a_standby->start;
my $fill = 'INSERT INTO t SELECT idgen.instagram_id(3), idgen.snowflake_id(), idgen.sonyflake_id(), idgen.js_id() FROM generate_series(1, 2000)';
$a_primary->safe_psql('postgres', $fill);
$a_primary->wait_for_catchup($a_standby, 'replay');
$a_standby->stop;
my $lag_end = time + 8;
my $lag_rows = 0;
while (time < $lag_end) {
	$a_primary->safe_psql('postgres', $fill);
	$lag_rows += 2000;
}
my @old = split /\|/, $a_primary->safe_psql('postgres', 'SELECT max(i), max(s), max(y), max(j) FROM t');
$a_primary->stop('immediate');
with_clock_offset(-9, sub { $a_standby->start });
$a_standby->promote;
$a_standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
my @new = split /\|/, $a_standby->safe_psql('postgres',
	'SELECT min(idgen.instagram_id(3)), min(idgen.snowflake_id()), min(idgen.sonyflake_id()), min(idgen.js_id()) FROM generate_series(1, 20000)');
my @names = qw(instagram snowflake sonyflake js);
for my $i (0 .. 3) {
	cmp_ok($new[$i] - $old[$i], '>', 0,
		"promoted after 8 s of lag ($lag_rows IDs it never received), clock 9 s behind: $names[$i] above the old primary's IDs (gap " . ($new[$i] - $old[$i]) . ')');
}
$a_standby->stop;

# ---- a promoted server restarted, or copied, before its first ID ------------------------------------
# As above (4 s of lag, the clock 9 s behind), but the promoted server is restarted before it makes
# an ID, and a pg_basebackup copy of it is started too: each start finds that its leases were loaded
# last under an earlier timeline, before the promotion, and adds the margin again (1.3 before the
# fix: only the start that promoted added it, and the IDs made during the lag came again).
my $r_primary = idgen_node('r_primary', allows_streaming => 1);
$r_primary->start;
$r_primary->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE TABLE t (i bigint, s bigint, y bigint, j bigint)');
$r_primary->backup('base');
my $r_standby = PostgreSQL::Test::Cluster->new('r_standby');
$r_standby->init_from_backup($r_primary, 'base', has_streaming => 1);
$r_standby->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nidgen.max_clock_regression = '60s'");
$r_standby->start;
$r_primary->safe_psql('postgres', $fill);
$r_primary->wait_for_catchup($r_standby, 'replay');
$r_standby->stop;
$lag_end = time + 4;
$lag_rows = 0;
while (time < $lag_end) {
	$r_primary->safe_psql('postgres', $fill);
	$lag_rows += 2000;
}
@old = split /\|/, $r_primary->safe_psql('postgres', 'SELECT max(i), max(s), max(y), max(j) FROM t');
$r_primary->stop('immediate');
with_clock_offset(-9, sub { $r_standby->start });
$r_standby->promote;
$r_standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
$r_standby->backup('promoted');
my $r_copy = PostgreSQL::Test::Cluster->new('r_copy');
$r_copy->init_from_backup($r_standby, 'promoted');
$r_standby->stop;
with_clock_offset(-9, sub { $r_standby->start });
with_clock_offset(-9, sub { $r_copy->start });
my $first_ids = 'SELECT min(idgen.instagram_id(3)), min(idgen.snowflake_id()), min(idgen.sonyflake_id()), min(idgen.js_id()) FROM generate_series(1, 20000)';
for my $started ([ 'restarted before its first ID' => $r_standby ], [ 'copied by pg_basebackup before its first ID' => $r_copy ]) {
	my ($what, $node) = @$started;
	@new = split /\|/, $node->safe_psql('postgres', $first_ids);
	for my $i (0 .. 3) {
		cmp_ok($new[$i] - $old[$i], '>', 0,
			"promoted after 4 s of lag ($lag_rows IDs), $what, clock 9 s behind: $names[$i] above the old primary's IDs (gap "
			  . ($new[$i] - $old[$i]) . ')');
	}
}
$r_standby->stop;
$r_copy->stop;

# ---- ticket and range sequences, and DecimalId, across an asynchronous failover -------------------
# The standby stops receiving; the primary carries on, restarted 11 times (a DecimalId generator id
# taken at each start, more than the 10 that 1.3 skipped after a failover), with ticket and range
# sequences given through idgen.sequence_nextval(). Promoted, the server refuses both sequences
# (their values are counters: nothing tells how many the old primary gave; 1.3: 2,000 of 2,000
# repeated) until idgen.sequence_resume() moves them past; and its DecimalIds skip every generator id
# the old primary could have taken within idgen.failover_margin (1.3: 1,000 of 2,000 repeated).
my $t_primary = idgen_node('t_primary', allows_streaming => 1,
	conf => "idgen.launch_id = 7\nidgen.failover_margin = '30s'");
$t_primary->start;
$t_primary->safe_psql('postgres', q{
CREATE EXTENSION idgen;
CREATE SEQUENCE tickets; SELECT idgen.ticket_sequence('tickets', 2, 3);
CREATE SEQUENCE ranges; SELECT idgen.range_sequence('ranges', 1, 1000000000);
CREATE UNLOGGED SEQUENCE loose;
CREATE TABLE tk (t bigint, r bigint, d bigint)});
$t_primary->backup('base');
my $t_standby = PostgreSQL::Test::Cluster->new('t_standby');
$t_standby->init_from_backup($t_primary, 'base', has_streaming => 1);
$t_standby->start;
my $tfill = q{INSERT INTO tk SELECT idgen.sequence_nextval('tickets'), idgen.sequence_nextval('ranges'), idgen.decimal_id()
  FROM generate_series(1, 200)};
$t_primary->safe_psql('postgres', $tfill);
$t_primary->wait_for_catchup($t_standby, 'replay');
$t_standby->stop;
for (1 .. 11) {
	$t_primary->restart;
	$t_primary->safe_psql('postgres', $tfill);
}
my ($old_t, $old_r) = split /\|/, $t_primary->safe_psql('postgres', 'SELECT max(t), max(r) FROM tk');
my $old_generators = $t_primary->safe_psql('postgres', 'SELECT count(DISTINCT (idgen.decimal_parse(d)).generator_id) FROM tk');
my $old_decimals = $t_primary->safe_psql('postgres', 'SELECT string_agg(d::text, \',\') FROM tk');
$t_primary->stop('immediate');
$t_standby->start;
$t_standby->promote;
$t_standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
for my $seq ('tickets', 'ranges') {
	my ($state, $message, $hint) = sqlstate_of($t_standby, "SELECT idgen.sequence_nextval('$seq')");
	is($state, '55000', "promoted: idgen.sequence_nextval('$seq') refused ($message)");
	like($hint, qr/idgen\.sequence_resume/, '... saying how to resume it');
}
my ($loose_state, $loose_message) = sqlstate_of($t_standby, "SELECT idgen.sequence_nextval('loose')");
is($loose_state, '55000', "an unlogged sequence is refused ($loose_message)");
# Restarted, or copied, before it is resumed: still refused.
$t_standby->restart;
is((sqlstate_of($t_standby, "SELECT idgen.sequence_nextval('tickets')"))[0], '55000', 'restarted: still refused');
$t_standby->backup('promoted');
my $t_copy = PostgreSQL::Test::Cluster->new('t_copy');
$t_copy->init_from_backup($t_standby, 'promoted');
$t_copy->start;
is((sqlstate_of($t_copy, "SELECT idgen.sequence_nextval('tickets')"))[0], '55000', 'a pg_basebackup copy: still refused');
$t_copy->stop;
# Resumed past what the old primary could have given.
$t_standby->safe_psql('postgres', "SELECT idgen.sequence_resume('tickets', 1000000), idgen.sequence_resume('ranges', 1000000)");
my ($new_t, $new_r, $server_t) = split /\|/, $t_standby->safe_psql('postgres',
	"SELECT min(t), min(r), max(idgen.ticket_server(t, 3)) FROM (SELECT idgen.sequence_nextval('tickets') t, idgen.sequence_nextval('ranges') r FROM generate_series(1, 2000)) x");
cmp_ok($new_t, '>', $old_t, "resumed: tickets above the old primary's ($new_t > $old_t)");
cmp_ok($new_r, '>', $old_r, "resumed: range values above the old primary's ($new_r > $old_r)");
is($server_t, '2', 'the ticket server keeps its residue');
my $repeats = $t_standby->safe_psql('postgres',
	"SELECT count(*) FROM (SELECT idgen.decimal_id() d FROM generate_series(1, 2000)) x WHERE d = ANY ('{$old_decimals}'::bigint[])");
is($repeats, '0', "DecimalIds of the promoted server: none repeats the old primary's ($old_generators generator ids)");
$t_standby->stop;

$standby->stop;
$sync_standby->stop;
done_testing();
