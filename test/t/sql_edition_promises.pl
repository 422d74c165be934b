# What the SQL edition (idgen_sql) promises without shared memory, tested: no duplicate across 16
# concurrent sessions, after a crash restart and on a promoted standby (its state words are
# WAL-logged sequences), where it is weaker than idgen exactly how much, and moving a database from
# the edition to idgen and back by dump and restore, rows and column defaults kept, new IDs above
# the old.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my @bigint = qw(instagram snowflake sonyflake trace js);
my %default = (
	instagram => 'idgen.instagram_id(7)', snowflake => 'idgen.snowflake_id()', sonyflake => 'idgen.sonyflake_id()',
	trace => 'idgen.trace_id()', js => 'idgen.js_id()', uuidv7 => 'idgen.uuidv7()', ulid => 'idgen.ulid()',
	typeid => "idgen.typeid('user')", objectid => 'idgen.objectid()');
my %type = (uuidv7 => 'uuid', ulid => 'text', typeid => 'text', objectid => 'idgen.objectid', map { $_ => 'bigint' } @bigint);
my @cols = sort keys %default;
my $table = 'CREATE TABLE r (n bigserial, ' . join(', ', map { "$_ $type{$_} UNIQUE DEFAULT $default{$_}" } @cols) . ')';

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
# (idgen preloaded for the move to idgen below, which on 15 and 16 needs it; the edition needs nothing)
# (and idgen's Instagram shards are 4096 to 8191, so that the edition may have the others)
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nmax_connections = 40\nidgen.instagram_shards = '4096-8191'");
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION idgen_sql');
$primary->safe_psql('postgres', $table);

sub inserted { my ($node) = @_; return $node->safe_psql('postgres', 'SELECT count(*) FROM r'); }
sub maxima {
	my ($node) = @_;
	my @v = split /\|/, $node->safe_psql('postgres', 'SELECT ' . join(', ', map { "max($_)" } @bigint) . ' FROM r');
	my %m;
	@m{@bigint} = @v;
	return %m;
}
sub above {
	my ($node, $before, $name) = @_;
	for my $f (@bigint) {
		is($node->safe_psql('postgres', "SELECT count(*) FROM r WHERE n > $before->{n} AND $f <= $before->{$f}"), '0',
			"$name: every new $f ID is above the largest before");
	}
}

# ---- 16 sessions at once: every value unique (the UNIQUE constraints would fail the inserts) -----
$primary->pgbench('--no-vacuum --client=16 --jobs=4 --transactions=300', 0,
	[qr{processed: 4800/4800}], [qr{^$}], '16 sessions insert 4800 rows with every generator as a default',
	{ 'edition_insert' => 'INSERT INTO r DEFAULT VALUES;' });
is(inserted($primary), 4800, '4800 rows, every ID unique');

# ---- a crash: the sequences replay from WAL, new IDs above every ID of a committed row ------------
my %before = (maxima($primary), n => $primary->safe_psql('postgres', 'SELECT max(n) FROM r'));
$primary->stop('immediate');
$primary->start;
$primary->safe_psql('postgres', 'INSERT INTO r SELECT FROM generate_series(1, 2000)');
above($primary, \%before, 'after a crash restart');

# ---- a standby: it refuses the 64-bit generators (a sequence is read-only there), and once
# promoted goes on above every ID of the primary ---------------------------------------------------
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
$primary->safe_psql('postgres', 'INSERT INTO r SELECT FROM generate_series(1, 2000)');
$primary->wait_for_catchup($standby);
my ($state) = sqlstate_of($standby, 'SELECT idgen.snowflake_id()');
isnt($state, '', "a hot standby refuses the 64-bit generators ($state)");
is($standby->safe_psql('postgres', 'SELECT idgen.uuidv7() IS NOT NULL AND idgen.ulid() IS NOT NULL'), 't', '... and makes random-based IDs');
%before = (maxima($primary), n => $primary->safe_psql('postgres', 'SELECT max(n) FROM r'));
$primary->stop('immediate');
$standby->promote;
$standby->safe_psql('postgres', 'INSERT INTO r SELECT FROM generate_series(1, 2000)');
above($standby, \%before, 'on the promoted standby');
is(inserted($standby), 10800, 'the promoted standby: 10800 rows, every ID unique');

