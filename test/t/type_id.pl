# The lifecycle of idgen.type_id and of the types of one prefix of idgen.define_uuid_type (issue 33,
# items 4 and 5): values made by two sessions in turn are ordered across them; a table with both
# goes through COPY (text and binary), pg_dump and pg_restore (as a superuser: see define_uuid_type),
# and logical replication (text and binary) unchanged; typeid-js, the TypeID reference library for
# JavaScript, parses 100,000 values' text to the same prefixes and UUIDs and writes them back, and
# both types read what it generates (where node and npm can install it: "not run"
# otherwise); the update from 1.2 adds the type without touching existing columns (PostgreSQL 18
# and later, through extension_control_path: "not run" before).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Copy;
use IdgenTest;

my $major = $ENV{IDGEN_MAJOR} // 0;
my $node = idgen_node('type_id', conf => "wal_level = logical\nmax_wal_senders = 10\nmax_replication_slots = 10");
$node->start;
my $work = PostgreSQL::Test::Utils::tempdir;

# The table of the tests: a domain of one prefix, and a column that holds any TypeID (long prefixes,
# the empty prefix, UUIDs of every form).
my $schema = q{
CREATE EXTENSION idgen;
SELECT idgen.define_id_type('user', 'user_id', native => true);
SELECT idgen.define_uuid_type('item', 'public.item_id');
SELECT idgen.define_uuid_type('user_account', 'public.account_id');
CREATE TABLE users (id user_id PRIMARY KEY, n int NOT NULL, other idgen.type_id,
                    item item_id UNIQUE DEFAULT idgen.uuidv7()::item_id);
};
$node->safe_psql('postgres', $schema);
$node->safe_psql('postgres', q{
INSERT INTO users (n, other)
SELECT g, CASE g % 4
  WHEN 0 THEN idgen.type_id_generate('org')
  WHEN 1 THEN idgen.type_id_from_uuid(repeat('x', 1 + g % 63), md5(g::text)::uuid)
  WHEN 2 THEN idgen.type_id_from_uuid('', gen_random_uuid())
  ELSE NULL END
FROM generate_series(1, 20000) AS g;
});
my $digest = q{SELECT count(*), md5(string_agg(id::text || ':' || n || ':' || coalesce(other::text, '-') || ':' || item, ',' ORDER BY id)) FROM users};
my $before = $node->safe_psql('postgres', $digest);

# ---- two sessions in turn: each value above the one before, whichever session made it -----------
{
	my @sessions = map { $node->background_psql('postgres') } 1 .. 2;
	my @values;
	for my $i (1 .. 400)
	{
		push @values, $sessions[ $i % 2 ]->query_safe("SELECT idgen.type_id_generate('user'), idgen.uuidv7()::item_id");
	}
	$_->quit for @sessions;
	for my $column ([ 0, 'idgen.type_id', 'idgen.type_id_generate' ], [ 1, 'item_id', 'idgen.uuidv7()::item_id' ])
	{
		my ($n, $type, $call) = @$column;
		my $array = "'{" . join(',', map { (split /\|/)[$n] } @values) . "}'::$type\[]";
		is($node->safe_psql('postgres',
				"SELECT count(*) FILTER (WHERE a < b), count(*) FROM (SELECT v AS a, lead(v) OVER (ORDER BY o) AS b FROM unnest($array) WITH ORDINALITY AS u(v, o)) s WHERE b IS NOT NULL"),
			'399|399', "400 values of $call from two sessions in turn: each above the one before");
	}
}

