# An inline secret (idgen.token_secret, idgen.public_id_key) is printed to no one, superusers
# included (SHOW, current_setting, pg_settings: ********), and no statement that sets one, or tries
# to, reaches the server log with its value, on a server that logs everything it can: every
# statement (log_statement = all), its duration (log_min_duration_statement = 0), the statement and
# parameters of every error, in the stderr, CSV and JSON logs. The name is spelt every way the lexer
# reads it (any case, quoted, Unicode escapes, spaces around the dot, string literals of each kind),
# in statements that succeed, that PostgreSQL refuses, and that do not parse. Errors that come from
# PostgreSQL's settings code keep their message; the client still gets its errors' SQLSTATE.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

sub random_hex { join '', map { sprintf '%02x', int rand 256 } 1 .. $_[0] }

# Each value starts with its own marker; the search also looks for its first and last 16 characters.
my %secret;
sub value {
	my ($name, $bytes) = @_;
	return $secret{$name} = "$name-" . random_hex($bytes // 24);
}

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

my $conf_secret = value('conf');
my $node = idgen_node('secrets_log', conf => <<"EOF");
idgen.token_secret = '$conf_secret'
logging_collector = on
log_destination = 'stderr,csvlog,jsonlog'
log_directory = 'log'
log_statement = all
log_min_duration_statement = 0
log_min_error_statement = debug5
log_min_messages = debug1
log_error_verbosity = verbose
log_parameter_max_length = -1
log_parameter_max_length_on_error = -1
EOF
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION idgen;
	CREATE ROLE watcher LOGIN IN ROLE pg_read_all_settings;
	CREATE ROLE plain LOGIN;
});

