#!/usr/bin/env bash
# The property test of the GSM rules (tests/gsm/property/gsm_property.py) with `ldgsm run --incremental`:
# the same random models and environments, every step checked the same, while the agent leaves out the
# instances whose documents did not change (agent/incremental.h); it must leave some out. Seeded like
# run_gsm_property.sh (GSM_PROPERTY_SEED=N reruns one). $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
exec python3 "$(dirname "$0")/property/gsm_property.py" "$ldgsm" --models "${GSM_PROPERTY_MODELS:-10}" --free 4 \
  --iterations 30 --incremental
