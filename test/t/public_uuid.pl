# Public UUIDs on a server of their own: the key given by a file, changed by writing the file and
# reloading (two lines while keys rotate), never in the server log; and the peers: uuidv47's
# reference implementation (its header) and its Rust port (uuid47-rs) make idgen's façades of
# 100,000 UUIDv7s and read idgen's façades back, and idgen reads theirs (where
# scripts/peers-build.sh built their drivers from the sources in IDGEN_PEERS: "not run" otherwise).
# Then what the configuration can get wrong, and that nothing uses a key the operator did not mean:
# a text that holds no key is refused and logged at each reload and at start, inline or in a file;
# a line PostgreSQL rejected refuses until it is corrected, without a restart; the hints write keys
# that work; every session uses the key the postmaster read at the last reload, and a transaction
# keeps the key of its first call; key scope 'database' gives each database keys of its own,
# derived as the documentation says; a key file outside the data directory is not in a base backup.
use strict;
use warnings;
use Digest::SHA qw(hmac_sha256);
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $root = dirname(__FILE__) . '/../..';
my $node = idgen_node('public_uuid', allows_streaming => 1, conf => "log_statement = 'all'");
$node->start;
my $data = $node->data_dir;
my $work = PostgreSQL::Test::Utils::tempdir;
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');

# uuidv47's key of its tests and ports: k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210, which
# idgen's setting (like uuidv47's own PostgreSQL extension) writes as the key's 16 bytes.
my $peer_key = 'efcdab8967452301:1032547698badcfe';
my $new_key = '000102030405060708090a0b0c0d0e0f';
my $readme_v7 = '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f';
my %facade_of_zero = ($peer_key => '22d97126-9609-4000-8000-000000000000');

sub write_key_file {
	my ($content) = @_;
	my $file = "$data/idgen_public_uuid_key";
	open my $fh, '>', $file or die "could not write $file: $!";
	print $fh $content;
	close $fh;
	chmod 0600, $file;
	$node->reload;
}

# Waits until a new session makes the façade of the zero UUIDv7 that the first key makes.
sub wait_for_key {
	my ($key) = @_;
	ok($node->poll_query_until('postgres', "SELECT idgen.public_uuid('00000000-0000-7000-8000-000000000000')",
			$facade_of_zero{$key}), "the server reads the key $key first");
}

# Reloads, and waits until the postmaster has (a new session inherits its reload time).
sub reload_and_wait {
	my $before = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
	$node->reload;
	$node->poll_query_until('postgres', "SELECT pg_conf_load_time() > '$before'") or die 'no reload';
}

# The SQLSTATE and message of a call once the server refuses it with a message like the one given.
sub refused_with {
	my ($sql, $like) = @_;
	my ($state, $message, $hint);
	for (1 .. 100) {
		($state, $message, $hint) = sqlstate_of($node, $sql);
		last if $message =~ $like;
		sleep 0.1;
	}
	return ($state, $message, $hint);
}
my $zero_v7 = "'00000000-0000-7000-8000-000000000000'";

# ---- the key in a file ---------------------------------------------------------------------------
$node->append_conf('postgresql.conf', "idgen.public_uuid_key_file = 'idgen_public_uuid_key'");
write_key_file("$peer_key\n");
wait_for_key($peer_key);
is($node->safe_psql('postgres', "SELECT idgen.public_uuid('$readme_v7')"), '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f',
	"the file's key makes uuidv47's façade of its README's UUIDv7");
is($node->safe_psql('postgres', 'SHOW idgen.public_uuid_key_file'), 'idgen_public_uuid_key', 'the setting shows the path');

