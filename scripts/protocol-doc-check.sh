#!/usr/bin/env bash
# Checks docs/design.md's picture of the protocol against src/core/protocol.hpp: every name written
# Name() in its section is a function of protocol.hpp, and every decision of protocol.hpp is named
# there (the encodings, which are not decisions, excepted). make sim runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
section=$(awk '/^## The protocol as a state machine/{on=1; next} /^## /{on=0} on' docs/design.md)
declared=$(grep -oE '^[A-Za-z][A-Za-z0-9_:<>& ]* ([A-Z][A-Za-z0-9]*)\(' src/core/protocol.hpp |
  sed -E 's/.* ([A-Z][A-Za-z0-9]*)\($/\1/' | sort -u)
encodings='^(Pack|LeaseMsOf|IsFormat14|PartsHandleOf|LegacyHashOf|PackDecimalOrigin|DecimalNextOf|TimelineOf|Tag|LegacyTag|WithIdentity|PartOf|GroupOf|DecimalCopyValue|DecimalOriginValue)$'
status=0
for name in $(grep -oE '\b[A-Z][A-Za-z0-9]*\(\)' <<<"$section" | tr -d '()' | sort -u); do
  if ! grep -qx "$name" <<<"$declared"; then
    echo "docs/design.md names $name(), which src/core/protocol.hpp does not declare" >&2
    status=1
  fi
done
for name in $declared; do
  grep -qE "$encodings" <<<"$name" && continue
  if ! grep -q "\b$name()" <<<"$section"; then
    echo "src/core/protocol.hpp declares $name, which docs/design.md's protocol section does not name ($name())" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "protocol picture: $(wc -w <<<"$declared") functions of protocol.hpp, each named in docs/design.md"
exit $status
