#!/usr/bin/env bash
# Same outcome, live (docs/DESIGN.md section 9, issue 35): the GSM property test's random models
# (tests/gsm/property/gsm_property.py --live) run twice side by side, each by one agent left to run by itself
# over every instance, with a server and a task service of its own: `ldgsm run -n 50` (polling) and
# `ldgsm run --notifications -n 60000 --safety-poll 600000` (so that whatever it does within a minute it did
# through notifications). The environment writes one sensor per instance at most, and only when the
# workflow rests, so that both runs see each change at the same point of each instance's progress; a quarter
# of the models have a stage whose task fails and is re-sent once at a deadline. Per instance the status
# writes (from the status document's history: property, from, to, in order, write by write), the task
# requests the service received (bodies and answers, in order) and the final status must be the same; each
# run also passes the stepped test's checks on every write (GSM-1, GSM-2, the rule table's exact step under
# the environment of the time, a finished workflow staying so, a task sent once per activation), and at
# every rest no table step and no deadline is left undone.
# GSM_PROPERTY_SEED=N replays a seed; GSM_LIVE_MODELS (6 well-formed, and a third as many free),
# GSM_LIVE_ROUNDS (12) and GSM_LIVE_AGAINST (notifications, or incremental) set the size and the agent
# compared with polling; scripts/same-outcome-live.sh is the longer campaign. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
models=${GSM_LIVE_MODELS:-6}
exec python3 "$(dirname "$0")/property/gsm_property.py" "$ldgsm" --live --models "$models" \
  --free $(((models + 2) / 3)) --rounds "${GSM_LIVE_ROUNDS:-12}" --against "${GSM_LIVE_AGAINST:-notifications}"
