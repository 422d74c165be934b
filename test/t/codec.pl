# idgen's base32hex of a UUID is PostgreSQL 19's: rtrim(encode(u::bytea, 'base32hex'), '=') for
# 100,000 UUIDs (random, UUIDv7 and the ends), and idgen reads back what core writes, padded or
# not, with any length of padding and spaces between (what decode() reads); and refuses what decode()
# refuses. Before 19 core has no base32hex: idgen's own round trip runs there.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $node = idgen_node('codec', no_preload => 1);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
my $uuids = q{(SELECT gen_random_uuid() AS u FROM generate_series(1, 80000)
  UNION ALL SELECT idgen.uuidv7() FROM generate_series(1, 19998)
  UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'))};
is($node->safe_psql('postgres', "SELECT count(*), count(*) FILTER (WHERE idgen.base32hex_decode_uuid(idgen.base32hex_encode(u)) = u) FROM $uuids s"),
	'100000|100000', 'idgen writes 100,000 UUIDs and reads them back');
if ($node->safe_psql('postgres', 'SHOW server_version_num') >= 190000)
{
	is($node->safe_psql('postgres',
			"SELECT count(*) FILTER (WHERE idgen.base32hex_encode(u) = rtrim(encode(u::bytea, 'base32hex'), '=')), "
			  . "count(*) FILTER (WHERE idgen.base32hex_decode_uuid(encode(u::bytea, 'base32hex')) = u), "
			  . "count(*) FILTER (WHERE decode(idgen.base32hex_encode(u), 'base32hex') = u::bytea) FROM $uuids s"),
		'100000|100000|100000',
		"PostgreSQL 19: idgen's text is core's for 100,000 UUIDs, each reads the other's");

	# Every text core's decode() reads as 16 bytes, idgen reads as the same uuid, and what decode()
	# refuses idgen refuses (22P02): 1,000 UUIDs, each with every length of padding from 0 to 12, with
	# spaces, tabs and newlines between its characters, with a digit after its padding, and with '='
	# after 25 digits.
	$node->safe_psql('postgres', q{
CREATE FUNCTION core_uuid(t text) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE b bytea;
BEGIN
  b := decode(t, 'base32hex');
  RETURN CASE WHEN length(b) = 16 THEN encode(b, 'hex')::uuid END;
EXCEPTION WHEN invalid_parameter_value THEN
  RETURN NULL;
END $$;
CREATE FUNCTION idgen_uuid(t text) RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
  RETURN idgen.base32hex_decode_uuid(t);
EXCEPTION WHEN invalid_text_representation THEN
  RETURN NULL;
END $$;
CREATE TABLE texts AS
SELECT u, v.t FROM (SELECT u, rtrim(encode(u::bytea, 'base32hex'), '=') AS d
                    FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 1000)) g) s,
LATERAL (SELECT d || repeat('=', p) FROM generate_series(0, 12) AS p
         UNION ALL SELECT regexp_replace(d, '(...)', '\1 ' || chr(9), 'g') || chr(10) || '==='
         UNION ALL SELECT d || '==0'
         UNION ALL SELECT left(d, 25) || '=') AS v(t);
});
	is($node->safe_psql('postgres',
			"SELECT count(*), count(*) FILTER (WHERE core_uuid(t) IS NOT DISTINCT FROM idgen_uuid(t)), "
			  . "count(*) FILTER (WHERE idgen_uuid(t) IS NOT NULL), count(*) FILTER (WHERE idgen_uuid(t) = u) FROM texts"),
		'16000|16000|14000|14000',
		"PostgreSQL 19: idgen reads every padding and spacing decode() reads, as the same uuid, and refuses what it refuses");
}
else
{
	pass('PostgreSQL ' . $node->safe_psql('postgres', 'SHOW server_version') . ' has no base32hex to compare with (19 has)');
}
$node->stop;
done_testing();
