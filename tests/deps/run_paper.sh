#!/usr/bin/env bash
# `ldgsm deps` against Singh 1997's stated results and executions, compared with tests/deps/oracle.py
# (tests/deps/test_paper.py). $1 is the ldgsm binary.
exec python3 "$(dirname "$0")/test_paper.py" "$1"
