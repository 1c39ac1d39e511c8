#!/usr/bin/env bash
# tests/ldp/run_notifications.sh: Solid Notifications in `ldgsm serve` (ldp_notify.h, ldp_websocket.h), in
# Community Solid Server 7.2's wire format, with a standard-library WebSocket client (ws_client.py).
#  - Discovery: the storage description (Turtle, N-Triples, RDF/XML) names the WebSocketChannel2023
#    service with its channel type and features; a GET of the service describes it as JSON-LD.
#  - A channel on a document and one on its container, subscribed before either exists: PUT, PUT, PATCH,
#    DELETE of the document give Create, Update, Update, Delete, each state the ETag a GET then gives (none
#    for Delete); the container gets Create when the PUT made it, Add and Remove (object the member, target
#    the container) for a POSTed member and its DELETE.
#  - The state feature: a stale state gets one Update with the current ETag at once, a current one
#    nothing, a state for an absent topic a Delete; with a rate, changes within it are not told.
#  - Bounds: channels per client and in all (429), endAt cut to --channel-lifetime and the socket closed
#    when it passes, a channel never connected dropped after --channel-connect-timeout (its slot freed), one
#    socket per channel, a client message over the bound closing its socket, a reader that does not read
#    dropped and its socket cut off; garbage subscriptions get 4xx and the server serves on; DELETE of a channel unsubscribes.
#  - --no-notifications lists no service.
# Usage: run_notifications.sh PATH/TO/ldgsm
set -uo pipefail
. "$(dirname "$0")/../agent/lib.sh"
tests_ldp=$(cd "$(dirname "$0")" && pwd)
command -v python3 > /dev/null || { echo "python3 is needed"; exit 77; }

NOTIFY=http://www.w3.org/ns/solid/notifications#
CONTEXT='"@context":["https://www.w3.org/ns/solid/notification/v1"]'
WS_TYPE='"type":"http://www.w3.org/ns/solid/notifications#WebSocketChannel2023"'
listeners=()
cleanup_listeners() { local p; for p in "${listeners[@]}"; do kill "$p" 2> /dev/null; wait "$p" 2> /dev/null; done; }
trap 'cleanup_listeners; cleanup' EXIT

# json FIELD...: the fields of the JSON object on standard input, one a line ("" when absent; KEYS: its
# keys in order, joined by ',').
json() {
  python3 -c 'import json, sys; o = json.load(sys.stdin); [print(",".join(o) if k == "KEYS" else o.get(k, "")) for k in sys.argv[1:]]' "$@"
}
# subscribe PATH [STATE [EXTRA-JSON]]: POSTs a subscription to the document at PATH; $channel and $receive.
subscribe() {
  local state=${2:+,\"state\":$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$2")}
  request POST "${base}.notifications/WebSocketChannel2023/" "{$CONTEXT,$WS_TYPE,\"topic\":\"$base$1\"$state${3:-}}" \
    'Content-Type: application/ld+json'
  channel= receive=
  [ "$http_code" = 200 ] && { read -r channel; read -r receive; } < <(json id receiveFrom <<< "$http_body")
}
# listen NAME URL [ws_client options]: a socket on URL whose events go to $work/NAME.ws; waits for its handshake.
listen() {
  local name=$1 url=$2 i; shift 2
  python3 "$tests_ldp/ws_client.py" "$url" "$@" > "$work/$name.ws" 2> "$work/$name.err" &
  listeners+=($!)
  for ((i = 0; i < wait_limit * 50; i++)); do
    grep -q '^\(OPEN\|REFUSED\|EOF\)' "$work/$name.ws" 2> /dev/null && return 0
    nap 0.02
  done
}
# events NAME N: waits (bounded) until NAME has N events after OPEN; true when it has.
events() {
  local i
  for ((i = 0; i < wait_limit * 50; i++)); do
    [ "$(grep -c '^\(MESSAGE\|CLOSE\|EOF\)' "$work/$1.ws")" -ge "$2" ] && return 0
    nap 0.02
  done
  return 1
}
# message NAME K FIELD: the field of NAME's K-th message (keys, type, object, target, state, id, published,
# context), as ws_client.py read it.
message() {
  local keys type object target state id published context k=0
  while IFS=$'\x1f' read -r _ keys type object target state id published context; do
    ((++k == $2)) && { printf '%s' "${!3}"; return; }
  done < <(grep '^FIELDS' "$work/$1.ws")
}
etag() { request GET "$base$1" "" 'Accept: text/turtle'; sed -n 's/^etag: //p' <<< "$http_headers"; }
same() { [ "$1" = "$2" ]; }
# stop_server WHAT: stops the server; its log must hold no sanitizer report (leaks are reported at exit).
stop_server() {
  stop_pid "$server_pid"; server_pid=
  check "$1: no sanitizer report" ! grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$work/serve.log"
}

