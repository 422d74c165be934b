# What no role but the owner, and no snapshot, setting or copy, can make the SQL edition's 64-bit
# generators do (docs/managed.md, "The identity of a database" and "No role stalls a generator"):
#   - a role with nothing but CONNECT reaches none of the state sequences, not even by OID;
#   - a copy of a database (CREATE DATABASE ... TEMPLATE) makes no ID before it has an identity of its
#     own, whatever its sessions set;
#   - a REPEATABLE READ transaction older than a change of the identity makes no ID under the old one;
#   - a comment of any size on another database stops no check of the identity;
#   - the database's owner, as it is now, stops the generators (edition_fence), a former owner not;
#   - an epoch setting of the session is refused, even the published epoch, as idgen refuses it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $node = idgen_node('guard', no_preload => 1);
$node->start;
$node->safe_psql('postgres', q{
CREATE ROLE owner1 LOGIN; CREATE ROLE owner2 LOGIN; CREATE ROLE attacker LOGIN;
CREATE DATABASE one OWNER owner1; CREATE DATABASE other OWNER attacker;});
$node->safe_psql('one', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'owner1' ]);
my $one_node = $node->safe_psql('one', 'SELECT node FROM idgen.edition_identity()');
like($one_node, qr/^\d+$/, "database one has an identity: node $one_node");
is($node->safe_psql('one', 'SELECT idgen.snowflake_id() > 0 AND idgen.sonyflake_id() > 0'), 't', 'one makes IDs');

# ---- the state sequences, by OID: out of reach ---------------------------------------------------------
my @seqs = split /\n/, $node->safe_psql('one', q{SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'idgen_sql_state'::regnamespace AND c.relkind = 'S' ORDER BY 1});
cmp_ok(scalar(@seqs), '>=', 12, 'the edition keeps its state in sequences (' . scalar(@seqs) . ')');
# (pg_sequence_last_value() refuses with 42501 before PostgreSQL 18, and from 18 on returns NULL to
# a role without the privileges: either way it shows nothing)
my $reaches = sub {
	my ($call, $seq) = @_;
	my ($state) = sqlstate_of($node, 'SELECT ' . sprintf($call, $seq), db => 'one', user => 'attacker');
	return 0 if $state eq '42501';
	return 1 unless $state eq '' && $call =~ /^pg_sequence_last_value/;
	return $node->safe_psql('one', 'SELECT ' . sprintf($call, $seq) . ' IS NOT NULL', extra_params => [ '-U', 'attacker' ]) eq 't';
};
for my $call ('nextval(%s::regclass)', 'pg_sequence_last_value(%s::regclass)', 'currval(%s::regclass)', 'setval(%s::regclass, 1)') {
	my @reached = grep { $reaches->($call, $_) } @seqs;
	is(join(', ', @reached), '', sprintf("a role with CONNECT calls $call on none of them (42501, or NULL, for each)", 'oid'));
}
# The generators take no relation from their caller.
is($node->safe_psql('one', q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'idgen'::regnamespace AND 'regclass'::regtype = ANY (proargtypes)}),
	'0', 'no function of schema idgen takes a regclass');

# ---- a copy of the database: no ID before its own identity ---------------------------------------------
# (copied while one's words lead the clock, after a burst: the copy's offsets are one's, checked)
$node->safe_psql('one', 'SELECT count(idgen.sonyflake_id()) FROM generate_series(1, 200000)');
$node->safe_psql('postgres', 'CREATE DATABASE copy TEMPLATE one OWNER owner1');
my $now_ms = clock_ms($node);
for my $claim ("SET idgen_sql.identity = 'x'; ", "SET idgen_sql.identity = '$now_ms'; ", '') {
	my ($state, $message) = sqlstate_of($node, "${claim}SELECT idgen.sonyflake_id()", db => 'copy', user => 'attacker');
	is("$state $message", '55000 this database has no usable identity for Sonyflake IDs', "a copy of one refuses its first ID (${claim}as a role with CONNECT)");
}
$node->safe_psql('copy', 'SELECT idgen.edition_set_identity(' . ($one_node + 100) . ')', extra_params => [ '-U', 'owner1' ]);
my $seen = $node->safe_psql('copy', 'SELECT count(DISTINCT (idgen.snowflake_parse(x)).node) || \'|\' || min((idgen.snowflake_parse(x)).node) FROM (SELECT idgen.snowflake_id() x FROM generate_series(1, 5000)) g');
is($seen, '1|' . ($one_node + 100), '... and, given one of its own, makes IDs under it only');