# ---- weaker than idgen, and by how much ------------------------------------------------------------
# Instagram: one sequence for every shard, so 1024 IDs a millisecond in all (idgen: per shard); a
# burst beyond it runs the time field ahead of the clock, never repeats: 20000 IDs in one statement
# lead the clock by at most 20000 / 1024 ms (measured against the clock read after the last: never
# more than the lead, however slow the machine).
my ($distinct, $lead) = split /\|/, $standby->safe_psql('postgres', q{
SELECT count(DISTINCT id), max((idgen.instagram_parse(id)).ts - clock_timestamp())
FROM (SELECT idgen.instagram_id(s % 4096) AS id FROM generate_series(1, 20000) s) x});
is($distinct, 20000, 'a burst of 20000 Instagram IDs over every shard of the database: all distinct');
my ($lead_ms) = $standby->safe_psql('postgres', "SELECT extract(epoch FROM interval '$lead') * 1000");
cmp_ok($lead_ms, '<=', 20000 / 1024 + 1, "... their time field leads the clock by at most 20 ms ($lead_ms ms)");
# UUIDv7, ULID: ordered per session only. Two sessions' values interleave within a millisecond (idgen:
# strictly increasing across the server). What is kept: every value lies in its millisecond.
is($standby->safe_psql('postgres', q{
SELECT bool_and(idgen.uuidv7_time(u) >= t0 AND idgen.uuidv7_time(u) <= clock_timestamp())
FROM (SELECT clock_timestamp() - interval '1 ms' AS t0, idgen.uuidv7() AS u FROM generate_series(1, 1000)) x}),
	't', 'UUIDv7: each value holds the time it was made');

# ---- moving: the edition to idgen by dump and restore, and back ----------------------------------
my $db = $standby;
$db->safe_psql('postgres', 'CREATE DATABASE app');
$db->safe_psql('app', 'CREATE EXTENSION idgen_sql');
$db->safe_psql('app', 'CREATE TABLE post (id bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), body text);
CREATE TABLE doc (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), u uuid DEFAULT idgen.uuidv7(), t text DEFAULT idgen.typeid(\'doc\'));
INSERT INTO post (body) SELECT \'p\' || s FROM generate_series(1, 1000) s;
INSERT INTO doc SELECT FROM generate_series(1, 1000)');
my $dump = "${PostgreSQL::Test::Utils::tmp_check}/edition.dump";
$db->command_ok([ 'pg_dump', '-Fc', '-d', $db->connstr('app'), '-f', $dump ], 'pg_dump of a database with the edition');
my $list = "${PostgreSQL::Test::Utils::tmp_check}/edition.list";
# the procedure of docs/managed.md: restore everything but the other edition's extension, into a
# database where the new one was created first
sub restore_into {
	my ($target, $drop) = @_;
	my @l = grep { !/ EXTENSION - $drop\b/ && !/ COMMENT - EXTENSION $drop\b/ && !/ (TABLE DATA|SEQUENCE SET) idgen / }
	  split /\n/, `pg_restore -l '$dump'`;
	open(my $fh, '>', $list) or die;
	print $fh join("\n", @l), "\n";
	close $fh;
	$db->command_ok([ 'pg_restore', '-e', '-L', $list, '-d', $db->connstr($target), $dump ], "pg_restore into $target");
}
my %old = map { $_ => $db->safe_psql('app', "SELECT max(id) FROM $_") } qw(post);
$db->safe_psql('postgres', 'CREATE DATABASE app_idgen');
my $has_idgen = $db->safe_psql('postgres', "SELECT count(*) FROM pg_available_extensions WHERE name = 'idgen'");
SKIP: {
	skip 'idgen is not installed in this PostgreSQL', 6 unless $has_idgen;
	$db->safe_psql('app_idgen', 'CREATE EXTENSION idgen');
	restore_into('app_idgen', 'idgen_sql');
	is($db->safe_psql('app_idgen', 'SELECT (SELECT count(*) FROM post) + (SELECT count(*) FROM doc)'), '2000', 'idgen: every row restored');
	$db->safe_psql('app_idgen', "INSERT INTO post (body) VALUES ('new'); INSERT INTO doc DEFAULT VALUES");
	is($db->safe_psql('app_idgen', "SELECT id > $old{post} FROM post WHERE body = 'new'"), 't', 'idgen: the column default makes a new ID above the old');
	is($db->safe_psql('app_idgen', "SELECT pg_typeof(id)::text, count(*) FROM doc GROUP BY 1"), 'idgen.objectid|1001',
		'idgen: the ObjectId column is idgen\'s type, its default idgen\'s generator');
	# and back
	$db->command_ok([ 'pg_dump', '-Fc', '-d', $db->connstr('app_idgen'), '-f', $dump ], 'pg_dump of the database with idgen');
	$db->safe_psql('postgres', 'CREATE DATABASE app_back');
	$db->safe_psql('app_back', 'CREATE EXTENSION idgen_sql');
	my $max = $db->safe_psql('app_idgen', 'SELECT max(id) FROM post');
	restore_into('app_back', 'idgen');
	$db->safe_psql('app_back', "INSERT INTO post (body) VALUES ('back'); INSERT INTO doc DEFAULT VALUES");
	is($db->safe_psql('app_back', "SELECT (SELECT id > $max FROM post WHERE body = 'back'), (SELECT count(*) FROM doc)"), 't|1002',
		'back to the edition: rows kept, a new ID above the old');
}

$standby->stop;
done_testing();
