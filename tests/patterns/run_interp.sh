#!/usr/bin/env bash
# The reference interpreter of seed 004 (tests/patterns/interp.py) against its own tests: the seed's
# examples and one test per reduction rule (tests/patterns/test_interp.py). $1 (the ldgsm binary) is unused.
exec python3 "$(dirname "$0")/test_interp.py"
