# The SQL edition's public UUIDs (edition/idgen_sql--1.0--1.1.sql, part of edition 1.1) against
# idgen's, the reference: one cluster, idgen in database ref (its key in idgen.public_uuid_key), the
# edition and the fragment in database ed (the same key's text as an argument). For the same input,
# every function returns what idgen returns (IDGEN_EDITION_ROWS inputs, 100,000 by default, for
# uuidv47's mapping; a fifth of that for the opaque one and for typeids, whose PL/pgSQL costs more),
# and the same SQLSTATE for bad input.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $root = dirname(__FILE__) . '/../..';
my $n = $ENV{IDGEN_EDITION_ROWS} // 100000;
my $fifth = int($n / 5) || 1;

my $node = idgen_node('edition_public_uuid');
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE ref; CREATE DATABASE ed');
$node->safe_psql('ref', 'CREATE EXTENSION idgen');

# The edition as its plain script (1.1: 1.0's body and the update, public UUIDs included).
my $script = PostgreSQL::Test::Utils::tempdir . '/idgen_sql.sql';
system("'$root/edition/build.sh' script > '$script'") == 0 or die 'edition/build.sh failed';
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('ed'), '-f', $script ],
	'the edition installs');

for my $db ('ref', 'ed') {
	$node->safe_psql($db, q{
CREATE FUNCTION public.try(expr text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE 'SELECT (' || expr || ')::text' INTO r;
  RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR ' || SQLSTATE;
END $$;
-- UUIDv7s of fixed bits, times below 2^42 ms (a façade's), and random UUIDv4s.
CREATE FUNCTION public.v7(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE
  RETURN overlay(overlay(overlay(md5('v7' || i) placing lpad(to_hex(i % 64), 3, '0') from 1 for 3) placing '7' from 13 for 1)
                 placing substr('89ab', (i % 4)::int + 1, 1) from 17 for 1)::uuid;
-- An error's SQLSTATE, message, detail and hint, for the errors compared word for word.
CREATE FUNCTION public.error_of(expr text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text; m text; d text; h text;
BEGIN
  EXECUTE 'SELECT (' || expr || ')::text';
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
  RETURN concat_ws(' | ', s, m, d, h);
END $$;
CREATE FUNCTION public.v4(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE
  RETURN overlay(overlay(md5('v4' || i) placing '4' from 13 for 1) placing substr('89ab', (i % 4)::int + 1, 1) from 17 for 1)::uuid;
});
}

# Sets idgen's key, and waits until a session reads it.
sub set_key {
	my ($key, $facade_of_zero) = @_;
	$node->safe_psql('ref', "ALTER SYSTEM SET idgen.public_uuid_key = '$key'; SELECT pg_reload_conf()");
	$node->poll_query_until('ref', "SELECT idgen.public_uuid('00000000-0000-7000-8000-000000000000')", $facade_of_zero)
	  or die "the key $key was not read";
}

# The same query in both databases, row for row: KEY is nothing in ref, the key's text in ed.
my $key;
sub same {
	my ($name, $sql) = @_;
	my $ref = $node->safe_psql('ref', $sql =~ s/KEY//gr);
	my $ed = $node->safe_psql('ed', $sql =~ s/KEY/, '$key'/gr);
	my @r = split /\n/, $ref;
	my @e = split /\n/, $ed;
	my $first;
	for my $i (0 .. ($#r > $#e ? $#r : $#e)) {
		if (($r[$i] // '<none>') ne ($e[$i] // '<none>')) { $first = "row $i: idgen '" . ($r[$i] // '<none>') . "', edition '" . ($e[$i] // '<none>') . "'"; last; }
	}
	ok(!defined $first && @r > 0, "$name: " . scalar(@r) . ' rows, the same in both') or diag $first;
}

# ---- uuidv47's mapping, uuidv47's key ---------------------------------------------------------------
$key = 'efcdab8967452301:1032547698badcfe';
set_key($key, '22d97126-9609-4000-8000-000000000000');
same("uuidv47's vectors", q{SELECT idgen.public_uuid(u KEY), idgen.private_uuid(idgen.public_uuid(u KEY) KEY) FROM (VALUES
  ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'::uuid), ('00000000-0000-7000-8000-000000000000'), ('00000000-007b-7aaa-8123-456789abcdef'),
  ('00000010-007b-7aad-9032-547698badcfe'), ('00000020-007b-7aa4-a301-6745ab89efcd'), ('03ffffff-ffff-7fff-bfff-ffffffffffff')) AS v(u)});
is($node->safe_psql('ed', "SELECT idgen.public_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '$key')"),
	'2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', "the edition makes uuidv47's façade of its README's UUIDv7");
same("public_uuid and private_uuid, $n UUIDv7s", "SELECT idgen.public_uuid(v7(i) KEY), idgen.private_uuid(idgen.public_uuid(v7(i) KEY) KEY)
  FROM generate_series(1, $n) i");
same("private_uuid_candidates of $fifth random UUIDv4s", "SELECT try(format(\$f\$idgen.private_uuid_candidates(%L KEY)\$f\$, v4(i))) FROM generate_series(1, $fifth) i");
same('typeids, base32, base36 and the bare body', "SELECT idgen.public_typeid(t KEY), idgen.private_typeid(idgen.public_typeid(t KEY), p KEY),
       try(format(\$f\$idgen.private_typeid(%L, 'usr' KEY)\$f\$, idgen.public_typeid(t KEY)))
  FROM (SELECT CASE i % 3 WHEN 0 THEN idgen.typeid_from_uuid('user', v7(i), 'base32') WHEN 1 THEN idgen.typeid_from_uuid('user', v7(i))
               ELSE substr(idgen.typeid_from_uuid('x', v7(i), 'base32'), 3) END AS t,
               CASE i % 3 WHEN 2 THEN '' ELSE 'user' END AS p FROM generate_series(1, $fifth) i) s");
# What the errors say, word for word, where a reading could be quoted (a prefix swapped) and where
# the edition adds its own words (a façade of no key, too late for a façade).
same('the errors of a swapped prefix, too late, and no key', q{SELECT e FROM (VALUES
  ($$idgen.private_typeid('xyz_01hyttsxmaftfrgzxv38p4tqkf', 'org' KEY)$$), ($$idgen.private_typeid('01hyttsxmaftfrgzxv38p4tqkf', 'org' KEY)$$),
  ($$idgen.private_typeid('org_01hyttsxmaftfrgzxv38p4tqkf', 'Org' KEY)$$), ($$idgen.public_uuid('04000000-0000-7000-8000-000000000000' KEY)$$),
  ($$idgen.private_uuid('fa5ade00-0000-4000-8000-000000000000' KEY)$$)) AS t(c),
  LATERAL (SELECT public.error_of(c) AS e) x});
# (façades under this key, kept in both databases for the rotation below)
for my $db ('ref', 'ed') {
	$node->safe_psql($db, "CREATE TABLE old AS SELECT i, idgen.public_uuid(v7(i)" . ($db eq 'ed' ? ", '$key'" : '') . ") AS f
		FROM generate_series(1, $fifth) i");
}
same('bad input: the same SQLSTATE', q{SELECT try(e) FROM (VALUES
  ($$idgen.public_uuid('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f' KEY)$$), ($$idgen.public_uuid('018f2d9f-9a2a-1def-8c3f-7b1a2c4d5e6f' KEY)$$),
  ($$idgen.public_uuid('018f2d9f-9a2a-7def-cc3f-7b1a2c4d5e6f' KEY)$$), ($$idgen.public_uuid('04000000-0000-7000-8000-000000000000' KEY)$$),
  ($$idgen.public_uuid('ffffffff-ffff-7fff-bfff-ffffffffffff' KEY)$$), ($$idgen.private_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f' KEY)$$),
  ($$idgen.private_uuid('00000000-0000-0000-0000-000000000000' KEY)$$), ($$idgen.private_uuid('fa5ade00-0000-4000-8000-000000000000' KEY)$$),
  ($$idgen.private_uuid_candidates('fa5ade00-0000-4000-8000-000000000000' KEY)$$), ($$idgen.public_typeid('user_01hyttsxmaftfrgzxv38p4tqkff' KEY)$$),
  ($$idgen.private_typeid('User_01hyttsxmaftfrgzxv38p4tqkf', 'user' KEY)$$), ($$idgen.public_typeid('user_' KEY)$$),
  ($$idgen.public_typeid('01hyttsxmaftfrgzxv38p4tqk' KEY)$$), ($$idgen.public_typeid('user_2463c7807fca4def8c3f7b1a2c' KEY)$$),
  ($$idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf', 'user' KEY)$$), ($$idgen.public_typeid('01hyttsxmaftfrgzxv38p4tqkf' KEY)$$),
  ($$idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf', 'xyz' KEY)$$), ($$idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf', '' KEY)$$),
  ($$idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf', 'Bad' KEY)$$)) AS t(e)});

# ---- keys that rotate: the opaque mapping first, uuidv47's second -------------------------------------
$key = "opaque:000102030405060708090a0b0c0d0e0f efcdab8967452301:1032547698badcfe";
set_key($key, 'f5c7cc53-8c55-4028-8c14-8be10aff10c8');
same("the opaque mapping, $fifth UUIDv7s", "SELECT idgen.public_uuid(v7(i) KEY), idgen.private_uuid(idgen.public_uuid(v7(i) KEY) KEY)
  FROM generate_series(1, $fifth) i");
same("two keys: the candidates of $fifth façades made under the second", "SELECT idgen.private_uuid_candidates(f KEY), idgen.private_uuid(f KEY)
  FROM old ORDER BY i");
same('two keys: what a refusal says', q{SELECT public.error_of($$idgen.private_uuid('fa5ade00-0000-4000-8000-000000000000' KEY)$$)});

# ---- the key's text: what idgen refuses (55000, its configuration), the edition refuses (22023) -----
for my $bad ('', 'a passphrase of thirty-two bytes or more is not a key', '000102030405060708090a0b0c0d0e0',
	'sealed:000102030405060708090a0b0c0d0e0f', '000102030405060708090a0b0c0d0e0g',
	'000102030405060708090a0b0c0d0e0f 000102030405060708090a0b0c0d0e0f 000102030405060708090a0b0c0d0e0f') {
	is($node->safe_psql('ed', "SELECT try(\$\$idgen.public_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '$bad')\$\$)"), 'ERROR 22023',
		"the edition refuses the key text '$bad'");
}
my ($state, $message) = sqlstate_of($node, q{SELECT idgen.public_uuid('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', 'sealed:000102030405060708090a0b0c0d0e0f')},
	db => 'ed');
like($message, qr/^the first key is not a key as idgen reads it/, "and says why, without quoting it: $message");

# ---- the key as an argument: where the server may write it -------------------------------------------
# A bind parameter is a constant of a custom plan: auto_explain with log_verbose (as EXPLAIN VERBOSE)
# prints it, whatever log_statement and log_parameter_max_length say (security.md says so). With
# plan_cache_mode = force_generic_plan the plan keeps $1, and auto_explain.log_parameter_max_length
# = 0 (from 16) keeps the parameters out of its lines.
SKIP: {
	skip 'auto_explain is not installed for this server', 2 unless -e $node->config_data('--pkglibdir') . '/auto_explain.so';
	my $script = PostgreSQL::Test::Utils::tempdir . '/facade.sql';
	open my $fh, '>', $script or die;
	print $fh "SELECT idgen.public_uuid(id, :k) FROM shown;\n";
	close $fh;
	$node->safe_psql('ed', 'CREATE TABLE shown AS SELECT v7(1) AS id');
	$node->safe_psql('postgres', q{LOAD 'auto_explain'; ALTER SYSTEM SET session_preload_libraries = 'auto_explain';
		ALTER SYSTEM SET auto_explain.log_min_duration = 0; ALTER SYSTEM SET auto_explain.log_verbose = on;
		ALTER SYSTEM SET log_statement = 'none'; ALTER SYSTEM SET log_parameter_max_length = 0;
		ALTER SYSTEM SET log_parameter_max_length_on_error = 0; SELECT pg_reload_conf()});
	$node->poll_query_until('ed', "SELECT current_setting('auto_explain.log_verbose', true) = 'on'") or die;
	my %run;
	for my $generic (0, 1) {
		my $k = $generic ? '0f0e0d0c0b0a09080706050403020100' : 'efcdab8967452301:1032547698badcf1';
		if ($generic) {
			$node->safe_psql('ed', 'ALTER DATABASE ed SET plan_cache_mode = force_generic_plan'
				. ($node->pg_version >= 16 ? '; ALTER DATABASE ed SET auto_explain.log_parameter_max_length = 0' : ''));
		}
		my $offset = -s $node->logfile;
		$node->command_ok([ 'pgbench', '-n', '-M', 'extended', '-t', '1', '-f', $script, '-D', "k=$k", $node->connstr('ed') ],
			'a façade made with the key as a bind parameter' . ($generic ? ', under a generic plan' : ''));
		$node->wait_for_log(qr/Query Text: SELECT idgen\.public_uuid\(id/, $offset);
		$run{$generic} = index(substr(slurp_file($node->logfile), $offset), $k) >= 0;
	}
	ok($run{0}, "a custom plan: auto_explain's log holds the key (the limitation security.md names)");
	ok(!$run{1}, 'force_generic_plan (and, from 16, auto_explain.log_parameter_max_length = 0): it does not');
	$node->safe_psql('postgres', q{ALTER SYSTEM RESET ALL; ALTER DATABASE ed RESET ALL; SELECT pg_reload_conf()});
}

# ---- who may call them: PUBLIC (the key is the capability), and they are pure -------------------------
is($node->safe_psql('ed', q{SELECT string_agg(DISTINCT p.provolatile::text || p.proparallel::text || (p.proacl IS NULL)::text, ',')
  FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname ~ '^(public|private)_(uuid|typeid)'}), 'istrue',
	'IMMUTABLE, PARALLEL SAFE, PUBLIC');

$node->stop;
done_testing();
