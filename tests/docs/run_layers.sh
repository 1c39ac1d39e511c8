#!/usr/bin/env bash
# Includes point downward (docs/DESIGN.md section 3): every #include "LAYER/..." in src/ names the file's
# own layer or one the table there lists below it (tests/docs/check_layers.py). A new include across the
# layers fails the test with FILE:LINE until the code or the table changes. $1 (the ldgsm binary) is unused.
exec python3 "$(dirname "$0")/check_layers.py" "$(cd "$(dirname "$0")/../.." && pwd)"
