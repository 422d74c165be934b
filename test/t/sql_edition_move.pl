# Moving a database between idgen and its SQL edition in place (edition/idgen_move.sql, as
# docs/managed.md says), as the database's owner, no superuser: rows, column defaults and
# idgen.objectid columns kept, new IDs above the old, a lead of the old IDs over the clock waited out
# or refused (55000), and a move that cannot carry everything refused with nothing changed; what an
# application's prepared statements see. Instagram shards are idgen's or the edition's, never both:
# the server gives idgen 4096 to 8191 while the database has the edition, 0 to 8191 while it has idgen
# (as an operator moving a database would).
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $script = 'edition/idgen_move.sql';
my $node = idgen_node('move', conf => "idgen.instagram_shards = '4096-8191'");
$node->start;
sub idgen_shards {
	my ($shards) = @_;
	$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.instagram_shards = '$shards'; SELECT pg_reload_conf()");
	$node->poll_query_until('postgres', "SELECT current_setting('idgen.instagram_shards') = '$shards'") or die 'no reload';
}
$node->safe_psql('postgres', 'CREATE ROLE app LOGIN; CREATE DATABASE app OWNER app');
# (a search_path that would find what the owner plants in public, were the script to look there)
$node->safe_psql('postgres', 'ALTER ROLE app SET search_path = public, pg_catalog');
sub as_app { my ($sql) = @_; return $node->safe_psql('app', $sql, extra_params => [ '-U', 'app' ]); }
sub as_app_in { my ($db, $sql) = @_; return $node->safe_psql($db, $sql, extra_params => [ '-U', 'app' ]); }

as_app('CREATE EXTENSION idgen_sql');
# Functions planted by the owner where an unqualified name would find them, each more specific
# than pg_catalog's for the arguments the script passes: calling one fails the move.
as_app(q{
CREATE FUNCTION public.regexp_replace(name, text, text) RETURNS text LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'planted'; END$$;
CREATE FUNCTION public.jsonb_array_length(jsonb) RETURNS int LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'planted'; END$$;
CREATE FUNCTION public.format(text, text, text, text) RETURNS text LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'planted'; END$$;
CREATE FUNCTION public.max(bigint) RETURNS bigint LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'planted'; END$$;
});

my %family = (ig => 'instagram', sf => 'snowflake', sy => 'sonyflake', tr => 'trace', js => 'js');
as_app(q{
CREATE TABLE post (sf bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), ig bigint DEFAULT idgen.instagram_id(3),
  sy bigint DEFAULT idgen.sonyflake_id(), tr bigint DEFAULT idgen.trace_id(), js bigint DEFAULT idgen.js_id(),
  n int, made text DEFAULT 'edition');
CREATE TABLE doc (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), u uuid DEFAULT idgen.uuidv7(),
  ul text DEFAULT idgen.ulid(), t text DEFAULT idgen.typeid('doc'), made text DEFAULT 'edition');
CREATE TABLE ev (id bigint DEFAULT idgen.snowflake_id(), k int, at idgen.objectid) PARTITION BY RANGE (k);
CREATE TABLE ev_1 PARTITION OF ev FOR VALUES FROM (0) TO (1000);
ALTER TABLE ONLY ev_1 ALTER COLUMN id SET DEFAULT idgen.js_id();
CREATE SCHEMA "Odd Schema";
CREATE TABLE "Odd Schema"."Odd ""Table""" ("Id" bigint DEFAULT idgen.trace_id(), plain int DEFAULT 7);
INSERT INTO post (n) SELECT g FROM generate_series(1, 1000) g;
INSERT INTO doc SELECT FROM generate_series(1, 1000);
INSERT INTO ev (k, at) SELECT g % 1000, idgen.objectid() FROM generate_series(1, 500) g;
INSERT INTO "Odd Schema"."Odd ""Table""" SELECT FROM generate_series(1, 10);
CREATE DOMAIN public.id8 AS bigint;
CREATE TABLE dom (id public.id8 DEFAULT idgen.instagram_id(4), made text DEFAULT 'edition');
INSERT INTO dom SELECT FROM generate_series(1, 10);
});

