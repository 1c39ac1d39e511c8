#!/usr/bin/env bash
# `ldgsm deps --gsm`'s policy (what each event waits for, its triggers, completion) against an independent
# implementation of its specification (tests/deps/policy_oracle.py) on random dependency sets, and random
# runs under both checked to satisfy every dependency (tests/deps/policy_property.py). The suite runs
# $DEPS_POLICY_CASES sets (200 by default) from $DEPS_POLICY_SEED (random by default, printed with a
# failure). $1 is the ldgsm binary.
exec python3 "$(dirname "$0")/policy_property.py" "$1" "${DEPS_POLICY_CASES:-200}" "${DEPS_POLICY_SEED:-$RANDOM}"
