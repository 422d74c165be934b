# Helpers shared by idgen's TAP tests (PostgreSQL::Test::Cluster).
package IdgenTest;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use IPC::Run ();
use File::Basename qw(dirname);

our @EXPORT =
  qw(idgen_node citus_nodes citus_form remove_conf start_after_kill9 with_clock_offset clock_offset_to sqlstate_of families family_gaps duplicates
  shared_state fresh_db bench bench_start witness_table order_violations session_order_violations per_client
  install_released install_old_releases mark_copy clock_ms no_repeat above_before);

my $faketime = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

# A node that preloads idgen (unless no_preload), with extra configuration lines; install_path
# for another installation of PostgreSQL (pg_upgrade's old cluster), no_data_checksums to match one
# made by a major whose initdb does not enable them by default (17).
sub idgen_node {
	my ($name, %opts) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name,
		$opts{install_path} ? (install_path => $opts{install_path}) : ());
	$node->init(
		allows_streaming => $opts{allows_streaming} // 0,
		$opts{no_data_checksums} ? (extra => ['--no-data-checksums']) : ());
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'")
	  unless $opts{no_preload};
	$node->append_conf('postgresql.conf', $opts{conf}) if $opts{conf};
	return $node;
}

# The nodes of a local Citus cluster, started: citus preloaded before idgen (Citus must come
# first), idgen.node_id_source = 'citus' unless node_id_source says otherwise, extra lines in conf.
# Citus must be in the tree of this PostgreSQL (scripts/citus-build.sh; test/run.sh sees to it on 18).
# Neither extension is created: citus_form does that for Citus.
sub citus_nodes {
	my ($names, %opts) = @_;
	my $conf = join("\n",
		"shared_preload_libraries = 'citus,idgen'",
		"idgen.node_id_source = '" . ($opts{node_id_source} // 'citus') . "'",
		'max_connections = 100', $opts{conf} // ());
	my @nodes = map { idgen_node($_, no_preload => 1, conf => $conf) } @$names;
	$_->start for @nodes;
	return @nodes;
}

# Forms the cluster of database postgres: CREATE EXTENSION citus where it is missing, the
# coordinator in the metadata (citus_set_coordinator_host), each worker added (citus_add_node;
# metadata synced, so every node accepts writes: Citus 11+). The nodes reach each other through the
# framework's socket directory. Returns name => Citus group id (pg_dist_local_group) of every node.
sub citus_form {
	my ($coordinator, @workers) = @_;
	$_->safe_psql('postgres', 'CREATE EXTENSION IF NOT EXISTS citus') for ($coordinator, @workers);
	$coordinator->safe_psql('postgres',
		"SELECT citus_set_coordinator_host('" . $coordinator->host . "', " . $coordinator->port . ')');
	$coordinator->safe_psql('postgres', "SELECT citus_add_node('" . $_->host . "', " . $_->port . ')') for @workers;
	my %group;
	$group{ $_->name } = $_->safe_psql('postgres', 'SELECT groupid FROM pg_catalog.pg_dist_local_group')
	  for ($coordinator, @workers);
	return %group;
}

# Removes every line that sets name from the node's postgresql.conf.
sub remove_conf {
	my ($node, $name) = @_;
	my $conf = $node->data_dir . '/postgresql.conf';
	my @kept = grep { !/^\s*\Q$name\E\s*=/ } split /\n/, slurp_file($conf);
	open my $fh, '>', $conf or die "could not write $conf: $!";
	print $fh join("\n", @kept), "\n";
	close $fh;
	return;
}

# Starts a node whose postmaster was killed: until the old processes are gone and reaped, the lock
# file still names a live process (PostgreSQL 17's poll_start, for every major).
sub start_after_kill9 {
	my ($node) = @_;
	for my $attempt (1 .. 100) {
		return if $node->start(fail_ok => 1);
		$node->{_pid} = undef;    # a failed start read the stale lock file
		select(undef, undef, undef, 0.1);
	}
	BAIL_OUT("node " . $node->name . " did not start after kill9");
}

# Runs code (a start or restart of a node) with the clock of the server offset by that many
# seconds: libfaketime in the environment of pg_ctl reaches the postmaster and every backend it
# forks. The monotonic clock, which PostgreSQL's timeouts use, is left alone.
sub with_clock_offset {
	my ($seconds, $code) = @_;
	die "libfaketime is not installed at $faketime" unless -e $faketime;
	local $ENV{LD_PRELOAD} = $faketime;
	local $ENV{FAKETIME} = sprintf('%+d', $seconds);
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = 1;
	return $code->();
}

# The offset (whole seconds, for with_clock_offset) that puts a server's clock, now, about
# seconds_before seconds before Unix millisecond mark_ms.
sub clock_offset_to {
	my ($mark_ms, $seconds_before) = @_;
	return sprintf('%.0f', $mark_ms / 1000 - $seconds_before - Time::HiRes::time());
}

# The SQLSTATE, message and hint of a statement that fails ('' when it succeeds), in database db
# (postgres) as role user (the bootstrap superuser).
sub sqlstate_of {
	my ($node, $sql, %opts) = @_;
	my ($ret, $stdout, $stderr) = $node->psql($opts{db} // 'postgres', $sql,
		extra_params => [ '-v', 'VERBOSITY=verbose', $opts{user} ? ('-U', $opts{user}) : () ]);
	return ('', '', '') if $ret == 0;
	my ($state, $message) = $stderr =~ /ERROR:\s+([0-9A-Z]{5}):\s+(.*)/;
	my ($hint) = $stderr =~ /HINT:\s+(.*)/;
	return ($state // 'none', $message // $stderr, $hint // '');
}

# The generated columns of the durable tests: column => [type, SQL DEFAULT]. Every family with
# a durable mark is ordered across restarts; DecimalId is ordered per generator only (and takes a
# new generator at each start), so its column is checked for duplicates, not order.
sub families {
	return (
		u => [ 'uuid', 'idgen.uuidv7()' ],
		i => [ 'bigint', 'idgen.instagram_id(3)' ],
		s => [ 'bigint', 'idgen.snowflake_id()' ],
		y => [ 'bigint', 'idgen.sonyflake_id()' ],
		t => [ 'bigint', 'idgen.trace_id()' ],
		j => [ 'bigint', 'idgen.js_id()' ],
		d => [ 'bigint', 'idgen.uid20()' ],
		e => [ 'bigint', 'idgen.uid20_sec()' ],
		n => [ 'text COLLATE "C"', 'idgen.ns_id()' ],
		m => [ 'bigint', 'idgen.decimal_id()' ]);
}

# Per ordered column of table r (phase, ...): the smallest ID of the phase minus the largest of
# every earlier phase (uuid: of its first 64 bits, as a number; text: 1 when above, else 0).
sub family_gaps {
	my ($node, $db, $phase) = @_;
	my %columns = families();
	my %gaps;
	for my $c (sort keys %columns) {
		next if $c eq 'm';
		my $type = $columns{$c}[0];
		my $sql =
		    $type eq 'uuid'
		  ? "SELECT (SELECT min(('x' || substr(replace(${c}::text, '-', ''), 1, 16))::bit(64)::bigint) FROM r WHERE phase = $phase)"
		  . " - (SELECT max(('x' || substr(replace(${c}::text, '-', ''), 1, 16))::bit(64)::bigint) FROM r WHERE phase < $phase)"
		  : $type =~ /^text/
		  ? "SELECT ((SELECT min($c) FROM r WHERE phase = $phase) > (SELECT max($c) FROM r WHERE phase < $phase))::int"
		  : "SELECT (SELECT min($c) FROM r WHERE phase = $phase) - (SELECT max($c) FROM r WHERE phase < $phase)";
		$gaps{$c} = $node->safe_psql($db, $sql);
	}
	return %gaps;
}

# Per column of table r (families()) of database db: how many of its values repeat another
# (count - count of the distinct values); after the number of rows.
sub duplicates {
	my ($node, $db) = @_;
	my %columns = families();
	my @c = sort keys %columns;
	my @counts = split /\|/, $node->safe_psql($db,
		'SELECT count(*), ' . join(', ', map { "count($_) - count(DISTINCT $_)" } @c) . ' FROM r');
	my $rows = shift @counts;
	my %dup;
	@dup{@c} = @counts;
	return ($rows, %dup);
}

# ---- the multi-session tests (t/sessions.pl, t/ddl.pl, ...) -------------------------------------

# How many transactions each of 16 sessions runs in the tests under load (IDGEN_PER_CLIENT: fewer
# under sanitizers, more for a long run).
sub per_client { return $ENV{IDGEN_PER_CLIENT} || 5000; }

# Whether the generators' state is shared by every session of the node: preloaded, or (from
# PostgreSQL 17, a named DSM segment) always.
sub shared_state {
	my ($node) = @_;
	return $node->safe_psql('postgres',
		q{SELECT current_setting('server_version_num')::int >= 170000
		     OR current_setting('shared_preload_libraries') ~ '(^|[ ,])idgen($|[ ,])'}) eq 't';
}

# A fresh database with idgen in it (dropped first when it exists).
sub fresh_db {
	my ($node, $db) = @_;
	$node->safe_psql('postgres', "DROP DATABASE IF EXISTS $db");
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION idgen');
	return $db;
}

# pgbench against database db with the given options (clients, transactions) and script: passes
# when it exits 0 and reports no failed transaction.
sub bench {
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($node, $db, $opts, $script, $name) = @_;
	$node->pgbench("-n -j 2 $opts", 0, [qr/number of failed transactions: 0 /], [], "pgbench: $name",
		{ 'bench' . ++$IdgenTest::scripts . '.sql' => $script }, $db);
	return;
}

# pgbench started in the background (IPC::Run): returns a handle to finish and the output's ref.
sub bench_start {
	my ($node, $db, $opts, $script) = @_;
	my $file = $node->basedir . '/bench' . ++$IdgenTest::scripts . '.sql';
	open my $fh, '>', $file or die "$file: $!";
	print $fh $script;
	close $fh;
	my $out = '';
	my $h = IPC::Run::start([ 'pgbench', '-n', split(/\s+/, $opts), '-f', $file, '-h', $node->host, '-p', $node->port, $db ],
		'>', \$out, '2>&1');
	return ($h, \$out);
}

# A table of (id, client, witness) and the pgbench script that fills it: witness is nextval()
# taken just before the INSERT that makes the id, so the next row of the same client proves the
# INSERT had returned.
sub witness_table {
	my ($node, $db, $table, $id) = @_;
	$node->safe_psql($db, "CREATE SEQUENCE IF NOT EXISTS witness; CREATE TABLE $table (id $id, client int NOT NULL, witness bigint NOT NULL)");
	return "SELECT nextval('witness') AS w \\gset\nINSERT INTO $table (client, witness) VALUES (:client_id, :w);\n";
}

# Rows of a witness table that break "an ID generated after another one returned, in any session,
# is greater".
sub order_violations {
	my ($node, $db, $table) = @_;
	return $node->safe_psql($db, "
	  WITH r AS (SELECT id, witness, lead(witness) OVER (PARTITION BY client ORDER BY witness) AS returned_before FROM $table),
	  m AS (SELECT witness, min(returned_before) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS above FROM r)
	  SELECT count(*) FROM m WHERE above < witness");
}

# Rows that break per-session order: a later ID of one session that is not greater.
sub session_order_violations {
	my ($node, $db, $table) = @_;
	return $node->safe_psql($db,
		"SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY witness) AS prev FROM $table) s WHERE id <= prev");
}

# The database's copy of the durable mark (hash ref of idgen.mark, mark_identity, mark_server,
# decimal_id_generator), read by the role that installed idgen (SELECT is granted).
sub mark_copy {
	my ($node, $db, $role) = @_;
	my @seq = qw(mark mark_identity mark_server decimal_id_generator);
	my %copy;
	@copy{@seq} = split /\|/, $node->safe_psql($db, 'SELECT ' . join(', ', map { "(SELECT last_value FROM idgen.$_)" } @seq),
		extra_params => [ '-U', $role ]);
	return \%copy;
}

# The Unix milliseconds of a server's clock.
sub clock_ms { return $_[0]->safe_psql('postgres', 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint') }

# Every family: no repeat among the rows of table r of database db.
sub no_repeat {
	my ($node, $db, $what) = @_;
	my %columns = families();
	my ($count, %dup) = duplicates($node, $db);
	is($dup{$_}, '0', "$what: no repeat among $count rows: $columns{$_}[1]") for sort keys %columns;
	return;
}

# Every family but DecimalId (ordered per generator only): the IDs of the phase above every earlier one.
sub above_before {
	my ($node, $db, $phase, $what) = @_;
	my %columns = families();
	my %gaps = family_gaps($node, $db, $phase);
	cmp_ok($gaps{$_}, '>', 0, "$what: $columns{$_}[1] above every ID made before (gap $gaps{$_})") for sort keys %gaps;
	return;
}

# Makes earlier releases installable in the PostgreSQL of this node, to make the databases users
# have (CREATE EXTENSION idgen VERSION '1.1'): the frozen scripts of sql/released/ (by file name,
# such as 'idgen--1.0.sql', 'idgen--1.0--1.1.sql'), for each version a secondary control file that
# puts it in schema idgen, as the control files of 1.0 to 1.2 did (1.3's says pg_catalog: its script
# makes schema idgen), and more files (name => content). What it adds is removed when the test
# ends. The extension directory must be writable: make prove_check installs into a copy that is;
# before any assertion the test skips where it is not, after one it bails out.
my @added;
# A complete script of a release, from sql/released/: 1.1's is 1.0's and its update (no complete
# 1.1 script was released).
sub released_script {
	my ($file) = @_;
	my $released = dirname(__FILE__) . '/../../sql/released';
	return slurp_file("$released/idgen--1.0.sql") . slurp_file("$released/idgen--1.0--1.1.sql") if $file eq 'idgen--1.1.sql';
	return slurp_file("$released/$file");
}

sub install_released {
	my ($node, %opts) = @_;
	my $dir = $node->config_data('--sharedir') . '/extension';
	if (!-w $dir) {
		plan skip_all => "$dir is not writable (make prove_check installs into a copy)" unless Test::More->builder->current_test;
		BAIL_OUT("$dir is not writable: make prove_check installs into a copy that is");
	}
	my $released = dirname(__FILE__) . '/../../sql/released';
	my %files = ((map { ("idgen--$_.control" => "schema = idgen\n") } @{ $opts{versions} // [] }),
		(map { ($_ => released_script($_)) } @{ $opts{scripts} // [] }), %{ $opts{more} // {} });
	for my $f (sort keys %files) {
		next if -f "$dir/$f" && slurp_file("$dir/$f") eq $files{$f};
		die "$dir/$f exists already, and differs" if -e "$dir/$f";
		push @added, "$dir/$f";
		PostgreSQL::Test::Utils::append_to_file("$dir/$f", $files{$f});
	}
	return $dir;
}

# Every release before this one, 1.0, 1.1 and 1.2, and more files (name => content). 1.1 installs
# from one script, 1.0's and its update: with no update from 1.0 to 1.1 on the way, an update from
# 1.0 takes the path a user's takes (1.0 -> 1.3, never through 1.1).
sub install_old_releases {
	my ($node, %more) = @_;
	return install_released($node, scripts => [qw(idgen--1.0.sql idgen--1.1.sql idgen--1.2.sql)], versions => [qw(1.0 1.1 1.2)],
		more => \%more);
}
END { unlink @added; }

1;