# ---- the peers -------------------------------------------------------------------------------------
# 100,000 of idgen's UUIDv7s made in one statement (so: counters above 0, fractions close together),
# and UUIDv7s at the edges of each field; their façades as idgen makes them.
$node->safe_psql('postgres', q{
CREATE TABLE v (id uuid PRIMARY KEY, facade uuid);
INSERT INTO v (id) SELECT idgen.uuidv7() FROM generate_series(1, 100000);
INSERT INTO v (id) VALUES ('00000000-0000-7000-8000-000000000000'), ('03ffffff-ffff-7fff-bfff-ffffffffffff'),
  ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'), ('00000000-007b-7aaa-8123-456789abcdef'),
  ('01234567-89ab-7fff-8000-000000000000'), ('01234567-89ab-7000-bfff-ffffffffffff');
UPDATE v SET facade = idgen.public_uuid(id);
});
$node->safe_psql('postgres', "COPY (SELECT id, facade FROM v ORDER BY id) TO '$work/idgen.txt' (DELIMITER ' ')");
for my $peer ([ uuidv47 => 'uuidv47_driver', "uuidv47's reference header" ],
	[ uuid47_rs => 'uuid47_rs_driver', 'uuid47-rs, the Rust port' ]) {
	my ($name, $driver, $what) = @$peer;
	my $path = "$root/build/peers/$driver";
	if (!-x $path) {
		diag("not run: public_uuid $name: no driver (scripts/peers-build.sh builds it from IDGEN_PEERS/$name*)");
		next;
	}
	my $out = "$work/$name.txt";
	system("'$path' 0123456789abcdef fedcba9876543210 < '$work/idgen.txt' > '$out'") == 0 or die "$path failed";
	$node->safe_psql('postgres', "CREATE TABLE $name (made uuid, read uuid, n serial);
		COPY $name (made, read) FROM '$out' (DELIMITER ' ')");
	is($node->safe_psql('postgres', qq{
		SELECT count(*), count(*) FILTER (WHERE p.made = v.facade), count(*) FILTER (WHERE p.read = v.id),
		       count(*) FILTER (WHERE idgen.private_uuid(p.made) = v.id)
		FROM (SELECT id, facade, row_number() OVER (ORDER BY id) AS n FROM v) v JOIN $name p USING (n)}),
		'100006|100006|100006|100006', "$what: the same façades as idgen's, and each reads the other's");
}

# ---- keys that change: the file is written again, and reloaded -----------------------------------
write_key_file("opaque:$new_key\n$peer_key\n");
$facade_of_zero{$new_key} = 'f5c7cc53-8c55-4028-8c14-8be10aff10c8';  # the opaque mapping's known answer
wait_for_key($new_key);
is($node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE id = ANY (idgen.private_uuid_candidates(facade))),
	       count(*) FILTER (WHERE idgen.public_uuid(id) <> facade) FROM v}), '100006|100006',
	'two lines: the new key makes other façades, and the old façades are still read');
