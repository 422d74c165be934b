# idgen on a Citus cluster (issue 30, item 4): shards keyed by idgen.instagram_shard_id() move while
# inserts run through the three nodes. A coordinator and two workers, worker 2's clock 8 s behind; a
# distributed schema per logical shard (shard_0000 to shard_0007) and app.events, a table distributed
# by its rows' logical shard (100 + user_id % 64: a shard is bound to one schema) with its marks
# colocated. pgbench inserts through the coordinator and both workers, all the time, into random
# schemas, into the moving schema and, two rows a transaction in any order, into app.events; one
# client on each worker calls idgen.instagram_id() of the moving schema's shard (made where the schema
# is, refused elsewhere). Meanwhile citus_schema_move takes that schema back and forth between the
# workers, and citus_move_shard_placement one Citus shard of app.events (with its marks), each
# IDGEN_CITUS_MOVES times (4 by default: about a minute on 2 cores; 20 for the issue's run, about 2.5
# minutes). No move may hang: one that runs past IDGEN_CITUS_MOVE_LIMIT seconds (90) prints what every
# backend of the three nodes waits for (the lock cycle) and fails; a move that fails prints what
# Citus's distributed deadlock detector logged. Then: no insert failed, no duplicate ID (the direct
# IDs included), every ID's shard field its schema's or its row's.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $moves = $ENV{IDGEN_CITUS_MOVES} || 4;
my $limit = $ENV{IDGEN_CITUS_MOVE_LIMIT} || 90;
my $schemas = 8;
my $logical = $ENV{IDGEN_CITUS_LOGICAL} || 64;    # app.events's logical shards
my $citus_shards = $ENV{IDGEN_CITUS_SHARD_COUNT} || 4;    # and its Citus shards

my $behind = $ENV{IDGEN_CITUS_BEHIND} // 8;    # worker 2's clock, seconds behind the others
my ($coordinator, $worker1, $worker2) = citus_nodes([qw(coordinator worker1 worker2)],
	conf => "wal_level = logical\nmax_wal_senders = 20\nmax_replication_slots = 20\nmax_connections = 200\n"
	  . "idgen.max_clock_regression = '20s'\ncitus.log_distributed_deadlock_detection = on");
my @nodes = ($coordinator, $worker1, $worker2);
for my $node (@nodes)
{
	$node->append_conf('postgresql.conf', "citus.local_hostname = '" . $node->host . "'");
	$node->reload;
}
$worker2->stop;
with_clock_offset(-$behind, sub { $worker2->start });
my $started = Time::HiRes::time();
$_->safe_psql('postgres', 'CREATE EXTENSION idgen') for @nodes;
my %group = citus_form($coordinator, $worker1, $worker2);
my %port_group = map { $_->port => $group{ $_->name } } @nodes;

my $schema_of = q{'shard_' || lpad(s::text, 4, '0')};
$coordinator->safe_psql('postgres', $coordinator->safe_psql('postgres', qq{
	SELECT string_agg(format(\$\$CREATE SCHEMA %1\$I;
SELECT idgen.bind_instagram_shard(%1\$L, %2\$s);
SELECT citus_schema_distribute(%1\$L);
CREATE TABLE %1\$I.posts (id bigint PRIMARY KEY, via int NOT NULL);
CREATE TRIGGER id BEFORE INSERT ON %1\$I.posts FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
\$\$, $schema_of, s), '' ORDER BY s) FROM generate_series(0, $schemas - 1) s}));
$coordinator->safe_psql('postgres', qq{
	CREATE SCHEMA app;
	CREATE TABLE app.events (user_id bigint NOT NULL, shard int NOT NULL, id bigint, via int NOT NULL, PRIMARY KEY (shard, id));
	SELECT idgen.bind_instagram_shard('app', s) FROM generate_series(100, 100 + $logical - 1) s;
	SELECT create_distributed_table('app.events', 'shard', shard_count => $citus_shards);
	SELECT create_distributed_table('app.idgen_instagram_shard', 'shard', colocate_with => 'app.events');
	SET citus.enable_unsafe_triggers = on;
	CREATE TRIGGER id BEFORE INSERT ON app.events FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'shard');
	CREATE FUNCTION post(s int, via int) RETURNS void LANGUAGE plpgsql AS \$\$
	BEGIN
	  EXECUTE format('INSERT INTO %I.posts (via) VALUES (\$1)', $schema_of) USING via;
	END \$\$;
	-- idgen.instagram_id(shard) of the moving schema's shard, called on a worker: made where the
	-- schema is (kept in a reference table), refused elsewhere (55000, counted).
	CREATE TABLE direct_ids (id bigint PRIMARY KEY, via int NOT NULL);
	SELECT create_reference_table('direct_ids');
	CREATE TABLE direct_refusals (via int NOT NULL, n bigint NOT NULL DEFAULT 1);
	SELECT create_reference_table('direct_refusals');
	CREATE FUNCTION direct(s int, via int) RETURNS void LANGUAGE plpgsql AS \$\$
	BEGIN
	  INSERT INTO direct_ids VALUES (idgen.instagram_id(s), via);
	EXCEPTION WHEN object_not_in_prerequisite_state THEN
	  INSERT INTO direct_refusals (via) VALUES (via);
	END \$\$;});
