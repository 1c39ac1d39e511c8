#!/usr/bin/env bash
# scripts/test-costs.sh: writes tests/costs.cmake from the times ctest recorded in build/ and
# build-sanitize/ (Testing/Temporary/CTestCostData.txt, after a run of scripts/test.sh), so that a fresh
# clone's ctest -j starts the long tests first instead of in name order (a long test started last runs on
# alone while the other core idles). Tests under 5 s are left out: their order hardly matters. Usage:
# scripts/test-costs.sh [PLAIN-BUILD-DIR [SANITIZER-BUILD-DIR]] (default build and build-sanitize).
set -euo pipefail
cd "$(dirname "$0")/.."
costs() { # BUILD-DIR: "name seconds" of its tests of 5 s or more, longest first
  awk 'NF == 3 && $3 >= 5 { printf "%s %d\n", $1, $3 + 0.5 }' "$1/Testing/Temporary/CTestCostData.txt" | sort -k2,2nr
}
{
  echo "# tests/costs.cmake: each long test's time in seconds, as ctest measured it in a run of scripts/test.sh"
  echo "# (written by scripts/test-costs.sh on $(date -u +%Y-%m-%d)); CMakeLists.txt gives it to the test as its COST,"
  echo "# so that ctest -j starts the longest first. The sanitizer build's times are its own."
  for kind in PLAIN SANITIZE; do
    [ $kind = PLAIN ] && build=${1:-build} || build=${2:-build-sanitize}
    echo "set(LDGSM_TEST_COSTS_$kind"
    costs "$build" | while read -r name seconds; do echo "  $name $seconds"; done
    echo ")"
  done
} > tests/costs.cmake
echo "tests/costs.cmake: $(grep -c '^  ' tests/costs.cmake) tests"
