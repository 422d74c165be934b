# idgen on a Citus cluster (issue 22, item 2): Instagram's logical shards as distributed schemas. A
# coordinator and two workers; 2,000 distributed schemas shard_0000 to shard_1999, each bound to its
# shard (idgen.bind_instagram_shard) with a table whose ID the trigger idgen.instagram_shard_id()
# fills on the worker that holds the schema. Worker 2's clock runs 8 s behind (libfaketime). pgbench
# inserts through the three nodes at once, into random shards and into one shard of worker 1's that
# citus_schema_move takes to worker 2 while the inserts run: no failed insert, no duplicate, every
# ID's shard field its schema's shard, the moved schema's IDs above its mark. Then a schema moved
# right after its last insert: the first ID made on worker 2 lies above every ID worker 1 made, after
# worker 2 waited for its clock to pass the shard's mark (8 s behind: without the mark it would lie
# seconds below them). Item 3: a table distributed by its rows' logical shard (below). Last, a marks
# table of idgen 1.2's layout in a distributed schema: never written, converted by binding it again.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $sharedir = `pg_config --sharedir` =~ s/\n//r;
plan skip_all => "Citus is not installed in $sharedir (scripts/citus-build.sh)" unless -f "$sharedir/extension/citus.control";

my $shards = $ENV{IDGEN_CITUS_SHARDS} || 2000;
my $seconds = $ENV{IDGEN_CITUS_SECONDS} || 20;
my $behind = 8;    # worker 2's clock, seconds behind the others

# Logical replication for citus_schema_move (its 'auto' mode copies while writes go on); worker 2
# waits out a mark up to 20 s ahead of its clock rather than refusing.
my ($coordinator, $worker1, $worker2) = citus_nodes([qw(coordinator worker1 worker2)],
	conf => "wal_level = logical\nmax_wal_senders = 10\nmax_replication_slots = 10\nidgen.max_clock_regression = '20s'");
my @nodes = ($coordinator, $worker1, $worker2);
# A node connects to itself (the move's replication) by citus.local_hostname: here, the socket's.
for my $node (@nodes) {
	$node->append_conf('postgresql.conf', "citus.local_hostname = '" . $node->host . "'");
	$node->reload;
}
$worker2->stop;
with_clock_offset(-$behind, sub { $worker2->start });
my $started = Time::HiRes::time();
$_->safe_psql('postgres', 'CREATE EXTENSION idgen') for @nodes;
my %group = citus_form($coordinator, $worker1, $worker2);
# (worker 2's clock read first: time spent between the two reads can only add to the lag measured,
# so a loaded machine cannot make it look smaller than it is)
my $worker2_now = $worker2->safe_psql('postgres', 'SELECT extract(epoch FROM now())');
my $lag = $coordinator->safe_psql('postgres', 'SELECT extract(epoch FROM now())') - $worker2_now;
cmp_ok($lag, '>', $behind - 2, sprintf('worker 2\'s clock is %.1f s behind the coordinator\'s', $lag));

# The schemas: each bound, distributed (to one worker), then given a table and the trigger. The name of a
# shard's schema, in SQL.
my $schema_of = q{'shard_' || lpad(s::text, 4, '0')};
my $t0 = Time::HiRes::time();
my $batch = 250;
for (my $from = 0; $from < $shards; $from += $batch) {
	my $to = $from + $batch - 1;
	$to = $shards - 1 if $to > $shards - 1;
	my $sql = $coordinator->safe_psql('postgres', qq{
		SELECT string_agg(format(\$\$CREATE SCHEMA %1\$I;
SELECT idgen.bind_instagram_shard(%1\$L, %2\$s);
SELECT citus_schema_distribute(%1\$L);
CREATE TABLE %1\$I.posts (id bigint PRIMARY KEY, via int NOT NULL);
CREATE TRIGGER id BEFORE INSERT ON %1\$I.posts FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
\$\$, $schema_of, s), '' ORDER BY s) FROM generate_series($from, $to) s});
	$coordinator->safe_psql('postgres', $sql);
}
note(sprintf('%d distributed schemas bound, each with a table, in %.1f s', $shards, Time::HiRes::time() - $t0));
# A schema that Citus already distributes is refused: the shard's table, created by a function,
# would stay on the coordinator.
$coordinator->safe_psql('postgres', 'SET citus.enable_schema_based_sharding = on; CREATE SCHEMA late');
my ($state, $message, $hint) = sqlstate_of($coordinator, "SELECT idgen.bind_instagram_shard('late', 1)");
is($state, '55000', 'binding a schema that Citus already distributes is refused (55000)');
like($hint, qr/citus_schema_undistribute.*bind_instagram_shard.*citus_schema_distribute/, '... saying to bind it first');
my %port_group = map { $_->port => $group{ $_->name } } @nodes;
my %on = map { my ($port, $n) = split /\|/; ($port_group{$port} => $n) } split /\n/,
  $coordinator->safe_psql('postgres', q{
	SELECT nodeport, count(*) FROM citus_shards WHERE citus_table_type = 'schema' AND shard_name LIKE 'shard\_%.posts\_%'
	GROUP BY nodeport});
