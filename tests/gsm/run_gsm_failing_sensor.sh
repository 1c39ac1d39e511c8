#!/usr/bin/env bash
# A failing sensor holds back only the workflow that reads it (DESIGN section 2, failure policy "hold";
# rules/ldp-crawl.n3 groups every GET by the instance it serves). One agent runs two workflows of
# tests/gsm/models/sensor.ttl, published twice: "held" reads the sensor /env/sensor-held, which answers
# 500 (tests/agent/record_proxy.py fails it), "free" reads /env/sensor-free. While the sensor fails,
# held's writes are withheld (it is not even set up) and free advances: set up, opened, its task sent.
# Once the sensor answers again, held catches up. GSM-1, GSM-2 and the rule table are checked on free
# after every iteration, on held once it runs.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
echo /env/sensor-held > "$work/failing"
start_proxy --fail "$work/failing"
put_model sensor "s|SENSOR|${pbase}env/sensor-held#it|; s|TASK|held|" sensor-held
held=$instance
put_model sensor "s|SENSOR|${pbase}env/sensor-free#it|; s|TASK|free|" sensor-free
setenv aS false over false sensor-held false sensor-free false
held_writes=$(written /status/sensor-held) # the test's own
# held_is WHAT...: held's status shows WHAT (as `is` does for free), checked against the rule table.
held_is() {
  status_call track "$work/held.json" "$held" > "$work/held.out" ||
    { echo "held: $(cat "$work/held.out")"; violations=$((violations + 1)); }
  local got; got=$(status_call show "$work/held.json" "${@%%=*}")
  [ "$got" = "$*" ] || { echo "held: $got, expected: $*"; return 1; }
}

agent_start --instance "$held"
step
expect "free is set up" S=inactive mS=f
check "held is not: its status document was not written" [ "$(written /status/sensor-held)" = "$held_writes" ]
check "it is still uninitialized" grep -q 'uninitialized' <(get status/sensor-held)
check "the agent read held's sensor and saw it fail" grep -q "^GET	/env/sensor-held	500	" "$work/proxy.log"
check "the iteration reports writes withheld" grep -qE '[1-9][0-9]* withheld' "$work/last.log"
check "the failure is reported, naming the sensor" grep -q 'sensor-held.*500' "$work/agent.log"

setenv sensor-held true sensor-free true
step
expect "free's S opens on its sensor" S=active mS=f
check "free's task was sent" [ "$(tasks_sent free)" = 1 ]
check "held's status document is still not written" [ "$(written /status/sensor-held)" = "$held_writes" ]
check "held's task was not sent" [ "$(tasks_sent held)" = 0 ]
check "its writes are still withheld" grep -qE '[1-9][0-9]* withheld' "$work/last.log"

: > "$work/failing" # the sensor answers again
step
check "with its sensor back, held is set up" held_is S=inactive mS=f
step
check "and its S opens on the sensor" held_is S=active mS=f
check "held's task is sent" [ "$(tasks_sent held)" = 1 ]
check "free's task was sent once" [ "$(tasks_sent free)" = 1 ]
check "nothing is withheld any more" ! grep -qE '[1-9][0-9]* withheld' "$work/last.log"
gsm_finish
