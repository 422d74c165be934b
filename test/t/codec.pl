# idgen's base32hex of a UUID is PostgreSQL 19's: rtrim(encode(u::bytea, 'base32hex'), '=') for
# 100,000 UUIDs (random, UUIDv7 and the ends), and idgen reads back what core writes, padded or
# not (issue 28, item 4). Before 19 core has no base32hex: idgen's own round trip runs there.
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
}
else
{
	pass('PostgreSQL ' . $node->safe_psql('postgres', 'SHOW server_version') . ' has no base32hex to compare with (19 has)');
}
$node->stop;
done_testing();
