#!/usr/bin/env bash
# `ldgsm status` (DESIGN section 6.5): workflow instances shown as their models' trees, compared with the
# expected trees in status-expected/ (ports and times normalized; the history section is left out of the
# trees and tested on its own, with transitions the test writes):
#  - the fire-alarm instance before set-up, after set-up, with "Start Fire Alarm" open (its call
#    calling) and completed, under one stepped agent;
#  - the evaluation instance before set-up, after set-up, with s1 open, and complete;
#  - tests/gsm/models/status.ttl, whose stages wait for a sentry reading a resource that answers 404,
#    one that answers 500 (tests/gsm/fixed_status.py), one on a port where nothing listens, one that does
#    not answer within --timeout, and a condition that is false; then the flag set (the stage open, its
#    milestone's sentry shown) and handled (completed);
#  - --json: one object per instance that python3 parses, with the same stages, milestones and reads as
#    the text; --watch: a new state after a line '---' only when what is shown changed, --count bounds
#    it, SIGTERM ends it with 0; the history: the last N transitions, oldest first, named by the model;
#  - exit status 1 naming the instance or the model that could not be read, 2 for usage errors.
# UPDATE_EXPECTED=1 rewrites the expected trees from this run (review the diff).
set -u
. "$(dirname "$0")/../agent/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/fire_alarm_lib.sh"
expected=$here/status-expected
fixtures=$(cd "$here/../../ldp-fixtures" && pwd)
svc=

normalize() {
  sed -E "s#${base}#BASE/#g; ${svc:+s#${svc}/#SVC/#g;} s#[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z#TIME#g"
}
# show NAME ARGS...: runs ldgsm status ARGS; $work/NAME.out is its output normalized, without the
# history section; $work/NAME.rc its exit status.
show() {
  local name=$1; shift
  bounded "$ldgsm" status "$@" > "$work/$name.raw" 2> "$work/$name.err"
  echo $? > "$work/$name.rc"
  normalize < "$work/$name.raw" | sed '/^last transitions/,$d' > "$work/$name.out"
}
# tree NAME [STATUS]: the output of `show NAME` is status-expected/NAME.txt, and it exited STATUS (0; 6 for
# an instance held or waiting, as `ldgsm status --help` says).
tree() {
  [ -n "${UPDATE_EXPECTED:-}" ] && cp "$work/$1.out" "$expected/$1.txt"
  if diff -u "$expected/$1.txt" "$work/$1.out" > "$work/$1.diff"; then
    passes=$((passes + 1))
  else
    echo "FAIL: the tree of $1 differs from status-expected/$1.txt:"; cat "$work/$1.diff"
    failures=$((failures + 1))
  fi
  check "$1: exit status ${2:-0}" [ "$(cat "$work/$1.rc")" = "${2:-0}" ]
}
has_line() { grep -qxF -- "$2" "$work/$1.out"; } # NAME LINE: the normalized output has this line

# --json has the text's content: same_as_json NAME ARGS...: the stage, milestone and read lines rendered
# from `ldgsm status --json ARGS` as the text says them are those of $work/NAME.out (shown just before).
json_as_text() { # JSON-FILE
  python3 - "$1" <<'EOF'
import json, sys
def reads(s):
    for r in s["reads"]:
        if r["outcome"] == "not read": o = "not read in this iteration"
        elif r["failure"]: o = "%s (no answer)" % r["failure"]
        elif r["outcome"] == "unparsable": o = "%d (RDF that does not parse)" % r["status"]
        else: o = "%d (%s)" % (r["status"], r["outcome"])
        print("reads %s%s: %s" % ("the container " if r["container"] else "", r["resource"], o))
def stage(s):
    print('stage "%s": %s%s' % (s["name"], s["state"], ", completed" if s["completed"] else ""))
    for m in s["milestones"]:
        print('milestone "%s": %s' % (m["name"], "achieved" if m["achieved"] else "not achieved"))
        for q in m["achievingSentries"]: reads(q)
    for g in (s["whyNot"] or {}).get("guards", []):
        for q in g["conditions"]: reads(q)
    for c in s["children"]: stage(c)
for line in open(sys.argv[1]):
    stage(json.loads(line)["root"])
EOF
}
same_as_json() {
  local name=$1; shift
  bounded "$ldgsm" status --json "$@" > "$work/$name.json"
  check "--json has the content of the text ($name)" diff <(json_as_text "$work/$name.json" | normalize) \
    <(sed -E 's/^ +//' "$work/$name.out" | grep -E '^(stage|milestone|reads) ' | grep -v "^reads only this workflow's status")
}

