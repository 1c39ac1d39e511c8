#!/usr/bin/env bash
# tests/ldp/run_notifications_webhook.sh: WebhookChannel2023 and StreamingHTTPChannel2023 in `ldgsm serve`
# (ldp_notify.h, ldp_webhook.h, ldp_streaming.h), in Community Solid Server 7.2's wire format, with a
# standard-library receiver (webhook_receiver.py) and curl for the streams.
#  - Discovery: the storage description names the webhook service with its channel type and features;
#    a GET of it describes it as JSON-LD; every resource's answer links its stream.
#  - Webhook subscriptions: the answer (CSS's keys and order, sendTo, no receiveFrom); each activity kind
#    POSTed as application/ld+json with its state; a channel's POSTs in write order; the state feature
#    (a stale state: an Update at once, the current one nothing, an absent topic a Delete); unsubscription.
#  - Receivers: 404 and 410 drop the channel at once, 3 failures in a row (500, a refused connection) drop
#    it, one failure does not (the notification is sent again, in order); a receiver that holds a POST
#    delays neither another channel's POST nor a request to the server, nor gets its next POST before it
#    answered; a receiver holding 8 POSTs gets no ninth, while another receiver gets its own.
#  - sendTo http or https only; garbage gets 422.
#  - Streams: 200 text/turtle, the current state first (an Update, or a Delete), then each activity; a
#    stream outlives the idle timeout; 404 for a topic of another server, 405 for other methods.
#  - Bounds: webhook channels per client and in all, streams per client and in all (429, with why), the
#    lifetime (a webhook channel gone, a stream ended), undelivered bytes per channel (the channel dropped);
#    channels end at their own endAt, in any order of subscription.
# Usage: run_notifications_webhook.sh PATH/TO/ldgsm
set -uo pipefail
. "$(dirname "$0")/../agent/lib.sh"
tests_ldp=$(cd "$(dirname "$0")" && pwd)
command -v python3 > /dev/null || { echo "python3 is needed"; exit 77; }

NOTIFY=http://www.w3.org/ns/solid/notifications#
AS=https://www.w3.org/ns/activitystreams#
CONTEXT='"@context":["https://www.w3.org/ns/solid/notification/v1"]'
HOOK_TYPE='"type":"http://www.w3.org/ns/solid/notifications#WebhookChannel2023"'
streams=() receivers=()
cleanup_helpers() {
  local p
  for p in "${streams[@]}" "${receivers[@]}"; do kill "$p" 2> /dev/null; wait "$p" 2> /dev/null; done
}
trap 'cleanup_helpers; cleanup' EXIT

# start_receiver NAME: webhook_receiver.py, its lines in $work/NAME.out; sets $port and $refuse_port.
start_receiver() {
  local i
  port= refuse_port=
  python3 "$tests_ldp/webhook_receiver.py" > "$work/$1.out" 2> "$work/$1.err" &
  receivers+=($!)
  for ((i = 0; i < wait_limit * 50; i++)); do
    { read -r _ port _ refuse_port < "$work/$1.out"; } 2> /dev/null && [ -n "${refuse_port:-}" ] && return
    nap 0.02
  done
  echo "the receiver did not start: $(cat "$work/$1.err")"; exit 1
}
start_receiver other
other="http://127.0.0.1:$port"
start_receiver receiver
receiver="http://127.0.0.1:$port"

