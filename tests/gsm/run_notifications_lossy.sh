#!/usr/bin/env bash
# Lost notifications (issue 35): `ldgsm run --notifications` behind a relay that loses them
# (tests/gsm/lossy_notifications.py: an HTTP proxy in front of `ldgsm serve` whose subscriptions' sockets
# pass through it; the agents know only the proxy's address). Whatever an agent does within its interval
# after its first iterations, a notification or a safety poll brought:
#   1. every notification dropped (-n 600000): an instance waiting for a sensor completes once the sensor
#      changes, read by the safety poll alone (the relay logged the change dropped, no channel closed);
#      beside it an agent with --safety-poll 600000 on a twin instance does not: the bound is what helps;
#      and an order (the order fixture's o1) completes, each of its steps begun by a safety poll;
#   2. every other notification dropped (--drop-every 2), then sockets cut at random (--close-random), with
#      -n 60000 --safety-poll 1000: the fire alarm played live (tests/gsm/fire_alarm_lib.sh) goes through
#      Fig. 2's lines, each task once per activation, and beside it 20 orders all complete as
#      tests/gsm/run_orders.sh checks them; with the cuts, every channel cut is said closed by the fire
#      alarm's agent and subscribed to again.
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
. "$(dirname "$0")/orders_lib.sh"
. "$(dirname "$0")/relay_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
safety=1000 # ms: the agents' --safety-poll (a second: the fire alarm rests longer than it at each step)
orders=20 # the order fixture's instances, beside the fire alarm
# The fire alarm's environment waits this long without activity before its next step: longer than the
# safety poll, so that a change whose notification was lost is acted on before the scenario goes on.
rest_ms=$((safety + 500))

losses() { # MODE-WORD: "N of M" notifications the relay lost (DROP or CUT) of all it saw
  echo "$(grep -c "^$1" "$work/relay.log") of $(grep -cE '^(DROP|CUT|FORWARD)' "$work/relay.log")"
}

echo "# 1. every notification dropped: the safety poll alone"
# The agents' interval here is ten minutes, longer than any bounded wait of the test (the sanitizer build's
# 90 s included): whatever they do after their first iterations, a safety poll brought.
orders_fixture "$work/fixture" 1 0
start_server --fixtures "$work/fixture"
start_relay --drop-every 1
one_stage_model models/m "$started_guard" "$(sensed a)"
one_stage_model models/m-b "$started_guard" "$(sensed b)"
for s in a b; do
  put "env/$s" '<#it> <https://example.org/env#value> false .' > /dev/null
done
put s/a '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
put s/b '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m-b#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
"$ldgsm" run -v --instance "${pbase}s/a#it" --notifications -n 600000 --safety-poll "$safety" > /dev/null 2> "$work/a.log" &
a_pid=$!; agent_pids+=($a_pid)
"$ldgsm" run -v --instance "${pbase}s/b#it" --notifications -n 600000 --safety-poll 600000 > /dev/null 2> "$work/b.log" &
b_pid=$!; agent_pids+=($b_pid)
# Beside them, an order (the fixture's o1): each stage a write, its call answered in the next iteration,
# which only a safety poll brings here (the notifications of its own writes are dropped too). 500 ms, not
# $safety: its 9 iterations then take about as long as the rest of this part.
timeout -k 5 "$wait_limit" "$ldgsm" run -v --instance "${pbase}status/o1#it" --until complete --notifications -n 600000 \
  --safety-poll 500 > /dev/null 2> "$work/order.log" &
order_pid=$!; agent_pids+=($order_pid)
active() { grep -qF '<http://purl.org/gsm/vocab#hasState> <http://purl.org/gsm/vocab#active>' <<< "$(get "s/$1")"; }
completed() { grep -q 'isCompleted> "true"' <<< "$(get "s/$1")"; }
relay_saw() { grep -qE "$1" "$work/relay.log"; }
check "both instances are set up (through the proxy)" await eval 'active a && active b'
check "the agents subscribed through the proxy: each sensor's channel is relayed" \
  await eval "relay_saw '^OPEN	${pbase}env/a\$' && relay_saw '^OPEN	${pbase}env/b\$'"
a_from=$(($(wc -l < "$work/a.log") + 1))
put env/a '<#it> <https://example.org/env#value> true .' > /dev/null
put env/b '<#it> <https://example.org/env#value> true .' > /dev/null
check "the sensors' changes were notified, and dropped" \
  await eval "relay_saw '^DROP	${pbase}env/a	' && relay_saw '^DROP	${pbase}env/b	'"
