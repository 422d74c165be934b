# The node identity is the server's alone, and every session honors what the server and its
# databases hold now: a retired identity lease is retired on disk; a statement in flight across a
# reload takes the new identity; a reload that rejects an idgen.* line makes the generators that
# read it refuse, as at start; a session connected before a restore honors the restored copy (the
# mark's and the DecimalId generator's); DROP and CREATE EXTENSION in one transaction leave a copy
# that covers the values made after them. Each part fails on idgen before 1.3's fix.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

sub reload_until
{
	my ($node, $sql, $setting, $value) = @_;
	$node->safe_psql('postgres', "$sql; SELECT pg_reload_conf()");
	$node->poll_query_until('postgres', "SELECT current_setting('$setting') = '$value'");
	return;
}

# ---- a retired identity lease is retired on disk ------------------------------------------------

# The clock 8 s ahead, node 1 makes IDs; the clock right again, node 2 restarts at the clock (an
# identity lease at the clock). Node 1 put back drops that lease (node 1 lies below the server's
# lease again); node 2 once more makes IDs, from the server's lease on. A restart with the clock a
# little behind those IDs must not find the dropped lease under node 2's identity and start node 2
# from the clock, below them (1.3 before the fix: the lease was dropped in memory only).
my $node = idgen_node('retired', conf => "idgen.node_id = 1\nidgen.max_clock_regression = '1s'");
with_clock_offset(8, sub { $node->start });
$node->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE TABLE s (phase int, id bigint UNIQUE); CREATE DATABASE other');
$node->safe_psql('other', 'CREATE EXTENSION idgen');
$node->safe_psql('postgres', 'INSERT INTO s SELECT 1, idgen.snowflake_id() FROM generate_series(1, 1000)');
$node->stop;
$node->start;
reload_until($node, q{ALTER SYSTEM SET idgen.node_id = 2; ALTER SYSTEM SET idgen.uid20_server = 2; ALTER SYSTEM SET idgen.instagram_shards = ''},
	'idgen.node_id', '2');
like($node->safe_psql('postgres', 'SELECT idgen.restart_at_clock()'), qr/carry on from the clock/, 'node 2: restart_at_clock');
$node->safe_psql('postgres', 'INSERT INTO s SELECT 2, idgen.snowflake_id() FROM generate_series(1, 1000)');
reload_until($node, 'ALTER SYSTEM SET idgen.node_id = 1', 'idgen.node_id', '1');
# (in a database whose copy of the mark holds none of node 1's IDs: the server's marks decide)
is((sqlstate_of($node, 'SELECT idgen.snowflake_id()', db => 'other'))[0], '55000',
	'node 1 put back: it refuses below the IDs it made ahead (the identity lease is dropped)');
reload_until($node, 'ALTER SYSTEM SET idgen.node_id = 2', 'idgen.node_id', '2');
$node->poll_query_until('postgres', 'SELECT idgen.snowflake_id() IS NOT NULL');
$node->safe_psql('postgres', 'INSERT INTO s SELECT 4, idgen.snowflake_id() FROM generate_series(1, 1000)');
my ($phase4_max, $phase4_ms) = split /\|/, $node->safe_psql('postgres',
	'SELECT max(id), (extract(epoch FROM (idgen.snowflake_parse(max(id))).ts) * 1000)::bigint FROM s WHERE phase = 4');
$node->stop;
# (in a new database, whose copy of the mark records none of them: only the server's marks hold them)
with_clock_offset(clock_offset_to($phase4_ms, 4), sub { $node->start });
$node->safe_psql('postgres', 'CREATE DATABASE third');
$node->safe_psql('third', 'CREATE EXTENSION idgen');
my ($state5, $message5) = sqlstate_of($node,
	"CREATE TABLE v AS SELECT idgen.snowflake_id() AS id FROM generate_series(1, 1000)", db => 'third');
my $below = $state5 eq '' ? $node->safe_psql('third', "SELECT count(*) FROM v WHERE id <= $phase4_max") : '0';
is($below, '0', 'restarted with the clock 4 s behind node 2\'s last IDs: none made at or below them, in any database'
	  . ($state5 ? " (refused: $message5)" : ''));
