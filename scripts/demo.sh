#!/usr/bin/env bash
# README command 1: installs what is missing, builds into build/, and runs the demo: the GSM paper's
# fire-alarm workflow on the embedded LDP server, printed as a table like its Fig. 2 (`ldgsm demo`), then
# the procurement workflow whose order call is retried and rebound to a second supplier
# (`ldgsm demo --suppliers`, a few seconds), then three orders of one model side by side (`ldgsm demo
# --orders`). Arguments select one run and are passed on, e.g.
# --late-sensor, --suppliers --no-supplier-b, --orders, --verbose, --interval 0; see build/ldgsm demo --help.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" > /dev/null
if [ $# -gt 0 ]; then
  exec build/ldgsm demo "$@"
fi
build/ldgsm demo
echo
build/ldgsm demo --suppliers
echo
exec build/ldgsm demo --orders