# psql as a role: its exit status, and what it printed and reported, together.
sub as_role {
	my ($role, $sql) = @_;
	my ($ret, $out, $err) =
	  $node->psql('postgres', $sql, extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	return ($ret, "$out\n$err");
}

# ---- what the settings print: ******** to every role, superusers included ----------------------

is($node->safe_psql('postgres', "SELECT idgen.verify_token(idgen.signed_token('x'))"), 't',
	'the inline secret of postgresql.conf signs');
for my $role (qw(postgres watcher)) {
	for my $sql ('SHOW idgen.token_secret', "SELECT current_setting('idgen.token_secret')",
		"SELECT setting FROM pg_settings WHERE name = 'idgen.token_secret'")
	{
		my ($ret, $output) = as_role($role, $sql);
		is($output =~ s/\n+$//r, '********', "$role: $sql prints ********");
	}
	my ($ret, $output) = as_role($role,
		"SELECT name, setting, reset_val, boot_val FROM pg_settings WHERE name LIKE 'idgen.%'; SHOW ALL");
	no_leak($output, "$role: pg_settings and SHOW ALL");
}
is($node->safe_psql('postgres', 'SHOW idgen.public_id_key'), '', 'an unset secret prints as empty');
my ($state, $message) = sqlstate_of($node, 'SELECT idgen.public_id(1)');
like("$state $message", qr/^55000 idgen\.public_id_key is not set/, "idgen's own errors keep their message: $message");
like((as_role('plain', 'SHOW idgen.token_secret'))[1], qr/permission denied|must be superuser/,
	'a plain role may not read it at all');

my $control = 'control-' . random_hex(8);

# Every statement below runs twice: logged by log_statement ("statement: ..."), then by
# log_min_duration_statement alone, which writes the statement on its duration line only when
# log_statement did not.
sub run_statements {
	my ($pass) = @_;
	$node->safe_psql('postgres', "SELECT '$control-$pass'");
	# Statements that set a secret: ALTER SYSTEM, spelt every way.
	my @set = (
		[ "ALTER SYSTEM SET idgen.token_secret = '%s'", 'token_secret' ],
		[ "ALTER SYSTEM SET \"IDGEN\".\"TOKEN_SECRET\" TO '%s'", 'token_secret' ],
		[ "ALTER SYSTEM SET U&\"idgen.token_\\0073ecret\" = '%s'", 'token_secret' ],
		[ "ALTER SYSTEM SET idgen /* a comment */ . public_id_key = '%s'", 'public_id_key' ],
		[ "ALTER SYSTEM SET U&\"!0069dgen\" UESCAPE '!' . public_id_key = E'%s'", 'public_id_key' ]);
	for my $i (0 .. $#set) {
		my ($form, $name) = @{ $set[$i] };
		my $v = value("$pass-set$i");
		my $sql = sprintf $form, $v;
		$node->safe_psql('postgres', $sql);
		$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
		$node->poll_query_until('postgres', "SELECT current_setting('idgen.$name') <> ''");
		ok(index(slurp_file($node->data_dir . '/postgresql.auto.conf'), $v) >= 0,
			"$pass: set: $form (postgresql.auto.conf, the operator's file, holds it)");
		$node->safe_psql('postgres', "ALTER SYSTEM RESET idgen.$name");
	}
	$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
	# (the same, in the extended protocol: psql's \bind, from 16)
	if ($node->pg_version >= 16) {
		my $v = value("$pass-bind");
		my ($ret, $output) = as_role('postgres', "SELECT set_config(\$1, \$2, false) \\bind 'idgen.token_secret' '$v' \\g");
		like($output, qr/cannot be changed now/, "$pass: set_config(\$1, \$2) of a secret, bound: refused");
		($ret, $output) =
		  as_role('postgres', "SELECT set_config(U&'idgen.token_\\0073ecret', \$1, false) \\bind '" . value("$pass-bind2") . "' \\g");
		like($output, qr/cannot be changed now/, "$pass: set_config(name, \$1) of a secret, bound: refused");
	}

	# Statements that PostgreSQL refuses, or that do not parse.
	my @refused = (
		[ postgres => "SET \"IDGEN.TOKEN_SECRET\" = '%s'", '55P02', qr/parameter "idgen\.token_secret" cannot be changed now/i ],
		[ postgres => "SET idgen . \"token_secret\" TO '%s'", '55P02', qr/cannot be changed now/ ],
		[ postgres => "SELECT set_config(U&'idgen.token_\\0073ecret', '%s', false)", '55P02', qr/cannot be changed now/ ],
		[ postgres => "SELECT set_config(E'idgen.public\\x5fid_key', '%s', false)", '55P02', qr/cannot be changed now/ ],
		[ postgres => "SELECT set_config('idgen.token_'\n  'secret', '%s', false)", '55P02', qr/cannot be changed now/ ],
		[ postgres => "DO \$\$BEGIN PERFORM set_config('idgen.public_id_key', '%s', false); END\$\$", '55P02', qr/cannot be changed now/ ],
		[ postgres => "ALTER SYSTEM SET U&\"idgen.token_\\0073ecret\" = '%s' junk", '42601', qr// ],
		[ postgres => "ALTER SYSTEM SET \"IDGEN.TOKEN_SECRET\" = '%s' junk", '42601', qr// ],
		[ postgres => "SELECT set_config('idgen.token_secret', '%s', false) FROM no_such_table", '42P01', qr// ],
		[ postgres => "ALTER SYSTEM SET idgen.token_secret = 'short-%s'", '22023', qr/invalid value for parameter "idgen\.token_secret": ""/, 2 ],
		[ postgres => "ALTER DATABASE postgres SET U&\"idgen.token_\\0073ecret\" = '%s'", '55P02', qr/cannot be changed now/ ],
		[ plain => "ALTER SYSTEM SET U&\"idgen.token_\\0073ecret\" = '%s'", '42501', qr// ]);
	for my $i (0 .. $#refused) {
		my ($role, $form, $state, $message, $bytes) = @{ $refused[$i] };
		my $sql = sprintf $form, value("$pass-refused$i", $bytes);
		my ($got, $text) = sqlstate_of($node, $sql, user => $role);
		is($got, $state, "$pass: $role: $form: $state");
		like($text, $message, "and the client's message: $text");
	}
	return;
}
run_statements('statement');
$node->safe_psql('postgres', "ALTER SYSTEM SET log_statement = 'none'; SELECT pg_reload_conf()");
$node->poll_query_until('postgres', "SELECT current_setting('log_statement') = 'none'");
run_statements('duration');

# ---- the log: the control, then the search ------------------------------------------------------

$node->stop;
my $log = '';
my @files = glob($node->data_dir . '/log/*');
$log .= slurp_file($_) for @files;
$log .= slurp_file($node->logfile);
ok((grep { /\.csv$/ } @files) && (grep { /\.json$/ } @files), 'the stderr, CSV and JSON logs were written')
  or diag("@files");
like($log, qr/statement: SELECT '\Q$control\E-statement'/, 'control: the log has every statement');
like($log, qr/duration: [0-9.]+ ms  statement: SELECT '\Q$control\E-duration'/,
	'control: and then, every statement on its duration line');
like($log, qr/duration: [0-9.]+ ms  statement: \(hidden by idgen: it names a secret setting/,
	'a statement that names a secret is hidden, its duration kept');
like($log, qr/ERROR:  55P02: parameter "idgen\.token_secret" cannot be changed now/,
	"the settings code's errors keep their message");
unlike($log, qr/STATEMENT:  [^\n]*(?:set_config|ALTER SYSTEM SET|SET "IDGEN)/, 'no STATEMENT line of a statement that names a secret');
no_leak($log, 'the server log');

done_testing();
