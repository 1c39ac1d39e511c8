# fire_alarm_lib.sh: plays the fire-alarm scenario of DESIGN section 5 against `ldgsm serve` with the
# fire-alarm fixtures: the agent runs one iteration at a time; the environment reacts (the door sensor
# shows what the doors are, at once or one poll late; the alarm stops once the sensor shows every door
# closed) and, whenever the agent is quiescent, takes the scenario's next step (smoke; later a door opens).
# After every iteration the status is recorded as "SFA CD m1 m2b" when it changed.
# Needs: $ldgsm, $work, start_server from tests/agent/lib.sh.
DEV='@prefix dev: <https://example.org/devices#> .'

status_line() {
  request GET "${base}status/alarm1" "" 'Accept: application/n-triples'
  printf '%s' "$http_body" > "$work/status.nt"
  # the four values by one awk, not twelve grep, cut and sed (a process start costs ~5 ms of CPU here)
  awk -v model="<${base}models/fire-alarm#" '
    $2 == "<http://purl.org/gsm/vocab#isInstanceOf>" && index($3, model) == 1 {
      name = substr($3, length(model) + 1); sub(/>$/, "", name); of[$1] = name }
    $2 == "<http://purl.org/gsm/vocab#hasState>" { state_local = $3; sub(/.*#/, "", state_local); sub(/>$/, "", state_local)
      state[$1] = state_local }
    $2 == "<http://purl.org/gsm/vocab#isAchieved>" && index($3, "\"true\"") == 1 { achieved[$1] = 1 }
    END {
      for (s in of) { if (s in state) named_state[of[s]] = state[s]; if (s in achieved) named_achieved[of[s]] = 1 }
      print named_state["SFA"], named_state["CD"], ("m1" in named_achieved ? "T" : "f"), ("m2b" in named_achieved ? "T" : "f")
    }' "$work/status.nt"
}
device() { request GET "${base}devices/$1" "" 'Accept: application/n-triples'; printf '%s' "$http_body"; }
put_device() { request PUT "${base}devices/$1" "$DEV"$'\n'"$2" 'Content-Type: text/turtle'; }

# The door sensor shows what the doors are.
copy_doors_to_sensor() {
  local doors front=open back=open
  doors=$(device doors)
  [[ $doors == *'#front> <https://example.org/devices#state> <https://example.org/devices#closed>'* ]] && front=closed
  [[ $doors == *'#back> <https://example.org/devices#state> <https://example.org/devices#closed>'* ]] && back=closed
  put_device door-sensor "<#it> a dev:DoorSensor ; dev:reading <#front>, <#back> .
<#front> a dev:DoorReading ; dev:door <doors#front> ; dev:shows dev:$front .
<#back> a dev:DoorReading ; dev:door <doors#back> ; dev:shows dev:$back ."
}
sensor_all_closed() { [ "$(device door-sensor | grep -c 'shows> <https://example.org/devices#closed>')" = 2 ]; }

# take_step STEP: the scenario's step smoke (the detector sees smoke) or reopen (a door opens), noted in
# $work/steps.
take_step() {
  case $1 in
    smoke) put_device smoke-detector '<#it> a dev:SmokeDetector ; dev:obscuration 5.0 .' ;;
    reopen) put_device doors '<#front> a dev:Door ; dev:state dev:open . <#back> a dev:Door ; dev:state dev:closed .' ;;
  esac
  echo "$1" >> "$work/steps"
}

