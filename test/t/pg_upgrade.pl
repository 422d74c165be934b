# pg_upgrade from PostgreSQL 17 to 18 of a cluster where a plain database owner installed idgen
# (trusted) and generated rows (issue 19, item 5): idgen 1.1 made it fail, "permission denied for
# schema idgen" while its privileges were restored. pg_upgrade succeeds; the database's copy of the
# durable mark (idgen.mark, idgen.mark_server, idgen.decimal_id_generator), the rows and the owner's
# grants survive; the new cluster (another system identifier, none of the old server's replication
# origins) honors the copy: with its clock behind the mark beyond idgen.max_clock_regression every
# generator refuses (55000), within it they wait for the clock, and every new ID lies above every
# old one: no repeat in any family. DecimalIds under the same launch id move beyond the old server's generator ids (the new server's
# generator ids start again at 0); under another one they work.
#
# It runs with PostgreSQL 18 only (test/tap-run.sh leaves it out elsewhere), IDGEN_OLD_BINDIR
# naming the bin directory of a PostgreSQL 17 installation that has idgen installed.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use IdgenTest;

my $old_bindir = $ENV{IDGEN_OLD_BINDIR} or die 'IDGEN_OLD_BINDIR (the bin directory of PostgreSQL 17) is not set';
my $rows = 20000;
my %columns = families();
my @families = sort keys %columns;
my @sequences = qw(mark mark_server decimal_id_generator);

sub as_owner
{
	my ($node, $sql) = @_;
	return $node->safe_psql('app', $sql, extra_params => [ '-U', 'owner' ]);
}

sub copy_of
{
	my ($node) = @_;
	my @values = split /\|/, as_owner($node, 'SELECT ' . join(', ', map { "(SELECT last_value FROM idgen.$_)" } @sequences));
	my %copy;
	@copy{@sequences} = @values;
	return %copy;
}

sub system_identifier
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');
}

sub clock_ms
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint');
}

sub no_repeat
{
	my ($node, $what) = @_;
	my ($count, %dup) = duplicates($node, 'app');
	is($dup{$_}, '0', "$what: no repeat among $count rows: $columns{$_}[1]") for @families;
	return;
}

sub above_old
{
	my ($node, $phase, $what) = @_;
	my %gaps = family_gaps($node, 'app', $phase);
	cmp_ok($gaps{$_}, '>', 0, "$what: $columns{$_}[1] above every ID made before (gap $gaps{$_})") for sort keys %gaps;
	return;
}

# ---- PostgreSQL 17: a plain owner installs idgen, fills the table, grants a capability ----------

my $old = idgen_node('old', install_path => dirname($old_bindir), conf => 'idgen.launch_id = 51');
$old->start;
like($old->safe_psql('postgres', 'SHOW server_version'), qr/^17\b/, 'the old cluster runs PostgreSQL 17');
$old->safe_psql('postgres', 'CREATE ROLE owner LOGIN; CREATE ROLE app; CREATE DATABASE app OWNER owner');
as_owner($old,
	'CREATE EXTENSION idgen; CREATE TABLE r (phase int NOT NULL, '
	  . join(', ', map { "$_ $columns{$_}[0] DEFAULT $columns{$_}[1]" } @families) . ')');
as_owner($old, "INSERT INTO r (phase) SELECT 1 FROM generate_series(1, $rows)");
as_owner($old, 'GRANT EXECUTE ON FUNCTION idgen.signed_token(text) TO app');
my %copy = copy_of($old);
is($copy{mark_server}, system_identifier($old), "the copy names the old server ($copy{mark_server})");
$old->stop;

# ---- pg_upgrade to PostgreSQL 18 ----------------------------------------------------------------

# (initdb of 18 enables data checksums, 17's does not: pg_upgrade needs the same.)
my $new = idgen_node('new', no_data_checksums => 1, conf => 'idgen.launch_id = 51');
my $new_bindir = $new->config_data('--bindir');
my $start = time;
command_ok(
	[
		"$new_bindir/pg_upgrade", '--no-sync', '--copy',
		'-d', $old->data_dir, '-D', $new->data_dir,
		'-b', $old_bindir, '-B', $new_bindir,
		'-s', $new->host, '-p', $old->port, '-P', $new->port
	],
	'pg_upgrade from 17 to 18 of a cluster where a plain owner installed idgen');
