#!/usr/bin/env bash
# The status document's history (DESIGN section 6.5; src/agent/history.h): every transition the agent
# writes appends an entry <doc#t-N> (what changed, from, to, the iteration's clock), only for the
# properties declared ldgsm:HistoryProperty (ontology/gsm.ttl), bounded by --history N (oldest go first).
# Runs the fire-alarm fixture: smoke makes Start Fire Alarm open.
set -u
. "$(dirname "$0")/../agent/lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/fire-alarm" && pwd)
start_server --fixtures "$fixtures"
put devices/smoke-detector '@prefix dev: <https://example.org/devices#> .
<#it> a dev:SmokeDetector ; dev:obscuration 5.0 .' > /dev/null
status=$(get status/alarm1)
fresh() { printf '%s' "$status" | command curl -s -o /dev/null -X PUT -H 'Content-Type: application/n-triples' --data-binary @- "${base}status/alarm1"; }
entries() { # python: the history entries of status/alarm1 as "sequence property-local from->to" lines
  get status/alarm1 | python3 -c '
import re, sys
L = "https://w3id.org/ldgsm#"
e = {}
for line in sys.stdin:
    m = re.match(r"(<[^>]*>) <([^>]*)> (.*) \.$", line.strip())
    if m: e.setdefault(m.group(1), []).append((m.group(2), m.group(3)))
for s, po in e.items():
    d = {}
    for p, o in po: d.setdefault(p, []).append(o)
    if L + "sequence" not in d: continue
    assert "#t-" in s, s
    seq = int(re.match(r"\"(\d+)\"", d[L + "sequence"][0]).group(1))
    at = d[L + "at"][0]
    assert re.match(r"\"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\"\^\^<http://www.w3.org/2001/XMLSchema#dateTime>", at), at
    prop = d[L + "property"][0].strip("<>").split("#")[-1]
    short = lambda o: o.split("\"")[1] if o.startswith("\"") else o.strip("<>").split("#")[-1]
    frm = ",".join(short(o) for o in sorted(d.get(L + "from", [])))
    to = ",".join(short(o) for o in sorted(d.get(L + "to", [])))
    changed = d[L + "changed"][0]
    print(seq, prop, frm + "->" + to, changed)
' | sort -n; }
run() { bounded "$ldgsm" run -n 0 --instance "${base}status/alarm1#it" "$@" 2> "$work/agent.log"; }

run --iterations 4
entries > "$work/all"
check "transitions are recorded" [ "$(wc -l < "$work/all")" -ge 5 ]
check "numbered 1, 2, 3, ... without a gap" [ "$(cut -d' ' -f1 "$work/all" | tr '\n' ' ')" = "$(seq 1 "$(wc -l < "$work/all")" | tr '\n' ' ')" ]
check "set-up: the root went from uninitialized to active" grep -q "hasState uninitialized->active <${base}status/alarm1#it>" "$work/all"
sfa=$(get status/alarm1 | grep "isInstanceOf> <${base}models/fire-alarm#SFA>" | cut -d' ' -f1)
check "Start Fire Alarm opened" grep -q "hasState inactive->active $sfa" "$work/all"
check "its task's state is recorded" grep -q "taskState ->pending $sfa" "$work/all"
check "a milestone's achievement, as its value" grep -q "isAchieved false->true <" "$work/all"
check "a call's bookkeeping is not (deadline, retries)" ! grep -qE "deadline|retriesLeft|calledAt" "$work/all"

fresh
run --iterations 4 --history 3
entries > "$work/three"
all=$(wc -l < "$work/all")
check "--history 3 keeps three" [ "$(wc -l < "$work/three")" = 3 ]
check "the newest three" [ "$(cut -d' ' -f1 "$work/three" | tr '\n' ' ')" = "$(seq $((all - 2)) "$all" | tr '\n' ' ')" ]

fresh
run --iterations 4 --history 0
check "--history 0 keeps none" [ "$(entries | wc -l)" = 0 ]
check "yet the workflow ran" grep -q 'vocab#active' <(get status/alarm1)
check "--history needs a number" ! "$ldgsm" run --instance "${base}status/alarm1#it" --history x
finish
