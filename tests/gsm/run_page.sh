#!/usr/bin/env bash
# `ldgsm serve`'s page at /.well-known/ldgsm: after a fire-alarm instance ran a few iterations, headless
# Chromium shows the instance's own page with its root state and each stage's state (as its status document
# says) and its drawing, and the console (counts by state, a row per instance) with an instance whose call
# is retried after a failure, its row saying so (a screenshot is taken); the page refuses writes (405),
# escapes what resources say (a <script> label stays text; the page's one script is its own:
# run_page_live.sh), shows an instance whose model it does not hold without a drawing, and answers while
# the agent writes. (The console's counts, filter and paging: test_gsm_page; with 10,000 instances:
# bench/page/.)
# `ldgsm draw` reads the same model and instance over HTTP. Without Chromium the browser part is skipped
# (exit 77) after the rest has run.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
checker="$(dirname "$0")/draw_check.py"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/fire-alarm" && pwd)
chromium=/usr/bin/chromium
. "$(dirname "$0")/page_browser_lib.sh"
start_server --fixtures "$fixtures"
page="${base}.well-known/ldgsm"
own_page() { # IRI: the URL of the instance's own page
  echo "${page}?instance=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1")"
}

# ---- the instance runs a few iterations while the page is read, again and again, at the same time
put_device smoke-detector '<#it> a dev:SmokeDetector ; dev:obscuration 5.0 .'
readers=()
for i in 1 2 3 4; do
  ( for _ in 1 2 3 4 5; do curl -s -o /dev/null -w '%{http_code}\n' "$page"; done > "$work/readers.$i" ) &
  readers+=($!)
done
bounded "$ldgsm" run --instance "${base}status/alarm1#it" --iterations 3 -n 10 > /dev/null 2> "$work/run.log"
check "the agent ran 3 iterations (exit 0)" [ $? = 0 ]
for reader in "${readers[@]}"; do await_pid "$reader"; done
check "20 page reads during the run: all 200" [ "$(cat "$work"/readers.* | grep -c '^200$')" = 20 ]

# ---- the page over plain HTTP
curl -s -D "$work/page.head" -o "$work/page.html" "$page"
check "GET: 200" grep -q '^HTTP/1.1 200' "$work/page.head"
check "GET: Content-Type text/html; charset=utf-8" grep -qi '^Content-Type: text/html; charset=utf-8' "$work/page.head"
check "GET: a Content-Security-Policy allowing nothing by default" grep -qi "^Content-Security-Policy: default-src 'none';" "$work/page.head"
check "... a script only by its hash (run_page_live.sh)" grep -qi "^Content-Security-Policy:.* script-src 'sha256-[A-Za-z0-9+/=]*';" "$work/page.head"
check "... and nothing unsafe" ! grep -qi 'unsafe' "$work/page.head"
check "the page reloads itself" grep -q '<meta http-equiv="refresh" content="2">' "$work/page.html"
for method in POST PUT DELETE PATCH OPTIONS; do
  code=$(curl -s -o /dev/null -D "$work/$method.head" -w '%{http_code}' -X "$method" -H 'Content-Type: text/turtle' --data-binary '<#a> <#b> <#c> .' "$page")
  check "$method: 405 (got $code)" [ "$code" = 405 ]
  check "$method: Allow: GET, HEAD" grep -qi '^Allow: GET, HEAD' "$work/$method.head"
done
code=$(curl -s -I -o "$work/head.out" -w '%{http_code}' "$page")
check "HEAD: 200 (got $code)" [ "$code" = 200 ]
check "the store still has no such resource" [ "$(curl -s -o /dev/null -w '%{http_code}' "${base}.well-known/")" = 400 ]

# ---- what a resource says is escaped; an instance whose model is elsewhere is listed without drawing
put models/evil '@prefix gsm: <http://purl.org/gsm/vocab#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<#root> a gsm:Stage ; rdfs:label "<script>alert(1)</script>" ; gsm:hasChildStage <#s> ; gsm:hasMilestone <#done> .
<#s> a gsm:Stage ; rdfs:label "stage \"<img src=x onerror=alert(2)>\" & more" .
<#done> rdfs:label "</table><script>alert(3)</script>" .' > /dev/null
put status/evil '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/evil#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
put status/remote '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <http://elsewhere.invalid/model#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
curl -s -o "$work/evil.html" "$(own_page "${base}status/evil#it")"
check "one <script in the page: its own" [ "$(grep -oi '<script' "$work/evil.html" | wc -l)" = 1 ]
check "no <img in the page" ! grep -qi '<img' "$work/evil.html"
check "the label is shown escaped" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$work/evil.html"
check "quotes and ampersands escaped" grep -qF 'stage &quot;&lt;img src=x onerror=alert(2)&gt;&quot; &amp; more' "$work/evil.html"
curl -s -o "$work/console.html" "$page"
check "the console counts three instances" grep -q '<b>3</b> instances' "$work/console.html"
curl -s -o "$work/remote.html" "$(own_page "${base}status/remote#it")"
check "the instance whose model is elsewhere: shown, without a drawing" \
  grep -q "http://elsewhere.invalid/model#root.*uninitialized" "$work/remote.html"
