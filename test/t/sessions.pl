# Every family under 16 (8 for UUIDv7 and ULID) concurrent sessions inserting into one primary key
# (pgbench, IDGEN_PER_CLIENT transactions each): no error, no duplicate, every ID well-formed; an ID
# made after another returned, in any session, is greater (cluster-wide order, checked against a
# witness sequence) where the state is shared, and per-session order where it is not (PostgreSQL 15
# and 16 without preload, where the 64-bit families refuse: sql/not_preloaded.sql). Random IDs
# through the same check prove it can fail. On a node that preloads idgen and on one that does not.
# Also: bursts that exhaust a millisecond's sequence, a waiting session's wait event and cancel,
# DecimalIds of three databases at once, ObjectId process values per connection, pg_dump and binary
# COPY of ObjectIds, typeid's prefix registry through pg_dump -Fc, ticket and range sequences.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $per = per_client();
my $total = 16 * $per;
my ($node, $major);

# Checks of a witness table t of n rows in db (its ids of one family): rows, distinct, order.
sub ordered {
	my ($db, $t, $n, $shared, $what) = @_;
	is($node->safe_psql($db, "SELECT count(*), count(DISTINCT id) FROM $t"), "$n|$n", "$what: $n rows, distinct ids");
	is(session_order_violations($node, $db, $t), '0', "$what: per-session order");
	is(order_violations($node, $db, $t), '0', "$what: cluster-wide order") if $shared;
	return;
}

# The control: random IDs through the same check find violations, so it is able to fail.
sub control {
	my ($db, $type, $default) = @_;
	bench($node, $db, '-c 8 -t 2000', witness_table($node, $db, 'control', "$type PRIMARY KEY DEFAULT $default"), "control: $default");
	cmp_ok(order_violations($node, $db, 'control'), '>', 0, "the order check catches unordered IDs ($default)");
	return;
}

