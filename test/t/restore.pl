# A database restored on another server never repeats its IDs (issue 19, item 4). A plain database
# owner installs idgen (trusted) and fills a table whose columns default to every family; her own
# pg_dump -Fc succeeds (idgen 1.1 refused it: permission denied for sequence decimal_generator) and
# carries the database's copy of the durable mark (idgen.mark, idgen.mark_server,
# idgen.decimal_id_generator: pg_extension_config_dump; the plain dump sets each to its value).
# Restored by the owner of a database on another server (pg_restore --no-owner, not a superuser),
# whose clock is behind the mark: beyond idgen.max_clock_regression every generator refuses
# (55000, with a hint); once a superuser raises the limit they wait for the clock, and every new ID
# lies above every restored one. DecimalIds under the same idgen.launch_id are refused in the
# restored database (and only there); under another one they work.
# Restored by a superuser, the clock 4 s behind (within the default 5 s): they wait, and carry on
# above. No repeat of a restored ID in any case, counted in every family (idgen 1.1 repeated
# 132 000 to 225 000 per family).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use IdgenTest;

my $rows = 20000;
my %columns = families();
my @families = sort keys %columns;
my $create_table = 'CREATE TABLE r (phase int NOT NULL, '
  . join(', ', map { "$_ $columns{$_}[0] DEFAULT $columns{$_}[1]" } @families) . ')';
my @sequences = qw(mark mark_identity mark_server decimal_id_generator);
sub copy_of { return %{ mark_copy(@_) } }

