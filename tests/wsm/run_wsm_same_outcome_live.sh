#!/usr/bin/env bash
# Same outcome, live, for state machines (docs/DESIGN.md section 9, issue 35): random schemas and inboxes as the
# state machine property test makes them, run side by side by `ldgsm run --machine ... -n 50` and
# `... --notifications -n 60000 --safety-poll 600000`, each with a server of its own, the same members posted
# at each rest: per instance the same history entries, the same writes (the instance document's PUTs, the
# members' DELETEs) and the same final state (tests/wsm/live.py, on tests/gsm/property/live_runs.py). About 7 s.
# WSM_PROPERTY_SEED=N replays a seed; WSM_LIVE_SCHEMAS (4), WSM_LIVE_ROUNDS (8) and WSM_LIVE_AGAINST
# (notifications, or incremental) set the size and the agent compared with polling; scripts/same-outcome-live.sh
# is the longer campaign. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
exec python3 "$(dirname "$0")/live.py" "$ldgsm" --schemas "${WSM_LIVE_SCHEMAS:-4}" \
  --rounds "${WSM_LIVE_ROUNDS:-8}" --against "${WSM_LIVE_AGAINST:-notifications}"
