# The drop guard must never make an uninstall impossible, and never let a drop of what holds a
# database's copy of the durable mark through unchecked, whatever drops it and however. The library
# checks each such drop (its object access hook); the event trigger idgen_drop_guard loads it in a
# session that has not. A server that does not preload idgen, a database whose copy of the durable
# mark lies ahead of this server:
#   - the library loaded before the statement: DROP EXTENSION idgen is refused (55000), DROP OWNED
#     BY another role goes on;
#   - the library loaded by the DROP statement itself (a new session): the same;
#   - the library missing (dynamic_library_path names an empty folder): DROP OWNED BY a role, DROP
#     OWNED BY the extension's owner and DROP EXTENSION idgen go on, each with a warning; before,
#     every one failed in every database with idgen;
#   - a library without the guard's function (another module under idgen's name): the same.
# Then a server that preloads idgen: the event trigger disabled, event_triggers = off (17 and
# later), single-user mode, a sequence of the copy dropped alone, DROP OWNED BY its owner: each is
# refused (before: each lost the copy, and DROP and CREATE EXTENSION repeated its IDs). The way out
# that keeps the promise: idgen.adopt_copy(), after which the drop goes on and the IDs made after
# CREATE EXTENSION lie above the copy.
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
}
# (an ID first: on 17 and later the server shares its marks without the preload, and marks that
# were never written would start from the copies below, refusing for their sake before the drop's
# own check)
$node->safe_psql('postgres', 'SELECT idgen.uuidv7()');
$node->safe_psql($_, $ahead) for qw(postgres owned other);

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
($rc, $out, $err) = $node->psql('postgres', 'DROP OWNED BY bob');
is($rc, 0, 'first load: DROP OWNED BY another role goes on') or diag($err);
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_class WHERE relname = 't'"), '0', '... and drops what it owns');
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

# ---- every way of dropping, on a server that preloads idgen -----------------------------------------
my $pre = idgen_node('drop_everywhere');
$pre->start;
my $v17 = $pre->safe_psql('postgres', 'SHOW server_version_num') >= 170000;
my @dbs = qw(disabled off single member owned adopted);
$pre->safe_psql('postgres', 'CREATE ROLE dbo LOGIN');
for my $db (@dbs) {
	# ('owned': a trusted install by the database's owner)
	$pre->safe_psql('postgres', "CREATE DATABASE $db" . ($db eq 'owned' ? ' OWNER dbo' : ''));
	$pre->safe_psql($db, ($db eq 'owned' ? 'SET ROLE dbo; ' : '')
		  . 'CREATE EXTENSION idgen; CREATE TABLE t (id bigint DEFAULT idgen.snowflake_id()); INSERT INTO t DEFAULT VALUES');
	# (what a restored dump of a server whose clock ran an hour ahead sets)
	$pre->safe_psql($db, q{SELECT setval('idgen.mark', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint),
	  setval('idgen.mark_identity', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint),
	  setval('idgen.mark_server', 42)});
}
my $refused = qr/cannot be dropped while it holds IDs this server has not passed/;
($rc, $out, $err) = $pre->psql('disabled', 'ALTER EVENT TRIGGER idgen_drop_guard DISABLE; DROP EXTENSION idgen CASCADE');
like($err, $refused, 'the event trigger disabled: DROP EXTENSION idgen is refused');
SKIP: {
	skip 'event_triggers is a setting from PostgreSQL 17 on', 1 unless $v17;
	($rc, $out, $err) = $pre->psql('off', 'SET event_triggers = off; DROP EXTENSION idgen CASCADE');
	like($err, $refused, 'event_triggers = off: DROP EXTENSION idgen is refused');
}
($rc, $out, $err) = $pre->psql('member', 'ALTER EXTENSION idgen DROP SEQUENCE idgen.mark; DROP SEQUENCE idgen.mark');
like($err, $refused, 'a sequence of the copy dropped alone: refused');
($rc, $out, $err) = $pre->psql('owned', 'DROP OWNED BY dbo CASCADE');
like($err, $refused, 'DROP OWNED BY its owner: refused');
$pre->stop;
# Single-user mode (the preload loads the library there too).
my $single = '';
IPC::Run::run([ 'postgres', '--single', '-D', $pre->data_dir, '-c', "config_file=" . $pre->data_dir . '/postgresql.conf', 'single' ],
	'<', \"DROP EXTENSION idgen CASCADE;\n", '>', \$single, '2>&1');
