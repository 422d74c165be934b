# Issue 30, item 2: no insert waits on another's transaction because of an Instagram shard's marks
# (idgen.instagram_shard_id(), one server). idgen 1.2 raised the shard's one mark row in the inserting
# transaction and held it to commit: every other insert into the shard waited for it, two-shard
# transactions in opposite orders deadlocked, REPEATABLE READ inserts failed (40001). From 1.3 a
# transaction that passes the committed marks inserts a mark row of its own. Here, every session runs
# under statement_timeout = 3s and deadlock_timeout = 100ms, with log_lock_waits on:
#   1. a transaction inserts one row and stays open 10 s; another session makes 10,000 inserts into
#      the same shard meanwhile, each its own transaction, 2,500 a second (the marks are passed
#      several times): all succeed before the first one ends;
#   2. two-shard transactions in both orders, 4 clients: no deadlock;
#   3. REPEATABLE READ and SERIALIZABLE transactions that take their snapshot, wait, then insert
#      while others raise the marks: no failure;
# and no session logged a lock wait; every committed ID lies below its shard's highest mark, none
# repeats.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $seconds = $ENV{IDGEN_SHARD_MARKS_SECONDS} || 5;
my $node = idgen_node('marks', conf => "log_lock_waits = on\ndeadlock_timeout = '100ms'\nmax_connections = 50");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION idgen;
	CREATE FUNCTION make_shard(s int) RETURNS void LANGUAGE plpgsql AS $$
	BEGIN
	  EXECUTE format('CREATE SCHEMA shard_%s', s);
	  PERFORM idgen.bind_instagram_shard(format('shard_%s', s)::regnamespace, s);
	  EXECUTE format('CREATE TABLE shard_%s.posts (id bigint PRIMARY KEY, via text NOT NULL)', s);
	  EXECUTE format('CREATE TRIGGER id BEFORE INSERT ON shard_%s.posts FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id(''id'')', s);
	END $$;
	SELECT make_shard(1), make_shard(2);
});
my $options = "-c statement_timeout=3s";