note(sprintf('cluster formed, %d schemas and app.events made in %.1f s', $schemas, Time::HiRes::time() - $started));

# The schema and the Citus shard of app.events that move, each starting on worker 1.
my $moving_schema = $coordinator->safe_psql('postgres', sprintf(q{
	SELECT substring(shard_name FROM 'shard_(\d+)')::int FROM citus_shards
	WHERE citus_table_type = 'schema' AND shard_name LIKE 'shard\_%%.posts\_%%' AND nodeport = %d ORDER BY 1 LIMIT 1},
	$worker1->port));
my $moving_shard = $coordinator->safe_psql('postgres', sprintf(q{
	SELECT shardid FROM citus_shards WHERE table_name = 'app.events'::regclass AND nodeport = %d ORDER BY shardid LIMIT 1},
	$worker1->port));
die 'nothing to move on worker 1' unless $moving_schema ne '' && $moving_shard ne '';

# pgbench through the three nodes for as long as the moves take: a random schema, the moving
# schema, and a transaction of two rows of app.events (two logical shards, in any order).
my $script = PostgreSQL::Test::Utils::tempdir() . '/load.sql';
open my $fh, '>', $script or die $!;
print $fh "\\set s random(0, $schemas - 1)\n\\set u random(1, 1000000)\n\\set v random(1, 1000000)\n",
  "SELECT post(:s, :via);\nSELECT post($moving_schema, :via);\n",
  "BEGIN;\n",
  "INSERT INTO app.events (user_id, shard, via) VALUES (:u, 100 + :u % $logical, :via);\n",
  "INSERT INTO app.events (user_id, shard, via) VALUES (:v, 100 + :v % $logical, :via);\n",
  "COMMIT;\n";
close $fh;
my $stop = PostgreSQL::Test::Utils::tempdir() . '/stop';
my @runs;
for my $node (@nodes)
{
	my ($out, $err) = ('', '');
	push @runs,
	  [
		$node,
		IPC::Run::start(
			[
				'pgbench', '-n', '-c', 2, '-j', 1, '-T', 3600, '-f', $script,
				'-D', "via=$group{$node->name}", '-h', $node->host, '-p', $node->port, 'postgres'
			],
			'>', \$out, '2>', \$err),
		\$out, \$err
	  ];
}
# One client on each worker calls idgen.instagram_id of the moving schema's shard.
my $direct_script = PostgreSQL::Test::Utils::tempdir() . '/direct.sql';
open $fh, '>', $direct_script or die $!;
print $fh "SELECT direct($moving_schema, :via);\n";
close $fh;
for my $node ($worker1, $worker2)
{
	my ($out, $err) = ('', '');
	push @runs,
	  [
		$node,
		IPC::Run::start(
			[
				'pgbench', '-n', '-c', 1, '-j', 1, '-T', 3600, '-f', $direct_script,
				'-D', "via=$group{$node->name}", '-h', $node->host, '-p', $node->port, 'postgres'
			],
			'>', \$out, '2>', \$err),
		\$out, \$err
	  ];
}
sleep 2;