check "... saying why" grep -q "does not hold the model" "$work/remote.html"
code=$(curl -s -o /dev/null -w '%{http_code}' "$(own_page "${base}status/none#it")")
check "an instance the server does not hold: 404 (got $code)" [ "$code" = 404 ]

# ---- ldgsm draw over HTTP, coloured as the status document says
read -r sfa cd_ _ <<< "$(status_line)" # also leaves the status document in $work/status.nt
completed() { # model stage name: "completed" when its fragment says so, else its state
  local frag
  frag=$(grep "isInstanceOf> <${base}models/fire-alarm#$1>" "$work/status.nt" | cut -d' ' -f1)
  if grep -q "^$frag <https://w3id.org/ldgsm#isCompleted> \"true\"" "$work/status.nt" && [ "$2" = inactive ]; then
    echo completed
  else echo "$2"; fi
}
sfa_word=$(completed SFA "$sfa"); cd_word=$(completed CD "$cd_")
check "the run left the stages in known states ($sfa_word, $cd_word)" [ -n "$sfa_word" ] && [ -n "$cd_word" ]
bounded "$ldgsm" draw "${base}models/fire-alarm" --instance "${base}status/alarm1#it" -o "$work/http.svg" 2> "$work/http.err"
check "ldgsm draw reads the model and the instance over HTTP (exit 0): $(cat "$work/http.err")" [ $? = 0 ]
check "... coloured as the status document says (SFA $sfa_word, CD $cd_word)" \
  python3 "$checker" colours "$work/http.svg" "Start Fire Alarm=$sfa_word" "Close Doors=$cd_word" "Fire alarm=active"
bounded "$ldgsm" draw "${base}models/none" > /dev/null 2> "$work/404.err"
check "a model URL answering 404: exit 1" [ $? = 1 ]
check "... saying so" grep -q "answered 404" "$work/404.err"

# The server ends cleanly: exit 0 on SIGTERM, and in the sanitizer build no report (a leak or an error
# in building the page would show here).
stop_server_cleanly() {
  stop_pid "$server_pid"
  local status=$?
  server_pid=
  check "the server stopped cleanly (exit $status)" [ $status = 0 ]
  check "no sanitizer report from the server" ! grep -q 'Sanitizer' "$work/serve.log"
}

# ---- what a browser shows
if [ ! -x "$chromium" ]; then
  stop_server_cleanly
  echo "SKIPPED: no chromium at $chromium (scripts/install-deps.sh installs it)"
  finish > /dev/null || { finish; exit 1; }
  exit 77
fi
browser_start
look() { # URL FILE: opens URL in the test's one Chromium, waits for it to load, writes its DOM to FILE
  ask "open $1"
  ask "wait location.href === '$1' && document.readyState === 'complete'"
  [ "$answer" = ok ] && ask "dom $2"
}
png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; } # FILE: a PNG
look "$(own_page "${base}status/alarm1#it")" "$work/dom.html"
check "Chromium loads the page" grep -q '</html>' "$work/dom.html"
shown=$(python3 "$checker" page "$work/dom.html" "${base}status/alarm1#it" "Fire alarm=active" \
  "Start Fire Alarm=$sfa_word" "Close Doors=$cd_word")
check "Chromium shows the instance with its root state, its stages' states and its drawing: $shown" [ -z "$shown" ]
ask "screenshot $work/page.png 1200 900"
check "Chromium renders the instance's page to a picture" png "$work/page.png"
look "$(own_page "${base}status/evil#it")" "$work/evil-dom.html"
check "the browser's DOM has no script element from the labels (one: the page's own)" [ "$(grep -oi '<script' "$work/evil-dom.html" | wc -l)" = 1 ]
check "... and shows the label as text" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$work/evil-dom.html"

# ---- the console, with an instance whose quote call failed and is retried: its row says why it waits
put status/quote '@prefix gsm: <http://purl.org/gsm/vocab#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
<#it> a gsm:StageInstance, gsm:ArtifactInstance ; gsm:isInstanceOf <../models/fire-alarm#root> ;
  gsm:hasState gsm:active ; gsm:inArtifactInstance <#it> .
<#sfa> a gsm:StageInstance ; gsm:isInstanceOf <../models/fire-alarm#SFA> ; gsm:inArtifactInstance <#it> ;
  gsm:hasState gsm:active .
<#call> a ldgsm:CallRecord ; ldgsm:ofStage <#sfa> ; gsm:inArtifactInstance <#it> ; ldgsm:callState ldgsm:calling ;
  ldgsm:alternative 1 ; ldgsm:retriesLeft 2 ; ldgsm:deadline "2026-12-07T22:00:00Z" ; ldgsm:lastFailure "answers 500" .' > /dev/null
look "$page" "$work/console-dom.html"
shown=$(python3 "$checker" console "$work/console-dom.html" "${base}status/quote#it" retrying \
  'stage "Start Fire Alarm" call: calling' '2 retries left' 'deadline 2026-12-07T22:00:00Z' 'last failure answers 500')
check "Chromium shows the console: the retrying instance counted, its row saying why it waits: $shown" [ -z "$shown" ]
ask "screenshot $work/console.png 1400 900"
check "Chromium renders the console to a picture" png "$work/console.png"
browser_stop
stop_server_cleanly
finish
