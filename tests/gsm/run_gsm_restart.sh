#!/usr/bin/env bash
# An agent stopped between an activation and its task reports the pending task when it starts again
# (DESIGN sections 1 and 5; tests/gsm/models/restart.ttl): "task outcome unknown", a PUT task re-sent
# (idempotent) and then marked sent, a POST task reported and not repeated. Two ways to lose the task:
# its endpoint is down when it is sent (nothing listens on its port), and the agent is killed with
# SIGKILL while the task is in flight (the endpoint never answers the first request). The agent that
# sent a task and saw it fail knows its outcome: it must not report it unknown. GSM-1, GSM-2 and the
# rule table are checked after every iteration.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
endpoint_pid=
stop_endpoint() {
  [ -n "$endpoint_pid" ] && kill "$endpoint_pid" 2>/dev/null && wait "$endpoint_pid" 2>/dev/null
  endpoint_pid=
}
trap 'stop_endpoint; gsm_cleanup' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start_endpoint() { # PORT [--hang-first]: sets endpoint_port
  python3 "$gsm_dir/property/task_endpoint.py" "$1" "$work/endpoint.log" ${2:+"$2"} > "$work/endpoint.out" 7>&- &
  endpoint_pid=$!
  for _ in $(seq 1 100); do
    endpoint_port=$(head -n 1 "$work/endpoint.out" 2>/dev/null)
    [ -n "$endpoint_port" ] && return 0
    sleep 0.05
  done
  echo "the task endpoint did not start"; exit 1
}
endpoint_saw() { grep -c "^$1 $2\$" "$work/endpoint.log" 2>/dev/null; } # METHOD PATH: requests received
# restart: a new agent runs two iterations (the pending tasks are found in the first, a re-sent task's
# 2xx is written in the second); its log is in $work/restart.log.
restart() {
  agent_stop
  local before; before=$(wc -l < "$work/agent.log")
  step 2
  tail -n +$((before + 1)) "$work/agent.log" > "$work/restart.log"
}

# 1. The endpoint is down when the tasks are sent.
: > "$work/endpoint.log"
port=$(free_port)
start_server
put_model restart "s/TASK_PORT/$port/"
setenv gS false gT false over false
step
setenv gS true gT true
step
expect "S and T open" S=active T=active
check "S's task is pending (it failed)" [ "$(task_state S)" = pending ]
check "T's task is pending (it failed)" [ "$(task_state T)" = pending ]
check "the failed tasks are reported" grep -qE ', [1-9][0-9]* failed' "$work/last.log"
step
check "the agent that saw its tasks fail (connection refused) does not call their outcome unknown" \
  ! grep -q "task outcome unknown" "$work/last.log"
start_endpoint "$port"
restart
check "down endpoint: the restarted agent reports S's task outcome unknown" \
  grep -qF "$(fragment S): task outcome unknown" "$work/restart.log"
check "down endpoint: the restarted agent reports T's task outcome unknown" \
  grep -qF "$(fragment T): task outcome unknown" "$work/restart.log"
check "down endpoint: S's PUT task is re-sent once" [ "$(endpoint_saw PUT /s)" = 1 ]
check "down endpoint: T's POST task is not repeated" [ "$(endpoint_saw POST /t/)" = 0 ]
check "down endpoint: S's task is marked sent once the re-sent PUT returned 2xx" [ "$(task_state S)" = sent ]
check "down endpoint: T's task stays pending" [ "$(task_state T)" = pending ]
expect "down endpoint: the stages stay open, not re-activated" S=active T=active
check "S opened once" [ "$(activations S)" = 1 ]
agent_stop
stop_endpoint
kill "$server_pid"; wait "$server_pid" 2>/dev/null; server_pid=
rm -f "$work/track.json"

# 2. The agent is killed while S's task is in flight.
: > "$work/endpoint.log"
start_endpoint 0 --hang-first
start_server
put_model restart "s/TASK_PORT/$endpoint_port/"
setenv gS false gT false over false
step
setenv gS true
echo >&7 # an iteration that opens S and sends its task, which hangs
for _ in $(seq 1 200); do
  [ "$(endpoint_saw PUT /s)" = 1 ] && break
  sleep 0.05
done
check "killed agent: S's task reached the endpoint before the kill" [ "$(endpoint_saw PUT /s)" = 1 ]
kill -9 "$agent_pid"; wait "$agent_pid" 2>/dev/null; agent_pid=; exec 7>&-
track
expect "killed agent: S is open" S=active
check "killed agent: S's task is pending" [ "$(task_state S)" = pending ]
restart
check "killed agent: the restarted agent reports S's task outcome unknown" \
  grep -qF "$(fragment S): task outcome unknown" "$work/restart.log"
check "killed agent: S's PUT task is re-sent once" [ "$(endpoint_saw PUT /s)" = 2 ]
check "killed agent: S's task is marked sent" [ "$(task_state S)" = sent ]
expect "killed agent: S stays open, not re-activated" S=active
gsm_finish
