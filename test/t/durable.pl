# Never a duplicate across restarts: after a clean restart, an immediate stop, a killed postmaster,
# and restarts with the clock set back (libfaketime around the server), every family's new IDs are
# greater than every ID issued before. Within idgen.max_clock_regression the 64-bit generators
# carry on from the durable mark; beyond it they refuse until the clock passes it. And the server
# always starts and recovers without idgen.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $node = idgen_node('durable', conf => 'idgen.launch_id = 65');
$node->start;
my %columns = families();
$node->safe_psql('postgres',
	'CREATE EXTENSION idgen; CREATE TABLE r (phase int NOT NULL, '
	  . join(', ', map { "$_ $columns{$_}[0] UNIQUE DEFAULT $columns{$_}[1]" } sort keys %columns) . ')');

my $phase = 0;
sub generate {
	my ($rows, $what, $same_start, $skip) = @_;
	$phase++;
	$node->safe_psql('postgres', "INSERT INTO r (phase) SELECT $phase FROM generate_series(1, $rows)");
	return if $phase == 1;
	my %gaps = family_gaps($node, 'postgres', $phase);
	for my $c (sort keys %gaps) {
		next if $skip && $skip eq $c;
		cmp_ok($gaps{$c}, '>', 0, "$what: $columns{$c}[1], $rows new IDs above every earlier one (gap $gaps{$c})");
	}
	# DecimalIds: unique (the column is), and after a start of the server, of a generator that no
	# earlier phase used.
	return if $same_start;
	is($node->safe_psql('postgres', "SELECT count(*) FROM (SELECT DISTINCT (idgen.decimal_parse(m)).generator_id AS g FROM r WHERE phase = $phase) p
	                                  WHERE g IN (SELECT (idgen.decimal_parse(m)).generator_id FROM r WHERE phase < $phase)"),
		'0', "$what: DecimalIds of a generator that no earlier start used");
}

generate(20000, 'before');
my $mark = $node->safe_psql('postgres', "SELECT last_value FROM idgen.mark");
is($node->safe_psql('postgres', "SELECT $mark > max(extract(epoch FROM idgen.uuidv7_time(u)) * 1000) FROM r"), 't',
	"the database's copy of the durable mark lies above every UUIDv7 made ($mark)");

$node->restart;
generate(20000, 'after a clean restart');

$node->stop('immediate');
$node->start;
generate(20000, 'after an immediate stop (crash recovery)');

$node->kill9;
start_after_kill9($node);
generate(20000, 'after the postmaster was killed');

# The clock 20 s behind the marks: UUIDv7 rides it out; the 64-bit families refuse, beyond the
# 5 s of idgen.max_clock_regression, and say why.
$node->stop;
with_clock_offset(-20, sub { $node->start });
my ($state, $message, $hint) = sqlstate_of($node, 'SELECT idgen.snowflake_id()');
is($state, '55000', 'clock 20 s behind the mark: Snowflake refuses with 55000');
# (20 s, plus the mark's lead over the clock: its lease, a second, beyond values that ran ahead of
# the clock while 20,000 IDs a family were made: a Sonyflake or JS-safe tick holds 256 or 1,024
# IDs per 10 ms. A fast machine measured 21.3 and 21.4 s.)
like($message, qr/^system clock is (1\d|2\d) s( \d+ ms)? behind the last Snowflake ID issued/, "and says so, in seconds: $message");
like($hint, qr/IDs resume by themselves once the clock passes the last ID/, 'the hint says when it resumes');
($state) = sqlstate_of($node, 'SELECT idgen.instagram_id(3)');
is($state, '55000', 'Instagram refuses too');
my $uuid_gap = $node->safe_psql('postgres',
	"SELECT idgen.uuidv7() > (SELECT max(u::text COLLATE \"C\")::uuid FROM r)");
is($uuid_gap, 't', 'UUIDv7 carries on above every UUID issued before');

# Within a larger limit the generators carry on from the mark (up to a tick's sequence, then they
# wait for the clock): 200 rows fit the first tick of every family.
$node->append_conf('postgresql.conf', "idgen.max_clock_regression = '60s'");
$node->reload;
$node->poll_query_until('postgres', "SELECT current_setting('idgen.max_clock_regression') = '1min'");
generate(200, 'clock 20 s behind, within the limit', 1);

# A crash while carrying on ahead of the clock, and a restart with the clock still behind.
$node->stop('immediate');
with_clock_offset(-20, sub { $node->start });
generate(200, 'a crash while ahead of a clock 20 s behind');

# Many IDs after a restart with the clock 3 s behind (within the default limit): the measured
# failure of idgen 1.0 was 389,788 Instagram and 449,657 Snowflake duplicates of 1 M of this kind.
$node->safe_psql('postgres', 'ALTER SYSTEM RESET idgen.max_clock_regression');
$node->adjust_conf('postgresql.conf', 'idgen.max_clock_regression', "'5s'");
$node->stop;
with_clock_offset(-3, sub { $node->start });
# (200 000 for the time of CI; IDGEN_DURABLE_ROWS sets it)
my $rows = $ENV{IDGEN_DURABLE_ROWS} || 200000;
generate($rows, "$rows IDs, clock 3 s behind");
is($node->safe_psql('postgres',
		'SELECT count(*) * 10 - count(DISTINCT u) - count(DISTINCT i) - count(DISTINCT s) - count(DISTINCT y) - count(DISTINCT t)'
		  . ' - count(DISTINCT j) - count(DISTINCT d) - count(DISTINCT e) - count(DISTINCT n) - count(DISTINCT m) FROM r'),
	'0', 'no duplicate among all IDs of every family');
$node->stop;
$node->start;
generate(20000, 'the clock right again');

# Many databases, one restart (issue 20.5): IDs made in another database before a restart with the
# clock 8 s back are below every ID made after it in this one, which was idle: the durable mark is the
# server's. (1.1 kept marks per database: 280 k to 335 k repeats.)
$node->safe_psql('postgres', 'CREATE DATABASE other');
$node->safe_psql('other', 'CREATE EXTENSION idgen; CREATE TABLE o (i bigint UNIQUE DEFAULT idgen.instagram_id(3), s bigint UNIQUE DEFAULT idgen.snowflake_id(), '
	  . 'u uuid UNIQUE DEFAULT idgen.uuidv7()); INSERT INTO o SELECT FROM generate_series(1, 20000)');
my ($other_i, $other_s) = split /\|/, $node->safe_psql('other', 'SELECT max(i), max(s) FROM o');
$node->append_conf('postgresql.conf', "idgen.max_clock_regression = '60s'");
$node->stop;
with_clock_offset(-8, sub { $node->start });
my ($first_i, $first_s) = split /\|/, $node->safe_psql('postgres', 'SELECT min(idgen.instagram_id(3)), min(idgen.snowflake_id()) FROM generate_series(1, 20000)');
cmp_ok($first_i - $other_i, '>', 0, "another database's Instagram IDs from before a restart, clock 8 s back: all below (gap " . ($first_i - $other_i) . ')');
cmp_ok($first_s - $other_s, '>', 0, "and its Snowflake IDs (gap " . ($first_s - $other_s) . ')');
$node->safe_psql('postgres', 'DROP DATABASE other');

# DROP EXTENSION and CREATE EXTENSION (issue 19.6), then a restart with the clock 20 s back: the
# re-created extension never repeats what the dropped one issued (1.1: 126 k to 207 k repeats, and
# DecimalId all of its IDs without a clock step).
$node->stop;
$node->start;
generate(20000, 'before DROP EXTENSION');
$node->safe_psql('postgres', 'DROP EXTENSION idgen CASCADE; CREATE EXTENSION idgen; '
	  . join('; ', map { "ALTER TABLE r ALTER COLUMN $_ SET DEFAULT $columns{$_}[1]" } sort keys %columns));
generate(20000, 'after DROP and CREATE EXTENSION', 1);
$node->stop;
with_clock_offset(-20, sub { $node->start });
generate(20000, 'the re-created extension after a restart with the clock 20 s back');
is($node->safe_psql('postgres',
		'SELECT count(*) * 10 - count(DISTINCT u) - count(DISTINCT i) - count(DISTINCT s) - count(DISTINCT y) - count(DISTINCT t)'
		  . ' - count(DISTINCT j) - count(DISTINCT d) - count(DISTINCT e) - count(DISTINCT n) - count(DISTINCT m) FROM r'),
	'0', 'no duplicate among all IDs of every family, across DROP and CREATE EXTENSION');

# A clock set two years ahead and back (issue 20.3). The 64-bit families refuse, in days, not ms;
# UUIDv7 and ns_id return to the clock (further ahead than idgen.max_clock_lead), unique by their
# random bits; a superuser moves the server to a new identity and calls idgen.restart_at_clock(),
# without a restart, and every family carries on from the clock.
$node->stop;
with_clock_offset(2 * 365 * 86400, sub { $node->start });
generate(2000, 'two years ahead (TraceIds wrap every 388 days: not compared)', 1, 't');
$node->stop;
$node->start;
($state, $message, $hint) = sqlstate_of($node, 'SELECT idgen.snowflake_id()');
is($state, '55000', 'the clock right again, two years behind the mark: Snowflake refuses');
like($message, qr/^system clock is (1 year 364 days|2 years) behind the last Snowflake ID issued/, "in years and days: $message");
like($hint, qr/restart_at_clock/, "the hint names the recovery: $hint");
is($node->safe_psql('postgres', "SELECT abs(extract(epoch FROM idgen.uuidv7_time(idgen.uuidv7()) - clock_timestamp())) < 1"),
	't', 'UUIDv7 returns to the clock (beyond idgen.max_clock_lead)');
($state, $message) = sqlstate_of($node, 'SELECT idgen.restart_at_clock()');
is($state, '55000', "restart_at_clock refuses while the identity is the old one: $message");
# (a new node id and UID20 digit, and no Instagram shard: the server had every shard, which the
# IDs made ahead may carry)
$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.node_id = 17; ALTER SYSTEM SET idgen.uid20_server = 7; ALTER SYSTEM SET idgen.instagram_shards = ''");
$node->reload;
$node->poll_query_until('postgres', "SELECT current_setting('idgen.node_id') = '17'");
note($node->safe_psql('postgres', 'SELECT idgen.restart_at_clock()'));
is($node->safe_psql('postgres', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), '17',
	'after restart_at_clock, without a restart: Snowflake IDs of the new node id');
is($node->safe_psql('postgres', "SELECT abs(extract(epoch FROM (idgen.snowflake_parse(idgen.snowflake_id())).ts - clock_timestamp())) < 1"),
	't', 'and of the clock');
is((sqlstate_of($node, 'SELECT idgen.instagram_id(150)'))[0], '22023', 'Instagram: no shard of this server\'s now');
is($node->safe_psql('postgres',
		'SELECT count(*) * 10 - count(DISTINCT u) - count(DISTINCT i) - count(DISTINCT s) - count(DISTINCT y) - count(DISTINCT t)'
		  . ' - count(DISTINCT j) - count(DISTINCT d) - count(DISTINCT e) - count(DISTINCT n) - count(DISTINCT m) FROM r'),
	'0', 'no duplicate after the jump and the recovery');
$node->stop;
$node->start;
is($node->safe_psql('postgres', "SELECT abs(extract(epoch FROM (idgen.snowflake_parse(idgen.snowflake_id())).ts - clock_timestamp())) < 1"),
	't', 'restart_at_clock is durable: after a restart, Snowflake IDs of the clock');

# The server always starts and recovers without idgen: marks are generic WAL, which core replays.
$node->safe_psql('postgres', 'SELECT idgen.snowflake_id()');
$node->adjust_conf('postgresql.conf', 'shared_preload_libraries', "''");
$node->stop('immediate');
ok($node->start(fail_ok => 1), 'crash recovery without idgen in shared_preload_libraries');
$node->safe_psql('postgres', 'DROP EXTENSION idgen CASCADE');
$node->stop('immediate');
ok($node->start(fail_ok => 1), 'crash recovery after DROP EXTENSION');
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_extension WHERE extname = 'idgen'"), '0', 'and idgen is gone');

$node->stop;
done_testing();
