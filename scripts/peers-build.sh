#!/usr/bin/env bash
# Builds the drivers that test/t/public_uuid.pl runs against uuidv47's implementations, from their
# sources in IDGEN_PEERS (a directory the user fills; nothing is ever downloaded), into build/peers/:
#
#   IDGEN_PEERS/uuidv47*     a checkout of github.com/stateless-me/uuidv47: its header, the reference
#                            -> build/peers/uuidv47_driver (test/peers/uuidv47_driver.c)
#   IDGEN_PEERS/uuid47-rs*   a checkout of github.com/potistudio/uuid47-rs, the Rust port (rustc, no
#                            crates: it has no dependencies) -> build/peers/uuid47_rs_driver
#
#   scripts/peers-build.sh     prints a line per peer: built, or why not (the test then says "not run")
# (Built here rather than by the test: the tests run as the server's user, which may not reach the
# compilers of the user who runs them.)
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/peers
mkdir -p "$out"
rm -f "$out"/uuidv47_driver "$out"/uuid47_rs_driver
peers=${IDGEN_PEERS:-}
first() { compgen -G "$peers/$1" | head -n 1; }

source=$( [ -n "$peers" ] && first 'uuidv47*')
if [ -n "$source" ] && [ -f "$source/uuidv47.h" ]; then
  if cc -O2 -std=c11 -I"$source" test/peers/uuidv47_driver.c -o "$out/uuidv47_driver" 2>"$out/uuidv47.log"; then
    echo "uuidv47: built from $source"
  else
    echo "uuidv47: did not build (see $out/uuidv47.log)"
  fi
else
  echo "uuidv47: no source (IDGEN_PEERS/uuidv47*: a checkout of stateless-me/uuidv47)"
fi

source=$( [ -n "$peers" ] && first 'uuid47-rs*')
if [ -n "$source" ] && [ -f "$source/src/lib.rs" ]; then
  if ! command -v rustc >/dev/null; then
    echo "uuid47-rs: no rustc here"
  elif rustc --edition 2021 --crate-type lib --crate-name uuid47 -O "$source/src/lib.rs" --out-dir "$out" \
      2>"$out/uuid47-rs.log" &&
    rustc --edition 2021 -O test/peers/uuid47_rs_driver.rs --extern uuid47="$out/libuuid47.rlib" \
      -o "$out/uuid47_rs_driver" 2>>"$out/uuid47-rs.log"; then
    echo "uuid47-rs: built from $source"
  else
    echo "uuid47-rs: did not build (see $out/uuid47-rs.log)"
  fi
else
  echo "uuid47-rs: no source (IDGEN_PEERS/uuid47-rs*: a checkout of potistudio/uuid47-rs)"
fi
chmod -R a+rX "$out"
exit 0
