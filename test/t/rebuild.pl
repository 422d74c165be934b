# The first start of a server's marks from every database's copy (a new cluster, or one that
# pg_upgrade made), against what one database's owner can write in her own database: her
# DecimalId copy at the end of the generator ids, and her database's defaults that would hold the
# read of her copy. Nothing she writes may stop or spend another database's IDs: hers alone refuse.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idgen_node('rebuild', conf => "idgen.launch_id = 65");
$node->start;
$node->safe_psql('postgres', q{CREATE ROLE mallory LOGIN; CREATE DATABASE mallory OWNER mallory;
  CREATE DATABASE spent OWNER mallory; CREATE DATABASE victim});
$node->safe_psql('victim', 'CREATE EXTENSION idgen');
# (no ID made yet: the origins were never written, and the first ID reads every database's copy)
my $as_mallory = sub { $node->safe_psql($_[0], $_[1], extra_params => [ '-U', 'mallory' ]) };
my $run = 10**10 * 123456789;
$as_mallory->('mallory', "CREATE EXTENSION idgen; SELECT setval('idgen.decimal_id_generator', $run + 65 * 100000 + 99999);
  CREATE TABLE t (x int);
  ALTER DATABASE mallory SET default_transaction_isolation = 'serializable';
  ALTER DATABASE mallory SET default_transaction_read_only = on;
  ALTER DATABASE mallory SET default_transaction_deferrable = on");
$as_mallory->('spent', "CREATE EXTENSION idgen; SELECT setval('idgen.decimal_id_generator', $run + 65 * 100000 + 60000)");
# A serializable transaction she keeps open: a deferrable one in her database would wait for it.
my $holder = $node->background_psql('mallory', extra_params => [ '-U', 'mallory' ], on_error_stop => 0);
$holder->query_safe('BEGIN ISOLATION LEVEL SERIALIZABLE READ WRITE; INSERT INTO t VALUES (1)');

my $started = time;
my ($state, $message) = sqlstate_of($node, "SET statement_timeout = '60s'; SELECT idgen.snowflake_id()", db => 'victim');
is($state, '', "another database's first ID, while her transaction stays open ($message)");
cmp_ok(time - $started, '<', 30, '... within seconds: her database\'s defaults do not hold the read of her copy');
is($node->safe_psql('victim', 'SELECT idgen.uuidv7() IS NOT NULL, idgen.decimal_id() > 0'), 't|t',
	'UUIDv7 and DecimalId in the other database');
cmp_ok($node->safe_psql('victim', 'SELECT (idgen.decimal_parse(idgen.decimal_id())).generator_id'), '<', 50000,
	'her copies in the upper half of the generator ids spend none of the other databases\'');
$holder->quit;
for my $db (qw(mallory spent)) {
	($state, $message) = sqlstate_of($node, 'BEGIN READ WRITE; SELECT idgen.decimal_id(); COMMIT', db => $db, user => 'mallory');
	is($state, '55000', "$db: her own DecimalIds refuse, as where a copy lies ahead of the server ($message)");
	is($node->safe_psql($db, 'BEGIN READ WRITE; SELECT idgen.snowflake_id() > 0; COMMIT'), 't',
		"$db: her other families carry on");
}
($state, $message) = sqlstate_of($node, "SELECT idgen.adopt_copy('1 day')", db => 'spent');
is($state, '55000', "adopt_copy() of her DecimalIds in the upper half is refused too ($message)");
$node->stop;
done_testing();