check "the instance whose agent has --safety-poll $safety completes" await completed a
check "... having read the changed sensor" grep -qE "^GET ${pbase}env/a 200 " <(tail -n +"$a_from" "$work/a.log")
check "... and no channel closed: the safety poll read it" ! grep -q 'notifications: the channel of .* closed' "$work/a.log"
# The other agent waits for a notification (of its own write, or of the sensor: all dropped) or for its
# interval; its safety poll is ten minutes away too.
check "the twin instance, whose agent has --safety-poll 600000, has not completed" ! completed b
check "... nor its agent read its sensor since its first read" [ "$(grep -cE "^GET ${pbase}env/b 200 " "$work/b.log")" = 1 ]
await_pid "$order_pid"
rc=$?
check "the order completes, step by step at its safety poll (exit $rc)" [ $rc = 0 ]
outcome_checks 1 "$work/outcome.txt"
check "... no channel of its closed" ! grep -q 'notifications: the channel of .* closed' "$work/order.log"
check "nothing reached the agents: the relay forwarded no notification ($(losses DROP) dropped)" ! relay_saw '^FORWARD	'
stop_pid "$a_pid"
check "the agents stop at SIGTERM with status 0" [ $? = 0 ]
stop_pid "$b_pid"
check "... both" [ $? = 0 ]
agent_pids=()
stop_pid "$relay_pid"; relay_pid=
stop_pid "$server_pid"; server_pid=

# cut_channels_renewed AGENT-LOG PREFIX: every channel the relay cut (a CUT line) whose topic is not under
# PREFIX was said closed in AGENT-LOG at least as often, and subscribed to again after its last cut.
cut_channels_renewed() {
  awk -F '\t' -v prefix="$2" '
    FNR == NR { if (index($2, prefix) == 1) next
                if ($1 == "CUT") { cuts[$2]++; renewed[$2] = 0 } else if ($1 == "SUBSCRIBE") renewed[$2] = 1; next }
    match($0, /^notifications: the channel of [^ ]* closed/) { closed[substr($0, 31, RLENGTH - 37)]++ }
    END { for (t in cuts) if (!renewed[t] || closed[t] < cuts[t]) { print t; bad = 1 } exit bad }' \
    "$work/relay.log" "$1"
}

# lossy MODE...: through a relay losing notifications as MODE says, the fire alarm played live and, beside
# it on the same server (under shop/) and relay, another agent running the orders to completion.
lossy() {
  echo "# 2. the fire alarm and $orders orders, $*"
  rm -rf "$work/fixture"
  cp -r "$here/../../ldp-fixtures/fire-alarm" "$work/fixture"
  orders_fixture "$work/fixture/shop" "$orders" 0
  start_server --fixtures "$work/fixture"
  start_relay "$@"
  # bounded by lib.sh's wait limit: exit 124 or 137 when it had to be killed
  timeout -k 5 "$wait_limit" "$ldgsm" run -v --instances-from "${pbase}shop/status/" --until complete --notifications \
    -n 60000 --safety-poll "$safety" > /dev/null 2> "$work/orders.log" &
  local orders_pid=$!; agent_pids+=($orders_pid)
  agent_base=$pbase play_live --notifications -n 60000 --safety-poll "$safety"
  live_checks "fire alarm ($*)"
  await_pid "$orders_pid"
  local rc=$?
  agent_pids=()
  check "orders ($*): one agent runs the $orders orders to completion (exit $rc)" [ $rc = 0 ]
  base=${base}shop/ outcome_checks "$orders" "$work/outcome.txt" classes
  check "both agents went through the proxy only" ! grep -qF "${base}" "$work/agent.log" "$work/orders.log"
  if [ "$1" = --drop-every ]; then
    check "notifications were dropped ($(losses DROP))" grep -q '^DROP' "$work/relay.log"
  else
    check "sockets were cut ($(losses CUT))" grep -q '^CUT' "$work/relay.log"
    check "fire alarm: every channel cut was said closed by the agent and subscribed to again" \
      cut_channels_renewed "$work/agent.log" "${pbase}shop/"
    # (not every one: the agent ends once the orders are complete, maybe before it takes the last cuts in)
    check "orders: channels cut were said closed by the agent" grep -q '^notifications: the channel of .* closed' \
      "$work/orders.log"
  fi
  stop_pid "$relay_pid"; relay_pid=
  stop_pid "$server_pid"; server_pid=
}
lossy --drop-every 2
lossy --close-random 0.3 --seed 1 # its first draw cuts: some socket is cut whatever the messages' order
finish
