#!/usr/bin/env bash
# The reference interpreter of seed 002 (tests/wsm/interp.py) against its own tests: one per rule of the
# seed and per choice ldgsm makes where it is silent (tests/wsm/test_interp.py). $1 (the ldgsm binary) is
# unused.
exec python3 "$(dirname "$0")/test_interp.py"
