# The SQL edition's three forms as docs/managed.md says to install them, and the update from 1.0
# as users have it (each form's 1.0, built from the released body): ALTER EXTENSION UPDATE for the
# extension's files and for pg_tle (install_update_path), idgen_sql.update.sql for the plain script.
# Every update keeps making IDs above the old ones, and leaves the same objects as a fresh 1.1 of
# its form, object for object. pg_tle keeps what it installs per database: its steps, in a second
# database, work as written; and a server whose files have the edition takes those (docs say so).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $tle = $ENV{IDGEN_PG_TLE};  # scripts/pg_tle-build.sh's staged tree for this major
my $node = idgen_node('forms', no_preload => 1);
my $share = $node->config_data('--sharedir');
# (as on a managed service, idgen is not on this server: its files set aside)
my $idgen_aside = PostgreSQL::Test::Utils::tempdir();
system("mv '$share'/extension/idgen.control '$share'/extension/idgen--* '$idgen_aside/'") == 0 or die 'cannot set idgen aside';
# (put back however this test ends: the tests after it in this install need them)
END { system("mv '$idgen_aside'/* '$share/extension/' 2>/dev/null") if $idgen_aside; }
if ($tle) {
	system('cp', "$tle/lib/pg_tle.so", $node->config_data('--pkglibdir') . '/') == 0 or die 'cannot copy pg_tle.so';
	system("cp $tle/extension/pg_tle* '$share/extension/'") == 0 or die 'cannot copy pg_tle';
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'");
}
$node->start;
my $dir = PostgreSQL::Test::Utils::tempdir();
sub form {  # form(<edition/build.sh arguments>): the file it writes
	my ($name, @args) = @_;
	system("edition/build.sh @args > '$dir/$name'") == 0 or die "edition/build.sh @args failed";
	return "$dir/$name";
}
$node->safe_psql('postgres', 'CREATE ROLE app LOGIN');
sub run_file {
	my ($db, $user, $file) = @_;
	my ($ret, $out, $err) = $node->psql($db, '', extra_params => [ '-U', $user, '-v', 'ON_ERROR_STOP=1', '-f', $file ]);
	return ($ret, $err);
}

# What a database has of the edition, object for object: functions (their whole definition), types,
# constraints, relations and sequences, schemas, owners, privileges and comments; and the
# extension's members where it is one.
my $objects_sql = q{SELECT string_agg(x, E'\n' ORDER BY x) FROM (
  SELECT format('function %s %s owner=%s acl=%s comment=%s', p.oid::regprocedure, pg_get_functiondef(p.oid), pg_get_userbyid(p.proowner), p.proacl,
                obj_description(p.oid, 'pg_proc')) AS x
    FROM pg_proc p WHERE p.pronamespace IN ('idgen'::regnamespace, 'idgen_sql_state'::regnamespace)
  UNION ALL SELECT format('type %s %s %s %s owner=%s comment=%s fields=%s', t.oid::regtype, t.typtype, format_type(t.typbasetype, t.typtypmod),
                t.typcollation::regcollation, pg_get_userbyid(t.typowner), obj_description(t.oid, 'pg_type'),
                (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0))
    FROM pg_type t WHERE t.typnamespace IN ('idgen'::regnamespace, 'idgen_sql_state'::regnamespace)
  UNION ALL SELECT format('constraint %s %s valid=%s', k.conname, pg_get_constraintdef(k.oid), k.convalidated)
    FROM pg_constraint k WHERE k.connamespace IN ('idgen'::regnamespace, 'idgen_sql_state'::regnamespace)
  UNION ALL SELECT format('relation %s %s owner=%s acl=%s comment=%s', c.oid::regclass, c.relkind, pg_get_userbyid(c.relowner), c.relacl, obj_description(c.oid, 'pg_class'))
    FROM pg_class c WHERE c.relnamespace IN ('idgen'::regnamespace, 'idgen_sql_state'::regnamespace) AND c.relkind <> 'c'
  UNION ALL SELECT format('sequence %s %s start=%s by=%s %s..%s cache=%s cycle=%s', s.seqrelid::regclass, format_type(s.seqtypid, NULL), s.seqstart,
                s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle)
    FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relnamespace IN ('idgen'::regnamespace, 'idgen_sql_state'::regnamespace)
  UNION ALL SELECT format('schema %s owner=%s acl=%s comment=%s', n.nspname, pg_get_userbyid(n.nspowner), n.nspacl, obj_description(n.oid, 'pg_namespace'))
    FROM pg_namespace n WHERE n.nspname IN ('idgen', 'idgen_sql_state')
  UNION ALL SELECT 'member ' || pg_describe_object(d.classid, d.objid, d.objsubid)
    FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
   WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'idgen_sql'
  UNION ALL SELECT format('extension %s %s owner=%s', e.extname, e.extversion, pg_get_userbyid(e.extowner)) FROM pg_extension e WHERE e.extname = 'idgen_sql') s};
