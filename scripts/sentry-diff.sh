#!/usr/bin/env bash
# A long differential campaign of sentries against rasqal's SPARQL engine over redland
# (tests/unit/test_sentry_differential.c; ctest runs its first 5000 cases): COUNT random graphs and ASK
# queries from seed SEED. A disagreement prints its seed, data and query; rerun one case with
# `LDGSM_SENTRY_DIFF_SEED=<seed> test_sentry_differential 1`.
#
# usage: scripts/sentry-diff.sh [COUNT] [SEED]   (BUILD_DIR: the build directory, default build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count=${1:-100000}
seed=${2:-${LDGSM_SENTRY_DIFF_SEED:-1}}
build=${BUILD_DIR:-$root/build}
binary="$build/test_sentry_differential"
if [ ! -x "$binary" ]; then
  echo "sentry-diff.sh: $binary is missing (cmake --build $build --target test_sentry_differential)" >&2
  exit 2
fi
case $count in ''|*[!0-9]*) echo "sentry-diff.sh: COUNT '$count' is not a number" >&2; exit 2 ;; esac
LDGSM_SENTRY_DIFF_SEED=$seed exec "$binary" "$count"
