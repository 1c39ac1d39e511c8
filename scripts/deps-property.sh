#!/usr/bin/env bash
# The dependency property test (tests/deps/property.py) as a longer campaign over a new seed (printed for
# replay): ${1:-1000} random dependency sets against the oracle, on build/ldgsm (built by scripts/test.sh
# or scripts/demo.sh); ${2} replays a seed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/ldgsm ] || { echo "build/ldgsm is missing: run scripts/test.sh first" >&2; exit 2; }
exec python3 tests/deps/property.py build/ldgsm "${1:-1000}" ${2:+"$2"}
