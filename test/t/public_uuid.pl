# Public UUIDs on a server of their own: the key given by a file, changed by writing the file and
# reloading (two lines while keys rotate), never in the server log; and the peers: uuidv47's
# reference implementation (its header) and its Rust port (uuid47-rs) make idgen's façades of
# 100,000 UUIDv7s and read idgen's façades back, and idgen reads theirs (where
# scripts/peers-build.sh built their drivers from the sources in IDGEN_PEERS: "not run" otherwise).
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $root = dirname(__FILE__) . '/../..';
my $node = idgen_node('public_uuid', conf => "log_statement = 'all'");
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

# ---- what the server says of a file that holds no key, and the log ---------------------------------
write_key_file("not a key, but thirty-two bytes or more of text\n");
my ($state, $message, $hint);
for (1 .. 100) {
	($state, $message, $hint) = sqlstate_of($node, "SELECT idgen.public_uuid('$readme_v7')");
	last if $message =~ /not a key/;
	sleep 0.1;
}
is($state, '55000', 'a file that holds no key: refused');
like($message, qr/^the first key of idgen\.public_uuid_key is not a key as idgen reads it/, "and says so: $message");
unlike("$message $hint", qr/thirty-two/, 'never quoting the file');
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
unlike($log, qr/\Q$new_key\E|\Q$peer_key\E/, "the file's keys are in no line of the log");

$node->stop;
done_testing();