# --- the fire-alarm instance, one agent stepped an iteration at a time ------------------------------
start_server --fixtures "$fixtures/fire-alarm"
fire="${base}status/alarm1#it"
show fire-before "$fire"; tree fire-before
rm -f "$work/steps.fifo"; mkfifo "$work/steps.fifo"
"$ldgsm" run -v --instance "$fire" --step < "$work/steps.fifo" 2> "$work/agent.log" & # -v: its iteration lines end each step
agent=$!
exec 7> "$work/steps.fifo"
step() { # one iteration of the stepped agent, waited for (bounded)
  local want=$(($(grep -c '^iteration:' "$work/agent.log") + 1)) _
  echo >&7
  for _ in $(seq 1 $((wait_limit * 20))); do
    [ "$(grep -c '^iteration:' "$work/agent.log")" -ge $want ] && return 0
    running $agent || break
    nap 0.05
  done
  echo "FAIL: the agent's iteration $want did not end"; failures=$((failures + 1))
}
step
show fire-setup "$fire"; tree fire-setup; same_as_json fire-setup "$fire"
put_device smoke-detector '<#it> a dev:SmokeDetector ; dev:obscuration 12.5 .'
step
show fire-open "$fire"; tree fire-open; same_as_json fire-open "$fire"
step
show fire-completed "$fire"; tree fire-completed
exec 7>&-
await_pid $agent

# the history: transitions the test writes into the status document, out of order
frag() { get status/alarm1 | grep -F "<http://purl.org/gsm/vocab#isInstanceOf> <${base}models/fire-alarm#$1>" | cut -d' ' -f1; }
sfa=$(frag SFA); cd_=$(frag CD); m1=$(frag m1)
{ get status/alarm1; cat <<EOF
<${base}status/alarm1#t-9001> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/ldgsm#Transition> .
<${base}status/alarm1#t-9001> <https://w3id.org/ldgsm#sequence> "9001"^^<http://www.w3.org/2001/XMLSchema#integer> .
<${base}status/alarm1#t-9001> <https://w3id.org/ldgsm#at> "2030-01-02T11:33:48.868Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<${base}status/alarm1#t-9001> <https://w3id.org/ldgsm#changed> $sfa .
<${base}status/alarm1#t-9001> <https://w3id.org/ldgsm#property> <http://purl.org/gsm/vocab#hasState> .
<${base}status/alarm1#t-9001> <https://w3id.org/ldgsm#from> <http://purl.org/gsm/vocab#inactive> .
<${base}status/alarm1#t-9001> <https://w3id.org/ldgsm#to> <http://purl.org/gsm/vocab#active> .
<${base}status/alarm1#t-9003> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/ldgsm#Transition> .
<${base}status/alarm1#t-9003> <https://w3id.org/ldgsm#sequence> "9003"^^<http://www.w3.org/2001/XMLSchema#integer> .
<${base}status/alarm1#t-9003> <https://w3id.org/ldgsm#at> "2030-01-02T11:33:50.100Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<${base}status/alarm1#t-9003> <https://w3id.org/ldgsm#changed> $cd_ .
<${base}status/alarm1#t-9003> <https://w3id.org/ldgsm#property> <http://purl.org/gsm/vocab#hasState> .
<${base}status/alarm1#t-9003> <https://w3id.org/ldgsm#from> <http://purl.org/gsm/vocab#inactive> .
<${base}status/alarm1#t-9003> <https://w3id.org/ldgsm#to> <http://purl.org/gsm/vocab#active> .
<${base}status/alarm1#t-9002> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/ldgsm#Transition> .
<${base}status/alarm1#t-9002> <https://w3id.org/ldgsm#sequence> "9002"^^<http://www.w3.org/2001/XMLSchema#integer> .
<${base}status/alarm1#t-9002> <https://w3id.org/ldgsm#at> "2030-01-02T11:33:49.500Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<${base}status/alarm1#t-9002> <https://w3id.org/ldgsm#changed> $m1 .
<${base}status/alarm1#t-9002> <https://w3id.org/ldgsm#property> <http://purl.org/gsm/vocab#isAchieved> .
<${base}status/alarm1#t-9002> <https://w3id.org/ldgsm#from> "false"^^<http://www.w3.org/2001/XMLSchema#boolean> .
<${base}status/alarm1#t-9002> <https://w3id.org/ldgsm#to> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .
EOF
} | curl -s -o /dev/null -X PUT -H 'Content-Type: application/n-triples' --data-binary @- "${base}status/alarm1"
bounded "$ldgsm" status --history 2 "$fire" > "$work/history.out"
check "--history 2: the last two transitions, oldest first, named by the model" \
  diff <(sed -n '/^last transitions/,$p' "$work/history.out" | tail -n 2) - <<'EOF'
  11:33:49.500 m1: alarm on: not achieved -> achieved
  11:33:50.100 Close Doors: inactive -> active
