# ALTER EXTENSION idgen UPDATE from every release (1.0 to 1.3) to the current one, on databases
# that hold objects and data: objectid columns with btree and hash indexes, typed domains from
# define_id_type (1.1 put them in pg_catalog, where pg_dump does not see them: the update moves
# them), a filled prefix registry, tables whose defaults call the generators. New IDs after the
# update are above the old ones; pg_dump and pg_restore keep the moved domain's table. The result
# equals a fresh CREATE EXTENSION idgen, object by object (the catalog compared), with the same
# configuration tables. The old releases come from sql/released/ (IdgenTest::install_old_releases).
# From 1.2, the marks tables of bound schemas are converted to 1.3's layout (and registered), firing
# nothing of their owner's; one she changed is left, with a warning, and never written.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $node = idgen_node('upgrade');
install_old_releases($node);
$node->start;
my ($current) = slurp_file(dirname(__FILE__) . '/../../idgen.control') =~ /^default_version = '([^']+)'/m;

# Every member of the extension, described with what defines it.
my $catalog = q{
SELECT pg_describe_object(d.classid, d.objid, 0)
  || coalesce(' | ' || (SELECT concat_ws(' ', pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid),
                         p.provolatile, p.proparallel, p.proisstrict, p.prosecdef, p.proleakproof, p.proconfig::text,
                         p.prosrc, p.proacl::text, obj_description(p.oid, 'pg_proc'))
                        FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid), '')
  || coalesce(' | ' || (SELECT concat_ws(' ', o.oprnamespace::regnamespace, o.oprcode, o.oprcom::regoperator,
                         o.oprnegate::regoperator, o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge)
                        FROM pg_operator o WHERE d.classid = 'pg_operator'::regclass AND o.oid = d.objid), '')
  || coalesce(' | ' || (SELECT concat_ws(' ', c.relkind, c.relacl::text, obj_description(c.oid, 'pg_class'))
                        FROM pg_class c WHERE d.classid = 'pg_class'::regclass AND c.oid = d.objid), '')
  || coalesce(' | ' || (SELECT concat_ws(' ', n.nspowner::regrole, n.nspacl::text)
                        FROM pg_namespace n WHERE d.classid = 'pg_namespace'::regclass AND n.oid = d.objid), '')
  || coalesce(' | ' || obj_description(d.objid, d.classid::regclass::text), '')
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
ORDER BY 1};
my $extconfig = q{SELECT extnamespace::regnamespace || ' ' || extconfig::regclass[]::text FROM pg_extension WHERE extname = 'idgen'};
fresh_db($node, 'fresh');
my $fresh = $node->safe_psql('fresh', $catalog);
my $fresh_extconfig = $node->safe_psql('fresh', $extconfig);
my $tmp = PostgreSQL::Test::Utils::tempdir;