sub as_role {
	my ($node, $db, $role, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', $role ]);
}

# ---- the source: a plain owner installs idgen and fills the table ----------------------------------

my $source = idgen_node('source', conf => 'idgen.launch_id = 41');
$source->start;
$source->safe_psql('postgres', 'CREATE ROLE owner LOGIN; CREATE DATABASE app OWNER owner');
as_role($source, 'app', 'owner', "CREATE EXTENSION idgen; $create_table");
as_role($source, 'app', 'owner', "INSERT INTO r (phase) SELECT 1 FROM generate_series(1, $rows)");
my %copy = copy_of($source, 'app', 'owner');
cmp_ok($copy{mark_server}, '<', 0, "the copy names its writer: a run of the source server ($copy{mark_server})");
isnt($copy{mark_server}, $source->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()'),
	'not by the system identifier, which a pg_basebackup copy shares');
my $last_uuid_ms = as_role($source, 'app', 'owner',
	"SELECT ('x' || lpad(substr(replace(max(u::text COLLATE \"C\"), '-', ''), 1, 12), 16, '0'))::bit(64)::bigint FROM r");
cmp_ok($copy{mark}, '>', $last_uuid_ms, "the copy of the mark ($copy{mark}) lies above the last UUIDv7 ($last_uuid_ms)");
is(int(($copy{decimal_id_generator} % 10000000000) / 100000), 41, "the DecimalId copy names launch id 41 ($copy{decimal_id_generator})");

# The owner's own dump: -Fc, and plain SQL to read.
my $dir = PostgreSQL::Test::Utils::tempdir;
my $dump = "$dir/app.dump";
$source->command_ok([ 'pg_dump', '-Fc', '-U', 'owner', '-d', 'app', '-f', $dump ], "the owner's pg_dump -Fc succeeds");
$source->command_ok([ 'pg_dump', '-U', 'owner', '-d', 'app', '-f', "$dir/app.sql" ], "and pg_dump as plain SQL");
my $sql = slurp_file("$dir/app.sql");
for my $s (@sequences) {
	like($sql, qr/^SELECT pg_catalog\.setval\('idgen\.$s', \Q$copy{$s}\E, true\);$/m,
		"the dump sets idgen.$s to the source's value ($copy{$s})");
}
$source->stop;

# ---- a non-superuser restore on a server whose clock is behind: refuse, then wait ---------------

my $target = idgen_node('target', conf => 'idgen.launch_id = 41');
$target->start;
$target->safe_psql('postgres', 'CREATE ROLE owner2 LOGIN; CREATE DATABASE app2 OWNER owner2');
$target->command_ok([ 'pg_restore', '--exit-on-error', '--no-owner', '-U', 'owner2', '-d', 'app2', $dump ],
	'pg_restore --no-owner by the owner of another database on another server');
my %restored = copy_of($target, 'app2', 'owner2');
is($restored{$_}, $copy{$_}, "pg_restore restored idgen.$_") for @sequences;
is(as_role($target, 'app2', 'owner2', 'SELECT count(*) FROM r'), $rows, "and the $rows rows");
isnt($target->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()'),
	$copy{mark_server}, 'the target server has another system identifier');

# The clock 12 s before the mark, beyond the 5 s of idgen.max_clock_regression: every generator
# refuses, and says what to do. (A server that had made no ID yet: its marks start from every
# database's copy, this one's included, before its first ID, in any database.)
$target->stop;
with_clock_offset(clock_offset_to($copy{mark}, 12), sub { $target->start });
note('target clock - copied mark: ' . (clock_ms($target) - $copy{mark}) . ' ms');
for my $c (@families) {
	my ($state, $message, $hint) = sqlstate_of($target, "SELECT $columns{$c}[1]", db => 'app2', user => 'owner2');
	is($state, '55000', "clock 12 s behind the restored mark: $columns{$c}[1] refuses with 55000");
	next unless $c eq 's';
	like($message, qr/^the copy of the durable mark in database "app2" lies \d+ s( \d+ ms)? ahead of the system clock/,
		"and says so: $message");
	like($hint, qr/IDs resume by themselves once it passes the mark \(idgen\.max_clock_regression/, "with a hint: $hint");
}
my ($state) = sqlstate_of($target, "INSERT INTO r (phase) SELECT 2 FROM generate_series(1, $rows)",
	db => 'app2', user => 'owner2');
is($state, '55000', 'an INSERT of new rows refuses too');
# The second call of a session refuses as the first did (the adversarial pass: it used to pass, and
# hand out IDs below the restored ones, 1,582 to 42,000 repeats per family).
my (undef, $twice_out, $twice_err) = $target->psql('app2',
	'SELECT idgen.snowflake_id(); SELECT idgen.snowflake_id(); SELECT idgen.instagram_id(3);',
	on_error_stop => 0, extra_params => [ '-U', 'owner2' ]);
my $refusals = () = $twice_err =~ /ERROR:\s+the copy of the durable mark in database "app2" lies/g;
is($refusals, 3, 'three calls in one session: three refusals');
is($twice_out, '', 'and no ID');
is(as_role($target, 'app2', 'owner2', 'SELECT count(*) FROM r'), $rows, 'and added none');

# A superuser raises the limit: the generators wait for the clock to pass the mark, then carry on
# above every restored ID. (DecimalIds apart: below.)
$target->safe_psql('postgres', "ALTER SYSTEM SET idgen.max_clock_regression = '30s'; SELECT pg_reload_conf()");
$target->poll_query_until('postgres', "SELECT current_setting('idgen.max_clock_regression') = '30s'");
my $behind = $copy{mark} - clock_ms($target);
my $last = sub { $_[0]->safe_psql($_[1], 'SELECT (extract(epoch FROM (idgen.instagram_parse(max(i))).ts) * 1000)::bigint FROM r') };
my $last_restored = $last->($target, 'app2');
as_role($target, 'app2', 'owner2', "INSERT INTO r (phase, m) SELECT 2, NULL FROM generate_series(1, $rows)");
cmp_ok(clock_ms($target), '>=', $last_restored, "within a limit of 30 s, the generators waited for the clock ($behind ms behind the mark) to pass the last restored ID");
above_before($target, 'app2', 2, 'limit raised to 30 s');

# DecimalIds, same launch id: the restored ones are of generator ids this server had not reached.
# Its marks started from every database's copy: its generator ids lie past the restored ones, in
# the restored database and in every other (1.1: every DecimalId repeated).
is($target->safe_psql('postgres', 'CREATE EXTENSION IF NOT EXISTS idgen; SELECT idgen.decimal_id() > 0'), 't',
	'another database of the server makes DecimalIds of launch id 41');
my $restored_generator = as_role($target, 'app2', 'owner2', 'SELECT max((idgen.decimal_parse(m)).generator_id) FROM r');
cmp_ok(as_role($target, 'app2', 'owner2', 'SELECT (idgen.decimal_parse(idgen.decimal_id())).generator_id'), '>',
	$restored_generator, 'the same launch id in the restored database: DecimalIds of a generator id past the restored ones');
no_repeat($target, 'app2', 'restored by a non-superuser, clock 12 s behind');

# Under a launch id of its own, DecimalIds work, and carry the new launch id into the copy.
$target->adjust_conf('postgresql.conf', 'idgen.launch_id', '42');
$target->restart;
as_role($target, 'app2', 'owner2', "INSERT INTO r (phase) SELECT 3 FROM generate_series(1, $rows)");
above_before($target, 'app2', 3, 'launch id 42');
no_repeat($target, 'app2', 'launch id 42');
is(int((as_role($target, 'app2', 'owner2', 'SELECT last_value FROM idgen.decimal_id_generator') % 10000000000) / 100000),
	42, 'the DecimalId copy names launch id 42');
my $tag = as_role($target, 'app2', 'owner2', 'SELECT last_value FROM idgen.mark_server');
ok($tag < 0 && $tag != $copy{mark_server}, "the copy is the target server's now ($tag)");
$target->stop;

# ---- a superuser restore, the clock 4 s behind: within the default limit, it waits --------------

my $super = idgen_node('superuser_target', conf => 'idgen.launch_id = 43');
$super->start;
$super->safe_psql('postgres', 'CREATE ROLE owner LOGIN; CREATE DATABASE app3 OWNER owner');
$super->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'app3', $dump ], 'pg_restore by a superuser');
%restored = copy_of($super, 'app3', 'postgres');
is($restored{$_}, $copy{$_}, "the superuser's pg_restore restored idgen.$_") for @sequences;
is($super->safe_psql('app3', "SELECT tableowner FROM pg_tables WHERE tablename = 'r'"), 'owner', 'the table keeps its owner');
$super->stop;
with_clock_offset(clock_offset_to($copy{mark}, 4), sub { $super->start });
$behind = $copy{mark} - clock_ms($super);
$last_restored = $last->($super, 'app3');
($state, my $message) = sqlstate_of($super, "INSERT INTO r (phase) SELECT 2 FROM generate_series(1, $rows)",
	db => 'app3', user => 'owner');
