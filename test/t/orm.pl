# ORM migrations that write a bare DEFAULT uuidv7() (t/orm/<orm>.sql: the SQL that Rails 8.1,
# Prisma, Drizzle and Sequelize send for a UUID primary key with that default), run as the
# database owner (not a superuser), as an application runs its migrations. Ported from
# test/multi/orm.sh, with issue 29, item 13: a migration history that installs idgen_uuidv7 replays
# on every major.
#
# - Every major: the history "CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE", then the four
#   ORMs' migrations, runs to the end as the owner. On 15 to 17 the defaults call idgen's C
#   generator (the catalog says so, idgen.stats counts every row) and the IDs of many sessions are
#   in cluster-wide order where idgen's state is shared. On 18 and later the extension says that it
#   defines nothing (a WARNING: PostgreSQL hides the NOTICEs of an extension script; it was refused,
#   0A000, and drizzle-kit and sequelize-cli stopped there), and the defaults are core's
#   pg_catalog.uuidv7(): nothing of idgen shadows it.
# - 15 to 17: without the opt-in each migration fails (no uuidv7(): 42883); a uuidv7() already in the
#   schema is refused (42723); so are pg_catalog (3F000) and schemas the installer may not create in
#   (42501). The documented alternative, a CREATE FUNCTION app.uuidv7() over idgen.uuidv7() in a
#   schema on the search_path, does the same as the extension.
# - 18 and later: the documented function on the search_path does not shadow core's either.
# - Every major: the same migrations with idgen.uuidv7() written qualified (the README's advice) call
#   idgen's generator.
# - pg_upgrade from 17, where idgen_uuidv7 made the defaults, to this major (18 and later, when
#   IDGEN_OLD_BINDIR names 17's bin directory, as for t/pg_upgrade.pl): the tables keep idgen's
#   generator (public.uuidv7() stays, a member of the extension), and a migration after the upgrade
#   gets core's. A dump of 17 restored here finds no public.uuidv7() for those defaults (42883): the
#   README says to change them to idgen.uuidv7() first.
use strict;
use warnings;
use Cwd ();
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $major = $ENV{IDGEN_MAJOR} // 15;
my $fixtures = dirname(__FILE__) . '/orm';
my @orms = qw(rails prisma drizzle sequelize);
my %table = (rails => 'rails_users', prisma => '"PrismaUser"', drizzle => 'drizzle_users', sequelize => 'sequelize_users');
my %columns = (
	rails => q{name, created_at, updated_at},
	prisma => q{name},
	drizzle => q{name},
	sequelize => q{name, "createdAt", "updatedAt"});
my %values = (
	rails => q{'n' || i, now(), now()},
	prisma => q{'n' || i},
	drizzle => q{'n' || i},
	sequelize => q{'n' || i, now(), now()});
my $rows = 1000;
my $owner = 'idgen_orm_owner';

# Preloaded before 17 (where the shared state needs it), not from 17 on (the DSM registry).
my $node = idgen_node('orm', no_preload => $major >= 17);
$node->start;
$node->safe_psql('postgres', "CREATE ROLE $owner LOGIN");

# A fresh database owned by the owner, idgen not installed.
my $db_count = 0;
sub orm_db
{
	my $db = 'orm_' . ++$db_count;
	$node->safe_psql('postgres', "CREATE DATABASE $db OWNER $owner");
	return $db;
}

# psql as the owner (or as the superuser): exit status, stdout, stderr.
sub run_as
{
	my ($db, $sql, %opts) = @_;
	my ($ret, $out, $err) = $node->psql($db, $sql,
		extra_params => [ '-v', 'VERBOSITY=verbose', $opts{superuser} ? () : ('-U', $owner) ]);
	return ($ret, $out, $err);
}

sub fixture { return slurp_file("$fixtures/$_[0].sql") }

# The function that the default of a table's id calls: schema.name language prosrc probin (read
# from the stored expression: pg_depend records no dependency on core's pinned functions).
sub default_function
{
	my ($db, $table) = @_;
	return $node->safe_psql($db, qq{
		SELECT n.nspname || '.' || p.proname || ' ' || l.lanname || ' ' || p.prosrc || ' ' || coalesce(p.probin, '-')
		FROM pg_attrdef ad
		JOIN pg_proc p ON p.oid = (regexp_match(ad.adbin::text, ':funcid ([0-9]+)'))[1]::oid
		JOIN pg_namespace n ON n.oid = p.pronamespace
		JOIN pg_language l ON l.oid = p.prolang
		JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
		WHERE ad.adrelid = '$table'::regclass AND a.attname = 'id'});
}