$node->stop;

# ---- a statement in flight across a reload takes the new identity -------------------------------

# (a server whose clock is where its words are: values follow the clock and reach the lease)
my $flight = idgen_node('flight', conf => 'idgen.node_id = 7');
$flight->start;
$flight->safe_psql('postgres', 'CREATE EXTENSION idgen');
my $session = $flight->background_psql('postgres', on_error_stop => 0);
$session->query_until(qr/started/,
	"\\echo started\nCREATE TABLE flight AS SELECT n, idgen.snowflake_id() AS id FROM generate_series(1, 400) n, "
	  . "LATERAL (SELECT pg_sleep(0.01 + n * 0)) s;\n");
sleep 1;
$flight->safe_psql('postgres', 'ALTER SYSTEM SET idgen.node_id = 8; SELECT pg_reload_conf()');
$session->query('SELECT 1');
$session->quit;
my ($first, $last) = split /\|/, $flight->safe_psql('postgres',
	'SELECT (idgen.snowflake_parse(min(id))).node, (idgen.snowflake_parse(max(id))).node FROM flight');
is("$first $last", '7 8', 'a statement in flight: node 7 before the reload, node 8 after it (before: 7 to the end)');
is($flight->safe_psql('postgres',
		'SELECT count(*) FROM (SELECT (idgen.snowflake_parse(id)).node AS node, lag((idgen.snowflake_parse(id)).node) OVER (ORDER BY n) AS prev FROM flight) f WHERE node < prev'),
	'0', 'and never back to node 7 once it took node 8');

# ---- a reload read inside an open transaction ----------------------------------------------------

# The clock 8 s ahead, node 11 makes IDs in an open transaction; a reload gives the server a new
# identity (every part), which the session reads between two statements of that transaction, and
# its next IDs carry node 12. The lease must then name node 12: the clock right again,
# restart_at_clock() must not move node 12 back to the clock below the IDs it made ahead (1.3
# before the fix: those IDs were covered by the session's bound under node 11's lease, and
# restart_at_clock() moved node 12 back).
my $txn = idgen_node('txn', conf => "idgen.node_id = 11\nidgen.max_clock_regression = '1s'");
with_clock_offset(8, sub { $txn->start });
$txn->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE TABLE t (phase int, id bigint UNIQUE); CREATE DATABASE fresh');
$txn->safe_psql('fresh', 'CREATE EXTENSION idgen');
my $open = $txn->background_psql('postgres', on_error_stop => 1);
$open->query_safe('BEGIN');
$open->query_safe('INSERT INTO t SELECT 1, idgen.snowflake_id() FROM generate_series(1, 100)');
$txn->safe_psql('postgres',
	q{ALTER SYSTEM SET idgen.node_id = 12; ALTER SYSTEM SET idgen.uid20_server = 2; ALTER SYSTEM SET idgen.instagram_shards = ''; SELECT pg_reload_conf()});
my $seen = '';
for (1 .. 50) {
	$seen = $open->query_safe(q{SELECT current_setting('idgen.node_id')});
	last if $seen eq '12';
	select(undef, undef, undef, 0.1);
}
is($seen, '12', 'the session in its open transaction read the reload');
$open->query_safe('INSERT INTO t SELECT 2, idgen.snowflake_id() FROM generate_series(1, 100)');
$open->query_safe('COMMIT');
$open->quit;
is($txn->safe_psql('postgres', 'SELECT string_agg(DISTINCT (idgen.snowflake_parse(id)).node::text, \',\' ORDER BY (idgen.snowflake_parse(id)).node::text) FROM t WHERE phase = 2'),
	'12', 'the IDs after the reload, in the same transaction, carry node 12');
