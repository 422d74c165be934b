# idgen on a Citus cluster (issue 22, item 1): node identity from Citus. A coordinator and two
# workers (shared_preload_libraries = 'citus,idgen', idgen.node_id_source = 'citus'), metadata synced
# so that every node accepts writes. Before a node has a Citus identity the coordinated families
# refuse (55000) instead of using 0; once the cluster is formed each node makes IDs under its group
# id; inserts through the coordinator and both workers at once (pgbench on the three) into a
# distributed and a reference table keyed by snowflake_id(), sonyflake_id() and uuidv7(): no
# conflict, no duplicate, every node's group in the IDs. Then a group id too wide for Snowflake is
# refused (and read again when the catalog changes), and only a superuser changes the source.
#
# Citus is built by scripts/citus-build.sh (test/run.sh: for 18); without it the test skips.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $sharedir = `pg_config --sharedir` =~ s/\n//r;
plan skip_all => "Citus is not installed in $sharedir (scripts/citus-build.sh)" unless -f "$sharedir/extension/citus.control";

my $clients = 2;
my $transactions = $ENV{IDGEN_CITUS_TRANSACTIONS} || 250;

my ($coordinator, $worker1, $worker2) = citus_nodes([qw(coordinator worker1 worker2)]);
my @nodes = ($coordinator, $worker1, $worker2);
my $started = Time::HiRes::time();

# Without Citus in the database, the coordinated families refuse; the random-based ones work.
$_->safe_psql('postgres', 'CREATE EXTENSION idgen') for @nodes;
my ($state, $message, $hint) = sqlstate_of($coordinator, 'SELECT idgen.snowflake_id()');
is($state, '55000', 'Citus not installed: snowflake_id refuses (55000)');
like($message, qr/Citus is not installed in database "postgres"/, '... saying Citus is not installed');
like($hint, qr/CREATE EXTENSION citus/, '... and how to install it');
is($coordinator->safe_psql('postgres', 'SELECT idgen.uuidv7() IS NOT NULL'), 't', 'Citus not installed: uuidv7 works');

# Every Citus node starts in the coordinator's group 0: until it is in a cluster, it refuses.
$_->safe_psql('postgres', 'CREATE EXTENSION citus') for @nodes;
for my $node ($coordinator, $worker1) {
	my $name = $node->name;
	is($node->safe_psql('postgres', 'SELECT groupid FROM pg_catalog.pg_dist_local_group'),
		'0', "$name, in no cluster yet: pg_dist_local_group says group 0");
	for my $f (qw(snowflake sonyflake trace js)) {
		($state, $message, $hint) = sqlstate_of($node, "SELECT idgen.${f}_id()");
		is($state, '55000', "$name, in no cluster yet: ${f}_id refuses (55000) rather than use group 0");
	}
	like($message, qr/no node identity yet/, "... saying it has no node identity yet");
	like($hint, qr/citus_add_node/, '... and how to give it one');
}

# The cluster: the coordinator in the metadata, the two workers added (metadata synced: Citus 11+).
my %group = citus_form($coordinator, $worker1, $worker2);
for my $node (@nodes) {
	is( $node->safe_psql('postgres',
			'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node || \',\' || (idgen.sonyflake_parse(idgen.sonyflake_id())).machine_id'),
		"$group{$node->name},$group{$node->name}",
		$node->name . ": Snowflake and Sonyflake IDs carry its Citus group id $group{$node->name}");
}
is(join(',', sort map { $group{ $_->name } } @nodes), '0,1,2', 'the three nodes are groups 0, 1 and 2');
is($worker2->safe_psql('postgres', 'SELECT count(*) FROM pg_catalog.pg_dist_node WHERE hasmetadata AND metadatasynced'),
	'3', 'metadata synced: worker 2 knows the three nodes');

