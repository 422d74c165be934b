# The SQL edition's 64-bit generators and what other roles and databases can do to them
# (docs/managed.md, "The identity of a database" and "No role stalls a generator"):
#   - a role with nothing but CONNECT, in the database or in another one, holds every advisory lock
#     1.0's protocol took, in either mode, and prepares queries of the edition's relations: no
#     generator waits (each statement runs under a lock_timeout that no wait of the protocol
#     reaches) and no ID's time falls behind the clock (every ID is at least the smallest ID of the
#     instant before its call);
#   - two databases of one server, each with the edition, and a database with idgen beside them,
#     make IDs at the same time: no ID is made in two of them; a database that takes another's
#     identity, or idgen's, makes both refuse (55000), never the same IDs.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my @node_families = qw(snowflake sonyflake trace js);
# (idgen, preloaded, is on this server: node id 0 is its, and so are Instagram shards 4096 to 8191)
my $node = idgen_node('identity', conf => "idgen.instagram_shards = '4096-8191'\nmax_connections = 40");
$node->start;
$node->safe_psql('postgres', q{
CREATE ROLE owner1 LOGIN; CREATE ROLE owner2 LOGIN; CREATE ROLE attacker LOGIN;
CREATE DATABASE one OWNER owner1; CREATE DATABASE two OWNER owner2; CREATE DATABASE ref;
REVOKE CONNECT ON DATABASE ref FROM PUBLIC;});
$node->safe_psql('ref', 'CREATE EXTENSION idgen');
$node->safe_psql('one', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'owner1' ]);
$node->safe_psql('two', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'owner2' ]);

# (the parts that need no function of 1.1 run against 1.0 too, as the proof that they fail there:
# IDGEN_EDITION_PRE_FIX=1 with 1.0 installed)
my $v11 = $node->safe_psql('one', 'SELECT idgen.edition_version()') ne '1.0';
sub identity { my ($db) = @_; return $node->safe_psql($db, 'SELECT concat_ws(\'|\', node, instagram_shards, node_problem, shards_problem) FROM idgen.edition_identity()'); }
my ($one_node, $two_node, $ret, $out, $err);
if ($v11) {
($one_node) = split /\|/, identity('one');
($two_node) = split /\|/, identity('two');
isnt($one_node, '0', "database one got a node id that idgen's (0) is not: $one_node");
isnt($two_node, $one_node, "... and database two another: $two_node");
like(identity('one'), qr/^\d+\|0-4095$/, 'one owns the Instagram shards idgen does not, and no problem');
like(identity('two'), qr/^\d+\|This database owns no Instagram shards\.$/, 'two owns none of them: one took them all');
# Split them, as their owners (only a database's owner writes its identity).
($ret, $out, $err) = $node->psql('one', "SELECT idgen.edition_set_identity($one_node, '2048-4095')", extra_params => [ '-U', 'attacker' ]);
like($err, qr/must be owner of database one|permission denied/, 'a role without privileges cannot change the identity');
$node->safe_psql('one', "SELECT idgen.edition_set_identity($one_node, '0-2047')", extra_params => [ '-U', 'owner1' ]);
$node->safe_psql('two', "SELECT idgen.edition_set_identity($two_node, '2048-4095')", extra_params => [ '-U', 'owner2' ]);
is(identity('two'), "$two_node|2048-4095", 'the owners split the shards between them');
}

# ---- two databases and idgen, at the same time: no ID in two of them ---------------------------------
# Each database fills a table from two concurrent sessions (pgbench), all three at once.
my $make = sub {
	my ($families, $shards) = @_;
	return 'INSERT INTO ids SELECT ' . join(', ', (map { "idgen.${_}_id()" } @$families),
		"idgen.instagram_id($shards->[0] + (g % ($shards->[1] - $shards->[0] + 1)))") . " FROM generate_series(1, 2000) g;\n";
};
for my $db ('one', 'two', 'ref') {
	$node->safe_psql($db, 'CREATE TABLE ids (' . join(', ', map { "$_ bigint" } @node_families, 'instagram') . ')');
	$node->safe_psql($db, 'GRANT ALL ON ids TO PUBLIC');
}
my @runs = (
	[ bench_start($node, 'one', '-c 2 -t 5', $make->(\@node_families, [ 0, 2047 ])) ],
	[ bench_start($node, 'two', '-c 2 -t 5', $make->(\@node_families, [ 2048, 4095 ])) ],
	[ bench_start($node, 'ref', '-c 2 -t 5', $make->(\@node_families, [ 4096, 8191 ])) ]);
