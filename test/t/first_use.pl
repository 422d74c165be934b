# First use under load (issue 29, item 8): on a new server, the first call of any coordinated
# generator creates the replication origins that hold the durable mark (idgen_mark,
# idgen_decimal_id), through a background worker. 32 sessions calling a generator at once must each
# wait for the one worker that creates them: before, each tried to start a worker of its own, and
# those beyond max_worker_processes failed with 53400 "could not start the background worker"
# (21 of 32 on 17 without preload, 7 of 32 on 15 preloaded). On 17 and later without preload and
# with it; on 15 and 16 preloaded (without preload their coordinated families keep no durable mark).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $major = $ENV{IDGEN_MAJOR} // 15;
my $clients = 32;

for my $preload ($major >= 17 ? (0, 1) : (1))
{
	my $how = $preload ? 'preloaded' : 'not preloaded';
	# (rounds 2 and 3 are servers whose marks start from the database's copy, the failover margin
	# beyond it: the first IDs wait for the clock to pass it, under a limit that the margin and a
	# loaded machine's restart stay within)
	my $node = idgen_node("first_use_$preload", no_preload => !$preload, conf => "idgen.max_clock_regression = '30s'");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
	# Three new servers in turn (the origins dropped and the server restarted between): every client
	# connects first (pgbench does), then all send their first call at once.
	for my $round (1 .. 3)
	{
		if ($round > 1)
		{
			$node->safe_psql('postgres',
				"SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin WHERE roname LIKE 'idgen%'");
			$node->restart;
		}
		is($node->safe_psql('postgres', "SELECT count(*) FROM pg_replication_origin WHERE roname LIKE 'idgen%'"),
			'0', "$how, round $round: no origins yet");
		$node->pgbench(
			"--no-vacuum --client=$clients --jobs=4 --transactions=1",
			0,
			[qr{actually processed: $clients/$clients}],
			[qr{^(?!.*(ERROR|aborted))}s],
			"$how, round $round: $clients sessions call a generator at once on a new server, none fails",
			{ "first_use_${preload}_$round" => "SELECT idgen.uuidv7();\nSELECT idgen.snowflake_id();\n" });
		is( $node->safe_psql('postgres',
				"SELECT string_agg(roname, ',' ORDER BY roname) FROM pg_replication_origin WHERE roname LIKE 'idgen%' AND roname NOT LIKE 'idgen\\_parts %'"),
			'idgen_decimal_id,idgen_decimal_take,idgen_mark,idgen_mark_identity',
			"$how, round $round: the origins exist");
		is($node->safe_psql('postgres', "SELECT issued FROM idgen.stats WHERE family = 'snowflake'"),
			$clients, "$how, round $round: every session made its ID");
	}
	$node->stop;
	my $log = slurp_file($node->logfile);
	unlike($log, qr/could not start the background worker/, "$how: no session failed to start a worker");
	my $workers = () = $log =~ /idgen origins/g;
	note("$how: the server log names the idgen origins worker $workers times");
}

done_testing();
