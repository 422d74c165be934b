# Nothing that a database owner plants is run, or chosen, by idgen's install and update scripts
# (issue 19). The scripts run as a superuser (a trusted install by a plain owner included) with
# search_path set to the extension's schema: an unqualified operator, function or aggregate would
# take an object the owner put there whose signature matches the call better than pg_catalog's own
# (an exact match where pg_catalog's needs an implicit coercion), and run it as the superuser.
#
# The look-alikes are generated (t/plant.sql): every name that the scripts write before a "(" and
# every operator symbol in them (with those SQL's syntax implies: IN, BETWEEN, CASE, LIKE...) gives,
# for each function, aggregate and operator of that name in pg_catalog (and idgen), a look-alike
# with the same signature, and one with each signature that changes one argument to a type the
# original takes only through an implicit coercion, in schema idgen and in public. Called, a
# look-alike counts the call on a sequence (no rollback undoes it) and raises a WARNING.
#
# Each run gets its own copy of a planted database; in none may a look-alike be called (warnings,
# counter), be chosen at all (the parse trees the server logs with debug_print_parse), or be named
# by what the script made (pg_depend). The runs: CREATE EXTENSION idgen by a superuser and by the
# owner (trusted), with look-alikes in public, and in a schema idgen the owner made first (refused:
# 1.3 never uses a schema made before); ALTER EXTENSION idgen UPDATE by the owner from 1.0, 1.1 and
# 1.2 (with data), look-alikes in public, and in schema idgen as members of the extension. A run
# that installs must leave idgen alone in a superuser's schema. Then the scripts without their
# guards (the prologue's refusal, 1.2's guard), so that every statement after them meets the
# look-alikes in schema idgen. Last, the test proves it can fail: copies of the scripts with one
# comparison unqualified are caught, one by its calls, one by the parse trees, one by pg_depend.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $root = dirname(__FILE__) . '/../..';
my $node = idgen_node('plant');
my $ext = $node->config_data('--sharedir') . '/extension';
my ($version) = slurp_file("$root/idgen.control") =~ /^default_version = '([^']+)'/m;
my %released = map { $_ => slurp_file("$root/sql/released/idgen--$_.sql") } qw(1.0 1.0--1.1 1.0--1.2);
# (what ships: the complete script and the updates, as the build made them; an update past 1.3 runs
# the update to 1.3, then each release's update after it)
my @after13 = map { slurp_file("$ext/idgen--$_.sql") } ($version eq '1.3' ? () : ("1.3--$version"));
my $complete = slurp_file("$ext/idgen--$version.sql");
my $delta = join('', slurp_file("$ext/idgen--1.2--1.3.sql"), @after13);
my $from11 = join('', slurp_file("$ext/idgen--1.1--1.3.sql"), @after13);

# The scripts without their guards; and with one comparison unqualified (a probe).
sub strip {
	my ($text, $what, $re) = @_;
	my $out = $text =~ s/$re//msr;
	die "no $what to take away" if $out eq $text;
	return $out;
}
sub unguard { return strip($_[0], "1.2's guard", qr/^DO \$guard\$.*?^\$guard\$;\n/ms) }
sub unprologue { return strip($_[0], 'prologue', qr/^DO \$prologue\$.*?^\$prologue\$;\nCREATE SCHEMA idgen;\n/ms) }
sub probe {
	my ($text, $from, $to) = @_;
	my $i = index($text, $from);
	die "the probe's comparison \"$from\" is no longer in the script: choose another" if $i < 0;
	substr($text, $i, length $from) = $to;
	return $text;
}
my $body = unguard(unprologue($complete));
my $idgen = "schema = idgen\n";
install_old_releases(
	$node,
	'idgen--plant_body.sql' => $body,
	'idgen--plant_body.control' => $idgen,
	'idgen--1.0--plant_body.sql' => unguard($released{'1.0--1.2'}) . $delta,
	'idgen--1.1--plant_body.sql' => unguard($from11),
	'idgen--plant_probe.sql' => probe(unprologue($complete), 'a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid', 'a.grantee = 0'),
	'idgen--plant_probe.control' => $idgen,
	'idgen--1.1--plant_probe.sql' => probe($from11,
		q{d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass}, q{d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass}),
	'idgen--plant_body_probe.sql' => probe($body, 'OPERATOR(pg_catalog.%) servers', '% servers'),
	'idgen--plant_body_probe.control' => $idgen);
$node->start;

