#!/usr/bin/env bash
# `ldgsm run --notifications` (src/agent/notifications.h, docs/DESIGN.md §1.5), run with --interval 60000 and
# --safety-poll 600000, so that whatever happens within a minute happened by a notification:
# - two instances of a model whose milestones wait for a sensor: the agent finds the server's
#   WebSocketChannel2023 service in its storage description, subscribes to the four documents it reads, and
#   once the channels are open makes no request while nothing changes; the sensor's change is acted on at
#   once (its document the one read) and both instances complete;
# - the fire alarm (tests/gsm/run_fire_alarm.sh) with the agent left to run by itself, the environment
#   reacting to what the server shows: Fig. 2's lines in order, each task once per activation;
# - a server that offers no channel is polled as with --incremental.
# tests/gsm/css_gsm.sh runs it against Community Solid Server 7.2.0 twice: NOTIFICATIONS_OFFERED=yes with
# WebSocketChannel2023 on (the first two parts), =no with its notifications/disabled configuration (the last).
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
if [ "${NOTIFICATIONS_OFFERED:-both}" != no ]; then
# the sockets' port, known, so that the test can cut the agent's sockets (against ldgsm serve)
notify_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if [ -z "${CSS_URL:-}" ]; then start_server --notifications-port "$notify_port"; else start_server; fi
one_stage_model models/m "$started_guard" "$(sensed sensor)"
put env/sensor '<#it> <https://example.org/env#value> false .' > /dev/null
instance='@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .'
for i in 1 2; do put s/i$i "$instance" > /dev/null; done
"$ldgsm" run -v --instance "${base}s/i1#it" --instance "${base}s/i2#it" --notifications -n 60000 --safety-poll 600000 \
  > /dev/null 2> "$work/run.log" &
agent_pid=$!

# waits (bounded) until the agent's log, from line $1 on, has a line matching the extended regex $2
await_log() {
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do
    tail -n +"$1" "$work/run.log" | grep -qE "$2" && return 0
    running "$agent_pid" || break
    nap 0.1
  done
  return 1
}
check "the storage description's WebSocketChannel2023 service is found" \
  await_log 1 "^notifications: the storage described at ${base}.well-known/solid offers WebSocketChannel2023 at "
check "the four documents read get a channel each" await_log 1 '^iteration: .*, 4 channels live'
check "and an iteration finds both instances quiet" await_log 1 '^iteration: .* unsafe 0: .*, 4 channels live'
# the agent now waits for a notification (or its safety poll, ten minutes away): nothing is asked
nap 0.5
quiet_from=$(($(wc -l < "$work/run.log") + 1))
nap 2
check "while nothing changes, no request is made" ! grep -qE '^(GET|PUT|PATCH|POST) ' <(tail -n +"$quiet_from" "$work/run.log")
check "nor an iteration run" ! grep -q '^iteration:' <(tail -n +"$quiet_from" "$work/run.log")

# Sockets cut (as a server restart or a network fault would): each channel is lost, its document read by GET
# and subscribed to again a second later; then the agent is quiet again.
if [ -z "${CSS_URL:-}" ]; then
  cut_from=$(($(wc -l < "$work/run.log") + 1))
  ss -K dst 127.0.0.1 dport = ":$notify_port" > /dev/null 2>&1
  check "cut sockets: each of the four channels is said lost" \
    await_log "$cut_from" '^notifications: the channel of .*env/sensor closed'
  check "and read by GET meanwhile" await_log "$cut_from" "^GET ${base}env/sensor 304 "
  check "and subscribed to again: four channels live" \
    await_log "$cut_from" '^iteration: .* unsafe 0: .*, 4 channels live'
  nap 0.5
  quiet_from=$(($(wc -l < "$work/run.log") + 1))
  nap 1
  check "then, again, no request while nothing changes" \
    ! grep -qE '^(GET|PUT|PATCH|POST) ' <(tail -n +"$quiet_from" "$work/run.log")
fi