for my $r (@runs) { $r->[0]->finish; like(${ $r->[1] }, qr/failed transactions: 0 /, 'pgbench: every transaction committed') or diag ${ $r->[1] }; }
my %seen;
for my $db ('one', 'two', 'ref') {
	for my $f (@node_families, 'instagram') {
		my @ids = split /\n/, $node->safe_psql($db, "SELECT $f FROM ids");
		is(scalar(@ids), 20000, "$db made 20000 $f IDs");
		$seen{$f}{$_}{$db} = 1 for @ids;
	}
}
for my $f (@node_families, 'instagram') {
	my $both = grep { keys %{ $seen{$f}{$_} } > 1 } keys %{ $seen{$f} };
	is($both, 0, "$f: no ID made in two of the databases one, two (the edition) and ref (idgen)");
}

# ---- taking another's identity: both refuse, never the same IDs ----------------------------------------
if ($v11) {
($ret, $out, $err) = $node->psql('two', "SELECT idgen.edition_set_identity($one_node, '2048-4095')", extra_params => [ '-U', 'owner2', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/55000: node id $one_node is the node id of database one/, 'edition_set_identity refuses the node id of another database (55000)');
($ret, $out, $err) = $node->psql('two', "SELECT idgen.edition_set_identity($two_node, '1024-2047')", extra_params => [ '-U', 'owner2', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/55000: Instagram shards 1024-2047 are shards of database one/, '... and its Instagram shards');
($ret, $out, $err) = $node->psql('two', "SELECT idgen.edition_set_identity(0)", extra_params => [ '-U', 'owner2', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/55000: idgen is on this server and takes node id 0/, '... and the node id idgen takes');
# The owner of two writes the tag herself, as any database owner may: both databases refuse.
$node->safe_psql('two', "COMMENT ON DATABASE two IS 'ours [idgen_sql node=$one_node instagram=0-2047]'", extra_params => [ '-U', 'owner2' ]);
for my $db ('one', 'two') {
	my ($state, $message) = sqlstate_of($node, 'SELECT idgen.snowflake_id()', db => $db);
	is("$state $message", '55000 this database has no usable identity for Snowflake IDs', "a tag of two with one's node id: $db refuses Snowflake IDs");
	($state, $message) = sqlstate_of($node, "SELECT idgen.instagram_id(5)", db => $db);
	is($state, '55000', "... and Instagram IDs ($db)");
}
like(identity('one'), qr/Node id \d+ is also the node id of database two/, 'one says why');
$node->safe_psql('two', "COMMENT ON DATABASE two IS 'ours'", extra_params => [ '-U', 'owner2' ]);
$node->safe_psql('two', "SELECT idgen.edition_set_identity($two_node, '2048-4095')", extra_params => [ '-U', 'owner2' ]);
is($node->safe_psql('two', "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = 'two'"), "ours [idgen_sql node=$two_node instagram=2048-4095]",
	'edition_set_identity keeps the rest of the comment');
is($node->safe_psql('one', 'SELECT idgen.snowflake_id() > 0 AND idgen.instagram_id(5) > 0'), 't', 'the tag taken back: one makes IDs again');
# idgen set to one's node id: one refuses.
$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.node_id = $one_node; SELECT pg_reload_conf()");
$node->poll_query_until('postgres', "SELECT current_setting('idgen.node_id') = '$one_node'") or die 'no reload';
my ($state, $message) = sqlstate_of($node, 'SELECT idgen.js_id()', db => 'one');
is($state, '55000', 'idgen.node_id set to the node id of one: one refuses');
like(identity('one'), qr/idgen is on this server with node id $one_node/, '... and says why');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET idgen.node_id; SELECT pg_reload_conf()');
$node->poll_query_until('postgres', "SELECT current_setting('idgen.node_id') = '0'") or die 'no reload';
}
# A session's settings change nothing of the identity: idgen's settings are read as the server has
# them (a session may SET idgen.* where idgen is not loaded: on a server of their own, that does
# not preload idgen), and the session's record of its last check only says when it checked.
if ($v11) {
	my $lone = idgen_node('identity_np', no_preload => 1, conf => "idgen.instagram_shards = '4096-8191'");
	$lone->start;
	$lone->safe_psql('postgres', 'CREATE ROLE owner1 LOGIN; CREATE ROLE attacker LOGIN; CREATE DATABASE one OWNER owner1');
	$lone->safe_psql('one', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'owner1' ]);
	my ($lone_node) = split /\|/, $lone->safe_psql('one', q{SELECT concat_ws('|', node, instagram_shards) FROM idgen.edition_identity()});
	is($lone->safe_psql('one', "SET idgen.node_id = '$lone_node'; SET idgen.node_id_source = 'citus'; SET idgen.instagram_shards = '0-8191';
	  SELECT idgen.snowflake_id() > 0 AND idgen.instagram_id(5) > 0 AND (SELECT node_problem IS NULL FROM idgen.edition_identity())",
		extra_params => [ '-U', 'attacker' ]), 't', 'a session that sets idgen\'s settings itself: the identity is checked under the server\'s');
	my $now_ms = $lone->safe_psql('one', 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint');
	is($lone->safe_psql('one', "SET idgen_sql.identity = '$now_ms'; SELECT (idgen.snowflake_parse(idgen.edition_next(2, -1))).node",
		extra_params => [ '-U', 'attacker' ]), $lone_node, 'a session that claims to have checked: the node id is still the database\'s');
	is($lone->safe_psql('one', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), $lone_node, '... in every session');
	$lone->stop;
}
# A copy of the database (CREATE DATABASE ... TEMPLATE) has its state, not its identity.
if ($v11) {
$node->safe_psql('postgres', 'CREATE DATABASE copy TEMPLATE one OWNER owner1');
my ($state, $message) = sqlstate_of($node, 'SELECT idgen.snowflake_id()', db => 'copy');
is("$state $message", '55000 this database has no usable identity for Snowflake IDs', 'a copy of one refuses until its owner gives it an identity');
}

# ---- a role with nothing but CONNECT stalls nothing, bends no time --------------------------------------
# The advisory locks of 1.0's protocol (key 1768187763, one per family), held in either mode, in
# this database and in another.
my %sql_of = (instagram => 'idgen.instagram_id(5)', map { $_ => "idgen.${_}_id()" } @node_families);
# Every ID at least the smallest ID of the instant before its call (its time not behind the clock),
# 2000 a family, each statement under a lock_timeout no wait of the generators reaches.
my $not_behind = join(' AND ', map { "bool_and(idgen.${_}_min(t) <= $_)" } sort keys %sql_of);
my $probe = "SET lock_timeout = '10s'; SELECT $not_behind FROM (SELECT clock_timestamp() AS t, "
  . join(', ', map { "$sql_of{$_} AS $_" } sort keys %sql_of) . ' FROM generate_series(1, 2000)) x';
for my $mode ('pg_advisory_lock', 'pg_advisory_lock_shared') {
	for my $where ('one', 'two') {
		my $attacker = $node->background_psql($where, extra_params => [ '-U', 'attacker' ]);
		$attacker->query_safe("SELECT $mode(1768187763, k) FROM generate_series(0, 6) k");
		is($node->safe_psql('one', $probe), 't', "a role with CONNECT holds $mode(1768187763, 0..6) in database $where: no generator waits, no ID behind the clock");
		$attacker->quit;
	}
}
# The relations of the edition: none in schema idgen (but the row types of its decoders, which no
# call locks); those of schema idgen_sql_state are out of
# reach of a role without USAGE on it, so no PREPARE holds a lock on them (and no CREATE RULE queues
# an ACCESS EXCLUSIVE lock behind one).
is($node->safe_psql('one', q{SELECT count(*) FROM pg_class WHERE relnamespace = 'idgen'::regnamespace AND relkind <> 'c'}), '0', 'schema idgen has no table, sequence or view');
my @relations = split /\n/, $node->safe_psql('one', q{SELECT c.oid::regclass FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
  WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen_sql') ORDER BY 1});
cmp_ok(scalar(@relations), '>=', 12, 'the edition has its relations (' . scalar(@relations) . ')');
my @reached = grep { (sqlstate_of($node, "BEGIN; PREPARE p AS SELECT 1 FROM $_", db => 'one', user => 'attacker'))[0] ne '42501' } @relations;
is(join(', ', @reached), '', 'a role with CONNECT can name none of them (42501 for each)');
# A lock it can make others wait for: a PREPARE of a query on pg_shdescription (where the databases'
# identities are), held open, and a CREATE RULE on it queued behind that (refused only once it has
# its lock): every query of pg_shdescription waits. The check of the identity does not: a new session
# makes IDs under the identity checked before.
if ($v11) {
	my $holder = $node->background_psql('one', extra_params => [ '-U', 'attacker' ]);
	$holder->query_safe('BEGIN');
	$holder->query_safe('PREPARE held AS SELECT * FROM pg_catalog.pg_shdescription');
	my ($rule_out, $rule_err) = ('', '');
	my $rule = IPC::Run::start([ 'psql', '-X', '-d', $node->connstr('one'), '-U', 'attacker', '-c',
		'CREATE RULE r AS ON INSERT TO pg_catalog.pg_shdescription DO INSTEAD NOTHING' ], '>', \$rule_out, '2>', \$rule_err);
	$node->poll_query_until('one', q{SELECT count(*) > 0 FROM pg_locks WHERE relation = 'pg_catalog.pg_shdescription'::regclass AND NOT granted})
	  or die 'the CREATE RULE does not wait';
	is($node->safe_psql('one', "SET statement_timeout = '60s'; " . ($probe =~ s/SET lock_timeout = '10s'; //r)), 't',
		'a CREATE RULE queued on pg_shdescription behind a role\'s open PREPARE: a new session\'s generators go on, none behind the clock');
	$holder->quit;
	$rule->finish;
	like($rule_err, qr/is a system catalog/, '... (the CREATE RULE, its lock granted at last, refused)');
}
# Nor by OID: no privilege on any of them is PUBLIC's (nextval() of a counter by its OID would run
# the words ahead of the clock, and hold its lock).
my @by_oid = grep { (sqlstate_of($node, "SELECT nextval(${_}::regclass)", db => 'one', user => 'attacker'))[0] ne '42501' }
  split /\n/, $node->safe_psql('one', q{SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'idgen_sql_state'::regnamespace AND c.relkind = 'S'});
is(join(', ', @by_oid), '', '... nor call nextval() on any of its sequences by OID (42501 for each)');

# ---- a node id that leaves a database by any way, taken at once by another --------------------------
# Sonyflake makes 25,600 IDs a second: a burst beyond that, or a clock stepped back, runs its words
# ahead of the clock. They wait for the clock to come within the lead (about a second), and a node id
# new to a database starts its words past the lead. So a node id given up by hand (COMMENT ON
# DATABASE) and taken by another database at once, or kept by a database whose edition is dropped
# and made again, makes no ID twice. (Before: 19,990 of 20,000 made again.) The words are set ahead
# as a burst leaves them (the offset's word a time ahead of the clock, the node id in its top bits):
# a machine too slow to burst past the capacity tests the same.
if ($v11) {
	my $sonyflakes = sub {  # the Sonyflake IDs of a statement of n, as a list
		my ($db, $n) = @_;
		return split /\n/, $node->safe_psql($db, "SELECT idgen.sonyflake_id() FROM generate_series(1, $n)");
	};
	my $common = sub {
		my ($a, $b) = @_;
		my %seen = map { $_ => 1 } @$a;
		return scalar grep { $seen{$_} } @$b;
	};
	my $ahead = sub {  # the Sonyflake words of a database ms ahead of the clock
		my ($db, $ms) = @_;
		$node->safe_psql($db, qq{SELECT setval('idgen_sql_state.sonyflake_offset',
		  ((SELECT node FROM idgen.edition_identity())::bigint << 53)
		  | (((((extract(epoch FROM clock_timestamp()) * 1000)::bigint + $ms - 1409529600000) / 10) << 8)
		     - coalesce(pg_sequence_last_value('idgen_sql_state.sonyflake_counter'), 0)))});
	};
	$node->safe_psql('postgres', 'CREATE DATABASE three; CREATE DATABASE four');
	$node->safe_psql($_, 'CREATE EXTENSION idgen_sql') for qw(three four);
	$node->safe_psql('three', 'SELECT idgen.edition_set_identity(700)');
	$node->safe_psql('four', 'SELECT idgen.edition_set_identity(702)');
	$node->safe_psql('three', 'SELECT idgen.sonyflake_id()');
	$ahead->('three', 5000);
	my ($lead) = $node->safe_psql('three',
		"SELECT extract(epoch FROM (idgen.sonyflake_parse(idgen.sonyflake_id())).ts - clock_timestamp()) * 1000");
	cmp_ok($lead, '<=', 1010, "words 5 s ahead of the clock: the next ID waits until it leads by a second at most ($lead ms)");
	my $until_past = sub {  # Sonyflake IDs of a database, until its clock has passed the last of a list
		my ($db, $past) = @_;
		my @ids;
		for (1 .. 40) {
			push @ids, $sonyflakes->($db, 2000);
			last if $node->safe_psql($db, "SELECT clock_timestamp() > (idgen.sonyflake_parse($past)).ts + interval '50 ms'") eq 't';
		}
		return @ids;
	};
	$ahead->('three', 3000);
	my @made = $sonyflakes->('three', 5000);
	$node->safe_psql('three', q{COMMENT ON DATABASE three IS '[idgen_sql node=701]'});
	$node->safe_psql('four', 'SELECT idgen.edition_set_identity(700)');
	my @taken = $until_past->('four', $made[-1]);
	is($common->(\@made, \@taken), 0, 'node 700 given up by hand right after a burst, taken at once by another database: no ID made twice');
	$node->safe_psql('three', 'SELECT idgen.sonyflake_id()');
	$ahead->('three', 3000);
	my @again = $sonyflakes->('three', 5000);
	$node->safe_psql('three', 'DROP EXTENSION idgen_sql; CREATE EXTENSION idgen_sql');
	my @after = $until_past->('three', $again[-1]);
	is($common->(\@again, \@after), 0, 'the edition dropped and made again (its tag kept) right after a burst: no ID made twice');
}

$node->stop;
done_testing();