for my $from (qw(1.0 1.1 1.2 1.3)) {
	my $db = 'upgrade_' . $from =~ s/\./_/r;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	my $q = sub { $node->safe_psql($db, $_[0]) };
	$q->("CREATE EXTENSION idgen VERSION '$from'");
	is($q->(q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}), $from, "$from: installed");
	$q->(q{SELECT idgen.define_id_type('post', 'post_id');
	  CREATE TABLE posts (id post_id PRIMARY KEY, body text);
	  INSERT INTO posts (body) SELECT 'post ' || n FROM generate_series(1, 1000) AS n;
	  SELECT idgen.register_prefix('post', 'posts');
	  CREATE TABLE docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int);
	  INSERT INTO docs (n) SELECT n FROM generate_series(1, 10000) AS n;
	  INSERT INTO docs (id, n) VALUES ('507f191e810c19729de860ea', 0);
	  CREATE INDEX docs_hash ON docs USING hash (id);
	  CREATE TABLE keyed (after bool NOT NULL DEFAULT false, i bigint PRIMARY KEY DEFAULT idgen.instagram_id(3),
	    s bigint UNIQUE DEFAULT idgen.snowflake_id(), u uuid UNIQUE DEFAULT idgen.uuidv7())});
	my ($ret, $out, $err) = $node->psql($db, 'INSERT INTO keyed SELECT FROM generate_series(1, 1000)');
	note("$from: the generators of ${from}'s catalog under the new library: $err") if $ret;
	($ret, my $before) = $node->psql($db, q{SELECT md5(string_agg(id::text || n, ',' ORDER BY id USING OPERATOR(idgen.<))) FROM docs});
	$before = $q->(q{SELECT md5(string_agg(id::text || n, ',' ORDER BY id)) FROM docs}) if $ret;
	# 1.2's bound schemas, bound by their owner with 1.2's bind (one row per shard, keyed by the
	# shard): one as 1.2 made it, with a trigger of hers on the marks; one to which she added an
	# index whose expression is hers. The update converts the first, fires nothing of hers, and
	# registers its shard; it leaves the second with a warning, and idgen never writes into it.
	if ($from eq '1.2')
	{
		$q->(q{CREATE ROLE shop_owner; ALTER DATABASE upgrade_1_2 OWNER TO shop_owner;
		  CREATE ROLE shop_clerk; CREATE ROLE shop_temp;
		  CREATE TABLE public.runs_as (what text, who name); GRANT INSERT ON public.runs_as TO PUBLIC;
		  SET ROLE shop_owner;
		  CREATE SCHEMA shop; CREATE SCHEMA tricked;
		  CREATE SCHEMA referenced;
		  SELECT idgen.bind_instagram_shard('shop', 20), idgen.bind_instagram_shard('tricked', 23),
		         idgen.bind_instagram_shard('public', 25), idgen.bind_instagram_shard('referenced', 26);
		  GRANT USAGE ON SCHEMA shop TO shop_clerk;
		  GRANT INSERT, UPDATE ON shop.idgen_instagram_shard TO shop_clerk WITH GRANT OPTION;
		  SET ROLE shop_clerk; GRANT UPDATE ON shop.idgen_instagram_shard TO shop_temp; SET ROLE shop_owner;
		  CREATE TABLE referenced.r (shard int REFERENCES referenced.idgen_instagram_shard (shard));
		  CREATE FUNCTION shop.note(what text) RETURNS void LANGUAGE plpgsql AS $$
		  BEGIN INSERT INTO public.runs_as VALUES (what, current_user); END $$;
		  CREATE FUNCTION shop.ran() RETURNS trigger LANGUAGE plpgsql AS $$
		  BEGIN PERFORM shop.note(TG_NAME); RETURN NEW; END $$;
		  CREATE FUNCTION shop.spy(bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
		  BEGIN PERFORM shop.note('index expression'); RETURN $1; END $$;
		  CREATE TRIGGER hers BEFORE INSERT OR UPDATE OR DELETE ON shop.idgen_instagram_shard FOR EACH ROW EXECUTE FUNCTION shop.ran();
		  CREATE INDEX hers ON tricked.idgen_instagram_shard (shop.spy(mark_server));
		  CREATE TABLE shop.t (id bigint PRIMARY KEY, after bool NOT NULL DEFAULT false);
		  CREATE TRIGGER id BEFORE INSERT ON shop.t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
		  CREATE TABLE tricked.t (id bigint PRIMARY KEY);
		  CREATE TRIGGER id BEFORE INSERT ON tricked.t FOR EACH ROW EXECUTE FUNCTION idgen.instagram_shard_id('id');
		  INSERT INTO shop.t SELECT FROM generate_series(1, 100);
		  RESET ROLE;
		  TRUNCATE public.runs_as});
	}
	my ($updated_ok, $update_out, $update_err) = $node->psql($db, 'ALTER EXTENSION idgen UPDATE');
	is($updated_ok, 0, "$from: ALTER EXTENSION idgen UPDATE") or diag($update_err);
	if ($from eq '1.2')
	{
		like($update_err, qr/WARNING:  tricked\.idgen_instagram_shard is not converted to the marks of idgen 1\.3\nDETAIL:  It has an index besides its primary key/,
			'1.2: a marks table that is not as 1.2 made it is left, with a warning saying why');
		like($update_err, qr/WARNING:  referenced\.idgen_instagram_shard is not converted to the marks of idgen 1\.3\nDETAIL:  cannot drop constraint/,
			'1.2: one whose key another table\'s foreign key needs too, and the update goes on');
		is($q->(q{SELECT count(*) FROM information_schema.role_table_grants WHERE table_schema = 'shop' AND grantee IN ('shop_clerk', 'shop_temp')}),
			'0', '1.2: the writes 1.2\'s README had granted are revoked, those granted on by a grantee too');
		is( $q->(q{SELECT string_agg(attname, ',' ORDER BY attname) || ' ' || (SELECT pg_get_constraintdef(oid) FROM pg_constraint
			  WHERE conrelid = 'shop.idgen_instagram_shard'::regclass AND contype = 'p')
			  FROM pg_attribute WHERE attrelid = 'shop.idgen_instagram_shard'::regclass AND attnum > 0 AND NOT attisdropped}),
			'id,mark,mark_server,shard PRIMARY KEY (shard, id)', '1.2: a marks table as 1.2 made it is converted to 1.3\'s layout');
		is($q->(q{SELECT string_agg(shard || ' ' || schema_name, ',' ORDER BY shard) FROM idgen.instagram_shard_schemas}),
			'20 shop,25 public', '1.2: ... and its shard registered (public, the database owner\'s, too)');
		$q->(q{SET ROLE shop_owner; INSERT INTO shop.t (after) SELECT true FROM generate_series(1, 100)});
		is($q->(q{SELECT count(DISTINCT id) || ' ' || (min(id) FILTER (WHERE after) > max(id) FILTER (WHERE NOT after))
			  || ' ' || (max((idgen.instagram_parse(id)).ts) < (SELECT max(mark) FROM shop.idgen_instagram_shard)) FROM shop.t}),
			'200 true true', '1.2: the trigger makes IDs of the converted shard, above the old ones, below a mark');
		is((sqlstate_of($node, q{INSERT INTO tricked.t SELECT}, db => $db))[0], '55000', '1.2: and refuses the one left (55000)');
		is($q->('SELECT count(*) FROM public.runs_as'), '0', '1.2: nothing of the owner\'s ran, in the update or after');
		$q->('DROP SCHEMA tricked, referenced CASCADE; DROP TABLE public.idgen_instagram_shard; ALTER DATABASE upgrade_1_2 OWNER TO CURRENT_USER;
		  REVOKE ALL ON SCHEMA shop FROM shop_clerk');
	}
	is($q->(q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}), $current, "$from: updated to $current");
	is($q->(q{SELECT abs(last_value - extract(epoch FROM clock_timestamp()) * 1000) < 60000 OR last_value < extract(epoch FROM clock_timestamp()) * 1000
	  FROM idgen.mark}), 't', "$from: the database's mark, converted, lies within a minute of the clock");
	is($q->(q{SELECT md5(string_agg(id::text || n, ',' ORDER BY id)) FROM docs}), $before, "$from: every row, in the same order");
	is($q->(q{SET enable_seqscan = off; SELECT n FROM docs WHERE id = '507f191e810c19729de860ea'}), '0',
		"$from: the btree index answers = with the default search_path");
	is($q->(q{SET enable_seqscan = off; SET enable_indexscan = off; SELECT n FROM docs WHERE id = '507f191e810c19729de860ea'}), '0',
		"$from: and the hash index");
	is((sqlstate_of($node, q{INSERT INTO docs VALUES ('507f191e810c19729de860ea', 1)}, db => $db))[0], '23505', "$from: a unique violation fires");
	$q->(q{INSERT INTO posts (body) VALUES ('new')});
	is($q->('SELECT count(*) FROM posts'), '1001', "$from: the typed domain defaults");
	is((sqlstate_of($node, q{INSERT INTO posts VALUES (idgen.typeid('user'))}, db => $db))[0], '23514', "$from: and checks");
	is($q->(q{SELECT typnamespace::regnamespace FROM pg_type WHERE typname = 'post_id'}), 'public', "$from: the domain lies where pg_dump sees it");
	is($q->('SELECT DISTINCT idgen.typeid_table(id) FROM posts'), 'posts', "$from: the registry leads back");
	is($q->('SELECT min(id) < max(id) FROM docs'), 't', "$from: min() and max() of the old column");
	$q->('INSERT INTO keyed (after) SELECT true FROM generate_series(1, 1000)');
	is($q->('SELECT coalesce(min(i) FILTER (WHERE after) > max(i) FILTER (WHERE NOT after), true), coalesce(min(s) FILTER (WHERE after) > max(s) FILTER (WHERE NOT after), true),
	  count(*) - count(DISTINCT i) FROM keyed'), 't|t|0', "$from: new Instagram and Snowflake IDs above the old ones, no duplicate");

	# pg_dump and a restore keep the table of the moved domain and its rows (1.1 lost it).
	$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/$db.dump", '-h', $node->host, '-p', $node->port, $db ], "$from: pg_dump");
	$node->safe_psql('postgres', "CREATE DATABASE ${db}_restored");
	$node->command_ok([ 'pg_restore', '-d', "${db}_restored", '-h', $node->host, '-p', $node->port, "$tmp/$db.dump" ], "$from: pg_restore");
	is($node->safe_psql("${db}_restored", 'SELECT count(*) FROM posts'), '1001', "$from: restored, the table of the domain and its rows");
	my $updated = $q->($catalog);
	is(scalar(split /\n/, $updated), scalar(split /\n/, $fresh), "$from: as many member objects as a fresh install");
	is($updated, $fresh, "$from: the updated catalog equals a fresh install's, object by object");
	is($q->($extconfig), $fresh_extconfig, "$from: the extension's schema and configuration tables");
}
$node->stop;
done_testing();
