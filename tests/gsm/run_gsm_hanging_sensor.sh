#!/usr/bin/env bash
# A sensor that never answers holds back only the workflow that reads it, and slows no other (--read-wait;
# http_client.h, guarantee 7). As run_gsm_failing_sensor.sh, one agent runs two workflows of
# tests/gsm/models/sensor.ttl: "held" reads /env/sensor-held, which tests/agent/record_proxy.py holds
# without answering (--hang), "free" reads /env/sensor-free. The agent's --timeout is four times the
# test's wait limit, so an iteration that waited for the hanging read would not end in time (step fails):
# each step ending shows that no iteration waited for it. Free is set up and its S opens in the same
# iterations as in run_gsm_failing_sensor.sh; held's writes are withheld, one line names its sensor, and
# the hanging GET is sent once (later iterations join it). Once the sensor answers, held catches up.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
echo /env/sensor-held > "$work/hanging"
start_proxy --hang "$work/hanging"
put_model sensor "s|SENSOR|${pbase}env/sensor-held#it|; s|TASK|held|" sensor-held
held=$instance
put_model sensor "s|SENSOR|${pbase}env/sensor-free#it|; s|TASK|free|" sensor-free
setenv aS false over false sensor-held false sensor-free false
held_writes=$(written /status/sensor-held) # the test's own
held_is() { # as `is`, for held
  status_call track "$work/held.json" "$held" > "$work/held.out" ||
    { echo "held: $(cat "$work/held.out")"; violations=$((violations + 1)); }
  local got; got=$(status_call show "$work/held.json" "${@%%=*}")
  [ "$got" = "$*" ] || { echo "held: $got, expected: $*"; return 1; }
}
hangs() { grep -c "^HANG	/env/sensor-held	" "$work/proxy.log"; } # GETs of the sensor the proxy began holding
# A healthy read through the proxy takes milliseconds; 3 s keeps a loaded sanitizer run from taking one
# for a hang.
agent_start --instance "$held" --read-wait 3000 --timeout $((wait_limit * 4000))
step
expect "free is set up" S=inactive mS=f
check "held is not: its status document was not written" [ "$(written /status/sensor-held)" = "$held_writes" ]
check "the agent asked for held's sensor, which hangs" [ "$(hangs)" = 1 ]
check "the iteration reports writes withheld" grep -qE '[1-9][0-9]* withheld' "$work/last.log"
check "a line names the sensor that does not answer" \
  grep -q "GET ${pbase}env/sensor-held: no answer within 3000 ms; still waiting" "$work/agent.log"

setenv sensor-held true sensor-free true
step
expect "free's S opens on its sensor in the next iteration" S=active mS=f
check "free's task was sent" [ "$(tasks_sent free)" = 1 ]
check "held's status document is still not written" [ "$(written /status/sensor-held)" = "$held_writes" ]
check "held's task was not sent" [ "$(tasks_sent held)" = 0 ]
check "its writes are still withheld" grep -qE '[1-9][0-9]* withheld' "$work/last.log"
step 3
check "the hanging GET was sent once: later iterations joined it" [ "$(hangs)" = 1 ]
check "the sensor was named once, not in every iteration" \
  [ "$(grep -c 'sensor-held: no answer within' "$work/agent.log")" = 1 ]
check "5 iterations ran, none waiting for the sensor" [ "$(grep -c '^iteration:' "$work/agent.log")" = 5 ]

: > "$work/hanging" # the sensor answers at last: the proxy forwards the GET it held
for _ in $(seq 1 $((wait_limit * 50))); do
  grep -q "^GET	/env/sensor-held	200	" "$work/proxy.log" && break
  nap 0.02
done
step
# its answer may reach the agent just after the iteration's reads: then the next one takes it
held_is S=inactive mS=f > /dev/null || step
check "with its sensor's answer, held is set up" held_is S=inactive mS=f
check "from the GET sent before: nothing new was sent" [ "$(grep -c "^GET	/env/sensor-held	" "$work/proxy.log")" = 1 ]
check "the late answer is logged as such" grep -q "GET ${pbase}env/sensor-held 200 (sent in an earlier iteration)" "$work/agent.log"
step
check "and its S opens on the sensor" held_is S=active mS=f
check "held's task is sent" [ "$(tasks_sent held)" = 1 ]
check "free's task was sent once" [ "$(tasks_sent free)" = 1 ]
check "nothing is withheld any more" ! grep -qE '[1-9][0-9]* withheld' "$work/last.log"
gsm_finish
