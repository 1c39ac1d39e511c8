#!/usr/bin/env bash
# Two agents on one instance never both activate a stage (DESIGN section 5; tests/gsm/models/race.ttl):
# two `ldgsm run` processes run the same instance at once, iterating in parallel, against a server that
# refuses unconditional status writes (--require-conditional=/status/). The test drives the environment
# through phases (all stages open; all finish; all are invalidated and open again), waiting at each for
# the status to reach the phase's state, so every activation is seen; each task must then have been sent
# exactly once per activation. GSM-1 and GSM-2 are checked at every look at the status (the rule-table
# check needs one snapshot per iteration, which two free-running agents do not give). Both agents stop on
# SIGTERM with status 0, every task marked sent.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
. "$(dirname "$0")/../agent/agents.sh"
cycles=4
trap 'stop_agents; gsm_cleanup' EXIT
start_server --require-conditional=/status/
put_model race
race_env() { # g1 g2 g3 a1 a2 a3
  put env/race "@prefix env: <https://example.org/env#> .
<#it> env:g1 $1 ; env:g2 $2 ; env:g3 $3 ; env:a1 $4 ; env:a2 $5 ; env:a3 $6 ; env:done false ." > /dev/null
}
# wait_until WHAT...: looks at the status (checking GSM-1 and GSM-2) until it shows WHAT, 300 looks at most.
wait_until() {
  local _
  for _ in $(seq 1 300); do
    track --invariants-only
    is "$@" > /dev/null && return 0
    nap 0.03
  done
  return 1
}

# reach DESCRIPTION WHAT...: a check that the status comes to show WHAT; false when it does not.
reach() {
  local what=$1; shift
  if wait_until "$@"; then passes=$((passes + 1)); return 0; fi
  echo "FAIL: $what: $(is "$@")"; failures=$((failures + 1)); return 1
}

race_env false false false false false false
for agent in A B; do
  spawn_agent $agent --instance "$instance" -n 2 --iterations 1000000
done
reach "set-up is made" S1=inactive S2=inactive S3=inactive
check "by one write of one agent" [ "$(grep -Ec '^(PUT|PATCH) /status/race 204 ' "$work/serve.log")" = 1 ]

# the scenario; a phase that is not reached ends it (the activations are then not all seen)
race_env true true true false false false
opened=0
if reach "phase 1: all three stages open" S1=active S2=active S3=active; then
  opened=1
  for cycle in $(seq 1 $cycles); do
    race_env true true true true true true
    reach "cycle $cycle: all three finish" S1=inactive/c S2=inactive/c S3=inactive/c m1=T m2=T m3=T || break
    race_env true true true false false false
    reach "cycle $cycle: all three are invalidated and open again" S1=active S2=active S3=active m1=f m2=f m3=f || break
    opened=$((opened + 1))
  done
fi
for _ in $(seq 1 60); do # the agents mark the last tasks sent (a pending one shows as /p)
  track --invariants-only
  grep -q '/p' "$work/track.out" || break
  nap 0.03
done
stop_agent A # SIGTERM; one that does not exit within $wait_limit s is killed (tests/agent/lib.sh)
stop_agent B

for stage in S1 S2 S3; do
  check "$stage was seen opening $opened times (the scenario's activations)" [ "$(activations $stage)" = $opened ]
  check "$stage's task was sent once per activation ($opened times)" [ "$(tasks_sent $stage)" = $opened ]
  check "$stage's last task is marked sent" [ "$(task_state $stage)" = sent ]
done
check "no unconditional status write was made (no 428)" ! grep -Eq '^(PUT|PATCH) /status/race 428 ' "$work/serve.log"
echo "$(basename "$0"): status writes: $(grep -Ec '^(PUT|PATCH) /status/race 204 ' "$work/serve.log") applied, $(grep -Ec '^(PUT|PATCH) /status/race 412 ' "$work/serve.log") lost a race (412)"
if [ $failures -gt 0 ]; then
  echo "task requests:"; grep '^PUT /tasks/' "$work/serve.log" | cut -d' ' -f1-3 | sort | uniq -c
  echo "\"task outcome unknown\" reports: $(cat "$work"/agent-[AB].log | grep -c 'task outcome unknown')"
fi
gsm_finish