is(($on{ $group{worker1} } // 0) + ($on{ $group{worker2} } // 0), $shards,
	"the $shards schemas lie on the two workers ($on{$group{worker1}} and $on{$group{worker2}})");

# What the application runs: an insert into the table of a shard's schema, on the node it reaches.
$coordinator->safe_psql('postgres', qq{
	CREATE FUNCTION post(s int, via int) RETURNS void LANGUAGE plpgsql AS \$\$
	BEGIN
	  EXECUTE format('INSERT INTO %I.posts (via) VALUES (\$1)', $schema_of) USING via;
	END \$\$;});
my $placed = sub {    # the group of the worker that holds a shard's schema
	my ($s) = @_;
	return $port_group{ $coordinator->safe_psql('postgres',
			"SELECT nodeport FROM citus_shards WHERE shard_name LIKE 'shard\\_" . sprintf('%04d', $s) . ".posts\\_%'") };
};
my ($moved, $later) = split /\n/, $coordinator->safe_psql('postgres', sprintf(q{
	SELECT substring(shard_name FROM 'shard_(\d+)')::int FROM citus_shards
	WHERE citus_table_type = 'schema' AND shard_name LIKE 'shard\_%%.posts\_%%' AND nodeport = %d
	ORDER BY 1 LIMIT 2}, $worker1->port));
die 'fewer than two schemas on worker 1' unless defined $later;

# Issue 30, item 3: one maker per shard. idgen.instagram_id(shard) of a bound shard is made only on the
# node that holds its schema (under its marks); the coordinator and the other worker refuse (55000),
# saying where the shard lives. A shard bound to no schema is made anywhere. A second schema for a
# bound shard is refused.
for my $node ($coordinator, $worker2)
{
	my ($state, $message, $hint) = sqlstate_of($node, "SELECT idgen.instagram_id($later)");
	is($state, '55000', $node->name . ": idgen.instagram_id($later) of a shard bound to a schema on worker 1 is refused (55000)");
	like($message, qr/bound to schema shard_\d+, which lives on \Q@{[$worker1->host]}:@{[$worker1->port]}\E/, '... saying where it lives');
}
my $direct = $worker1->safe_psql('postgres', "SELECT idgen.instagram_id($later)");
is( $coordinator->safe_psql('postgres', sprintf(q{
		SELECT (idgen.instagram_parse(%s)).shard = %d AND (idgen.instagram_parse(%s)).ts < (SELECT max(mark) FROM shard_%04d.idgen_instagram_shard)},
		$direct, $later, $direct, $later)),
	't', "worker 1, which holds it: idgen.instagram_id($later) is made there, below its marks");
is($coordinator->safe_psql('postgres', 'SELECT (idgen.instagram_parse(idgen.instagram_id(7000))).shard'), '7000',
	'a shard bound to no schema is made on any node');
$coordinator->safe_psql('postgres', 'CREATE SCHEMA again');
($state, $message, $hint) = sqlstate_of($coordinator, "SELECT idgen.bind_instagram_shard('again', $later)");
is($state, '55000', "binding a second schema to shard $later is refused (55000)");
like($message, qr/Instagram shard $later is bound to schema shard_/, '... naming the schema that holds it');

# pgbench through the three nodes at once: a random shard and the shard that moves, each time.
my $script = PostgreSQL::Test::Utils::tempdir() . '/post.sql';
open my $fh, '>', $script or die $!;
print $fh "\\set s random(0, $shards - 1)\nSELECT post(:s, :via);\nSELECT post($moved, :via);\n";
close $fh;
my @runs;
for my $node (@nodes) {
	my ($out, $err) = ('', '');
	push @runs,
	  [
		$node,
		IPC::Run::start(
			[
				'pgbench', '-n', '-c', 2, '-j', 1, '-T', $seconds, '-f', $script,
				'-D', "via=$group{$node->name}", '-h', $node->host, '-p', $node->port, 'postgres'
			],
			'>', \$out, '2>', \$err),
		\$out, \$err
	  ];
}
sleep($seconds / 4);
my $m0 = Time::HiRes::time();
$coordinator->safe_psql('postgres',
	sprintf("SET statement_timeout = '120s'; SELECT citus_schema_move('shard_%04d', '%s', %d)", $moved, $worker2->host, $worker2->port));
my $move_s = Time::HiRes::time() - $m0;
is($placed->($moved), $group{worker2}, sprintf('shard_%04d moved to worker 2 while the inserts ran (%.1f s)', $moved, $move_s));
my $transactions = 0;
for my $r (@runs) {
	$r->[1]->finish;
	my ($processed) = ${ $r->[2] } =~ /number of transactions actually processed: (\d+)/;
	my ($failed) = ${ $r->[2] } =~ /number of failed transactions: (\d+)/;
	$transactions += $processed // 0;
	ok(($processed // 0) > 0 && ($failed // -1) == 0 && ${ $r->[3] } !~ /aborted|ERROR/,
		$r->[0]->name . ': pgbench, ' . ($processed // 0) . ' transactions, none failed')
	  or diag(${ $r->[2] } . ${ $r->[3] });
}

# Every shard's table, read through the coordinator: rows, duplicates, IDs off their shard.
$coordinator->safe_psql('postgres', qq{
	CREATE FUNCTION audit(OUT total bigint, OUT duplicates bigint, OUT off_shard bigint, OUT shards_used int)
	LANGUAGE plpgsql AS \$\$
	DECLARE n bigint; d bigint; o bigint;
	BEGIN
	  total := 0; duplicates := 0; off_shard := 0; shards_used := 0;
	  FOR s IN 0 .. $shards - 1 LOOP
	    EXECUTE format('SELECT count(*), count(*) - count(DISTINCT id), count(*) FILTER (WHERE (idgen.instagram_parse(id)).shard <> \$1) FROM %I.posts', $schema_of)
	      INTO n, d, o USING s;
	    total := total + n; duplicates := duplicates + d; off_shard := off_shard + o;
	    IF n > 0 THEN shards_used := shards_used + 1; END IF;
	  END LOOP;
	END \$\$;});
my ($total, $duplicates, $off, $used) = split /\|/, $coordinator->safe_psql('postgres', 'SELECT * FROM audit()');
is($total, 2 * $transactions, "every insert is there: $total rows in $used shards");
is($duplicates, 0, '0 duplicate IDs in any shard');
is($off, 0, "every ID's shard field is its schema's shard");
is( $coordinator->safe_psql('postgres',
		sprintf(q{SELECT count(*) FILTER (WHERE via = %d) > 0 AND count(*) FILTER (WHERE via = %d) > 0 AND count(*) FILTER (WHERE via = %d) > 0
		          FROM shard_%04d.posts}, $group{coordinator}, $group{worker1}, $group{worker2}, $moved)),
	't', sprintf('shard_%04d took inserts through the three nodes', $moved));
is( $coordinator->safe_psql('postgres',
		sprintf(q{SELECT (SELECT max((idgen.instagram_parse(id)).ts) FROM shard_%04d.posts) < m.mark
		                 AND m.mark_server = %s FROM (SELECT * FROM shard_%04d.idgen_instagram_shard ORDER BY mark DESC LIMIT 1) m},
			$moved, $worker2->safe_psql('postgres', 'SELECT idgen.server_instance()'), $moved)),
	't', sprintf('shard_%04d: its highest mark lies above its IDs, written by worker 2 after the move', $moved));

# A schema moved right after its last insert on worker 1: the first ID that worker 2 makes lies
# above every ID of worker 1's, though worker 2's clock is 8 s behind: it waits for the mark.
my $posts = sprintf('shard_%04d.posts', $later);
$worker1->safe_psql('postgres', "SELECT post($later, $group{worker1}) FROM generate_series(1, 200)");
my ($before, $rows_before) = split /\|/, $coordinator->safe_psql('postgres', "SELECT max(id), count(*) FROM $posts");
$m0 = Time::HiRes::time();
$coordinator->safe_psql('postgres',
	sprintf("SELECT citus_schema_move('shard_%04d', '%s', %d)", $later, $worker2->host, $worker2->port));
my $w0 = Time::HiRes::time();
my $first = $worker2->safe_psql('postgres', "SELECT post($later, $group{worker2}); SELECT max(id) FROM $posts");
note(sprintf('moved in %.1f s; the first insert on worker 2 took %.1f s', $w0 - $m0, Time::HiRes::time() - $w0));
cmp_ok($first, '>', $before,
	sprintf('shard_%04d: moved to worker 2 (clock %d s behind) right after 200 inserts on worker 1: its first ID there lies above them', $later, $behind));
is($coordinator->safe_psql('postgres', "SELECT count(*) - count(DISTINCT id) || ',' || count(*) FROM $posts"), '0,' . ($rows_before + 1),
	'... ' . ($rows_before + 1) . ' rows, no duplicate');

# Item 3: a table distributed by the row's logical shard (user_id % 2000, as Instagram did: here
# 4000 + user_id % 2000, apart from the schemas' shards, since a shard is bound to one schema), every
# shard bound to its schema in idgen_instagram_shard, distributed by shard alongside the table (its
# rows move with theirs); the trigger (Citus runs it on the worker that stores the row, with
# citus.enable_unsafe_triggers) takes the shard from the row. pgbench through the three nodes, then
# one of the table's Citus shards (with its colocated marks) moves to worker 2 (8 s behind), then
# pgbench again. (The move runs between the two: once in about six runs, a citus_move_shard_placement
# under inserts into this table hung here; see the closing note of issue 22.)
$coordinator->safe_psql('postgres', q{
	CREATE SCHEMA app;
	CREATE TABLE app.events (user_id bigint NOT NULL, shard int NOT NULL, id bigint, via int NOT NULL, PRIMARY KEY (shard, id));
	SELECT idgen.bind_instagram_shard('app', s) FROM generate_series(4000, 5999) s;
	SELECT create_distributed_table('app.events', 'shard', shard_count => 8);
	SELECT create_distributed_table('app.idgen_instagram_shard', 'shard', colocate_with => 'app.events');
	SET citus.enable_unsafe_triggers = on;
	CREATE TRIGGER id BEFORE INSERT ON app.events FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id', 'shard');
});
$script = PostgreSQL::Test::Utils::tempdir() . '/event.sql';
open $fh, '>', $script or die $!;
print $fh "\\set u random(1, 1000000)\nINSERT INTO app.events (user_id, shard, via) VALUES (:u, 4000 + :u % 2000, :via);\n";
close $fh;
$transactions = 0;
my $bench = sub {    # pgbench through the three nodes at once, for some seconds
	my ($label, $for) = @_;
	my @runs;
	for my $node (@nodes) {
		my ($out, $err) = ('', '');
		push @runs,
		  [
			$node,
			IPC::Run::start(
				[
					'pgbench', '-n', '-c', 2, '-j', 1, '-T', $for, '-f', $script,
					'-D', "via=$group{$node->name}", '-h', $node->host, '-p', $node->port, 'postgres'
				],
				'>', \$out, '2>', \$err),
			\$out, \$err
		  ];
	}
	for my $r (@runs) {
		$r->[1]->finish;
		my ($processed) = ${ $r->[2] } =~ /number of transactions actually processed: (\d+)/;
		my ($failed) = ${ $r->[2] } =~ /number of failed transactions: (\d+)/;
		$transactions += $processed // 0;
		ok(($processed // 0) > 0 && ($failed // -1) == 0 && ${ $r->[3] } !~ /aborted|ERROR/,
			$r->[0]->name . ": pgbench into app.events $label, " . ($processed // 0) . ' transactions, none failed')
		  or diag(${ $r->[2] } . ${ $r->[3] });
	}
};
$bench->('before the move', $seconds / 4);
my $shardid = $coordinator->safe_psql('postgres', sprintf(q{
	SELECT shardid FROM citus_shards WHERE table_name = 'app.events'::regclass AND nodeport = %d ORDER BY shardid LIMIT 1},
	$worker1->port));
$m0 = Time::HiRes::time();
$coordinator->safe_psql('postgres', sprintf("SET statement_timeout = '120s'; SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d)",
	$shardid, $worker1->host, $worker1->port, $worker2->host, $worker2->port));
note(sprintf('Citus shard %d of app.events (and its marks) moved to worker 2 in %.1f s', $shardid, Time::HiRes::time() - $m0));
$bench->('after the move', $seconds / 4);
is( $coordinator->safe_psql('postgres', q{
		SELECT count(*) || ',' || (count(*) - count(DISTINCT id)) || ',' || count(*) FILTER (WHERE (idgen.instagram_parse(id)).shard <> 4000 + user_id % 2000)
		FROM app.events}),
	"$transactions,0,0",
	"app.events: $transactions rows through the three nodes, before and after a Citus shard moved to worker 2: 0 duplicates, every ID's shard field 4000 + user_id % 2000");
is( $coordinator->safe_psql('postgres', q{
		SELECT count(*) FROM (SELECT shard, max(mark) AS mark FROM app.idgen_instagram_shard GROUP BY shard) m
		WHERE m.mark <= (SELECT max((idgen.instagram_parse(e.id)).ts) FROM app.events e WHERE e.shard = m.shard)}),
	'0', 'app.events: every shard\'s mark lies above its IDs');

# A schema whose marks table has idgen 1.2's layout (keyed by the shard alone, one row per shard), as
# a dump of 1.2 restored into 1.3 brings it, distributed with its schema: idgen writes no mark into
# it (55000 from every node), and binding refuses a marks table that Citus distributes (55000: a
# distributed write would run where idgen does not see). Undistributed, bound again on the
# coordinator and distributed again, it is converted (a row per raise, keyed by (shard, id)) and
# registered, and the three nodes make its IDs.
$coordinator->safe_psql('postgres', q{
	CREATE SCHEMA legacy;
	CREATE TABLE legacy.idgen_instagram_shard (shard integer PRIMARY KEY CHECK (shard BETWEEN 0 AND 8191),
	                                           mark timestamptz NOT NULL, mark_server bigint NOT NULL);
	INSERT INTO legacy.idgen_instagram_shard VALUES (6100, to_timestamp(0), 0);
	SELECT citus_schema_distribute('legacy');
	CREATE TABLE legacy.posts (id bigint PRIMARY KEY, via int NOT NULL);
	CREATE TRIGGER id BEFORE INSERT ON legacy.posts FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
});
for my $node (@nodes)
{
	my ($state, $message) = sqlstate_of($node, "INSERT INTO legacy.posts (via) VALUES ($group{$node->name})");
	is($state, '55000', $node->name . ': an insert under a marks table of 1.2\'s layout is refused (55000)');
	like($message, qr/has the layout of idgen 1\.2/, '... saying so');
}
($state, $message, $hint) = sqlstate_of($coordinator, q{SELECT idgen.bind_instagram_shard('legacy', 6100)});
is($state, '55000', 'binding into a marks table that Citus distributes is refused (55000)');
like($hint, qr/citus_schema_undistribute/, '... saying to undistribute it first');
$coordinator->safe_psql('postgres', q{
	SET citus.enable_unsafe_triggers = on;   -- (Citus's switch for a table with triggers)
	SELECT citus_schema_undistribute('legacy');
	SELECT idgen.bind_instagram_shard('legacy', 6100);
	SELECT citus_schema_distribute('legacy');
});
$_->safe_psql('postgres', "INSERT INTO legacy.posts (via) SELECT $group{$_->name} FROM generate_series(1, 100)") for @nodes;
is( $coordinator->safe_psql('postgres', q{
		SELECT count(*) || ',' || count(DISTINCT id) || ',' ||
		       (max((idgen.instagram_parse(id)).ts) < (SELECT max(mark) FROM legacy.idgen_instagram_shard))::text || ',' ||
		       (SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'legacy.idgen_instagram_shard'::regclass AND contype = 'p') || ',' ||
		       (SELECT schema_name FROM idgen.instagram_shard_schemas WHERE shard = 6100)
		FROM legacy.posts}),
	'300,300,true,PRIMARY KEY (shard, id),legacy', '... bound again, undistributed: converted, registered, 300 rows through the three nodes');

# A bound schema renamed keeps its shard: the coordinator's registry knows it by its OID, so a new
# schema under the old name, or any other, is refused the shard (55000). A worker reads the
# coordinator's row, whose OID means nothing there: it goes by the name, and where the old name is
# gone (or is another schema's now) idgen.instagram_id(shard) is refused (55000), never made as if the
# shard were unbound. Bound again on the coordinator under its new name, the schema's row says it on
# every node, and the shard's IDs are made where it lives.
$coordinator->safe_psql('postgres', q{
	ALTER SCHEMA shard_0003 RENAME TO shard_0003_old;
	CREATE SCHEMA shard_0003;
	CREATE SCHEMA other_0003;
});
for my $schema (qw(shard_0003 other_0003))
{
	($state, $message) = sqlstate_of($coordinator, "SELECT idgen.bind_instagram_shard('$schema', 3)");
	is($state, '55000', "the renamed schema keeps shard 3: binding $schema to it is refused (55000)");
	like($message, qr/bound to schema shard_0003_old/, '... naming the schema by its name now');
}
for my $node ($worker1, $worker2)
{
	($state, $message) = sqlstate_of($node, 'SELECT idgen.instagram_id(3)');
	is($state, '55000', $node->name . ': idgen.instagram_id(3) of the renamed schema\'s shard is refused (55000)');
}
$coordinator->safe_psql('postgres', q{SELECT idgen.bind_instagram_shard('shard_0003_old', 3)});
is($_->safe_psql('postgres', 'SELECT schema_name FROM idgen.instagram_shard_schemas WHERE shard = 3'),
	'shard_0003_old', $_->name . ': bound again on the coordinator, the binding names the schema by its name now')
  for @nodes;
my $made = 0;
for my $node ($worker1, $worker2)
{
	($state, $message) = sqlstate_of($node, 'SELECT idgen.instagram_id(3)');
	$made++ if $state eq '';
	like($message, qr/^$|lives on/, $node->name . ': idgen.instagram_id(3) is made where the schema lives, refused elsewhere');
}
is($made, 1, '... on one worker');
$_->safe_psql('postgres', "INSERT INTO shard_0003_old.posts (via) SELECT $group{$_->name} FROM generate_series(1, 10)") for @nodes;
is($coordinator->safe_psql('postgres', q{SELECT count(*) - count(DISTINCT id) FROM shard_0003_old.posts}),
	'0', 'the renamed schema\'s trigger makes its IDs through every node');

# Bindings are written on the coordinator only: a worker's bind, of a new schema or of one the
# coordinator bound, is refused (55000), so that no shard is bound on two nodes.
$coordinator->safe_psql('postgres', 'CREATE SCHEMA on_worker');
for my $node ($worker1, $worker2)
{
	for my $bind (q{'on_worker', 8100}, q{'shard_0003_old', 3})
	{
		($state, $message) = sqlstate_of($node, "SELECT idgen.bind_instagram_shard($bind)");
		is($state, '55000', $node->name . ": bind_instagram_shard($bind) on a worker is refused (55000)");
	}
}
is($coordinator->safe_psql('postgres', 'SELECT count(*) FROM idgen.instagram_shard_schemas WHERE shard = 8100'), '0',
	'... and writes nothing');

# Every cache of idgen in one session (the trigger, a bind, idgen.instagram_id of a bound shard,
# the durable mark's copy, the Citus catalogs), then DDL that Citus runs its own relcache callbacks
# for: idgen takes one of the backend's ten relcache callback slots, not one per cache (a session
# with all of them died with "out of relcache_callback_list slots").
like($coordinator->safe_psql('postgres', q{
	CREATE SCHEMA slots;
	SELECT idgen.bind_instagram_shard('slots', 8101);
	SELECT idgen.instagram_id(8101) > 0;
	CREATE TABLE slots.t (id bigint PRIMARY KEY, v int);
	CREATE TRIGGER id BEFORE INSERT ON slots.t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
	INSERT INTO slots.t (v) VALUES (1);
	SELECT idgen.snowflake_id() > 0, idgen.uuidv7() IS NOT NULL;
	DROP TABLE slots.t;
	SELECT 'alive'}), qr/t\nt\|t\nalive$/, 'every cache of idgen in one session, then DROP TABLE: the session lives');

note(sprintf('the Citus shards test took %.1f s after the servers started', Time::HiRes::time() - $started));
$_->stop for @nodes;
done_testing();
