# What the documentation says, checked on a node that preloads idgen.
# - Every ```sql block of README.md runs as written, in the README's order, in one fresh database,
#   each by psql with ON_ERROR_STOP (the secrets as the README's shell lines give them: files in
#   the data directory); then what some of the examples show.
# - The README's reference (scripts/reference.sh --check): every function of idgen has its line in
#   docs/functions.tsv, every line names a function, the README's section is what the generator
#   prints; and the check fails, saying what to do, on a line missing, a line for no function, and a
#   section edited by hand. CHANGELOG.md has a section for the version idgen.control installs.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest;

my $root = dirname(__FILE__) . '/../..';
my $node = idgen_node('docs');
$node->start;
local $ENV{PGHOST} = $node->host;
local $ENV{PGPORT} = $node->port;

# ---- the README's examples (was test/multi/readme.sh) ----
$node->safe_psql('postgres', 'CREATE DATABASE readme');
for my $name (qw(token_secret public_id_key)) {
	my $file = $node->data_dir . "/idgen_$name";
	PostgreSQL::Test::Utils::append_to_file($file, join('', map { sprintf '%02x', int rand 256 } 1 .. 32));
	chmod 0600, $file;
	$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.${name}_file = 'idgen_$name'");
}
$node->reload;
my @blocks = (slurp_file("$root/README.md") =~ /^ *```sql *\n(.*?)^ *```/msg);
cmp_ok(scalar @blocks, '>=', 20, 'sql blocks in the README: ' . scalar @blocks);
my $n = 0;
for my $block (@blocks) {
	$n++;
	$block =~ s/^  //mg;
	my ($ret, $out, $err) = $node->psql('readme', $block);
	is($ret, 0, "README sql block $n runs as written") or diag("$block\n$err");
	# A reload reaches the postmaster, then new sessions: a moment before the next block.
	sleep 1 if $block =~ /pg_reload_conf/;
}
my $q = sub { $node->safe_psql('readme', $_[0]) };
is($q->('SELECT count(*) FROM events'), '2', "the first example's rows");
is($q->('SELECT min(d.launch_id) || ' . q{'|'} . ' || max(d.launch_id) FROM invoices, idgen.decimal_parse(id) d'), '65|65',
	"the DecimalId example's launch id");
is($q->(q{SELECT idgen.verify_token(idgen.signed_token('reset'))}), 't', 'a token verifies');
is($q->('SELECT idgen.private_id(idgen.public_id(1001))'), '1001', 'public ids round trip');
is($q->('SELECT max(id) > 1 FROM legacy'), 't', "the converted column's new row is above the old");
# (the last node id the README sets is restart_at_clock's example: 18, its function had nothing to do)
is($q->('SELECT (idgen.snowflake_parse(idgen.snowflake_id())).node'), '18', 'node id 18 in a new Snowflake ID');
is($q->(q{SELECT has_function_privilege('app', 'idgen.signed_token(text)', 'EXECUTE')}), 't', 'app may make tokens');

# ---- the reference (was test/multi/reference.sh) ----
$node->safe_psql('postgres', 'CREATE DATABASE reference');
$node->safe_psql('reference', 'CREATE EXTENSION idgen');
local $ENV{PGDATABASE} = 'reference';
my $tmp = PostgreSQL::Test::Utils::tempdir;
sub check {
	my (%env) = @_;
	local @ENV{ keys %env } = values %env;
	my ($out, $err);
	my $ok = IPC::Run::run([ "$root/scripts/reference.sh", '--check' ], '>', \$out, '2>', \$err);
	return ($ok, "$out$err");
}
my ($ok, $out) = check();
ok($ok, 'the reference matches the catalog (make reference rewrites the README section)') or diag($out);
my $tsv = slurp_file("$root/docs/functions.tsv");
PostgreSQL::Test::Utils::append_to_file("$tmp/missing.tsv", $tsv =~ s/^idgen\.uuidv7_min\(.*\n//mr);
($ok, $out) = check(IDGEN_REFERENCE_TSV => "$tmp/missing.tsv");
ok(!$ok && $out =~ /has no line for idgen.uuidv7_min\(timestamp with time zone\), a function of idgen: add this line/
	  && $out =~ /\nidgen.uuidv7_min\(timestamp with time zone\)\t<what it does, in one line>/,
	'a function without a line fails, saying which line to add');
PostgreSQL::Test::Utils::append_to_file("$tmp/stale.tsv", "${tsv}idgen.no_such_function(bigint)\tgone\n");
($ok, $out) = check(IDGEN_REFERENCE_TSV => "$tmp/stale.tsv");
ok(!$ok && $out =~ /names idgen.no_such_function\(bigint\), which is no function of idgen/, 'a line for no function fails, naming it');
my $readme = slurp_file("$root/README.md");
my $edited = $readme =~ s/^\| `idgen.uuidv7\(\)` \| `uuid` \| .*/| `idgen.uuidv7()` | `uuid` | edited by hand |/mgr;
isnt($edited, $readme, 'the edit changes the README copy');
PostgreSQL::Test::Utils::append_to_file("$tmp/README.md", $edited);
($ok, $out) = check(IDGEN_REFERENCE_README => "$tmp/README.md");
ok(!$ok && $out =~ /run make reference/ && $out =~ /edited by hand/, 'a section edited by hand fails: run make reference') or diag($out);
my ($version) = slurp_file("$root/idgen.control") =~ /^default_version = '([^']+)'/m;
like(slurp_file("$root/CHANGELOG.md"), qr/^## \Q$version\E$/m, "CHANGELOG.md has a section ## $version for idgen.control's default_version");
$node->stop;
done_testing();