sub same_objects {
	my ($updated, $fresh, $name) = @_;
	my $want = $node->safe_psql($fresh, $objects_sql);
	is($node->safe_psql($updated, $objects_sql), $want, "$name: updated from 1.0, the same objects as a fresh 1.1");
	my @lines = split /\n/, $want;
	cmp_ok(scalar(@lines), '>', 150, '... (' . scalar(@lines) . ' lines of objects and members compared)');
}
my @families = qw(instagram snowflake sonyflake trace js);
my $table = 'CREATE TABLE ids (phase int, ' . join(', ', map { "$_ bigint" } @families) . ', oid text, u uuid)';
my $insert = sub {
	my ($phase, $shard) = @_;
	return "INSERT INTO ids SELECT $phase, " . join(', ', (map { $_ eq 'instagram' ? "idgen.instagram_id($shard)" : "idgen.${_}_id()" } @families),
		'idgen.objectid()', 'idgen.uuidv7()') . ' FROM generate_series(1, 2000)';
};
# update(db, user, name, sub { the update }): IDs before, the update, IDs after above them
sub updated {
	my ($db, $user, $name, $shard, $update) = @_;
	$node->safe_psql($db, $table, extra_params => [ '-U', $user ]);
	$node->safe_psql($db, $insert->(1, $shard), extra_params => [ '-U', $user ]);
	is($node->safe_psql($db, 'SELECT idgen.edition_version()'), '1.0', "$name: 1.0 as released makes IDs");
	$update->();
	is($node->safe_psql($db, 'SELECT idgen.edition_version()'), '1.1', "$name: updated to 1.1");
	$node->safe_psql($db, $insert->(2, $shard), extra_params => [ '-U', $user ]);
	my $above = join(' AND ', map { "(SELECT min($_) FROM ids WHERE phase = 2) > (SELECT max($_) FROM ids WHERE phase = 1)" } @families);
	is($node->safe_psql($db, "SELECT $above, count(DISTINCT oid) FROM ids"), 't|4000', "$name: every 64-bit ID after the update above every one before, ObjectIds distinct");
	return;
}

# Databases that 1.0 had in one server made the same IDs: before their update, the owners of two
# of them give them identities (the tag 1.1 reads); the third takes what is left at its update.
$node->safe_psql('postgres', 'CREATE DATABASE ext_updated OWNER app; CREATE DATABASE ext_fresh OWNER app');
$node->safe_psql('postgres', 'CREATE DATABASE plain_updated OWNER app; CREATE DATABASE plain_fresh OWNER app');
$node->safe_psql('plain_updated', "COMMENT ON DATABASE plain_updated IS '[idgen_sql node=5 instagram=1024-1151]'", extra_params => [ '-U', 'app' ]);
$node->safe_psql('postgres', 'CREATE ROLE tle_admin LOGIN; CREATE DATABASE tle_updated OWNER tle_admin');
$node->safe_psql('tle_updated', "COMMENT ON DATABASE tle_updated IS 'its comment [idgen_sql node=6 instagram=2048-2175]'", extra_params => [ '-U', 'tle_admin' ]);

# ---- the extension's files -----------------------------------------------------------------------------
system('cp', form('idgen_sql--1.0.sql', 'extension', '1.0'), "$share/extension/idgen_sql--1.0.sql") == 0 or die;
$node->safe_psql('ext_updated', "CREATE EXTENSION idgen_sql VERSION '1.0'", extra_params => [ '-U', 'app' ]);
updated('ext_updated', 'app', 'the extension\'s files', 7, sub { $node->safe_psql('ext_updated', 'ALTER EXTENSION idgen_sql UPDATE', extra_params => [ '-U', 'app' ]) });
is($node->safe_psql('ext_updated', 'SELECT concat_ws(\'|\', node, instagram_shards, node_problem, shards_problem) FROM idgen.edition_identity()'), '0|0-1023',
	'... its identity given at the update: the lowest free node id and the first run of free shards');
$node->safe_psql('ext_fresh', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'app' ]);
same_objects('ext_updated', 'ext_fresh', 'the extension\'s files');
unlink "$share/extension/idgen_sql--1.0.sql";

# ---- the plain script, as the role that owns the database (no superuser) ---------------------------------
my ($ret, $err) = run_file('plain_updated', 'app', form('idgen_sql-1.0.sql', 'script', '1.0'));
is($ret, 0, 'the plain script 1.0, by the database owner') or diag $err;
updated('plain_updated', 'app', 'the plain script', 1031, sub {
	my ($ret, $err) = run_file('plain_updated', 'app', form('idgen_sql.update.sql', 'script-update'));
	is($ret, 0, 'idgen_sql.update.sql, by the role that ran 1.0') or diag $err;
	($ret, $err) = run_file('plain_updated', 'app', "$dir/idgen_sql.update.sql");
	like($err, qr/this update is from the SQL edition 1\.0; this database has 1\.1/, '... and again: refused, nothing done twice');
});
($ret, $err) = run_file('plain_fresh', 'app', form('idgen_sql.sql', 'script'));
is($ret, 0, 'the plain script 1.1') or diag $err;
same_objects('plain_updated', 'plain_fresh', 'the plain script');

