#!/usr/bin/env bash
# A sensor whose document nests a megabyte deep (issue 30: `<a> <p> ((((...` crashed every agent that read
# it, and a restarted agent crashed again, so one document stopped a fleet) is a document that does not
# parse: reported once, naming the sensor and the nesting bound, holding only the workflow that reads it
# (DESIGN section 2, policy "hold"), while the agent goes on and the other workflow advances; `ldgsm
# status` and `ldgsm draw` on the held instance answer too. tests/gsm/models/sensor.ttl is published
# twice as in run_gsm_failing_sensor.sh: "held" reads the nested sensor on another server
# (tests/gsm/static_doc.py), "free" reads /env/sensor-free.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
python3 -c "import sys; sys.stdout.write('<#it> <https://example.org/env#value> ' + '(' * (1 << 20))" > "$work/nested.ttl"
python3 "$gsm_dir/static_doc.py" "$work/nested.ttl" > "$work/device.out" 2> "$work/device.err" &
device_pid=$!
wait_for_line "$work/device.out" "$work/device.err" "$device_pid" "the nested sensor"
device=$line
trap 'stop_pid "$device_pid"; gsm_cleanup' EXIT
put_model sensor "s|SENSOR|${device}sensor-held#it|; s|TASK|held|" sensor-held
held=$instance
put_model sensor "s|SENSOR|${base}env/sensor-free#it|; s|TASK|free|" sensor-free
setenv aS false over false sensor-free true

agent_start --instance "$held"
step 2
expect "free is set up and its S opens on its sensor" S=active mS=f
check "free's task was sent" [ "$(tasks_sent free)" = 1 ]
check "the agent is still running" running "$agent_pid"
check "the nested sensor is reported, located and named" \
  grep -qE "${device}sensor-held.*:1:[0-9]+: nested deeper than 128 levels" "$work/agent.log"
check "held is not set up: its sensor's document does not parse" grep -q 'uninitialized' <(get status/sensor-held)
check "its writes are withheld" grep -qE '[1-9][0-9]* withheld' "$work/last.log"
check "the failure is said once, not every iteration" [ "$(grep -c 'nested deeper than 128 levels' "$work/agent.log")" = 1 ]

# status and draw, on the held instance (which reads the sensor) and on an instance document that is
# itself the nested text
for target in "$held" "${device}nested-instance#it"; do
  bounded "$ldgsm" status "$target" > "$work/status.txt" 2>&1
  rc=$?
  check "ldgsm status $target ends by itself, without a crash (status $rc)" [ "$rc" -lt 128 ]
done
check "and says why" grep -q 'nested deeper than 128 levels' "$work/status.txt"
bounded "$ldgsm" draw "${base}models/sensor-held" --instance "${device}nested-instance#it" -o "$work/held.svg" \
  > "$work/draw.txt" 2>&1
rc=$?
check "ldgsm draw on it too (status $rc)" [ "$rc" -lt 128 ]
check "and says why" grep -q 'nested deeper than 128 levels' "$work/draw.txt"
gsm_finish
