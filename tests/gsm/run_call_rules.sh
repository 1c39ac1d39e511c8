#!/usr/bin/env bash
# The rules of seed 000 as rules/calls.n3 runs them (DESIGN section 6.1; tests/gsm/models/calls.ttl),
# one section per rule, named after it: Operation Call, Response (Success), a failed attempt, Timeout retry
# (exactly 1 + N_MT sends of one alternative, none before its deadline), Timeout no-retry (rebind: the
# alternatives in order, a fresh budget and key), exhausted (visible to sentries, one incident line), a late
# answer to an earlier attempt of the same alternative (accepted), and an answer to an earlier alternative
# after the rebind (orphaned). Every send is counted at a service honouring Idempotency-Key.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
. "$(dirname "$0")/call_lib.sh"
status_name=calls
configure '{"/a": {"fail": 1}, "/r1": {"fail": 100}, "/r2": {"fail": 100}, "/h": {"hang": 0.6}, "/w": {"hang": 0.8},
  "/y": {"status": 202, "result": "/results/y"}, "/x": {"status": 404}}'
start_service
start_server
put_model calls "s/SVC_PORT/$service_port/"
setenv gA false gF false gH false gR false gD false gW false gY false gX false over false
agent_start --metrics 0 # ldgsm_agent_call_retries_total counts the re-sends below (docs/guide/logs-and-metrics.md)
step
metrics_url=$(sed -n 's/^start: .*; metrics at \(http[^ ]*\)$/\1/p' "$work/agent.log")
# retries_counted: the agent's ldgsm_agent_call_retries_total; sends PATH-ERE: what the service got there
retries_counted() { curl -s "$metrics_url" | sed -n 's/^ldgsm_agent_call_retries_total \([0-9]*\)$/\1/p'; }
sends() { grep -cE "^[A-Z]* ($1) key=" "$work/service.log"; }

echo "# Operation Call"
setenv gA true
step
expect "A opens" A=active
check "the record is calling" [ "$(call_state A)" = calling ]
check "with alternative 1" [ "$(field A alternative)" = 1 ]
check "and the full budget N_MT = 2" [ "$(field A retriesLeft)" = 2 ]
check "T_C is the activation" [ "$(field A calledAt)" = "$(field A activatedAt)" ]
check "the deadline is T_C + T_E" [ "$(seconds_between "$(field A calledAt)" "$(field A deadline)")" = 0.4 ]
check "alternative 1 was sent once" [ "$(executed /a)" = 1 ]
check "with the record's Idempotency-Key" [ "$(keys_of /a)" = "$(field A idempotencyKey)" ]
check "the stage's task is pending" [ "$(task_state A)" = pending ]

echo "# a failed attempt ends at once; no send before the deadline"
called=$(field A calledAt)
step
check "the failure (500) is recorded" [ "$(field A lastFailure)" = 500 ]
check "for this attempt" [ "$(field A failedAttempt)" = "$called" ]
step 2
check "no re-send before the deadline" [ "$(executed /a)" = 1 ]

echo "# Timeout, retry; Response (Success)"
nap 4
step
check "re-sent once the deadline passed" [ "$(executed /a)" = 2 ]
check "with the same key" [ "$(keys_of /a | wc -l)" = 1 ]
check "one retry fewer" [ "$(field A retriesLeft)" = 1 ]
step
check "the 2xx answers the call" [ "$(call_state A)" = answered ]
check "its status is kept" [ "$(field A answerStatus)" = 204 ]
check "the stage's task is sent" [ "$(task_state A)" = sent ]
step
expect "a sentry reads the answer: A's milestone is achieved" A=inactive/c mA=T
check "the agent's metrics count the re-send as a retry ($(retries_counted))" [ "$(retries_counted)" = $(($(sends /a) - 1)) ]

