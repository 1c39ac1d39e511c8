#!/usr/bin/env bash
# README command 1: installs what is missing, builds into build/, and runs the demo.
# Until the GSM agent lands, the demo is the reasoner: the RDFS closure of a small data set.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" > /dev/null
echo "== data (tests/reason/cases/rdfs-basic/data.ttl) =="
cat tests/reason/cases/rdfs-basic/data.ttl
echo
echo "== derived by rules/rdfs.n3 (ldgsm reason --pass-only-new -o turtle) =="
build/ldgsm reason -v --pass-only-new -o turtle rules/rdfs.n3 tests/reason/cases/rdfs-basic/data.ttl
