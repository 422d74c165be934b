# ORM migrations that write a bare DEFAULT uuidv7() (t/orm/<orm>.sql: the SQL that Rails, Prisma,
# Drizzle and Sequelize send for a UUID primary key with that default), run as the database owner
# (not a superuser), as an application runs its migrations:
# - PostgreSQL 15 to 17: without an opt-in each migration fails (42883); with CREATE EXTENSION
#   idgen_uuidv7 SCHEMA public each succeeds and its default calls idgen's C generator (the catalog
#   says so, idgen.stats counts every row), in cluster-wide order over 4 sessions; a uuidv7() already
#   in the schema is refused (42723), so are pg_catalog (3F000) and schemas the owner may not create
#   in (42501). The documented CREATE FUNCTION app.uuidv7() over idgen.uuidv7() does the same.
# - PostgreSQL 18 and later: idgen_uuidv7 refuses (0A000, with the hint); the migrations use core's
#   uuidv7(), also with app.uuidv7() on the search_path: nothing of idgen shadows core's.
# - Every major: the migrations with idgen.uuidv7() written qualified call idgen's generator.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $dir = dirname(__FILE__) . '/orm';
my @orms = qw(rails prisma drizzle sequelize);
my %table = (rails => 'rails_users', prisma => '"PrismaUser"', drizzle => 'drizzle_users', sequelize => 'sequelize_users');
my %cols = (rails => 'name, created_at, updated_at', prisma => 'name', drizzle => 'name', sequelize => 'name, "createdAt", "updatedAt"');
my %vals = (rails => q{'n' || i, now(), now()}, prisma => q{'n' || i}, drizzle => q{'n' || i}, sequelize => q{'n' || i, now(), now()});
my $rows = 1000;

my $node = idgen_node('orm');
$node->start;
my $major = $node->safe_psql('postgres', "SELECT current_setting('server_version_num')::int / 10000");
my $db = fresh_db($node, 'orm');
$node->safe_psql('postgres', 'CREATE ROLE orm_owner LOGIN; ALTER DATABASE orm OWNER TO orm_owner');
my $s = sub { $node->safe_psql($db, $_[0]) };
# As the owner: (status, stdout, stderr in verbose form)
my $owner = sub { return $node->psql($db, $_[0], extra_params => [ '-U', 'orm_owner', '-v', 'VERBOSITY=verbose' ]) };
my $sql = sub { PostgreSQL::Test::Utils::slurp_file("$dir/$_[0].sql") };
my ($idgen_c) = $s->(q{SELECT prosrc || ' ' || probin FROM pg_proc WHERE oid = 'idgen.uuidv7()'::regprocedure});

