#!/usr/bin/env bash
# Compiles each pattern of ldp-fixtures/patterns/patterns/ into ldp-fixtures/patterns/models/ with
# `ldgsm compile` (the default base: the models are relative, served from /models/NAME anywhere).
# tests/patterns/run_fixtures.sh fails when a committed model differs from what this writes.
# Usage: scripts/patterns-fixtures.sh [path/to/ldgsm]
set -eu
ldgsm=${1:-build/ldgsm}
dir=$(cd "$(dirname "$0")/../ldp-fixtures/patterns" && pwd)
for source in "$dir"/patterns/*; do
  name=$(basename "$source")
  "$ldgsm" compile -o "$dir/models/$name" "$source"
  echo "models/$name"
done