my $phase2_max = $txn->safe_psql('postgres', 'SELECT max(id) FROM t WHERE phase = 2');
$txn->stop;
$txn->start;
my ($txn_state, $txn_message) = sqlstate_of($txn, 'SELECT idgen.restart_at_clock()');
is($txn_state, '55000', "restart_at_clock() under node 12, whose IDs lie ahead of the clock: refused ($txn_message)");
# (in a database whose copy of the mark holds none of them: only the server's marks hold them)
my ($made_state) = sqlstate_of($txn, 'CREATE TABLE v AS SELECT idgen.snowflake_id() AS id FROM generate_series(1, 1000)', db => 'fresh');
is($made_state eq '' ? $txn->safe_psql('fresh', "SELECT count(*) FROM v WHERE id <= $phase2_max") : '0', '0',
	'no ID of node 12 at or below those it made in the open transaction');
$txn->stop;

# ---- a reload that rejects a line, or ignores a misspelt one -------------------------------------

reload_until($flight, 'ALTER SYSTEM RESET idgen.node_id', 'idgen.node_id', '7');
$flight->append_conf('postgresql.conf', 'idgen.node_id = 70000');
$flight->reload;
$flight->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_file_settings WHERE name = 'idgen.node_id' AND error IS NOT NULL});
my ($state, $message, $hint) = sqlstate_of($flight, 'SELECT idgen.snowflake_id()');
is($state, '55000', "idgen.node_id = 70000 rejected at a reload: Snowflake refuses ($message)");
like($message, qr/^invalid value for idgen\.node_id: "70000"$/, 'naming the line');
like($hint, qr/reload/, "and saying a reload of the corrected line is enough: $hint");
is($flight->safe_psql('postgres', 'SELECT idgen.uuidv7() IS NOT NULL'), 't', 'UUIDv7, which does not read it, goes on');
$flight->append_conf('postgresql.conf', 'idgen.node_id = 9');
reload_until($flight, 'SELECT 1', 'idgen.node_id', '9');
is($flight->safe_psql('postgres', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), '9',
	'corrected and reloaded: Snowflake makes IDs of node 9');
# The same line edited in place (its file and line are those of the value it replaces).
my $conf = $flight->data_dir . '/postgresql.conf';
my $text = PostgreSQL::Test::Utils::slurp_file($conf);
$text =~ s/^idgen\.node_id = 9$/idgen.node_id = 70000/m or die 'no line to edit';
open(my $fh, '>', $conf) or die $!;
print $fh $text;
close $fh;
$flight->reload;
$flight->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_file_settings WHERE name = 'idgen.node_id' AND error IS NOT NULL});
($state, $message) = sqlstate_of($flight, 'SELECT idgen.snowflake_id()');
is($state, '55000', "the line edited in place to 70000: Snowflake refuses ($message)");
$text =~ s/^idgen\.node_id = 70000$/idgen.node_id = 9/mg;
open($fh, '>', $conf) or die $!;
print $fh $text;
close $fh;
$flight->reload;
$flight->poll_query_until('postgres', q{SELECT count(*) = 0 FROM pg_file_settings WHERE name = 'idgen.node_id' AND error IS NOT NULL});
$flight->poll_query_until('postgres', 'SELECT idgen.snowflake_id() IS NOT NULL');
is($flight->safe_psql('postgres', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), '9', 'edited back: node 9');
$flight->append_conf('postgresql.conf', 'idgen.max_clock_leed = 1000');
$flight->reload;
$flight->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_file_settings WHERE name = 'idgen.max_clock_leed'});
($state, $message) = sqlstate_of($flight, 'SELECT idgen.uuidv7()');
is($state, '55000', "a misspelt idgen.max_clock_leed at a reload: UUIDv7 refuses ($message)");
($state, $message) = sqlstate_of($flight, "SELECT idgen.typeid('post')");
is($state, '55000', 'and typeid');
($state, $message) = sqlstate_of($flight, 'SELECT idgen.ulid()');
is($state, '55000', 'and ULID');
$flight->stop;

# ---- a misspelt line reloaded under load ------------------------------------------------------------

