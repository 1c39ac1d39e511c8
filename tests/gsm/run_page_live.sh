#!/usr/bin/env bash
# `ldgsm serve`'s instances page updates from the server's Solid Notifications (src/gsm/page.h design
# note 5), in headless Chromium driven by page_browser.py. With the periodic reload an hour away, so that
# only a notification explains an update: the page shows a status change, a new instance and a removed
# one, each with one fetch of the page, and unsubscribes what it no longer shows; a change made between the
# page's load and its subscriptions is shown (their state); notifications arriving while a fetch is held
# make one more fetch, not one each; the policy allows the script by its hash and connections to the server
# and its listener only, and Chromium reports no violation. Where it cannot follow a document (its sockets
# cut, its subscriptions refused, more documents than --page-channels) it says so and reloads every
# --page-refresh seconds; when the server comes back with --no-notifications it takes the whole new page,
# which has no script and reloads itself.
set -u
. "$(dirname "$0")/../agent/lib.sh"
chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
  echo "SKIPPED: no chromium at $chromium (scripts/install-deps.sh installs it)"; exit 77
fi

model='@prefix gsm: <http://purl.org/gsm/vocab#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<#root> a gsm:Stage ; rdfs:label "Order" ; gsm:hasChildStage <#a> .
<#a> a gsm:Stage ; rdfs:label "Pack" .'
waiting='@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .'
set_up() { # ROOT-STATE COMPLETED: a set-up instance document
  printf '%s\n' '@prefix gsm: <http://purl.org/gsm/vocab#> .' '@prefix ldgsm: <https://w3id.org/ldgsm#> .' \
    "<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:$1 ;" \
    "  ldgsm:isCompleted $2 ; gsm:inArtifactInstance <#it> ." \
    '<#s1> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#a> ; gsm:inArtifactInstance <#it> ;' \
    '  gsm:hasState gsm:inactive .'
}

# ---- the browser, a coprocess answering one line per command (page_browser.py)
. "$(dirname "$0")/page_browser_lib.sh"
browser_start
note='document.getElementById("updates").textContent'
shows() { ask "wait document.body.textContent.includes($1)"; [ "$answer" = ok ]; } # JS-STRING: the page shows it
row_state() { ask "wait document.querySelector('#instances td.state')?.textContent === '$1'"; } # the first row's state

# ---- bad options: a usage error saying why
for option in --page-refresh --page-channels; do
  bounded "$ldgsm" serve --memory --port 0 "$option" 0 > /dev/null 2> "$work/usage.err"
  check "$option 0: exit 2 ($?)" [ $? = 2 ]
  check "... saying it wants a positive number" grep -q "^ldgsm serve: $option wants a positive number, not '0'" "$work/usage.err"
done

# ---- notifications: the periodic reload is an hour away
start_server --page-refresh 3600
page="${base}.well-known/ldgsm"
put models/m "$model" > /dev/null
put status/a "$waiting" > /dev/null
ws=$(sed -n 's|^ldgsm serve: notification sockets on \(ws://[^/]*\)/$|\1|p' "$work/serve.log")
curl -s -D "$work/live.head" -o "$work/live.html" "$page"
policy=$(grep -i '^Content-Security-Policy:' "$work/live.head" | tr -d '\r')
hash="'sha256-[A-Za-z0-9+/]+=*'"
wanted="^Content-Security-Policy: default-src 'none'; style-src $hash; script-src $hash; connect-src 'self' $ws; base-uri 'none'; form-action 'self'; frame-ancestors 'none'\$"
check "the policy: nothing by default, the stylesheet and the script by hash, connections to the server and $ws only: $policy" \
  grep -Eq "$wanted" <<< "$policy"
check "one script in the page" [ "$(grep -o '<script' "$work/live.html" | wc -l)" = 1 ]
check "the meta refresh only without script" grep -q '<noscript><meta http-equiv="refresh" content="3600"></noscript>' "$work/live.html"

ask "hold ${base}.notifications/*"
ask "open $page"
ask "held 4"
check "the page subscribes to its 4 documents (held: $answer)" [ "$answer" = ok ]
put status/a "$(set_up active false)" > /dev/null
ask release
ask "wait $note.startsWith('it updates on every change')"
check "Chromium runs the script, which follows every document by notification ($answer)" [ "$answer" = ok ]
ask 'eval [...document.querySelectorAll("#topics li")].map(li => li.textContent).join(" ")'
check "... the root, the instance's container and document, the other container ($answer)" \
  [ "$answer" = "\"$base ${base}status/ ${base}status/a ${base}models/\"" ]
row_state active
check "a change between the page's load and its subscriptions is shown (the subscription's state) ($answer)" [ "$answer" = ok ]
ask "fetches 2"
check "... with one more fetch of the page ($answer)" [ "$answer" = 2 ]

put status/a "$(set_up inactive false)" > /dev/null
row_state inactive
check "a status change is shown without the periodic reload ($answer)" [ "$answer" = ok ]
ask "fetches 3"
check "... one fetch of the page ($answer)" [ "$answer" = 3 ]

put status/b "$waiting" > /dev/null
shows '"2 instances"'
check "a new instance is shown" [ "$answer" = ok ]
ask "fetches 4"
check "... one fetch ($answer)" [ "$answer" = 4 ]
ask "wait $note.startsWith('it updates') && [...document.querySelectorAll('#topics li')].some(li => li.textContent.endsWith('/status/b'))"
check "... and its document is followed too" [ "$answer" = ok ]