# ---- COPY, text and binary ------------------------------------------------------------------
for my $format ('text', 'binary')
{
	my $file = "$work/users.$format";
	$node->safe_psql('postgres', "COPY users TO '$file' (FORMAT $format)");
	$node->safe_psql('postgres', "CREATE TABLE copied (LIKE users INCLUDING ALL); COPY copied FROM '$file' (FORMAT $format)");
	is($node->safe_psql('postgres', $digest =~ s/FROM users/FROM copied/r), $before, "COPY $format: every value back");
	$node->safe_psql('postgres', 'DROP TABLE copied');
}
# A binary value with a bad prefix, or too short, is 22P03; a text value of another prefix, 22P02.
{
	my $uuid = pack('H*', '01890a5dac96774bbcceb302099a8057');
	my %bad = ('a prefix with an upper-case letter' => $uuid . 'User', '3 bytes' => 'abc');
	for my $what (sort keys %bad)
	{
		my $file = "$work/bad.copy";
		open my $fh, '>:raw', $file or die $!;
		print $fh "PGCOPY\n\xff\r\n\0" . pack('NNn', 0, 0, 1) . pack('N', length $bad{$what}) . $bad{$what} . pack('n', 0xffff);
		close $fh;
		my ($state) = sqlstate_of($node, "CREATE TEMP TABLE b (v idgen.type_id); COPY b FROM '$file' (FORMAT binary)");
		is($state, '22P03', "COPY binary: $what is 22P03");
	}
	# A type of one prefix: its binary form is idgen.type_id's; another prefix is 22P03.
	$node->safe_psql('postgres', "COPY (SELECT idgen.type_id_from_uuid('user', gen_random_uuid())) TO '$work/user.bin' (FORMAT binary)");
	my ($binary_state, $binary_message) = sqlstate_of($node, "CREATE TEMP TABLE b (v item_id); COPY b FROM '$work/user.bin' (FORMAT binary)");
	is($binary_state, '22P03', 'COPY binary into a type of one prefix: a value of another prefix is 22P03');
	like($binary_message, qr/invalid binary item_id of 20 bytes/, 'the message names the type');
	my ($state, $message) = sqlstate_of($node, q{COPY users (id, n) FROM PROGRAM 'echo post_01h455vb4pex5vsknk084sn02q,1' (FORMAT csv)});
	is($state, '22P02', 'COPY text into the domain: another prefix is 22P02');
	like($message, qr/has prefix "post", not "user"/, 'the message names both prefixes');
	($state, $message) = sqlstate_of($node,
		q{COPY users (id, n, item) FROM PROGRAM 'echo user_01h455vb4pex5vsknk084sn02q,1,post_01h455vb4pex5vsknk084sn02q' (FORMAT csv)});
	is($state, '22P02', 'COPY text into a type of one prefix: another prefix is 22P02');
	like($message, qr/type item_id: "post_01h455vb4pex5vsknk084sn02q"/, 'the message names the type and the value');
}

# ---- pg_dump and pg_restore ---------------------------------------------------------------------
{
	my $dump = "$work/users.dump";
	$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('postgres') ], 'pg_dump -Fc');
	$node->safe_psql('postgres', 'CREATE DATABASE restored');
	$node->command_ok([ 'pg_restore', '-d', $node->connstr('restored'), $dump ], 'pg_restore');
	is($node->safe_psql('restored', $digest), $before, 'pg_restore: every value back');
	is($node->safe_psql('restored', q{SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c WHERE c.contypid = 'user_id'::regtype}),
		q{CHECK (idgen.type_id_check(VALUE, 'user'::text))}, 'pg_restore: the domain and its check');
	is($node->safe_psql('restored', q{INSERT INTO users (n) VALUES (-1) RETURNING idgen.type_id_prefix(id), item::text LIKE 'item\_%'}),
		'user|t', 'pg_restore: the defaults make a user_ and an item_ value');
	is($node->safe_psql('restored', q{SELECT idgen.uuid_type_prefix('item_id'), idgen.uuid_type_prefix('account_id')}),
		'item|user_account', 'pg_restore: the types of one prefix keep their prefixes');
	my $plan = $node->safe_psql('restored', q{ANALYZE users; EXPLAIN (COSTS OFF) SELECT * FROM users WHERE id = (SELECT id FROM users LIMIT 1)});
	like($plan, qr/Index Scan using users_pkey/, 'pg_restore: the primary key serves an equality');
	$plan = $node->safe_psql('restored', q{EXPLAIN (COSTS OFF) SELECT * FROM users WHERE item = (SELECT item FROM users LIMIT 1)});
	like($plan, qr/Index Scan using users_item_key/, 'pg_restore: the unique index of a type of one prefix serves an equality');
}

# ---- logical replication, text and binary ---------------------------------------------------------
{
	my $subscriber = idgen_node('type_id_subscriber');
	$subscriber->start;
	$node->safe_psql('postgres', 'CREATE PUBLICATION users_pub FOR TABLE users');
	my %binary = (text => 'false', binary => 'true');
	for my $mode ('text', 'binary')
	{
		$subscriber->safe_psql('postgres', "CREATE DATABASE sub_$mode");
		$subscriber->safe_psql("sub_$mode", $schema);
		$subscriber->safe_psql("sub_$mode",
			"CREATE SUBSCRIPTION s_$mode CONNECTION '" . $node->connstr . " dbname=postgres' PUBLICATION users_pub"
			  . " WITH (binary = $binary{$mode}, slot_name = 's_$mode')");
	}
	$subscriber->wait_for_subscription_sync($node, "s_$_", "sub_$_") for ('text', 'binary');
	$node->safe_psql('postgres', q{
		INSERT INTO users (n, other) SELECT -g, idgen.type_id_generate('late') FROM generate_series(1, 1000) AS g;
		UPDATE users SET other = idgen.type_id_from_uuid('updated', id::uuid) WHERE n % 100 = 0;
		DELETE FROM users WHERE n % 1000 = 7;
	});
	$node->wait_for_catchup('s_text');
	$node->wait_for_catchup('s_binary');
	my $now = $node->safe_psql('postgres', $digest);
	is($subscriber->safe_psql("sub_$_", $digest), $now, "logical replication ($_): the subscriber's table is the publisher's")
	  for ('text', 'binary');
	$subscriber->safe_psql("sub_$_", "DROP SUBSCRIPTION s_$_") for ('text', 'binary');
	$subscriber->stop;
}