json() { # FIELD...: the fields of the JSON object on standard input, one a line (KEYS: its keys, joined by ',')
  python3 -c 'import json, sys; o = json.load(sys.stdin); [print(",".join(o) if k == "KEYS" else o.get(k, "")) for k in sys.argv[1:]]' "$@"
}
quote() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$1"; }
# hook PATH SEND_TO [STATE [EXTRA-JSON]]: subscribes a webhook channel to the document at PATH; $channel.
hook() {
  local state=${3:+,\"state\":$(quote "$3")}
  request POST "$service" "{$CONTEXT,$HOOK_TYPE,\"topic\":\"$base$1\",\"sendTo\":\"$2\"$state${4:-}}" \
    'Content-Type: application/ld+json'
  channel=
  [ "$http_code" = 200 ] && read -r channel < <(json id <<< "$http_body")
}
posts() { cat "$work/receiver.out" "$work/other.out" | grep -c "^POST $1 "; } # NAME: how many POSTs were answered for NAME
# deliveries NAME N: waits (bounded) until the receiver answered N POSTs for NAME; true when it has.
deliveries() {
  local i
  for ((i = 0; i < wait_limit * 50; i++)); do
    [ "$(posts "$1")" -ge "$2" ] && return 0
    nap 0.02
  done
  return 1
}
# delivered NAME K FIELD: a field of the K-th POST for NAME (ctype keys type object target state id context).
delivered() {
  local ctype keys type object target state id context k=0
  while IFS=$'\x1f' read -r ctype keys type object target state id context; do
    ((++k == $2)) && { printf '%s' "${!3}"; return; }
  done < <(sed -n "s/^POST $1 //p" "$work/receiver.out")
}
# logged PATTERN: waits (bounded) until the server's log has a line matching PATTERN.
logged() {
  local i
  for ((i = 0; i < wait_limit * 50; i++)); do
    grep -q "$1" "$work/serve.log" && return 0
    nap 0.02
  done
  return 1
}
etag() { request GET "$base$1" "" 'Accept: text/turtle'; sed -n 's/^etag: //p' <<< "$http_headers"; }
same() { [ "$1" = "$2" ]; }
stop_server() {
  stop_pid "$server_pid"; server_pid=
  check "$1: no sanitizer report" ! grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$work/serve.log"
}
encode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
# stream NAME PATH [curl options]: a stream of the document at PATH into $work/NAME.stream (headers in
# NAME.headers); waits until its first notification or its end.
stream() {
  local name=$1 path=$2 i; shift 2
  rm -f "$work/$name.headers" "$work/$name.stream" # a stream opened again: never read the last one's
  command curl -s -N -D "$work/$name.headers" -o "$work/$name.stream" --max-time $((wait_limit * 2)) "$@" \
    "${base}.notifications/StreamingHTTPChannel2023/$(encode "$base$path")" &
  streams+=($!)
  stream_pid=$!
  for ((i = 0; i < wait_limit * 50; i++)); do
    grep -q 'activitystreams#published' "$work/$name.stream" 2> /dev/null && return 0
    running "$stream_pid" || return 0
    nap 0.02
  done
}
# streamed NAME N: waits (bounded) until NAME has N notifications; true when it has.
streamed() {
  local i
  for ((i = 0; i < wait_limit * 50; i++)); do
    [ "$(grep -c '^    a <' "$work/$1.stream")" -ge "$2" ] && return 0
    nap 0.02
  done
  return 1
}
# notification NAME K: the K-th notification of stream NAME, as "TYPE STATE" (the state's quotes kept).
notification() {
  awk -v k="$2" '/^<urn:/ { n++ } n == k' "$work/$1.stream" | sed -n \
    -e 's/^    <http:\/\/www.w3.org\/ns\/solid\/notifications#state> "\(.*\)";$/state \1/p' \
    -e 's/^    a <https:\/\/www.w3.org\/ns\/activitystreams#\(.*\)>\.$/type \1/p' |
    sort -r | sed 's/^[a-z]* //' | tr '\n' ' ' | sed 's/ $//; s/\\"/"/g'
}

start_server
service="${base}.notifications/WebhookChannel2023/"

# ---------------------------------------------------------------- discovery
request GET "${base}.well-known/solid" "" 'Accept: application/n-triples'
check "the description names the webhook service" grep -qF "<$base> <${NOTIFY}subscription> <$service> ." <<< "$http_body"
check "the service is a WebhookChannel2023 service" \
  grep -qF "<$service> <${NOTIFY}channelType> <${NOTIFY}WebhookChannel2023> ." <<< "$http_body"
for feature in state endAt rate startAt; do
  check "the webhook service offers notify:$feature" grep -qF "<$service> <${NOTIFY}feature> <${NOTIFY}$feature> ." <<< "$http_body"
done
check "the WebSocket service is still named" grep -qF "<$base> <${NOTIFY}subscription> <${base}.notifications/WebSocketChannel2023/> ." <<< "$http_body"
request GET "$service"
check "GET of the service: its JSON-LD" same "200 ${NOTIFY}WebhookChannel2023" "$http_code $(json channelType <<< "$http_body")"
put d/doc '<#a> <#p> 0 .' > /dev/null
request GET "${base}d/doc" "" 'Accept: text/turtle'
check "a resource's answer links its stream" grep -qF \
  "<${base}.notifications/StreamingHTTPChannel2023/$(encode "${base}d/doc")>; rel=\"http://www.w3.org/ns/solid/terms#updatesViaStreamingHttp2023\"" \
  <<< "$http_headers"

# ---------------------------------------------------------------- subscription and activities
hook c/ "$receiver/ok/dir"
dir_channel=$channel
hook c/doc "$receiver/ok/doc"
check "subscribe to an absent document: 200" same 200 "$http_code"
check "the response is JSON-LD" grep -q '^content-type: application/ld+json' <<< "$http_headers"
check "the channel's id is under the service" same "$service" "${channel%/*}/"
{ read -r keys; read -r type; read -r topic; read -r send_to; read -r end_at; } < <(json KEYS type topic sendTo endAt <<< "$http_body")
check "its keys, in CSS's order (no sender: unsigned)" same "@context,id,type,topic,sendTo,endAt" "$keys"
check "its type" same "${NOTIFY}WebhookChannel2023" "$type"
check "its topic" same "${base}c/doc" "$topic"
check "its sendTo" same "$receiver/ok/doc" "$send_to"
check "an endAt within the default lifetime" python3 -c '
import datetime, sys
end = datetime.datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00"))
left = (end - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
sys.exit(not 3500 < left <= 3600)' "$end_at"
doc_channel=$channel

put c/doc '<#a> <#p> 1 .' > /dev/null
deliveries doc 1; tag=$(etag c/doc)
check "PUT (create): Create" same Create "$(delivered doc 1 type)"
check "POSTed as application/ld+json" same application/ld+json "$(delivered doc 1 ctype)"
check "Create: the object is the topic, the state the ETag a GET gives" same "${base}c/doc $tag" \
  "$(delivered doc 1 object) $(delivered doc 1 state)"
check "Create: an urn: id naming the topic" grep -qE "^urn:[0-9]+:${base}c/doc\$" <<< "$(delivered doc 1 id)"
check "Create: the contexts" same '["https://www.w3.org/ns/activitystreams", "https://www.w3.org/ns/solid/notification/v1"]' \
  "$(delivered doc 1 context)"
check "Create: CSS's keys, in its order" same "@context,id,type,object,state,published" "$(delivered doc 1 keys)"
deliveries dir 1
check "the container the PUT made: Create" same "Create ${base}c/ $(etag c/)" \
  "$(delivered dir 1 type) $(delivered dir 1 object) $(delivered dir 1 state)"
put c/doc '<#a> <#p> 2 .' > /dev/null
deliveries doc 2
check "PUT (replace): Update with the new ETag" same "Update $(etag c/doc)" "$(delivered doc 2 type) $(delivered doc 2 state)"
request PATCH "${base}c/doc" '@prefix solid: <http://www.w3.org/ns/solid/terms#>.
_:p a solid:InsertDeletePatch; solid:inserts { <#a> <#p> 3 . }.' 'Content-Type: text/n3'
deliveries doc 3
check "PATCH: Update with the new ETag" same "$http_code Update $(etag c/doc)" "204 $(delivered doc 3 type) $(delivered doc 3 state)"
request POST "${base}c/" '<#m> <#p> 1 .' 'Content-Type: text/turtle' 'Slug: member'
deliveries dir 2
check "POST: Add on the container" same "201 Add ${base}c/member ${base}c/ $(etag c/)" \
  "$http_code $(delivered dir 2 type) $(delivered dir 2 object) $(delivered dir 2 target) $(delivered dir 2 state)"
request DELETE "${base}c/member"
deliveries dir 3
check "DELETE of a member: Remove on the container" same "Remove ${base}c/member ${base}c/ $(etag c/)" \
  "$(delivered dir 3 type) $(delivered dir 3 object) $(delivered dir 3 target) $(delivered dir 3 state)"
request DELETE "${base}c/doc"
deliveries doc 4
check "DELETE: Delete, with no state" same "Delete ${base}c/doc @context,id,type,object,published" \
  "$(delivered doc 4 type) $(delivered doc 4 object) $(delivered doc 4 keys)"

# ---------------------------------------------------------------- order
hook o/doc "$receiver/ok/order"
tags=()
for ((i = 1; i <= 40; i++)); do
  request PUT "${base}o/doc" "<#a> <#p> $i ." 'Content-Type: text/turtle'
  tags+=("$(etag o/doc)")
done
deliveries order 40
got=() want=("Create ${tags[0]}")
for ((i = 1; i <= 40; i++)); do got+=("$(delivered order $i type) $(delivered order $i state)"); done
for ((i = 1; i < 40; i++)); do want+=("Update ${tags[$i]}"); done
check "40 writes: 40 POSTs, in write order" same "${want[*]}" "${got[*]}"

# ---------------------------------------------------------------- the state feature
put s/doc '<#a> <#p> 1 .' > /dev/null
old=$(etag s/doc)
put s/doc '<#a> <#p> 2 .' > /dev/null
new=$(etag s/doc)
hook s/doc "$receiver/ok/stale" "$old"
check "the response keeps the state" same "$old" "$(json state <<< "$http_body")"
deliveries stale 1
check "a stale state: an Update with the current ETag at once" same "Update $new" "$(delivered stale 1 type) $(delivered stale 1 state)"
hook s/doc "$receiver/ok/current" "$new"
hook s/absent "$receiver/ok/absent" '"0"'
deliveries absent 1
check "a state for an absent topic: Delete" same "Delete ${base}s/absent" "$(delivered absent 1 type) $(delivered absent 1 object)"
put s/doc '<#a> <#p> 3 .' > /dev/null
deliveries current 1
check "the current state: nothing before the next change" same "Update $(etag s/doc)" \
  "$(delivered current 1 type) $(delivered current 1 state)"

# ---------------------------------------------------------------- unsubscription
hook u/doc "$receiver/ok/gone"
request DELETE "$channel"
check "DELETE of the channel: 205" same 205 "$http_code"
request DELETE "$channel"
check "DELETE of it again: 404" same 404 "$http_code"
hook u/doc "$receiver/ok/kept"
put u/doc '<#a> <#p> 1 .' > /dev/null
put u/doc '<#a> <#p> 2 .' > /dev/null
deliveries kept 2
check "an unsubscribed channel gets nothing" same 0 "$(posts gone)"

# ---------------------------------------------------------------- failing receivers
hook f/doc "$receiver/status/404/r404"
r404=$channel
hook f/doc "$receiver/status/410/r410"
r410=$channel
hook f/doc "$receiver/status/500/r500"
r500=$channel
hook f/doc "http://127.0.0.1:$refuse_port/refused"
refused=$channel
hook f/doc "$receiver/flaky/flaky"
put f/doc '<#a> <#p> 1 .' > /dev/null
put f/doc '<#a> <#p> 2 .' > /dev/null
logged "dropping .* $receiver/status/404/r404 answered 404"
logged "dropping .* $receiver/status/410/r410 answered 410"
logged "dropping .* $receiver/status/500/r500 answered 500"
logged "dropping .* http://127.0.0.1:$refuse_port/refused failed"
deliveries flaky 3
request DELETE "$r404"
check "a receiver answering 404 loses its channel at once" same "404 1" "$http_code $(posts r404)"
request DELETE "$r410"
check "a receiver answering 410 loses its channel at once" same "404 1" "$http_code $(posts r410)"
request DELETE "$r500"
check "a receiver failing 3 times in a row loses its channel" same "404 3" "$http_code $(posts r500)"
check "... each time the same (first) notification" same "Create Create Create" \
  "$(delivered r500 1 type) $(delivered r500 2 type) $(delivered r500 3 type)"
request DELETE "$refused"
check "a refused connection, 3 times: the channel is lost" same 404 "$http_code"
request DELETE "$channel"
check "one failure does not lose the channel" same 205 "$http_code"
check "... its notification is sent again, then the next" same "Create Create Update" \
  "$(delivered flaky 1 type) $(delivered flaky 2 type) $(delivered flaky 3 type)"

# ---------------------------------------------------------------- a receiver that hangs
hook h/doc "$receiver/hang/held"
held=$channel
hook h/doc "$receiver/ok/beside"
put h/doc '<#a> <#p> 1 .' > /dev/null
put h/doc '<#a> <#p> 2 .' > /dev/null
deliveries beside 2
check "a held POST delays no other channel's" same "1 0" "$(grep -c '^HOLD held' "$work/receiver.out") $(posts held)"
request GET "${base}h/doc"
check "... nor a request to the server" same 200 "$http_code"
check "... and the held channel's next POST waits for its answer" same 1 "$(grep -c '^HOLD held' "$work/receiver.out")"
request GET "$receiver/release/held"
deliveries held 2
check "answered, the held channel gets its next, in order" same "Create Update" "$(delivered held 1 type) $(delivered held 2 type)"
for ((i = 1; i <= 9; i++)); do hook p/doc "$receiver/hang/p$i"; done
hook p/doc "$other/ok/elsewhere"
put p/doc '<#a> <#p> 1 .' > /dev/null
deliveries elsewhere 1
holds() { grep -c '^HOLD p' "$work/receiver.out"; }
for ((i = 0; i < wait_limit * 50; i++)); do [ "$(holds)" -ge 8 ] && break; nap 0.02; done
check "a receiver holding 8 POSTs gets no ninth; another receiver gets its own" same "8 1" "$(holds) $(grep -c '^POST elsewhere' "$work/other.out")"
held_one=$(sed -n 's/^HOLD //p' "$work/receiver.out" | grep '^p' | head -n 1)
request GET "$receiver/release/$held_one"
for ((i = 0; i < wait_limit * 50; i++)); do [ "$(holds)" -ge 9 ] && break; nap 0.02; done
check "one answered, the ninth comes" same 9 "$(holds)"
for ((i = 1; i <= 9; i++)); do request GET "$receiver/release/p$i"; done

# ---------------------------------------------------------------- endAt
in_seconds() { python3 -c 'import datetime, sys; print((datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=float(sys.argv[1]))).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z")' "$1"; }
hook e/doc "$receiver/ok/e1" "" ",\"endAt\":\"$(in_seconds 600)\""
late=$channel
hook e/doc "$receiver/ok/e2" "" ",\"endAt\":\"$(in_seconds 1)\""
soon=$channel
hook e/doc "$receiver/ok/e3"
lifelong=$channel
hook e/doc "$receiver/ok/e4" "" ",\"endAt\":\"$(in_seconds 2)\""
later=$channel
for ((i = 0; i < wait_limit * 10; i++)); do
  request GET "$soon"; a=$http_code; request GET "$later"; [ "$a $http_code" = "404 404" ] && break; nap 0.1
done
check "channels end at their endAt" same "404 404" "$a $http_code"
request GET "$late"; a=$http_code; request GET "$lifelong"
check "... and those with a later one last" same "405 405" "$a $http_code"

# ---------------------------------------------------------------- garbage
bad() { # what status body
  request POST "$service" "$3" "Content-Type: application/ld+json"
  check "$1: $2" same "$2" "$http_code"
}
bad "no sendTo" 422 "{$CONTEXT,$HOOK_TYPE,\"topic\":\"${base}x\"}"
check "422 says why" grep -q 'sendTo' <<< "$http_body"
bad "an ftp sendTo" 422 "{$CONTEXT,$HOOK_TYPE,\"topic\":\"${base}x\",\"sendTo\":\"ftp://127.0.0.1/x\"}"
bad "a file sendTo" 422 "{$CONTEXT,$HOOK_TYPE,\"topic\":\"${base}x\",\"sendTo\":\"file:///etc/passwd\"}"
bad "a relative sendTo" 422 "{$CONTEXT,$HOOK_TYPE,\"topic\":\"${base}x\",\"sendTo\":\"x\"}"
bad "a sendTo that is no string" 422 "{$CONTEXT,$HOOK_TYPE,\"topic\":\"${base}x\",\"sendTo\":[1]}"
bad "a WebSocket type" 422 "{$CONTEXT,\"type\":\"${NOTIFY}WebSocketChannel2023\",\"topic\":\"${base}x\",\"sendTo\":\"$receiver/ok/x\"}"
request POST "${base}.notifications/WebSocketChannel2023/" \
  "{$CONTEXT,\"type\":\"${NOTIFY}WebSocketChannel2023\",\"topic\":\"${base}x\",\"sendTo\":\"$receiver/ok/x\"}" \
  'Content-Type: application/ld+json'
check "sendTo on the WebSocket service: 422" same 422 "$http_code"
request PUT "$doc_channel" '{}' 'Content-Type: application/ld+json'
check "PUT of a webhook channel: 405" same 405 "$http_code"

# ---------------------------------------------------------------- streams
put t/doc '<#a> <#p> 1 .' > /dev/null
stream doc t/doc
check "a stream: 200 text/turtle" grep -qi '^content-type: text/turtle' "$work/doc.headers"
check "... first the current state: an Update" same "Update $(etag t/doc)" "$(notification doc 1)"
put t/doc '<#a> <#p> 2 .' > /dev/null
streamed doc 2
check "... then each change" same "Update $(etag t/doc)" "$(notification doc 2)"
request DELETE "${base}t/doc"
streamed doc 3
check "... a DELETE: Delete, no state" same "Delete" "$(notification doc 3)"
check "the stream is Turtle" rapper -q -i turtle -o ntriples "$work/doc.stream" "$base"
stream absent t/none
check "a stream of an absent topic: first a Delete" same "Delete" "$(notification absent 1)"
stream other x --data-binary 'x' -X POST
check "POST of a stream: 405" grep -q '^HTTP/1.1 405' "$work/other.headers"
command curl -s -o /dev/null -w '%{http_code}' "${base}.notifications/StreamingHTTPChannel2023/$(encode http://elsewhere.example/x)" \
  > "$work/elsewhere.code"
check "a stream of another server's resource: 404" same 404 "$(< "$work/elsewhere.code")"
stop_server "the server"

# ---------------------------------------------------------------- bounds
start_server --max-webhook-channels 3 --max-webhook-channels-per-client 2 \
  --max-connections 8 --max-connections-per-client 8 --max-streams-per-client 1 --threads 1
service="${base}.notifications/WebhookChannel2023/"
hook b/1 "$receiver/ok/b1"
first=$channel
hook b/2 "$receiver/ok/b2"
hook b/3 "$receiver/ok/b3"
check "a third webhook channel of one client: 429" same 429 "$http_code"
check "429 says why" grep -q 'one client' <<< "$http_body"
sub_from() { # ADDRESS: a webhook subscription from that source address (curl: the driver cannot choose one)
  command curl -s -o "$work/from.body" -w '%{http_code}' --interface "$1" -X POST "$service" \
    -H 'Content-Type: application/ld+json' --data-binary "{$CONTEXT,$HOOK_TYPE,\"topic\":\"${base}b/x\",\"sendTo\":\"$receiver/ok/bx\"}"
}
check "another client's webhook channel: 200" same 200 "$(sub_from 127.0.0.2)"
check "past --max-webhook-channels: 429" same 429 "$(sub_from 127.0.0.3)"
check "429 says why" grep -q 'most notification channels' "$work/from.body"
stream s1 b/1
check "a stream: 200" grep -q '^HTTP/1.1 200' "$work/s1.headers"
stream s2 b/1
check "a second stream of one client (--max-streams-per-client 1): 429" grep -q '^HTTP/1.1 429' "$work/s2.headers"
check "429 says why" grep -q 'one client' "$work/s2.stream"
stop_pid "${streams[-2]}"
for ((i = 0; i < wait_limit * 10; i++)); do
  stream s1 b/1
  grep -q '^HTTP/1.1 200' "$work/s1.headers" && break
  nap 0.1
done
check "a stream whose client went away frees its slot" grep -q '^HTTP/1.1 200' "$work/s1.headers"
stream s3 b/1 --interface 127.0.0.2
check "another client's stream: 200" grep -q '^HTTP/1.1 200' "$work/s3.headers"
stream s4 b/1 --interface 127.0.0.3
check "past a quarter of --max-connections (2) streams: 429" grep -q '^HTTP/1.1 429' "$work/s4.headers"
request GET "$base"
check "the streams leave room for requests" same 200 "$http_code"
request DELETE "$first"
hook b/4 "$receiver/ok/b4"
check "an unsubscribed channel's slot is free again" same 200 "$http_code"
stop_server "the bounded server"

# ---------------------------------------------------------------- the lifetime
start_server --channel-lifetime 1
service="${base}.notifications/WebhookChannel2023/"
hook l/doc "$receiver/ok/l1"
check "an endAt cut to --channel-lifetime" python3 -c '
import datetime, sys
end = datetime.datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00"))
sys.exit(not (end - datetime.datetime.now(datetime.timezone.utc)).total_seconds() <= 1)' "$(json endAt <<< "$http_body")"
stream l l/doc
for ((i = 0; i < wait_limit * 10; i++)); do request GET "$channel"; [ "$http_code" = 404 ] && break; nap 0.1; done
check "a webhook channel ends at --channel-lifetime (GET of its id: 405 while it lasts)" same 404 "$http_code"
await_pid "$stream_pid"
check "a stream ends at --channel-lifetime, whole (curl: no error)" same "0 1" "$? $(grep -c '^    a <' "$work/l.stream")"
stop_server "the server with a short lifetime"

# ---------------------------------------------------------------- undelivered bytes; the idle timeout
start_server --channel-max-queued 4096 --idle-timeout 1
service="${base}.notifications/WebhookChannel2023/"
hook q/doc "$receiver/hang/stuck"
stuck=$channel
stream quiet q/doc
# An idle connection: the server closes it after --idle-timeout; the stream, quiet as long, is kept.
server_port=${base#http://127.0.0.1:}
exec {idle}<> "/dev/tcp/127.0.0.1/${server_port%/}"
read -r -t $((wait_limit)) -u "$idle" _
check "an idle connection is closed by --idle-timeout" same 1 "$?"
exec {idle}>&-
put q/doc '<#a> <#p> 0 .' > /dev/null
streamed quiet 2
check "... a stream as quiet is not" same "Create" "$(notification quiet 2 | cut -d' ' -f1)"
for ((i = 1; i <= 40; i++)); do
  put q/doc "<#a> <#p> $i ." > /dev/null
  grep -q 'does not read its channel on /q/doc (WebhookChannel2023' "$work/serve.log" && break
done
check "a receiver more than --channel-max-queued behind loses its channel" \
  grep -q 'does not read its channel on /q/doc (WebhookChannel2023' "$work/serve.log"
request DELETE "$stuck"
check "... its id is gone" same 404 "$http_code"
request GET "$receiver/release/stuck"
stop_server "the server with small bounds"
finish