unsubscribes() { grep -c '^DELETE /.notifications/WebSocketChannel2023/[^ ]* 205 ' "$work/serve.log"; }
unsubscribed=$(unsubscribes)
request DELETE "${base}status/b"
shows '"1 instance ·"'
check "a removed instance is no longer shown" [ "$answer" = ok ]
ask "fetches 5"
check "... one fetch for its Delete and its container's Remove ($answer)" [ "$answer" = 5 ]
for ((i = 0; i < wait_limit * 20; i++)); do
  [ "$(unsubscribes)" -gt "$unsubscribed" ] && break
  nap 0.05
done
check "... and its channel unsubscribed" [ "$(unsubscribes)" = $((unsubscribed + 1)) ]

# A burst: the first change's fetch is held; three more changes come meanwhile, then it is let go.
ask hold
put status/a "$(set_up active false)" > /dev/null
ask "held 1"
check "the first change's fetch is held" [ "$answer" = ok ]
ask "frames 0"; frames=$answer
put status/a "$(set_up inactive false)" > /dev/null
put status/a "$(set_up active false)" > /dev/null
put status/a "$(set_up inactive true)" > /dev/null
ask "frames $((frames + 3))"
check "three more notifications came while it was held ($answer)" [ "$answer" -ge $((frames + 3)) ]
ask "timers 300" # past the page's settle (100 ms, page.c), on its clock: a fetch they would make has started
ask "fetches 0"
check "... and made no fetch meanwhile ($answer)" [ "$answer" = 6 ]
ask release
row_state completed
check "the last change is shown ($answer)" [ "$answer" = ok ]
ask "fetches 7"
check "... after one more fetch ($answer)" [ "$answer" = 7 ]
ask violations
check "Chromium reports no Content-Security-Policy violation: $answer" [ "$answer" = "[]" ]

# The notification sockets cut (as a network fault would): the page says it reloads instead.
ss -K dst 127.0.0.1 dport = ":${ws##*:}" > /dev/null 2>&1
ask "wait $note === '0 of 4 documents followed by notification (a notification socket closed); this page reloads every 3600 seconds.'"
check "cut notification sockets: the page says it follows none and reloads" [ "$answer" = ok ]
stop_pid "$server_pid"; server_pid=

# ---- more documents than --page-channels: the first two followed, the page reloads for the rest
start_server --page-refresh 1 --page-channels 2
page="${base}.well-known/ldgsm"
put models/m "$model" > /dev/null
put status/a "$waiting" > /dev/null
ask "open $page"
ask "wait $note === '2 of 4 documents followed by notification; this page reloads every 1 seconds.'"
check "the page follows two documents of four and says it reloads for the rest" [ "$answer" = ok ]
put status/a "$(set_up active false)" > /dev/null
row_state active
check "... and shows a change of one it does not follow ($answer)" [ "$answer" = ok ]
stop_pid "$server_pid"; server_pid=

# ---- subscriptions refused (the client's one channel is taken): the page says so and reloads
start_server --page-refresh 1 --max-channels-per-client 1 --channel-connect-timeout 3600
page="${base}.well-known/ldgsm"
put models/m "$model" > /dev/null
put status/a "$waiting" > /dev/null
request POST "${base}.notifications/WebSocketChannel2023/" \
  "{\"@context\":[\"https://www.w3.org/ns/solid/notification/v1\"],\"type\":\"http://www.w3.org/ns/solid/notifications#WebSocketChannel2023\",\"topic\":\"${base}status/a\"}" \
  'Content-Type: application/ld+json'
check "another subscription takes the client's one channel ($http_code)" [ "$http_code" = 200 ]
ask "open $page"
ask "wait $note === '0 of 4 documents followed by notification (a subscription answered 429); this page reloads every 1 seconds.'"
check "the page says its subscriptions were refused and it reloads every second" [ "$answer" = ok ]
put status/a "$(set_up active false)" > /dev/null
row_state active
check "... and shows a change by reloading ($answer)" [ "$answer" = ok ]

# ---- restarted on the same port with --no-notifications: the page takes the whole new page, which has
# no script and reloads itself
stop_pid "$server_pid"; server_pid=
port=${base##*:}; port=${port%/}
start_server --port "$port" --no-notifications --page-refresh 1
check "the server is back on port $port" [ "$page" = "${base}.well-known/ldgsm" ]
ask "wait $note === 'this page reloads every 1 seconds: the server sends no notifications.'"
check "the page reloads whole and says the server sends no notifications" [ "$answer" = ok ]
ask "eval document.scripts.length"
check "... and runs no script ($answer)" [ "$answer" = 0 ]
put models/m "$model" > /dev/null
put status/a "$waiting" > /dev/null
curl -s -D "$work/off.head" -o "$work/off.html" "$page"
check "no script allowed" ! grep -qi '^Content-Security-Policy:.*\(script-src\|connect-src\)' "$work/off.head"
check "no script in the page" ! grep -q '<script' "$work/off.html"
check "the meta refresh" grep -q '^<meta http-equiv="refresh" content="1">' "$work/off.html"
row_state 'not set up'
check "Chromium shows the page ($answer)" [ "$answer" = ok ]
put status/a "$(set_up active false)" > /dev/null
row_state active
check "... and a change, by reloading ($answer)" [ "$answer" = ok ]
browser_stop
stop_pid "$server_pid"
check "the server stopped cleanly" [ $? = 0 ]
server_pid=
check "no sanitizer report from the server" ! grep -q 'Sanitizer' "$work/serve.log"
finish