# Every column default of the database's own tables, and the type of each objectid column: what
# must come through each move unchanged.
my $defaults_sql = q{SELECT string_agg(x, E'\n' ORDER BY x) FROM (
SELECT format('%s.%s=%s', a.attrelid::regclass, a.attname, pg_get_expr(d.adbin, d.adrelid)) AS x
FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum JOIN pg_class c ON c.oid = d.adrelid
WHERE c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)) s};
my $types_sql = q{SELECT string_agg(x, ', ' ORDER BY x) FROM (
SELECT format('%s.%s:%s:%s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod),
  (SELECT e.extname FROM pg_depend x JOIN pg_extension e ON e.oid = x.refobjid
   WHERE x.classid = 'pg_type'::regclass AND x.objid = a.atttypid AND x.deptype = 'e')) AS x
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relname IN ('doc', 'ev', 'ev_1') AND a.attname IN ('id', 'at') AND format_type(a.atttypid, a.atttypmod) <> 'bigint') s};
my $rows_sql = q{SELECT md5(string_agg(format('%s|%s|%s|%s|%s|%s', sf, ig, sy, tr, js, n), ',' ORDER BY sf)) FROM post
UNION ALL SELECT md5(string_agg(format('%s|%s|%s|%s', id, u, ul, t), ',' ORDER BY id::text)) FROM doc
UNION ALL SELECT md5(string_agg(format('%s|%s|%s', id, k, at), ',' ORDER BY id, at::text)) FROM ev};
my $defaults = $node->safe_psql('app', $defaults_sql);
like($defaults, qr/post\.sf=idgen\.snowflake_id\(\)/, 'the defaults, under the edition');
is(scalar(() = $defaults =~ /idgen\./g), 13, '... thirteen of them call the edition');