# The tables: keys default to idgen's functions; "via" is the group of the node that took the insert.
$coordinator->safe_psql('postgres', q{
	CREATE TABLE d (s bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), y bigint NOT NULL DEFAULT idgen.sonyflake_id(),
	                u uuid NOT NULL DEFAULT idgen.uuidv7(), via int NOT NULL);
	SELECT create_distributed_table('d', 's', shard_count => 8);
	CREATE TABLE r (s bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), y bigint NOT NULL DEFAULT idgen.sonyflake_id(),
	                u uuid NOT NULL DEFAULT idgen.uuidv7(), via int NOT NULL);
	SELECT create_reference_table('r');
});
note(sprintf('cluster formed and tables made in %.1f s', Time::HiRes::time() - $started));

# pgbench on the three nodes at once.
my $script = PostgreSQL::Test::Utils::tempdir() . '/insert.sql';
open my $fh, '>', $script or die $!;
print $fh "INSERT INTO d (via) VALUES (:via);\nINSERT INTO r (via) VALUES (:via);\n";
close $fh;
my $t0 = Time::HiRes::time();
my @runs;
for my $node (@nodes) {
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'pgbench', '-n', '-c', $clients, '-j', 1, '-t', $transactions, '-f', $script,
			'-D', "via=$group{$node->name}", '-h', $node->host, '-p', $node->port, 'postgres'
		],
		'>', \$out, '2>', \$err);
	push @runs, [ $node, $h, \$out, \$err ];
}
for my $r (@runs) {
	$r->[1]->finish;
	my ($processed) = ${ $r->[2] } =~ /number of transactions actually processed: (\d+)/;
	is($processed // 0, $clients * $transactions,
		$r->[0]->name . ": pgbench, $clients clients x $transactions transactions, every one done")
	  or diag(${ $r->[3] });
}
my $rows = 3 * $clients * $transactions;
note(sprintf('%d rows into each table through three nodes in %.1f s', $rows, Time::HiRes::time() - $t0));

for my $t (qw(d r)) {
	is( $coordinator->safe_psql('postgres',
			"SELECT count(*) || ',' || (count(*) - count(DISTINCT s)) || ',' || (count(*) - count(DISTINCT y)) || ',' || (count(*) - count(DISTINCT u)) FROM $t"
		),
		"$rows,0,0,0",
		"$t: $rows rows, 0 duplicate Snowflake, Sonyflake or UUIDv7 IDs");
	# Each node made the IDs of the rows it took, under its own group id.
	is( $coordinator->safe_psql('postgres',
			"SELECT count(*) FROM $t WHERE (idgen.snowflake_parse(s)).node <> via OR (idgen.sonyflake_parse(y)).machine_id <> via"),
		'0',
		"$t: every Snowflake and Sonyflake ID carries the group of the node that took the insert");
	is($coordinator->safe_psql('postgres', "SELECT string_agg(DISTINCT via::text, ',') FROM $t"),
		'0,1,2', "$t: rows came through the three nodes");
}

# A distributed table's bigserial key (Citus's own sequence: on a worker, values from the group id
# times 2^48) moved to Snowflake with idgen.convert_column on the coordinator: the new default
# reaches every node, new IDs lie above the old values and carry the inserting node's group. The
# table is distributed by its tenant, as Citus's multi-tenant tables are: Citus refuses any ALTER
# TABLE of the distribution column, a new default included (checked below).
$coordinator->safe_psql('postgres', q{
	CREATE TABLE legacy (tenant int NOT NULL, id bigserial, via int NOT NULL, new bool NOT NULL DEFAULT false,
	                     PRIMARY KEY (tenant, id));
	SELECT create_distributed_table('legacy', 'tenant', shard_count => 4);
	CREATE TABLE legacy_by_id (id bigserial PRIMARY KEY);
	SELECT create_distributed_table('legacy_by_id', 'id', shard_count => 4);
});
($state, $message) = sqlstate_of($coordinator, "SELECT idgen.convert_column('legacy_by_id', 'id', 'snowflake')");
like($message, qr/cannot execute ALTER TABLE command involving partition column/,
	"legacy_by_id: Citus refuses a new default on the distribution column ($state)");