write_key_file("opaque:$new_key\n");
ok($node->poll_query_until('postgres', 'SELECT cardinality(idgen.private_uuid_candidates(idgen.public_uuid(id))) = 1
	FROM v ORDER BY id LIMIT 1'), 'one line again');
my $refused = $node->safe_psql('postgres', q{
CREATE FUNCTION pg_temp.read(f uuid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM idgen.private_uuid(f); RETURN true; EXCEPTION WHEN invalid_parameter_value THEN RETURN false; END $$;
SELECT count(*) FILTER (WHERE NOT pg_temp.read(facade)) FROM v});
cmp_ok(abs($refused - 100006 * 63 / 64), '<', 500, "the old key gone, 63 in 64 of its façades are refused ($refused)");

# ---- what the server says of a file that holds no key: at use, and in the log at each reload ------
my $key_path = "$data/idgen_public_uuid_key";
write_key_file("not a key, but thirty-two bytes or more of text\n");
my ($state, $message, $hint) = refused_with("SELECT idgen.public_uuid('$readme_v7')", qr/not a key/);
is($state, '55000', 'a file that holds no key: refused');
like($message, qr/^the first key in idgen\.public_uuid_key_file "\Q$key_path\E" is not a key as idgen reads it/,
	"and says so: $message");
unlike("$message $hint", qr/thirty-two/, 'never quoting the file');
for my $case ([ "$peer_key\n$new_key\n$new_key\n", 'does not hold keys as idgen reads them', 'three keys' ],
	[ "000102030405060708090a0b0c0d0e0g\n", 'the first key in .* is not a key', 'a digit that is not hexadecimal' ],
	[ "${new_key}0\n", 'the first key in .* is not a key', '33 digits' ],
	[ "$peer_key\nsealed:$new_key\n", 'the second key in .* is not a key', 'a mapping that does not exist' ],
	[ "# the key of 2026\n$new_key\n", 'the first key in .* is not a key', 'a comment' ])
{
	my ($content, $says, $what) = @$case;
	my $offset = -s $node->logfile;
	write_key_file($content);
	ok($node->wait_for_log(qr/LOG:  .*$says/, $offset), "$what: the server log says so at the reload");
	my ($got) = refused_with("SELECT idgen.public_uuid('$readme_v7')", qr/$says/);
	is($got, '55000', "$what: refused at use");
}
# And at start.
my $offset = -s $node->logfile;
$node->restart;
ok($node->wait_for_log(qr/LOG:  the first key in .* is not a key/, $offset), 'and at start');
# Both forms: the log says so at each reload (and every call refuses).
write_key_file("$peer_key\n");
wait_for_key($peer_key);
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "idgen.public_uuid_key = '$peer_key'");
$node->reload;
ok($node->wait_for_log(qr/idgen\.public_uuid_key and idgen\.public_uuid_key_file are both set/, $offset),
	'both forms set: the server log says so at the reload');
($state) = refused_with("SELECT idgen.public_uuid('$readme_v7')", qr/both set/);
is($state, '55000', 'and every call refuses');
remove_conf($node, 'idgen.public_uuid_key');
reload_and_wait();

# ---- the hints write keys that work -------------------------------------------------------------
# Each secret's file missing: the hint's command (run as it is) writes one that the server takes.
for my $case ([ public_uuid_key => "idgen.public_uuid($zero_v7)" ], [ public_id_key => 'idgen.public_id(1)' ],
	[ token_secret => "idgen.signed_token('x')" ])
{
	my ($name, $call) = @$case;
	my $file = "$work/hint_$name";
	$node->append_conf('postgresql.conf', "idgen.${name}_file = '$file'");
	reload_and_wait();
	my ($got, $said, $how) = sqlstate_of($node, "SELECT $call");
	like($said, qr/^could not access idgen\.${name}_file/, "$name: a missing file is refused: $said");
	my ($command) = $how =~ /such as: ([^)]*)\)/;
	like($command // '', qr/^openssl rand -hex \d+ > \Q$file\E; chmod 600 \Q$file\E$/, "$name: the hint says how: $how");
	system('sh', '-c', $command) == 0 or die "the hint's command failed: $command";
	reload_and_wait();
	is((sqlstate_of($node, "SELECT $call"))[0], '', "$name: the key it wrote works");
	remove_conf($node, "idgen.${name}_file");
}
# Unset: the hint's commands, in the data directory.
write_key_file('');
remove_conf($node, 'idgen.public_uuid_key_file');
unlink $key_path;
reload_and_wait();
($state, $message, $hint) = sqlstate_of($node, "SELECT idgen.public_uuid($zero_v7)");
like($message, qr/^idgen\.public_uuid_key is not set/, "unset: refused ($message)");
my ($command, $setting) = $hint =~ /such as: ([^)]*)\), set (idgen\.public_uuid_key_file = '[^']*')/;
like($command // '', qr/^openssl rand -hex 16 > \$PGDATA\/idgen_public_uuid_key; chmod 600/, "the hint says how: $hint");
{
	local $ENV{PGDATA} = $data;
	system('sh', '-c', $command) == 0 or die "the hint's command failed: $command";
}
$node->append_conf('postgresql.conf', $setting);
reload_and_wait();
is((sqlstate_of($node, "SELECT idgen.public_uuid($zero_v7)"))[0], '', 'and the key it wrote works');

# ---- an inline key that PostgreSQL rejects refuses until it is corrected -------------------------
remove_conf($node, 'idgen.public_uuid_key_file');
$node->append_conf('postgresql.conf', "idgen.public_uuid_key = '$peer_key'");
reload_and_wait();
wait_for_key($peer_key);
for my $bad ('0123456789abcdeffedcba987654321', "${new_key}0", "sealed:$new_key") {
	$offset = -s $node->logfile;
	$node->adjust_conf('postgresql.conf', 'idgen.public_uuid_key', "'$bad'");
	$node->reload;
	ok($node->wait_for_log(qr/invalid value for parameter "idgen\.public_uuid_key": ""/, $offset),
		"changed to a key that is not one: the server log says so at the reload");
	($state, $message) = refused_with("SELECT idgen.public_uuid($zero_v7)", qr/invalid value/);
	is($state, '55000', "and every call refuses, never the key before it ($message)");
}
like(slurp_file($node->logfile), qr/DETAIL:  Its first key is not a key as idgen reads it\./, 'the log says what is wrong');
$node->adjust_conf('postgresql.conf', 'idgen.public_uuid_key', "'opaque:$new_key'");
$node->reload;
wait_for_key($new_key);
# Started with one: refuses, and a reload of the corrected line is enough.
$node->adjust_conf('postgresql.conf', 'idgen.public_uuid_key', "'abc'");
$offset = -s $node->logfile;
$node->restart;
ok($node->wait_for_log(qr/invalid value for parameter "idgen\.public_uuid_key"/, $offset), 'started with a key that is not one: logged');
($state, $message) = refused_with("SELECT idgen.public_uuid($zero_v7)", qr/invalid value/);
is($state, '55000', "started with a key that is not one: every call refuses ($message)");
$node->adjust_conf('postgresql.conf', 'idgen.public_uuid_key', "'$peer_key'");
$node->reload;
wait_for_key($peer_key);
# Or the line removed and the file form given instead.
$node->adjust_conf('postgresql.conf', 'idgen.public_uuid_key', "'abc'");
$node->restart;
refused_with("SELECT idgen.public_uuid($zero_v7)", qr/invalid value/);
remove_conf($node, 'idgen.public_uuid_key');
$node->append_conf('postgresql.conf', "idgen.public_uuid_key_file = 'idgen_public_uuid_key'");
write_key_file("opaque:$new_key\n");
wait_for_key($new_key);

# ---- every session uses the key the postmaster read at the last reload ---------------------------
# A session idle while the server reloads reads the configuration at its next statement; the key
# file, written after the reload (the first step of a rotation, before its reload), is the same
# file, but not the key the reload read: the session uses the postmaster's, as a new session does.
write_key_file("$peer_key\n");
wait_for_key($peer_key);
my $idle = $node->background_psql('postgres');
$idle->query_safe('SELECT 1');
reload_and_wait();
open my $fh, '>', $key_path or die;
print $fh "opaque:$new_key\n$peer_key\n";
close $fh;
is($idle->query_safe("SELECT idgen.public_uuid($zero_v7)") =~ s/\s+$//r, $facade_of_zero{$peer_key},
	'a session that reloads after the file changed uses the key the postmaster read, not the file');
is($node->safe_psql('postgres', "SELECT idgen.public_uuid($zero_v7)"), $facade_of_zero{$peer_key}, 'as a new session does');
$node->reload;
wait_for_key($new_key);
is($idle->query_safe("SELECT idgen.public_uuid($zero_v7)") =~ s/\s+$//r, $facade_of_zero{$new_key},
	'and the new key once the postmaster reloaded');
$idle->quit;

# ---- a transaction keeps the key of its first call --------------------------------------------------
# A cursor fetched across a reload that removes the key, its subqueries, the transaction's later
# statements (one of which reads the pending reload, as idgen's generators do), all under one key.
write_key_file("$peer_key\n");
wait_for_key($peer_key);
$node->safe_psql('postgres', 'CREATE TABLE c (n int, id uuid); INSERT INTO c SELECT i, idgen.uuidv7() FROM generate_series(1, 6) i');
my %before = map { split /\|/ } split /\n/, $node->safe_psql('postgres', 'SELECT n, idgen.public_uuid(id) FROM c');
my $open = $node->background_psql('postgres');
$open->query_safe('BEGIN; DECLARE cur CURSOR FOR SELECT n, idgen.public_uuid(id) AS outer_call,
	(SELECT idgen.public_uuid(x.id) FROM c x WHERE x.n = c.n) AS sub_call FROM c');
my $rows = $open->query_safe('FETCH 2 FROM cur');
write_key_file("opaque:$new_key\n");
wait_for_key($new_key);
$rows .= "\n" . $open->query_safe('FETCH 4 FROM cur');
my @rows = grep { /\|/ } split /\n/, $rows;
is(scalar(@rows), 6, 'the cursor gave its six rows');
is(scalar(grep { my ($n, $o, $s) = split /\|/; $o eq $before{$n} && $s eq $before{$n} } @rows), 6,
	'every row, before the reload and after it, outer call and subquery, under the key of the first call');
is($open->query_safe("SELECT idgen.uuidv7() IS NOT NULL, idgen.public_uuid($zero_v7)") =~ s/\s+$//r,
	"t|$facade_of_zero{$peer_key}", 'a later statement of the transaction too');
$open->query_safe('COMMIT');
is($open->query_safe("SELECT idgen.public_uuid($zero_v7)") =~ s/\s+$//r, $facade_of_zero{$new_key},
	'the next transaction takes the new key');
$open->quit;

# ---- key scope: each database's keys, derived from the server's and the database's name ------------
write_key_file("$peer_key\n");
wait_for_key($peer_key);
$node->safe_psql('postgres', 'CREATE ROLE tenant LOGIN; CREATE DATABASE tenant OWNER tenant');
$node->safe_psql('tenant', 'CREATE EXTENSION idgen', extra_params => [ '-U', 'tenant' ]);
my $shown = $node->safe_psql('postgres', "SELECT idgen.public_uuid('$readme_v7')");
my $as_tenant = sub { $node->safe_psql('tenant', $_[0], extra_params => [ '-U', 'tenant' ]) };
is($as_tenant->("SELECT idgen.private_uuid('$shown')"), $readme_v7,
	"key scope 'server' (the default): the owner of another database reads this database's façades");
$node->append_conf('postgresql.conf', "idgen.key_scope = 'database'");
$node->reload;
ok($node->poll_query_until('postgres', "SELECT idgen.public_uuid('$readme_v7') <> '$shown'"),
	"key scope 'database': this database's façades change");
my $own = $node->safe_psql('postgres', "SELECT idgen.public_uuid('$readme_v7')");
isnt($as_tenant->("SELECT idgen.public_uuid('$readme_v7')"), $own, "the other database's owner makes other façades");
my ($ret, $out) = $node->psql('tenant', "SELECT idgen.private_uuid('$own')", extra_params => [ '-U', 'tenant' ]);
ok($ret != 0 || $out ne $readme_v7, "and does not read this database's (" . ($ret != 0 ? 'refused' : "read as $out") . ')');
is($node->safe_psql('postgres', "SELECT idgen.private_uuid('$own')"), $readme_v7, 'which this database reads');
# The database's key, derived as security.md says: a peer given it reads and makes the same façades.
my $derived = substr(unpack('H*', hmac_sha256('idgen key scope: database postgres', pack('H*', $peer_key =~ s/://r))), 0, 32);
my $derived_new = substr(unpack('H*', hmac_sha256('idgen key scope: database postgres', pack('H*', $new_key))), 0, 32);
write_key_file("opaque:$new_key\n$peer_key\n");
$node->poll_query_until('postgres', "SELECT idgen.public_uuid('$readme_v7') <> '$own'") or die;
my $both = $node->safe_psql('postgres', "SELECT idgen.public_uuid('$readme_v7'), idgen.private_uuid_candidates('$own')");
remove_conf($node, 'idgen.key_scope');
write_key_file("opaque:$derived_new\n$derived\n");
ok($node->poll_query_until('postgres', "SELECT idgen.public_uuid('$readme_v7'), idgen.private_uuid_candidates('$own')", $both),
	"the derived keys, given as the server's, make and read this database's façades (the mapping kept)");
is($as_tenant->("SELECT idgen.public_uuid('$readme_v7'), idgen.private_uuid_candidates('$own')"), $both,
	'in every database, under key scope server');

# ---- a key file outside the data directory is not in a base backup ---------------------------------
write_key_file("$peer_key\n");
wait_for_key($peer_key);
$node->backup('with_key');
ok(-f $node->backup_dir . '/with_key/idgen_public_uuid_key',
	'pg_basebackup copies a key file in the data directory (to any role with REPLICATION)');
mkdir "$work/etc" or die;
chmod 0700, "$work/etc";
rename $key_path, "$work/etc/idgen_public_uuid_key" or die;
$node->adjust_conf('postgresql.conf', 'idgen.public_uuid_key_file', "'$work/etc/idgen_public_uuid_key'");
reload_and_wait();
is($node->safe_psql('postgres', "SELECT idgen.public_uuid($zero_v7)"), $facade_of_zero{$peer_key},
	'a key file outside the data directory, owned by the server user, mode 0600, is read');
$node->backup('without_key');
ok(!-e $node->backup_dir . '/without_key/idgen_public_uuid_key', 'and is in no base backup');
# An inline key set with ALTER SYSTEM: no line of the log holds it (log_statement = 'all').
my $inline = 'fedcba98765432100123456789abcdef';
$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.public_uuid_key = '$inline'");
my ($set_state) = sqlstate_of($node, "SET idgen.public_uuid_key = '$inline'");
is($set_state, '55P02', 'SET is refused');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET idgen.public_uuid_key');
$node->reload;
my $log = slurp_file($node->logfile);
like($log, qr/statement: \(hidden by idgen/, 'the statements that name the key are hidden in the log');
unlike($log, qr/\Q$inline\E/, 'the inline key is in no line of the log');
unlike($log, qr/\Q$new_key\E|\Q$peer_key\E|\Q$derived\E|\Q$derived_new\E|efcdab8967452301/,
	"the file's keys are in no line of the log");

$node->stop;
done_testing();
