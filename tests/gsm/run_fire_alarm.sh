#!/usr/bin/env bash
# The fire-alarm workflow (the GSM paper's Fig. 1 and 2, DESIGN section 5) run by `ldgsm run` against
# `ldgsm serve`: the status lines 1, 2, 3, 4 and 6 appear in order, with the door sensor read together
# with the doors and with it one poll late; each task is sent once per activation; GSM-1 and GSM-2 hold
# after every iteration.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/fire-alarm" && pwd)

expected="inactive inactive f f
active inactive f f
inactive active T f
inactive inactive f T
active inactive f f"

for late in 0 1; do
  start_server --fixtures "$fixtures"
  play $late
  what="door sensor $([ $late = 1 ] && echo 'one poll late' || echo 'read together')"
  check "$what: Fig. 2 lines 1, 2, 3, 4, 6 in order" subsequence "$work/lines" "$expected"
  check "$what: the scenario was played to its end" grep -q reopen "$work/steps"
  # every task once per activation: SFA opened twice (lines 2 and 6), CD once
  check "$what: the alarm was told to ring once per SFA activation" \
    [ "$(grep -Ec '^(PUT|PATCH) .*/devices/alarm 20' "$work/agent.log")" = "$(grep -c '^active' "$work/lines")" ]
  check "$what: the doors were closed once per CD activation" \
    [ "$(grep -Ec '^(PUT|PATCH) .*/devices/doors 20' "$work/agent.log")" = "$(grep -c '^[a-z]* active' "$work/lines")" ]
  # GSM-1 (an active stage has no achieved milestone) and GSM-2 (an inactive root has no active stage)
  check "$what: GSM-1 in every status" ! grep -qE '^active [a-z]+ T|^[a-z]+ active [Tf] T' "$work/lines"
  if [ $failures -gt 0 ]; then echo "status lines:"; cat "$work/lines"; echo "steps:"; cat "$work/steps"; fi
  stop_pid "$server_pid"; server_pid=
done
finish
