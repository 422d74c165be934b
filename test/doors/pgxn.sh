#!/usr/bin/env bash
# PGXN: META.json holds the fields of meta-spec 1.0.0 that PGXN requires, its versions are the
# version of idgen.control (default_version '1.2' is the semantic version 1.2.0: PGXN takes semantic
# versions only), and the archive of make dist builds and installs idgen on its own: unzipped in a
# scratch directory, built with make against a private copy of the PostgreSQL install given, then
# CREATE EXTENSION and a generator on a throwaway cluster of that copy, which preloads it.
#
#   test/doors/pgxn.sh <pg_config>          (make test: the source-built 18)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
src_pg_config=${1:?usage: test/doors/pgxn.sh <pg_config>}
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# ---- META.json -------------------------------------------------------------------------------
semver_of() {  # the semantic version of a control file's default_version ('1.2' -> 1.2.0)
  local v
  v=$(sed -nE "s/^default_version = '(.*)'/\1/p" "$1")
  while [ "$(tr -cd . <<<"$v" | wc -c)" -lt 2 ]; do v=$v.0; done
  echo "$v"
}
control_version=$(sed -nE "s/^default_version = '(.*)'/\1/p" idgen.control)
semver=$(semver_of idgen.control)
# Every extension of the distribution (a control file at the top) is in provides, at its version.
extensions=""
for c in *.control; do extensions+="${c%.control}=$(semver_of "$c") "; done
IDGEN_SEMVER=$semver IDGEN_EXTENSIONS=$extensions perl -MJSON::PP -e '
  use strict;
  local $/;
  open my $f, "<", "META.json" or die "no META.json\n";
  my $m = eval { JSON::PP->new->decode(<$f>) } or die "META.json is not JSON: $@";
  my @bad;
  for my $k (qw(name abstract version maintainer license provides meta-spec)) {
    push @bad, "no $k" unless defined $m->{$k} && $m->{$k} ne "";
  }
  push @bad, "meta-spec version is not 1.0.0" unless ($m->{"meta-spec"}{version} // "") eq "1.0.0";
  push @bad, "name is not idgen" unless ($m->{name} // "") eq "idgen";
  my $semver = qr/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
  push @bad, "version $m->{version} is not a semantic version" unless $m->{version} =~ $semver;
  push @bad, "version $m->{version} is not idgen.control'"'"'s $ENV{IDGEN_SEMVER}" unless $m->{version} eq $ENV{IDGEN_SEMVER};
  my $p = $m->{provides}{idgen} or push @bad, "provides has no idgen";
  if ($p) {
    for my $k (qw(file version abstract)) { push @bad, "provides.idgen has no $k" unless $p->{$k} }
    push @bad, "provides.idgen.version $p->{version} is not $ENV{IDGEN_SEMVER}" unless ($p->{version} // "") eq $ENV{IDGEN_SEMVER};
    for my $k (qw(file docfile)) { push @bad, "provides.idgen.$k $p->{$k} does not exist" if $p->{$k} && !-f $p->{$k} }
  }
  for (split " ", $ENV{IDGEN_EXTENSIONS}) {
    my ($name, $version) = split /=/;
    my $e = $m->{provides}{$name} or do { push @bad, "provides has no $name (a control file of the distribution)"; next };
    push @bad, "provides.$name.version $e->{version} is not $name.control'"'"'s $version" unless ($e->{version} // "") eq $version;
    push @bad, "provides.$name.file $e->{file} does not exist" unless $e->{file} && -f $e->{file};
  }
  push @bad, "provides names $_, which has no control file" for grep { $ENV{IDGEN_EXTENSIONS} !~ /(^| )\Q$_\E=/ } keys %{$m->{provides} // {}};
  my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5 postgresql qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);
  my @l = ref $m->{license} eq "HASH" ? keys %{$m->{license}} : ref $m->{license} eq "ARRAY" ? @{$m->{license}} : ($m->{license});
  for (@l) { push @bad, "license $_ is not one of meta-spec 1.0.0" unless $licenses{$_} }
  push @bad, "maintainer is empty" unless (ref $m->{maintainer} ? @{$m->{maintainer}} : $m->{maintainer});
  my $pg = $m->{prereqs}{runtime}{requires}{PostgreSQL} // "";
  push @bad, "prereqs.runtime.requires.PostgreSQL is $pg, not 15.0.0 (the oldest major idgen supports)" unless $pg eq "15.0.0";
  die join("\n", map { "META.json: $_" } @bad) . "\n" if @bad;
' || fail "META.json"
pass "META.json: meta-spec 1.0.0 fields, version $semver = idgen.control's $control_version, provides ${extensions% }"

# ---- make dist, then the archive alone ----------------------------------------------------------
scripts/deps.sh unzip
zip=$(make -s dist 2>/dev/null)
[ "$zip" = "build/idgen-$semver.zip" ] && [ -f "$zip" ] || fail "make dist wrote '$zip', not build/idgen-$semver.zip"
work=$(mktemp -d "${TMPDIR:-/tmp}/idgen-pgxn.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
unzip -q "$zip" -d "$work"
dist="$work/idgen-$semver"
[ -f "$dist/META.json" ] && [ -f "$dist/Makefile" ] && [ -f "$dist/idgen.control" ] || fail "the archive lacks META.json, Makefile or idgen.control at idgen-$semver/"
[ ! -d "$dist/build" ] || fail "the archive holds build/"
pass "make dist: $zip ($(unzip -Z1 "$zip" | wc -l) entries under idgen-$semver/)"

server="$work/server"
cp -a "$("$src_pg_config" --bindir)/.." "$server"
export PG_CONFIG="$server/bin/pg_config"
rm -f "$("$PG_CONFIG" --sharedir)"/extension/idgen[._-]* "$("$PG_CONFIG" --pkglibdir)"/idgen.so
# What pgxn install runs: make, then make install, in the unpacked archive.
start=$SECONDS
make -C "$dist" -s -j2 PG_CONFIG="$PG_CONFIG" >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; fail "make in the unpacked archive"; }
make -C "$dist" -s install PG_CONFIG="$PG_CONFIG" >>"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; fail "make install from the archive"; }
so="$("$PG_CONFIG" --pkglibdir)/idgen.so"
[ -f "$so" ] || fail "make install from the archive installed no $so"
pass "built and installed from the archive alone ($((SECONDS - start)) s)"

source "$ROOT/scripts/cluster.sh"
trap 'cluster_cleanup || true; rm -rf "$work"' EXIT  # (errexit holds in the trap)
cluster_start preload
q -c "CREATE EXTENSION idgen"
got=$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
[ "$got" = "$control_version" ] || fail "extversion $got, not $control_version"
got=$(q -c "SELECT idgen.uuidv7_time(idgen.uuidv7()) <= now() + interval '1 minute', idgen.typeid('user') LIKE 'user\_%'")
[ "$got" = "t|t" ] || fail "the generators answered $got"
mapped=$(q -c "SELECT DISTINCT substring(l FROM ' (/\S*idgen\.so\S*)$')
  FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\n') AS l WHERE l LIKE '%idgen.so%'")
[ "$mapped" = "$so" ] || fail "the backend mapped '$mapped', not $so"
pass "CREATE EXTENSION idgen (version $control_version) on $("$PG_CONFIG" --version), idgen.uuidv7() and idgen.typeid() generate, from $mapped"
