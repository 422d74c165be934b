# A configuration that idgen cannot use makes the generators that read it refuse, naming the file
# and line, instead of falling back to a default that could repeat another server's IDs: a value
# PostgreSQL rejects (idgen.node_id = 70000) and a misspelt name (idgen.nodeid = 7), preloaded or
# not. And a secret never reaches the server log, not on reload, not in an error.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $major = $ENV{IDGEN_MAJOR} // 15;

for my $preload (1, 0) {
	my $how = $preload ? 'preloaded' : 'not preloaded';
	my $node = idgen_node("settings_$preload", no_preload => !$preload);
	$node->append_conf('postgresql.conf', "idgen.node_id = 70000\n");
	my $conf = $node->data_dir . '/postgresql.conf';
	my @lines = split /\n/, slurp_file($conf);
	my ($line) = grep { $lines[ $_ - 1 ] =~ /^idgen\.node_id = 70000/ } 1 .. @lines;
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
	my $shared = $preload || $major >= 17;
	for my $family (qw(snowflake sonyflake trace)) {
		my ($state, $message) = sqlstate_of($node, "SELECT idgen.${family}_id()");
		is($state, '55000', "$how: a rejected idgen.node_id makes $family refuse");
		like($message, qr/^invalid value for idgen\.node_id: "70000"/, "$how: $family says which setting: $message");
	}
	my ($ret, $out, $err) = $node->psql('postgres', 'SELECT idgen.snowflake_id()',
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/DETAIL:.*It is set in \Q$conf\E line $line\./, "$how: the detail names $conf line $line");
	# (the configuration file's path is pg_settings.sourcefile: superusers and pg_read_all_settings only)
	$node->safe_psql('postgres', 'CREATE ROLE plain LOGIN');
	($ret, $out, $err) = $node->psql('postgres', 'SELECT idgen.snowflake_id()',
		extra_params => [ '-U', 'plain', '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/DETAIL:.*It is set in the configuration file\./, "$how: to another role, the detail says where");
	unlike($err, qr/\Q$conf\E/, "$how: but not the file's path");
	is(($node->psql('postgres', 'SELECT idgen.uuidv7() IS NOT NULL'))[1], 't', "$how: UUIDv7 reads no setting and works");
	if ($shared) {
		is(($node->psql('postgres', 'SELECT idgen.instagram_id(1) > 0'))[1], 't', "$how: Instagram does not read idgen.node_id");
	}

	# A misspelt idgen setting: every generator that reads settings refuses.
	$node->adjust_conf('postgresql.conf', 'idgen.node_id', '7');
	$node->append_conf('postgresql.conf', "idgen.nodeid = 7\n");
	$node->restart;
	for my $call ('idgen.snowflake_id()', 'idgen.instagram_id(1)', 'idgen.trace_id()') {
		my ($state, $message) = sqlstate_of($node, "SELECT $call");
		is($state, '55000', "$how: a misspelt setting makes $call refuse");
		like($message, qr/^"idgen\.nodeid" is not an idgen setting/, "$how: and names it");
	}
	# (a misspelt name could be any setting, idgen.max_clock_lead, which UUIDv7 reads, among them)
	is((sqlstate_of($node, 'SELECT idgen.uuidv7()'))[0], '55000', "$how: UUIDv7 refuses too");

	# Corrected, the next start (or, where idgen is not preloaded, the next session) uses it.
	remove_conf($node, 'idgen.nodeid');
	$node->restart;
	if ($shared) {
		is($node->safe_psql('postgres', 'SELECT node FROM idgen.snowflake_parse(idgen.snowflake_id())'),
			'7', "$how: corrected and restarted, Snowflake uses node 7");
	}
	$node->stop;
}

# Secrets: set with ALTER SYSTEM and changed, reloaded, rejected; none of it reaches the log.
my $node = idgen_node('secrets', conf => "log_min_messages = debug2\nlog_statement = none");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
my @secrets = ('first-secret-0123456789abcdef0123456789', 'second-secret-0123456789abcdef012345678');
my @tokens;
for my $secret (@secrets) {
	$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.token_secret = '$secret'");
	my $before = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
	$node->reload;
	$node->poll_query_until('postgres', "SELECT pg_conf_load_time() > '$before'");
	is($node->safe_psql('postgres', 'SHOW idgen.token_secret'), '********', 'set, the secret shows as ********');
	push @tokens, $node->safe_psql('postgres', "SELECT idgen.signed_token('x')");
}
is($node->safe_psql('postgres', "SELECT idgen.verify_token('$tokens[0]'), idgen.verify_token('$tokens[1]')"), 'f|t',
	'the second secret replaced the first');
my ($ret, $out, $err) = $node->psql('postgres', "ALTER SYSTEM SET idgen.token_secret = 'short-and-secret'");
like($err, qr/must be at least 32 bytes/, 'a short secret is refused when set');
unlike($err, qr/short-and-secret/, 'and the error does not echo it');
# Written by hand into the file, a short one is refused at reload, in the log.
$node->safe_psql('postgres', 'ALTER SYSTEM RESET idgen.token_secret');
my $offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "idgen.token_secret = 'short-and-secret-too'");
$node->reload;
$node->wait_for_log(qr/invalid value for parameter "idgen\.token_secret"/, $offset);
$node->stop;
my $log = slurp_file($node->logfile);
for my $secret (@secrets, 'short-and-secret-too') {
	unlike($log, qr/\Q$secret\E/, "the server log never holds the secret $secret");
}
unlike($log, qr/parameter "idgen\.token_secret" changed to/, 'a reload logs no change of the secret');
like($log, qr/invalid value for parameter "idgen\.token_secret": ""/, 'a rejected secret is logged without its value');

# idgen.node_id_source = 'citus' on a server without Citus: the coordinated families refuse rather
# than use idgen.node_id; a value PostgreSQL rejects makes them refuse too. (t/citus.pl, on a Citus
# cluster, tests the rest.)
my $source = idgen_node('node_id_source', conf => "idgen.node_id_source = 'citus'");
$source->start;
$source->safe_psql('postgres', 'CREATE EXTENSION idgen');
my ($source_state, $source_message) = sqlstate_of($source, 'SELECT idgen.snowflake_id()');
is($source_state, '55000', "node_id_source 'citus' without Citus: snowflake refuses");
like($source_message, qr/Citus is not installed in database "postgres"/, "... saying Citus is not installed");
is($source->safe_psql('postgres', 'SELECT idgen.uuidv7() IS NOT NULL'), 't', "... and uuidv7 works");
is((sqlstate_of($source, "SET idgen.node_id_source = 'setting'"))[0], '55P02',
	"node_id_source is the server's configuration: a session cannot set it, a superuser's neither");
$source->safe_psql('postgres', "ALTER SYSTEM SET idgen.node_id_source = 'setting'; SELECT pg_reload_conf()");
$source->poll_query_until('postgres', "SELECT current_setting('idgen.node_id_source') = 'setting'");
is($source->safe_psql('postgres', "SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node"),
	'0', "node_id_source 'setting' in the configuration: idgen.node_id again");
$source->safe_psql('postgres', "ALTER SYSTEM RESET idgen.node_id_source");
$source->append_conf('postgresql.conf', "idgen.node_id_source = 'citus_group'");
$source->restart;
($source_state, $source_message) = sqlstate_of($source, 'SELECT idgen.sonyflake_id()');
is($source_state, '55000', 'a rejected idgen.node_id_source makes sonyflake refuse');
like($source_message, qr/invalid value for idgen\.node_id_source/, "... saying which setting: $source_message");
$source->stop;

done_testing();
