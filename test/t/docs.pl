# What the documentation says, checked on a node that preloads idgen.
# - Every ```sql block of README.md runs as written, in the README's order, in one fresh database,
#   each by psql with ON_ERROR_STOP (the secrets as the README's shell lines give them: files in
#   the data directory); then each page's of docs/ (families, typeid, security, orm, then
#   operating, whose blocks give the server a new identity), in a database of its own where CREATE
#   EXTENSION idgen has run; then what some of the examples show. (```sql partman blocks:
#   partman.pl; ```sql citus blocks need a Citus cluster.)
# - The reference, docs/reference.md (scripts/reference.sh --check): every function of idgen has its
#   line in docs/functions.tsv, every line names a function, the page's section is what the
#   generator prints; and the check fails, saying what to do, on a line missing, a line for no
#   function, and a section edited by hand. CHANGELOG.md has a section for the version idgen.control
#   installs.
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
for my $name (qw(token_secret public_id_key public_uuid_key)) {
	my $file = $node->data_dir . "/idgen_$name";
	# (openssl rand -hex 32, or -hex 16 for the public-UUID key: 16 bytes)
	my $bytes = $name eq 'public_uuid_key' ? 16 : 32;
	PostgreSQL::Test::Utils::append_to_file($file, join('', map { sprintf '%02x', int rand 256 } 1 .. $bytes));
	chmod 0600, $file;
	$node->safe_psql('postgres', "ALTER SYSTEM SET idgen.${name}_file = 'idgen_$name'");
}
$node->reload;
# run_blocks(file, database, at least): each ```sql block, in order.
sub run_blocks {
	my ($file, $db, $least) = @_;
	my @blocks = (slurp_file("$root/$file") =~ /^ *```sql *\n(.*?)^ *```/msg);
	cmp_ok(scalar @blocks, '>=', $least, "sql blocks in $file: " . scalar @blocks);
	my $n = 0;
	for my $block (@blocks) {
		$n++;
		$block =~ s/^  //mg;
		my ($ret, $out, $err) = $node->psql($db, $block);
		is($ret, 0, "$file sql block $n runs as written") or diag("$block\n$err");
		# A reload reaches the postmaster, then new sessions: a moment before the next block.
		sleep 1 if $block =~ /pg_reload_conf/;
	}
}
run_blocks('README.md', 'readme', 15);
for my $page (qw(families typeid security orm operating)) {
	$node->safe_psql('postgres', "CREATE DATABASE page_$page");
	$node->safe_psql("page_$page", 'CREATE EXTENSION idgen');
	run_blocks("docs/$page.md", "page_$page", 1);
}
my $q = sub { $node->safe_psql('readme', $_[0]) };
is($q->('SELECT count(*) FROM events'), '2', "the first example's rows");
is($q->('SELECT min(d.launch_id) || ' . q{'|'} . ' || max(d.launch_id) FROM invoices, idgen.decimal_parse(id) d'), '65|65',
	"the DecimalId example's launch id");
is($q->(q{SELECT idgen.verify_token(idgen.signed_token('reset'))}), 't', 'a token verifies');
is($q->('SELECT idgen.private_id(idgen.public_id(1001))'), '1001', 'public ids round trip');
is($node->safe_psql('page_operating', 'SELECT max(id) > 1 FROM legacy'), 't', "the converted column's new row is above the old");
# (the last node id the pages set is restart_at_clock's example: 18, its function had nothing to do)
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
ok($ok, 'the reference matches the catalog (make reference rewrites docs/reference.md)') or diag($out);
my $tsv = slurp_file("$root/docs/functions.tsv");
PostgreSQL::Test::Utils::append_to_file("$tmp/missing.tsv", $tsv =~ s/^idgen\.uuidv7_min\(.*\n//mr);
($ok, $out) = check(IDGEN_REFERENCE_TSV => "$tmp/missing.tsv");
ok(!$ok && $out =~ /has no line for idgen.uuidv7_min\(timestamp with time zone\), a function of idgen: add this line/
	  && $out =~ /\nidgen.uuidv7_min\(timestamp with time zone\)\t<what it does, in one line>/,
	'a function without a line fails, saying which line to add');
PostgreSQL::Test::Utils::append_to_file("$tmp/stale.tsv", "${tsv}idgen.no_such_function(bigint)\tgone\n");
($ok, $out) = check(IDGEN_REFERENCE_TSV => "$tmp/stale.tsv");
ok(!$ok && $out =~ /names idgen.no_such_function\(bigint\), which is no function of idgen/, 'a line for no function fails, naming it');
my $reference = slurp_file("$root/docs/reference.md");
my $edited = $reference =~ s/^\| `idgen.uuidv7\(\)` \| `uuid` \| .*/| `idgen.uuidv7()` | `uuid` | edited by hand |/mgr;
isnt($edited, $reference, "the edit changes the page's copy");
PostgreSQL::Test::Utils::append_to_file("$tmp/reference.md", $edited);
($ok, $out) = check(IDGEN_REFERENCE_FILE => "$tmp/reference.md");
ok(!$ok && $out =~ /run make reference/ && $out =~ /edited by hand/, 'a section edited by hand fails: run make reference') or diag($out);
my ($version) = slurp_file("$root/idgen.control") =~ /^default_version = '([^']+)'/m;
like(slurp_file("$root/CHANGELOG.md"), qr/^## \Q$version\E$/m, "CHANGELOG.md has a section ## $version for idgen.control's default_version");
$node->stop;
done_testing();
