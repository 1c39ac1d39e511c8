#!/usr/bin/env bash
# Seed 002, "Invoking a Transition": "If t is not exactly defined, an exception is thrown" (DESIGN 6.3), met
# while an agent runs. A schema made ambiguous (two transitions from idle on go) under a running agent holds
# the one instance whose next event meets the ambiguity, with a line naming it, the state and the event;
# the instance of that schema at another event and the instance of another schema go on; the agent keeps
# running; `ldgsm status` says the instance is held and why and exits 6 (as `ldgsm run --until` ends on a
# held instance); once the schema is fixed (re-read every iteration) the held instance takes its event.
# The agent is stepped (--step): one iteration per line, so nothing here depends on timing.
source "$(dirname "$0")/../agent/lib.sh"
wsm_tests=$(cd "$(dirname "$0")" && pwd)
start_server --fixtures "$agent_tests/../../ldp-fixtures/state-machine"
switches=$(cat "$wsm_tests/schemas/switches")
put schemas/switches "$switches" > /dev/null
put schemas/other "$(sed 's|<#switches>|<#other>|' <<< "$switches")" > /dev/null

# machine NAME SCHEMA: documents/NAME, an instance of schemas/SCHEMA with the inbox inbox/NAME/.
machine() {
  ensure_container "inbox/$1/"
  put "documents/$1" "@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
<#it> a wsm:MachineInstance ; wsm:instanceOf <../schemas/$2#$2> ; wsm:inbox <../inbox/$1/> ." > /dev/null
}
event() { # NAME SLUG SCHEMA EVENT
  curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-raw \
    "@prefix wsm: <https://w3id.org/ldgsm/wsm#> . <> wsm:event <${base}schemas/$3#$4> ." "${base}inbox/$1/$2"
}
entries() { get "documents/$1" | python3 "$wsm_tests/summary.py" "${base}documents/$1#it" | grep -c '^entry'; }
machine held switches   # idle, its next event go: the ambiguous one
machine beside switches # idle, its next event arm: not ambiguous
machine other other     # another schema

# The agent, stepped (-v: its iteration lines end each step): step N runs N iterations (fails the test when the
# agent ended instead).
rm -f "$work/agent.fifo"; mkfifo "$work/agent.fifo"
"$ldgsm" run -v --machine "${base}documents/held#it" --machine "${base}documents/beside#it" \
  --machine "${base}documents/other#it" --step -n 0 < "$work/agent.fifo" > /dev/null 2> "$work/run.log" &
agent_pid=$!
exec {agent_in}> "$work/agent.fifo"
follow_log "$work/run.log"
step() {
  local _
  for _ in $(seq 1 "$1"); do
    echo >&"$agent_in"
    next_iteration "$agent_pid" || { echo "FAIL: the agent ended: $(tail -n 5 "$work/run.log")"; failures=$((failures + 1)); return 1; }
  done
}
step 2 # set-up

# The schema made ambiguous while the agent runs.
sed 's|wsm:transition <#t-arm>,|wsm:transition <#t-arm>, <#t-go2>,|' <<< "$switches" > "$work/ambiguous"
printf '<#t-go2> <https://w3id.org/ldgsm/wsm#from> <#idle> ; <https://w3id.org/ldgsm/wsm#on> <#go> ; <https://w3id.org/ldgsm/wsm#to> <#idle> .\n' >> "$work/ambiguous"
put schemas/switches "$(cat "$work/ambiguous")" > /dev/null
event held 0001 switches go
event beside 0001 switches arm
event other 0001 other go
step 3
check "the agent goes on running with an ambiguous schema (it did not exit)" running "$agent_pid"
check "the held line names the instance, the state and the event" \
  grep -qF "held: <${base}documents/held#it>: its schema has more than one transition from <${base}schemas/switches#idle> on <${base}schemas/switches#go>" "$work/run.log"
check "the held instance takes no event" test "$(entries held)" = 0
check "its event stays in its inbox" test "$(members inbox/held/)" = 1
check "an instance of the same schema not at that state and event goes on (it took arm)" test "$(entries beside)" = 1
check "an instance of another schema goes on (it took go)" test "$(entries other)" = 1
check "only the instance that meets the ambiguity is held" ! grep -qE "held: <${base}documents/(beside|other)#it>" "$work/run.log"

bounded "$ldgsm" run --machine "${base}documents/held#it" -n 0 --until quiescent --iterations 3 > /dev/null \
  2> "$work/alone.log"
check "run alone, the held instance ends the run as held (exit 6), not as nothing to run (exit 1)" test $? = 6
check "... with its held: line" grep -qF "held: <${base}documents/held#it>: its schema has more than one transition" "$work/alone.log"

bounded "$ldgsm" status "${base}documents/held#it" > "$work/status.out" 2> "$work/status.err"
check "ldgsm status on the held instance exits 6, as an --until run ending on it does" test $? = 6
check "ldgsm status says it is held, naming the state and the event" \
  grep -qF "  held: its schema has more than one transition from <${base}schemas/switches#idle> on <${base}schemas/switches#go>" "$work/status.out"
check "ldgsm status does not show its next event as taken" grep -qF "0001: \"go\" (next: not taken while the instance is held" "$work/status.out"
bounded "$ldgsm" status "${base}documents/beside#it" > /dev/null 2>&1
check "ldgsm status on the instance beside it exits 0" test $? = 0

# Fixed: the agent reads the schema again, and the held instance takes its event.
put schemas/switches "$switches" > /dev/null
step 2
check "once the schema is fixed the held instance takes its event (go, rejected: a is not set)" test "$(entries held)" = 1
check "and its inbox is empty" test "$(members inbox/held/)" = 0
bounded "$ldgsm" status "${base}documents/held#it" > /dev/null 2>&1
check "ldgsm status on it exits 0 again" test $? = 0

exec {agent_in}>&-
await_pid "$agent_pid"
check "the agent ends at the end of its input with status 0" test $? = 0
finish
