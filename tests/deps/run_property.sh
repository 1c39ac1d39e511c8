#!/usr/bin/env bash
# Random dependency sets over up to four events: `ldgsm deps` guards, alpha and scheduler against
# tests/deps/oracle.py (tests/deps/property.py; $DEPS_PROPERTY_CASES sets, 60 by default, a fresh seed
# each run, printed for replay; scripts/deps-property.sh runs a longer campaign). $1 is the ldgsm binary.
exec python3 "$(dirname "$0")/property.py" "$1" "${DEPS_PROPERTY_CASES:-60}" ${DEPS_PROPERTY_SEED:+"$DEPS_PROPERTY_SEED"}
