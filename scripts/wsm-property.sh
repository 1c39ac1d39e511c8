#!/usr/bin/env bash
# The long campaign of the state machine property test (tests/wsm/run_property.sh; the suite runs 25
# schemas): SCHEMAS random schemas (default 300) and their inboxes run by `ldgsm run --machine` and
# checked against the reference interpreter of seed 002. Usage: scripts/wsm-property.sh [ldgsm] [SCHEMAS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
WSM_PROPERTY_SCHEMAS=${2:-300} exec bash "$root/tests/wsm/run_property.sh" "${1:-$root/build/ldgsm}"