my ($ret, $err);
# move(to, max_wait, superuser => 1, db => 'app'): runs the script as the owner (or the superuser);
# its exit status and stderr
sub move {
	my ($to, $max_wait, %opts) = @_;
	my ($out, $err);
	IPC::Run::run([ 'psql', '-X', '-d', $node->connstr($opts{db} // 'app'), $opts{superuser} ? () : ('-U', 'app'),
			'-v', 'ON_ERROR_STOP=1', '-v', 'VERBOSITY=verbose',
			'-v', "to=$to", $max_wait ? ('-v', "max_wait=$max_wait") : (), '-f', $script ], '>', \$out, '2>', \$err);
	return ($? >> 8, $err);
}

# ---- a superuser's move runs nothing of another role's ----------------------------------------------
# What the owner's code did, and as whom: a function of hers that records its caller and, where the
# caller is a superuser, makes her one (an index needs an immutable function: one that calls it).
$node->safe_psql('postgres', 'CREATE DATABASE tle_like OWNER app');
for my $db ('app', 'tle_like') {
	$node->safe_psql($db, q{
CREATE TABLE public.ran (what text, who name, super boolean);
GRANT INSERT, SELECT ON public.ran TO PUBLIC;
CREATE FUNCTION public.spy(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.ran VALUES (what, current_user, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user));
  BEGIN EXECUTE 'ALTER ROLE app SUPERUSER'; EXCEPTION WHEN insufficient_privilege THEN NULL; END;
  RETURN true;
END $$;
CREATE FUNCTION public.spy_immutable(what text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$BEGIN RETURN public.spy(what); END$$;
CREATE FUNCTION public.spy_int(what text) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$BEGIN PERFORM public.spy(what); RETURN 0; END$$;
ALTER FUNCTION public.spy(text) OWNER TO app;
ALTER FUNCTION public.spy_immutable(text) OWNER TO app;
ALTER FUNCTION public.spy_int(text) OWNER TO app;});
}
sub ran { my ($db) = @_; return $node->safe_psql($db // 'app', q{SELECT coalesce(string_agg(format('%s as %s', what, who), ', '), 'nothing') FROM public.ran}); }
sub app_is_superuser { return $node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'app'}); }
# refused_for_code(to, name, qr/detail/, db): a superuser's move refuses, nothing of hers ran,
# nothing changed
sub refused_for_code {
	my ($to, $name, $detail, $db) = @_;
	$db //= 'app';
	my $was = $node->safe_psql($db, "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'idgen%'");
	my $defaults_before = $node->safe_psql($db, $defaults_sql);
	$node->safe_psql($db, 'TRUNCATE public.ran');
	my ($ret, $err) = move($to, undef, superuser => 1, db => $db);
	isnt($ret, 0, "$name: a superuser's move refuses");
	like($err, qr/ERROR:  42501: the move would run code of another role as .*DETAIL:  .*$detail/s, '... 42501, naming it') or diag $err;
	is(ran($db), 'nothing', '... nothing of the owner\'s ran');
	is(app_is_superuser(), 'f', '... and she is no superuser');
	is($node->safe_psql($db, "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'idgen%'"), $was,
		'... and nothing changed');
	is($node->safe_psql($db, $defaults_sql), $defaults_before, '... every default');
}
# Her database, her tables: a CHECK, or an index expression, on a table the rewrite or the read of a
# largest ID reaches.
as_app(q{CREATE TABLE spied (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int, CHECK (public.spy('a CHECK on ' || id)));
INSERT INTO spied (n) VALUES (1)});
refused_for_code('idgen', 'her CHECK on an objectid column', qr/\(role app\)/);
as_app(q{ALTER TABLE spied DROP CONSTRAINT spied_id_check; CREATE INDEX ON spied (public.spy_immutable('an index of ' || n))});
refused_for_code('idgen', 'her index expression on such a table', qr/\(role app\)/);
as_app(q{DROP TABLE spied});
# A role the database sets for every session: the superuser's move would judge as her.
as_app(q{ALTER DATABASE app SET role = 'app'});
{
	my ($ret, $err) = move('idgen', undef, superuser => 1);
	isnt($ret, 0, "ALTER DATABASE ... SET role: a superuser's move refuses");
	like($err, qr/ERROR:  42501: the move runs as the role that connected \(\w+\), not as app/, '... 42501, saying why') or diag $err;
	is(extension(), 'idgen_sql', '... and nothing changed');
}
as_app(q{ALTER DATABASE app RESET role});

# A superuser's database, the edition installed by the superuser, tables of the superuser's that
# use what she made in a schema of hers: what the read and the rewrite would evaluate is hers, and
# that alone refuses the move.
$node->safe_psql('postgres', 'CREATE DATABASE su');
$node->safe_psql('su', q{CREATE EXTENSION idgen_sql; CREATE SCHEMA hers AUTHORIZATION app;
CREATE TABLE public.ran (what text, who name, super boolean); GRANT INSERT, SELECT ON public.ran TO PUBLIC});
# (her functions act only once armed: the superuser's own DDL below evaluates some of them, by his choice)
as_app_in('su', q{
CREATE TABLE hers.armed (on_ boolean); INSERT INTO hers.armed VALUES (false);
GRANT SELECT ON hers.armed TO PUBLIC;
CREATE FUNCTION hers.spy(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (SELECT on_ FROM hers.armed) THEN RETURN true; END IF;
  INSERT INTO public.ran VALUES (what, current_user, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user));
  BEGIN EXECUTE 'ALTER ROLE app SUPERUSER'; EXCEPTION WHEN insufficient_privilege THEN NULL; END;
  RETURN true;
END $$;
CREATE FUNCTION hers.spy_int(what text) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$BEGIN PERFORM hers.spy(what); RETURN 0; END$$;
CREATE FUNCTION hers.rdiff(a float8, b float8) RETURNS float8 LANGUAGE plpgsql IMMUTABLE STRICT AS
  $$BEGIN PERFORM hers.spy('subtype_diff'); RETURN a - b; END$$;
CREATE TYPE hers.frange AS RANGE (subtype = float8, subtype_diff = hers.rdiff);
CREATE TABLE hers.t (id int PRIMARY KEY);
GRANT USAGE ON SCHEMA hers TO PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA hers TO PUBLIC;
GRANT REFERENCES ON hers.t TO PUBLIC});
my @su_cases = (
	[ 'a CHECK on an objectid column calling her function',
		q{CREATE TABLE public.c (o idgen.objectid, CHECK (hers.spy(o::text)))}, qr/function hers\.spy\(text\) \(role app\)/ ],
	[ 'an index expression of her function on an objectid table',
		q{CREATE TABLE public.c (o idgen.objectid, n int); CREATE INDEX ON public.c ((hers.spy_int(o::text) + n))},
		qr/function hers\.spy_int\(text\) \(role app\)/ ],
	[ 'a partition key of her function on an objectid table',
		q{CREATE TABLE public.c (o idgen.objectid, k int) PARTITION BY RANGE ((k + hers.spy_int('key')));
		  CREATE TABLE public.c_1 PARTITION OF public.c FOR VALUES FROM (0) TO (100)}, qr/function hers\.spy_int\(text\) \(role app\)/ ],
	[ 'an index expression of hers planned when the largest ID is read',
		q{CREATE TABLE public.c (id bigint DEFAULT idgen.snowflake_id(), v int); CREATE INDEX ON public.c ((id + hers.spy_int('planned')))},
		qr/function hers\.spy_int\(text\) \(role app\)/ ],
	[ 'a statistics object of hers on such a table',
		q{CREATE TABLE public.c (id bigint DEFAULT idgen.snowflake_id(), v int); CREATE STATISTICS public.s ON (id + hers.spy_int('stats')), v FROM public.c},
		qr/function hers\.spy_int\(text\) \(role app\)/ ],
	[ 'a CHECK of a child, folded by constraint exclusion',
		q{CREATE TABLE public.c (id bigint DEFAULT idgen.snowflake_id()); CREATE TABLE public.c_child (CHECK (id > hers.spy_int('excl'))) INHERITS (public.c)},
		qr/function hers\.spy_int\(text\) \(role app\)/ ],
	[ 'a column of her range type, whose GiST build calls her subtype_diff',
		q{CREATE TABLE public.c (o idgen.objectid, r hers.frange); CREATE INDEX ON public.c USING gist (r)},
		qr/(type hers\.frange|function hers\.rdiff\(double precision,double precision\)) \(role app\)/ ],
	[ 'a foreign key to her table',
		q{CREATE TABLE public.c (o idgen.objectid, h int REFERENCES hers.t (id))}, qr/table hers\.t \(role app\)/ ],
);
for my $case (@su_cases) {
	my ($name, $sql, $detail) = @$case;
	$node->safe_psql('su', $sql);
	as_app_in('su', 'UPDATE hers.armed SET on_ = true');
	refused_for_code('idgen', "a superuser's table, $name", $detail, 'su');
	as_app_in('su', 'UPDATE hers.armed SET on_ = false');
	$node->safe_psql('su', 'DROP TABLE public.c CASCADE');
}
# Her table's foreign key to a superuser's objectid key: checked again when that column changes type.
$node->safe_psql('su', q{CREATE TABLE public.keyed (o idgen.objectid PRIMARY KEY); GRANT REFERENCES ON public.keyed TO app});
as_app_in('su', q{CREATE TABLE hers.pointing (o idgen.objectid REFERENCES public.keyed (o)); UPDATE hers.armed SET on_ = true});
refused_for_code('idgen', 'her foreign key to a superuser\'s objectid key', qr/table hers\.pointing \(role app\)/, 'su');
as_app_in('su', q{DROP TABLE hers.pointing});
$node->safe_psql('su', q{DROP TABLE public.keyed});

# Her database, a superuser's table in her schema public: while the move waits for the clock, she
# renames the schema and puts a table of hers, with a CHECK of hers, under the old name. The move acts
# on the tables it judged, by their OIDs.
$node->safe_psql('postgres', 'CREATE DATABASE renamed OWNER app');
as_app_in('renamed', q{CREATE EXTENSION idgen_sql;
CREATE FUNCTION public.spy(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.ran VALUES (what, current_user, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user));
  BEGIN EXECUTE 'ALTER ROLE app SUPERUSER'; EXCEPTION WHEN insufficient_privilege THEN NULL; END;
  RETURN true;
END $$});
$node->safe_psql('renamed', q{CREATE TABLE public.ran (what text, who name, super boolean); GRANT INSERT, SELECT ON public.ran TO PUBLIC;
CREATE TABLE public.docs (oid idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), js bigint DEFAULT idgen.js_id());
INSERT INTO public.docs SELECT FROM generate_series(1, 10);
SELECT setval('idgen_sql_state.js_offset', ((SELECT node FROM idgen.edition_identity())::bigint << 53)
  | (((((extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3000 - 1767225600000) / 10) << 10) - coalesce(pg_sequence_last_value('idgen_sql_state.js_counter'), 0)))});
{
	my $docs = $node->safe_psql('renamed', q{SELECT 'public.docs'::regclass::oid});
	my $attacker = $node->background_psql('renamed', on_error_stop => 1, extra_params => [ '-U', 'app' ]);
	my ($out, $err);
	my $mover = IPC::Run::start([ 'psql', '-X', '-d', $node->connstr('renamed'), '-v', 'ON_ERROR_STOP=1', '-v', 'to=idgen',
		'-f', $script ], '>', \$out, '2>', \$err);
	$attacker->query_safe(qq{DO \$\$BEGIN WHILE NOT EXISTS (SELECT FROM pg_locks WHERE granted AND mode = 'AccessExclusiveLock'
	  AND relation = $docs AND pid <> pg_backend_pid()) LOOP PERFORM pg_sleep(0.01); END LOOP; END\$\$});
	$attacker->query_safe(q{BEGIN; ALTER SCHEMA public RENAME TO public_old; CREATE SCHEMA public;
CREATE TABLE public.docs (oid text, js bigint, CONSTRAINT trap CHECK (public_old.spy(oid))); COMMIT});
	$attacker->quit;
	$mover->finish;
	is($? >> 8, 0, 'her schema renamed while the move waits: the move goes on') or diag $err;
	is($node->safe_psql('renamed', 'SELECT count(*) FROM public_old.ran'), '0', '... having run nothing of hers');
	is($node->safe_psql('renamed', q{SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'public_old.docs'::regclass AND attname = 'oid'}),
		'idgen.objectid', '... on the table it judged');
	is($node->safe_psql('renamed', q{SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'public.docs'::regclass AND attname = 'oid'}),
		'text', '... and not on hers');
}

# A database that sets repeatable read for every session: the move still sees, after each lock, what
# the lock settled (read committed), and judges the table she put in the place of the superuser's.
$node->safe_psql('postgres', 'CREATE DATABASE isolated OWNER app');
as_app_in('isolated', q{CREATE EXTENSION idgen_sql;
CREATE FUNCTION public.note(what text) RETURNS void LANGUAGE plpgsql AS $$BEGIN INSERT INTO public.ran VALUES (what, current_user, false); END$$;
CREATE FUNCTION public.spy_int(x int) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN IF current_user <> 'app' THEN PERFORM public.note('an index predicate'); END IF; RETURN true; END $$;
ALTER DATABASE isolated SET default_transaction_isolation = 'repeatable read'});
$node->safe_psql('isolated', q{CREATE TABLE public.ran (what text, who name, super boolean); GRANT INSERT, SELECT ON public.ran TO PUBLIC;
CREATE TABLE public.made (id bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), v text);
INSERT INTO public.made (v) VALUES ('x')});
{
	my $attacker = $node->background_psql('isolated', on_error_stop => 1, extra_params => [ '-U', 'app' ]);
	$attacker->query_safe(q{BEGIN; DROP TABLE public.made; CREATE TABLE public.made (id bigint DEFAULT idgen.snowflake_id(), v text);
CREATE INDEX made_trap ON public.made (id) WHERE public.spy_int(1)});
	my ($out, $err);
	my $mover = IPC::Run::start([ 'psql', '-X', '-d', $node->connstr('isolated'), '-v', 'ON_ERROR_STOP=1', '-v', 'to=idgen',
		'-f', $script ], '>', \$out, '2>', \$err);
	$attacker->query_safe(q{DO $$BEGIN WHILE NOT EXISTS (SELECT FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()) LOOP
	  PERFORM pg_sleep(0.01); END LOOP; END$$});
	$attacker->query_safe('COMMIT');
	$attacker->quit;
	$mover->finish;
	isnt($? >> 8, 0, 'repeatable read for every session, her table put in the place of one the move found: refused');
	like($err, qr/ERROR:  (the move would run code of another role|relation .* does not exist)/, '... as another role\'s, or gone') or diag $err;
	is($node->safe_psql('isolated', 'SELECT count(*) FROM public.ran'), '0', '... having run nothing of hers');
}

# The edition installed by a role without superuser (pg_tle, the plain script: its functions hers,
# as here), which replaced them to run as whoever calls them: a superuser's move calls none of them.
as_app_in('tle_like', q{CREATE EXTENSION idgen_sql});
$node->safe_psql('tle_like', q{
DO $$
DECLARE o record;
BEGIN
  ALTER SCHEMA idgen OWNER TO app;
  ALTER SCHEMA idgen_sql_state OWNER TO app;
  FOR o IN SELECT p.oid::regprocedure AS f FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO app', o.f);
  END LOOP;
  FOR o IN SELECT c.oid::regclass AS s FROM pg_class c WHERE c.relnamespace IN ('idgen'::regnamespace, 'idgen_sql_state'::regnamespace) AND c.relkind IN ('S', 'r') LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO app', o.s);
  END LOOP;
  ALTER DOMAIN idgen.objectid OWNER TO app;
END $$});
as_app_in('tle_like', q{
CREATE TABLE post (sf bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), js bigint DEFAULT idgen.js_id(), made text DEFAULT 'edition');
INSERT INTO post SELECT FROM generate_series(1, 100);
-- (the careful way of the generators, kept under another name for the spy to call)
DO $$ BEGIN
  EXECUTE replace(pg_get_functiondef('idgen.edition_next(integer,bigint)'::regprocedure), 'idgen.edition_next(', 'public.edition_next_kept(');
END $$;
CREATE OR REPLACE FUNCTION idgen.snowflake_parse(id bigint) RETURNS idgen.snowflake_parts LANGUAGE plpgsql AS $$
BEGIN PERFORM public.spy('snowflake_parse'); RETURN ROW(now(), 0, 0); END $$;
CREATE OR REPLACE FUNCTION idgen.snowflake_id() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN PERFORM public.spy('snowflake_id'); RETURN idgen.edition_next(2, -1); END $$;
CREATE OR REPLACE FUNCTION idgen.js_id() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN PERFORM public.spy('js_id'); RETURN idgen.edition_next(5, -1); END $$;
CREATE OR REPLACE FUNCTION idgen.edition_next(family int, shard bigint) RETURNS bigint LANGUAGE plpgsql SECURITY INVOKER AS $$
BEGIN PERFORM public.spy('edition_next'); RETURN public.edition_next_kept(family, shard); END $$;
CREATE OR REPLACE FUNCTION idgen.edition_fence(OUT family text, OUT word bigint) RETURNS SETOF record LANGUAGE plpgsql SECURITY INVOKER AS $$
BEGIN PERFORM public.spy('edition_fence'); END $$;
CREATE OR REPLACE FUNCTION idgen.edition_identity(OUT node int, OUT instagram_shards text, OUT node_problem text, OUT shards_problem text) LANGUAGE plpgsql AS $$
BEGIN PERFORM public.spy('edition_identity'); END $$;
INSERT INTO post SELECT FROM generate_series(1, 100)});
$node->safe_psql('tle_like', 'TRUNCATE public.ran');
# Her own type in the place of the edition's objectid domain, with a cast of hers to text: refused.
as_app_in('tle_like', q{
CREATE TABLE swapped (o idgen.objectid, v int);
INSERT INTO swapped VALUES (idgen.objectid(), 1);
ALTER DOMAIN idgen.objectid RENAME TO objectid_orig;
CREATE TYPE idgen.objectid AS (x text);
CREATE FUNCTION public.oid2text(idgen.objectid) RETURNS text LANGUAGE plpgsql AS $$BEGIN PERFORM public.spy('a cast'); RETURN ($1).x; END$$;
CREATE CAST (idgen.objectid AS text) WITH FUNCTION public.oid2text(idgen.objectid);
ALTER TABLE swapped ALTER COLUMN o TYPE idgen.objectid USING ROW(o::text)::idgen.objectid;
ALTER EXTENSION idgen_sql ADD TYPE idgen.objectid;
ALTER EXTENSION idgen_sql ADD FUNCTION public.oid2text(idgen.objectid);
ALTER EXTENSION idgen_sql ADD CAST (idgen.objectid AS text)});
$node->safe_psql('tle_like', 'TRUNCATE public.ran');
($ret, $err) = move('idgen', '3s', superuser => 1, db => 'tle_like');
isnt($ret, 0, 'the edition hers, her type in the place of the objectid domain: a superuser\'s move refuses');
like($err, qr/ERROR:  42501: the move would run code of another role as /, '... 42501') or diag $err;
is(ran('tle_like'), 'nothing', '... having run nothing of hers');
($ret, $err) = move('idgen', '3s', db => 'tle_like');
isnt($ret, 0, '... and her own move refuses the type that is not the edition\'s');
like($err, qr/ERROR:  42809: type idgen\.objectid is not the objectid type of idgen_sql/, '... 42809, naming it') or diag $err;
as_app_in('tle_like', q{DROP TABLE swapped; ALTER EXTENSION idgen_sql DROP CAST (idgen.objectid AS text);
DROP CAST (idgen.objectid AS text); ALTER EXTENSION idgen_sql DROP FUNCTION public.oid2text(idgen.objectid);
DROP FUNCTION public.oid2text(idgen.objectid); ALTER EXTENSION idgen_sql DROP TYPE idgen.objectid; DROP TYPE idgen.objectid;
ALTER DOMAIN idgen.objectid_orig RENAME TO objectid});
my %max_before = map { $_ => $node->safe_psql('tle_like', "SELECT max($_) FROM post") } qw(sf js);
($ret, $err) = move('idgen', '3s', superuser => 1, db => 'tle_like');
isnt($ret, 0, 'the edition\'s functions hers: a superuser\'s move refuses');
like($err, qr/ERROR:  42501: .*DETAIL:  .*function idgen\.\w+\(.*\) \(role app\)/s, '... naming them') or diag $err;
is(ran('tle_like'), 'nothing', '... having called none of them');
is(app_is_superuser(), 'f', '... and she is no superuser');
($ret, $err) = move('idgen', '3s', db => 'tle_like');
is($ret, 0, '... and she moves it herself') or diag $err;
$node->safe_psql('tle_like', q{UPDATE post SET made = 'old'; INSERT INTO post (made) SELECT 'idgen' FROM generate_series(1, 100)});
for my $c (qw(sf js)) {
	is($node->safe_psql('tle_like', "SELECT count(*) FILTER (WHERE $c <= $max_before{$c}), count(*) FROM post WHERE made = 'idgen'"), '0|100',
		"... new $c IDs above the old, read from the edition's sequences");
}
sub extension { return $node->safe_psql('app', "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'idgen%'"); }
sub maxima { return { map { $_ => $node->safe_psql('app', "SELECT max($_) FROM post") } keys %family }; }
sub above {
	my ($before, $made, $name) = @_;
	for my $c (sort keys %family) {
		is($node->safe_psql('app', "SELECT count(*) FILTER (WHERE $c <= $before->{$c}), count(*) FROM post WHERE made = '$made'"), '0|100',
			"$name: every new $family{$c} ID is above the largest before");
	}
}

