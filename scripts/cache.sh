# The builds from source that the tests use (PostgreSQL majors, Citus), cached once per machine and
# shared by every clone: source it, then call the functions below. Nothing here touches the
# system's apt configuration: Debian's source packages come through a private list.
#
#   IDGEN_CACHE   the cache (default /var/cache/idgen as root, else ~/.cache/idgen)
#
# An entry is a directory <cache>/<name>-<key>, where the key is the source's sha256 and the
# recipe's: another source or another recipe builds again. It is built under a lock into a
# temporary directory and renamed once complete, with a manifest of its files and their sizes; a
# missing file or a changed size (a partial or damaged entry) is detected and built again.

IDGEN_CACHE=${IDGEN_CACHE:-$([ "$(id -u)" -eq 0 ] && echo /var/cache/idgen || echo "${XDG_CACHE_HOME:-$HOME/.cache}/idgen")}
mkdir -p "$IDGEN_CACHE/src"
# idgen 1.2's scripts added deb-src lines for trixie and sid to the system's apt configuration and
# left them there (apt then warned of sources configured twice): taken away.
if [ "$(id -u)" -eq 0 ] && [ -f /etc/apt/sources.list.d/idgen-src.sources ]; then
  rm -f /etc/apt/sources.list.d/idgen-src.sources
  echo "removed /etc/apt/sources.list.d/idgen-src.sources (deb-src lines an earlier idgen added)" >&2
fi

say() { echo "${0##*/}: $*" >&2; }
sha() { sha256sum "$1" | cut -c1-64; }

# need_packages <package...>: installs those that are missing (as root). IDGEN_NO_PACKAGES=1 skips it
# (the test of the cache, whose fake builds need none).
need_packages() {
  local need=() pkg
  [ -z "${IDGEN_NO_PACKAGES:-}" ] || return 0
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || { say "run as root once to install ${need[*]}"; return 1; }
  say "installing ${need[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2 ||
    { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2; }
}

# debian_source <package> <glob>: the upstream tarball of a Debian source package (suites trixie and
# sid), downloaded once into the cache; prints its path. apt reads a private source list and keeps
# its index in the cache: the machine's own apt configuration is never changed.
debian_source() {
  local package=$1 glob=$2 found apt_dir=$IDGEN_CACHE/apt
  found=$(ls "$IDGEN_CACHE"/src/$glob 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$found" ]; then echo "$found"; return 0; fi
  [ "$(id -u)" -eq 0 ] || { say "run as root once to download the sources of $package"; return 1; }
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' \
    trixie sid >"$apt_dir/sources.list"
  local apt=(-q -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User=root)
  # (the index is read whole, not through grep -q: under pipefail its SIGPIPE would read as absent)
  local index
  index=$(apt-cache "${apt[@]}" showsrc "$package" 2>/dev/null || true)
  grep -q '^Package:' <<<"$index" || apt-get "${apt[@]}" update >&2 || return 1
  say "downloading the sources of $package"
  # The registry can index a version whose .dsc answers 404 while its .orig comes (pg-partman).
  (cd "$IDGEN_CACHE/src" && apt-get "${apt[@]}" source --download-only "$package" >&2) || true
  rm -f "$IDGEN_CACHE"/src/*.dsc "$IDGEN_CACHE"/src/*.debian.tar.*
  found=$(ls "$IDGEN_CACHE"/src/$glob 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$found" ] || return 1
  local want
  want=$(apt-cache "${apt[@]}" showsrc "$package" | awk -v f="$(basename "$found")" '$3 == f && length($1) == 64 { print $1; exit }')
  if [ -n "$want" ] && [ "$want" != "$(sha "$found")" ]; then
    say "$(basename "$found"): checksum mismatch"
    rm -f "$found"
    return 1
  fi
  echo "$found"
}

# manifest <dir>: every file under it with its size (the entry's own records left out).
manifest() { (cd "$1" && find . \( -type f -o -type l \) ! -name .manifest ! -name .complete -printf '%P %s\n' | LC_ALL=C sort); }

# entry_whole <dir> [file...]: the entry is complete, its files are those of its manifest, and it holds
# each file named (what its users need: a build that failed part-way but ended with a step that
# succeeded, recorded by an older script, holds lib/ and share/ and no bin/).
entry_whole() {
  local dir=$1 file
  shift
  [ -f "$dir/.complete" ] && manifest "$dir" | cmp -s - "$dir/.manifest" || return 1
  for file in "$@"; do [ -e "$dir/$file" ] || return 1; done
}

# cache_entry <name> <key> <build-function> [file...]: prints the entry's directory, built when absent,
# partial, damaged or without one of the files named, by "<build-function> <directory> <stage>": it
# leaves in <stage> the tree that becomes <directory> (built for that final path: a PostgreSQL's
# libraries are found by absolute path). A build that fails, or leaves a stage without one of the
# files named, is never recorded. The entry's .complete holds a stamp of this build: a copy of the
# entry records it (entry_stamp), and follows the entry when it is built again under the same path.
cache_entry() {
  local name=$1 key=$2 build=$3 dir=$IDGEN_CACHE/$1-$2 file
  shift 3
  if entry_whole "$dir" "$@"; then echo "$dir"; return 0; fi
  exec {lock}>"$IDGEN_CACHE/.lock-$name-$key"
  flock "$lock"
  if ! entry_whole "$dir" "$@"; then
    [ -d "$dir" ] && say "$name: the cached build in $dir is partial, damaged or incomplete: building it again"
    rm -rf "$dir" "$dir.tmp"
    # (a build function runs with set -e off, as every command of an if's condition: it says itself
    # which step failed)
    if ! "$build" "$dir" "$dir.tmp"; then
      say "$name: the build failed: nothing is recorded"
      rm -rf "$dir.tmp"
      flock -u "$lock"
      return 1
    fi
    for file in "$@"; do
      if [ ! -e "$dir.tmp/$file" ]; then
        say "$name: the build left no $file: nothing is recorded"
        rm -rf "$dir.tmp"
        flock -u "$lock"
        return 1
      fi
    done
    manifest "$dir.tmp" >"$dir.tmp/.manifest"
    echo "$name $key $(date -u +%Y%m%dT%H%M%S.%N) $$" >"$dir.tmp/.complete"
    mv "$dir.tmp" "$dir"
  fi
  flock -u "$lock"
  echo "$dir"
}

# entry_stamp <dir>: what a copy of the entry records to know it is a copy of this very build.
entry_stamp() { printf '%s\n%s\n' "$1" "$(cat "$1/.complete")"; }
