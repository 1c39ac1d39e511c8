#!/usr/bin/env bash
# The long campaign of the live same-outcome test (tests/gsm/run_gsm_same_outcome_live.sh; the suite runs one
# seed of 6 models and 12 rounds): ${2:-10} new seeds (each printed, and the failing one's replay), each
# ${3:-12} well-formed models (and a third as many free) over ${4:-30} rounds, polling against
# `ldgsm run --notifications` (GSM_LIVE_AGAINST=incremental: against --incremental); about 30 s a seed.
# Stops at the first failing seed. Usage: scripts/same-outcome-live.sh [ldgsm] [SEEDS] [MODELS] [ROUNDS]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ldgsm=${1:-$root/build/ldgsm}
for ((i = 0; i < ${2:-10}; i++)); do
  seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  seed=$((seed % 2147483648))
  GSM_PROPERTY_SEED=$seed GSM_LIVE_MODELS=${3:-12} GSM_LIVE_ROUNDS=${4:-30} \
    bash "$root/tests/gsm/run_gsm_same_outcome_live.sh" "$ldgsm" | tail -n +2 || exit 1
done