# ---- refused, nothing changed: what the move does not carry, an ID ahead of the clock ------------
as_app('CREATE VIEW v AS SELECT idgen.snowflake_id() AS id');
($ret, $err) = move('idgen');
isnt($ret, 0, 'a view calling the edition: the move refuses');
like($err, qr/ERROR:  2BP01: .*HINT:  The move carries column defaults/s, '... 2BP01, with what to do');
is(extension(), 'idgen_sql', '... and nothing changed: the edition');
is($node->safe_psql('app', $defaults_sql), $defaults, '... every default');
as_app('DROP VIEW v');

# The edition's JS-safe word 8 s ahead of the clock (a clock stepped back since its last ID), and a
# row with that ID (written as it was made: the edition's generators would now wait for the clock
# to come within a second of it): idgen's words start from the clock, so the move waits, up to
# max_wait. (The word is the counter plus the offset, whose top bits are the node id. 8 s: a move
# with max_wait 1 s refuses however long this machine takes between the statements.)
my $set_at = $node->safe_psql('app', q{SELECT clock_timestamp() FROM (SELECT setval('idgen_sql_state.js_offset',
  ((SELECT node FROM idgen.edition_identity())::bigint << 53)
  | (((((extract(epoch FROM clock_timestamp()) * 1000)::bigint + 8000 - 1767225600000) / 10) << 10) - coalesce(pg_sequence_last_value('idgen_sql_state.js_counter'), 0)))) x});