# $rows rows into each table in one session: how many UUIDs idgen.stats counted meanwhile (4 x $rows
# when idgen makes the IDs, 0 when core does).
sub insert_all
{
	my ($db) = @_;
	my $sql = "SELECT issued FROM idgen.stats WHERE family = 'uuidv7' \\gset before_\n";
	$sql .= "INSERT INTO $table{$_} ($columns{$_}) SELECT $values{$_} FROM generate_series(1, $rows) i;\n" for @orms;
	$sql .= "SELECT issued - :before_issued FROM idgen.stats WHERE family = 'uuidv7';\n";
	my ($ret, $out, $err) = run_as($db, $sql);
	is($ret, 0, "$db: rows inserted into every table") or diag($err);
	return $out;
}

# The migrations, as the owner, each to the end.
sub migrate_all
{
	my ($db, $what, $edit) = @_;
	for my $orm (@orms)
	{
		my $sql = fixture($orm);
		$sql = $edit->($sql) if $edit;
		my ($ret, $out, $err) = run_as($db, $sql);
		is($ret, 0, "$what: $orm: migration ran") or diag($err);
	}
	return;
}

my $idgen_c = $node->safe_psql('postgres',
	"CREATE EXTENSION idgen; SELECT prosrc || ' ' || probin FROM pg_proc WHERE oid = 'idgen.uuidv7()'::regprocedure; DROP EXTENSION idgen");
my $core = $major >= 18;

# ---- the migration history that installs the extension: every major ----------------------------
{
	my $db = orm_db();
	my ($ret, $out, $err) = run_as($db, 'CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE');
	is($ret, 0, "history: CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE runs on $major, by the owner")
	  or diag($err);
	if ($core)
	{
		like($err, qr/WARNING:  01000: idgen_uuidv7 defines nothing on PostgreSQL $major[^:]*: a bare uuidv7\(\) is core's pg_catalog\.uuidv7\(\)/,
			'history: a warning (no error) says that it defines nothing, and why');
		like($err, qr/HINT:  For idgen's order across every session, write idgen\.uuidv7\(\) in the column default/,
			'history: and what to write for idgen\'s order');
		is( $node->safe_psql($db,
				"SELECT count(*) FROM pg_depend WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen_uuidv7') AND deptype = 'e'"),
			'0', 'history: the extension has no member');
		is($node->safe_psql($db, "SELECT to_regprocedure('public.uuidv7()') IS NULL"),
			't', 'history: no uuidv7() stands beside core\'s in the schema');
	}
	else
	{
		unlike($err, qr/WARNING/, 'history: no warning before 18');
	}
	is( $node->safe_psql($db,
			"SELECT string_agg(extname || ' ' || extversion, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'idgen%'"),
		'idgen 1.4,idgen_uuidv7 1.1', 'history: idgen and idgen_uuidv7 installed');
	migrate_all($db, 'history');
	for my $orm (@orms)
	{
		my $expected = $core ? 'pg_catalog.uuidv7 internal' : "public.uuidv7 c $idgen_c";
		my $got = default_function($db, $table{$orm});
		$got = join(' ', (split / /, $got)[ 0, 1 ]) if $core;
		is($got, $expected, "history: $orm: the default calls $expected");
	}
	is(insert_all($db), $core ? 0 : 4 * $rows, 'history: UUIDs idgen.stats counted for ' . 4 * $rows . ' rows');
	is($node->safe_psql($db, "SELECT count(*) FROM drizzle_users WHERE substr(id::text, 15, 1) = '7'"),
		$rows, 'history: version 7 ids');
	if (!$core)
	{
		# Four sessions at once, a bare uuidv7() in the default: each ID above every ID returned before
		# it was asked for, in any session (a witness taken before each INSERT proves the order).
		$node->safe_psql($db, 'CREATE SEQUENCE witness; CREATE TABLE w (id uuid PRIMARY KEY DEFAULT uuidv7(), client int, witness bigint)');
		$node->pgbench("--no-vacuum --client=4 --jobs=2 --transactions=1000 $db",
			0, [qr{actually processed: 4000/4000}], [qr{^(?!.*(ERROR|aborted))}s],
			'history: bare uuidv7(), 4 sessions',
			{ orm_witness => "SELECT nextval('witness') AS w \\gset\nINSERT INTO w (client, witness) VALUES (:client_id, :w);\n" });
		is( $node->safe_psql($db, q{
				WITH r AS (SELECT id, witness, lead(witness) OVER (PARTITION BY client ORDER BY witness) AS returned_before FROM w),
				m AS (SELECT witness, min(returned_before) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earliest_return_above FROM r)
				SELECT count(*) FROM m WHERE earliest_return_above < witness}),
			'0', 'history: bare uuidv7(), 4 sessions: cluster-wide order violations');
	}
	# The same history again, as a migration tool replays it on a fresh database: the same result.
	my $replay = orm_db();
	($ret, $out, $err) = run_as($replay, "CREATE EXTENSION IF NOT EXISTS idgen_uuidv7 SCHEMA public CASCADE;\n"
		  . join("\n", map { fixture($_) } @orms));
	is($ret, 0, 'history: replayed as one script on a fresh database') or diag($err);
}

