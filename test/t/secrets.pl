# Secrets given by files (idgen.token_secret_file, idgen.public_id_key_file) never pass through SQL
# text: on a server that records every statement (pg_stat_statements, log_statement = all), a member
# of pg_monitor and a plain role try every route they have to the secrets (pg_stat_statements,
# pg_settings, current_setting, SHOW, pg_file_settings, pg_read_file, the functions' errors) and the
# server log is searched: the secrets appear nowhere. The file form signs and verifies the same as
# the inline form with the same secret, a reload takes a changed file (in a running session too), and
# a file open to others, missing, too short or given with the inline form makes the functions refuse
# (55000, the setting and the file named) instead of using another secret.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

sub random_hex { join '', map { sprintf '%02x', int rand 256 } 1 .. $_[0] }

# Each secret starts with its own marker, so that a prefix of it is recognisable too.
my %secret = map { $_ => "$_-" . random_hex(24) } qw(tok1 tok2 key1 key2 key3 set cfg db role plain);
$secret{short} = 'short-' . random_hex(6);
$secret{alter} = 'alter-' . random_hex(6);    # too short: rejected by the check hook

# The secrets, their first and last 16 characters, that a text holds.
sub leaks {
	my ($text) = @_;
	my @found;
	for my $name (sort keys %secret) {
		my $s = $secret{$name};
		for my $piece ($s, substr($s, 0, 16), substr($s, -16)) {
			push @found, "$name ($piece)" if index($text, $piece) >= 0;
		}
	}
	return @found;
}

sub no_leak {
	my ($text, $what) = @_;
	my @found = leaks($text);
	ok(!@found, "$what holds no secret") or diag("found: @found");
	return;
}

sub write_secret {
	my ($path, $content, $mode) = @_;
	open my $fh, '>', $path or die "could not write $path: $!";
	print $fh $content;
	close $fh;
	chmod $mode // 0600, $path or die "could not chmod $path: $!";
	return;
}

# Reloads and waits until a new session runs with the new configuration.
sub reload {
	my ($node) = @_;
	my $before = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
	$node->reload;
	$node->poll_query_until('postgres', "SELECT pg_conf_load_time() > '$before'")
	  or die 'the configuration was not reloaded';
	return;
}