for my $mode ('preloaded', 'not preloaded') {
	$node->stop if $node;
	$node = idgen_node($mode =~ s/ /_/r, no_preload => $mode ne 'preloaded', conf => 'idgen.launch_id = 65');
	$node->start;
	$major = $node->safe_psql('postgres', "SELECT current_setting('server_version_num')::int / 10000");
	my $shared = shared_state($node);
	note("$mode: the state is " . ($shared ? 'shared' : 'per session'));
	my $s = sub { my ($db, $sql) = @_; return $node->safe_psql($db, $sql) };

	# ---- UUIDv7 (was test/multi/uuidv7.sh) ----
	my $db = fresh_db($node, 'uuidv7');
	bench($node, $db, "-c 8 -t $per", witness_table($node, $db, 't', 'uuid PRIMARY KEY DEFAULT idgen.uuidv7()'), 'uuidv7');
	ordered($db, 't', 8 * $per, $shared, "$mode: uuidv7");
	is($s->($db, "SELECT count(*) FROM t WHERE substr(id::text, 15, 1) = '7'"), 8 * $per, "$mode: version 7 ids");
	is($s->($db, "SELECT issued >= " . 8 * $per . " FROM idgen.stats WHERE family = 'uuidv7'"), 't', "$mode: issued in idgen.stats")
	  if $shared;
	control($db, 'uuid', 'gen_random_uuid()');
	# The time inside a UUIDv7 never runs more than 1 ms ahead of the clock at the moment it is
	# made: from outside, in one statement, against the clock read just after each call (never
	# more than the true lead, however the session is scheduled), and in the generator (max_lead),
	# with 16 sessions flat out. No clock regression is counted under load.
	my $regressions = $s->($db, "SELECT clock_regressions FROM idgen.stats WHERE family = 'uuidv7'");
	my $lower = $s->($db, "SELECT round(extract(epoch FROM max(idgen.uuidv7_time(u) - a)) * 1000000) FROM
	  (SELECT idgen.uuidv7() AS u, clock_timestamp() AS a FROM generate_series(1, " . 100 * $per . ") OFFSET 0) s");
	bench($node, $db, '-c 16 -t 2', 'SELECT count(idgen.uuidv7()) FROM generate_series(1, 200000);', 'uuidv7 flat out');
	cmp_ok($lower, '<=', 1000, "$mode: the lead of one statement's UUIDv7s over the clock, within 1 ms ($lower us)");
	my $lead = $s->($db, "SELECT extract(epoch FROM max_lead) * 1000000 FROM idgen.stats WHERE family = 'uuidv7'");
	cmp_ok($lead, '<=', 1000, "$mode: the generator's lead, all sessions, within 1 ms ($lead us)");
	is($s->($db, "SELECT clock_regressions FROM idgen.stats WHERE family = 'uuidv7'"), $regressions, "$mode: no clock regression counted under load");

	# ---- ULID (was test/multi/ulid.sh): half of UUIDv7's, the same state word ----
	$db = fresh_db($node, 'ulid');
	my $n = 8 * ($per / 2);
	bench($node, $db, '-c 8 -t ' . $per / 2, witness_table($node, $db, 't', 'text COLLATE "C" PRIMARY KEY DEFAULT idgen.ulid()'), 'ulid');
	ordered($db, 't', $n, $shared, "$mode: ulid");
	is($s->($db, q{SELECT count(*) FROM t WHERE id ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$'}), $n, "$mode: canonical ULIDs");
	$s->($db, 'CREATE TABLE t_uuid AS SELECT idgen.ulid_to_uuid(id) AS id, client, witness FROM t');
	ordered($db, 't_uuid', $n, $shared, "$mode: the uuid forms of ULIDs");
	is($s->($db, "SELECT issued >= $n FROM idgen.stats WHERE family = 'uuidv7'"), 't', "$mode: ULIDs issued in UUIDv7's row") if $shared;
	control($db, 'text COLLATE "C"', 'idgen.ulid_from_uuid(gen_random_uuid())');
	# ULIDs and UUIDv7s from one state: sessions alternating the two. The state word each was made
	# from (a ULID's first 64 bits; a UUIDv7's 60 time bits and 4-bit counter) is distinct across
	# both, and with shared state in cluster-wide order.
	bench($node, $db, '-c 8 -t 2000',
		witness_table($node, $db, 'mixed_ulid', 'text COLLATE "C" PRIMARY KEY DEFAULT idgen.ulid()')
		  . witness_table($node, $db, 'mixed_uuidv7', 'uuid PRIMARY KEY DEFAULT idgen.uuidv7()'), 'ulid and uuidv7');
	$s->($db, q{CREATE TABLE mixed AS
	  SELECT ('x' || substr(replace(idgen.ulid_to_uuid(id)::text, '-', ''), 1, 16))::bit(64)::bigint AS id, client, witness FROM mixed_ulid
	  UNION ALL
	  SELECT (('x' || substr(h, 1, 12))::bit(48)::bigint << 16) | (('x' || substr(h, 14, 3))::bit(12)::bigint << 4)
	         | ((('x' || substr(h, 17, 2))::bit(8)::int >> 2) & 15), client, witness
	  FROM (SELECT replace(id::text, '-', '') AS h, client, witness FROM mixed_uuidv7) s});
	is($s->($db, 'SELECT count(DISTINCT ' . ($shared ? 'id' : '(client, id)') . ') FROM mixed'), 8 * 4000,
		"$mode: mixed ULIDs and UUIDv7s: distinct state words" . ($shared ? '' : ' in each session'));
	is(session_order_violations($node, $db, 'mixed'), '0', "$mode: mixed: per-session order");
	is(order_violations($node, $db, 'mixed'), '0', "$mode: mixed: cluster-wide order") if $shared;

	# ---- typeid (was test/multi/typeid.sh) ----
	$db = fresh_db($node, 'typeid');
	bench($node, $db, "-c 16 -t $per", witness_table($node, $db, 't', q{text COLLATE "C" PRIMARY KEY DEFAULT idgen.typeid('post')}), 'typeid');
	ordered($db, 't', $total, $shared, "$mode: typeid");
	is($s->($db, 'SELECT count(DISTINCT (idgen.typeid_parse(id)).id) FROM t'), $total, "$mode: typeid: distinct uuids");
	is($s->($db, q{SELECT count(*) FROM t WHERE idgen.typeid_is_valid(id, 'post') AND id ~ '^post_[0-9a-z]{25}$'}), $total,
		"$mode: typeid: well-formed");

	# ---- ObjectId (was test/multi/objectid.sh): one process value per session and connection ----
	$db = fresh_db($node, 'objectid');
	$s->($db, 'CREATE TABLE t (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), client int NOT NULL)');
	bench($node, $db, "-c 16 -t $per", 'INSERT INTO t (client) VALUES (:client_id);', 'objectid');
	is($s->($db, 'SELECT count(*), count(DISTINCT id), count(DISTINCT substr(id::text, 9, 10)) FROM t'), "$total|$total|16",
		"$mode: objectid: rows, distinct ids, distinct process values");
	is($s->($db, 'SELECT count(*) FROM (SELECT client FROM t GROUP BY client HAVING count(DISTINCT substr(id::text, 9, 10)) = 1) s'),
		16, "$mode: objectid: sessions with one process value");
	$s->($db, 'CREATE TABLE c (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid())');
	bench($node, $db, '-c 4 -C -t 30', 'INSERT INTO c DEFAULT VALUES;', 'objectid, a connection each');
	is($s->($db, 'SELECT count(*), count(DISTINCT substr(id::text, 9, 10)) FROM c'), '120|120', "$mode: 120 connections, 120 process values");

	# ---- ticket and range sequences (was test/multi/ticket.sh) ----
	$db = fresh_db($node, 'ticket');
	$s->($db, q{CREATE SEQUENCE a; CREATE SEQUENCE b; CREATE SEQUENCE c; CREATE SEQUENCE d;
	  SELECT idgen.ticket_sequence('a', 1, 2), idgen.ticket_sequence('b', 2, 2), idgen.range_sequence('c', 0, 1000000000),
	         idgen.range_sequence('d', 1, 1000000000);
	  CREATE TABLE t (v bigint, scheme text, server int)});
	bench($node, $db, '-c 16 -t ' . $per / 10,
		q{INSERT INTO t VALUES (nextval('a'), 'ticket', 1), (nextval('b'), 'ticket', 2), (nextval('c'), 'range', 0), (nextval('d'), 'range', 1);},
		'ticket and range');
	my $half = 16 * ($per / 10) * 2;
	is($s->($db, q{SELECT count(*), count(DISTINCT v) FILTER (WHERE scheme = 'ticket'), count(DISTINCT v) FILTER (WHERE scheme = 'range') FROM t}),
		2 * $half . "|$half|$half", "$mode: ticket and range values: all, distinct per scheme");
	is($s->($db, q{SELECT count(*) FROM t WHERE server <> CASE scheme WHEN 'ticket' THEN idgen.ticket_server(v, 2) ELSE idgen.range_server(v, 1000000000) END}),
		'0', "$mode: no value names another server");
	if (!$shared) {
		note("$mode: the 64-bit families refuse without shared state (sql/not_preloaded.sql): not run here");
		next;
	}

	# ---- Instagram, Snowflake, JS-safe (was test/multi/layout.sh) ----
	$db = fresh_db($node, 'layout');
	bench($node, $db, "-c 16 -t $per", witness_table($node, $db, 'ig', 'bigint PRIMARY KEY DEFAULT idgen.instagram_id(shard => 7)'), 'instagram');
	ordered($db, 'ig', $total, 1, "$mode: Instagram, shard 7, one table");
	is($s->($db, q{SELECT string_agg(DISTINCT shard::text, ',') FROM ig, idgen.instagram_parse(id)}), '7', "$mode: Instagram: shard 7");
	$s->($db, 'CREATE TABLE ig_a (id bigint PRIMARY KEY DEFAULT idgen.instagram_id(shard => 7));
	  CREATE TABLE ig_b (id bigint PRIMARY KEY DEFAULT idgen.instagram_id(shard => 7));
	  CREATE TABLE sf (id bigint PRIMARY KEY DEFAULT idgen.snowflake_id());
	  CREATE TABLE js (id bigint PRIMARY KEY DEFAULT idgen.js_id() CHECK (idgen.is_js_safe(id)));
	  CREATE TABLE burst (id bigint PRIMARY KEY)');
	bench($node, $db, '-c 16 -t ' . $per / 2, "INSERT INTO ig_a DEFAULT VALUES;\nINSERT INTO ig_b DEFAULT VALUES;", 'instagram, two tables');
	is($s->($db, 'SELECT count(*), count(DISTINCT id) FROM (SELECT id FROM ig_a UNION ALL SELECT id FROM ig_b) s'), "$total|$total",
		"$mode: Instagram, one shard in two tables: rows, distinct");
	is($s->($db, 'SELECT count(DISTINCT id) FROM (SELECT id FROM ig_a UNION ALL SELECT id FROM ig_b UNION ALL SELECT id FROM ig) s'),
		2 * $total, "$mode: Instagram: distinct across the three tables");
	for my $t ('sf', 'js') {
		bench($node, $db, "-c 16 -t $per", "INSERT INTO $t DEFAULT VALUES;", $t);
		is($s->($db, "SELECT count(*), count(DISTINCT id) FROM $t"), "$total|$total", "$mode: $t: rows, distinct");
	}
	# Bursts: 4 sessions each make 200 000 IDs of shard 9 in one statement. Never more in one
	# millisecond than the layout holds; a session that waited for the clock found it full.
	my $waits = $s->($db, "SELECT exhaustion_waits FROM idgen.stats WHERE family = 'instagram'");
	bench($node, $db, '-c 4 -t 1', 'INSERT INTO burst SELECT idgen.instagram_id(9) FROM generate_series(1, 200000);', 'bursts');
	is($s->($db, 'SELECT count(DISTINCT id) FROM burst'), 800000, "$mode: bursts: distinct ids");
	my $most = $s->($db, 'SELECT max(n) FROM (SELECT count(*) AS n FROM burst, idgen.instagram_parse(id) GROUP BY ts) s');
	cmp_ok($most, '<=', 1024, "$mode: bursts: at most 1024 IDs in one millisecond ($most)");
	if ($s->($db, "SELECT exhaustion_waits FROM idgen.stats WHERE family = 'instagram'") > $waits) {
		is($most, 1024, "$mode: a session waited for the clock: a millisecond was full");
	}
	# A session waiting for the clock shows it in pg_stat_activity and answers a cancel: a Snowflake
	# epoch 30 s later (the server's: an epoch is refused per session) puts the last ID 30 s ahead of
	# the clock; within a 60 s idgen.max_clock_regression it uses up the last tick, then waits.
	my $event = $major >= 17 ? 'IdgenWaitForClock' : 'Extension';
	$s->($db, 'SELECT idgen.snowflake_id()');
	$s->('postgres', 'ALTER SYSTEM SET idgen.snowflake_epoch_ms = 1288835004657; SELECT pg_reload_conf()');
	# (without preload a new session knows the setting once idgen is loaded in it: a call of one of its
	# functions in the query loads it before the query runs)
	$node->poll_query_until($db, "SELECT idgen.uuidv7() IS NOT NULL AND current_setting('idgen.snowflake_epoch_ms') = '1288835004657'");
	my $waiter = $node->background_psql($db, on_error_stop => 0);
	$waiter->query_safe("SET application_name = 'idgen_waiter'; SET idgen.max_clock_regression = '60s'");
	$waiter->query_until(qr/start/, "\\echo start\nSELECT count(idgen.snowflake_id()) FROM generate_series(1, 10000);\n");
	ok($node->poll_query_until($db, "SELECT wait_event = '$event' FROM pg_stat_activity WHERE application_name = 'idgen_waiter'"),
		"$mode: a session waiting for the clock shows wait event $event");
	$s->($db, "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'idgen_waiter'");
	like($waiter->query("SELECT 1"), qr/^1$/m, "$mode: the waiting session answered the cancel");
	like($waiter->{stderr}, qr/canceling statement due to user request/, "$mode: ... and reported it");
	$waiter->quit;
	$s->('postgres', 'ALTER SYSTEM RESET idgen.snowflake_epoch_ms; SELECT pg_reload_conf()');
	$node->poll_query_until($db, "SELECT idgen.uuidv7() IS NOT NULL AND current_setting('idgen.snowflake_epoch_ms') = '1288834974657'")
	  or BAIL_OUT('the Snowflake epoch did not return to its default');
	# The IDs of the later epoch left the durable mark 30 s ahead of the clock, beyond
	# max_clock_regression: ns_id and UID20 refuse (55000) until the clock has passed it, and how
	# long the tests between take depends on the machine. Each waits for it in its database.
	my $mark_passed = sub {
		my ($where, $call) = @_;
		$node->poll_query_until($where, "SELECT $call IS NOT NULL")
		  or BAIL_OUT("$call refused after the clock passed the mark");
	};

	# ---- ns_id (was test/multi/ns_id.sh): hexadecimal, the first 16 digits are the nanoseconds ----
	$db = fresh_db($node, 'ns_id');
	$mark_passed->($db, q{idgen.ns_id(32, '0123456789abcdef')});
	bench($node, $db, "-c 16 -t $per",
		witness_table($node, $db, 't', q{text COLLATE "C" PRIMARY KEY DEFAULT idgen.ns_id(32, '0123456789abcdef')}), 'ns_id');
	ordered($db, 't', $total, 1, "$mode: ns_id");
	is($s->($db, 'SELECT count(DISTINCT left(id, 16)) FROM t'), $total, "$mode: ns_id: distinct nanoseconds");

	# ---- UID20 (was test/multi/uid20.sh) ----
	$db = fresh_db($node, 'uid20');
	$mark_passed->($db, 'idgen.uid20() IS NOT NULL AND idgen.uid20_sec()');
	for my $t ([ ms => 'idgen.uid20()' ], [ sec => 'idgen.uid20_sec()' ]) {
		bench($node, $db, "-c 16 -t $per", witness_table($node, $db, $t->[0], "bigint PRIMARY KEY DEFAULT $t->[1]"), $t->[1]);
		ordered($db, $t->[0], $total, 1, "$mode: $t->[1]");
	}
	is($s->($db, 'SELECT max(n) <= 1000000 FROM (SELECT count(*) AS n FROM ms GROUP BY (idgen.uid20_parse(id)).ts) s'), 't',
		"$mode: UID20s of one millisecond: at most the 1 000 000 of its digits");
	$s->($db, 'CREATE TABLE num (id numeric(20,0) PRIMARY KEY DEFAULT idgen.uid20_numeric())');
	bench($node, $db, '-c 16 -t ' . $per / 5, 'INSERT INTO num DEFAULT VALUES;', 'uid20_numeric');
	is($s->($db, 'SELECT count(DISTINCT id) FROM num'), $total / 5, "$mode: uid20_numeric: distinct");

	# ---- DecimalId (was test/multi/decimal_id.sh): one generator, one counter, for the server ----
	$db = fresh_db($node, 'decimal_id');
	bench($node, $db, "-c 16 -t $per", witness_table($node, $db, 't', 'bigint PRIMARY KEY DEFAULT idgen.decimal_id()'), 'decimal_id');
	ordered($db, 't', $total, 1, "$mode: decimal_id");
	is($s->($db, q{SELECT count(DISTINCT (idgen.decimal_parse(id)).generator_id), string_agg(DISTINCT (idgen.decimal_parse(id)).launch_id::text, ','),
	                      max((idgen.decimal_parse(id)).counter) - min((idgen.decimal_parse(id)).counter) + 1 FROM t}),
		"1|65|$total", "$mode: decimal_id: one generator, launch id 65, counters without a gap");
	# Three databases at once: one counter space for the server (1.1 made the same IDs in each).
	my $per_db = $per / 10 + 1;
	my @h;
	for my $d (qw(a b c)) {
		fresh_db($node, "decimal_$d");
		$s->("decimal_$d", 'CREATE TABLE t (id bigint PRIMARY KEY DEFAULT idgen.decimal_id(), n int)');
		push @h, [ bench_start($node, "decimal_$d", "-c 4 -j 2 -t $per_db", 'INSERT INTO t (n) VALUES (1);') ];
	}
	for (@h) { $_->[0]->finish; like(${ $_->[1] }, qr/number of failed transactions: 0 /, "$mode: pgbench in one of three databases"); }
	my @ids = map { split /\n/, $s->("decimal_$_", 'SELECT id FROM t') } qw(a b c);
	my %seen = map { $_ => 1 } @ids;
	is(scalar(keys %seen) . '|' . scalar(@ids), 3 * 4 * $per_db . '|' . 3 * 4 * $per_db, "$mode: DecimalIds of three databases: distinct");
	next unless $mode eq 'preloaded';

	# ---- pg_dump and COPY (was test/multi/objectid.sh and typeid.sh, preloaded) ----
	my $tmp = PostgreSQL::Test::Utils::tempdir;
	my $md5 = sub { $s->($_[0], "SELECT md5(string_agg(id::text, ',' ORDER BY id)) FROM $_[1]") };
	$node->command_ok([ 'pg_dump', '-d', 'objectid', '-f', "$tmp/objectid.sql", '-h', $node->host, '-p', $node->port ], 'pg_dump of ObjectIds');
	fresh_db($node, 'restored');
	$s->('restored', 'DROP EXTENSION idgen');
	$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'restored', '-f', "$tmp/objectid.sql", '-h', $node->host, '-p', $node->port ],
		'restored into a fresh database');
	is($md5->('restored', 't'), $md5->('objectid', 't'), 'restored ObjectIds: the same md5');
	is($s->('restored', "SELECT atttypid::regtype FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'id'"), 'idgen.objectid',
		'restored column type');
	$s->('objectid', "COPY t TO '$tmp/t.bin' WITH (FORMAT binary); CREATE TABLE t2 (LIKE t INCLUDING ALL);
	  COPY t2 FROM '$tmp/t.bin' WITH (FORMAT binary); COPY (SELECT '\\x0102'::bytea) TO '$tmp/short.bin' WITH (FORMAT binary);
	  CREATE TABLE t3 (id idgen.objectid)");
	is($md5->('objectid', 't2'), $md5->('objectid', 't'), 'binary COPY out and in: the same md5');
	my ($ret, $out, $err) = $node->psql('objectid', "COPY t3 FROM '$tmp/short.bin' WITH (FORMAT binary)");
	like($err, qr/invalid binary objectid of 2 bytes/, 'a 2-byte binary objectid is refused');
	note($s->('objectid', q{CREATE TABLE t_oid AS SELECT id FROM t; ALTER TABLE t_oid ADD PRIMARY KEY (id);
	  CREATE TABLE t_text AS SELECT id::text AS id FROM t; ALTER TABLE t_text ADD PRIMARY KEY (id);
	  SELECT 'primary-key index built by 16 sessions: objectid ' || pg_size_pretty(pg_relation_size('t_pkey'))
	    || '; by CREATE INDEX: objectid ' || pg_size_pretty(pg_relation_size('t_oid_pkey')) || ', text ' || pg_size_pretty(pg_relation_size('t_text_pkey'))}));

	# The prefix registry survives pg_dump -Fc and pg_restore, stays true through DROP and RENAME.
	my $registry = sub {
		my ($what, $want) = @_;
		$node->command_ok([ 'pg_dump', '-Fc', '-d', 'typeid', '-f', "$tmp/typeid.custom", '-h', $node->host, '-p', $node->port ], "pg_dump -Fc ($what)");
		$s->('postgres', 'DROP DATABASE restored; CREATE DATABASE restored');
		$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'restored', "$tmp/typeid.custom", '-h', $node->host, '-p', $node->port ],
			"pg_restore ($what)");
		is($s->('restored', q{SELECT string_agg(prefix || '|' || tbl::text, ',' ORDER BY prefix) FROM idgen.prefix_registry}), $want,
			"the registry after restore ($what)");
	};
	$s->('typeid', q{SELECT idgen.register_prefix('post', 't')});
	$registry->('registered', 'post|t');
	is($s->('restored', 'SELECT DISTINCT idgen.typeid_table(id) FROM t'), 't', 'an ID leads back to its table after restore');
	is((sqlstate_of($node, q{SELECT idgen.register_prefix('post', 'pg_class')}, db => 'restored'))[0], '23505',
		'a second registration is still refused');
	$s->('typeid', q{CREATE TABLE doomed (id text); CREATE TABLE renamed_later (id text);
	  SELECT idgen.register_prefix('doomed', 'doomed'), idgen.register_prefix('kept', 'renamed_later');
	  DROP TABLE doomed; ALTER TABLE renamed_later RENAME TO renamed_now; CREATE TABLE doomed (unrelated int)});
	is($s->('typeid', q{SELECT string_agg(prefix || '|' || tbl::text, ',' ORDER BY prefix) FROM idgen.prefix_registry}),
		'kept|renamed_now,post|t', 'the registry after DROP and RENAME');
	$registry->('after DROP and RENAME', 'kept|renamed_now,post|t');

	# Messages quote input cut on a character boundary of the database's encoding (EUC_JP).
	$s->('postgres', q{CREATE DATABASE eucjp ENCODING 'EUC_JP' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0});
	$s->('eucjp', 'CREATE EXTENSION idgen');
	{
		local $ENV{PGCLIENTENCODING} = 'UTF8';
		is((sqlstate_of($node, q{SELECT idgen.typeid_parse('a' || repeat('漢', 80) || '_00000000000000000000000000')}, db => 'eucjp'))[0],
			'22P02', 'a long non-ASCII typeid in EUC_JP is 22P02');
	}
}

$node->stop;
done_testing();
