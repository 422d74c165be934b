# The drop guard (idgen.drop_guard(), the event trigger idgen_drop_guard) must never make an
# uninstall impossible, and never let a drop of idgen through unchecked while the library loads.
# A server that does not preload idgen (so that a session loads the library when a statement first
# needs it), a database whose copy of the durable mark lies ahead of this server:
#   - the library loaded before the statement: DROP EXTENSION idgen is refused (55000), DROP OWNED
#     BY another role goes on;
#   - the library loaded by the DROP statement itself (a new session): the statement was not seen,
#     and is checked as if it dropped idgen (refused, saying why); run again in that session, a DROP
#     OWNED BY another role goes on;
#   - the library missing (dynamic_library_path names an empty folder): DROP OWNED BY a role, DROP
#     OWNED BY the extension's owner and DROP EXTENSION idgen go on, each with a warning; before,
#     every one failed in every database with idgen;
#   - a library without the guard's function (another module under idgen's name): the same.
use strict;
use warnings;
use File::Copy qw(copy);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $node = idgen_node('drop_guard', no_preload => 1);
$node->start;
my $ahead = q{SELECT setval('idgen.mark', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint),
                     setval('idgen.mark_server', 42)};
$node->safe_psql('postgres', qq{
  CREATE ROLE bob;
  CREATE ROLE keeper;
  GRANT CREATE ON DATABASE postgres TO keeper;
  CREATE DATABASE owned;
  GRANT CREATE ON DATABASE owned TO keeper;
  CREATE DATABASE other;
  GRANT CREATE ON DATABASE other TO keeper;
});
for my $db (qw(postgres owned other))
{
	$node->safe_psql($db, 'SET ROLE keeper; CREATE EXTENSION idgen; RESET ROLE; CREATE TABLE t (i int); ALTER TABLE t OWNER TO bob');
	$node->safe_psql($db, $ahead);
}

# The library loaded before the statement: the guard sees what the statement drops.
my ($rc, $out, $err) = $node->psql('postgres', 'SELECT idgen.is_js_safe(1); DROP EXTENSION idgen');
like($err, qr/cannot be dropped while it holds IDs this server has not passed/, 'loaded: DROP EXTENSION idgen is refused');
unlike($err, qr/loaded by this very statement/, 'loaded: the statement was seen');
($rc, $out, $err) = $node->psql('postgres', 'SELECT idgen.is_js_safe(1); DROP OWNED BY bob');
is($rc, 0, 'loaded: DROP OWNED BY another role goes on') or diag($err);

# The library loaded by the DROP statement itself.
$node->safe_psql('postgres', 'CREATE TABLE t (i int); ALTER TABLE t OWNER TO bob');
($rc, $out, $err) = $node->psql('postgres', 'DROP EXTENSION idgen');
like($err, qr/cannot be dropped while it holds IDs this server has not passed/, 'first load: DROP EXTENSION idgen is refused');
like($err, qr/loaded by this very statement/, 'first load: the refusal says why it was checked');
($rc, $out, $err) = $node->psql('postgres', "DROP OWNED BY bob;\nDROP OWNED BY bob;", on_error_stop => 0);
my @errors = $err =~ /ERROR:/g;
is(scalar @errors, 1, 'first load: DROP OWNED BY another role is checked once as if it dropped idgen');
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_class WHERE relname = 't'"), '0',
	'first load: run again in that session, DROP OWNED BY another role goes on');
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_extension WHERE extname = 'idgen'"), '1', 'idgen is still there');

# The library missing.
# (PL/pgSQL stays: from 18 on its handler too is found through dynamic_library_path)
my $empty = PostgreSQL::Test::Utils::tempdir;
my $pkglib = $node->config_data('--pkglibdir');
symlink("$pkglib/plpgsql.so", "$empty/plpgsql.so") or die "symlink: $!";
$node->append_conf('postgresql.conf', "dynamic_library_path = '$empty'");
$node->reload;
($rc, $out, $err) = $node->psql('postgres', 'SELECT idgen.is_js_safe(1)');
like($err, qr/could not access file/, 'the library is missing');
$node->safe_psql('postgres', 'CREATE TABLE t (i int); ALTER TABLE t OWNER TO bob');
($rc, $out, $err) = $node->psql('postgres', 'DROP OWNED BY bob');
is($rc, 0, 'missing: DROP OWNED BY a role goes on') or diag($err);
like($err, qr/WARNING:  idgen's library cannot be loaded: DROP OWNED goes on without checking/,
	'missing: with a warning');
($rc, $out, $err) = $node->psql('postgres', 'DROP EXTENSION idgen');
is($rc, 0, 'missing: DROP EXTENSION idgen goes on') or diag($err);
like($err, qr/WARNING:  idgen's library cannot be loaded: DROP EXTENSION goes on/, 'missing: with a warning');
($rc, $out, $err) = $node->psql('owned', 'DROP OWNED BY keeper');
is($rc, 0, "missing: DROP OWNED BY the extension's owner goes on") or diag($err);
is($node->safe_psql('owned', "SELECT count(*) FROM pg_extension WHERE extname = 'idgen'"), '0', '... and takes idgen');

# A library of another module under idgen's name: loads, has no guard function.
my ($stranger) = grep { -f $_ } map { "$pkglib/$_.so" } qw(pgstattuple pg_stat_statements);
copy($stranger, "$empty/idgen.so") or die "copy $stranger: $!";
($rc, $out, $err) = $node->psql('other', 'DROP EXTENSION idgen');
is($rc, 0, 'another library: DROP EXTENSION idgen goes on') or diag($err);
like($err, qr/WARNING:  idgen's library cannot be loaded.*\n.*could not find function/,
	'another library: with a warning that says why');

$node->stop;
done_testing();
