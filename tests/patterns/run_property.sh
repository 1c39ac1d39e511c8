#!/usr/bin/env bash
# The property test of `ldgsm compile` against the reference interpreter (tests/patterns/property.py):
# 25 random pattern terms (depth up to 4; over the run every kernel and policy, and branches stopped by a
# failure or a join's win while they run) compiled, served and run by one stepped agent under a random
# environment script, checked at every quiescent point against interp.py (TOKEN, STATUS, ORDER: no task
# the interpreter never starts), after every iteration for GSM-1/GSM-2 and the rule table, at the end
# for PROGRESS, and replayed on a fresh server for DETERM: ~30 s in a RelWithDebInfo build (scripts/test.sh runs 1 term in the sanitizer build).
# Seeded: the seed is printed, PATTERN_PROPERTY_SEED=N reruns one (PATTERN_PROPERTY_TERMS=N sets the
# number of terms). A longer campaign, and one term with a given start (to reproduce):
#   python3 tests/patterns/property.py path/to/ldgsm --terms 300 --determ-every 3
#   python3 tests/patterns/property.py path/to/ldgsm --term 'par(task(t1), task(t2))' --init ... --verbose
# $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
exec python3 "$(dirname "$0")/property.py" "$ldgsm" --terms "${PATTERN_PROPERTY_TERMS:-25}"
