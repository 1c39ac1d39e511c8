#!/usr/bin/env bash
# tests/gsm/run_call_rules.sh again with `ldgsm run --incremental` (src/agent/incremental.h): every check of
# seed 000's call rules holds as in polling, while the agent leaves the instance out when nothing it read
# changed; a call's deadline (ldgsm:wakeAt, rules/calls.n3) brings it back for the retries and rebinds.
set -u
LDGSM_AGENT_OPTIONS=--incremental exec bash "$(dirname "$0")/run_call_rules.sh" "$@"