# The function that the default of a table's id calls: schema.name language prosrc probin (read
# from the stored expression: pg_depend records no dependency on core's pinned functions).
sub default_function {
	return $s->("SELECT n.nspname || '.' || p.proname || ' ' || l.lanname || ' ' || p.prosrc || ' ' || coalesce(p.probin, '-')
	  FROM pg_attrdef ad JOIN pg_proc p ON p.oid = (regexp_match(ad.adbin::text, ':funcid ([0-9]+)'))[1]::oid
	  JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
	  JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
	  WHERE ad.adrelid = '$_[0]'::regclass AND a.attname = 'id'");
}

sub migrate_all {
	my ($what, $calls, $edit) = @_;
	for my $orm (@orms) {
		my $script = $sql->($orm);
		$script =~ s/DEFAULT uuidv7\(\)/DEFAULT idgen.uuidv7()/g if $edit;
		is(($owner->($script))[0], 0, "$what: $orm: the migration ran");
		like(default_function($table{$orm}), qr/^\Q$calls\E/, "$what: $orm: the default calls $calls");
	}
	return;
}

# $rows rows into each table in one session: how many UUIDs idgen.stats counted meanwhile.
sub insert_all {
	my $before = $s->(q{SELECT issued FROM idgen.stats WHERE family = 'uuidv7'});
	$owner->(join('', map { "INSERT INTO $table{$_} ($cols{$_}) SELECT $vals{$_} FROM generate_series(1, $rows) i;" } @orms));
	return $s->(q{SELECT issued FROM idgen.stats WHERE family = 'uuidv7'}) - $before;
}
sub drop_all { $s->("DROP TABLE $table{$_}") for @orms; return; }

my $app = q{CREATE SCHEMA app; CREATE FUNCTION app.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL RESTRICTED RETURN idgen.uuidv7();};
if ($major < 18) {
	like(($owner->($sql->($_)))[2], qr/function uuidv7\(\) does not exist/, "no opt-in: $_ refused, no uuidv7()") for @orms;
	$owner->('CREATE FUNCTION public.uuidv7() RETURNS uuid LANGUAGE sql RETURN gen_random_uuid()');
	like(($owner->('CREATE EXTENSION idgen_uuidv7 SCHEMA public'))[2], qr/42723: schema public already has a function uuidv7\(\)/,
		'a look-alike uuidv7() in the schema: refused, 42723');
	$owner->('DROP FUNCTION public.uuidv7()');
	like(($node->psql($db, 'CREATE EXTENSION idgen_uuidv7 SCHEMA pg_catalog', extra_params => [ '-v', 'VERBOSITY=verbose' ]))[2],
		qr/3F000: idgen_uuidv7 does not go in schema pg_catalog/, 'never in pg_catalog, even for a superuser: 3F000');
	$s->('CREATE SCHEMA orm_not_hers');
	for my $schema (qw(orm_not_hers information_schema pg_toast)) {
		like(($owner->("CREATE EXTENSION idgen_uuidv7 SCHEMA $schema"))[2],
			qr/42501: idgen_uuidv7 goes only in a schema where its installer may create functions: not in $schema/, "$schema refused: 42501");
	}
	$s->('DROP SCHEMA orm_not_hers; DROP EXTENSION idgen');
	is(($owner->('CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE'))[0], 0, 'CREATE EXTENSION idgen_uuidv7 SCHEMA public CASCADE by the owner');
	is($s->(q{SELECT string_agg(extname || ' ' || extnamespace::regnamespace, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'idgen%'}),
		'idgen pg_catalog,idgen_uuidv7 public', 'idgen with it');
	migrate_all('idgen_uuidv7', "public.uuidv7 c $idgen_c");
	is(insert_all(), 4 * $rows, "idgen.stats counted the UUIDs of 4 x $rows rows");
	is($s->(q{SELECT count(*) FROM drizzle_users WHERE substr(id::text, 15, 1) = '7'}), $rows, 'version 7 ids');
	bench($node, $db, '-c 4 -t 1000', witness_table($node, $db, 'w', 'uuid PRIMARY KEY DEFAULT uuidv7()'), 'bare uuidv7()');
	is(order_violations($node, $db, 'w'), '0', 'bare uuidv7(), 4 sessions: cluster-wide order');
	$s->('DROP TABLE w');
	drop_all();
	$owner->('DROP EXTENSION idgen_uuidv7');
	$owner->($app . q{ALTER DATABASE orm SET search_path = "$user", public, app});
	migrate_all('app.uuidv7()', 'app.uuidv7 sql');
	is(insert_all(), 4 * $rows, "app.uuidv7(): idgen.stats counted the UUIDs of 4 x $rows rows");
} else {
	my $err = ($owner->('CREATE EXTENSION idgen_uuidv7 SCHEMA public'))[2];
	like($err, qr/0A000: idgen_uuidv7 is for PostgreSQL 15 to 17/, "PostgreSQL $major: idgen_uuidv7 refuses, 0A000");
	like($err, qr/HINT:  For idgen's order across every session, write idgen.uuidv7\(\) in the column default/, '... and says what to write');
	is($s->(q{SELECT count(*) FROM pg_extension WHERE extname = 'idgen_uuidv7'}), '0', 'idgen_uuidv7 is not installed');
	migrate_all("core's", 'pg_catalog.uuidv7 internal');
	is(insert_all(), 0, "core's uuidv7() made them: idgen.stats counted none");
	drop_all();
	$owner->($app . 'ALTER DATABASE orm SET search_path = app, public');
	migrate_all('app.uuidv7() on the search_path', 'pg_catalog.uuidv7 internal');
	is(insert_all(), 0, "app.uuidv7() on the search_path: core's made them");
}
drop_all();
migrate_all('idgen.uuidv7() written qualified', "idgen.uuidv7 c $idgen_c", 1);
is(insert_all(), 4 * $rows, "idgen.uuidv7() written qualified: idgen.stats counted the UUIDs of 4 x $rows rows");
$node->stop;
done_testing();