# ldgsm status --watch, reading again every minute, shows the change at once too
"$ldgsm" status --watch 60000 "${base}s/i1#it" > "$work/watch.out" 2> "$work/watch.err" &
watcher=$!
await_output() { # file, extended regex: waits (bounded) for a line
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do grep -qE "$2" "$1" && return 0; nap 0.1; done
  return 1
}
check "status --watch shows the instance" await_output "$work/watch.out" '^last transitions'
sensed_from=$(($(wc -l < "$work/run.log") + 1))
put env/sensor '<#it> <https://example.org/env#value> true .' > /dev/null
check "the sensor's change is acted on well before --interval: both instances complete" await_completed 1 2
check "the first request after the change reads the sensor, the one document it changed" \
  grep -qE "^GET ${base}env/sensor 200 " <(tail -n +"$sensed_from" "$work/run.log" | grep -m1 -E '^(GET|PUT|PATCH) ')
stop_pid "$agent_pid"
check "the agent stops at SIGTERM with status 0" [ $? = 0 ]
check "status --watch printed the completed instance well before its minute" \
  await_output "$work/watch.out" '^---$'
stop_pid "$watcher"

# --instances-from: the listing has a channel too, so a member created later is taken up at once.
ensure_container pool/ > /dev/null
put pool/p1 "$instance" > /dev/null
"$ldgsm" run -v --instances-from "${base}pool/" --notifications -n 60000 --safety-poll 600000 > /dev/null \
  2> "$work/pool.log" &
pool_agent=$!
pool_complete() { grep -q 'isCompleted> "true"' <<< "$(get "pool/$1")"; }
await_pool() { local i; for ((i = 0; i < wait_limit * 10; i++)); do pool_complete "$1" && return 0; nap 0.1; done; return 1; }
check "--instances-from: the listed instance completes" await_pool p1
check "and the agent rests, its channels live" \
  await_output "$work/pool.log" '^iteration: .* unsafe 0: .*, [1-9] channels live'
put pool/p2 "$instance" > /dev/null
check "a member created later is taken up and completes well before --interval" await_pool p2
# a member's own change leaves the listing as it was: watched, it is not read again
check "the agent rests again" await_output "$work/pool.log" '^iteration: .* unsafe 0: .*, [1-9] channels live'
nap 0.3
reset_from=$(($(wc -l < "$work/pool.log") + 1))
put pool/p1 "$instance" > /dev/null
pool_reset_complete() { local i; for ((i = 0; i < wait_limit * 10; i++)); do
  pool_complete p1 && grep -q "^PUT ${base}pool/p1 " <(tail -n +"$reset_from" "$work/pool.log") && return 0; nap 0.1; done; return 1; }
check "a member written anew completes again" pool_reset_complete
check "... without the listing being read again" ! grep -q "^GET ${base}pool/ " <(tail -n +"$reset_from" "$work/pool.log")
request DELETE "${base}pool/p1" "" > /dev/null
check "a member deleted leaves the run at once" \
  await_output "$work/pool.log" "instances-from: <${base}pool/p1> is no longer listed"
stop_pid "$pool_agent"

# The fire alarm left to run by itself: the environment reacts to what the server shows, and the agent to
# the notifications of its changes.
# (a new server: lib.sh's cleanup stops only the last one started; none to stop against CSS)
[ -n "$server_pid" ] && { stop_pid "$server_pid"; server_pid=; }
start_server --fixtures "$(cd "$(dirname "$0")/../../ldp-fixtures/fire-alarm" && pwd)"
play_live --notifications -n 60000 --safety-poll 600000
live_checks "fire alarm"

