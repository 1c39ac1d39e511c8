#!/usr/bin/env bash
# README command 1: installs what is missing, builds into build/, and runs the demo: the GSM paper's
# fire-alarm workflow on the embedded LDP server, printed as a table like its Fig. 2 (`ldgsm demo`;
# arguments are passed on, e.g. --late-sensor, --verbose, --interval 0; see build/ldgsm demo --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" > /dev/null
exec build/ldgsm demo "$@"
