# Many servers, proven: three servers, each with its own idgen.node_id and Instagram shards, take
# concurrent inserts (pgbench, 8 clients each) into tables keyed by instagram_id, snowflake_id,
# sonyflake_id and uuidv7, all fanned into one aggregating server by logical replication with the
# same primary keys: no conflict, every row arrives, and the IDs of all servers interleave in time
# order (the skew between the servers' clocks is measured and printed). Then two servers set to the
# same node id are caught: shards they do not own are refused, and the aggregator reports the
# collision of their Snowflake IDs.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $seconds = $ENV{IDGEN_FANIN_SECONDS} || 60;
my $clients = 8;
my %tables = (
	ig => 'idgen.instagram_id(:shard_base + (random() * 99)::int)',
	sf => 'idgen.snowflake_id()',
	so => 'idgen.sonyflake_id()',
	uu => 'idgen.uuidv7()');
my %decode = (
	ig => '(idgen.instagram_parse(id)).ts',
	sf => '(idgen.snowflake_parse(id)).ts',
	so => '(idgen.sonyflake_parse(id)).ts',
	uu => 'idgen.uuidv7_time(id)');

sub schema {
	my ($with_defaults, $server) = @_;
	return join('',
		map {
			my $type = $_ eq 'uu' ? 'uuid' : 'bigint';
			"CREATE TABLE $_ (id $type PRIMARY KEY, server int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());"
		} sort keys %tables);
}

# The aggregator: the same tables and primary keys, filled by subscriptions only.
my $aggregator = idgen_node('aggregator', conf => "max_logical_replication_workers = 8\nmax_worker_processes = 16");
$aggregator->start;
$aggregator->safe_psql('postgres', 'CREATE EXTENSION idgen;' . schema());

my @servers;
for my $n (1 .. 3) {
	my $base = ($n - 1) * 100;
	my $node = idgen_node("server$n", allows_streaming => "logical",
		conf => "idgen.node_id = $n\nidgen.instagram_shards = '$base-" . ($base + 99) . "'");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen;' . schema() . 'CREATE PUBLICATION ids FOR TABLE ig, sf, so, uu');
	my $connstr = $node->connstr() . ' dbname=postgres';
	$aggregator->safe_psql('postgres', "CREATE SUBSCRIPTION from_server$n CONNECTION '$connstr' PUBLICATION ids");
	push @servers, { node => $node, n => $n, base => $base };
}
$aggregator->wait_for_subscription_sync if $aggregator->can('wait_for_subscription_sync');