# The operator's idgen.node_id = 5 turns, from one reload to the next, into a misspelt idgen.nodeid
# (the real setting then falls back to its default, 0) and back, while sessions make the four node
# families: some in long transactions, some connecting for each statement. No ID may carry a node id
# the operator did not set (before: whole statements came out under node 0, in sessions that
# connected or began a transaction around a reload).
my $misspelt = idgen_node('misspelt', conf => "idgen.node_id = 5");
$misspelt->start;
$misspelt->safe_psql('postgres', q{
CREATE EXTENSION idgen;
CREATE TABLE made (snowflake bigint, sonyflake bigint, trace bigint, js bigint);
CREATE FUNCTION fill() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO made SELECT idgen.snowflake_id(), idgen.sonyflake_id(), idgen.trace_id(), idgen.js_id()
    FROM generate_series(1, 500);
  RETURN 1;
EXCEPTION WHEN object_not_in_prerequisite_state THEN RETURN 0;
END $$;
});
my $good_conf = PostgreSQL::Test::Utils::slurp_file($misspelt->data_dir . '/postgresql.conf');
(my $bad_conf = $good_conf) =~ s/^idgen\.node_id = 5$/idgen.nodeid = 5/m or die 'no line to misspell';
my @fillers = map {
	[ bench_start($misspelt, 'postgres', $_ == 0 ? '-c 2 -T 12 -C' : '-c 2 -T 12', "SELECT fill();\n") ]
} 0 .. 1;
# (each version written whole and renamed into place, as an editor or a configuration tool does: a
# reload reads one or the other, never a file half written)
sub write_conf {
	my ($text) = @_;
	my $conf = $misspelt->data_dir . '/postgresql.conf';
	open(my $cf, '>', "$conf.new") or die $!;
	print $cf $text;
	close $cf;
	rename("$conf.new", $conf) or die $!;
	return;
}
for my $i (1 .. 40) {
	write_conf($i % 2 ? $bad_conf : $good_conf);
	$misspelt->reload;
	select(undef, undef, undef, 0.25);
}
write_conf($good_conf);
$misspelt->reload;
$_->[0]->finish for @fillers;
my ($made_rows, $foreign) = split /\|/, $misspelt->safe_psql('postgres', q{
SELECT count(*), count(*) FILTER (WHERE (idgen.snowflake_parse(snowflake)).node <> 5
  OR (idgen.sonyflake_parse(sonyflake)).machine_id <> 5 OR (idgen.trace_parse(trace)).node <> 5
  OR (idgen.js_parse(js)).node <> 5) FROM made});
cmp_ok($made_rows, q{>}, 0, "sessions made IDs across 40 reloads ($made_rows rows)");
is($foreign, '0', 'none under a node id the operator did not set');
$misspelt->stop;

# ---- the docs' recovery from a clock set ahead, on a server with the default shard list ------------

# The clock 20 s ahead, the default identity (node 0, digit 0, every shard) makes Instagram and
# Snowflake IDs; the clock right again, operating.md's recovery: node 18, digit 3, and shards that
# share none with every shard (none). With a shard list that still holds shard 2 ('2048-4095' does
# not: 0-2047 ... every shard does) restart_at_clock() refuses, naming the setting (1.3 compared a
# hash of the list, moved, and repeated 24,213 Instagram IDs); with no shard it moves, Snowflake
# carries on from the clock under node 18, and Instagram refuses until a shard meets nothing made
# ahead. No ID repeats.
my $clocked = idgen_node('ahead');
with_clock_offset(20, sub { $clocked->start });
$clocked->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE TABLE made (i bigint UNIQUE, s bigint UNIQUE)');
$clocked->safe_psql('postgres', 'INSERT INTO made SELECT idgen.instagram_id(2), idgen.snowflake_id() FROM generate_series(1, 5000)');
$clocked->stop;
$clocked->start;
reload_until($clocked, q{ALTER SYSTEM SET idgen.node_id = 18; ALTER SYSTEM SET idgen.uid20_server = 3; ALTER SYSTEM SET idgen.instagram_shards = '2048-4095'},
	'idgen.node_id', '18');
