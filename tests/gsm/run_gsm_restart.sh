#!/usr/bin/env bash
# A task whose send failed or was cut off is a call waiting for its deadline (DESIGN section 6.1; the
# model is tests/gsm/models/restart.ttl, the service tests/gsm/call_service.py, which honours
# Idempotency-Key and counts executions). 1: the service is down when the tasks are sent (nothing listens
# on its port): the running agent records the failure, retries after the delay once the service is back,
# and both the PUT and the POST task are executed exactly once. 2: the agent is killed with SIGKILL while
# a POST task is in flight (the service is still executing it): a new agent finds the call calling,
# re-sends it after its deadline with the same key, and the service executes it once and answers the
# re-send with the first execution's answer. GSM-1, GSM-2 and the rule table are checked after every step.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
. "$(dirname "$0")/call_lib.sh"
status_name=restart
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

echo "# 1. the service is down when the tasks are sent, then comes back"
configure '{}'
port=$(free_port)
start_server
put_model restart "s/TASK_PORT/$port/"
setenv gS false gT false over false
agent_start --timeout 500
step
setenv gS true gT true
step
expect "S and T open" S=active T=active
check "S's task is pending" [ "$(task_state S)" = pending ]
check "the failed sends are reported" grep -qE ', [1-9][0-9]* failed' "$work/last.log"
step
check "S's failure is recorded (connect failure)" [ "$(field S lastFailure)" = "connect failure" ]
check "T's failure is recorded" [ "$(field T lastFailure)" = "connect failure" ]
check "the calls are calling" [ "$(call_state S)-$(call_state T)" = calling-calling ]
start_service "$port"
for _ in $(seq 1 20); do
  nap 0.3
  step
  [ "$(task_state S)-$(task_state T)" = sent-sent ] && break
done
check "the running agent re-sent S's PUT: executed once" [ "$(executed /s)" = 1 ]
check "and T's POST: executed once" [ "$(executed /t/)" = 1 ]
check "both answered" [ "$(call_state S)-$(call_state T)" = answered-answered ]
expect "the stages stay open, not re-activated" S=active T=active
check "S opened once" [ "$(activations S)" = 1 ]
agent_stop
stop_service
stop_pid "$server_pid"; server_pid=
rm -f "$work/track.json"

echo "# 2. the agent is killed while a POST task is in flight"
: > "$work/service.log"
configure '{"/t/": {"hang": 2}}'
start_service
start_server
put_model restart "s/TASK_PORT/$service_port/"
setenv gS false gT false over false
agent_start --timeout 800
step
setenv gT true
echo >&7 # an iteration that opens T and sends its task, which the service is slow to execute
for _ in $(seq 1 200); do
  [ -n "$(curl -s -H 'Accept: application/n-triples' "${base}status/restart" | grep callState)" ] && break
  nap 0.02
done
nap 0.2
kill -9 "$agent_pid"; wait "$agent_pid" 2>/dev/null; agent_pid=; exec 7>&-
track
expect "killed agent: T is open" T=active
check "killed agent: T's call is calling" [ "$(call_state T)" = calling ]
key=$(field T idempotencyKey)
agent_start --timeout 800
for _ in $(seq 1 40); do
  nap 0.3
  step
  [ "$(call_state T)" = answered ] && break
done
check "the restarted agent got T's call answered" [ "$(call_state T)" = answered ]
check "the POST was executed exactly once at the service" [ "$(executed /t/)" = 1 ]
check "every send carried the record's key" [ "$(keys_of /t/)" = "$key" ]
check "the re-send was answered with the first execution's answer" [ "$(executed /t/ replayed)" -ge 1 ]
expect "killed agent: T stays open, not re-activated" T=active
check "T opened once" [ "$(activations T)" = 1 ]
gsm_finish