note(sprintf('pg_upgrade took %.1f s', time - $start));

# The clock 12 s before the mark, beyond the 5 s of idgen.max_clock_regression: every generator
# refuses, and says why.
with_clock_offset(clock_offset_to($copy{mark}, 12), sub { $new->start });
like($new->safe_psql('postgres', 'SHOW server_version'), qr/^18\b/, 'the new cluster runs PostgreSQL 18');
isnt(system_identifier($new), $copy{mark_server}, 'the new cluster has another system identifier');
my %upgraded = copy_of($new);
is($upgraded{$_}, $copy{$_}, "idgen.$_ survived pg_upgrade ($copy{$_})") for @sequences;
is(as_owner($new, 'SELECT count(*) FROM r'), $rows, "and the $rows rows");
is($new->safe_psql('app', "SELECT has_function_privilege('app', 'idgen.signed_token(text)', 'EXECUTE')"),
	't', "and the owner's grant of signed_token");
note('new clock - mark: ' . (clock_ms($new) - $copy{mark}) . ' ms');
for my $c (@families)
{
	my ($state, $message, $hint) = sqlstate_of($new, "SELECT $columns{$c}[1]", db => 'app', user => 'owner');
	is($state, '55000', "clock 12 s behind the mark after pg_upgrade: $columns{$c}[1] refuses with 55000");
	next unless $c eq 'i';
	like($message, qr/^the durable mark of this database lies \d+ s( \d+ ms)? ahead of the system clock/, "and says so: $message");
	like($hint, qr/IDs resume by themselves once it passes the mark/, "with a hint: $hint");
}
is(as_owner($new, 'SELECT count(*) FROM r'), $rows, 'no row added');

# The clock 4 s before the mark, within the default limit: the generators wait for the clock,
# then every new ID lies above every old one. DecimalIds apart: the same launch id (below).
$new->stop;
with_clock_offset(clock_offset_to($copy{mark}, 4), sub { $new->start });
my $behind = $copy{mark} - clock_ms($new);
$start = time;
my ($state, $message) = sqlstate_of($new, "INSERT INTO r (phase, m) SELECT 2, NULL FROM generate_series(1, $rows)",
	db => 'app', user => 'owner');
my $took = time - $start;
note(sprintf('clock %d ms behind the mark: the INSERT took %.1f s', $behind, $took));
is($state, '', "the clock ${behind} ms behind, within the default 5 s: the generators carry on ($message)");
cmp_ok($took * 1000, '>=', $behind - 1000, 'after waiting for the clock');
above_old($new, 2, 'clock 4 s behind after pg_upgrade');

# DecimalIds: the new cluster's generator ids start at 0 again, under the same launch id: it moves
# them beyond the upgraded database's before its first DecimalId there.
is(as_owner($new, 'SELECT count(*) FROM (SELECT idgen.decimal_id() AS m FROM generate_series(1, 2000)) d WHERE m IN (SELECT m FROM r)'),
	'0', 'DecimalIds under the same launch id: none repeats an upgraded one');
no_repeat($new, 'clock 4 s behind after pg_upgrade');

# Under a launch id of its own, every family, DecimalIds included.
$new->adjust_conf('postgresql.conf', 'idgen.launch_id', '52');
$new->restart;
as_owner($new, "INSERT INTO r (phase) SELECT 3 FROM generate_series(1, $rows)");
above_old($new, 3, 'launch id 52');
no_repeat($new, 'launch id 52');
is(as_owner($new, 'SELECT last_value FROM idgen.mark_server'), system_identifier($new), 'the copy is the new server\'s now');

# The owner still dumps her database.
my $dir = PostgreSQL::Test::Utils::tempdir;
$new->command_ok([ 'pg_dump', '-Fc', '-U', 'owner', '-d', 'app', '-f', "$dir/app.dump" ],
	"the owner's pg_dump after pg_upgrade");
$new->stop;

done_testing();