# ---- typeid-js: the TypeID reference library for JavaScript ------------------------------------------
{
	my $why = typeid_js_missing();
	if ($why)
	{
		diag("not run: type_id typeid-js: $why");
	}
	else
	{
		my $values = "$work/values.tsv";
		$node->safe_psql('postgres', qq{COPY (
			SELECT v::text, 'item', v::uuid FROM (SELECT idgen.uuidv7()::item_id AS v FROM generate_series(1, 5000)) i
			UNION ALL SELECT v::text, 'user_account', v::uuid FROM (SELECT gen_random_uuid()::account_id AS v FROM generate_series(1, 5000)) a
			UNION ALL SELECT v::text, idgen.type_id_prefix(v), v::uuid FROM (
				SELECT CASE WHEN g % 10 < 7 THEN idgen.type_id_generate((ARRAY['user', 'org', 'user_account', 'a_b'])[1 + g % 4])
				            WHEN g % 10 = 7 THEN idgen.type_id_from_uuid(repeat('z', 1 + g % 63), gen_random_uuid())
				            WHEN g % 10 = 8 THEN idgen.type_id_from_uuid('', gen_random_uuid())
				            ELSE idgen.type_id_from_uuid('nil', CASE WHEN g % 20 = 9 THEN '00000000-0000-0000-0000-000000000000'
				                                                      ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff' END::uuid) END AS v
				FROM generate_series(1, 90000) AS g) s) TO '$values'});
		my $made = "$work/made.tsv";
		my $script = "$work/interop.js";
		open my $fh, '>', $script or die $!;
		print $fh <<'JS';
// Reads "text<TAB>prefix<TAB>uuid" lines: typeid-js must parse each text to the prefix and UUID,
// and write the prefix and UUID back to the same text. Then writes 10,000 TypeIDs of its own making.
const fs = require('fs');
const { TypeID, typeid } = require('typeid-js');
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.length > 0);
let bad = 0;
for (const line of lines) {
  const [text, prefix, uuid] = line.split('\t');
  let got;
  try {
    const parsed = TypeID.fromString(text);
    got = [parsed.getType(), parsed.toUUID(), TypeID.fromUUID(prefix, uuid).toString()];
  } catch (e) {
    got = [String(e)];
  }
  if (got[0] !== prefix || got[1] !== uuid || got[2] !== text) {
    if (bad++ < 5) console.error('differs: ' + line + ' -> ' + got.join(' '));
  }
}
const made = [];
for (let i = 0; i < 10000; i++) {
  const id = typeid(['user', 'org', 'user_account', ''][i % 4]);
  made.push(id.toString() + '\t' + id.getType() + '\t' + id.toUUID());
}
fs.writeFileSync(process.argv[3], made.join('\n') + '\n');
console.log(lines.length + ' ' + bad);
JS
		close $fh;
		my ($out, $err) = run_node($script, $values, $made);
		is($out, '100000 0', 'typeid-js parses 100,000 texts of both types to their prefixes and UUIDs, and writes them back')
		  or diag($err);
		$node->safe_psql('postgres', "CREATE TABLE made (t text, prefix text, u uuid); COPY made FROM '$made'");
		is($node->safe_psql('postgres',
				'SELECT count(*) FROM made WHERE t::idgen.type_id::text = t AND idgen.type_id_prefix(t::idgen.type_id) = prefix AND t::idgen.type_id::uuid = u'),
			'10000', "the type reads typeid-js's 10,000 TypeIDs to its prefixes and UUIDs");
		is($node->safe_psql('postgres',
				q{SELECT count(*) FROM made WHERE prefix = 'user_account' AND t::account_id::text = t AND t::account_id::uuid = u}),
			'2500', "a type of one prefix reads typeid-js's 2,500 TypeIDs of its prefix to their UUIDs");
	}
}

# node and npm, and typeid-js installed by npm into a scratch directory ('' when all is there).
my $typeid_js_dir;
sub typeid_js_missing
{
	for my $tool ('node', 'npm')
	{
		return "$tool is not installed" if system("command -v $tool >/dev/null 2>&1") != 0;
	}
	$typeid_js_dir = "$work/typeid-js";
	mkdir $typeid_js_dir;
	local $ENV{npm_config_cache} = "$work/npm-cache";
	local $ENV{HOME} = $work;
	my $log = "$work/npm.log";
	if (system("cd '$typeid_js_dir' && timeout 180 npm install --no-audit --no-fund --silent typeid-js >'$log' 2>&1") != 0)
	{
		return 'npm install typeid-js failed: ' . (split /\n/, slurp_file($log))[-1];
	}
	return '';
}

