# The regression tests that set the server's secrets (ALTER SYSTEM SET idgen.token_secret,
# idgen.public_id_key and idgen.public_uuid_key, then RESET: test/sql/token.sql, public_id.sql,
# public_uuid.sql), which make installcheck leaves
# out of a user's server: pg_regress against a server of their own that preloads idgen.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $node = idgen_node('regress_secrets');
$node->start;
my $out = PostgreSQL::Test::Utils::tempdir;
my $ok = $node->command_ok([ $ENV{PG_REGRESS}, '--inputdir=' . dirname(__FILE__) . '/..', "--outputdir=$out", '--bindir=',
		'--host=' . $node->host, '--port=' . $node->port, '--dbname=idgen_regression', 'token', 'public_id', 'public_uuid' ],
	'pg_regress: token, public_id, public_uuid');
diag(slurp_file("$out/regression.diffs")) if !$ok && -f "$out/regression.diffs";
$node->stop;
done_testing();