EOF
bounded "$ldgsm" status "$fire" > "$work/history5.out"
check "by default the last five: all three, oldest first" \
  diff <(sed -n '/^last transitions/,$p' "$work/history5.out" | grep -E '^  11:33:(48|49|50)') - <<'EOF'
  11:33:48.868 Start Fire Alarm: inactive -> active
  11:33:49.500 m1: alarm on: not achieved -> achieved
  11:33:50.100 Close Doors: inactive -> active
EOF
bounded "$ldgsm" status --json --history 3 "$fire" > "$work/history.json"
check "--json: the history, by sequence, with the model's names and the values" python3 - "$work/history.json" <<'EOF'
import json, sys
h = json.load(open(sys.argv[1]))["history"]
mine = [t for t in h if t["sequence"] >= 9001]
assert [t["sequence"] for t in mine] == [9001, 9002, 9003], h
assert [t["name"] for t in mine] == ["Start Fire Alarm", "m1: alarm on", "Close Doors"], mine
assert mine[1]["from"] == ["false"] and mine[1]["to"] == ["true"], mine[1]
assert mine[0]["at"] == "2030-01-02T11:33:48.868Z" and mine[0]["to"] == ["active"], mine[0]
EOF
stop_pid "$server_pid"; server_pid=

# --- the evaluation instance, an agent run an iteration at a time ------------------------------------
rm -f "$work/serve.out" # start_server must not read the first server's base URL before the new one writes
start_server --fixtures "$fixtures/evaluation"
order="${base}status/order1#it"
iterate() { bounded "$ldgsm" run --instance "$1" -n 0 --iterations 1 >> "$work/eval-agent.log" 2>&1; }
show eval-before "$order"; tree eval-before
iterate "$order"
show eval-setup "$order"; tree eval-setup
iterate "$order"
show eval-open "$order"; tree eval-open; same_as_json eval-open "$order"
bounded "$ldgsm" run --instance "$order" -n 0 --iterations 60 --until complete >> "$work/eval-agent.log" 2>&1
show eval-complete "$order"; tree eval-complete

# --watch: order2 is set up while a watcher reads it every 20 ms
put status/order2 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/evaluation#workflow> ; gsm:hasState gsm:uninitialized .' > /dev/null
order2="${base}status/order2#it"
"$ldgsm" status --watch 20 --count 100000 "$order2" > "$work/watch.out" 2> "$work/watch.err" &
watcher=$!
snapshots() { grep -c '^last transitions' "$work/watch.out"; }
for _ in $(seq 1 $((wait_limit * 20))); do [ "$(snapshots)" -ge 1 ] && break; nap 0.05; done
check "--watch: the first state is shown" [ "$(snapshots)" = 1 ]
iterate "$order2"
for _ in $(seq 1 $((wait_limit * 20))); do [ "$(snapshots)" -ge 2 ] && break; nap 0.05; done
stop_pid $watcher TERM; rc=$?
check "--watch: SIGTERM ends it with exit status 0" [ $rc = 0 ]
check "--watch: the set-up is shown as a second state, after a line '---'" \
  [ "$(snapshots)-$(grep -cx -- '---' "$work/watch.out")" = "2-1" ]
check "--watch: the first state is before set-up, the second after" \
  diff <(grep '^stage "Order to delivery"' "$work/watch.out") - <<'EOF'
stage "Order to delivery": uninitialized
stage "Order to delivery": active
EOF
check "--watch: no escape codes when standard output is not a terminal" ! grep -q $'\033' "$work/watch.out"
bounded "$ldgsm" status --watch 10 --count 3 "$order2" > "$work/count.out"; rc=$?
check "--watch --count 3: ends by itself with 0, showing an unchanged state once" \
  [ "$rc-$(grep -c '^last transitions' "$work/count.out")-$(grep -cx -- '---' "$work/count.out")" = "0-1-0" ]

# --- why a stage does not open: 404, 500, nothing listening, no answer in time, a false condition ------
python3 "$here/fixed_status.py" 0 > "$work/fixed.out" 2> "$work/fixed.err" &
fixed_pid=$!
wait_for_port() { local _; for _ in $(seq 1 $((wait_limit * 20))); do [ -s "$work/fixed.out" ] && return; nap 0.05; done; }
wait_for_port
svc="http://127.0.0.1:$(head -n 1 "$work/fixed.out")"
sed "s#SVC#$svc#g" "$here/models/status.ttl" > "$work/status-model.ttl"
put models/status "$(cat "$work/status-model.ttl")" > /dev/null
put env/flag '<#it> <https://example.org/env#value> false .' > /dev/null
put status/why1 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/status#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
why="${base}status/why1#it"
# the failing reads hold the instance's writes: the agent proceeds anyway, to set it up and move it
step_why() { bounded "$ldgsm" run --instance "$why" -n 0 --iterations 1 --on-incomplete proceed --timeout 1000 \
  >> "$work/why-agent.log" 2>&1; }
