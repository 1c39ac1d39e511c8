#!/usr/bin/env bash
# The isolation property test (tests/gsm/property/iso_property.py; the suite runs 16 cases) as a longer
# campaign over a new seed (printed for replay): ${1:-200} random models, each with 3 to 8 instances run
# together and alone, on build/ldgsm (built by scripts/test.sh or scripts/demo.sh); ${2} replays a seed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/ldgsm ] || { echo "build/ldgsm is missing: run scripts/test.sh first" >&2; exit 2; }
exec python3 tests/gsm/property/iso_property.py build/ldgsm --cases "${1:-200}" --instances 3-8 ${2:+--seed "$2"}