# What every backend of the three nodes waits for, and who blocks it: printed when a move hangs.
sub waits
{
	my $report = '';
	for my $node (@nodes)
	{
		$report .= "--- " . $node->name . " (group $group{$node->name})\n" . $node->safe_psql('postgres', q{
			SELECT a.pid || ' [' || coalesce(a.application_name, '') || '/' || a.backend_type || '] ' ||
			       coalesce(a.wait_event_type || ':' || a.wait_event, 'running') || ' blocked by ' ||
			       coalesce(pg_blocking_pids(a.pid)::text, '{}') || ' xact ' || coalesce(backend_xid::text, '-') ||
			       ' :: ' || left(regexp_replace(a.query, '\s+', ' ', 'g'), 160) || E'\n    locks waited: ' ||
			       coalesce((SELECT string_agg(l.locktype || ' ' || l.mode || ' ' ||
			                   coalesce(l.relation::regclass::text, l.transactionid::text,
			                            l.classid || '/' || l.objid || '/' || l.objsubid, ''), ', ')
			                 FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted), '-')
			FROM pg_stat_activity a
			WHERE a.pid <> pg_backend_pid() AND a.datname = current_database() AND a.state <> 'idle'
			ORDER BY a.pid}) . "\n";
	}
	return $report;
}

# One move, run in the background; past the limit, what waits on what is printed and the move
# cancelled.
my ($hung, $failed_moves) = (0, 0);
sub move
{
	my ($label, $sql) = @_;
	my ($out, $err) = ('', '');
	my $t0 = Time::HiRes::time();
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-h', $coordinator->host, '-p', $coordinator->port, '-d', 'postgres', '-c', $sql ],
		'>', \$out, '2>', \$err);
	while ($h->pumpable && Time::HiRes::time() - $t0 < $limit)
	{
		$h->pump_nb;
		select(undef, undef, undef, 0.1);
	}
	if ($h->pumpable)
	{
		$hung++;
		diag("$label hung for $limit s; what waits on what:\n" . waits());
		$coordinator->safe_psql('postgres', q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity
			WHERE query LIKE '%citus_schema_move%' OR query LIKE '%citus_move_shard_placement%' AND pid <> pg_backend_pid()});
		$h->finish;
		return -1;
	}
	$h->finish;
	if ($? != 0)
	{
		$failed_moves++;
		diag("$label failed: $err" . (join '', map { my $n = $_; "--- " . $n->name . ": what Citus's deadlock detector saw\n"
			  . join("\n", grep { /deadlock/i } split /\n/, slurp_file($n->logfile)) . "\n" } @nodes));
		return -1;
	}
	return Time::HiRes::time() - $t0;
}

my @hosts = ([ $worker1->host, $worker1->port ], [ $worker2->host, $worker2->port ]);
my (@schema_s, @shard_s);
for my $i (1 .. $moves)
{
	my ($from, $to) = $i % 2 ? @hosts : reverse @hosts;
	my $s = move("citus_schema_move $i of shard_$moving_schema",
		sprintf("SELECT citus_schema_move('shard_%04d', '%s', %d)", $moving_schema, @$to));
	last if $s < 0;
	push @schema_s, $s;
	$s = move("citus_move_shard_placement $i of Citus shard $moving_shard",
		sprintf("SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d)", $moving_shard, @$from, @$to));
	last if $s < 0;
	push @shard_s, $s;
	# the orphaned placements go before the next move back
	$coordinator->safe_psql('postgres', 'CALL citus_cleanup_orphaned_resources()');
}
is($hung, 0, 'no move hung');
is($failed_moves, 0, 'no move failed');
is(scalar(@schema_s), $moves, sprintf('citus_schema_move %d times while inserts ran (%.1f s each at most)',
	scalar(@schema_s), (sort { $b <=> $a } @schema_s, 0)[0]));