like($single, $refused, 'single-user mode: DROP EXTENSION idgen is refused');
$pre->start;
for my $db (qw(disabled member owned single)) {
	is($pre->safe_psql($db, "SELECT count(*) FROM pg_extension WHERE extname = 'idgen'") . '/'
		  . $pre->safe_psql($db, "SELECT count(*) FROM pg_class WHERE relname = 'mark' AND relkind = 'S'"),
		'1/1', "$db: idgen and its copy are still there");
}
# The ways out that keep the promise, for a copy an hour ahead written by another run under this
# server's identity: Snowflake carries on at once under a node id the copy's IDs do not carry; UUIDv7
# carries on above the copy, ahead of the clock, once a superuser has the server adopt it. Then the
# drop goes on, and the IDs made after CREATE EXTENSION lie above the copy.
$pre->safe_psql('adopted', q{SELECT setval('idgen.mark_server',
  (SELECT last_value & ((1::bigint << 26) - 1) FROM idgen.mark_server) | (12345::bigint << 26) | (-9223372036854775807 - 1))});
my ($state, $message, $hint) = sqlstate_of($pre, 'SELECT idgen.snowflake_id()', db => 'adopted');
is($state, '55000', "the copy an hour ahead: Snowflake refuses ($message)");
like($hint, qr/idgen\.node_id that those IDs do not carry/, '... and names the way out for its family');
($state, $message, $hint) = sqlstate_of($pre, 'SELECT idgen.uuidv7()', db => 'adopted');
is($state, '55000', 'UUIDv7 refuses');
like($hint, qr/idgen\.adopt_copy\(interval/, '... and names the way out for its family');
# The server moves for every database: its operator states how far ahead she lets it run.
($state, $message, $hint) = sqlstate_of($pre, "SELECT idgen.adopt_copy('10 minutes')", db => 'adopted');
is($state, '55000', "idgen.adopt_copy() with a lead shorter than the copy's refuses, moving nothing ($message)");
like($message, qr/lies (59 min|1 h)/, '... and says how far ahead the copy lies');
is((sqlstate_of($pre, 'SELECT idgen.uuidv7()', db => 'adopted'))[0], '55000', '... UUIDv7 still refuses');
is((sqlstate_of($pre, "SELECT idgen.adopt_copy('-1 hour')", db => 'adopted'))[0], '22023', 'a negative lead is refused');
like($pre->safe_psql('adopted', "SELECT idgen.adopt_copy('2 hours')"), qr/carries on above/, 'idgen.adopt_copy(2 hours)');
my $copy_ms = $pre->safe_psql('adopted', 'SELECT last_value FROM idgen.mark');
cmp_ok($pre->safe_psql('adopted', '(SELECT (extract(epoch FROM idgen.uuidv7_time(idgen.uuidv7())) * 1000)::bigint)'),
	'>=', $copy_ms, 'adopted: UUIDv7 carries on above the copy');
is((sqlstate_of($pre, 'SELECT idgen.snowflake_id()', db => 'adopted'))[0], '55000', 'Snowflake, under the same node id, still refuses');
like((sqlstate_of($pre, 'DROP EXTENSION idgen CASCADE', db => 'adopted'))[1], $refused, 'and so does DROP EXTENSION');
$pre->safe_psql('postgres', 'ALTER SYSTEM SET idgen.node_id = 7; SELECT pg_reload_conf()');
$pre->poll_query_until('adopted', "SELECT current_setting('idgen.node_id') = '7'");
is($pre->safe_psql('adopted', 'SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), '7',
	'under node 7, which the copy does not hold: Snowflake carries on at once');
like((sqlstate_of($pre, 'DROP EXTENSION idgen CASCADE', db => 'adopted'))[1], $refused,
	'DROP EXTENSION: refused while UID20 and Instagram still have parts the copy holds');
$pre->safe_psql('postgres', "ALTER SYSTEM SET idgen.uid20_server = 7; ALTER SYSTEM SET idgen.instagram_shards = ''; SELECT pg_reload_conf()");
$pre->poll_query_until('adopted', "SELECT current_setting('idgen.uid20_server') = '7'");
$pre->safe_psql('adopted', 'DROP EXTENSION idgen CASCADE; CREATE EXTENSION idgen');
cmp_ok($pre->safe_psql('adopted', '(SELECT (extract(epoch FROM idgen.uuidv7_time(idgen.uuidv7())) * 1000)::bigint)'),
	'>=', $copy_ms, 'dropped and created again: UUIDv7 lies above the copy');
$pre->safe_psql('postgres', 'CREATE ROLE bob LOGIN');
($state) = sqlstate_of($pre, "SELECT idgen.adopt_copy('1 day')", db => 'adopted', user => 'bob');
is($state, '42501', 'idgen.adopt_copy() is for superusers');
$pre->stop;
done_testing();