is($state, '', "the clock ${behind} ms behind, within the default 5 s: the generators carry on ($message)");
cmp_ok(clock_ms($super), '>=', $last_restored, 'after waiting for the clock to pass the last restored ID');
above_before($super, 'app3', 2, 'restored by a superuser, clock 4 s behind');
no_repeat($super, 'app3', 'restored by a superuser, clock 4 s behind');
$super->stop;

# ---- a restore on a server whose shards overlap the source's, every other part new ---------------
# The source (node 1, digit 1, launch 45, every shard) runs 15 s ahead; its dump restored on a
# server of node 2, digit 2, launch 46 and shards 2048-4095: Snowflake, UID20 and DecimalId carry on
# at once (their parts meet nothing the copy holds), Instagram of a shard in common refuses (1.3 took
# the copy as another identity's as a whole: 2,396 Instagram IDs repeated).
my $wide = idgen_node('wide', conf => "idgen.node_id = 1\nidgen.uid20_server = 1\nidgen.launch_id = 45");
with_clock_offset(15, sub { $wide->start });
$wide->safe_psql('postgres', 'CREATE DATABASE w');
$wide->safe_psql('w', 'CREATE EXTENSION idgen; CREATE TABLE x (i bigint UNIQUE DEFAULT idgen.instagram_id(3000), s bigint, u bigint, m bigint)');
$wide->safe_psql('w', 'INSERT INTO x (s, u, m) SELECT idgen.snowflake_id(), idgen.uid20(), idgen.decimal_id() FROM generate_series(1, 5000)');
my $wide_dump = $wide->basedir . '/w.dump';
$wide->command_ok([ 'pg_dump', '-Fc', '-d', 'w', '-f', $wide_dump ], 'pg_dump of the source of every shard');
$wide->stop;
my $narrow = idgen_node('narrow', conf => "idgen.node_id = 2\nidgen.uid20_server = 2\nidgen.launch_id = 46\nidgen.instagram_shards = '2048-4095'");
$narrow->start;
$narrow->safe_psql('postgres', 'CREATE EXTENSION idgen; SELECT idgen.snowflake_id()');
$narrow->safe_psql('postgres', 'CREATE DATABASE w');
$narrow->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'w', $wide_dump ], 'restored on a server of other parts but for its shards');
is($narrow->safe_psql('w', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node, idgen.uid20() > 0, idgen.decimal_id() > 0'),
	'2|t|t', 'Snowflake, UID20 and DecimalId, under parts the copy does not hold, carry on at once');
($state, $message) = sqlstate_of($narrow, 'INSERT INTO x (i) VALUES (DEFAULT)', db => 'w');
is($state, '55000', "Instagram of shard 3000, which the copy's IDs carry too, refuses ($message)");
$narrow->stop;

# ---- a table moved alone (pg_dump -t), to a server of the same node id whose clock is behind -------
# The table's IDs reach 15 s past the target's clock; the dump carries none of idgen's copy. After
# the restore's COPY, the target's database holds them (its copy says so): Snowflake and DecimalId,
# whose node id and launch id are the target's too, refuse (beyond max_clock_regression) rather than
# repeat them (before: 9,260 Snowflake repeats, with neither a refusal nor a warning); Sonyflake,
# whose node ids the table's IDs do not carry on this target (another node id), carries on at once;
# a COPY that does not give the column reads nothing.
my $mover = idgen_node('mover', conf => "idgen.node_id = 5\nidgen.launch_id = 44");
with_clock_offset(15, sub { $mover->start });
$mover->safe_psql('postgres', q{CREATE EXTENSION idgen;
  CREATE TABLE events (id bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), d bigint DEFAULT idgen.decimal_id(), body text);
  INSERT INTO events (body) SELECT 'e' || g FROM generate_series(1, 5000) g});