as_app(q{INSERT INTO post (n, js) SELECT 0, (((((extract(epoch FROM clock_timestamp()) * 1000)::bigint + 8000 - 1767225600000) / 10) << 15)
  | ((SELECT node FROM idgen.edition_identity())::bigint << 10))});
my $ahead = $node->safe_psql('app', 'SELECT max(js) FROM post');
is($node->safe_psql('app', "SELECT (idgen.js_parse($ahead)).ts >= '$set_at'::timestamptz + interval '7 seconds'"), 't', 'a JS-safe ID 8 s ahead of the clock');
($ret, $err) = move('idgen', '1s');
isnt($ret, 0, 'JS-safe IDs 8 s ahead of the clock, max_wait 1 s: the move refuses');
like($err, qr/ERROR:  55000: the IDs of idgen_sql run ahead of the clock.*DETAIL:  Ahead of the clock: js by \d+ ms.*HINT:  Run the move again after/s,
	'... 55000, saying which family and until when') or diag $err;
is(extension(), 'idgen_sql', '... and nothing changed');
is($node->safe_psql('app', $defaults_sql), $defaults, '... every default');

# An Instagram ID 2 s ahead of the clock in a column of a domain over bigint: read like any bigint.
as_app(q{INSERT INTO dom (id, made) VALUES (idgen.instagram_min(clock_timestamp() + interval '2 s') + (4 << 10), 'ahead')});
my $dom_max = $node->safe_psql('app', 'SELECT max(id) FROM dom');