sub run_node
{
	my ($script, @args) = @_;
	local $ENV{NODE_PATH} = "$typeid_js_dir/node_modules";
	my ($stdout, $stderr);
	IPC::Run::run([ 'node', $script, @args ], '>', \$stdout, '2>', \$stderr);
	chomp $stdout;
	return ($stdout, $stderr // '');
}

# ---- the update from 1.2 -------------------------------------------------------------------------
if ($major >= 18)
{
	# 1.2 as a user has it: its control file and complete script, in a directory of their own; then
	# the current control file and update scripts, as make install leaves them.
	my $share = `pg_config --sharedir`;
	chomp $share;
	# extension_control_path's directories hold an extension/ directory.
	my ($old, $new) = ("$work/ext12", "$work/ext13");
	mkdir $_ for ($old, $new, "$old/extension", "$new/extension");
	open my $control, '>', "$old/extension/idgen.control" or die $!;
	print $control "comment = 'idgen 1.2'\ndefault_version = '1.2'\nmodule_pathname = 'idgen'\nschema = idgen\nrelocatable = false\ntrusted = true\n";
	close $control;
	my $released = (__FILE__ =~ s{[^/]*$}{}r) . '../../sql/released/idgen--1.2.sql';
	copy($released, "$old/extension/idgen--1.2.sql") or die "copy $released: $!";
	copy("$share/extension/$_", "$new/extension/$_") or die "copy $_: $!" for ('idgen.control', 'idgen--1.2--1.3.sql', 'idgen--1.3--1.4.sql');
	my $columns = q{SELECT string_agg(format('%s.%s %s %s', attrelid::regclass, attname, format_type(atttypid, atttypmod),
		coalesce(pg_get_expr(adbin, adrelid), '')), E'\n' ORDER BY attrelid::regclass::text, attnum)
		FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
		WHERE attrelid IN ('posts'::regclass, 'docs'::regclass) AND attnum > 0}
	  . q{ UNION ALL SELECT string_agg(format('%s %s %s', t.typname, pg_get_constraintdef(c.oid), t.typdefault), E'\n' ORDER BY t.typname)
		FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid WHERE t.typname IN ('post_id')};
	my $data = q{SELECT md5(string_agg(p.id || p.n || d.id::text, ',' ORDER BY p.n)) FROM posts p JOIN docs d USING (n)};
	$node->safe_psql('postgres', 'CREATE DATABASE from12');
	$node->safe_psql('from12', qq{
		SET extension_control_path = '$old';
		CREATE EXTENSION idgen VERSION '1.2';
		SELECT idgen.define_id_type('post', 'post_id');
		CREATE TABLE posts (id post_id PRIMARY KEY, n int, legacy text DEFAULT idgen.typeid('post', encoding => 'base32'));
		CREATE TABLE docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int);
		INSERT INTO posts (n) SELECT generate_series(1, 1000);
		INSERT INTO docs (n) SELECT generate_series(1, 1000);
	});
	my ($columns_before, $data_before) = map { $node->safe_psql('from12', $_) } ($columns, $data);
	is($node->safe_psql('from12', "SET extension_control_path = '$new'; ALTER EXTENSION idgen UPDATE; SELECT extversion FROM pg_extension WHERE extname = 'idgen'"),
		'1.4', 'the update from 1.2 to the current release');
	is($node->safe_psql('from12', $columns), $columns_before, 'the update leaves the columns, defaults and domains of 1.2 as they were');
	is($node->safe_psql('from12', $data), $data_before, 'the update leaves their data as it was');
	is($node->safe_psql('from12', q{
		ALTER TABLE posts ALTER COLUMN legacy DROP DEFAULT, ALTER COLUMN legacy TYPE idgen.type_id USING legacy::idgen.type_id,
		  ALTER COLUMN legacy SET DEFAULT idgen.type_id_generate('post');
		SELECT count(*) FROM posts WHERE idgen.type_id_prefix(legacy) = 'post'}),
		'1000', 'after the update, a text typeid column moves to the type');
	is($node->safe_psql('from12', q{SELECT idgen.define_id_type('user', 'user_id', native => true); SELECT idgen.type_id_prefix(idgen.type_id_generate('user'))}),
		"user_id\nuser", 'after the update, the type and its domains');
	is($node->safe_psql('from12', q{SELECT idgen.define_uuid_type('doc', 'public.doc_id'); SELECT idgen.uuidv7()::doc_id::text LIKE 'doc\_%'}),
		"doc_id\nt", 'after the update, a type of one prefix');
}
else
{
	diag("not run: type_id update from 1.2: extension_control_path, which installs 1.2 beside 1.3, needs PostgreSQL 18");
}

$node->stop;
done_testing();