my ($clocked_state, $clocked_message) = sqlstate_of($clocked, 'SELECT idgen.restart_at_clock()');
is($clocked_state, '55000', "shards 2048-4095 after every shard: restart_at_clock() refuses ($clocked_message)");
like($clocked_message, qr/idgen\.instagram_shards/, 'naming the setting whose part meets');
reload_until($clocked, q{ALTER SYSTEM SET idgen.instagram_shards = ''}, 'idgen.instagram_shards', '');
like($clocked->safe_psql('postgres', 'SELECT idgen.restart_at_clock()'), qr/carry on from the clock/, 'no shard: it moves');
is($clocked->safe_psql('postgres', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), '18', 'Snowflake carries on under node 18');
is((sqlstate_of($clocked, 'SELECT idgen.instagram_id(2)'))[0], '22023', 'Instagram owns no shard');
$clocked->safe_psql('postgres', 'INSERT INTO made (s) SELECT idgen.snowflake_id() FROM generate_series(1, 5000)');
is($clocked->safe_psql('postgres', 'SELECT count(*) - count(DISTINCT s) FROM made WHERE s IS NOT NULL'), '0', 'no Snowflake ID repeats');
reload_until($clocked, q{ALTER SYSTEM SET idgen.instagram_shards = '2048-4095'}, 'idgen.instagram_shards', '2048-4095');
my ($shard_state) = sqlstate_of($clocked, 'INSERT INTO made (i) SELECT idgen.instagram_id(2048) FROM generate_series(1, 1000)');
is($shard_state, '55000', 'shards that meet those made ahead, given back: Instagram refuses until the clock passes them');
$clocked->stop;

# ---- an identity lease retired while it lies ahead ------------------------------------------------

# The docs' recovery (node 18, digit 3, no shard; restart_at_clock()), then a second episode with
# the clock 40 s ahead under node 18, under its identity lease. The server then starts under node 7
# (its first IDs retire node 18's identity lease) and is given node 18 back: node 18's IDs still lie
# ahead of the clock, so restart_at_clock() must refuse, and a database whose copy holds none of
# them must make no ID at or below them (before: the retired lease took its parts with it,
# restart_at_clock() moved node 18 back to the clock, and that database repeated them).
my $flip = idgen_node('flip');
with_clock_offset(20, sub { $flip->start });
$flip->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE TABLE made (s bigint UNIQUE)');
$flip->safe_psql('postgres', 'INSERT INTO made SELECT idgen.snowflake_id() FROM generate_series(1, 2000)');
$flip->stop;
$flip->start;
reload_until($flip, q{ALTER SYSTEM SET idgen.node_id = 18; ALTER SYSTEM SET idgen.uid20_server = 3; ALTER SYSTEM SET idgen.instagram_shards = ''},
	'idgen.node_id', '18');
like($flip->safe_psql('postgres', 'SELECT idgen.restart_at_clock()'), qr/carry on from the clock/, 'the docs\' recovery moves');
$flip->safe_psql('postgres', 'INSERT INTO made SELECT idgen.snowflake_id() FROM generate_series(1, 2000)');
$flip->stop;
with_clock_offset(40, sub { $flip->start });
$flip->safe_psql('postgres', 'INSERT INTO made SELECT idgen.snowflake_id() FROM generate_series(1, 2000)');
$flip->stop;
$flip->append_conf('postgresql.auto.conf', "idgen.node_id = 7\nidgen.uid20_server = 7");
$flip->start;
$flip->psql('postgres', "SELECT idgen.$_()", on_error_stop => 0) for qw(snowflake_id js_id sonyflake_id trace_id uid20);
reload_until($flip, q{ALTER SYSTEM SET idgen.node_id = 18; ALTER SYSTEM SET idgen.uid20_server = 3}, 'idgen.node_id', '18');
my ($flip_state, $flip_message) = sqlstate_of($flip, 'SELECT idgen.restart_at_clock()');
is($flip_state, '55000', "node 18 again, its IDs made ahead still ahead: restart_at_clock() refuses ($flip_message)");
$flip->safe_psql('postgres', 'CREATE DATABASE fresh');
$flip->safe_psql('fresh', 'CREATE EXTENSION idgen');
my $latest = $flip->safe_psql('postgres', 'SELECT max(s) FROM made');
my ($rc, $fresh_below) = $flip->psql('fresh', "SELECT count(*) FILTER (WHERE s <= $latest) FROM (SELECT idgen.snowflake_id() s FROM generate_series(1, 2000)) x");
is($rc == 0 ? $fresh_below : '0', '0', 'a database that holds none of them makes no Snowflake ID at or below them (or refuses)');
$flip->stop;

