#!/usr/bin/env bash
# Random dependency sets over up to four events: `ldgsm deps` guards, alpha and scheduler against
# tests/deps/oracle.py (tests/deps/property.py). The suite's run is a regression check over fixed sets
# ($DEPS_PROPERTY_CASES, 60 by default, from $DEPS_PROPERTY_SEED, 1 by default): it fails when a change
# breaks one, not when a new random set finds a gap still open; scripts/deps-property.sh explores new
# seeds (1000 sets each). $1 is the ldgsm binary.
exec python3 "$(dirname "$0")/property.py" "$1" "${DEPS_PROPERTY_CASES:-60}" "${DEPS_PROPERTY_SEED:-1}"