# ---- a snapshot older than a change of the identity ----------------------------------------------------
my $rr = $node->background_psql('one', on_error_stop => 0, extra_params => [ '-U', 'attacker' ]);
$rr->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$rr->query_safe('SELECT count(*) FROM pg_catalog.pg_shdescription');
my $new_node = $one_node + 1;
$node->safe_psql('one', "SELECT idgen.edition_set_identity($new_node)", extra_params => [ '-U', 'owner1' ]);
# (the old node id, free now: another database could take it)
my ($out) = $rr->query('SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node');
$out =~ s/\s+$//;  # (BackgroundPsql before 17 keeps the newline)
my $err = $rr->{stderr};
isnt($out, $one_node, "a REPEATABLE READ transaction that began before the node id changed makes no ID under the old one ($one_node)");
like($err, qr/cannot be checked in this transaction/, '... it refuses (55000), and says why') if $out ne $new_node;
$rr->query('ROLLBACK');
$rr->quit;
is($node->safe_psql('one', 'BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node; COMMIT'), $new_node,
	'a REPEATABLE READ transaction that sees the change checks the identity, and makes IDs under the new node id');
is($node->safe_psql('one', 'SELECT DISTINCT (idgen.snowflake_parse(idgen.snowflake_id())).node FROM generate_series(1, 5000)'), $new_node,
	'... and the offset holds the new identity: every ID after it is under the new node id');

# ---- a comment of any size on another database ---------------------------------------------------------
# (a role that owns a database writes what comment it likes; more than 256 MB once stopped every
# check of every database on the server)
$node->safe_psql('other', q{DO $$BEGIN EXECUTE format('COMMENT ON DATABASE other IS %L', repeat('x', 270000000)); END$$}, extra_params => [ '-U', 'attacker' ]);
is($node->safe_psql('one', 'SELECT concat_ws(\'|\', node, node_problem) FROM idgen.edition_identity()'), $new_node,
	'a comment of 270 MB on another database: the identity is checked');
$node->safe_psql('other', 'COMMENT ON DATABASE other IS NULL', extra_params => [ '-U', 'attacker' ]);

# ---- the owner as it is now stops the generators, a former owner not -----------------------------------
$node->safe_psql('postgres', 'ALTER DATABASE one OWNER TO owner2');
my ($state) = sqlstate_of($node, 'SELECT count(*) FROM idgen.edition_fence()', db => 'one', user => 'owner1');
is($state, '42501', 'a former owner of the database cannot stop its generators (42501)');
($state) = sqlstate_of($node, 'SELECT count(*) FROM idgen.edition_fence()', db => 'one', user => 'attacker');
is($state, '42501', '... nor a role with CONNECT');
($state) = sqlstate_of($node, 'SELECT idgen.edition_set_identity(' . ($new_node + 1) . ')', db => 'one', user => 'owner2');
is($state, '', 'the new owner gives it an identity');
is($node->safe_psql('one', 'SELECT node FROM idgen.edition_identity()'), $new_node + 1, '... which holds');
$node->safe_psql('postgres', 'ALTER DATABASE one OWNER TO owner1');

# ---- an epoch setting of the session, the published one too ---------------------------------------------
for my $case ([ 'snowflake', '1288834974657', 'idgen.snowflake_id()' ], [ 'trace', '0', 'idgen.trace_id()' ], [ 'trace', '+0', 'idgen.trace_id()' ],
	[ 'sonyflake', '1409529600000', 'idgen.sonyflake_id()' ], [ 'js', '1767225600000', 'idgen.js_id()' ]) {
	my ($family, $value, $call) = @$case;
	($state) = sqlstate_of($node, "SELECT $call; SET idgen.${family}_epoch_ms = '$value'; SELECT $call", db => 'one');
	is($state, '55000', "idgen.${family}_epoch_ms set for the session to '$value' (the published epoch): $call refuses (55000), as idgen");
}
($state) = sqlstate_of($node, "SET idgen.snowflake_epoch_ms = 'abc'; SELECT idgen.snowflake_id()", db => 'one');
is($state, '22023', '... and one that is no epoch: 22023');
is($node->safe_psql('one', "SET idgen.snowflake_epoch_ms = ''; SELECT idgen.snowflake_id() > 0"), 't', '... an empty one is none');

$node->stop;
done_testing();