# ---- the edition to idgen -------------------------------------------------------------------------
my $rows = $node->safe_psql('app', $rows_sql);
my $before = maxima();
# An application's session with prepared statements, as psycopg, JDBC and ORMs keep them: one whose
# result has an idgen.objectid column, one whose has not.
my $app = $node->background_psql('app', on_error_stop => 0, extra_params => [ '-U', 'app' ]);
$app->query_safe(q{PREPARE by_made (text) AS SELECT id, made FROM doc WHERE made = $1 LIMIT 1;
PREPARE count_made (text) AS SELECT count(*) FROM doc WHERE made = $1});
$app->query_safe(q{EXECUTE by_made('edition'); EXECUTE count_made('edition')});
idgen_shards('0-8191');
($ret, $err) = move('idgen');
is($ret, 0, 'the edition to idgen, in place') or diag $err;
like($err, qr/moved to idgen: 13 column defaults, 2 idgen.objectid columns/, '... 13 defaults, 2 objectid columns (and the partition\'s)');
is(extension(), 'idgen', '... idgen is installed, the edition is not');
is($node->safe_psql('app', $defaults_sql), $defaults, '... every column default as it was, calling idgen');
is($node->safe_psql('app', $types_sql), 'doc.id:idgen.objectid:idgen, ev.at:idgen.objectid:idgen, ev_1.at:idgen.objectid:idgen',
	'... the objectid columns of idgen\'s type');