# psql as a role: its exit status, and what it printed and reported, together.
sub as_role {
	my ($node, $role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql,
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	return ($ret, "$out\n$err");
}

my $node = PostgreSQL::Test::Cluster->new('secrets');
$node->init;
my $pgss = -e $node->config_data('--pkglibdir') . '/pg_stat_statements.so';
diag('pg_stat_statements is not installed for this server: its assertions are skipped') unless $pgss;
my $preload = $pgss ? 'idgen, pg_stat_statements' : 'idgen';
$node->append_conf('postgresql.conf', <<"EOF");
shared_preload_libraries = '$preload'
log_statement = all
log_min_messages = debug2
log_min_error_statement = debug2
EOF
$node->append_conf('postgresql.conf', "pg_stat_statements.track = all\npg_stat_statements.track_utility = on\n")
  if $pgss;
my $data = $node->data_dir;
my $token_file = "$data/idgen_token_secret";    # given relative to the data directory
my $key_file = $node->basedir . '/public_id_key';    # given as an absolute path

# The inline form, in postgresql.conf (never in SQL): a token and a public ID to compare with.
$node->append_conf('postgresql.conf',
	"idgen.token_secret = '$secret{tok1}'\nidgen.public_id_key = '$secret{key1}'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
$node->safe_psql('postgres', 'CREATE EXTENSION pg_stat_statements') if $pgss;
$node->safe_psql('postgres', q{
	CREATE ROLE watcher LOGIN IN ROLE pg_monitor;
	CREATE ROLE plain LOGIN;
	GRANT EXECUTE ON FUNCTION idgen.signed_token(text) TO watcher;
});
my $token = $node->safe_psql('postgres', "SELECT idgen.signed_token('reset')");
my $public = $node->safe_psql('postgres', 'SELECT idgen.public_id(1001)');

# Both forms set: refused, whichever holds the same secret.
write_secret($token_file, "$secret{tok1}\n");
write_secret($key_file, "$secret{key1}\r\n  \n");
$node->append_conf('postgresql.conf',
	"idgen.token_secret_file = 'idgen_token_secret'\nidgen.public_id_key_file = '$key_file'\n");
reload($node);
for my $call ("idgen.signed_token('reset')", "idgen.verify_token('$token')", 'idgen.public_id(1001)') {
	my ($state, $message, $hint) = sqlstate_of($node, "SELECT $call");
	is($state, '55000', "both forms set: $call refuses");
	like($message, qr/^idgen\.(token_secret|public_id_key) and idgen\.\1_file are both set/, "and says so: $message");
	like($hint, qr/^Set one of them/, 'the hint: set one of them');
}

# The file form alone: the same secret as inline, trailing whitespace removed.
remove_conf($node, 'idgen.token_secret');
remove_conf($node, 'idgen.public_id_key');
reload($node);
is($node->safe_psql('postgres', "SELECT idgen.verify_token('$token')"), 't',
	'a token signed under the inline secret verifies under the same secret from a file');
is($node->safe_psql('postgres', 'SELECT idgen.public_id(1001)'), $public,
	'a public ID is the same under the same key from a file (its trailing CR, LF and spaces removed)');
is($node->safe_psql('postgres', "SELECT idgen.verify_token(idgen.signed_token('reset'))"), 't', 'tokens round-trip');
is($node->safe_psql('postgres', 'SELECT idgen.private_id(idgen.public_id(1001)), idgen.private_id_text(idgen.public_id_text(7))'),
	'1001|7', 'public IDs round-trip');
is((as_role($node, 'watcher', "SELECT idgen.verify_token(idgen.signed_token('invite'))"))[1], "t\n",
	'a role granted signed_token signs and verifies');
is($node->safe_psql('postgres', 'SHOW idgen.token_secret'), '', 'the inline setting is unset');
is($node->safe_psql('postgres', 'SHOW idgen.token_secret_file'), 'idgen_token_secret', 'the file setting shows its path');

# Every route a member of pg_monitor, a plain role and the superuser have: no secret.
my @routes = (
	'SELECT name, setting, reset_val, boot_val, sourcefile, sourceline FROM pg_settings WHERE name LIKE \'idgen.%\'',
	'SHOW ALL',
	'SELECT * FROM pg_file_settings',
	'SELECT pg_read_file(\'idgen_token_secret\')',
	"SELECT pg_read_file('$key_file')",
	'SELECT query FROM pg_stat_activity',
	'SELECT idgen.public_id(0)',
	'SELECT idgen.private_id_text(\'not a public id\')',
	"SELECT idgen.signed_token('x')",
	"SELECT idgen.verify_token('reset_x'), idgen.verify_token('$token')");
for my $name (qw(token_secret token_secret_file public_id_key public_id_key_file)) {
	push @routes, "SHOW idgen.$name", "SELECT current_setting('idgen.$name')";
}
for my $role (qw(watcher plain postgres)) {
	for my $sql (@routes) {
		next if $role eq 'postgres' && $sql =~ /pg_read_file/;    # a superuser reads any file
		my ($ret, $output) = as_role($node, $role, $sql);
		no_leak($output, "$role: $sql");
	}
}
# What each role may see, to know the routes were open where they should be.
is((as_role($node, 'watcher', 'SHOW idgen.token_secret_file'))[1], "idgen_token_secret\n",
	'pg_monitor (pg_read_all_settings) reads the path');
like((as_role($node, 'plain', 'SHOW idgen.public_id_key_file'))[1], qr/permission denied|must be superuser/,
	'a plain role does not');
like((as_role($node, 'watcher', 'SELECT * FROM pg_file_settings'))[1], qr/permission denied/,
	'pg_file_settings is closed to pg_monitor');

# A reload takes a changed file.
write_secret($token_file, "$secret{tok2}\n");
write_secret($key_file, "$secret{key2}\n");
reload($node);
is($node->safe_psql('postgres', "SELECT idgen.verify_token('$token')"), 'f', 'after a reload, the old token fails');
is($node->safe_psql('postgres', "SELECT idgen.verify_token(idgen.signed_token('reset'))"), 't', 'new tokens verify');
my $public2 = $node->safe_psql('postgres', 'SELECT idgen.public_id(1001)');
isnt($public2, $public, 'the new key makes another public ID');
is($node->safe_psql('postgres', "SELECT idgen.private_id($public2)"), '1001', 'which reverses');

# A running session takes it too, after three reloads it did not use in between (by then the new
# secret sits where the freed one was: the key is derived again at each change, not by address).
# (A reload reaches a session between two statements: it runs short ones until it has reloaded.)
my $reload = "SELECT pg_conf_load_time() AS before \\gset\nSELECT pg_reload_conf();\n"
  . "SELECT 'SELECT pg_sleep(0.02) WHERE pg_conf_load_time() = ' || quote_literal(:'before') || '::timestamptz' "
  . "FROM generate_series(1, 500) \\gexec";
my ($ret, $session) = as_role($node, 'postgres', <<"EOF");
\\o /dev/null
SELECT idgen.public_id(1001);
\\! printf '%s\\n' '$secret{key1}' > '$key_file'
$reload
$reload
\\! printf '%s\\n' '$secret{key3}' > '$key_file'
$reload
\\o
SELECT idgen.public_id(1001);
EOF
my ($in_session) = $session =~ /^(-?\d+)$/m;
my $public3 = $node->safe_psql('postgres', 'SELECT idgen.public_id(1001)');
isnt($public3, $public2, 'key 3 is not key 2');
is($in_session, $public3, 'a session that reloaded three times uses the key of the last reload');

# Every session uses the secret the postmaster read at the last reload, never a reading of its own:
# a session idle while the server reloaded reads the configuration at its next statement, after
# the file was written again (the next reload's signal not sent yet), and still uses what the
# reload read, as a new session does. And a transaction keeps the secrets of its first calls.
my $idle = $node->background_psql('postgres');
$idle->query_safe('SELECT 1');
my $token3 = $node->safe_psql('postgres', "SELECT idgen.signed_token('idle')");
reload($node);
write_secret($key_file, "$secret{key1}\n");
write_secret($token_file, "$secret{tok1}\n");
is($idle->query_safe('SELECT idgen.public_id(1001)') =~ s/\s+$//r, $public3,
	"public ID key: a session that reloads after the file changed uses the postmaster's reading");
is($idle->query_safe("SELECT idgen.verify_token('$token3')") =~ s/\s+$//r, 't', 'token secret: the same');
is($node->safe_psql('postgres', 'SELECT idgen.public_id(1001)'), $public3, 'as a new session does');
$idle->query_safe('BEGIN');
is($idle->query_safe('SELECT idgen.public_id(1001)') =~ s/\s+$//r, $public3, 'a transaction takes the key');
reload($node);
is($node->safe_psql('postgres', 'SELECT idgen.public_id(1001)'), $public, 'the reload reads the file written');
is($idle->query_safe("SELECT idgen.public_id(1001), idgen.private_id($public3), idgen.verify_token('$token3')") =~ s/\s+$//r,
	"$public3|1001|f", 'and the open transaction keeps the key it took; a secret it first uses now is the new one');
$idle->query_safe('COMMIT');
is($idle->query_safe('SELECT idgen.public_id(1001)') =~ s/\s+$//r, $public, 'the next transaction takes the new key');
$idle->quit;
write_secret($key_file, "$secret{key3}\n");
write_secret($token_file, "$secret{tok2}\n");
reload($node);

# Open to the group or the world: refused, in the log and at use, with no fallback to the old secret.
my $offset = -s $node->logfile;
chmod 0644, $token_file;
reload($node);
$node->wait_for_log(qr/idgen\.token_secret_file "\Q$token_file\E" has group or world access/, $offset);
ok(1, 'a 0644 secret file is refused in the log');
for my $call ("idgen.signed_token('reset')", "idgen.verify_token('$token')") {
	my ($state, $message, $hint) = sqlstate_of($node, "SELECT $call");
	is($state, '55000', "a 0644 file: $call refuses");
	like($message, qr/idgen\.token_secret_file "\Q$token_file\E" has group or world access/, "and says why: $message");
	like($hint, qr/chmod 600 \Q$token_file\E \(named by idgen\.token_secret_file\)/, "the hint names the file and setting: $hint");
}
chmod 0640, $token_file;
reload($node);
is((sqlstate_of($node, "SELECT idgen.signed_token('reset')"))[0], '55000', 'a 0640 file owned by the server user is refused');
chmod 0400, $token_file;
reload($node);
is($node->safe_psql('postgres', "SELECT idgen.verify_token(idgen.signed_token('reset'))"), 't', 'a 0400 file is used');

# Missing: refused at use, naming the setting and the file.
$node->adjust_conf('postgresql.conf', 'idgen.public_id_key_file', "'no_such_key'");
reload($node);
for my $call ('idgen.public_id(1001)', "idgen.private_id_text('AzL8n0Y58m8')") {
	my ($state, $message, $hint) = sqlstate_of($node, "SELECT $call");
	is($state, '55000', "a missing file: $call refuses");
	like($message, qr/^could not access idgen\.public_id_key_file "\Q$data\E\/no_such_key": No such file or directory/,
		"and says why: $message");
	like($hint, qr/\Q$data\E\/no_such_key.*idgen\.public_id_key_file/, "the hint names the file and the setting: $hint");
}

# A role that may not read the settings (neither a superuser nor a member of pg_read_all_settings)
# is not told the file's path, nor its name (issue 29, item 11: it was, in public_id() and
# signed_token() errors); pg_monitor (pg_read_all_settings) and superusers are, as above.
$node->safe_psql('postgres',
	'CREATE ROLE signer LOGIN; GRANT EXECUTE ON FUNCTION idgen.signed_token(text) TO signer');
chmod 0644, $token_file;
reload($node);
for my $case ([ plain => 'SELECT idgen.public_id(1001)', 'public_id_key' ],
	[ signer => "SELECT idgen.signed_token('reset')", 'token_secret' ])
{
	my ($role, $sql, $name) = @$case;
	my ($ret, $output) = as_role($node, $role, $sql);
	like($output, qr/ERROR:  55000: the file named by idgen\.${name}_file cannot be used/, "$role: $sql refuses");
	unlike($output, qr/\Q$data\E|no_such_key|idgen_token_secret|\Q$key_file\E|group or world/,
		"$role: the error names neither the file nor its state");
	no_leak($output, "$role: $sql");
}
like((as_role($node, 'watcher', 'SELECT idgen.public_id(1001)'))[1], qr/"\Q$data\E\/no_such_key": No such file/,
	'pg_read_all_settings: the error names the file');
like((as_role($node, 'watcher', "SELECT idgen.signed_token('reset')"))[1],
	qr/"\Q$token_file\E" has group or world access/, 'pg_read_all_settings: and says why');
chmod 0400, $token_file;
reload($node);

# Too short, or empty: refused, the content never quoted.
$node->adjust_conf('postgresql.conf', 'idgen.public_id_key_file', "'$key_file'");
write_secret($key_file, "$secret{short}\n");
reload($node);
my ($state, $message, $hint) = sqlstate_of($node, 'SELECT idgen.public_id(1001)');
is($state, '55000', 'a short secret file: public_id refuses');
like($message, qr/^the secret in idgen\.public_id_key_file "\Q$key_file\E" is too short/, "and says why: $message");
write_secret($key_file, "\n");
reload($node);
like((sqlstate_of($node, 'SELECT idgen.public_id(1001)'))[1], qr/"\Q$key_file\E" is empty/, 'an empty file is refused');
write_secret($key_file, "$secret{key3}\0tail\n");
reload($node);
like((sqlstate_of($node, 'SELECT idgen.public_id(1001)'))[1], qr/"\Q$key_file\E" does not hold a secret/,
	'a file with a NUL byte is refused (not cut short)');
$node->adjust_conf('postgresql.conf', 'idgen.public_id_key_file', "'global'");
reload($node);
like((sqlstate_of($node, 'SELECT idgen.public_id(1001)'))[1], qr/"\Q$data\E\/global" is not a regular file/,
	'a directory is refused');
$node->adjust_conf('postgresql.conf', 'idgen.public_id_key_file', "'$key_file'");

# The controls: the search finds a secret where one is (the superuser reads the file), and what the
# file form avoids is real: a secret set with ALTER SYSTEM (a decoy, never applied) lands in
# pg_stat_statements, for pg_monitor to read (before PostgreSQL 18, which keeps $1 for the value).
# (The log hides it: below.)
ok(leaks((as_role($node, 'postgres', "SELECT pg_read_file('idgen_token_secret')"))[1]),
	'control: the search finds the secret in the file the superuser reads');
my $decoy = 'decoy-' . random_hex(24);
$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.token_secret = '$decoy'; ALTER SYSTEM RESET idgen.token_secret");

# pg_stat_statements recorded every statement of this test, and no secret.
SKIP: {
	skip 'pg_stat_statements is not installed for this server', 6 unless $pgss;
	for my $role (qw(watcher postgres)) {
		my ($ret, $output) = as_role($node, $role, 'SELECT query FROM pg_stat_statements');
		like($output, qr/idgen\.signed_token/, "$role reads the statements of every role in pg_stat_statements");
		if ($node->pg_version >= 18) {
			like($output, qr/ALTER SYSTEM SET idgen\.token_secret = \$1/,
				"control: $role reads ALTER SYSTEM there, its value replaced by \$1 (PostgreSQL 18)");
		} else {
			ok(index($output, $decoy) >= 0, "control: $role reads a secret set with ALTER SYSTEM there");
		}
		no_leak($output, "$role: pg_stat_statements");
	}
}

# A rejected inline secret never reaches the log with its statement: every error's statement is
# written there (log_min_error_statement: ERROR by default, DEBUG2 here), every statement too
# (log_statement = all), and ALTER SYSTEM with a short secret, or SET, set_config() and ALTER
# DATABASE/ROLE ... SET of a secret (the server configuration's alone) are errors. (Every spelling
# of the name, and log_min_duration_statement: t/secrets_log.pl.)
for my $case (
	[ postgres => "ALTER SYSTEM SET idgen.token_secret = '$secret{alter}'", qr/must be at least 32 bytes/ ],
	[ postgres => "SET idgen.public_id_key = '$secret{set}'", qr/cannot be changed now/ ],
	[ postgres => "SELECT set_config('idgen.token_secret', '$secret{cfg}', false)", qr/cannot be changed now/ ],
	[ postgres => "ALTER DATABASE postgres SET idgen.token_secret = '$secret{db}'", qr/cannot be changed now/ ],
	[ postgres => "ALTER ROLE plain SET \"idgen.public_id_key\" TO '$secret{role}'", qr/cannot be changed now/ ],
	[ plain => "ALTER SYSTEM SET idgen.token_secret = '$secret{plain}'", qr/permission denied/ ])
{
	my ($role, $sql, $refusal) = @$case;
	my ($ret, $output) = as_role($node, $role, $sql);
	like($output, $refusal, "$role: refused: " . ($sql =~ s/'[^']*'\)?$/.../r));
}

# Not preloaded, each session reads the file as it loads idgen: the same secret, the same checks.
$node->adjust_conf('postgresql.conf', 'shared_preload_libraries', $pgss ? "'pg_stat_statements'" : "''");
write_secret($key_file, "$secret{key3}\n");
$node->restart;
is($node->safe_psql('postgres', 'SELECT idgen.public_id(1001)'), $public3, 'not preloaded: the key from the file');
chmod 0644, $key_file;
like((sqlstate_of($node, 'SELECT idgen.public_id(1001)'))[1], qr/"\Q$key_file\E" has group or world access/,
	'not preloaded: a 0644 file is refused');

$node->stop;
my $log = slurp_file($node->logfile);
like($log, qr/statement: SELECT idgen\.verify_token/, 'the log has every statement');
ok(index($log, $decoy) < 0, 'but not a secret set with ALTER SYSTEM');
like($log, qr/statement: \(hidden by idgen: it names a secret setting/, 'whose statement is hidden');
like($log, qr/has group or world access/, 'and the refused file');
no_leak($log, 'the server log');

# Written in the configuration, a secret is a secret only where idgen is preloaded: until a session
# loads idgen, PostgreSQL shows a setting it does not know yet to every role, and logs its value at
# each reload (the adversarial pass of issue 29). So idgen uses it only when preloaded, and refuses
# otherwise, saying to move it to a file; the file form works either way.
my $plain = idgen_node('not_preloaded_secret', no_preload => 1, conf => "idgen.token_secret = '$secret{tok1}'");
$plain->start;
$plain->safe_psql('postgres', 'CREATE ROLE nobody LOGIN');
is($plain->safe_psql('postgres', 'SHOW idgen.token_secret', extra_params => [ '-U', 'nobody' ]), $secret{tok1},
	'not preloaded: PostgreSQL shows the inline secret to any role of a session that has not loaded idgen');
$plain->safe_psql('postgres', 'CREATE EXTENSION idgen');
my ($refused, $why, $how) = sqlstate_of($plain, "SELECT idgen.signed_token('x')");
is($refused, '55000', "so idgen refuses to sign with it ($why)");
like($how, qr/idgen\.token_secret_file/, "and says to move it to a file: $how");
my $plain_file = $plain->data_dir . '/idgen_token_secret';
append_to_file($plain_file, $secret{tok2});
chmod 0600, $plain_file;
remove_conf($plain, 'idgen.token_secret');
$plain->append_conf('postgresql.conf', "idgen.token_secret_file = 'idgen_token_secret'");
$plain->reload;
$plain->poll_query_until('postgres', "SELECT current_setting('idgen.token_secret_file', true) = 'idgen_token_secret'");
like($plain->safe_psql('postgres', "SELECT idgen.signed_token('x')"), qr/^x_/, 'the file form signs, preloaded or not');

# The key scope: under 'server' (the default) a token signed in one database verifies in another;
# under 'database', in the database that signed it alone, so that what one database's owner signs
# no other accepts.
$plain->safe_psql('postgres', 'CREATE DATABASE other');
$plain->safe_psql('other', 'CREATE EXTENSION idgen');
my $scoped = $plain->safe_psql('postgres', "SELECT idgen.signed_token('x')");
is($plain->safe_psql('other', "SELECT idgen.verify_token('$scoped')"), 't', "key scope 'server': another database verifies it");
$plain->safe_psql('postgres', "LOAD 'idgen'; ALTER SYSTEM SET idgen.key_scope = 'database'; SELECT pg_reload_conf()");
$plain->poll_query_until('postgres', "SELECT current_setting('idgen.key_scope') = 'database'");
$scoped = $plain->safe_psql('postgres', "SELECT idgen.signed_token('x')");
is($plain->safe_psql('postgres', "SELECT idgen.verify_token('$scoped')"), 't', "key scope 'database': the database that signed it verifies it");
is($plain->safe_psql('other', "SELECT idgen.verify_token('$scoped')"), 'f', '... and no other does');
$plain->stop;

done_testing();