# ---- pg_tle, as docs/managed.md says: a role granted pgtle_admin, in each database ------------------------
SKIP: {
	skip 'no pg_tle for this major (IDGEN_PG_TLE: scripts/pg_tle-build.sh)', 15 unless $tle;
	# As on a managed service, the server has no file of the edition.
	our $aside = PostgreSQL::Test::Utils::tempdir();
	system("mv '$share'/extension/idgen_sql* '$aside/'") == 0 or die;
	END { system("mv '$aside'/idgen_sql* '$share/extension/' 2>/dev/null") if $aside; }
	for my $db (qw(tle_updated tle_fresh tle_second)) {
		$node->safe_psql('postgres', "CREATE DATABASE $db OWNER tle_admin") if $db ne 'tle_updated';
		# (on RDS the rds_superuser, on Supabase the project's admin does this, once a database)
		$node->safe_psql($db, 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO tle_admin');
	}
	($ret, $err) = run_file('tle_updated', 'tle_admin', form('idgen_sql-1.0.pg_tle.sql', 'pg_tle', '1.0'));
	is($ret, 0, 'pg_tle: 1.0 as released, stored by a role without superuser') or diag $err;
	$node->safe_psql('tle_updated', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'tle_admin' ]);
	updated('tle_updated', 'tle_admin', 'pg_tle', 2055, sub {
		my ($ret, $err) = run_file('tle_updated', 'tle_admin', form('idgen_sql.pg_tle.sql', 'pg_tle'));
		is($ret, 0, 'pg_tle: idgen_sql.pg_tle.sql stores 1.1 and the update from 1.0 beside 1.0') or diag $err;
		$node->safe_psql('tle_updated', 'ALTER EXTENSION idgen_sql UPDATE', extra_params => [ '-U', 'tle_admin' ]);
	});
	($ret, $err) = run_file('tle_fresh', 'tle_admin', "$dir/idgen_sql.pg_tle.sql");
	is($ret, 0, 'pg_tle: idgen_sql.pg_tle.sql in a database without it') or diag $err;
	$node->safe_psql('tle_fresh', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'tle_admin' ]);
	same_objects('tle_updated', 'tle_fresh', 'pg_tle');
	($ret, $err) = run_file('tle_fresh', 'tle_admin', "$dir/idgen_sql.pg_tle.sql");
	is($ret, 0, 'pg_tle: the file run again changes nothing, and does not fail') or diag $err;
	# The second database: pg_tle knows nothing of the first's, until its steps are run there too.
	my ($r2, $o2, $e2) = $node->psql('tle_second', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'tle_admin' ]);
	like($e2, qr/extension "idgen_sql" is not available|could not open extension control file/, 'pg_tle: a second database has nothing of the first\'s');
	($ret, $err) = run_file('tle_second', 'tle_admin', "$dir/idgen_sql.pg_tle.sql");
	is($ret, 0, '... the file, run there as docs/managed.md says') or diag $err;
	$node->safe_psql('tle_second', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'tle_admin' ]);
	is($node->safe_psql('tle_second', 'SELECT idgen.snowflake_id() > 0 AND idgen.edition_version() = \'1.1\''), 't', '... and CREATE EXTENSION idgen_sql works there');
	# A server whose files have the edition (make install put idgen_sql.control there): pg_tle
	# refuses to store it, and CREATE EXTENSION takes the files.
	system("mv '$aside'/idgen_sql* '$share/extension/'") == 0 or die;
	$node->safe_psql('postgres', 'CREATE DATABASE tle_files OWNER tle_admin');
	$node->safe_psql('tle_files', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO tle_admin');
	($ret, $err) = run_file('tle_files', 'tle_admin', "$dir/idgen_sql.pg_tle.sql");
	isnt($ret, 0, 'pg_tle: where the server has idgen_sql.control, idgen_sql.pg_tle.sql fails');
	like($err, qr/control file already exists for the idgen_sql extension/, '... pg_tle says why') or diag $err;
	$node->safe_psql('tle_files', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'tle_admin' ]);
	is($node->safe_psql('tle_files', q{SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE oid = 'idgen.snowflake_id()'::regprocedure}),
		$node->safe_psql('postgres', 'SELECT current_user'), '... and CREATE EXTENSION takes the server\'s files (the edition\'s objects are the bootstrap superuser\'s)');
}

$node->stop;
done_testing();
