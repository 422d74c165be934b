# Nobody but the superuser can put anything in schema idgen, whatever a database owner races
# (issue 29, items 1 and 2). From 1.3 on the install script makes its schema itself, inside the
# installing transaction, as a member of the extension: a schema made before is refused (42P06),
# and no other session can see the new one before it commits. An update from 1.0 (whose schema
# belonged to the owner) moves every object into a schema the update made: what the owner's other
# sessions commit meanwhile (an open transaction, a prepared one) stays behind, never in idgen. On
# idgen 1.2 each race here put a planted idgen.instagram_id(integer) where a superuser's
# idgen.instagram_id(42) ran it. And 1.1's domains move to the schema of their table, not to
# another role's schema whose name holds the first one's quotes.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $node = idgen_node('takeover', conf => 'max_prepared_transactions = 5');
$node->start;
$node->safe_psql('postgres', 'CREATE ROLE alice LOGIN; CREATE ROLE mallory LOGIN');
my $plant = q{CREATE FUNCTION idgen.instagram_id(shard integer) RETURNS bigint LANGUAGE sql AS 'SELECT 42'};

sub takeover_db
{
	my ($db) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $db OWNER alice");
	return $db;
}

sub as_alice
{
	my ($db, $sql) = @_;
	return sqlstate_of($node, $sql, db => $db, user => 'alice');
}

# What a superuser's idgen.instagram_id(42) runs: idgen's own (an ID), or a planted one (42).
sub superuser_call_is_idgens
{
	my ($db, $what) = @_;
	is($node->safe_psql($db, 'SELECT idgen.instagram_id(42) <> 42 AND to_regprocedure(\'idgen.instagram_id(integer)\') IS NULL'),
		't', "$what: a superuser's idgen.instagram_id(42) runs idgen's own");
	is($node->safe_psql($db, q{SELECT n.nspowner = 10 AND EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_namespace'::regclass
		AND d.objid = n.oid AND d.deptype = 'e') FROM pg_namespace n WHERE n.nspname = 'idgen'}),
		't', "$what: schema idgen belongs to the bootstrap superuser, a member of the extension");
	return;
}

# ---- installs: a schema made before is never used ---------------------------------------------

my $db = takeover_db('pre_made');
as_alice($db, 'CREATE SCHEMA idgen');
my ($state, $message, $hint) = as_alice($db, 'CREATE EXTENSION idgen');
is($state, '42P06', "the owner's empty schema idgen made before: refused ($message)");
like($hint, qr/Drop or rename schema idgen/, "with a hint: $hint");

# A prepared transaction holds a function in it, invisible to every check (1.2 took the schema,
# and the function came with COMMIT PREPARED).
$db = takeover_db('prepared');
as_alice($db, 'CREATE SCHEMA idgen');
as_alice($db, "BEGIN; $plant; PREPARE TRANSACTION 'plant'");
is((as_alice($db, 'CREATE EXTENSION idgen'))[0], '42P06', 'a schema holding a prepared function: refused');
$node->safe_psql($db, "ROLLBACK PREPARED 'plant'");

# The owner's same transaction: a schema made or touched before CREATE EXTENSION in it (1.2 read
# its xmin as "made here").
$db = takeover_db('same_xact');
as_alice($db, 'CREATE SCHEMA idgen');
is((as_alice($db, "BEGIN; ALTER SCHEMA idgen RENAME TO idgen; $plant; CREATE EXTENSION idgen; COMMIT"))[0], '42P06',
	'a schema touched in the installing transaction: refused');

# While the install's transaction is open, another session of the owner cannot see the schema;
# once it commits, the schema is the superuser's.
$db = takeover_db('open_install');
my $installer = $node->background_psql($db, on_error_stop => 0, extra_params => [ '-U', 'alice' ]);
$installer->query_safe('BEGIN; CREATE EXTENSION idgen');
($state) = as_alice($db, $plant);
is($state, '3F000', 'during an open install, another session of the owner finds no schema idgen to plant in');
$installer->query_safe('SELECT idgen.uuidv7(); COMMIT');
$installer->quit;
($state) = as_alice($db, $plant);
is($state, '42501', 'after it, planting is denied');
superuser_call_is_idgens($db, 'an install in an open transaction');

# ---- updates from 1.0, whose schema was the owner's ---------------------------------------------

install_released($node, scripts => [ 'idgen--1.0.sql' ], versions => [ '1.0' ]);

# The owner's update in an open transaction; another of her sessions, connected after its last
# check, plants a function into the old schema and commits before the update does.
$db = takeover_db('update_open');
$node->safe_psql($db, q{CREATE EXTENSION idgen VERSION '1.0'}, extra_params => [ '-U', 'alice' ]);
is($node->safe_psql($db, q{SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'idgen'}), 'alice',
	'1.0, installed by the owner: schema idgen is hers');