my $legacy_rows = 20;
$_->safe_psql('postgres', "INSERT INTO legacy (tenant, via) SELECT g % 7, $group{$_->name} FROM generate_series(1, $legacy_rows) g")
  for @nodes;
is($coordinator->safe_psql('postgres', 'SELECT count(*) FILTER (WHERE id > 2^48) FROM legacy WHERE via > 0'),
	2 * $legacy_rows, "legacy: the workers' bigserial values lie above 2^48 (Citus's ranges per group)");
like($coordinator->safe_psql('postgres', "SELECT idgen.convert_column('legacy', 'id', 'snowflake')"),
	qr/the default is now idgen\.snowflake_id\(\)/, 'legacy: convert_column on the coordinator');
$_->safe_psql('postgres', "INSERT INTO legacy (tenant, via, new) SELECT g % 7, $group{$_->name}, true FROM generate_series(1, $legacy_rows) g")
  for @nodes;
is( $coordinator->safe_psql('postgres', q{
		SELECT count(*) || ',' || (count(*) - count(DISTINCT id)) || ','
		    || count(*) FILTER (WHERE new AND id <= (SELECT max(id) FROM legacy WHERE NOT new)) || ','
		    || count(*) FILTER (WHERE new AND (idgen.snowflake_parse(id)).node <> via)
		FROM legacy}),
	(6 * $legacy_rows) . ',0,0,0',
	'legacy: after the conversion, inserts through the three nodes: no duplicate, every new ID above the old ones and carrying its node\'s group'
);

# A group id wider than Snowflake's node field (0 to 1023) is refused; Sonyflake's holds it. The
# identity is read again when Citus's catalogs change (the first call cached group 2).
my $g2 = $group{ $worker2->name };
my $widen = "UPDATE pg_catalog.pg_dist_node SET groupid = 1500 WHERE groupid = $g2;"
  . ' UPDATE pg_catalog.pg_dist_local_group SET groupid = 1500;';
($state, $message, $hint) = sqlstate_of($worker2, "SELECT idgen.snowflake_id(); BEGIN; $widen SELECT idgen.snowflake_id();");
is($state, '55000', 'group id 1500: snowflake_id refuses (55000)');
like($message, qr/Citus group id 1500 does not fit Snowflake IDs/, '... saying the group id does not fit');
like($hint, qr/Sonyflake/, '... and which families hold it');
is( $worker2->safe_psql('postgres',
		"SELECT idgen.snowflake_id() IS NOT NULL; BEGIN; $widen SELECT (idgen.sonyflake_parse(idgen.sonyflake_id())).machine_id; ROLLBACK;"
		  . ' SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node;'),
	"t\n1500\n$g2",
	'group id 1500: Sonyflake IDs carry it; after a rollback, group 2 again, in the same session');

# After a clock that jumped ahead and back, restart_at_clock cannot see a new identity when the node
# id is the Citus group id (idgen.node_id would change the hash and nothing else): refused.
# (A new idgen.node_id changes the identity's hash: the call would be taken without this refusal.)
$worker1->safe_psql('postgres', 'ALTER SYSTEM SET idgen.node_id = 999; SELECT pg_reload_conf()');
($state, $message, $hint) = sqlstate_of($worker1, 'SELECT idgen.restart_at_clock()');
is($state, '55000', "restart_at_clock under node_id_source = 'citus', idgen.node_id changed, is refused (55000)");
like($hint, qr/node_id_source = 'setting'/, '... saying how to give the server a new identity');

# Only the server's configuration chooses where the node id comes from.
$coordinator->safe_psql('postgres', 'CREATE ROLE app LOGIN');
($state) = sqlstate_of($coordinator, "SET idgen.node_id_source = 'setting'", user => 'app');
is($state, '55P02', 'a session cannot change idgen.node_id_source');

note(sprintf('the Citus test took %.1f s after the servers started', Time::HiRes::time() - $started));
$_->stop for @nodes;
done_testing();
