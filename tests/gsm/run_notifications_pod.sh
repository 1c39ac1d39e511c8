#!/usr/bin/env bash
# A storage that is one pod of a server of many (issue 35): Community Solid Server describes each pod at
# POD/.well-known/solid, which every answer names in its Link rel=solid#storageDescription, and has no
# description at the origin's /.well-known/solid. The relay (tests/gsm/lossy_notifications.py --storage-path
# /pod/) shows `ldgsm serve` so, its 404s naming no storage (as CSS's do not). `ldgsm run --notifications
# -n 600000 --safety-poll 600000` must find the subscription service in the description the documents link
# to, not at the origin, and place the absent sensor document in that storage by the root the description
# names (pim:Storage): its three channels open, it rests, and the sensor's creation is acted on at once (a
# document without a channel would wait for the ten minutes). Then the same learned late: an agent whose
# instance and sensor are absent at first finds the pod once the instance is created; and a description
# named on another origin is not followed.
# tests/auth/css_auth.sh runs the same against a real pod of Community Solid Server.
set -u
# The agent runs at -v: the checks read its request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
. "$(dirname "$0")/relay_lib.sh"
start_server
start_relay --storage-path /pod/
one_stage_model models/m "$started_guard" "$(sensed a)"
put s/i1 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
"$ldgsm" run -v --instance "${pbase}s/i1#it" --notifications -n 600000 --safety-poll 600000 > /dev/null 2> "$work/run.log" &
agent_pids+=($!)
logged() { grep -qE "$2" "$1"; } # FILE REGEX
check "the relay shows no description at the origin" \
  test "$(curl -s -o /dev/null -w '%{http_code}' "${pbase}.well-known/solid")" = 404
check "the agent finds the service in the description the documents link to" \
  await logged "$work/run.log" "^notifications: the storage described at ${pbase}pod/\.well-known/solid offers WebSocketChannel2023 at "
check "... and never asks the origin's" ! grep -qF "described at ${pbase}.well-known/solid" "$work/run.log"
check "the sensor document is absent" grep -qE "^GET ${pbase}env/a 404 " "$work/run.log"
check "its three documents, the absent one too, get a channel each, and it rests" \
  await logged "$work/run.log" '^iteration: .* unsafe 0: .*, 3 channels live'
from=$(($(wc -l < "$work/run.log") + 1))
put env/a '<#it> <https://example.org/env#value> true .' > /dev/null
check "the sensor's creation is notified through the pod's channel and acted on: the instance completes" \
  await_completed 1
check "... after the changed sensor was read" grep -qE "^GET ${pbase}env/a 200 " <(tail -n +"$from" "$work/run.log")

# Learned late: an agent (polling each second where it has no channel) whose instance and sensor (given as
# a second --instance, so that it is read from the first iteration on) are both absent at first: no answer
# names the pod, the origin's description is missing, and their channels wait the ten minutes a storage
# without a service waits. Once the instance is created and read, its answer names the pod: its channel is
# made at once, and so is the absent sensor's, which the pod's root now places.
stop_pid "${agent_pids[0]}"
one_stage_model models/m2 "$started_guard" "$(sensed b)"
"$ldgsm" run -v --instance "${pbase}s/late#it" --instance "${pbase}env/b#it" --notifications -n 1000 --safety-poll 600000 > /dev/null \
  2> "$work/late.log" &
agent_pids+=($!)
check "at first nothing is known of the pod: the origin's description is asked, and missing" \
  await logged "$work/late.log" "described at ${pbase}\.well-known/solid offers no WebSocketChannel2023"
check "... the absent instance and sensor wait without a channel" \
  await logged "$work/late.log" '^iteration: .*, 0 channels live'
check "... having been read absent" grep -qE "^GET ${pbase}env/b 404 " "$work/late.log"
put s/late '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m2#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
check "once the instance is read, the pod's description is found" \
  await logged "$work/late.log" "described at ${pbase}pod/\.well-known/solid offers WebSocketChannel2023 at "
check "... and all three documents get a channel, the absent sensor's too, within the pause" \
  await logged "$work/late.log" '^iteration: .* unsafe 0: .*, 3 channels live'

# A description on another origin is not followed: the relay's answers name one on the server behind it
# (a stranger would choose what the agent GETs and where it posts what it reads). The agent asks its own
# origin's, which has none, and reads by GET.
stop_pid "${agent_pids[1]}"
start_relay --storage-path /pod/ --storage-origin "${base%/}"
"$ldgsm" run -v --instance "${pbase}s/i1#it" --notifications -n 1000 --safety-poll 600000 > /dev/null \
  2> "$work/foreign.log" &
agent_pids+=($!)
check "a description named on another origin: the agent asks its own origin's" \
  await logged "$work/foreign.log" "described at ${pbase}\.well-known/solid offers no WebSocketChannel2023"
check "... and never the other origin's" ! grep -qF "described at ${base}" "$work/foreign.log"

# A stranger's description of 400,000 subscriptions, none of a type the agent takes: read in time linear in
# it (the services were once matched to their types pair by pair: 1.6e11 comparisons, a stalled agent).
python3 - "$work/big.ttl" << 'EOF_BIG'
import sys
with open(sys.argv[1], "w") as f:
    f.write("@prefix n: <http://www.w3.org/ns/solid/notifications#> .\n</> n:subscription ")
    f.write(", ".join("<s%d>" % i for i in range(400000)))
    f.write(" .\n")
EOF_BIG
python3 -c '
import http.server, sys
body = open(sys.argv[1], "rb").read()
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        found = self.path == "/.well-known/solid"
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "text/turtle")
        self.send_header("Content-Length", str(len(body) if found else 0))
        self.end_headers()
        if found:
            self.wfile.write(body)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print("http://127.0.0.1:%d/" % s.server_address[1], flush=True)
s.serve_forever()' "$work/big.ttl" > "$work/big.out" 2> "$work/big.err" &
agent_pids+=($!)
wait_for_line "$work/big.out" "$work/big.err" "${agent_pids[-1]}" "the stranger's server"
stranger=$line
"$ldgsm" run -v --instance "${stranger}doc#it" --notifications -n 600000 --safety-poll 600000 > /dev/null \
  2> "$work/big.log" &
agent_pids+=($!)
check "a description of 400,000 subscriptions of no type taken is read in time: none offered" \
  await logged "$work/big.log" "described at ${stranger}\.well-known/solid offers no WebSocketChannel2023"
finish