my $updater = $node->background_psql($db, on_error_stop => 0, extra_params => [ '-U', 'alice' ]);
$updater->query_safe('BEGIN; ALTER EXTENSION idgen UPDATE');
# (From PostgreSQL 19 the planting session waits for the update's lock on the old schema; before,
# it commits at once. Either way it is sent, then the update commits.)
my $planter = $node->background_psql($db, on_error_stop => 0, extra_params => [ '-U', 'alice' ]);
$planter->query_until(qr/planting/, "\\echo planting\n$plant;\n");
$updater->query_safe('COMMIT');
$updater->quit;
$planter->query('SELECT 1');
note('the planting session: ' . ($planter->{stderr} || 'committed'));
$planter->quit;
is($node->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}), '1.4', 'updated to 1.4');
superuser_call_is_idgens($db, 'a function planted during the update');

# An update can stop at no release between: from 1.0 there is no path to 1.2, whose schema the
# owner could still plant in (found by the adversarial pass: UPDATE TO '1.2', then a plant).
$db = takeover_db('update_to_1_2');
$node->safe_psql($db, q{CREATE EXTENSION idgen VERSION '1.0'}, extra_params => [ '-U', 'alice' ]);
($state, $message) = as_alice($db, "ALTER EXTENSION idgen UPDATE TO '1.2'");
is($state, '22023', "from 1.0, UPDATE TO '1.2' finds no path ($message)");

# The same with a prepared transaction, committed after the update. (From PostgreSQL 19 the
# prepared transaction locks the old schema, and the update waits for it: a lock_timeout ends the
# wait; the function then commits into the owner's 1.0 schema, where the update refuses it.)
$db = takeover_db('update_prepared');
$node->safe_psql($db, q{CREATE EXTENSION idgen VERSION '1.0'}, extra_params => [ '-U', 'alice' ]);
as_alice($db, "BEGIN; $plant; PREPARE TRANSACTION 'plant2'");
($state, $message) = as_alice($db, "SET lock_timeout = '2s'; ALTER EXTENSION idgen UPDATE");
note('the update while a prepared transaction holds a function: ' . ($state ? "$state $message" : 'done'));
$node->safe_psql($db, "COMMIT PREPARED 'plant2'");
if ($state)
{
	isnt((as_alice($db, 'ALTER EXTENSION idgen UPDATE'))[0], '', 'the update refuses while her function is in schema idgen');
	as_alice($db, 'DROP FUNCTION idgen.instagram_id(integer); ALTER EXTENSION idgen UPDATE');
}
else
{
	pass('the update ran before the prepared transaction committed');
}
superuser_call_is_idgens($db, 'a function prepared before the update, committed after');

# ---- item 2: 1.1's domains move to their table's schema, "App", not to a decoy named "\"App\"" ---

install_released($node, scripts => [ 'idgen--1.1.sql' ], versions => [ '1.1' ]);
$db = takeover_db('domains');
$node->safe_psql($db, q{CREATE EXTENSION idgen VERSION '1.1'}, extra_params => [ '-U', 'alice' ]);
$node->safe_psql($db, q{CREATE SCHEMA "App" AUTHORIZATION alice; CREATE SCHEMA """App""" AUTHORIZATION mallory; GRANT USAGE ON SCHEMA """App""" TO alice; GRANT CREATE ON DATABASE domains TO mallory});
$node->safe_psql($db, q{SELECT idgen.define_id_type('post', 'post_id')});  # (1.1: in pg_catalog, a superuser's call)
$node->safe_psql($db, q{CREATE TABLE "App".posts (id post_id PRIMARY KEY, body text); INSERT INTO "App".posts (body) VALUES ('kept')},
	extra_params => [ '-U', 'alice' ]);
is($node->safe_psql($db, q{SELECT typnamespace::regnamespace FROM pg_type WHERE typname = 'post_id'}), 'pg_catalog',
	"1.1 made the domain in pg_catalog");
# Another role makes a schema that sorts first, and a table of the domain in it (the frozen 1.1 ->
# 1.2 update gave her the domain: a constraint of hers then ran in a superuser's inserts).
$node->safe_psql($db, q{CREATE SCHEMA "0evil"; CREATE TABLE "0evil".m (id post_id)}, extra_params => [ '-U', 'mallory' ]);
($state, $message) = as_alice($db, 'ALTER EXTENSION idgen UPDATE');
is($state, '', 'the update from 1.1 succeeds' . ($message ? " ($message)" : ''));
is($node->safe_psql($db, q{SELECT typnamespace::regnamespace FROM pg_type WHERE typname = 'post_id'}), '"App"',
	'the domain moved to its table\'s schema "App"');
is($node->safe_psql($db, q{SELECT count(*) FROM pg_type WHERE typnamespace = '"""App"""'::regnamespace}), '0',
	'nothing in the decoy schema named with the quotes');
is($node->safe_psql($db, q{SELECT typowner::regrole FROM pg_type WHERE typname = 'post_id'}), 'postgres',
	'the domain keeps its owner, the superuser who made it');
isnt((sqlstate_of($node, 'ALTER DOMAIN "App".post_id ADD CONSTRAINT c CHECK (true)', db => $db, user => 'mallory'))[0], '',
	'the role whose schema sorted first cannot alter it');
isnt((sqlstate_of($node, 'DROP DOMAIN "App".post_id CASCADE', db => $db, user => 'mallory'))[0], '', 'nor drop it');
$node->safe_psql($db, q{DROP SCHEMA """App""" CASCADE});
is($node->safe_psql($db, q{SELECT body FROM "App".posts}), 'kept', "the decoy's owner dropping it takes nothing of hers");

done_testing();