echo "# Timeout, no-retry, non-empty stack (rebind); exhausted"
setenv gR true
for _ in $(seq 1 40); do
  step
  [ "$(field R alternative)" = 2 ] && [ -z "${rebound:-}" ] && rebound=$(field R retriesLeft)
  [ "$(call_state R)" = exhausted ] && break
  nap 0.35
done
check "alternative 1 was executed exactly 1 + N_MT = 3 times" [ "$(executed /r1)" = 3 ]
check "alternative 2 too" [ "$(executed /r2)" = 3 ]
check "alternative 1 under one key" [ "$(keys_of /r1 | wc -l)" = 1 ]
check "alternative 2 under one key" [ "$(keys_of /r2 | wc -l)" = 1 ]
check "not the same key" [ "$(keys_of /r1)" != "$(keys_of /r2)" ]
check "in order: every send of /r1 before the first of /r2" \
  [ "$(grep -n ' /r[12] ' "$work/service.log" | cut -d' ' -f2 | uniq | tr '\n' ' ')" = "/r1 /r2 " ]
check "the rebind starts with a fresh budget" [ "${rebound:-}" = 2 ]
check "the call is exhausted" [ "$(call_state R)" = exhausted ]
check "the stage's task failed" [ "$(task_state R)" = failed ]
step
check "one incident line names the instance, the stage and the alternatives tried" \
  [ "$(grep -c "incident: <${instance}>: the call of stage <${base}models/calls#R> is exhausted; alternatives tried: 1 <http://127.0.0.1:$service_port/r1>, 2 <http://127.0.0.1:$service_port/r2>" "$work/agent.log")" = 1 ]
step
expect "the failure is visible to sentries: R's failure milestone closes it" R=inactive/c R-failed=T
check "nothing is sent after the call is exhausted" [ "$(executed /r2)" = 3 ]
check "every send of R after its first is a retry in the agent's metrics ($(retries_counted))" \
  [ "$(retries_counted)" = $(($(sends /a) - 1 + $(sends '/r1|/r2') - 1)) ]

echo "# a request without headers or body (a DELETE) is a call too"
setenv gD true
step
step
check "D's DELETE was executed once" [ "$(executed /d)" = 1 ]
check "with the record's key" [ "$(keys_of /d)" = "$(field D idempotencyKey)" ]
check "and answered the call" [ "$(call_state D)" = answered ]

echo "# a 4xx to the last alternative exhausts the call in the iteration that reads it"
setenv gX true
step   # X opens and sends its DELETE, which the service refuses
check "X's DELETE was executed once" [ "$(executed /x)" = 1 ]
step   # the agent reads the 404
check "the call is exhausted at once" [ "$(call_state X)" = exhausted ]
step
check "with its incident line" grep -q "incident: <${instance}>: the call of stage <${base}models/calls#X> is exhausted" "$work/last.log"
check "not retried" [ "$(executed /x)" = 1 ]

echo "# an answer and a passed deadline in one iteration: the answer wins"
setenv gW true
step   # W's service answers after 0.8 s, within T_E = 2 s; the agent records it in its next iteration
nap 1.5 # ... by which time the deadline has passed too
step
check "the answer answered the call" [ "$(call_state W)" = answered ]
check "the re-send the deadline asked for yielded to it" grep -q "^warning: PUT http://127.0.0.1:$service_port/w yielded" "$work/last.log"
check "W's service was called once" [ "$(executed /w)" = 1 ]

echo "# a 202 answer: the call waits for the result resource it names"
setenv gY true
step
step
check "the 202 names where the result will be" [ "$(field Y resultIn)" = "http://127.0.0.1:$service_port/results/y" ]
step
check "the result is polled; its 404 means not yet" [ "$(call_state Y)" = calling ]
configure '{"/h": {"hang": 0.6}, "/y": {"status": 202, "result": "/results/y"},
  "/results/y": {"get": "<#it> <https://example.org/env#made> true ."}}'
step
check "a 2xx there answers the call" [ "$(call_state Y)" = answered ]
check "Y's service was called once" [ "$(executed /y)" = 1 ]