start_server --notifications-port 0
service="${base}.notifications/WebSocketChannel2023/"

# ---------------------------------------------------------------- discovery
request GET "${base}.well-known/solid" "" 'Accept: application/n-triples'
check "the description names the subscription service" grep -qF "<$base> <${NOTIFY}subscription> <$service> ." <<< "$http_body"
check "the service is a WebSocketChannel2023 service" \
  grep -qF "<$service> <${NOTIFY}channelType> <${NOTIFY}WebSocketChannel2023> ." <<< "$http_body"
for feature in state endAt rate startAt; do
  check "the service offers notify:$feature" grep -qF "<$service> <${NOTIFY}feature> <${NOTIFY}$feature> ." <<< "$http_body"
done
request GET "${base}.well-known/solid" "" 'Accept: text/turtle'
check "the Turtle description names the service" grep -qF "notify:subscription <$service>" <<< "$http_body"
request GET "${base}.well-known/solid" "" 'Accept: application/rdf+xml'
check "the RDF/XML description names the service" grep -qF '.notifications/WebSocketChannel2023/"' <<< "$http_body"
request GET "$service"
check "GET of the service: its JSON-LD" same "200 ${NOTIFY}WebSocketChannel2023" "$http_code $(json channelType <<< "$http_body")"

# ---------------------------------------------------------------- activities
subscribe c/
check "subscribe to an absent container: 200" same 200 "$http_code"
check "the response is JSON-LD" grep -q '^content-type: application/ld+json' <<< "$http_headers"
container_receive=$receive
subscribe c/doc
check "subscribe to an absent document: 200" same 200 "$http_code"
check "the channel's id is under the service" same "$service" "${channel%/*}/"
{ read -r keys; read -r type; read -r topic; read -r end_at; } < <(json KEYS type topic endAt <<< "$http_body")
check "its keys, in CSS's order" same "@context,id,type,topic,receiveFrom,endAt" "$keys"
check "its type" same "${NOTIFY}WebSocketChannel2023" "$type"
check "its topic" same "${base}c/doc" "$topic"
check "receiveFrom: a ws:// URL of the same host, the channel's path" \
  same "ws://127.0.0.1:" "$(sed -E 's|^(ws://127\.0\.0\.1:)[0-9]+/\.notifications/WebSocketChannel2023/.+$|\1|' <<< "$receive")"