# pgbench on the three servers at once.
my $script = PostgreSQL::Test::Utils::tempdir() . '/insert.sql';
open my $fh, '>', $script or die $!;
print $fh "\\set shard_base :base\n";
print $fh join('', map { "INSERT INTO $_ (id, server) VALUES ($tables{$_}, :server);\n" } sort keys %tables);
close $fh;
my @runs;
for my $s (@servers) {
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'pgbench', '-n', '-c', $clients, '-j', 2, '-T', $seconds, '-f', $script,
			'-D', "base=$s->{base}", '-D', "server=$s->{n}", '-h', $s->{node}->host, '-p', $s->{node}->port, 'postgres'
		],
		'>', \$out, '2>', \$err);
	push @runs, [ $s, $h, \$out, \$err ];
}
my $total = 0;
for my $r (@runs) {
	$r->[1]->finish;
	my ($processed) = ${ $r->[2] } =~ /number of transactions actually processed: (\d+)/;
	my ($failed) = ${ $r->[2] } =~ /number of failed transactions: (\d+)/;
	is($failed // 0, 0, "server $r->[0]{n}: pgbench, $clients clients, $seconds s: no failed transaction");
	note("server $r->[0]{n}: " . ($processed // 0) . " transactions of 4 inserts");
	$total += $processed // 0;
}

# Every row arrives, without a conflict.
for my $s (@servers) {
	$s->{node}->wait_for_catchup("from_server$s->{n}");
}
for my $t (sort keys %tables) {
	my $rows = 0;
	$rows += $_->{node}->safe_psql('postgres', "SELECT count(*) FROM $t") for @servers;
	is($aggregator->safe_psql('postgres', "SELECT count(*) FROM $t"), $rows, "$t: all $rows rows arrived");
	is($rows, $total, "$t: one row per transaction");
}
is($aggregator->safe_psql('postgres', q{SELECT sum(e.value::bigint) FROM pg_stat_subscription_stats s, jsonb_each_text(to_jsonb(s)) e WHERE e.key LIKE '%error_count'}),
	'0', 'no conflict at the aggregator');

# Time order across servers: sorted by ID, the rows of the three servers interleave; each ID's time
# lies just before the clock of the server that inserted it; the skew is the spread of those delays
# between servers.
for my $t (sort keys %tables) {
	my ($switches, $inversion_ms) = split /\|/, $aggregator->safe_psql('postgres', "
		SELECT count(*) FILTER (WHERE server <> prev_server),
		       round(extract(epoch FROM max(earlier_max_at - at)) * 1000, 1)
		FROM (SELECT server, at, lag(server) OVER w AS prev_server,
		             max(at) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earlier_max_at
		      FROM $t WINDOW w AS (ORDER BY id)) s");
	my $delays = $aggregator->safe_psql('postgres', "
		SELECT string_agg(server || ':' || round(d::numeric, 2), ' ' ORDER BY server), round((max(d) - min(d))::numeric, 2)
		FROM (SELECT server, percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM at - $decode{$t}) * 1000) AS d
		      FROM $t GROUP BY server) s");
	my ($per_server, $skew) = split /\|/, $delays;
	cmp_ok($switches, '>', 1000, "$t: sorted by ID, the servers' rows interleave ($switches switches)");
	note("$t: median delay from ID time to insert, per server (ms) $per_server: skew $skew ms");
	note("$t: the most an ID's row was inserted before a row of a smaller ID, across servers: $inversion_ms ms");
}

# The guard: a fourth server set to node 1, as server 1 is. Instagram shards it does not own are
# refused; its Snowflake IDs collide with server 1's, and the aggregator reports the conflict.
my $twin = idgen_node("twin", allows_streaming => "logical", conf => "idgen.node_id = 1\nidgen.instagram_shards = '0-99'");
$twin->start;
$twin->safe_psql('postgres', 'CREATE EXTENSION idgen;' . schema() . 'CREATE PUBLICATION ids FOR TABLE sf');
my ($state, $message) = sqlstate_of($servers[0]{node}, 'SELECT idgen.instagram_id(150)');
is($state, '22023', "server 1 refuses shard 150, which it does not own: $message");
$aggregator->safe_psql('postgres', "CREATE SUBSCRIPTION from_twin CONNECTION '" . $twin->connstr() . " dbname=postgres' PUBLICATION ids");
# Both make Snowflake IDs at the same time, as servers that share a node id would in production.
my @collide;
for my $pair ([ $servers[0]{node}, 1 ], [ $twin, 4 ]) {
	my ($node, $server) = @$pair;
	push @collide, IPC::Run::start(
		[
			'psql', '-X', '-q', '-h', $node->host, '-p', $node->port, '-d', 'postgres', '-c',
			"INSERT INTO sf (id, server) SELECT idgen.snowflake_id(), $server FROM generate_series(1, 300000)"
		]);
}
$_->finish for @collide;
ok($aggregator->poll_query_until('postgres',
		"SELECT sum(e.value::bigint) > 0 FROM pg_stat_subscription_stats s, jsonb_each_text(to_jsonb(s)) e WHERE e.key LIKE '%error_count' AND s.subname IN ('from_twin', 'from_server1')"),
	'two servers with the same node id: the aggregator reports the collision of their IDs');
# (PostgreSQL 18 names it a conflict of kind insert_exists; before, a duplicate key)
ok($aggregator->log_contains(qr/duplicate key value violates unique constraint "sf_pkey"|conflict=insert_exists/),
	'as a duplicate key in its log');

$_->{node}->stop for @servers;
$twin->stop;
$aggregator->stop;
done_testing();