echo "# a late answer to an earlier attempt of the same alternative is accepted"
setenv gH true
step   # attempt 1: the service takes 0.6 s, the request gives up at T_E = 0.4 s
check "attempt 1 got no answer within T_E" grep -q "^warning: POST http://127.0.0.1:$service_port/h: outcome unknown (timeout)" "$work/last.log"
step
check "the failure is recorded" [ "$(field H lastFailure)" = timeout ]
nap 1
step   # attempt 2, same key: the service finished attempt 1 meanwhile and answers with its result
check "the re-send is not executed again" [ "$(executed /h)" = 1 ]
check "the service answered it with attempt 1's answer" [ "$(executed /h replayed)" = 1 ]
step
check "that answer answers the call" [ "$(call_state H)" = answered ]

echo "# an answer to an earlier alternative after the rebind is orphaned"
configure '{"/f": {"status": 201}}'
setenv gF true
step   # F opens and /f answers 201; the agent will record it in its next iteration
# meanwhile another agent rebound the call (its write won): the record now waits for another key
curl -s -D "$work/h" -H 'Accept: application/n-triples' "${base}status/calls" > "$work/status.nt"
etag=$(grep -i '^etag:' "$work/h" | cut -d' ' -f2 | tr -d '\r')
key=$(field F idempotencyKey)
sed -i "s/\"$key\"/\"another-agents-key\"/" "$work/status.nt"
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H "If-Match: $etag" -H 'Content-Type: application/n-triples' \
  --data-binary @"$work/status.nt" "${base}status/calls")
check "the other agent's rebind is in place" [ "$code" = 204 ]
step
check "the answer is reported as orphaned" grep -q "incident: <${instance}>: an answer (201) to an earlier alternative of the call <$(record_of F)> came after the rebind: orphaned, not used" "$work/last.log"
check "and not used" [ "$(call_state F)" = calling ]

echo "# --until quiescent does not end while a call is calling"
agent_stop
configure '{"/a": {"hang": 3}}'
setenv gF false gH false gR false gD false gW false gY false
put "status/calls2" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/calls#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
# a second instance: set-up, A opens and calls (no answer within 0.3 s), the failure is recorded with A's
# retry delay of 4 s, and the fourth iteration has nothing to send: A's call is calling
# shellcheck disable=SC2086 # the options are words
"$ldgsm" run -v --instance "${base}status/calls2#it" -n 0 --until quiescent --iterations 4 --timeout 300 ${LDGSM_AGENT_OPTIONS:-} > /dev/null 2> "$work/q.log"
rc=$?
check "the run ends with exit 4 (a call still calling), not 0" [ $rc = 4 ]
check "its last iteration had nothing to send" grep -q 'unsafe 0:' <(grep '^iteration:' "$work/q.log" | tail -n 1)

echo "# --until complete ends (exit 5) when the rest of the instances failed"
setenv gA false gF true
configure '{"/f": {"fail": 100}}'
put "status/calls3" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/calls#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
# F's call fails 1 + 2 times and is exhausted; F's only milestone waits for an answer: nothing closes it
# shellcheck disable=SC2086 # the options are words
bounded "$ldgsm" run --instance "${base}status/calls3#it" -n 50 --until complete ${LDGSM_AGENT_OPTIONS:-} > /dev/null 2> "$work/c.log"
rc=$?
check "the run ends with exit 5" [ $rc = 5 ]
check "naming the failed instance" grep -q "instance <${base}status/calls3#it> failed: a call is exhausted" "$work/c.log"
check "no blank node of the model (its [ ... ] guards) was taken for a resource to GET" \
  ! grep -q 'without an IRI as http:requestURI' "$work/agent.log"
if [[ " ${LDGSM_AGENT_OPTIONS:-} " == *" --incremental "* ]]; then
  check "--incremental left the instance out while its calls waited for their deadlines" \
    grep -qE '^iteration: .*; 0 instances evaluated, 1 left out' "$work/agent.log"
fi
gsm_finish