# ---- 15 to 17: without the opt-in, and the opt-in's refusals --------------------------------------
if (!$core)
{
	my $db = orm_db();
	$node->safe_psql($db, 'CREATE EXTENSION idgen');
	for my $orm (@orms)
	{
		my ($ret, $out, $err) = run_as($db, fixture($orm));
		isnt($ret, 0, "no opt-in: $orm: refused");
		like($err, qr/42883: function uuidv7\(\) does not exist/, "no opt-in: $orm: no uuidv7() (42883)");
	}
	# (a migration that ran in a transaction left nothing behind; the others left nothing either)

	run_as($db, 'CREATE FUNCTION public.uuidv7() RETURNS uuid LANGUAGE sql RETURN gen_random_uuid()');
	my ($ret, $out, $err) = run_as($db, 'CREATE EXTENSION idgen_uuidv7 SCHEMA public');
	like($err, qr/42723: schema public already has a function uuidv7\(\)/, 'a look-alike in the schema: refused (42723)');
	run_as($db, 'DROP FUNCTION public.uuidv7()');

	# never in pg_catalog (a superuser could ask): it would stand in core's place after an upgrade to 18
	($ret, $out, $err) = run_as($db, 'CREATE EXTENSION idgen_uuidv7 SCHEMA pg_catalog', superuser => 1);
	like($err, qr/3F000: idgen_uuidv7 does not go in schema pg_catalog/, 'pg_catalog: refused (3F000)');

	# only where the installing owner may create: not another role's schema, information_schema, pg_toast
	$node->safe_psql($db, 'CREATE SCHEMA orm_not_hers');
	for my $schema (qw(orm_not_hers information_schema pg_toast))
	{
		($ret, $out, $err) = run_as($db, "CREATE EXTENSION idgen_uuidv7 SCHEMA $schema");
		like($err, qr/42501: idgen_uuidv7 goes only in a schema where its installer may create functions: not in $schema/,
			"$schema: refused (42501)");
	}

	# the documented alternative: CREATE FUNCTION app.uuidv7(), app on the search_path
	my $alt = orm_db();
	$node->safe_psql($alt, 'CREATE EXTENSION idgen');
	($ret, $out, $err) = run_as($alt, qq{
		CREATE SCHEMA app;
		CREATE FUNCTION app.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL RESTRICTED RETURN idgen.uuidv7();
		ALTER DATABASE $alt SET search_path = "\$user", public, app;});
	is($ret, 0, 'alternative: app.uuidv7() made by the owner') or diag($err);
	migrate_all($alt, 'alternative');
	for my $orm (@orms)
	{
		is(join(' ', (split / /, default_function($alt, $table{$orm}))[ 0, 1 ]),
			'app.uuidv7 sql', "alternative: $orm: the default calls app.uuidv7");
	}
	is(insert_all($alt), 4 * $rows, 'alternative: UUIDs idgen.stats counted for ' . 4 * $rows . ' rows');
}

# ---- 18 and later: the documented function does not shadow core's --------------------------------
if ($core)
{
	my $db = orm_db();
	$node->safe_psql($db, 'CREATE EXTENSION idgen');
	my ($ret, $out, $err) = run_as($db, qq{
		CREATE SCHEMA app;
		CREATE FUNCTION app.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL RESTRICTED RETURN idgen.uuidv7();
		ALTER DATABASE $db SET search_path = app, public;});
	is($ret, 0, 'documented function: made by the owner') or diag($err);
	migrate_all($db, 'documented function');
	for my $orm (@orms)
	{
		is(join(' ', (split / /, default_function($db, $table{$orm}))[ 0, 1 ]),
			'pg_catalog.uuidv7 internal', "documented function: $orm: the default is core's");
	}
	is(insert_all($db), 0, "documented function: UUIDs idgen.stats counted (core's made them)");
}

