#!/usr/bin/env bash
# The call fault campaign of tests/gsm/run_call_chaos.sh, longer: 200 SIGKILLs of a lone agent and 100 of
# an agent beside a second one (about 80 rounds of 6 fresh instances), with GSM-1/GSM-2 checked on every
# status snapshot and every activation's request counted at an Idempotency-Key-honouring task service.
# Takes about 6-7 minutes on a loaded 2-core machine; not run by ctest. Prints its seed: CHAOS_SEED=N replays
# the same choices (the agents' timing still varies). CHAOS_KILLS and CHAOS_KILLS2 change the counts.
# usage: scripts/chaos.sh [BUILD-DIR]   (default build; the ldgsm binary must be built there)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-build}/ldgsm
[ -x "$binary" ] || { echo "scripts/chaos.sh: no $binary (build it first: cmake --build ${1:-build})" >&2; exit 2; }
CHAOS_KILLS=${CHAOS_KILLS:-200} CHAOS_KILLS2=${CHAOS_KILLS2:-100} exec bash tests/gsm/run_call_chaos.sh "$binary"
