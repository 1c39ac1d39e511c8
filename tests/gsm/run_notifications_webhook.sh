#!/usr/bin/env bash
# `ldgsm run --webhook 127.0.0.1:0` (src/http/webhook_listener.h, src/agent/notifications.h, docs/DESIGN.md
# §1.5): the agent's own listener, to which servers POST WebhookChannel2023 notifications. The server is a
# parameter: `ldgsm serve` (ctest), Community Solid Server 7.2.0 (tests/gsm/css_gsm.sh, CSS_URL set; its
# css-memory-notify.json offers WebSocketChannel2023 and WebhookChannel2023).
#   1. The listener's bounds (not against CSS: they are the agent's alone): a POST to a path not
#      registered gets 404, one of a registration's shape with a wrong secret too, a GET 405, a body
#      declared over 64 KiB 413; 64 idle connections held, the next one waits unanswered until one of
#      them closes.
#   2. A server that offers no channel (`ldgsm serve --no-notifications`, not against CSS): polled. One
#      that offers no WebhookChannel2023 (`ldgsm serve` before it offered webhooks): its WebSocket
#      channels are used instead; the sensor's change is acted on at once.
#   3. A server that offers webhooks, the agents at --interval and --safety-poll 600000 (whatever they do
#      within the test's bounded waits a webhook brought): the server posts the current state at once to a channel
#      subscribed with a stale one (the agent vouches from the subscription's 200 on that ground); two
#      instances' four documents get a channel each and the agent rests; the sensor's change is acted on at
#      once; at SIGTERM the agent DELETEs its four channels; --instances-from: a member deleted, the
#      channels of the documents no longer read are DELETEd; the fire alarm played live
#      (tests/gsm/fire_alarm_lib.sh) and beside it, on the same server, $WEBHOOK_ORDERS (10) orders
#      complete (tests/gsm/orders_lib.sh).
#   4. Refused subscriptions (tests/gsm/lossy_notifications.py --refuse-subscriptions in front of the
#      server, two agents at once): the first three refused, the agent subscribes again and acts on a
#      change at once; all of them refused, the agent at --interval 200 reads the document by GET and sees
#      the change, no channel vouching for it.
# 23-41 s against CSS (the suite's load), 22 s against `ldgsm serve` (3 s when it offered no webhooks).
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
. "$(dirname "$0")/orders_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
trap 'for p in "${agent_pids[@]}"; do running "$p" && stop_pid "$p"; done; cleanup' EXIT
quiet='-n 600000 --safety-poll 600000' # ten minutes: longer than any bounded wait of the test
agent_pids=() # agents and relays, stopped by PID at the end

# logged FILE FROM ERE: the file, from line FROM on, has a line matching ERE
logged() { tail -n +"$2" "$1" | grep -qE "$3"; }
lines() { wc -l < "$1"; }
# agent NAME OPTIONS...: starts `ldgsm run OPTIONS` in the background, its log $work/NAME.log, its PID in $agent
agent() {
  local name=$1; shift
  "$ldgsm" run -v "$@" > /dev/null 2> "$work/$name.log" &
  agent=$!
  agent_pids+=("$agent")
}
# listener_of LOG: the agent's webhook listener as its log says, in $listener
listener_of() {
  await grep -q '^notifications: webhooks are received at http://' "$1" || return 1
  listener=$(sed -n 's/^notifications: webhooks are received at \(http:[^ ]*\)$/\1/p' "$1" | head -n 1)
}
code_of() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
instance_doc_of() { # MODEL
  printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/%s#root> ; gsm:hasState gsm:uninitialized .' "$1"
}
sensor() { put "env/$1" "<#it> <https://example.org/env#value> $2 ." > /dev/null; } # NAME true|false

start_server
request GET "${base}.well-known/solid" "" 'Accept: application/n-triples'
offered=no
grep -q 'notifications#WebhookChannel2023>' <<< "$http_body" && offered=yes
one_stage_model models/m "$started_guard" "$(sensed sensor)"
sensor sensor false
for i in 1 2; do put s/i$i "$(instance_doc_of m)" > /dev/null; done

echo "# 1. the listener's bounds"
agent main --instance "${base}s/i1#it" --instance "${base}s/i2#it" --webhook 127.0.0.1:0 $quiet
check "the agent says where it listens" listener_of "$work/main.log"
if [ -z "${CSS_URL:-}" ]; then
  check "a POST to a path not registered gets 404" [ "$(code_of -X POST --data x "$listener/nothing")" = 404 ]
  # (0x0000000100000000: the handle of the agent's first channel, generation 1 and slot 0, where the
  # server offers webhooks)
  check "and one of a registration's shape with a wrong secret" \
    [ "$(code_of -X POST --data x "$listener/0000000100000000$(printf '0%.0s' {1..32})")" = 404 ]
  check "a GET gets 405" [ "$(code_of "$listener/nothing")" = 405 ]
  head -c 70000 /dev/zero > "$work/big"
  check "a body declared over 64 KiB gets 413" \
    [ "$(code_of -X POST -H 'Content-Type: text/plain' --data-binary @"$work/big" "$listener/nothing")" = 413 ]
  # 64 connections held idle: the next waits unanswered (libmicrohttpd stops accepting at its limit) until
  # one of them closes
  python3 - "${listener#http://}" "$wait_limit" > "$work/connections.out" 2>&1 <<'EOF'