my $moved_dump = $mover->basedir . '/events.sql';
$mover->command_ok([ 'pg_dump', '-t', 'events', '-f', $moved_dump, 'postgres' ], 'pg_dump -t events');
my $moved_max = $mover->safe_psql('postgres', 'SELECT max(id) FROM events');
$mover->stop;
my $receiver = idgen_node('receiver', conf => "idgen.node_id = 5\nidgen.launch_id = 44");
$receiver->start;
$receiver->safe_psql('postgres', 'CREATE EXTENSION idgen; SELECT idgen.snowflake_id()');
$receiver->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $moved_dump, '-d', 'postgres' ], 'the table restored');
($state, $message) = sqlstate_of($receiver, "INSERT INTO events (body) VALUES ('new')");
is($state, '55000', "the same node id, the table's IDs 15 s ahead: Snowflake refuses ($message)");
($state, $message) = sqlstate_of($receiver, 'SELECT idgen.decimal_id()');
is($state, '55000', "and DecimalId, under the same launch id ($message)");
is($receiver->safe_psql('postgres', "SELECT count(*) FROM events WHERE id > $moved_max"), '0', 'no ID made above or among them');
$receiver->safe_psql('postgres', 'ALTER SYSTEM SET idgen.node_id = 6; SELECT pg_reload_conf()');
$receiver->poll_query_until('postgres', "SELECT current_setting('idgen.node_id') = '6'");
is($receiver->safe_psql('postgres', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), '6',
	'under node 6, which the moved IDs do not carry: Snowflake carries on at once');
$receiver->safe_psql('postgres', q{CREATE TABLE plain (id bigint DEFAULT idgen.snowflake_id(), body text);
  COPY plain (body) FROM PROGRAM 'seq 1 3'});
is($receiver->safe_psql('postgres', 'SELECT count(*) FROM plain'), '3', 'a COPY that leaves the column to its default');
my $repeats = $receiver->safe_psql('postgres', 'SELECT count(*) - count(DISTINCT id) FROM events');
is($repeats, '0', 'no repeat among the moved table and the new rows');
$receiver->stop;

done_testing();