is(scalar(@shard_s), $moves, sprintf('citus_move_shard_placement %d times while inserts ran (%.1f s each at most)',
	scalar(@shard_s), (sort { $b <=> $a } @shard_s, 0)[0]));

# pgbench stops at the end of the moves: what the servers logged until then is every failure.
my %log_size = map { $_->name => -s $_->logfile } @nodes;
$_->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'pgbench'}) for @nodes;
for my $r (@runs)
{
	$r->[1]->kill_kill;
	$r->[1]->finish;
}
# (pgbench killed prints no summary: the transactions are counted in the tables.)
$coordinator->safe_psql('postgres', qq{
	CREATE FUNCTION audit(OUT total bigint, OUT duplicates bigint, OUT off_shard bigint) LANGUAGE plpgsql AS \$\$
	DECLARE n bigint; d bigint; o bigint;
	BEGIN
	  total := 0; duplicates := 0; off_shard := 0;
	  FOR s IN 0 .. $schemas - 1 LOOP
	    EXECUTE format('SELECT count(*), count(*) - count(DISTINCT id), count(*) FILTER (WHERE (idgen.instagram_parse(id)).shard <> \$1) FROM %I.posts', $schema_of)
	      INTO n, d, o USING s;
	    total := total + n; duplicates := duplicates + d; off_shard := off_shard + o;
	  END LOOP;
	END \$\$;});
my ($rows_posts, $posts_dup, $posts_off) = split /\|/, $coordinator->safe_psql('postgres', 'SELECT * FROM audit()');
my ($events, $events_dup, $events_off) = split /\|/, $coordinator->safe_psql('postgres', qq{
	SELECT count(*), count(*) - count(DISTINCT id), count(*) FILTER (WHERE (idgen.instagram_parse(id)).shard <> 100 + user_id % $logical) FROM app.events});
my ($direct, $refused, $direct_vias, $overlap) = split /\|/, $coordinator->safe_psql('postgres', sprintf(q{
	SELECT (SELECT count(*) FROM direct_ids), (SELECT count(*) FROM direct_refusals),
	       (SELECT count(DISTINCT via) FROM direct_ids),
	       (SELECT count(*) FROM direct_ids d JOIN shard_%04d.posts p USING (id))}, $moving_schema));
note("rows: $rows_posts in the schemas, $events in app.events; idgen.instagram_id($moving_schema) on the workers: "
	  . "$direct made, $refused refused");
cmp_ok($direct, '>', 0, "idgen.instagram_id($moving_schema) on the worker that held the schema made $direct IDs, through $direct_vias workers");
cmp_ok($refused, '>', 0, "... and was refused $refused times on the other (55000)");
is($overlap, 0, "... none of them among the schema's rows' IDs (the direct IDs' key holds no duplicate either)");
cmp_ok($rows_posts, '>', 0, "the schemas took $rows_posts rows");
is($posts_dup, 0, '0 duplicate IDs in the schemas');
is($posts_off, 0, "every ID's shard field is its schema's shard");
is($events_dup, 0, "0 duplicate IDs among app.events's $events rows");
is($events_off, 0, "every ID of app.events carries its row's shard");

# Every failed statement of the pgbench sessions is in a server log, before pgbench was stopped.
my $errors = '';
my $error_count = 0;
for my $node (@nodes)
{
	my $log = substr(slurp_file($node->logfile), 0, $log_size{ $node->name });
	for my $line (split /\n/, $log)
	{
		next unless $line =~ /ERROR:/;
		next if $line =~ /ERROR:  canceling autovacuum task/;    # Citus's cleanup of a moved shard's old copy
		$error_count++;
		$errors .= $node->name . ": $line\n" if $error_count <= 40;
	}
}
note("errors logged while the moves ran: $error_count");
is($errors, '', 'no insert failed during the moves') or diag($errors);

note(sprintf('the moves test took %.1f s after the servers started', Time::HiRes::time() - $started));
$_->stop for @nodes;
done_testing();
