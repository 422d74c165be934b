# pg_upgrade from PostgreSQL 17 to 18, then from 18 to 19, of a cluster where a plain database owner
# installed idgen (trusted) and generated rows (issue 19, item 5): idgen 1.1 made it fail,
# "permission denied for schema idgen" while its privileges were restored. Each pg_upgrade
# succeeds; the database's copy of the
# durable mark (idgen.mark, mark_identity, mark_server, decimal_id_generator), the rows and the owner's
# grants survive; the new cluster (another system identifier, none of the old server's replication
# origins) honors the copy: with its clock behind the mark beyond idgen.max_clock_regression every
# generator refuses (55000), within it they wait for the clock, and every new ID lies above every
# old one: no repeat in any family. DecimalIds under the same launch id are refused in the upgraded
# database (the new server's generator ids start again at 0); under another one they work. A type
# of one prefix that the superuser made (idgen.define_uuid_type) keeps its prefix, its values and
# its index through every hop.
#
# IDGEN_UPGRADE_FROM names the bin directories of the older installations, oldest first, idgen
# installed in each (test/run.sh: those of 17 and 18); the last hop is to the PostgreSQL the test
# runs with (19). Without it the test skips.
use strict;
use warnings;
use Cwd ();
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use IdgenTest;

my @from = split ' ', ($ENV{IDGEN_UPGRADE_FROM} // '');
plan skip_all => 'IDGEN_UPGRADE_FROM (the bin directories of older PostgreSQL installations with idgen) is not set' unless @from;
my $rows = 20000;
my %columns = families();
my @families = sort keys %columns;
my @sequences = qw(mark mark_identity mark_server decimal_id_generator);

sub as_owner {
	my ($node, $sql) = @_;
	return $node->safe_psql('app', $sql, extra_params => [ '-U', 'owner' ]);
}

sub copy_of { return mark_copy($_[0], 'app', 'owner') }

# The copy of a stopped node: read with the node started, then stopped again.
sub copy_of_stopped {
	my ($node) = @_;
	$node->start;
	my $copy = copy_of($node);
	$node->stop;
	return $copy;
}

sub system_identifier {
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');
}

# ---- the oldest: a plain owner installs idgen, fills the table, grants a capability ------------

my $old = idgen_node('old', install_path => dirname($from[0]), conf => 'idgen.launch_id = 51');
$old->start;
my $old_major = $old->safe_psql('postgres', "SELECT current_setting('server_version_num')::int / 10000");
$old->safe_psql('postgres', 'CREATE ROLE owner LOGIN; CREATE ROLE app; CREATE DATABASE app OWNER owner; CREATE DATABASE nodec');
# (a database with idgen that makes no DecimalId: after the upgrade, it has no copy of the old
# server's generator ids)
$old->safe_psql('nodec', 'CREATE EXTENSION idgen; SELECT idgen.snowflake_id()');
as_owner($old,
	'CREATE EXTENSION idgen; CREATE TABLE r (phase int NOT NULL, '
	  . join(', ', map { "$_ $columns{$_}[0] DEFAULT $columns{$_}[1]" } @families) . ')');
as_owner($old, "INSERT INTO r (phase) SELECT 1 FROM generate_series(1, $rows)");
as_owner($old, 'GRANT EXECUTE ON FUNCTION idgen.signed_token(text) TO app');
$old->safe_psql('app', q{CREATE SCHEMA ids; SELECT idgen.define_uuid_type('item', 'ids.item_id');
	ALTER DATABASE app SET search_path = ids, "$user", public;
	CREATE TABLE items (id ids.item_id PRIMARY KEY DEFAULT idgen.uuidv7()::ids.item_id, n int);
	INSERT INTO items (n) SELECT generate_series(1, 1000); ALTER TABLE items OWNER TO owner});
my $items = q{SELECT idgen.uuid_type_prefix('ids.item_id'), count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM items};
my $items_before = $old->safe_psql('app', $items);
cmp_ok(copy_of($old)->{mark_server}, '<', 0, "PostgreSQL $old_major: the copy names its writer, a run of the server");
$old->stop;

my ($phase, $launch) = (1, 51);
for my $bindir (@from[ 1 .. $#from ], undef) {
	my %copy = %{ copy_of_stopped($old) };
	# (initdb of 18 enables data checksums, 17's does not: pg_upgrade needs the same.)
	my $new = idgen_node("new$phase", no_data_checksums => 1, conf => "idgen.launch_id = $launch",
		$bindir ? (install_path => dirname($bindir)) : ());
	my $new_bindir = $new->config_data('--bindir');
	my $new_major = `$new_bindir/pg_config --version` =~ s/^PostgreSQL (\d+).*\n/$1/r;
	my $hop = "$old_major -> $new_major";
	# (pg_upgrade writes into its current directory)
	my $cwd = Cwd::getcwd();
	chdir PostgreSQL::Test::Utils::tempdir;
	command_ok(
		[
			"$new_bindir/pg_upgrade", '--no-sync', '--copy',
			'-d', $old->data_dir, '-D', $new->data_dir,
			'-b', $old->config_data('--bindir'), '-B', $new_bindir,
			'-s', $new->host, '-p', $old->port, '-P', $new->port
		],
		"pg_upgrade $hop of a cluster where a plain owner installed idgen");
	chdir $cwd;

	# The clock 12 s before the mark, beyond the 5 s of idgen.max_clock_regression: every generator
	# refuses, in every database (the new cluster's marks start from every database's copy before its
	# first ID), and says why.
	with_clock_offset(clock_offset_to($copy{mark}, 12), sub { $new->start });
	isnt(system_identifier($new), $copy{mark_server}, "$hop: the new cluster has another system identifier");
	my %upgraded = %{ copy_of($new) };
	is($upgraded{$_}, $copy{$_}, "$hop: idgen.$_ survived pg_upgrade ($copy{$_})") for @sequences;
	my $count = as_owner($new, 'SELECT count(*) FROM r');
	is($count, $rows * $phase, "$hop: and the rows");
	is($new->safe_psql('app', "SELECT has_function_privilege('app', 'idgen.signed_token(text)', 'EXECUTE')"),
		't', "$hop: and the owner's grant of signed_token");
	is($new->safe_psql('app', $items), $items_before, "$hop: and a type of one prefix, its prefix and values");
	like($new->safe_psql('app', q{EXPLAIN (COSTS OFF) SELECT n FROM items WHERE id = (SELECT max(id) FROM items)}),
		qr/Index Scan using items_pkey/, "$hop: and its index");
	for my $c (@families) {
		my ($state, $message, $hint) = sqlstate_of($new, "SELECT $columns{$c}[1]", db => 'app', user => 'owner');
		is($state, '55000', "$hop: clock 12 s behind the mark: $columns{$c}[1] refuses with 55000");
		next unless $c eq 'i';
		like($message, qr/^the copy of the durable mark in database "app" lies \d+ s( \d+ ms)? ahead of the system clock/,
			"$hop: and says so: $message");
		like($hint, qr/IDs resume by themselves once it passes the mark/, "$hop: with a hint: $hint");
	}
	is(as_owner($new, 'SELECT count(*) FROM r'), $count, "$hop: no row added");

	# The clock 4 s before the mark, within the default limit: the generators wait for the clock,
	# then every new ID lies above every old one. DecimalIds apart: the same launch id (below).
	$new->stop;
	with_clock_offset(clock_offset_to($copy{mark}, 4), sub { $new->start });
	my $last = as_owner($new, 'SELECT (extract(epoch FROM (idgen.instagram_parse(max(i))).ts) * 1000)::bigint FROM r');
	$phase++;
	my ($state, $message) = sqlstate_of($new, "INSERT INTO r (phase, m) SELECT $phase, NULL FROM generate_series(1, $rows)",
		db => 'app', user => 'owner');
	is($state, '', "$hop: the clock 4 s behind the mark, within the default 5 s: the generators carry on ($message)");
	cmp_ok(clock_ms($new), '>=', $last, "$hop: once the server's clock had passed the last ID made before");
	above_before($new, 'app', $phase, "$hop: clock 4 s behind");

	# The same launch id, as an upgrade the usual way keeps it: the new cluster's generator ids lie past
	# every database's copy, in the upgraded database, in one that made no DecimalId before, and in one
	# created after the upgrade; and the 64-bit IDs of a database created after the upgrade lie above
	# the old ones (1.3: 166,661 and 205,793 repeats in such databases).
	my $old_generator = as_owner($new, 'SELECT max((idgen.decimal_parse(m)).generator_id) FROM r');
	$new->safe_psql('postgres', "DROP DATABASE IF EXISTS fresh$phase; CREATE DATABASE fresh$phase");
	$new->safe_psql("fresh$phase", 'CREATE EXTENSION idgen');
	for my $db ('app', 'nodec', "fresh$phase") {
		my $generator = $new->safe_psql($db, 'SELECT (idgen.decimal_parse(idgen.decimal_id())).generator_id');
		cmp_ok($generator, '>', $old_generator, "$hop: DecimalIds of launch id $launch in $db: generator id past the old ones");
	}
	my ($fresh_js, $fresh_sony) = split /\|/, $new->safe_psql("fresh$phase", 'SELECT min(idgen.js_id()), min(idgen.sonyflake_id()) FROM generate_series(1, 1000)');
	my ($old_js, $old_sony) = split /\|/, as_owner($new, 'SELECT max(j), max(y) FROM r');
	cmp_ok($fresh_js, '>', $old_js, "$hop: JS-safe IDs in a database created after the upgrade lie above the old ones");
	cmp_ok($fresh_sony, '>', $old_sony, "$hop: and Sonyflake IDs");
	no_repeat($new, 'app', "$hop: clock 4 s behind");

	# Under a launch id of its own, every family, DecimalIds included.
	$launch++;
	$new->adjust_conf('postgresql.conf', 'idgen.launch_id', $launch);
	$new->restart;
	$phase++;
	as_owner($new, "INSERT INTO r (phase) SELECT $phase FROM generate_series(1, $rows)");
	above_before($new, 'app', $phase, "$hop: launch id $launch");
	no_repeat($new, 'app', "$hop: launch id $launch");
	my $tag = as_owner($new, 'SELECT last_value FROM idgen.mark_server');
	ok($tag < 0 && $tag != $copy{mark_server}, "$hop: the copy is the new server's now ($tag)");
	my $dir = PostgreSQL::Test::Utils::tempdir;
	$new->command_ok([ "$new_bindir/pg_dump", '-Fc', '-U', 'owner', '-d', 'app', '-f', "$dir/app.dump" ], "$hop: the owner's pg_dump");
	$new->stop;
	($old, $old_major) = ($new, $new_major);
}

done_testing();