# ---- every major: the README's advice, idgen.uuidv7() written qualified ---------------------------
{
	my $db = orm_db();
	$node->safe_psql($db, 'CREATE EXTENSION idgen');
	migrate_all(
		$db, 'qualified',
		sub {
			my $sql = shift;
			$sql =~ s/DEFAULT uuidv7\(\)/DEFAULT idgen.uuidv7()/g or die 'no DEFAULT uuidv7() to qualify';
			return $sql;
		});
	for my $orm (@orms)
	{
		is(default_function($db, $table{$orm}), "idgen.uuidv7 c $idgen_c", "qualified: $orm: the default is idgen's");
	}
	is(insert_all($db), 4 * $rows, 'qualified: UUIDs idgen.stats counted for ' . 4 * $rows . ' rows');
}

# ---- pg_upgrade from 17 with idgen_uuidv7 installed -------------------------------------------------
# (17's bin directory: IDGEN_OLD_BINDIR, or the one of 17 among IDGEN_UPGRADE_FROM's, as test/run.sh
# gives them to t/pg_upgrade.pl)
my $old_bindir = $ENV{IDGEN_OLD_BINDIR}
  // ((grep { -x "$_/pg_config" && `$_/pg_config --version` =~ /^PostgreSQL 17\b/ } split ' ', $ENV{IDGEN_UPGRADE_FROM} // '')[0] // '');
if ($core && $old_bindir eq '')
{
	diag('not run: orm: pg_upgrade from 17 (IDGEN_OLD_BINDIR names its bin directory; test/run.sh gives it with 17 and 18 in the run)');
}
elsif ($core)
{
	my $old = idgen_node('orm_old', install_path => dirname($old_bindir), no_preload => 1);
	$old->start;
	$old->safe_psql('postgres', "CREATE ROLE $owner LOGIN; CREATE DATABASE orm_up OWNER $owner");
	my ($ret, $out, $err) = $old->psql('orm_up',
		"CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE;\n" . fixture('drizzle'),
		extra_params => [ '-U', $owner ]);
	is($ret, 0, 'pg_upgrade: on 17, the history made drizzle_users with idgen\'s uuidv7()') or diag($err);
	# A dump of it, restored into this major: the extension installs empty, and the table's default
	# names public.uuidv7(), which is not there.
	my $dump = PostgreSQL::Test::Utils::tempdir() . '/orm_up.sql';
	command_ok([ "$old_bindir/pg_dump", '-h', $old->host, '-p', $old->port, '-d', 'orm_up', '-f', $dump ],
		'dump: pg_dump of 17');
	my $restored = orm_db();
	($ret, $out, $err) = $node->psql($restored, slurp_file($dump), on_error_stop => 0);
	like($err, qr/function public\.uuidv7\(\) does not exist/, "dump: restored into $major, the default finds no public.uuidv7()");
	$old->stop;
	# (initdb of 18 enables data checksums, 17's does not: pg_upgrade needs the same.)
	my $new = idgen_node('orm_new', no_preload => 1, no_data_checksums => 1);
	my $new_bindir = $new->config_data('--bindir');
	# (pg_upgrade writes into its current directory)
	my $cwd = Cwd::getcwd();
	chdir PostgreSQL::Test::Utils::tempdir;
	command_ok(
		[
			"$new_bindir/pg_upgrade", '--no-sync', '--copy',
			'-d', $old->data_dir, '-D', $new->data_dir,
			'-b', $old_bindir, '-B', $new_bindir,
			'-s', $new->host, '-p', $old->port, '-P', $new->port
		],
		'pg_upgrade from 17 runs');
	chdir $cwd;
	$new->start;
	my $fn = $new->safe_psql('orm_up', q{
		SELECT n.nspname || '.' || p.proname || ' ' || l.lanname FROM pg_attrdef ad
		JOIN pg_proc p ON p.oid = (regexp_match(ad.adbin::text, ':funcid ([0-9]+)'))[1]::oid
		JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
		JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
		WHERE ad.adrelid = 'drizzle_users'::regclass AND a.attname = 'id'});
	is($fn, 'public.uuidv7 c', 'pg_upgrade: the upgraded table keeps idgen\'s uuidv7() (public.uuidv7 stays)');
	($ret, $out, $err) = $new->psql('orm_up', fixture('sequelize'), extra_params => [ '-U', $owner ]);
	is($ret, 0, 'pg_upgrade: a migration after the upgrade runs') or diag($err);
	is( $new->safe_psql('orm_up', q{
			SELECT n.nspname FROM pg_attrdef ad
			JOIN pg_proc p ON p.oid = (regexp_match(ad.adbin::text, ':funcid ([0-9]+)'))[1]::oid
			JOIN pg_namespace n ON n.oid = p.pronamespace
			JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
			WHERE ad.adrelid = 'sequelize_users'::regclass AND a.attname = 'id'}),
		'pg_catalog', 'pg_upgrade: and its bare uuidv7() is core\'s');
	$new->stop;
}

$node->stop;
done_testing();
