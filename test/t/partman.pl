# Time partitioning with real pg_partman 5.x (scripts/partman-build.sh installs it into a PostgreSQL
# built from source; test/run.sh does so for 18): docs/partman.md's "sql partman" blocks run as written
# (tables keyed by UUIDv7, by typeid, and by Snowflake IDs in ranges of a day), then rows made at
# times spread over seven days land in the partition of their day, none in the default one,
# run_maintenance() creates the partitions ahead of the newest row, and a range scan on
# uuidv7_min / typeid_min / snowflake_min bounds prunes to the days it names.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "pg_partman is not installed in $sharedir (scripts/partman-build.sh)" unless -f "$sharedir/extension/pg_partman.control";
my $root = dirname(__FILE__) . '/../..';
my $node = idgen_node('partman');
$node->start;
my $db = fresh_db($node, 'partman');
$node->safe_psql('postgres', "ALTER DATABASE $db SET TimeZone = 'UTC'");
my $q = sub { $node->safe_psql($db, $_[0]) };

my @blocks = (slurp_file("$root/docs/partman.md") =~ /^ *```sql partman *\n(.*?)^ *```/msg);
cmp_ok(scalar @blocks, '>=', 3, "'sql partman' blocks in docs/partman.md: " . scalar @blocks);
my $n = 0;
is(($node->psql($db, $_))[0], 0, 'docs/partman.md sql partman block ' . ++$n . ' runs as written') for @blocks;

sub parts { return $q->("SELECT count(*) FROM partman.show_partitions('public.$_[0]')"); }
note("$_: " . parts($_) . ' partitions after create_parent') for qw(app_events app_users app_clicks);

# 200 rows a day at noon UTC of days -3 .. +3, each at its own millisecond. app_events and
# app_users have partitions for days -4 .. +4; app_clicks for -3 .. +1 (its rows of days +2 and +3
# come after run_maintenance()). Snowflake: an ID of a time is its _min plus a node and sequence.
$q->(q{CREATE TABLE made AS
  SELECT d, n, date_trunc('day', now(), 'UTC') + d * interval '1 day' + interval '12 hours' + n * interval '1 ms' AS at
  FROM generate_series(-3, 3) AS d, generate_series(1, 200) AS n;
  INSERT INTO app_events (id, what) SELECT idgen.uuidv7(at), 'day ' || d FROM made;
  INSERT INTO app_users (id, name) SELECT idgen.typeid_from_uuid('user', idgen.uuidv7(at)), 'day ' || d FROM made});
my $clicks = sub { $q->("INSERT INTO app_clicks (id, url) SELECT idgen.snowflake_min(at) + 17 * 4096 + n, 'day ' || d FROM made WHERE $_[0]") };
$clicks->('d <= 1');
is((sqlstate_of($node, q{INSERT INTO app_users (id) VALUES (idgen.typeid('post'))}, db => $db))[0], '23514',
	'app_users refuses a typeid of another prefix (its CHECK)');
is($q->('SELECT (SELECT count(*) FROM app_events), (SELECT count(*) FROM app_users), (SELECT count(*) FROM app_clicks)'),
	'1400|1400|1000', 'rows in app_events, app_users, app_clicks: 1400, 1400, 1000');

my %decode = (app_events => 'idgen.uuidv7_time(id)', app_users => 'idgen.typeid_time(id)', app_clicks => '(idgen.snowflake_parse(id)).ts');
my %lower = (app_events => 'idgen.uuidv7_min(%s)', app_users => q{idgen.typeid_min('user', %s)}, app_clicks => 'idgen.snowflake_min(%s)');
# Each row in the partition of its day, none in the default; each partition's bounds the _min of the
# midnights around its rows.
sub lands {
	my ($t, $days) = @_;
	is($q->("SELECT count(*) FROM ${t}_default"), '0', "$t: no row in the default partition");
	is($q->("SELECT count(*), max(days) FROM (SELECT count(DISTINCT date_trunc('day', $decode{$t}, 'UTC')) AS days FROM $t GROUP BY tableoid) p"),
		"$days|1", "$t: $days partitions hold rows, each of one day");
	my ($lo, $hi) = map { sprintf $lower{$t}, $_ } 'day', q{(day + interval '1 day')};
	is($q->("SELECT count(*) FROM (SELECT tableoid, date_trunc('day', $decode{$t}, 'UTC') AS day FROM $t) r JOIN pg_class c ON c.oid = r.tableoid
	  WHERE pg_get_expr(c.relpartbound, c.oid) <> format('FOR VALUES FROM (%L) TO (%L)', ($lo)::text, ($hi)::text)"),
		'0', "$t: every row's partition is [its midnight, the next)");
	return;
}
lands('app_events', 7);
lands('app_users', 7);
lands('app_clicks', 5);

# run_maintenance(): premake (4) partitions beyond the day of the newest row.
$q->('SELECT partman.run_maintenance()');
sub newest {
	my ($t, $type) = @_;
	return $q->("SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''?([^'')]*)'))[1]::$type AS lower
	  FROM partman.show_partitions('public.$t') s JOIN pg_class c ON c.relname = s.partition_tablename AND c.relnamespace = 'public'::regnamespace
	  ORDER BY lower DESC LIMIT 1");
}
sub midnight { return "date_trunc('day', now(), 'UTC') + interval '$_[0] days'"; }
is(newest('app_events', 'uuid'), $q->('SELECT idgen.uuidv7_min(' . midnight(7) . ')'), 'app_events: the newest partition, day +3 + 4');
is(newest('app_users', 'text COLLATE "C"'), $q->(q{SELECT idgen.typeid_min('user', } . midnight(7) . ')'), 'app_users: the newest partition, day +3 + 4');
# (pg_partman counts app_clicks's premade ranges from 0, not from its offset: 4 or 5 ahead, on midnights)
my $newest = newest('app_clicks', 'bigint');
is($q->("SELECT $newest >= idgen.snowflake_min(" . midnight(5) . ") AND ($newest - idgen.snowflake_min(" . midnight(5) . ")) % (86400000::bigint << 22) = 0"),
	't', 'app_clicks: the newest partition is a midnight of day +5 or later');
$clicks->('d > 1');
lands('app_clicks', 7);

# A range scan on the _min bounds of two days reads the partitions of those two days only.
my ($lo, $hi) = map { $q->('SELECT ' . midnight($_)) } -2, 0;
for my $t (qw(app_events app_users app_clicks)) {
	my ($from, $to) = map { sprintf $lower{$t}, "'$_'" } $lo, $hi;
	my %scanned = map { $_ => 1 } ($q->("EXPLAIN (COSTS OFF) SELECT * FROM $t WHERE id >= $from AND id < $to") =~ / on ${t}_(p\d+|default)\b/g);
	is(scalar keys %scanned, 2, "$t: a two-day range scan reads two partitions: " . join(' ', sort keys %scanned));
	is($q->("SELECT count(*) FROM $t WHERE id >= $from AND id < $to"), '400', "$t: the rows of that range");
}
$node->stop;
done_testing();