step_why
show why-setup --timeout 1000 "$why"; tree why-setup 6; same_as_json why-setup --timeout 1000 "$why"
check "a read answered 404: named, with its guard and sentry" has_line why-setup \
  '      guard "the note says go": <#note-says-go> does not hold'
check "  and the resource read, 404 (empty)" has_line why-setup '        reads BASE/env/note#it: 404 (empty)'
check "a read answered 500: failed" has_line why-setup '        reads SVC/500#it: 500 (failed)'
check "nothing listens: connect failure, no answer" has_line why-setup \
  '        reads http://127.0.0.1:9/down#it: connect failure (no answer)'
check "no answer in time: timeout" has_line why-setup '        reads SVC/hang#it: timeout (no answer)'
check "a false condition over data read (200)" has_line why-setup '        reads BASE/env/flag#it: 200 (data)'
check "the failed reads are said to hold the writes" \
  [ "$(grep -c '^  held: a read failed: ' "$work/why-setup.out")" = 3 ]
bounded "$ldgsm" status --json --timeout 1000 "$why" > "$work/why.json"
check "--json: the same reads and outcomes" python3 - "$work/why.json" "$base" "$svc" <<'EOF'
import json, sys
report, base, svc = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
stages = {s["name"]: s for s in report["root"]["children"]}
def read(name):
    (guard,) = stages[name]["whyNot"]["guards"]
    (cond,) = guard["conditions"]
    assert cond["holds"] is False and stages[name]["whyNot"]["reason"] == "no guard holds", cond
    (r,) = cond["reads"]
    return r["resource"], r["status"], r["failure"], r["outcome"]
assert read("Reads a missing note") == (base + "env/note#it", 404, None, "empty")
assert read("Reads a failing service") == (svc + "/500#it", 500, None, "failed")
assert read("Reads a service that is down") == ("http://127.0.0.1:9/down#it", None, "connect failure", "no answer")
assert read("Reads a service that does not answer") == (svc + "/hang#it", None, "timeout", "no answer")
assert read("flagged") == (base + "env/flag#it", 200, None, "data")
(inner,) = stages["flagged"]["children"]
assert inner["whyNot"] == {"reason": "parent not active", "parent": "flagged", "guards": []}, inner["whyNot"]
EOF
put env/flag '<#it> <https://example.org/env#value> true .' > /dev/null
step_why
show why-open --timeout 1000 "$why"; tree why-open 6; same_as_json why-open --timeout 1000 "$why"
check "an open stage: the sentry that would close it and what it reads" has_line why-open \
  '      closes the stage when <#flag-handled> does not hold'
put env/handled '<#it> <https://example.org/env#value> true .' > /dev/null
step_why
show why-completed --timeout 1000 "$why"; tree why-completed 6
stop_pid $fixed_pid

bounded "$ldgsm" status --json "$order" "$order2" > "$work/two.json"
check "--json: one object per instance and line" python3 -c '
import json, sys
objects = [json.loads(l) for l in open(sys.argv[1])]
assert [o["instance"] for o in objects] == sys.argv[2:], objects' "$work/two.json" "$order" "$order2"

# --- what cannot be shown, and usage ------------------------------------------------------------------
show missing "${base}status/nothing#it"
check "an instance that is not there: exit 1" [ "$(cat "$work/missing.rc")" = 1 ]
check "  naming it and why" grep -qxF '  cannot be shown: cannot read the instance document: 404 (empty)' "$work/missing.out"
check "  under its URI" grep -qxF 'BASE/status/nothing#it' "$work/missing.out"
put status/lost '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/gone#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
show lost "${base}status/lost#it" "$order"
check "a model that is not there: exit 1" [ "$(cat "$work/lost.rc")" = 1 ]
check "  naming the model" grep -qxF '  cannot be shown: cannot read its model <BASE/models/gone#root>: 404 (empty)' "$work/lost.out"
check "  while the other instance is shown" grep -qxF 'stage "Order to delivery": inactive, completed' "$work/lost.out"
bounded "$ldgsm" status --json "${base}status/lost#it" > "$work/lost.json"
check "  and in JSON, as its error" python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["error"].startswith("cannot read its model <") and "root" not in o, o' "$work/lost.json"
show down "http://127.0.0.1:9/status/x#it"
check "a server that is down: exit 1, connect failure" \
  [ "$(cat "$work/down.rc")-$(grep -c 'cannot read the instance document: connect failure (no answer)' "$work/down.out")" = 1-1 ]
for usage in "" "--count 2 $order" "--watch 0 $order" "--history x $order" "--bogus $order"; do
  # shellcheck disable=SC2086
  bounded "$ldgsm" status $usage > /dev/null 2>&1; rc=$?
  check "usage error '$usage': exit 2" [ $rc = 2 ]
done
finish
