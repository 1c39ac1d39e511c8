#!/usr/bin/env bash
# The pattern property test (tests/patterns/property.py) with its stepped agents run as `ldgsm run
# --incremental` (src/agent/incremental.h): random compiled patterns checked against the reference
# interpreter (TOKEN, STATUS, ORDER, PROGRESS, GSM-1/2) while the agent leaves the instance out of the
# iterations in which nothing it read changed; it must leave it out at times. 8 terms, no DETERM reruns
# (tests/patterns/run_property.sh makes them). Seeded: PATTERN_PROPERTY_SEED=N reruns one. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
PATTERN_PROPERTY_AGENT_OPTIONS=--incremental exec python3 "$(dirname "$0")/property.py" "$ldgsm" \
  --terms "${PATTERN_PROPERTY_INCREMENTAL_TERMS:-8}" --determ-every 1000