# Deadlines wake the agent: a call to a port where nothing listens fails at once and is re-sent 0.2 s later, 3
# times (ldgsm:wakeAt of its deadline), then exhausted; well before --interval (a minute here). Twice: with
# every document on a channel, and with the milestone read from a second server that offers none (that
# document is polled at --interval; the deadlines come first). A wake that began within the deadline's
# millisecond once acted on nothing and then waited --interval (most wakes did), and so did every wait while
# some document had no channel.
dead_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$ldgsm" serve --memory --port 0 --no-notifications > "$work/plain.out" 2> "$work/plain.log" &
plain_pid=$!
trap 'stop_pid "$plain_pid"; cleanup' EXIT
wait_for_line "$work/plain.out" "$work/plain.log" "$plain_pid" "the second server"
plain=$line
request PUT "${plain}env/never" '<#it> <https://example.org/env#value> false .' 'Content-Type: text/turtle'
# deadlines NAME MILESTONE-ASK: true when an instance of a model whose stage makes that call and completes when
# MILESTONE-ASK holds (never) ends exhausted within the bounded wait; its agent's log is $work/NAME.log
deadlines() {
  one_stage_model "models/$1" "$started_guard" "$2" "; gsm:hasHttpRequest <#call> .
<#call> a ldgsm:Call ; ldgsm:retries 3 ; ldgsm:retryDelay \"PT0.2S\"^^xsd:dayTimeDuration ; ldgsm:alternatives ( <#req> ) .
<#req> a <http://www.w3.org/2011/http#Request> ; <http://www.w3.org/2011/http#mthd> <http://www.w3.org/2011/http-methods#PUT> ;
  <http://www.w3.org/2011/http#requestURI> <http://127.0.0.1:$dead_port/task> ;
  <http://www.w3.org/2011/http#headers> ( [ <http://www.w3.org/2011/http#fieldName> \"Content-Type\" ;
    <http://www.w3.org/2011/http#fieldValue> \"text/turtle\" ] ) ;
  <http://www.w3.org/2011/http#body> \"<#it> a <#Task> .\" "
  put "s/$1" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/$1#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
  "$ldgsm" run -v --instance "${base}s/$1#it" --notifications -n 60000 --safety-poll 600000 > /dev/null 2> "$work/$1.log" &
  local agent=$! i rc=1
  for ((i = 0; i < wait_limit * 10; i++)); do
    grep -q '#callState> <https://w3id.org/ldgsm#exhausted>' <<< "$(get "s/$1")" && { rc=0; break; }
    nap 0.1
  done
  stop_pid "$agent"
  return $rc
}
check "each deadline wakes the agent: the call is re-sent 3 times and exhausted, well before --interval" \
  deadlines calls "$(sensed never)"
check "its request was sent 4 times" [ "$(grep -c "^PUT http://127.0.0.1:$dead_port/task failed" "$work/calls.log")" = 4 ]
check "so too while a document without a channel is polled at --interval" \
  deadlines calls-polled "ASK { <${plain}env/never#it> <https://example.org/env#value> true }"
check "that document had no channel" grep -q "^notifications: the storage described at ${plain}.well-known/solid offers no WebSocketChannel2023" "$work/calls-polled.log"
stop_pid "$plain_pid"
trap cleanup EXIT

fi

# A server that offers no channel (`ldgsm serve --no-notifications`; Community Solid Server with its
# notifications/disabled configuration) is polled: the instance completes at --interval 100.
if [ "${NOTIFICATIONS_OFFERED:-both}" != yes ]; then
  [ -n "$server_pid" ] && { stop_pid "$server_pid"; server_pid=; }
  start_server --no-notifications
  one_stage_model models/m "$started_guard" "$(sensed sensor)"
  put env/sensor '<#it> <https://example.org/env#value> true .' > /dev/null
  instance='@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .'
  put s/i3 "$instance" > /dev/null
  bounded "$ldgsm" run -v --instance "${base}s/i3#it" --notifications -n 100 --until complete --iterations 50 \
    > /dev/null 2> "$work/none.log"
  check "without a channel offered, the instance completes by polling (exit 0)" [ $? = 0 ]
  check "the agent says the server offers none" grep -q "^notifications: the storage described at ${base}.well-known/solid offers no WebSocketChannel2023" \
    "$work/none.log"
fi
finish
