#!/usr/bin/env bash
# The property test of `ldgsm compile` against the reference interpreter (tests/patterns/property.py):
# random pattern terms (depth up to 4; over the run every kernel and policy) compiled, served and run by
# one stepped agent under a random environment script, checked at every quiescent point against
# interp.py (TOKEN, STATUS, ORDER), after every iteration for GSM-1/GSM-2 and the rule table, at the
# end for PROGRESS, and replayed on a fresh server for DETERM. ~25 s for 26 terms in a RelWithDebInfo
# build. Seeded: the seed is printed, PATTERN_PROPERTY_SEED=N reruns one; a longer campaign:
#   python3 tests/patterns/property.py path/to/ldgsm --terms 200 [--determ-every 4]
# $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
exec python3 "$(dirname "$0")/property.py" "$ldgsm" --terms "${PATTERN_PROPERTY_TERMS:-26}"
