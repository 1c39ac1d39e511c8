#!/usr/bin/env bash
# The long campaign of the pattern property test (tests/patterns/property.py; the suite runs 25 terms):
# TERMS random terms (default 300) compiled by `ldgsm compile`, run by the agent and checked against the
# reference interpreter, every third replayed for DETERM. Usage: scripts/patterns-property.sh [ldgsm] [TERMS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
exec python3 "$root/tests/patterns/property.py" "${1:-$root/build/ldgsm}" --terms "${2:-300}" --determ-every 3