check "receiveFrom ends with the channel's UUID" same "${channel##*/}" "${receive##*/}"
check "an endAt within the default lifetime" python3 -c '
import datetime, sys
end = datetime.datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00"))
left = (end - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
sys.exit(not 3500 < left <= 3600)' "$end_at"
listen doc "$receive"
listen dir "$container_receive"
check "the sockets open" grep -q '^OPEN' "$work/doc.ws" "$work/dir.ws"

put c/doc '<#a> <#p> 1 .' > /dev/null
events doc 1; tag=$(etag c/doc)
check "PUT (create): Create" same Create "$(message doc 1 type)"
check "Create: the object is the topic" same "${base}c/doc" "$(message doc 1 object)"
check "Create: the state is the ETag a GET gives" same "$tag" "$(message doc 1 state)"
check "Create: an urn: id naming the topic" grep -qE "^urn:[0-9]+:${base}c/doc\$" <<< "$(message doc 1 id)"
check "Create: the contexts" same '["https://www.w3.org/ns/activitystreams", "https://www.w3.org/ns/solid/notification/v1"]' \
  "$(message doc 1 context)"
check "Create: CSS's keys, in its order" same "@context,id,type,object,state,published" "$(message doc 1 keys)"
check "Create: published is an xsd:dateTime" grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$' \
  <<< "$(message doc 1 published)"
events dir 1
check "the container the PUT made: Create, no Add" same "Create ${base}c/ $(etag c/)" \
  "$(message dir 1 type) $(message dir 1 object) $(message dir 1 state)"
put c/doc '<#a> <#p> 2 .' > /dev/null
events doc 2
check "PUT (replace): Update with the new ETag" same "Update $(etag c/doc)" "$(message doc 2 type) $(message doc 2 state)"
request PATCH "${base}c/doc" '@prefix solid: <http://www.w3.org/ns/solid/terms#>.
_:p a solid:InsertDeletePatch; solid:inserts { <#a> <#p> 3 . }.' 'Content-Type: text/n3'
events doc 3
check "PATCH: Update with the new ETag" same "$http_code Update $(etag c/doc)" \
  "204 $(message doc 3 type) $(message doc 3 state)"
request POST "${base}c/" '<#m> <#p> 1 .' 'Content-Type: text/turtle' 'Slug: member'
events dir 2
check "POST: Add on the container" same "201 Add ${base}c/member ${base}c/ $(etag c/)" \
  "$http_code $(message dir 2 type) $(message dir 2 object) $(message dir 2 target) $(message dir 2 state)"
request DELETE "${base}c/member"
events dir 3
check "Add, Remove: CSS's keys, in its order" same "@context,id,type,object,target,state,published" "$(message dir 3 keys)"
check "DELETE of a member: Remove on the container" same "Remove ${base}c/member ${base}c/ $(etag c/)" \
  "$(message dir 3 type) $(message dir 3 object) $(message dir 3 target) $(message dir 3 state)"
request DELETE "${base}c/doc"
events doc 4
check "DELETE: Delete, with no state" same "Delete ${base}c/doc @context,id,type,object,published" \
  "$(message doc 4 type) $(message doc 4 object) $(message doc 4 keys)"
events dir 4
check "the container: Remove of the document" same "Remove ${base}c/doc" "$(message dir 4 type) $(message dir 4 object)"
check "no other notification" same "4 4" "$(grep -c '^MESSAGE' "$work/doc.ws") $(grep -c '^MESSAGE' "$work/dir.ws")"
request DELETE "$channel"
check "DELETE of the channel: 205" same 205 "$http_code"
events doc 5
check "the unsubscribed channel's socket is closed" grep -q '^CLOSE 1000' "$work/doc.ws"
request DELETE "$channel"
check "DELETE of it again: 404" same 404 "$http_code"

# ---------------------------------------------------------------- the state feature
put s/doc '<#a> <#p> 1 .' > /dev/null
old=$(etag s/doc)
put s/doc '<#a> <#p> 2 .' > /dev/null
new=$(etag s/doc)
subscribe s/doc "$old"
check "the response keeps the state" same "$old" "$(json state <<< "$http_body")"
listen stale "$receive"
events stale 1
check "a stale state: an Update with the current ETag at once" same "Update $new" "$(message stale 1 type) $(message stale 1 state)"
subscribe s/doc "$new"
listen current "$receive"
nap 0.5
check "the current state: nothing" same 0 "$(grep -c '^MESSAGE' "$work/current.ws")"
subscribe s/absent '"0"'
listen absent "$receive"
events absent 1
check "a state for an absent topic: Delete" same "Delete ${base}s/absent" "$(message absent 1 type) $(message absent 1 object)"
listen second "$receive"
check "one socket per channel" grep -q '^REFUSED' "$work/second.ws"
subscribe s/doc "" ',"rate":"PT30S"'
check "the response keeps the rate" same PT30S "$(json rate <<< "$http_body")"
listen rated "$receive"
put s/doc '<#a> <#p> 3 .' > /dev/null
put s/doc '<#a> <#p> 4 .' > /dev/null
events current 2
check "rate: one notification of two changes within it" same "1 2" \
  "$(grep -c '^MESSAGE' "$work/rated.ws") $(grep -c '^MESSAGE' "$work/current.ws")"
subscribe s/chatty
listen chatty "$receive" --send 10000
events chatty 1
check "a client message over the bound closes the socket (1009)" grep -q '^CLOSE 1009' "$work/chatty.ws"

# ---------------------------------------------------------------- garbage
bad() { # what status body [content-type]
  request POST "$service" "$3" "Content-Type: ${4:-application/ld+json}"
  check "$1: $2" same "$2" "$http_code"
}
bad "not JSON" 422 '{"@context": ['
bad "an array" 422 '[1, 2]'
bad "an unknown channel type" 422 "{$CONTEXT,\"type\":\"${NOTIFY}WebhookChannel2023\",\"topic\":\"${base}x\"}"
bad "a bare type name" 422 "{$CONTEXT,\"type\":\"WebSocketChannel2023\",\"topic\":\"${base}x\"}"
bad "no @context" 422 "{$WS_TYPE,\"topic\":\"${base}x\"}"
bad "no topic" 422 "{$CONTEXT,$WS_TYPE}"
bad "a topic on another server" 422 "{$CONTEXT,$WS_TYPE,\"topic\":\"http://elsewhere.example/x\"}"
bad "a topic with a '.' segment" 422 "{$CONTEXT,$WS_TYPE,\"topic\":\"${base}.well-known/solid\"}"
bad "a topic that is a number" 422 "{$CONTEXT,$WS_TYPE,\"topic\":7}"
bad "an unknown feature" 422 "{$CONTEXT,$WS_TYPE,\"topic\":\"${base}x\",\"accept\":\"text/turtle\"}"
bad "an endAt that is no date" 422 "{$CONTEXT,$WS_TYPE,\"topic\":\"${base}x\",\"endAt\":\"tomorrow\"}"
bad "a rate that is no duration" 422 "{$CONTEXT,$WS_TYPE,\"topic\":\"${base}x\",\"rate\":\"10s\"}"
bad "Turtle" 415 "<> a <${NOTIFY}WebSocketChannel2023> ." text/turtle
bad "a huge body" 413 "{$CONTEXT,$WS_TYPE,\"topic\":\"${base}x\",\"state\":\"$(printf '%*s' 20000 '' | tr ' ' x)\"}"
check "the reason is given" grep -q 'topic' <<< "$(request POST "$service" "{$CONTEXT,$WS_TYPE}" 'Content-Type: application/ld+json'; echo "$http_body")"
request GET "${service}00000000-0000-4000-8000-000000000000"
check "GET of an unknown channel: 404" same 404 "$http_code"
request GET "$channel"
check "GET of a channel: 405" same 405 "$http_code"
request PUT "$service" '{}' 'Content-Type: application/ld+json'
check "PUT of the service: 405" same 405 "$http_code"
request GET "$base"
check "the server serves on" same 200 "$http_code"

# ---------------------------------------------------------------- a reader that does not read
long=$(printf 'n%.0s' $(seq 250))
slow_path="slow/$long/$long/$long/$long/$long/$long/$long/doc"
subscribe "$slow_path"
listen slow "$receive" --rcvbuf 4096 --no-read 60
for ((i = 0; i < 1000; i++)); do
  request PUT "$base$slow_path" "<#a> <#p> $i ." 'Content-Type: text/turtle'
  ((i % 25)) || ! grep -q 'does not read its channel' "$work/serve.log" || break
done
check "a socket that does not read is given up" grep -q 'does not read its channel' "$work/serve.log"
# ... and cut off, although no close frame can reach it: the server holds no connection to it.
ws_port=${receive#ws://127.0.0.1:} ws_port=${ws_port%%/*} client_port=$(sed -n 's/^OPEN //p' "$work/slow.ws")
held() { [ -n "$(ss -Htn state established "( sport = :$ws_port and dport = :$client_port )")" ]; }
if command -v ss > /dev/null; then
  for ((i = 0; i < wait_limit * 10; i++)); do held || break; nap 0.1; done
  check "the socket that does not read is cut off" ! held
fi
request GET "$base$slow_path"
check "and the server serves on" same 200 "$http_code"

# ---------------------------------------------------------------- bounds
stop_server "the first server"
start_server --max-channels 3 --max-channels-per-client 2 --channel-lifetime 2 --channel-connect-timeout 1
service="${base}.notifications/WebSocketChannel2023/"
subscribe b/1 "" ',"endAt":"2100-01-01T00:00:00Z"'
check "a subscription: 200" same 200 "$http_code"
check "endAt cut to --channel-lifetime" python3 -c '
import datetime, sys
end = datetime.datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00"))
sys.exit(not 0 < (end - datetime.datetime.now(datetime.timezone.utc)).total_seconds() <= 2)' "$(json endAt <<< "$http_body")"
listen expiring "$receive"
subscribe b/2
never_connected=$receive
subscribe b/3
check "a third channel of one client: 429" same 429 "$http_code"
check "429 says why" grep -q 'one client' <<< "$http_body"
sub_from() { # ADDRESS: a subscription from that source address (curl: the driver cannot choose one)
  curl -s -o "$work/from.body" -w '%{http_code}' --interface "$1" -X POST "${base}.notifications/WebSocketChannel2023/" \
    -H 'Content-Type: application/ld+json' --data-binary "{$CONTEXT,$WS_TYPE,\"topic\":\"${base}b/x\"}"
}
check "another client's channel: 200" same 200 "$(sub_from 127.0.0.2)"
check "past --max-channels: 429" same 429 "$(sub_from 127.0.0.3)"
check "429 says why" grep -q 'most notification channels' "$work/from.body"
events expiring 1
check "the channel's end closes its socket" grep -q '^CLOSE 1000 notification channel has expired' "$work/expiring.ws"
listen late "$never_connected"
check "a channel never connected is dropped" grep -q '^REFUSED' "$work/late.ws"
subscribe b/4
check "the dropped channels' slots are free again" same 200 "$http_code"

# ---------------------------------------------------------------- --no-notifications
stop_server "the bounded server"
start_server --no-notifications
service="${base}.notifications/WebSocketChannel2023/"
request GET "${base}.well-known/solid" "" 'Accept: application/n-triples'
check "--no-notifications: no service in the description" ! grep -q "$NOTIFY" <<< "$http_body"
request POST "$service" "{$CONTEXT,$WS_TYPE,\"topic\":\"${base}x\"}" 'Content-Type: application/ld+json'
check "--no-notifications: no subscription" ! same 200 "$http_code"
check "--no-notifications: no socket listener" ! grep -q 'notification sockets' "$work/serve.log"
stop_server "the server without notifications"
finish