# The same second episode ahead under node 18, but its identity lease replaced rather than retired:
# the server starts under node 18 (its first call loads the marks, the lease in force), is given
# node 7 by a reload, and restart_at_clock() moves node 7 to the clock, writing a lease of node 7
# over node 18's. Given node 18 back after a restart, restart_at_clock() must refuse and a new
# database make no ID at or below node 18's (before: the replaced lease took its parts with it:
# 750 JS-safe, 799 Sonyflake and 2,000 TraceId IDs made again).
my $swap = idgen_node('swap');
with_clock_offset(20, sub { $swap->start });
$swap->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE TABLE made (s bigint UNIQUE)');
$swap->safe_psql('postgres', 'INSERT INTO made SELECT idgen.snowflake_id() FROM generate_series(1, 2000)');
$swap->stop;
$swap->start;
reload_until($swap, q{ALTER SYSTEM SET idgen.node_id = 18; ALTER SYSTEM SET idgen.uid20_server = 3; ALTER SYSTEM SET idgen.instagram_shards = ''},
	'idgen.node_id', '18');
like($swap->safe_psql('postgres', 'SELECT idgen.restart_at_clock()'), qr/carry on from the clock/, 'the docs\' recovery moves node 18 to the clock');
$swap->stop;
with_clock_offset(40, sub { $swap->start });
$swap->safe_psql('postgres', 'INSERT INTO made SELECT idgen.snowflake_id() FROM generate_series(1, 2000)');
$swap->stop;
$swap->start;
$swap->psql('postgres', 'SELECT idgen.snowflake_id()', on_error_stop => 0);
reload_until($swap, q{ALTER SYSTEM SET idgen.node_id = 7; ALTER SYSTEM SET idgen.uid20_server = 7}, 'idgen.node_id', '7');
like($swap->safe_psql('postgres', 'SELECT idgen.restart_at_clock()'), qr/carry on from the clock/,
	'node 7, which meets nothing made ahead: restart_at_clock() moves it, over node 18\'s lease');
$swap->safe_psql('postgres', q{ALTER SYSTEM SET idgen.node_id = 18; ALTER SYSTEM SET idgen.uid20_server = 3});
$swap->restart;
my ($swap_state, $swap_message) = sqlstate_of($swap, 'SELECT idgen.restart_at_clock()');
is($swap_state, '55000', "node 18 again after a restart, its IDs still ahead: restart_at_clock() refuses ($swap_message)");
$swap->safe_psql('postgres', 'CREATE DATABASE fresh');
$swap->safe_psql('fresh', 'CREATE EXTENSION idgen');
my $swap_latest = $swap->safe_psql('postgres', 'SELECT max(s) FROM made');
my ($swap_rc, $swap_below) = $swap->psql('fresh',
	"SELECT count(*) FILTER (WHERE s <= $swap_latest) FROM (SELECT idgen.snowflake_id() s FROM generate_series(1, 2000)) x");
is($swap_rc == 0 ? $swap_below : '0', '0', '... and a new database makes no Snowflake ID at or below them (or refuses)');
$swap->stop;

# ---- a session connected before a restore ---------------------------------------------------------

my $restore = idgen_node('restore', conf => "idgen.node_id = 3\nidgen.launch_id = 11");
$restore->start;
$restore->safe_psql('postgres', 'CREATE EXTENSION idgen');
my $connected = $restore->background_psql('postgres', on_error_stop => 0);
$connected->query('SELECT idgen.snowflake_id(), idgen.decimal_id()');
# What a restored dump of a copy of this server writes (pg_restore's setval of the copies): a mark
# 60 s ahead of this server's clock, written under this server's identity by another run (a
# clone's), and DecimalIds of this launch id with generator ids this server has not passed.
my $ahead = clock_ms($restore) + 60000;
$restore->safe_psql('postgres',
	"SELECT setval('idgen.mark', $ahead), setval('idgen.mark_identity', $ahead), "
	  . "setval('idgen.mark_server', ((SELECT last_value FROM idgen.mark_server) & 16777215) | (12345::bigint << 24) | (-9223372036854775807 - 1)), "
	  . "setval('idgen.decimal_id_generator', 999 * 10000000000 + 11 * 100000 + 90000)");
