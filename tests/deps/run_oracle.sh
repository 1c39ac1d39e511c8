#!/usr/bin/env bash
# The reference implementation of Singh 1997's algebra (tests/deps/oracle.py: the definitions by plain
# enumeration) against the paper's stated facts (tests/deps/test_oracle.py). $1 (the ldgsm binary) is
# unused.
exec python3 "$(dirname "$0")/test_oracle.py"
