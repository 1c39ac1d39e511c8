#!/usr/bin/env bash
# Same outcome, live, for compiled patterns (docs/DESIGN.md section 9, issue 35): random pattern terms as the
# pattern property test makes them, compiled with `ldgsm compile`, run side by side by `ldgsm run -n 50` and
# `ldgsm run --notifications -n 60000 --safety-poll 600000`, each with a server and a task service of its own,
# under the same environment (conditions, events, cancel triggers and item lists changed at rest; tasks that
# answer 204 or 403, and timed ones re-sent once at a deadline): per instance the same status writes, task
# requests and final status (tests/patterns/live.py, on tests/gsm/property/live_runs.py). About 15 s.
# PATTERN_PROPERTY_SEED=N replays a seed; PATTERN_LIVE_TERMS (4), PATTERN_LIVE_ROUNDS (6) and
# PATTERN_LIVE_AGAINST (notifications, or incremental) set the size and the agent compared with polling;
# scripts/same-outcome-live.sh is the longer campaign. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
exec python3 "$(dirname "$0")/live.py" "$ldgsm" --terms "${PATTERN_LIVE_TERMS:-4}" \
  --rounds "${PATTERN_LIVE_ROUNDS:-6}" --against "${PATTERN_LIVE_AGAINST:-notifications}"