# play LATE: one agent runs the workflow (a long-running `ldgsm run`, as deployed: a task's outcome is
# known to the agent that sent it); after each of its iterations the environment reacts and, when the
# iteration derived no unsafe request, takes the scenario's next step. LATE=1 copies the doors to the
# sensor one poll after they changed. Writes the status changes to $work/lines, the environment's steps to
# $work/steps, the agent's log to $work/agent.log.
play() {
  local late=$1 pending_copy=0 step=0 seen=0 last=""
  local -a scenario=(smoke reopen)
  : > "$work/lines"; : > "$work/agent.log"; : > "$work/steps"
  # one agent process, stepped: an iteration per line the environment writes to its input
  rm -f "$work/steps.fifo"; mkfifo "$work/steps.fifo"
  # -v: its iteration lines end each step, its request lines say what it sent
  "$ldgsm" run -v --instance "${base}status/alarm1#it" --step ${AGENT_OPTIONS:-} < "$work/steps.fifo" 2> "$work/agent.log" &
  local agent=$!
  exec 7> "$work/steps.fifo"
  follow_log "$work/agent.log"
  # the scenario's 80 iterations at most, bounded like every wait of the tests (twice: 60 s by default)
  local deadline=$((SECONDS + 2 * wait_limit))
  while [ $SECONDS -lt $deadline ] && [ $seen -lt 80 ] && running $agent; do
    echo >&7
    seen=$((seen + 1))
    next_iteration $agent || break
    local line; line=$(status_line)
    if [ "$line" != "$last" ]; then echo "$line" >> "$work/lines"; last=$line; fi
    local quiescent=0
    [[ $iteration_line == *', unsafe 0:'* ]] && quiescent=1
    # the environment reacts
    if [ "$late" = 1 ] && [ $pending_copy = 1 ]; then copy_doors_to_sensor; pending_copy=0; quiescent=0; fi
    local sensor_before; sensor_before=$(device door-sensor)
    if [ "$late" = 1 ]; then
      [ "$(device doors | md5sum)" != "$(cat "$work/doors.md5" 2>/dev/null)" ] && pending_copy=1
      device doors | md5sum > "$work/doors.md5"
    else
      copy_doors_to_sensor
    fi
    if sensor_all_closed && device alarm | grep -q 'ringing> "true"'; then
      put_device alarm '<#it> a dev:Alarm ; dev:ringing false .'
      echo "alarm stops" >> "$work/steps"; quiescent=0
    fi
    [ "$sensor_before" != "$(device door-sensor)" ] && quiescent=0
    [ $pending_copy = 1 ] && quiescent=0
    # when the workflow rests, the scenario goes on; one more quiet iteration ends it
    if [ $quiescent = 1 ]; then
      [ $step -ge ${#scenario[@]} ] && break
      take_step "${scenario[$step]}"
      step=$((step + 1))
    fi
  done
  [ $SECONDS -lt $deadline ] || echo "the scenario did not end within $((2 * wait_limit)) s"
  exec 7>&-
  await_pid $agent
}

# door_states: "FRONT BACK" as the doors are (open or closed).
door_states() {
  local doors front=open back=open
  doors=$(device doors)
  [[ $doors == *'#front> <https://example.org/devices#state> <https://example.org/devices#closed>'* ]] && front=closed
  [[ $doors == *'#back> <https://example.org/devices#state> <https://example.org/devices#closed>'* ]] && back=closed
  printf '%s %s' "$front" "$back"
}
sensor_states() {
  local sensor front=open back=open
  sensor=$(device door-sensor)
  [[ $sensor == *'#front> <https://example.org/devices#shows> <https://example.org/devices#closed>'* ]] && front=closed
  [[ $sensor == *'#back> <https://example.org/devices#shows> <https://example.org/devices#closed>'* ]] && back=closed
  printf '%s %s' "$front" "$back"
}

# play_live OPTIONS...: the same scenario with the agent left to run by itself (`ldgsm run OPTIONS`, not
# stepped), as deployed: the environment looks at the server every 50 ms and reacts as play's does (the
# sensor shows the doors, the alarm stops once every door shows closed), writing only what differs; when
# the agent's log did not grow for a second and nothing is left to react to, the workflow rests and the
# scenario goes on. Writes $work/steps and $work/agent.log as play does, and $work/lines from the status
# document's history (tests/gsm/history_lines.py): the agent passes through states faster than a look
# every 50 ms sees.
# Two settings: agent_base, where the agent reaches the server (a proxy; default $base, where the
# environment does); rest_ms, when set, makes the workflow rest after that many ms in which the environment
# wrote nothing and the agent neither read a change (a GET answered 200), wrote, nor derived a request, its
# quiet iterations not counting: an agent whose notifications are lost catches up only at its next
# --safety-poll, whose iteration (its log growing) must neither end the rest nor be missed by it (rest_ms
# longer than --safety-poll).
play_live() {
  local step=0 rest_from=${EPOCHREALTIME/./} log_size=0 rest_us=$((${rest_ms:-1000} * 1000)) agent_fd line partial=""
  local -a scenario=(smoke reopen)
  : > "$work/steps"; : > "$work/agent.log"
  exec {agent_fd}< "$work/agent.log"
  "$ldgsm" run -v --instance "${agent_base:-$base}status/alarm1#it" "$@" 2> "$work/agent.log" & # -v: as play's
  local agent=$!
  local deadline=$((SECONDS + 2 * wait_limit))
  while [ $SECONDS -lt $deadline ] && running $agent; do
    nap 0.05
    local now=${EPOCHREALTIME/./} reacted=0 doors
    doors=$(door_states)
    if [ "$(sensor_states)" != "$doors" ]; then
      put_device door-sensor "<#it> a dev:DoorSensor ; dev:reading <#front>, <#back> .
<#front> a dev:DoorReading ; dev:door <doors#front> ; dev:shows dev:${doors% *} .
<#back> a dev:DoorReading ; dev:door <doors#back> ; dev:shows dev:${doors#* } ."
      reacted=1
    fi
    if [ "$(sensor_states)" = "closed closed" ] && device alarm | grep -q 'ringing> "true"'; then
      put_device alarm '<#it> a dev:Alarm ; dev:ringing false .'
      echo "alarm stops" >> "$work/steps"; reacted=1
    fi
    if [ -z "${rest_ms:-}" ]; then
      local size; size=$(wc -c < "$work/agent.log")
      [ "$size" != "$log_size" ] && { log_size=$size; reacted=1; }
    else
      # the agent's new lines (a partial last one kept for the next look): a change read, a write, a busy
      # iteration
      while IFS= read -r -u "$agent_fd" line || { partial+=$line; false; }; do
        line=$partial$line; partial=""
        [[ $line =~ ^(PUT|PATCH|POST|DELETE)\ |^GET\ [^\ ]*\ 200\  || ( $line == iteration:* && $line != *', unsafe 0:'* ) ]] &&
          reacted=1
      done
    fi
    if [ $reacted = 1 ]; then rest_from=$now; continue; fi
    [ $((now - rest_from)) -lt $rest_us ] && continue
    [ $step -ge ${#scenario[@]} ] && break
    take_step "${scenario[$step]}"
    step=$((step + 1)); rest_from=$now
  done
  [ $SECONDS -lt $deadline ] || echo "the scenario did not end within $((2 * wait_limit)) s"
  stop_pid $agent
  exec {agent_fd}<&-
  request GET "${base}status/alarm1" "" 'Accept: application/n-triples'
  printf '%s' "$http_body" | python3 "$(dirname "${BASH_SOURCE[0]}")/history_lines.py" "${base}models/fire-alarm#" \
    SFA CD m1 m2b > "$work/lines"
}

# live_checks LABEL: after play_live, Fig. 2's lines 1, 2, 3, 4 and 6 in order, the scenario played to its
# end, each task sent once per activation; the lines and steps shown when a check failed.
live_checks() {
  check "$1: Fig. 2 lines 1, 2, 3, 4, 6 in order" subsequence "$work/lines" "inactive inactive f f
active inactive f f
inactive active T f
inactive inactive f T
active inactive f f"
  check "$1: the scenario was played to its end" grep -q reopen "$work/steps"
  check "$1: the alarm was told to ring once per SFA activation" \
    [ "$(grep -Ec '^(PUT|PATCH) .*/devices/alarm 20' "$work/agent.log")" = "$(grep -c '^active' "$work/lines")" ]
  check "$1: the doors were closed once per CD activation" \
    [ "$(grep -Ec '^(PUT|PATCH) .*/devices/doors 20' "$work/agent.log")" = "$(grep -c '^[a-z]* active' "$work/lines")" ]
  if [ $failures -gt 0 ]; then echo "status lines:"; cat "$work/lines"; echo "steps:"; cat "$work/steps"; fi
}

# Is "$2" an ordered subsequence of the lines of file $1?
subsequence() {
  local -a want; IFS=$'\n' read -r -d '' -a want <<< "$2"
  local i=0
  while IFS= read -r line; do
    [ $i -lt ${#want[@]} ] && [ "$line" = "${want[$i]}" ] && i=$((i + 1))
  done < "$1"
  [ $i -eq ${#want[@]} ]
}
