# The SQL edition (idgen_sql, edition/) against idgen, the reference: one cluster, idgen in database
# ref, the edition in database ed. Every encoder, decoder and bound the edition has returns what
# idgen returns for the same input (100,000 inputs a family, compared row for row through psql's
# output), and the same SQLSTATE for bad input; IDs made by either decode with the other; the
# known-answer vectors of ../shared/vectors.md and the specs. Then the three ways it installs:
# CREATE EXTENSION, the plain script, pg_tle by a role without superuser; and the two refuse each
# other in one database. (idgen and the edition share the server, as Instagram shards cannot: idgen
# owns 0 to 4095 here, the edition's database the rest.)
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $n = $ENV{IDGEN_EDITION_ROWS} // 100000;
my $tle = $ENV{IDGEN_PG_TLE};  # scripts/pg_tle-build.sh's staged tree for this major

my $node = idgen_node('edition', conf => "idgen.instagram_shards = '0-4095'");
if ($tle) {
	# pg_tle into this test's private install (make prove_check's tmp_install)
	my $pkglib = $node->config_data('--pkglibdir');
	my $share = $node->config_data('--sharedir');
	system('cp', "$tle/lib/pg_tle.so", "$pkglib/") == 0 or die "cannot copy pg_tle.so to $pkglib";
	system("cp $tle/extension/pg_tle* '$share/extension/'") == 0 or die 'cannot copy pg_tle';
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen,pg_tle'");
}
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE ref; CREATE DATABASE ed');
$node->safe_psql('ref', 'CREATE EXTENSION idgen');
$node->safe_psql('ed', 'CREATE EXTENSION idgen_sql');

# try(expression): its value as text, or 'ERROR <sqlstate>'; the same helper in both databases.
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
CREATE FUNCTION public.u(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE RETURN md5('u' || i)::uuid;
CREATE FUNCTION public.b(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE
  RETURN (('x' || substr(md5('b' || i), 1, 16))::bit(64)::bigint & 9223372036854775807) >> (i % 63)::int;
CREATE FUNCTION public.t(i bigint, lo bigint, hi bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE
  RETURN timestamptz 'epoch' + (lo + ('x' || substr(md5('t' || i), 1, 15))::bit(60)::bigint % (hi - lo)) * interval '1 microsecond';
CREATE FUNCTION public.v7(u uuid) RETURNS uuid LANGUAGE sql IMMUTABLE
  RETURN overlay(overlay(u::text placing '7' from 15 for 1) placing substr('89ab', (get_byte(uuid_send(u), 9) % 4) + 1, 1) from 20 for 1)::uuid;
});
}

