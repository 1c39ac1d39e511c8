#!/usr/bin/env bash
# Sub-workflow alternatives {P1 % P2 % ...} of seed 000 (DESIGN section 6.1, rules/gsm-alternatives.n3;
# the model is tests/gsm/models/subworkflow.ttl): Sub-Workflows: Success! (P1 succeeds, P2 never runs);
# Sub-Workflows: First alternative failed (P1's call is exhausted: P1 gives way, closed with what it wrote
# kept, and P2 runs); all alternatives failed (the parent's failure milestone, visible to sentries); a stage
# stuck by its own ldgsm:timeout gives way. GSM-1, GSM-2 and the rule table are checked after every step.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
. "$(dirname "$0")/call_lib.sh"
status_name=subworkflow
configure '{"/q1": {"fail": 100}, "/q2": {"fail": 100}}'
start_service
start_server
put_model subworkflow "s/SVC_PORT/$service_port/"
setenv gS false gU false gV false w1done false over false
step
until_state() { # WHAT... : steps (at most 40, 0.25 s apart) until the status shows WHAT
  for _ in $(seq 1 40); do
    is "$@" > /dev/null 2>&1 && return 0
    nap 0.25
    step
  done
  return 1
}

echo "# Sub-Workflows: Success!"
setenv gS true
check "P1 runs, answers, and S is done" until_state S=inactive/c P1=inactive/c
expect "P2 never opened" P2=inactive
check "P2's service was never called" [ "$(executed /p2)" = 0 ]
check "P1's service was executed once" [ "$(executed /p1)" = 1 ]

echo "# Sub-Workflows: First alternative failed; all alternatives failed"
setenv gU true
check "Q1 gives way once its call is exhausted, and Q2 runs" until_state Q2=active
expect "Q1 was closed, completed" Q1=inactive/c
check "what Q1 wrote stays: its call record says exhausted" [ "$(call_state Q1)" = exhausted ]
check "Q1's service was tried 1 + N_MT = 2 times" [ "$(executed /q1)" = 2 ]
check "the parent fails visibly once Q2 gives way too" until_state U=inactive/c Q2=inactive/c
check "U's 'all alternatives failed' milestone is achieved in the status document" \
  grep -q '"true"' <(get "status/$status_name" | grep -F "$(get "status/$status_name" | grep -F 'isInstanceOf>' | grep -F '#ldgsm-all-failed-' | cut -d' ' -f1) <http://purl.org/gsm/vocab#isAchieved>")
check "each exhausted call gave one incident line" [ "$(grep -c 'incident: .*is exhausted' "$work/agent.log")" = 2 ]
check "Q2's service was tried twice" [ "$(executed /q2)" = 2 ]

echo "# a stage stuck by its own timeout gives way"
setenv gV true
check "W1 opens and its call is answered" until_state W1=active
check "W1 gives way after its 1 s timeout and W2 runs to the end: V is done" until_state V=inactive/c W2=inactive/c
expect "W1 was closed, completed" W1=inactive/c
check "the overdue stage was named in an incident line" grep -q "incident: .*stage <${base}models/subworkflow#W1> has been open longer than its timeout PT1S" "$work/agent.log"
check "W1's answer stays in the status document" [ "$(call_state W1)" = answered ]

echo "# --until complete ends (exit 5) once a stage's alternatives all failed and nothing is left to do"
agent_stop
setenv gS false gV false
put "status/subworkflow2" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/subworkflow#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
bounded "$ldgsm" run --instance "${base}status/subworkflow2#it" -n 50 --until complete > /dev/null 2> "$work/c.log"
rc=$?
check "the run ends with exit 5" [ $rc = 5 ]
check "naming the failed instance" grep -q "instance <${base}status/subworkflow2#it> failed" "$work/c.log"
gsm_finish