$connected->{stderr} = '';
$connected->query('SELECT idgen.snowflake_id()');
like($connected->{stderr}, qr/55000|durable mark of this database lies/,
	'the session connected before: Snowflake honors the restored copy (refused 60 s ahead; before: it went on below it)');
$connected->{stderr} = '';
$connected->query('SELECT idgen.decimal_id()');
like($connected->{stderr}, qr/DecimalIds of launch id 11 that this server could repeat/,
	'and DecimalId honors the restored generator copy');
$connected->quit;
# A copy of a server whose identity differs from this one's in one part only (the UID20 digit):
# Snowflake, whose node id is the same, honors it as a copy of its own (before: another identity
# as a whole, whose copy it ignored).
$restore->safe_psql('postgres', 'CREATE DATABASE partly');
$restore->safe_psql('partly', 'CREATE EXTENSION idgen; SELECT idgen.snowflake_id()');
$ahead = clock_ms($restore) + 60000;
$restore->safe_psql('partly',
	"SELECT setval('idgen.mark', $ahead), setval('idgen.mark_identity', $ahead), "
	  . "setval('idgen.mark_server', (((SELECT last_value FROM idgen.mark_server) & 16777215) # 256) | (12345::bigint << 24) | (-9223372036854775807 - 1))");
($state, $message) = sqlstate_of($restore, 'SELECT idgen.snowflake_id()', db => 'partly');
is($state, '55000', "a restored copy of a server with another UID20 digit only: Snowflake honors it ($message)");

# A restored copy whose two parts lie apart (the families with a node identity at the clock, the
# others 2 s ahead): Snowflake, which needs no wait, must not make the copy this run's before
# UUIDv7 has waited for its part (before: the next transaction's UUIDv7 lay below the copy).
$restore->safe_psql('postgres', 'CREATE DATABASE parts');
$restore->safe_psql('parts', 'CREATE EXTENSION idgen; SELECT idgen.snowflake_id()');
$ahead = clock_ms($restore) + 2000;
$restore->safe_psql('parts',
	"SELECT setval('idgen.mark', $ahead), setval('idgen.mark_identity', " . clock_ms($restore) . "), "
	  . "setval('idgen.mark_server', ((SELECT last_value FROM idgen.mark_server) & 16777215) | (12345::bigint << 24) | (-9223372036854775807 - 1))");
my $uuid_ms = $restore->safe_psql('parts',
	"SELECT idgen.snowflake_id();\nSELECT (extract(epoch FROM idgen.uuidv7_time(idgen.uuidv7())) * 1000)::bigint");
$uuid_ms = (split /\n/, $uuid_ms)[-1];
cmp_ok($uuid_ms, '>=', $ahead, 'UUIDv7 in the next transaction lies at or above the restored copy');

# ---- DROP and CREATE EXTENSION in one transaction ------------------------------------------------

$restore->safe_psql('postgres', 'CREATE DATABASE again');
$restore->safe_psql('again', 'CREATE EXTENSION idgen');
my $made = $restore->safe_psql('again',
	'BEGIN; SELECT idgen.snowflake_id(); DROP EXTENSION idgen; CREATE EXTENSION idgen; '
	  . "SELECT (extract(epoch FROM (idgen.snowflake_parse(idgen.snowflake_id())).ts) * 1000)::bigint; COMMIT");
my @lines = split /\n/, $made;
my $made_ms = $lines[-1];
cmp_ok($restore->safe_psql('again', 'SELECT last_value FROM idgen.mark'), '>', $made_ms,
	'the copy of an extension made again in the transaction covers the IDs made after it');
$restore->stop;

done_testing();