import socket, sys
host, port = sys.argv[1].rsplit(":", 1)
limit = float(sys.argv[2])
held = [socket.create_connection((host, int(port)), timeout=limit) for _ in range(64)]
extra = socket.create_connection((host, int(port)), timeout=1)
extra.sendall(b"POST /nothing HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
try:
    print("65th:", extra.recv(4096).split(b"\r\n")[0].decode())
except socket.timeout:
    print("65th: unanswered")
held.pop().close()
extra.settimeout(limit)
print("after:", extra.recv(4096).split(b"\r\n")[0].decode())
EOF
  check "with 64 connections held, the next waits unanswered" grep -qx '65th: unanswered' "$work/connections.out"
  check "until one of them closes (404)" grep -qx 'after: HTTP/1.1 404 Not Found' "$work/connections.out"
fi

if [ -z "${CSS_URL:-}" ]; then
  echo "# 2. no channel offered: polling"
  "$ldgsm" serve --memory --port 0 --no-notifications > "$work/plain.out" 2> "$work/plain.log" &
  agent_pids+=($!)
  wait_for_line "$work/plain.out" "$work/plain.log" $! "the second server"
  plain=$line
  request GET "${base}models/m" "" 'Accept: text/turtle'
  request PUT "${plain}models/m" "$http_body" 'Content-Type: text/turtle'
  request PUT "${plain}env/sensor" '<#it> <https://example.org/env#value> true .' 'Content-Type: text/turtle'
  request PUT "${plain}s/i9" "$(instance_doc_of m)" 'Content-Type: text/turtle'
  bounded "$ldgsm" run -v --instance "${plain}s/i9#it" --webhook 127.0.0.1:0 -n 100 --until complete --iterations 50 \
    > /dev/null 2> "$work/plain-agent.log"
  rc=$?
  check "a server offering no channel: the instance completes by polling (exit $rc)" [ $rc = 0 ]
  check "the agent says the server offers none" \
    grep -q "^notifications: the storage described at ${plain}.well-known/solid offers no WebhookChannel2023 nor WebSocketChannel2023" "$work/plain-agent.log"
fi

if [ $offered = no ]; then
  echo "# 2b. no WebhookChannel2023 offered: WebSocket channels"
  check "the agent finds the server's WebSocketChannel2023 service" \
    await grep -qE "^notifications: the storage described at ${base}.well-known/solid offers WebSocketChannel2023 at " "$work/main.log"
  check "and the four documents get a channel each" await grep -qE '^iteration: .* unsafe 0: .*, 4 channels live' \
    "$work/main.log"
  sensor sensor true
  check "the sensor's change is acted on well before --interval: both instances complete" await_completed 1 2
  stop_pid "$agent"
  finish
  exit
fi

echo "# 3. webhooks"
# The server's side of the agent's vouching: a subscription whose state is not the document's gets the
# current state posted at once, before anything changes.
python3 - "$base" "$wait_limit" > "$work/state.out" 2>&1 <<'EOF'
import http.server, json, sys, urllib.request
base, limit = sys.argv[1], float(sys.argv[2])
posted = []
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        posted.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *args): pass
hook = http.server.HTTPServer(("127.0.0.1", 0), Hook)
hook.timeout = limit
# the subscription service, from the storage description
triples = urllib.request.urlopen(urllib.request.Request(base + ".well-known/solid",
    headers={"Accept": "application/n-triples"}), timeout=limit).read().decode()
subject = [l.split()[0] for l in triples.splitlines()
           if "notifications#channelType>" in l and "notifications#WebhookChannel2023>" in l][0].strip("<>")
body = {"@context": ["https://www.w3.org/ns/solid/notification/v1"],
        "type": "http://www.w3.org/ns/solid/notifications#WebhookChannel2023",
        "topic": base + "env/sensor", "state": "\"stale\"",
        "sendTo": "http://127.0.0.1:%d/hook" % hook.server_address[1]}
urllib.request.urlopen(urllib.request.Request(subject, data=json.dumps(body).encode(), method="POST",
    headers={"Content-Type": "application/ld+json"}), timeout=limit).read()
hook.handle_request()
print("posted:", posted[0].get("object") if posted else "nothing", posted[0].get("state") if posted else "")
EOF
check "a subscription with a stale state gets the current state posted at once" \
  grep -qE "^posted: ${base}env/sensor \"" "$work/state.out"

check "the agent finds the server's WebhookChannel2023 service" \
  await grep -qE "^notifications: the storage described at ${base}.well-known/solid offers WebhookChannel2023 at " "$work/main.log"
check "the four documents read get a channel each" await grep -qE '^iteration: .* unsafe 0: .*, 4 channels live' \
  "$work/main.log"