# ---- what the scripts use ----------------------------------------------------------------------
my $all = join("\n", $complete, $from11, values %released);
my %f = map { lc($_) => 1 } ($all =~ /([A-Za-z_][A-Za-z0-9_\$]*)\s*\(/g);
my %o = map { $_ => 1 } (($all =~ m{([-+*/<>=~!\@#%^&|`?]+)}g), qw(= <> < > <= >= ~~ !~~ ~~* !~~* ~ !~));
my %made = map { lc($_) => 1 } ($all =~ /CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|AGGREGATE)\s+idgen\.([a-z0-9_]+)/gi);
my $array = sub { my $a = '{' . join(',', map { '"' . s/(["\\])/\\$1/gr . '"' } sort keys %{ $_[0] }) . '}'; return "'" . $a =~ s/'/''/gr . "'" };
note('names before "(" in the scripts: ' . keys(%f) . '; operator symbols: ' . keys(%o));

# ---- the planted databases (templates of the runs) ---------------------------------------------
local $ENV{PGOPTIONS} = '-c search_path=pg_catalog,pg_temp';    # the test's own queries: no look-alike
my $owner = 'plant_owner';
sub sql { return $node->safe_psql(@_) }
sub as_owner { my ($db, $sql) = @_; return $node->safe_psql($db, $sql, extra_params => [ '-U', $owner ]) }
sub clone { sql('postgres', "CREATE DATABASE $_[0] TEMPLATE $_[1] OWNER $owner") }
# plant <database> <schema>: the look-alikes, as the owner, in two sessions
sub plant {
	my ($db, $schema) = @_;
	my @h = map {
		my $out = '';
		[ IPC::Run::start([ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-h', $node->host, '-p', $node->port, '-U', $owner, '-d', $db, '-c',
			"SELECT plant_rec.plant('$schema', " . $array->(\%f) . ', ' . $array->(\%o) . ', ' . $array->(\%made) . ", $_, 2)" ], '>', \$out, '2>&1'), \$out ]
	} 0, 1;
	my $made = 0;
	for (@h) { $_->[0]->finish or die "planting in $db failed: ${ $_->[1] }"; $made += ${ $_->[1] }; }
	note("planted in $db, schema $schema: $made look-alikes (not plantable: "
		  . sql($db, "SELECT coalesce(string_agg(why || ': ' || c, ', '), 'none') FROM (SELECT why, count(*) AS c FROM plant_rec.skipped WHERE sig LIKE '$schema.%' GROUP BY why) s") . ')');
	return;
}
# Data before an update (a superuser's: 1.0 lets only superusers register prefixes).
my $data = q{SELECT idgen.define_id_type('post', 'public.post_id');
  CREATE TABLE public.posts (id public.post_id PRIMARY KEY, body text);
  INSERT INTO public.posts (body) SELECT 'post ' || n FROM generate_series(1, 10) AS n;
  SELECT idgen.register_prefix('post', 'public.posts');
  CREATE TABLE public.docs (id idgen.objectid PRIMARY KEY DEFAULT idgen.objectid(), n int);
  INSERT INTO public.docs (n) SELECT generate_series(1, 10)};

sql('postgres', "CREATE ROLE $owner LOGIN; CREATE DATABASE base OWNER $owner");
as_owner('base', slurp_file(dirname(__FILE__) . '/plant.sql'));
clone('pub', 'base');
plant('pub', 'public');
clone('pub_schema', 'pub');
as_owner('pub_schema', 'CREATE SCHEMA idgen');
plant('pub_schema', 'idgen');
for my $from (qw(1.0 1.1 1.2)) {
	my $t = 'up' . $from =~ s/\.//r;
	clone($t, 'pub');
	as_owner($t, "CREATE EXTENSION idgen VERSION '$from'");
	sql($t, $data);
	# The same with look-alikes in schema idgen: those planted already, moved in once idgen is
	# installed (1.1 gave the schema to a superuser: a superuser let the owner create objects in it
	# again), then made members of the extension by its owner.
	clone("${t}_schema", 'pub_schema');
	as_owner("${t}_schema", "ALTER SCHEMA idgen RENAME TO idgen_planted; CREATE EXTENSION idgen VERSION '$from'");
	sql("${t}_schema", $data);
	sql("${t}_schema", "GRANT CREATE ON SCHEMA idgen TO $owner") unless $from eq '1.0';
	as_owner("${t}_schema", 'SELECT plant_rec.move_in(); DROP SCHEMA idgen_planted CASCADE');
	plant("${t}_schema", 'idgen');
	as_owner("${t}_schema", 'SELECT plant_rec.members()');
}

# ---- the runs ----------------------------------------------------------------------------------
my %caught;    # of the last run: calls, chosen, dependencies
sub run {
	my ($name, $template, $role, $want, $sql) = @_;
	my $db = "run_$name";
	clone($db, $template);
	my $hits = sql($db, 'SELECT last_value::text || is_called::text FROM plant_rec.hits');
	my $offset = -s $node->logfile;
	# As the planter would have it: public first on the session's path; the server logs the parse
	# tree of every query, warnings reach the client.
	my ($rc, $out, $err);
	{
		local $ENV{PGOPTIONS} = '-c search_path=public -c debug_print_parse=on -c debug_pretty_print=off -c client_min_messages=warning';
		($rc, $out, $err) = $node->psql($db, $sql, extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	}
	my $log = slurp_file($node->logfile, $offset) =~ s/[\n\t]+/ /gr;    # (a tree is broken into lines)
	my %oids;
	$oids{$_} = 1 for map { /(\d+)/g } ($log =~ /:(?:opno|opfuncid|funcid|aggfnoid|winfnoid|sortop|eqop|hashfuncid|negfuncid) +\d+|:opnos +\(o[ 0-9]*\)/g);
	my ($hits1, $chosen, $deps, $state) = split /\x1f/, $node->safe_psql($db, "SELECT
	  (SELECT last_value::text || is_called::text FROM plant_rec.hits),
	  (SELECT string_agg(sig, '; ' ORDER BY sig) FROM plant_rec.planted WHERE oid = ANY ('{" . join(',', sort keys %oids) . "}'::oid[])),
	  (SELECT string_agg(pg_describe_object(d.classid, d.objid, d.objsubid) || ' uses ' || p.sig, '; ' ORDER BY 1)
	     FROM pg_depend d JOIN plant_rec.planted p ON p.oid = d.refobjid
	      AND d.refclassid = CASE p.kind WHEN 'o' THEN 'pg_operator'::regclass ELSE 'pg_proc'::regclass END
	    WHERE NOT (d.classid IN ('pg_operator'::regclass, 'pg_proc'::regclass) AND d.objid IN (SELECT oid FROM plant_rec.planted))),
	  plant_rec.state()", extra_params => [ '-F', "\x1f" ]);
	sql('postgres', "DROP DATABASE $db");
	my @called = ($err =~ /PLANTED (.*)/g);
	%caught = (calls => scalar(@called) || ($hits eq $hits1 ? 0 : 1), chosen => scalar(split /; /, $chosen // ''),
		dependencies => scalar(split /; /, $deps // ''));
	my $outcome =
	    $rc == 0 ? 'installed'
	  : $err =~ /ERROR:  (42P06|55000): schema "idgen" (already exists|already holds|holds objects that are not part of)/ ? 'refused'
	  : 'failed: ' . ($err =~ /(ERROR:.*)/)[0];
	note("$name ($role): $sql -> $outcome; " . join(', ', map { "$_ $caught{$_}" } sort keys %caught));
	return if $want eq 'probe';
	is($caught{calls}, 0, "$name: no look-alike called") or diag(join("\n", @called[ 0 .. 9 ]));
	is($chosen // '', '', "$name: no look-alike chosen (parse trees)");
	is($deps // '', '', "$name: nothing the script made uses a look-alike (pg_depend)");
	like($outcome, $want eq 'any' ? qr/^(installed|refused)$/ : $want eq 'body' ? qr/^installed$/ : qr/^$want$/, "$name: $want");
	if ($want ne 'body' && $outcome eq 'installed') {
		like($state, qr/^version \Q$version\E \| owner \S+ \(superuser\) \| CREATE for superusers only \| strangers: none \| owned by others: none$/,
			"$name: schema idgen holds idgen $version alone");
	}
	return;
}

run('superuser_install_public', 'pub', 'postgres', 'installed', 'CREATE EXTENSION idgen');
run('superuser_install_schema', 'pub_schema', 'postgres', 'refused', 'CREATE EXTENSION idgen');
run('owner_install_public', 'pub', $owner, 'installed', 'CREATE EXTENSION idgen');
run('owner_install_schema', 'pub_schema', $owner, 'refused', 'CREATE EXTENSION idgen');
for my $from (qw(1.0 1.1 1.2)) {
	my $t = 'up' . $from =~ s/\.//r;
	run("update_from_${t}_public", $t, $owner, 'installed', 'ALTER EXTENSION idgen UPDATE');
	run("update_from_${t}_schema", "${t}_schema", $owner, 'any', 'ALTER EXTENSION idgen UPDATE');
}
# Every statement after the guards, with the look-alikes in schema idgen.
run('install_body', 'pub_schema', $owner, 'body', "CREATE EXTENSION idgen VERSION 'plant_body'");
run('update_from_1_0_body', 'up10_schema', $owner, 'body', "ALTER EXTENSION idgen UPDATE TO 'plant_body'");
run('update_from_1_1_body', 'up11_schema', $owner, 'body', "ALTER EXTENSION idgen UPDATE TO 'plant_body'");

# ---- the test can fail -------------------------------------------------------------------------
run('probe_install', 'pub_schema', $owner, 'probe', "CREATE EXTENSION idgen VERSION 'plant_probe'");
cmp_ok($caught{chosen}, '>', 0, 'the parse trees show 1.2\'s guard choosing a look-alike for "a.grantee = 0"');
run('probe_update', 'up11_schema', $owner, 'probe', "ALTER EXTENSION idgen UPDATE TO 'plant_probe'");
cmp_ok($caught{calls}, '>', 0, "the 1.1 -> 1.2 guard with \"d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass\" called a look-alike");
run('probe_body', 'pub_schema', $owner, 'probe', "CREATE EXTENSION idgen VERSION 'plant_body_probe'");
cmp_ok($caught{dependencies}, '>', 0, 'pg_depend shows idgen.ticket_server with "% servers" using a look-alike');
$node->stop;
done_testing();