# pgbench with scripts: processed and failed transactions, and what it printed.
sub run_pgbench
{
	my ($clients, $length, $extra, @scripts) = @_;
	my @files;
	for my $i (0 .. $#scripts)
	{
		my $file = PostgreSQL::Test::Utils::tempdir() . "/script$i.sql";
		open my $fh, '>', $file or die $!;
		print $fh $scripts[$i];
		close $fh;
		push @files, '-f', $file;
	}
	local $ENV{PGOPTIONS} = "$options $extra";
	my ($out, $err) = ('', '');
	my $t0 = Time::HiRes::time();
	IPC::Run::run([ 'pgbench', '-n', '-c', $clients, '-j', 1, @$length, @files, '-h', $node->host, '-p', $node->port, 'postgres' ],
		'>', \$out, '2>', \$err);
	my ($processed) = $out =~ /number of transactions actually processed: (\d+)/;
	my ($failed) = $out =~ /number of failed transactions: (\d+)/;
	return ($processed // 0, $failed // 0, Time::HiRes::time() - $t0, $out . $err);
}

# 1. An open transaction that inserted a row, and 10,000 inserts of another session meanwhile. (psql
# in the background holds it open 10 s: PostgreSQL 15's framework has no interactive session.)
my ($open_out, $open_err) = ('', '');
my $open = IPC::Run::start(
	[
		'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-h', $node->host, '-p', $node->port, '-d', 'postgres',
		'-c', q{SET statement_timeout = '20s'; SET application_name = 'open_insert'; BEGIN;
		        INSERT INTO shard_1.posts (via) VALUES ('open'); SELECT pg_sleep(10); COMMIT;}
	],
	'>', \$open_out, '2>', \$open_err);
$node->poll_query_until('postgres',
	q{SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = 'open_insert' AND backend_xid IS NOT NULL AND query LIKE '%pg_sleep%'})
  or die 'the open transaction did not start';
my ($processed, $failed, $took, $out) = run_pgbench(1, [ '-t', 10000, '-R', 2500 ], '', q{INSERT INTO shard_1.posts (via) VALUES ('other');});
my $still_open = $node->safe_psql('postgres',
	q{SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = 'open_insert' AND backend_xid IS NOT NULL});
note(sprintf('10,000 inserts into shard 1 in %.2f s (%.0f a second) while a transaction that inserted into it stayed open',
	$took, 10000 / $took));
is($processed, 10000, "10,000 inserts, each its own transaction, into the shard of an open transaction's insert") or diag($out);
is($failed, 0, '... none failed (statement_timeout 3 s)') or diag($out);
is($still_open, 't', '... all done while that transaction was still open');
$open->finish;
is($?, 0, 'the open transaction committed after 10 s') or diag($open_err);
is($node->safe_psql('postgres', q{SELECT count(*) || ',' || count(DISTINCT id) FROM shard_1.posts}), '10001,10001',
	'... 10,001 rows, 10,001 IDs');
my ($marks_seen) = $node->safe_psql('postgres', q{SELECT count(*) FROM shard_1.idgen_instagram_shard});
note("shard 1 holds $marks_seen mark rows");

# 2. Two-shard transactions in both orders.
my $sleep = "\\sleep 20 ms\n";
($processed, $failed, $took, $out) = run_pgbench(4, [ '-T', $seconds ], '',
	"BEGIN;\nINSERT INTO shard_1.posts (via) VALUES ('1 then 2');\n${sleep}INSERT INTO shard_2.posts (via) VALUES ('1 then 2');\nCOMMIT;\n",
	"BEGIN;\nINSERT INTO shard_2.posts (via) VALUES ('2 then 1');\n${sleep}INSERT INTO shard_1.posts (via) VALUES ('2 then 1');\nCOMMIT;\n");
note(sprintf('%d two-shard transactions in %.1f s', $processed, $took));
cmp_ok($processed, '>', 0, "$processed two-shard transactions, half of them in each order, 4 clients for $seconds s");
is($failed, 0, '... none failed: no deadlock') or diag($out);
unlike($out, qr/aborted|ERROR/, '... no client aborted') or diag($out);

# 3. REPEATABLE READ and SERIALIZABLE: the snapshot first, then the insert, while the others raise
# the marks that the snapshot does not see.
for my $isolation ('repeatable read', 'serializable')
{
	($processed, $failed, $took, $out) = run_pgbench(4, [ '-T', $seconds ], '-c default_transaction_isolation=' . ($isolation =~ s/ /\\ /gr),
		"BEGIN;\nSELECT count(*) FROM pg_class;\n\\sleep 50 ms\nINSERT INTO shard_1.posts (via) VALUES ('$isolation');\n"
		  . "INSERT INTO shard_2.posts (via) VALUES ('$isolation');\nCOMMIT;\n");
	cmp_ok($processed, '>', 0, "$processed transactions under \U$isolation\E, 4 clients for $seconds s");
	is($failed, 0, '... none failed (no serialization failure)') or diag($out);
	unlike($out, qr/aborted|ERROR/, '... no client aborted') or diag($out);
}

for my $shard (1, 2)
{
	is( $node->safe_psql('postgres', qq{
			SELECT count(*) - count(DISTINCT id) || ',' ||
			       (max((idgen.instagram_parse(id)).ts) < (SELECT max(mark) FROM shard_$shard.idgen_instagram_shard))::text
			FROM shard_$shard.posts}),
		'0,true', "shard $shard: no ID repeats, every ID lies below the highest mark");
}
my $waits = () = slurp_file($node->logfile) =~ /still waiting for|deadlock detected|could not serialize/g;
is($waits, 0, 'no session waited for a lock, deadlocked or failed to serialize (log_lock_waits)');

# A bound schema renamed keeps its shard (the registry keeps the schema's OID): a new schema under
# the old name is refused the shard (55000), and idgen.instagram_id(shard) is made under the
# renamed schema's marks.
$node->safe_psql('postgres', q{
	CREATE SCHEMA kept; SELECT idgen.bind_instagram_shard('kept', 7001);
	ALTER SCHEMA kept RENAME TO kept_old; CREATE SCHEMA kept;
});
my ($state) = sqlstate_of($node, q{SELECT idgen.bind_instagram_shard('kept', 7001)});
is($state, '55000', 'a renamed schema keeps its shard: another schema under its old name is refused it (55000)');
is($node->safe_psql('postgres', q{
		SELECT (idgen.instagram_parse(idgen.instagram_id(7001))).shard || ',' ||
		       (SELECT schema_oid = 'kept_old'::regnamespace FROM idgen.instagram_shard_schemas WHERE shard = 7001)}),
	'7001,true', '... and idgen.instagram_id(7001) is made under its marks, bound by its OID');

$node->stop;
done_testing();