nap 0.5
from=$(($(lines "$work/main.log") + 1))
nap 2
check "while nothing changes, no request is made" ! logged "$work/main.log" "$from" '^(GET|PUT|PATCH|POST|DELETE) '
check "nor an iteration run" ! logged "$work/main.log" "$from" '^iteration:'
from=$(($(lines "$work/main.log") + 1))
sensor sensor true
check "the sensor's change is acted on well before --interval: both instances complete" await_completed 1 2
check "the first request after the change reads the sensor" \
  grep -qE "^GET ${base}env/sensor 200 " <(tail -n +"$from" "$work/main.log" | grep -m1 -E '^(GET|PUT|PATCH) ')
from=$(($(lines "$work/main.log") + 1))
stop_pid "$agent"
check "the agent stops at SIGTERM with status 0" [ $? = 0 ]
check "having DELETEd its four channels" logged "$work/main.log" "$from" '^notifications: 4 channels unsubscribed$'

# --instances-from: a member deleted, the channels of what only it read (itself, its model, its sensor) go
ensure_container hooked/ > /dev/null
one_stage_model models/pool "$started_guard" "$(sensed pool)"
sensor pool true
put hooked/p1 "$(instance_doc_of pool)" > /dev/null
agent pool --instances-from "${base}hooked/" --webhook 127.0.0.1:0 $quiet
pool_complete() { grep -q 'isCompleted> "true"' <<< "$(get hooked/p1)"; }
check "--instances-from: the member completes" await pool_complete
check "and the agent rests, its four channels live" \
  await grep -qE '^iteration: .* unsafe 0: .*, 4 channels live' "$work/pool.log"
from=$(($(lines "$work/pool.log") + 1))
request DELETE "${base}hooked/p1"
check "the member deleted, its three documents' channels are DELETEd" \
  await logged "$work/pool.log" "$from" '^notifications: 3 channels unsubscribed$'
check "one channel stays live, the listing's" await grep -qE '^iteration: .* unsafe 0: .*, 1 channels? live' \
  "$work/pool.log"
stop_pid "$agent"

echo "# 3b. the fire alarm played live, and beside it ${WEBHOOK_ORDERS:=10} orders"
[ -n "$server_pid" ] && { stop_pid "$server_pid"; server_pid=; }
cp -r "$here/../../ldp-fixtures/fire-alarm" "$work/fixture"
orders_fixture "$work/fixture/shop" "$WEBHOOK_ORDERS" 0
start_server --fixtures "$work/fixture"
timeout -k 5 "$wait_limit" "$ldgsm" run -v --instances-from "${base}shop/status/" --until complete --webhook 127.0.0.1:0 \
  $quiet > /dev/null 2> "$work/orders.log" &
orders_pid=$!
agent_pids+=("$orders_pid")
play_live --webhook 127.0.0.1:0 $quiet
live_checks "fire alarm"
check "fire alarm: on webhook channels" grep -q "offers WebhookChannel2023 at" "$work/agent.log"
await_pid "$orders_pid"
rc=$?
check "the $WEBHOOK_ORDERS orders complete (exit $rc)" [ $rc = 0 ]
base=${base}shop/ outcome_checks "$WEBHOOK_ORDERS" "$work/outcome.txt"
check "on webhook channels" grep -qE '^iteration: .*, [1-9][0-9]* channels live' "$work/orders.log"

echo "# 4. refused subscriptions"
# relay NAME MODE...: lossy_notifications.py in front of the server, its log $work/NAME.relay; its base URL in
# $pbase
relay() {
  python3 "$here/lossy_notifications.py" "$base" "$work/$1.relay" "${@:2}" > "$work/$1.out" 2> "$work/$1.err" &
  agent_pids+=($!)
  wait_for_line "$work/$1.out" "$work/$1.err" $! "the relay"
  pbase=$line
}
one_stage_model models/m "$started_guard" "$(sensed sensor)"
sensor sensor false
for i in 3 4; do put s/i$i "$(instance_doc_of m)" > /dev/null; done
# the first three subscriptions refused (the agent's first of each document), then every one taken
relay some --refuse-subscriptions 3
agent refused --instance "${pbase}s/i3#it" --webhook 127.0.0.1:0 $quiet
refused_agent=$agent
# every subscription refused: the agent polls at --interval 200
relay all --refuse-subscriptions 1000000
agent never --instance "${pbase}s/i4#it" --webhook 127.0.0.1:0 -n 200 --safety-poll 600000
check "the first three subscriptions refused" await eval '[ "$(grep -c ^REFUSE "$work/some.relay")" = 3 ]'
check "the agent says so" await grep -q '^warning: notifications: 3 subscriptions failed (an error status)' "$work/refused.log"
check "and subscribes again: three channels live" \
  await grep -qE '^iteration: .* unsafe 0: .*, 3 channels live' "$work/refused.log"
check "every subscription refused to the other agent" await grep -q '^REFUSE' "$work/all.relay"
check "which rests with no channel live" await grep -qE '^iteration: .* unsafe 0: .*, 0 channels live' "$work/never.log"
sensor sensor true
check "a change is then acted on well before --interval" await_completed 3
check "and seen by GET at --interval where every subscription is refused: no channel vouches for it" await_completed 4
finish