# The same query in both databases, row for row.
sub same {
	my ($name, $sql) = @_;
	my $ref = $node->safe_psql('ref', $sql);
	my $ed = $node->safe_psql('ed', $sql);
	my @r = split /\n/, $ref;
	my @e = split /\n/, $ed;
	my $first;
	for my $i (0 .. ($#r > $#e ? $#r : $#e)) {
		if (($r[$i] // '<none>') ne ($e[$i] // '<none>')) { $first = "row $i: idgen '" . ($r[$i] // '<none>') . "', edition '" . ($e[$i] // '<none>') . "'"; last; }
	}
	ok(!defined $first && @r > 0, "$name: " . scalar(@r) . ' rows, the same in both') or diag $first;
}

my $series = "generate_series(1, $n) i";

# ---- codecs ----------------------------------------------------------------------------------------
same('base16/36/62 and base32hex of uuids', "SELECT idgen.base16_encode(u(i)), idgen.base36_encode(u(i)), idgen.base62_encode(u(i)),
  idgen.base32hex_encode(u(i)), idgen.base16_decode_uuid(upper(idgen.base16_encode(u(i)))), idgen.base36_decode_uuid(upper(idgen.base36_encode(u(i)))),
  idgen.base62_decode_uuid(idgen.base62_encode(u(i))), idgen.base32hex_decode_uuid(lower(idgen.base32hex_encode(u(i))) || '======'),
  idgen.base36_decode_uuid(ltrim(idgen.base36_encode(u(i)), '0')) FROM $series");
same('base16/36/62 of bigints', "SELECT idgen.base16_encode(b(i)), idgen.base36_encode(b(i)), idgen.base62_encode(b(i)),
  idgen.base16_decode_bigint(idgen.base16_encode(b(i))), idgen.base36_decode_bigint(upper(idgen.base36_encode(b(i)))),
  idgen.base62_decode_bigint(idgen.base62_encode(b(i))), idgen.is_js_safe(b(i)), idgen.is_js_safe(b(i) >> 10) FROM $series");

# ---- UUIDv7 ----------------------------------------------------------------------------------------
same('uuidv7_min, uuidv7_time, uuidv7_text_time', "SELECT idgen.uuidv7_min(t(i, 0, 253402300799999999)), idgen.uuidv7_time(idgen.uuidv7_min(t(i, 0, 253402300799999999))),
  idgen.uuidv7_time(v7(u(i))), idgen.uuidv7_text_time(v7(u(i))::text), idgen.uuidv7_text_time(replace(upper(v7(u(i))::text), '-', '')) FROM $series");

# ---- ULID ------------------------------------------------------------------------------------------
same('ULID text, uuid, time, bounds', "SELECT idgen.ulid_from_uuid(u(i)), idgen.ulid_to_uuid(idgen.ulid_from_uuid(u(i))),
  idgen.ulid_to_uuid(translate(lower(idgen.ulid_from_uuid(u(i))), '01', 'ol')), idgen.ulid_time(u(i)), idgen.ulid_time(idgen.ulid_from_uuid(u(i))),
  idgen.ulid_min(t(i, 0, 253402300799999999)), idgen.ulid_min_uuid(t(i, 0, 253402300799999999)) FROM $series");

# ---- typeid ----------------------------------------------------------------------------------------
my $prefix = q{(ARRAY['user', 'a', 'post_comment', 'x_y_z', repeat('ab', 31) || 'c', 'order'])[i % 6 + 1]};
same('typeid from uuid, parse, uuid, time, valid, min', "SELECT p, idgen.typeid_from_uuid(p, u(i)), idgen.typeid_from_uuid(p, u(i), 'base32'),
  idgen.typeid_parse(idgen.typeid_from_uuid(p, u(i), 'base32')), idgen.typeid_parse(p || '_' || idgen.base36_encode(u(i))),
  idgen.typeid_uuid(idgen.typeid_from_uuid(p, u(i)), p), idgen.typeid_time(idgen.typeid_from_uuid(p, v7(u(i)), 'base32')),
  idgen.typeid_is_valid(idgen.typeid_from_uuid(p, u(i)), p), idgen.typeid_is_valid(idgen.typeid_from_uuid(p, u(i)), 'other'),
  idgen.typeid_is_valid(idgen.base32hex_encode(u(i)), ''), idgen.typeid_parse(lower(idgen.ulid_from_uuid(u(i)))),
  idgen.typeid_min(p, t(i, 0, 253402300799999999)), idgen.typeid_min(p, t(i, 0, 253402300799999999), 'base32')
  FROM $series, LATERAL (SELECT $prefix AS p) x");

# ---- the 64-bit layouts ----------------------------------------------------------------------------
# (bounds over each family's whole range of time; decoders over every bigint of its width)
my %range = (instagram => [1314220021721000, 1314220021721000 + (2**40) * 1000], snowflake => [1288834974657000, 1288834974657000 + (2**41) * 1000],
	sonyflake => [1409529600000000, 1409529600000000 + (2**39) * 10000], trace => [0, 9000000000000000], js => [1767225600000000, 1767225600000000 + (2**38) * 10000]);
my %width = (instagram => 63, snowflake => 63, sonyflake => 63, trace => 63, js => 53);
for my $f (sort keys %range) {
	my ($lo, $hi) = @{ $range{$f} };
	same("$f: parse and min", "SELECT idgen.${f}_parse(b(i) >> (63 - $width{$f})), idgen.${f}_min(t(i, $lo, $hi)),
	  idgen.${f}_parse(idgen.${f}_min(t(i, $lo, $hi))) FROM $series");
	same("$f: parse and min under another epoch", "SET idgen.${f}_epoch_ms = 1000000000000; SELECT idgen.${f}_parse(b(i) >> (63 - $width{$f})),
	  idgen.${f}_min(t(i, 1000000000000000, 1000000000000000 + $hi - $lo)) FROM generate_series(1, 1000) i");
}

# epoch settings as idgen reads them (strtoll: spaces and a sign before the digits)
for my $setting ('+5', ' 1288834974657', '+0001288834974657', '-0') {
	same("snowflake_parse under the epoch setting '$setting'", "SET idgen.snowflake_epoch_ms = '$setting'; SELECT idgen.snowflake_parse(b(i)), idgen.snowflake_min(t(i, 1288834974657000, 2000000000000000))
	  FROM generate_series(1, 1000) i");
}

# ---- ObjectId --------------------------------------------------------------------------------------
same('objectid time, min, bytes', "SELECT o, idgen.objectid_time(o::idgen.objectid), idgen.objectid_min(t(i, 0, 4294967296000000)),
  idgen.objectid_to_bytea(o::idgen.objectid), idgen.objectid_from_bytea(decode(o, 'hex'))
  FROM $series, LATERAL (SELECT substr(md5('o' || i), 1, 24) AS o) x");

# ---- bad input: the same SQLSTATE ------------------------------------------------------------------
my @bad = (
	(map { ("idgen.base${_}_decode_uuid('')", "idgen.base${_}_decode_uuid('" . ('z' x 40) . "')", "idgen.base${_}_decode_uuid('12-4')",
		  "idgen.base${_}_decode_bigint('')", "idgen.base${_}_decode_bigint('" . ('1' x 30) . "')", "idgen.base${_}_decode_bigint('é')") } (16, 36, 62)),
	"idgen.base36_decode_uuid('f5lxx1zz5pnorynqglhzmsp34')", "idgen.base62_decode_uuid('zzzzzzzzzzzzzzzzzzzzzz')",
	"idgen.base16_decode_bigint('ffffffffffffffff')", "idgen.base36_decode_bigint('3w5e11264sgsf')", "idgen.base62_decode_bigint('zzzzzzzzzzz')",
	"idgen.base16_encode(-1::bigint)", "idgen.base36_encode(-5::bigint)", "idgen.base62_encode(-9223372036854775808::bigint)",
	"idgen.base32hex_decode_uuid('')", "idgen.base32hex_decode_uuid('05VI5OJPM1UC7664RG60O1PPHT')", "idgen.base32hex_decode_uuid('05VI5OJPM1UC7664RG60O1PPHW')",
	"idgen.base32hex_decode_uuid('05VI5OJPM1UC7664RG60O1PPH')", "idgen.base32hex_decode_uuid('05VI5OJPM1UC7664RG60O1PPHS=====')",
	"idgen.uuidv7_time('017f22e2-79b0-4cc3-98c4-dc0c0c07398f')", "idgen.uuidv7_time('017f22e2-79b0-7cc3-08c4-dc0c0c07398f')",
	"idgen.uuidv7_min('1969-12-31 23:59:59.999999+00')", "idgen.uuidv7_min('infinity')", "idgen.uuidv7_min('10889-08-02 05:31:50.656+00')",
	"idgen.uuidv7_text_time('not a uuid')", "idgen.uuidv7_text_time('017f22e2-79b0-4cc3-98c4-dc0c0c07398f')",
	"idgen.ulid_to_uuid('')", "idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FA')", "idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAU')",
	"idgen.ulid_to_uuid('81ARZ3NDEKTSV4RRFFQ69G5FAV')", "idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAé')", "idgen.ulid_time('zz')",
	"idgen.ulid_min('1969-12-31 23:59:59.999+00')", "idgen.ulid_min('-infinity')",
	"idgen.typeid_parse('')", "idgen.typeid_parse('user')", "idgen.typeid_parse('User_036twi214qwj7mgsvq83nm8wf')", "idgen.typeid_parse('_036twi214qwj7mgsvq83nm8wf')",
	"idgen.typeid_parse('user__036twi214qwj7mgsvq83nm8wf')", "idgen.typeid_parse('user_036twi214qwj7mgsvq83nm8w')", "idgen.typeid_parse('user_036twi214qwj7mgsvq83nm8w!')",
	"idgen.typeid_parse('user_81h455vb4pex5vsknk084sn02q')", "idgen.typeid_parse('user_f5lxx1zz5pnorynqglhzmsp34')", "idgen.typeid_parse('user_01H455VB4PEX5VSKNK084SN02Q')",
	"idgen.typeid_parse('" . ('a' x 64) . "_01h455vb4pex5vsknk084sn02q')", "idgen.typeid_parse('01h455vb4pex5vsknk084sn02u')",
	"idgen.typeid_uuid('user_01h455vb4pex5vsknk084sn02q', 'post')", "idgen.typeid_uuid('01h455vb4pex5vsknk084sn02q', '')",
	"idgen.typeid_time('user_' || idgen.base36_encode('017f22e2-79b0-4cc3-98c4-dc0c0c07398f'::uuid))", "idgen.typeid_time('user_7zzzzzzzzzzzzzzzzzzzzzzzzz')",
	"idgen.typeid_from_uuid('', gen_random_uuid())", "idgen.typeid_from_uuid('User', gen_random_uuid())", "idgen.typeid_from_uuid('user', gen_random_uuid(), 'base64')",
	"idgen.typeid('bad-prefix')", "idgen.typeid('user', true, 'base58')", "idgen.typeid_min('user', 'infinity')", "idgen.typeid_min('a_', now())",
	"idgen.typeid_is_valid('', '')", "idgen.typeid_is_valid('user_x', 'user')",
	(map { ("idgen.${_}_parse(-1)", "idgen.${_}_min('1960-01-01+00')", "idgen.${_}_min('infinity')", "idgen.${_}_min('200000-01-01+00')") }
		qw(instagram snowflake sonyflake trace js)),
	"idgen.js_parse(9007199254740992)", "idgen.instagram_id(-1)", "idgen.instagram_id(8192)",
	"idgen.objectid_time('507F191E810C19729DE860EA')", "idgen.objectid_time('507f191e810c19729de860e')", "idgen.objectid_min('1969-12-31 23:59:59+00')",
	"idgen.objectid_min('2106-02-07 06:28:16+00')", "idgen.objectid_from_bytea('\\x0102')", "idgen.objectid(timestamptz '2200-01-01+00')",
	# ObjectId text: every invalid text is 22P02 (the type's input), uppercase a difference by design
	"'507F191E810C19729DE860EA'::idgen.objectid", "'507f191e810c19729de860e'::idgen.objectid", "'507f191e810c19729de860ea0'::idgen.objectid",
	"'507f191e810c19729de860eg'::idgen.objectid", "''::idgen.objectid", "' 507f191e810c19729de860e'::idgen.objectid",
	# the largest and smallest timestamptz: 22008 for every bound and generator of a time
	(map { ("idgen.${_}('294276-12-31 23:59:59.999999+00')", "idgen.${_}('4714-11-24 00:00:00+00 BC')") }
		qw(uuidv7_min ulid_min ulid_min_uuid objectid_min instagram_min snowflake_min sonyflake_min trace_min js_min uuidv7 objectid)),
	"idgen.typeid_min('user', '294276-12-31 23:59:59.999999+00')", "idgen.typeid_min('user', '294276-12-31 23:59:59.999999+00', 'base32')",
	"idgen.typeid_min('', '294276-12-31 23:59:59.999999+00', 'base32')",
	# the empty prefix: the spec's bare base32 body, no base36 form
	"idgen.typeid('', true, 'base32') IS NOT NULL", "idgen.typeid('', false, 'base32') IS NOT NULL", "idgen.typeid('')", "idgen.typeid('', true, 'base36')",
	"idgen.typeid_from_uuid('', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'base32')", "idgen.typeid_from_uuid('', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'base36')",
	"idgen.typeid_min('', '2022-02-22 19:22:22+00', 'base32')", "idgen.typeid_min('', '2022-02-22 19:22:22+00')",
	"idgen.typeid_parse(idgen.typeid('', true, 'base32'))",
	# a shift of calendar time: months and years as the calendar has them
	(map { ("idgen.uuidv7_time(idgen.uuidv7(interval '$_')) - (clock_timestamp() + interval '$_') BETWEEN interval '-2 seconds' AND interval '2 seconds'") }
		('1 month', '1 year', '-13 months', '2 years 3 days', '1 month 31 days')),
	"idgen.uuidv7(interval '-100 years')", "idgen.uuidv7(interval '9000 years')", "idgen.uuidv7(interval '100000 years')",
	# (infinite intervals, from PostgreSQL 17: 22008; before it, both refuse the text)
	"idgen.uuidv7('infinity'::interval)", "idgen.uuidv7('-infinity'::interval)");
my $list = join(",\n", map { my $e = $_; $e =~ s/'/''/g; "('$e')" } @bad);
my $errors_ref = $node->safe_psql('ref', "SELECT e || ' => ' || regexp_replace(try(e), '^(ERROR .....).*', '\\1') FROM (VALUES $list) v(e)");
my $errors_ed = $node->safe_psql('ed', "SELECT e || ' => ' || regexp_replace(try(e), '^(ERROR .....).*', '\\1') FROM (VALUES $list) v(e)");
my %ref_err = map { split / => /, $_, 2 } split /\n/, $errors_ref;
my @differ;
for (split /\n/, $errors_ed) {
	my ($e, $r) = split / => /, $_, 2;
	my $want = $ref_err{$e} // '';
	# (values of generators differ; what matters is that both fail or both succeed)
	next if $want !~ /^ERROR/ && $r !~ /^ERROR/ && $e =~ /gen_random_uuid|idgen\.typeid\(|idgen\.objectid\(|_id\(|^idgen\.uuidv7\(/;
	push @differ, "$e: idgen $want, edition $r" if $want ne $r;
}
# Where the edition answers otherwise by design (its objectid is a domain over lowercase text:
# idgen reads uppercase too).
my %known = map { $_ => 1 } ("idgen.objectid_time('507F191E810C19729DE860EA')", "'507F191E810C19729DE860EA'::idgen.objectid");
my @unknown = grep { my ($e) = split /: idgen/, $_; !$known{$e} } @differ;
is(scalar(@unknown), 0, scalar(@bad) . ' bad inputs: the same SQLSTATE in both, but for uppercase ObjectId text')
  or diag join("\n", @unknown);
note "expected differences: $_" for grep { my ($e) = split /: idgen/, $_; $known{$e} } @differ;

# ---- IDs made by either decode with the other --------------------------------------------------------
my %gen = (
	uuidv7 => ['idgen.uuidv7()', 'idgen.uuidv7_time(x::uuid)'],
	uuidv7_shift => ["idgen.uuidv7(interval '-1 day')", 'idgen.uuidv7_time(x::uuid)'],
	uuidv7_at => ["idgen.uuidv7(t(i, 0, 4102444800000000))", 'idgen.uuidv7_time(x::uuid)'],
	ulid => ['idgen.ulid()', 'idgen.ulid_to_uuid(x), idgen.ulid_time(x)'],
	ulid_uuid => ['idgen.ulid_uuid()', 'idgen.ulid_from_uuid(x::uuid), idgen.ulid_time(x::uuid)'],
	typeid => ["idgen.typeid('user')", "idgen.typeid_parse(x), idgen.typeid_time(x)"],
	typeid32 => ["idgen.typeid('user', true, 'base32')", "idgen.typeid_parse(x), idgen.typeid_time(x)"],
	typeid4 => ["idgen.typeid('user', false)", "idgen.typeid_parse(x), idgen.typeid_is_valid(x, 'user')"],
	instagram => ['idgen.instagram_id(SHARD_BASE + i % 4096)', 'idgen.instagram_parse(x::bigint)'],
	snowflake => ['idgen.snowflake_id()', 'idgen.snowflake_parse(x::bigint)'],
	sonyflake => ['idgen.sonyflake_id()', 'idgen.sonyflake_parse(x::bigint)'],
	trace => ['idgen.trace_id()', 'idgen.trace_parse(x::bigint)'],
	js => ['idgen.js_id()', 'idgen.js_parse(x::bigint), idgen.is_js_safe(x::bigint)'],
	objectid => ['idgen.objectid()', 'idgen.objectid_time(x::idgen.objectid), idgen.objectid_to_bytea(x::idgen.objectid)'],
	objectid_at => ["idgen.objectid(t(i, 0, 4102444800000000))", 'idgen.objectid_time(x::idgen.objectid)'],
);
for my $g (sort keys %gen) {
	my ($make, $decode) = @{ $gen{$g} };
	for my $from ('ed', 'ref') {
		my $ids = $node->safe_psql($from, 'SELECT ' . ($make =~ s/SHARD_BASE/$from eq 'ed' ? 4096 : 0/er) . ' FROM generate_series(1, 2000) i');
		my @ids = split /\n/, $ids;
		my %seen;
		$seen{$_}++ for @ids;
		is(scalar(keys %seen), 2000, "$g made by " . ($from eq 'ed' ? 'the edition' : 'idgen') . ': 2000 distinct');
		my $values = join(',', map { "('$_')" } @ids);
		my $q = "SELECT x, $decode FROM (VALUES $values) v(x)";
		my $a = $node->safe_psql('ref', $q);
		my $b = $node->safe_psql('ed', $q);
		is($b, $a, "$g made by " . ($from eq 'ed' ? 'the edition decodes with idgen' : 'idgen decodes with the edition') . ', the same');
	}
}

# ---- the vectors -------------------------------------------------------------------------------------
my @vectors = (
	["idgen.uuidv7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')", '2022-02-22 19:22:22.000797+00'],
	["idgen.uuidv7_min('2022-02-22 19:22:22+00') <= '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'", 't'],
	["idgen.uuidv7_time('01890a5d-ac96-7fff-8000-000000000000')", '2023-06-30 03:34:18.518999+00'],
	["idgen.uuidv7_min(idgen.uuidv7_time('01890a5d-ac96-7fff-8000-000000000000')) <= '01890a5d-ac96-7fff-8000-000000000000'", 't'],
	["idgen.base36_encode('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)", 'f5lxx1zz5pnorynqglhzmsp33'],
	["idgen.base36_encode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid)", '036twi214qwj7mgsvq83nm8wf'],
	["idgen.base36_encode(9223372036854775807)", '1y2p0ij32e8e7'],
	["idgen.typeid_parse('prefix_01h455vb4pex5vsknk084sn02q')", '(prefix,01890a5d-ac96-774b-bcce-b302099a8057)'],
	["idgen.typeid_from_uuid('prefix', '01890a5d-ac96-774b-bcce-b302099a8057', 'base32')", 'prefix_01h455vb4pex5vsknk084sn02q'],
	["idgen.typeid_parse('00000000000000000000000000')", '("",00000000-0000-0000-0000-000000000000)'],
	["idgen.typeid_parse('7zzzzzzzzzzzzzzzzzzzzzzzzz')", '("",ffffffff-ffff-ffff-ffff-ffffffffffff)'],
	["idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')", '01563e3a-b5d3-d676-4c61-efb99302bd5b'],
	["idgen.ulid_time('01ARZ3NDEKTSV4RRFFQ69G5FAV')", '2016-07-30 23:54:10.259+00'],
	["idgen.ulid_from_uuid('ffffffff-ffff-ffff-ffff-ffffffffffff')", '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'],
	["idgen.objectid_time('507f191e810c19729de860ea')", '2012-10-17 20:46:22+00'],
	["idgen.objectid_time('507f1f77bcf86cd799439011')", '2012-10-17 21:13:27+00'],
	["idgen.objectid_time('7fffffff0000000000000000')", '2038-01-19 03:14:07+00'],
	["idgen.objectid_time('800000000000000000000000')", '2038-01-19 03:14:08+00'],
	["idgen.objectid_time('ffffffff0000000000000000')", '2106-02-07 06:28:15+00'],
	["idgen.instagram_parse(2384288897814875714)", '("2020-08-26 13:43:27.313+00",2675,578)'],
	["idgen.snowflake_parse(4329472)", '("2010-11-04 01:42:54.658+00",33,0)'],
	["idgen.snowflake_min('2010-11-04 01:42:54.658+00') | (33 << 12)", '4329472'],
);
for my $v (@vectors) {
	is($node->safe_psql('ed', "SET timezone = UTC; SELECT $v->[0]"), $v->[1], "vector: $v->[0]");
}

# ---- the three doors, and the mutual refusal -----------------------------------------------------------
my ($ret, $out, $err) = $node->psql('ed', 'CREATE EXTENSION idgen');
like($err, qr/the SQL edition of idgen \(idgen_sql\) is installed in this database/, 'idgen refuses a database that has the edition, and says so');
($ret, $out, $err) = $node->psql('ref', 'CREATE EXTENSION idgen_sql');
like($err, qr/idgen is installed in this database/, 'the edition refuses a database that has idgen, and says so');
like($err, qr/HINT:.*docs\/managed\.md/, '... with the way to move between them');

# The plain script, as a role that is no superuser and owns its database.
# (psql reads it from a file, as a user would: a script that stops at its first statement must not
# leave this test writing into a closed pipe)
my $script = PostgreSQL::Test::Utils::tempdir() . '/idgen_sql.sql';
system("edition/build.sh script > '$script'") == 0 or die 'edition/build.sh script failed';
$node->safe_psql('postgres', 'CREATE ROLE app LOGIN; CREATE DATABASE plain OWNER app');
($ret, $out, $err) = $node->psql('plain', '', extra_params => [ '-U', 'app', '-v', 'ON_ERROR_STOP=1', '-f', $script ]);
is($ret, 0, 'the plain script installs as a role without superuser') or diag $err;
is($node->safe_psql('plain', "SELECT idgen.base36_decode_uuid(idgen.base36_encode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid))", extra_params => [ '-U', 'app' ]),
	'017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '... and works');
($ret, $out, $err) = $node->psql('plain', '', extra_params => [ '-U', 'app', '-v', 'ON_ERROR_STOP=1', '-f', $script ]);
like($err, qr/schema "idgen" already exists/, 'the plain script never adopts an existing schema idgen');
# A planted schema idgen: the extension refuses it too.
$node->safe_psql('postgres', 'CREATE DATABASE planted OWNER app');
$node->safe_psql('planted', 'CREATE SCHEMA idgen', extra_params => [ '-U', 'app' ]);
($ret, $out, $err) = $node->psql('planted', 'CREATE EXTENSION idgen_sql', extra_params => [ '-U', 'app' ]);
like($err, qr/schema "idgen" already exists/, 'CREATE EXTENSION idgen_sql (trusted, by the database owner) never adopts a planted schema');
$node->safe_psql('planted', 'DROP SCHEMA idgen', extra_params => [ '-U', 'app' ]);
# Objects planted in public by the owner are not chosen: every call is qualified.
$node->safe_psql('planted', q{
CREATE FUNCTION public.replace(text, text, text) RETURNS text LANGUAGE sql RETURN 'planted';
CREATE FUNCTION public.substr(text, int, int) RETURNS text LANGUAGE sql RETURN 'planted';
CREATE FUNCTION public.lpad(text, int, text) RETURNS text LANGUAGE sql RETURN 'planted';
CREATE EXTENSION idgen_sql;}, extra_params => [ '-U', 'app' ]);
is($node->safe_psql('planted', "SET search_path = public, pg_catalog; SELECT idgen.base16_encode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid), idgen.ulid_min('2016-07-30 23:54:10.259+00')"),
	'017f22e279b07cc398c4dc0c0c07398f|01ARZ3NDEK0000000000000000', 'functions planted in public are never called');

SKIP: {
	skip 'no pg_tle for this major (IDGEN_PG_TLE: scripts/pg_tle-build.sh)', 19 unless $tle;
	# pg_tle installs no extension whose control file the server has: as on a managed service,
	# this server has none of the edition's files from here on.
	# (set aside, and put back for the tests after this one)
	my $share = $node->config_data('--sharedir');
	my $aside = PostgreSQL::Test::Utils::tempdir();
	system("mv '$share'/extension/idgen_sql* '$aside/'") == 0 or die "cannot move idgen_sql's files from $share/extension";
	$node->safe_psql('postgres', 'CREATE ROLE tle_admin LOGIN; CREATE DATABASE tle OWNER tle_admin');
	$node->safe_psql('tle', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO tle_admin');
	is($node->safe_psql('tle', 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user', extra_params => [ '-U', 'tle_admin' ]), 'f', 'the pg_tle role is no superuser');
	my $tle_sql = `edition/build.sh pg_tle`;
	($ret, $out, $err) = $node->psql('tle', $tle_sql . "\nCREATE EXTENSION idgen_sql;", extra_params => [ '-U', 'tle_admin', '-v', 'ON_ERROR_STOP=1' ]);
	is($ret, 0, 'pgtle.install_extension and CREATE EXTENSION idgen_sql as a pgtle_admin member') or diag $err;
	is($node->safe_psql('tle', "SELECT idgen.typeid_from_uuid('prefix', '01890a5d-ac96-774b-bcce-b302099a8057', 'base32'), idgen.snowflake_id() > 0",
		extra_params => [ '-U', 'tle_admin' ]), 'prefix_01h455vb4pex5vsknk084sn02q|t', '... and works');
	$node->safe_psql('postgres', 'CREATE ROLE someone LOGIN');
	is($node->safe_psql('tle', "SELECT idgen.sonyflake_id() > 0 AND idgen.uuidv7() IS NOT NULL", extra_params => [ '-U', 'someone' ]), 't',
		'another role without privileges makes IDs');

	# The edition's functions belong to the pg_tle role, who may replace them (here, to record who calls
	# them): a superuser's move of the database refuses, and runs nothing of hers; she moves it herself.
	is($node->safe_psql('tle', q{SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE oid = 'idgen.snowflake_parse(bigint)'::regprocedure}),
		'tle_admin', 'the edition\'s functions belong to the pg_tle role');
	$node->safe_psql('tle', q{CREATE TABLE public.ran (what text, who name); GRANT INSERT ON public.ran TO PUBLIC});
	$node->safe_psql('tle', q{
CREATE TABLE post (sf bigint PRIMARY KEY DEFAULT idgen.snowflake_id(), made text DEFAULT 'edition');
INSERT INTO post SELECT FROM generate_series(1, 100);
CREATE OR REPLACE FUNCTION idgen.snowflake_parse(id bigint) RETURNS idgen.snowflake_parts LANGUAGE plpgsql AS $$
BEGIN INSERT INTO public.ran VALUES ('snowflake_parse', current_user); RETURN ROW(now(), 0, 0); END $$;
CREATE OR REPLACE FUNCTION idgen.snowflake_id() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN INSERT INTO public.ran VALUES ('snowflake_id', current_user); RETURN idgen.edition_next(2, -1); END $$;
CREATE OR REPLACE FUNCTION idgen.edition_fence(OUT family text, OUT word bigint) RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN INSERT INTO public.ran VALUES ('edition_fence', current_user); END $$;
INSERT INTO post SELECT FROM generate_series(1, 100)}, extra_params => [ '-U', 'tle_admin' ]);
	$node->safe_psql('tle', 'TRUNCATE public.ran');
	my $max = $node->safe_psql('tle', 'SELECT max(sf) FROM post');
	my $move = sub {
		my ($db, $to, @user) = @_;
		my ($out, $err);
		IPC::Run::run([ 'psql', '-X', '-d', $node->connstr($db), @user, '-v', 'ON_ERROR_STOP=1', '-v', 'VERBOSITY=verbose', '-v', "to=$to",
				'-f', 'edition/idgen_move.sql' ], '>', \$out, '2>', \$err);
		return ($? >> 8, $err);
	};
	($ret, $err) = $move->('tle', 'idgen');
	isnt($ret, 0, 'a superuser\'s move of the pg_tle role\'s database refuses');
	like($err, qr/ERROR:  42501: the move would run code of another role as .*DETAIL:  .*\(role tle_admin\)/s, '... naming its objects') or diag $err;
	is($node->safe_psql('tle', q{SELECT count(*) FROM public.ran}), '0', '... having run none of them');
	($ret, $err) = $move->('tle', 'idgen', '-U', 'tle_admin');
	is($ret, 0, '... and the pg_tle role moves it herself') or diag $err;
	$node->safe_psql('tle', q{INSERT INTO post (made) SELECT 'idgen' FROM generate_series(1, 100)});
	is($node->safe_psql('tle', qq{SELECT count(*) FILTER (WHERE sf <= $max) FROM post WHERE made = 'idgen'}), '0',
		'... new IDs above the old');
	# A superuser's database, idgen in it: its move to the edition, which only pg_tle has here, would
	# run as the superuser the script the pg_tle role stored.
	$node->safe_psql('postgres', 'CREATE DATABASE tle_super');
	$node->safe_psql('tle_super', 'CREATE EXTENSION idgen; CREATE TABLE post (sf bigint DEFAULT idgen.snowflake_id());
CREATE EXTENSION pg_tle; GRANT pgtle_admin TO tle_admin; GRANT CREATE ON SCHEMA public TO tle_admin;
CREATE TABLE public.ran (what text, who name); GRANT INSERT ON public.ran TO PUBLIC');
	($ret, $out, $err) = $node->psql('tle_super', $tle_sql, extra_params => [ '-U', 'tle_admin', '-v', 'ON_ERROR_STOP=1' ]);
	is($ret, 0, 'the pg_tle role stores the edition in pg_tle there too') or diag $err;
	($ret, $err) = $move->('tle_super', 'idgen_sql');
	isnt($ret, 0, 'a superuser\'s move to the edition that a role without superuser put into pg_tle: refused');
	like($err, qr/ERROR:  42501: the move would run an install script of another role as .*DETAIL:  CREATE EXTENSION idgen_sql runs what pg_tle holds for it: .*role tle_admin/s,
		'... 42501, naming the role') or diag $err;
	is($node->safe_psql('tle_super', q{SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'idgen%'}), 'idgen',
		'... and nothing changed');
	# A constant of a base type the pg_tle role made (its input and output her PL/pgSQL) in a default
	# of a superuser's table: printing or reading the default would run them as the superuser.
	$node->safe_psql('tle_super', q{
SELECT pgtle.create_shell_type_if_not_exists('public', 'evil');
CREATE FUNCTION public.note(what text) RETURNS void LANGUAGE plpgsql AS $$BEGIN INSERT INTO public.ran VALUES (what, current_user); END$$;
CREATE FUNCTION public.evil_in(t text) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN PERFORM public.note('input'); RETURN pg_catalog.convert_to(t, 'UTF8'); END $$;
CREATE FUNCTION public.evil_out(b bytea) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN PERFORM public.note('output'); RETURN pg_catalog.convert_from(b, 'UTF8'); END $$;
SELECT pgtle.create_base_type('public', 'evil', 'public.evil_in(text)'::regprocedure, 'public.evil_out(bytea)'::regprocedure, -1)},
		extra_params => [ '-U', 'tle_admin' ]);
	$node->safe_psql('tle_super', q{CREATE TABLE public.typed (id bigint DEFAULT CASE WHEN '1'::public.evil IS NULL THEN 0 ELSE idgen.snowflake_id() END);
TRUNCATE public.ran});
	($ret, $err) = $move->('tle_super', 'idgen_sql');
	isnt($ret, 0, 'a default with a constant of her base type: a superuser\'s move refuses');
	like($err, qr/ERROR:  42501: the move would run code of another role as .*\(role tle_admin\)/s, '... 42501') or diag $err;
	is($node->safe_psql('tle_super', q{SELECT count(*) FROM public.ran}), '0', '... having run none of her type\'s functions');
	system("mv '$aside'/idgen_sql* '$share/extension/'") == 0 or die "cannot put idgen_sql's files back";
}

$node->stop;
done_testing();
