# step.sh: helpers of the focused GSM tests (tests/gsm/run_gsm_*.sh), sourced after tests/agent/lib.sh
# (which gives $ldgsm, $work, start_server, put, get, served, check, finish). A test PUTs one model of
# tests/gsm/models/ and an instance document, sets environment resources, and steps one long-running
# agent (`ldgsm run --step`: an iteration per line on its input, as deployed agents keep what they sent)
# one iteration at a time; after every iteration gsm_status.py checks GSM-1, GSM-2 and that the change
# is one the rule table of DESIGN section 5 allows (a violation fails the test and is printed).
gsm_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gsm_status=$gsm_dir/property/gsm_status.py
violations=0
steps=0
agent_pid=
agent_started=0    # 1 once a test used a stepped agent
agent_iterations=0 # iterations stepped
gsm_cleanup() { # stops the agent, then what tests/agent/lib.sh's cleanup stops (KEEP=1 keeps $work)
  agent_stop
  exec 5>&- 6<&-
  stop_pid "$status_pid" # a process the test started in the background may still hold the fifo open
  cleanup
  [ -z "${KEEP:-}" ] || echo "kept $work"
}
trap gsm_cleanup EXIT

# gsm_status.py runs once, as `serve` on the fifos $work/status.in and status.out (fds 5 and 6): a test
# steps hundreds of times and a Python start costs more than a step. Started here, in the test's own
# shell, so that calls from command substitutions share it.
mkfifo "$work/status.in" "$work/status.out"
python3 "$gsm_status" serve < "$work/status.in" > "$work/status.out" &
status_pid=$!
exec 5> "$work/status.in" 6< "$work/status.out"
# status_call ARG...: `gsm_status.py ARG...`: prints its output, returns its exit status.
status_call() {
  local IFS=$'\t' line
  printf '%s\n' "$*" >&5
  while IFS= read -r line <&6; do
    [[ $line == $'\x1e'* ]] && return "${line#$'\x1e'}"
    printf '%s\n' "$line"
  done
  echo "gsm_status.py serve ended"
  return 2
}

# put_model NAME [SED-SCRIPT [AS]]: PUTs tests/gsm/models/NAME.ttl at /models/AS (edited by SED-SCRIPT,
# e.g. to name a port; AS defaults to NAME, so one model file can be published twice, edited two ways)
# and an instance document /status/AS of its #root; sets $instance.
put_model() {
  local text as=${3:-$1}
  text=$(sed -e "${2:-}" "$gsm_dir/models/$1.ttl")
  [ "$(put "models/$as" "$text")" = 201 ] || { echo "cannot PUT the model $as"; exit 1; }
  put "status/$as" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/$as#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
  instance="${base}status/$as#it"
}

# setenv NAME VALUE...: the environment resource /env/NAME holds <#it> env:value VALUE.
setenv() {
  while [ $# -ge 2 ]; do
    put "env/$1" "<#it> <https://example.org/env#value> $2 ." > /dev/null
    shift 2
  done
}

# agent_start [run options]: a stepped agent on $instance, with $LDGSM_AGENT_OPTIONS too (a test run again
# in another mode, e.g. --incremental); its log goes to $work/agent.log.
agent_start() {
  rm -f "$work/agent.fifo"; mkfifo "$work/agent.fifo"
  # shellcheck disable=SC2086 # the options are words
  # -v: its iteration lines end each step (next_iteration)
  "$ldgsm" run -v --instance "$instance" --step -n 0 ${LDGSM_AGENT_OPTIONS:-} "$@" < "$work/agent.fifo" > /dev/null 2>> "$work/agent.log" 5>&- 6<&- &
  agent_pid=$!
  agent_started=1
  exec 7> "$work/agent.fifo"
}
# agent_stop: ends its input, so it stops after the current iteration (killed, failing the test, when
# it does not within $wait_limit seconds); returns its exit status.
agent_stop() {
  [ -n "$agent_pid" ] || return 0
  exec 7>&-
  local rc=0
  await_pid "$agent_pid" || rc=$?
  agent_pid=
  return $rc
}

# step [N]: N iterations (default 1) of the agent (started if it is not running), each followed by the
# status checks. The agent's log of the last iteration is in $work/last.log.
step() {
  local _
  [ -n "$agent_pid" ] || agent_start
  [ -n "$log_fd" ] || follow_log "$work/agent.log"
  local i
  for ((i = 0; i < ${1:-1}; i++)); do
    agent_iterations=$((agent_iterations + 1))
    skip_log # what came before this step is not its log
    : > "$work/last.log"
    echo >&7
    if ! next_iteration "$agent_pid" "$work/last.log"; then
      echo "the agent did not finish iteration $agent_iterations:"; cat "$work/last.log"; exit 1
    fi
    track
  done
}

# track [--invariants-only]: checks the status as it is now against the previous call.
track() {
  steps=$((steps + 1))
  status_call track "$work/track.json" "$instance" "$@" > "$work/track.out"
  local rc=$? text
  IFS= read -r -d '' text < "$work/track.out" # the copy to the log without a process: tests step thousands of times
  printf '%s' "$text" >> "$work/track.log"
  if [ $rc != 0 ]; then
    violations=$((violations + 1))
    echo "after step $steps:"; grep -v '^step ' "$work/track.out"
  fi
}

# is WHAT...: the last status shows each WHAT ("S=active", "T=inactive/c", "mS=T"; /c: completed).
is() {
  local got
  got=$(status_call show "$work/track.json" "${@%%=*}")
  [ "$got" = "$*" ] || { echo "status: $got, expected: $*"; return 1; }
}
expect() { # description WHAT...: a check of `is`, showing the status when it fails
  local what=$1; shift
  if is "$@" > "$work/is.out"; then passes=$((passes + 1)); else echo "FAIL: $what: $(cat "$work/is.out")"; failures=$((failures + 1)); fi
}

# every_write_went: no iteration line in $work/agent.log counts a write withheld, in conflict, refused
# or failed.
every_write_went() { ! grep -qE '[1-9][0-9]* (withheld|conflicting|refused|failed)' "$work/agent.log"; }

task_state() { status_call task "$work/track.json" "$1"; } # pending, sent or None
fragment() { status_call fragment "$work/track.json" "$1"; } # the stage instance's IRI
activations() { status_call activations "$work/track.json" "$1"; }
tasks_sent() { served PUT "/tasks/$1"; } # requests the server saw for a task resource

# gsm_finish: stops the stepped agent (it must exit 0); the invariant and transition checks of every
# step count as one check. A failed test prints the status history, the agent's warnings and the last
# lines of each file in failure_logs (a test's own witnesses: a service's log).
failure_logs=()
gsm_finish() {
  if [ $agent_started = 1 ]; then
    agent_stop; local rc=$?
    check "the agent stops at the end of its input with status 0" [ $rc = 0 ]
  fi
  check "GSM-1, GSM-2 and the rule table hold after each of the $steps steps" [ $violations = 0 ]
  if [ $failures -gt 0 ]; then
    echo "status history:"; grep -v '^VIOLATION' "$work/track.log"
    echo "the agent's warnings:"; grep -E '^(warning|held|waiting|incident|error):' "$work/agent.log" | tail -n 40
    local f
    for f in "${failure_logs[@]}"; do echo "the last lines of $f:"; tail -n 40 "$f"; done
  fi
  finish
}
