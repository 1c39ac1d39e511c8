#!/usr/bin/env bash
# Checks that N3.js reads back exactly the terms `ldgsm reason -o ntriples` writes, on random IRIs and
# literals (tests/rdf/nt_roundtrip.js; tests/unit/test_nt_roundtrip.c checks the writer against raptor2
# and the N-Triples grammar). Exits 77 (skipped) when node or N3.js is missing (scripts/peers.sh).
#
# usage: tests/rdf/run_nt_roundtrip.sh LDGSM_BINARY [ROUNDS]   (default $NT_ROUNDTRIP_ROUNDS, or 50)
set -euo pipefail

ldgsm=${1:?usage: run_nt_roundtrip.sh LDGSM_BINARY [ROUNDS]}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

if ! command -v node >/dev/null || [ ! -f "$root/node_modules/n3/package.json" ]; then
  echo "run_nt_roundtrip.sh: SKIPPED: node or N3.js is missing (run scripts/peers.sh)" >&2
  exit 77
fi

work=$(mktemp -d /tmp/ldgsm-nt-roundtrip.XXXXXX)
trap 'rm -rf "$work"' EXIT
node "$root/tests/rdf/nt_roundtrip.js" "$ldgsm" "$work" "${2:-${NT_ROUNDTRIP_ROUNDS:-50}}"
