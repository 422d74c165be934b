# Every value of idgen.max_clock_lead and idgen.max_clock_regression keeps the order of the IDs and
# never refuses a clock that is fine (issue 29, item 6). Both limits count beyond the lead that the
# state word has of its own: a tick whose sequence ran out (its callers wait for the next one), and
# UUIDv7's millisecond ahead of the clock. Before, with idgen.max_clock_lead = 0 that lead was taken
# for a clock stepped back and the shared word was sent back to the clock (UUIDs went backwards,
# in every session), and with idgen.max_clock_regression below a family's tick (Sonyflake's 10 ms)
# sessions that came while another waited for the next tick were refused ("system clock is 10 ms
# behind the last Sonyflake ID issued"). And idgen.max_clock_lead is the server's: a session that
# set it would move the word every other session shares.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $clients = 8;
my $transactions = 20;
my $node = idgen_node('limits', conf => "idgen.max_clock_lead = 0\nidgen.max_clock_regression = '5ms'");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION idgen;
	CREATE TABLE back (uuids bigint, not_above bigint);
	CREATE TABLE s (family text, id bigint);
	SELECT idgen.uuidv7();  -- the server's durable mark made before the sessions come (t/first_use.pl)
});

# Each transaction, in each of 8 sessions at once: 20,000 UUIDs as fast as they come, counting
# those not above the one before; Sonyflake and Instagram IDs, more than a tick holds.
my $script = q{
INSERT INTO back SELECT count(*), count(*) FILTER (WHERE u <= p)
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS p FROM (SELECT g, idgen.uuidv7() AS u FROM generate_series(1, 20000) g) x) y;
INSERT INTO s SELECT 'sonyflake', idgen.sonyflake_id() FROM generate_series(1, 300);
INSERT INTO s SELECT 'instagram', idgen.instagram_id(7) FROM generate_series(1, 2000);
};

sub run_and_check
{
	my ($what) = @_;
	$node->safe_psql('postgres', 'TRUNCATE back, s');
	$node->pgbench(
		"--no-vacuum --client=$clients --jobs=2 --transactions=$transactions",
		0,
		[qr{actually processed: @{[ $clients * $transactions ]}/@{[ $clients * $transactions ]}}],
		[qr{^(?!.*(ERROR|aborted))}s],
		"$what: $clients sessions at once, every transaction done",
		{ "limits_$what" => $script });
	is($node->safe_psql('postgres', 'SELECT sum(not_above) || \' of \' || sum(uuids) FROM back'),
		'0 of ' . $clients * $transactions * 20000,
		"$what: every UUID above the one before it in its session");
	is($node->safe_psql('postgres', 'SELECT count(*) - count(DISTINCT id) FROM s'), '0', "$what: no repeated ID");
	return;
}

run_and_check('lead 0, regression 5ms');
$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.max_clock_regression = 0; SELECT pg_reload_conf()");
$node->poll_query_until('postgres', "SELECT current_setting('idgen.max_clock_regression') = '0'");
run_and_check('lead 0, regression 0');

# A shard's mark leads its IDs by a second (idgen.instagram_shard_id() writes it so): a mark half a
# second ahead of a clock that is fine is waited for, not refused, at idgen.max_clock_regression = 0.
is( $node->safe_psql('postgres',
		"SELECT idgen.instagram_id(7, clock_timestamp() + interval '500 ms') > 0"),
	't', 'regression 0: a shard mark half a second ahead is waited for');
# Beyond what a server puts its marks ahead by itself (the mark's lease, a burst, the failover margin
# of 10 s), it is refused.
my ($shard_state) = sqlstate_of($node, "SELECT idgen.instagram_id(7, clock_timestamp() + interval '30 s')");
is($shard_state, '55000', 'regression 0: a shard mark 30 s ahead is refused');

# The lead is the server's: a session cannot set it (nor a role or a database).
my ($state, $message) = sqlstate_of($node, "SET idgen.max_clock_lead = '1s'");
is($state, '55P02', 'SET idgen.max_clock_lead is refused in a session');
like($message, qr/parameter "idgen\.max_clock_lead" cannot be changed now/, "... $message");
($state) = sqlstate_of($node, "ALTER DATABASE postgres SET idgen.max_clock_lead = '1s'");
is($state, '55P02', 'and per database');
is($node->safe_psql('postgres', "ALTER SYSTEM SET idgen.max_clock_lead = '1s'; SELECT pg_reload_conf()"),
	't', 'the server configuration sets it');
$node->poll_query_until('postgres', "SELECT current_setting('idgen.max_clock_lead') = '1s'");

# A call whose every value is dropped (idgen.debug_fault = 'retake') ends at a cancel, for each kind
# of family: the retake loop checks interrupts (before: a loop a cancel or a terminate could not end).
for my $call ('idgen.snowflake_id()', 'idgen.uuidv7()', 'idgen.instagram_id(3)', 'idgen.uid20()')
{
	my ($retake_state, $retake_message) = sqlstate_of($node,
		"SET idgen.debug_fault = 'retake'; SET idgen.max_clock_regression = '60s'; SET statement_timeout = '300ms'; SELECT $call");
	is($retake_state, '57014', "every value dropped: $call ends at the statement timeout ($retake_message)");
}
$node->stop;

done_testing();
