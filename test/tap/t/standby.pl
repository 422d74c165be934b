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

sub max_ids
{
	my ($node, $rows, $rollback) = @_;
	my $select = join(', ', map { "max($_->[1])" } @generators);
	my $sql = "SELECT $select FROM generate_series(1, $rows)";
	$sql = "BEGIN; $sql; ROLLBACK" if $rollback;
	return split /\|/, $node->safe_psql('postgres', $sql);
}

sub min_ids
{
	my ($node, $rows) = @_;
	my $select = join(', ', map { "min($_->[1])" } @generators);
	return split /\|/, $node->safe_psql('postgres', "SELECT $select FROM generate_series(1, $rows)");
}

sub above
{
	my ($what, $before, $after) = @_;
	for my $i (0 .. $#generators)
	{
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
$standby->start;

my @before = max_ids($primary, 20000, 0);
$primary->wait_for_catchup($standby, 'replay');
for my $g (@generators)
{
	my $family = $g->[0];
	is($standby->safe_psql('postgres', "SELECT last_value FROM idgen.${family}_mark"),
		$primary->safe_psql('postgres', "SELECT last_value FROM idgen.${family}_mark"),
		"the $family mark replays on the standby");
	my ($state, $message, $hint) = sqlstate_of($standby, "SELECT $g->[1]");
	is($state, '55000', "hot standby: $family refuses");
	like($message, qr/^cannot generate \w+ IDs during recovery/, "hot standby: $message");
}
for my $call ('idgen.js_id()', 'idgen.uid20()', 'idgen.uid20_sec()', 'idgen.decimal_id()')
{
	my ($state, $message) = sqlstate_of($standby, "SET idgen.launch_id = 1; SELECT $call");
	is($state, '55000', "hot standby: $call refuses ($message)");
}
is($standby->safe_psql('postgres',
		"SELECT idgen.uuidv7() IS NOT NULL AND idgen.typeid('post') LIKE 'post_%' AND idgen.objectid() IS NOT NULL"
		  . " AND length(idgen.ns_id()) = 19"),
	't', 'hot standby: UUIDv7, typeid, ObjectId and ns_id work');

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

$standby->stop;
$sync_standby->stop;
done_testing();
