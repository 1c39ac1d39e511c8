#!/usr/bin/env bash
# The long campaign of the live same-outcome tests (docs/DESIGN.md section 9; the suite runs one seed of each,
# small): ${2:-10} new seeds (each printed, and the failing one's replay), each run by
#   tests/gsm/run_gsm_same_outcome_live.sh          ${3:-12} well-formed GSM models (and a third as many free)
#   tests/patterns/run_pattern_same_outcome_live.sh ${3:-12} / 2 compiled pattern terms
#   tests/wsm/run_wsm_same_outcome_live.sh          ${3:-12} state machine schemas
# over ${4:-30} rounds, polling against `ldgsm run --notifications` (GSM_LIVE_AGAINST, PATTERN_LIVE_AGAINST,
# WSM_LIVE_AGAINST=incremental: against --incremental); about 90 s a seed. Stops at the first failing seed.
# Usage: scripts/same-outcome-live.sh [ldgsm] [SEEDS] [SIZE] [ROUNDS]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ldgsm=${1:-$root/build/ldgsm}
size=${3:-12}
rounds=${4:-30}
for ((i = 0; i < ${2:-10}; i++)); do
  seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  seed=$((seed % 2147483648))
  GSM_PROPERTY_SEED=$seed GSM_LIVE_MODELS=$size GSM_LIVE_ROUNDS=$rounds \
    bash "$root/tests/gsm/run_gsm_same_outcome_live.sh" "$ldgsm" | tail -n +2 || exit 1
  PATTERN_PROPERTY_SEED=$seed PATTERN_LIVE_TERMS=$(((size + 1) / 2)) PATTERN_LIVE_ROUNDS=$rounds \
    bash "$root/tests/patterns/run_pattern_same_outcome_live.sh" "$ldgsm" | tail -n +2 || exit 1
  WSM_PROPERTY_SEED=$seed WSM_LIVE_SCHEMAS=$size WSM_LIVE_ROUNDS=$rounds \
    bash "$root/tests/wsm/run_wsm_same_outcome_live.sh" "$ldgsm" | tail -n +2 || exit 1
done