is($node->safe_psql('app', $rows_sql), $rows, '... every row as it was');
as_app(q{UPDATE post SET made = 'old'; UPDATE doc SET made = 'old';
INSERT INTO post (n, made) SELECT g, 'idgen' FROM generate_series(1, 100) g;
INSERT INTO doc (made) SELECT 'idgen' FROM generate_series(1, 100);
INSERT INTO ev (k, at) VALUES (1, idgen.objectid())});
above($before, 'idgen', 'idgen after the move');
is($node->safe_psql('app', "SELECT count(*) FILTER (WHERE js <= $ahead) FROM post WHERE made = 'idgen'"), '0',
	'... above the JS-safe ID that ran ahead of the clock, too: the move waited it out');
# The prepared statement whose result has an objectid column cannot run again in that session: its
# column changed type (0A000). The others go on. DISCARD ALL (or a new connection) and a new
# PREPARE, as docs/managed.md says.
$app->query(q{EXECUTE by_made('old')});
like($app->{stderr}, qr/cached plan must not change result type/, 'an application\'s prepared statement returning an objectid column fails after the move (0A000)');
$app->{stderr} = '';
is($app->query_safe(q{EXECUTE count_made('old')}) =~ s/\s+\z//r, '1000', '... one whose result has no objectid column goes on');
$app->query_safe('DISCARD ALL');
$app->query_safe(q{PREPARE by_made (text) AS SELECT id, made FROM doc WHERE made = $1 LIMIT 1});
like($app->query_safe(q{EXECUTE by_made('old')}), qr/^[0-9a-f]{24}\|old$/, '... and after DISCARD ALL, prepared again, it runs');
as_app(q{INSERT INTO dom (made) SELECT 'idgen' FROM generate_series(1, 100)});
is($node->safe_psql('app', "SELECT count(*) FILTER (WHERE id <= $dom_max), count(*) FROM dom WHERE made = 'idgen'"), '0|100',
	'idgen after the move: new Instagram IDs of a domain column above the old');
is($node->safe_psql('app', q{SELECT count(*) FROM doc WHERE made = 'idgen' AND u > ALL (SELECT u FROM doc WHERE made = 'old')}), '100',
	'idgen after the move: UUIDv7 above the old');
is($node->safe_psql('app', q{SELECT count(*), count(DISTINCT id) FROM doc}), '1100|1100', '... and ObjectIds from the default');

# ---- idgen to the edition: a superuser's move runs nothing of hers either ---------------------------
as_app(q{CREATE TABLE spied (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int, CHECK (public.spy('a CHECK on ' || id::text)));
INSERT INTO spied (n) VALUES (1)});
refused_for_code('idgen_sql', 'her CHECK on an objectid column, idgen to the edition', qr/constraint spied_id_check on table (public\.)?spied \(role app\)/);
as_app(q{DROP TABLE spied});

# ---- a default the edition has no function for: refused, nothing changed --------------------------
as_app('ALTER TABLE post ADD COLUMN d bigint; ALTER TABLE post ALTER COLUMN d SET DEFAULT idgen.decimal_id()');
my $with_decimal = $node->safe_psql('app', $defaults_sql);
($ret, $err) = move('idgen_sql');
isnt($ret, 0, 'a default of idgen.decimal_id(): the move to the edition refuses');
like($err, qr/ERROR:  0A000: the default of public\.post\.d cannot move to idgen_sql/, '... 0A000, naming the column');
is(extension(), 'idgen', '... and nothing changed');
is($node->safe_psql('app', $defaults_sql), $with_decimal, '... every default');
as_app('ALTER TABLE post DROP COLUMN d');

# ---- and back --------------------------------------------------------------------------------------
$rows = $node->safe_psql('app', $rows_sql);
$before = maxima();
# (while idgen owns every Instagram shard, the edition would refuse the default of post.ig: refused)
($ret, $err) = move('idgen_sql');
isnt($ret, 0, 'idgen owning every Instagram shard: the move to the edition refuses');
like($err, qr/ERROR:  55000: the SQL edition would refuse the 64-bit defaults of this database.*DETAIL:  instagram IDs: This database owns no Instagram shards/s,
	'... 55000, saying why') or diag $err;
is(extension(), 'idgen', '... and nothing changed');
idgen_shards('4096-8191');
($ret, $err) = move('idgen_sql');
is($ret, 0, 'idgen back to the edition, in place') or diag $err;
is(extension(), 'idgen_sql', '... the edition is installed, idgen is not');
is($node->safe_psql('app', $defaults_sql), $defaults, '... every column default as it was, calling the edition');
is($node->safe_psql('app', $types_sql), 'doc.id:idgen.objectid:idgen_sql, ev.at:idgen.objectid:idgen_sql, ev_1.at:idgen.objectid:idgen_sql',
	'... the objectid columns of the edition\'s type');
is($node->safe_psql('app', $rows_sql), $rows, '... every row as it was');
as_app(q{UPDATE post SET made = 'old'; INSERT INTO post (n, made) SELECT g, 'back' FROM generate_series(1, 100) g;
INSERT INTO doc (made) SELECT 'back' FROM generate_series(1, 100)});
above($before, 'back', 'the edition after the move back');
is($node->safe_psql('app', q{SELECT count(*), count(DISTINCT id) FROM doc}), '1200|1200', '... and ObjectIds from the default');

$app->quit;
$node->stop;
done_testing();
