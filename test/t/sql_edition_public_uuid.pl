# The SQL edition's public UUIDs (edition/idgen_sql--1.0--1.1.sql, appended to the edition) against
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

# The edition as its plain script, then the fragment, as the edition's build will append it.
my $script = PostgreSQL::Test::Utils::tempdir . '/idgen_sql.sql';
system("'$root/edition/build.sh' script > '$script'") == 0 or die 'edition/build.sh failed';
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('ed'), '-f', $script ],
	'the edition installs');
$node->command_ok(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('ed'), '-c',
		'SET search_path = pg_catalog, pg_temp', '-f', "$root/edition/idgen_sql--1.0--1.1.sql" ],
	'the public UUIDs of edition 1.1 install over it');

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
same('typeids, base32, base36 and the bare body', "SELECT idgen.public_typeid(t KEY), idgen.private_typeid(idgen.public_typeid(t KEY) KEY)
  FROM (SELECT CASE i % 3 WHEN 0 THEN idgen.typeid_from_uuid('user', v7(i), 'base32') WHEN 1 THEN idgen.typeid_from_uuid('user', v7(i))
               ELSE substr(idgen.typeid_from_uuid('x', v7(i), 'base32'), 3) END AS t FROM generate_series(1, $fifth) i) s");
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
  ($$idgen.private_typeid('User_01hyttsxmaftfrgzxv38p4tqkf' KEY)$$), ($$idgen.public_typeid('user_' KEY)$$),
  ($$idgen.public_typeid('01hyttsxmaftfrgzxv38p4tqk' KEY)$$), ($$idgen.public_typeid('user_2463c7807fca4def8c3f7b1a2c' KEY)$$),
  ($$idgen.private_typeid('user_01hyttsxmaftfrgzxv38p4tqkf' KEY)$$), ($$idgen.public_typeid('01hyttsxmaftfrgzxv38p4tqkf' KEY)$$)) AS t(e)});

# ---- keys that rotate: the opaque mapping first, uuidv47's second -------------------------------------
$key = "opaque:000102030405060708090a0b0c0d0e0f efcdab8967452301:1032547698badcfe";
set_key($key, 'f5c7cc53-8c55-4028-8c14-8be10aff10c8');
same("the opaque mapping, $fifth UUIDv7s", "SELECT idgen.public_uuid(v7(i) KEY), idgen.private_uuid(idgen.public_uuid(v7(i) KEY) KEY)
  FROM generate_series(1, $fifth) i");
same("two keys: the candidates of $fifth façades made under the second", "SELECT idgen.private_uuid_candidates(f KEY), idgen.private_uuid(f KEY)
  FROM old ORDER BY i");

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

# ---- who may call them: PUBLIC (the key is the capability), and they are pure -------------------------
is($node->safe_psql('ed', q{SELECT string_agg(DISTINCT p.provolatile::text || p.proparallel::text || (p.proacl IS NULL)::text, ',')
  FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname ~ '^(public|private)_(uuid|typeid)'}), 'istrue',
	'IMMUTABLE, PARALLEL SAFE, PUBLIC');

$node->stop;
done_testing();
