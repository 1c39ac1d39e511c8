#!/usr/bin/env bash
# `ldgsm draw`: every model under ldp-fixtures/*/models/ is drawn as SVG showing every stage's and
# milestone's name (a new fixture is covered by being there); guards' arrows come from the milestones
# their sentries read, alternatives are joined by "then"; a guard says what it waits for; with --instance
# the stages and milestones take the legend's colours for their states, and a stage's call (retrying,
# exhausted, calling) its border's colour and a line; PNG, dot and standard input work; text from a model stays text;
# bad input gives a message and exit 1 (never a crash), a bad option exit 2.
set -u
. "$(dirname "$0")/../agent/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
checker="$(dirname "$0")/draw_check.py"

# ---- every fixture model
models=0
for model in "$root"/ldp-fixtures/*/models/*; do
  [ -f "$model" ] || continue
  models=$((models + 1))
  name=$(basename "$(dirname "$(dirname "$model")")")-$(basename "$model")
  cp "$model" "$work/$name.ttl"
  "$ldgsm" reason "$work/$name.ttl" > "$work/$name.nt" 2> /dev/null
  bounded "$ldgsm" draw "$model" -o "$work/$name.svg" 2> "$work/$name.err"
  check "$name: drawn (exit 0): $(head -c 300 "$work/$name.err")" [ $? = 0 ]
  check "$name: the SVG shows every stage and milestone: $(python3 "$checker" names "$work/$name.nt" "$work/$name.svg")" \
    python3 "$checker" names "$work/$name.nt" "$work/$name.svg"
done
check "the fixtures have models ($models)" [ "$models" -ge 4 ]

fire=$root/ldp-fixtures/fire-alarm/models/fire-alarm
"$ldgsm" draw "$fire" -o "$work/fire.svg"
check "a guard's arrow: m1 (read as achieved) to g2" \
  python3 "$checker" edge "$work/fire.svg" "m1: alarm on" "g2: the alarm is on" solid
check "a guard's arrow: m2b (read as not achieved) to g1, dotted" \
  python3 "$checker" edge "$work/fire.svg" "m2b: all doors closed" "g1: smoke detected and the doors not known closed" dotted
check "no arrow where no sentry reads: m1 to g1" ! \
  python3 "$checker" edge "$work/fire.svg" "m1: alarm on" "g1: smoke detected and the doors not known closed" solid
check "a guard says what it waits for (its sentry's description)" \
  python3 "$checker" guard "$work/fire.svg" "g2: the alarm is on" "m1 'alarm on' is achieved"
check "... cut at 90 bytes when longer" \
  python3 "$checker" guard "$work/fire.svg" "g1: smoke detected and the doors not known closed" "is n..."
check "the alternatives: Order online, then Order by phone" \
  python3 "$checker" edge "$work/suppliers-procurement.svg" "a supplier took the order" "the clerk confirmed a phone order" then

# ---- an instance's state: SFA active, CD inactive, the root active; m2b achieved, m1 not
mkdir -p "$work/tree/models" "$work/tree/status"
cp "$fire" "$work/tree/models/fire-alarm"
cat > "$work/tree/status/alarm1" <<'EOF'
@prefix gsm: <http://purl.org/gsm/vocab#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
<#it> a gsm:StageInstance, gsm:ArtifactInstance ; gsm:isInstanceOf <../models/fire-alarm#root> ;
  gsm:hasState gsm:active ; ldgsm:isCompleted false ; gsm:inArtifactInstance <#it> .
<#s-a> a gsm:StageInstance ; gsm:isInstanceOf <../models/fire-alarm#SFA> ; gsm:inArtifactInstance <#it> ;
  gsm:hasState gsm:active ; ldgsm:isCompleted false .
<#s-b> a gsm:StageInstance ; gsm:isInstanceOf <../models/fire-alarm#CD> ; gsm:inArtifactInstance <#it> ;
  gsm:hasState gsm:inactive ; ldgsm:isCompleted false .
<#m-a> a gsm:MilestoneInstance ; gsm:isInstanceOf <../models/fire-alarm#m1> ; ldgsm:ofStage <#s-a> ;
  gsm:inArtifactInstance <#it> ; gsm:isAchieved false .
<#m-b> a gsm:MilestoneInstance ; gsm:isInstanceOf <../models/fire-alarm#m2b> ; ldgsm:ofStage <#s-b> ;
  gsm:inArtifactInstance <#it> ; gsm:isAchieved true .
EOF
bounded "$ldgsm" draw "$work/tree/models/fire-alarm" --instance "$work/tree/status/alarm1#it" -o "$work/state.svg" 2> "$work/state.err"
check "drawn with --instance (exit 0): $(cat "$work/state.err")" [ $? = 0 ]
shown=$(python3 "$checker" colours "$work/state.svg" "Start Fire Alarm=active" "Close Doors=inactive" \
  "Fire alarm=active" "m2b: all doors closed=achieved" "m1: alarm on=open")
check "the active stage has the legend's active colour, the inactive one inactive, m2b achieved, m1 not: $shown" \
  [ -z "$shown" ]
check "the active and the inactive stage differ in colour" ! \
  python3 "$checker" colours "$work/state.svg" "Start Fire Alarm=inactive"
sed -i 's/gsm:hasState gsm:inactive ; ldgsm:isCompleted false/gsm:hasState gsm:inactive ; ldgsm:isCompleted true/' "$work/tree/status/alarm1"
"$ldgsm" draw "$work/tree/models/fire-alarm" --instance "$work/tree/status/alarm1#it" -o "$work/completed.svg"
check "a completed stage takes the legend's completed colour" \
  python3 "$checker" colours "$work/completed.svg" "Close Doors=completed" "Start Fire Alarm=active"
check "no call record: no stage shows a call" \
  python3 "$checker" calls "$work/completed.svg" "Close Doors=none" "Start Fire Alarm=none" "Fire alarm=none"
calls() { # SFA-CALL-STATE SFA-FAILURE CD-CALL-STATE: the status document with a call record on each stage
  cp "$work/tree/status/alarm1" "$work/tree/status/calls"
  printf '%s\n' "<#c-a> a ldgsm:CallRecord ; ldgsm:ofStage <#s-a> ; ldgsm:callState ldgsm:$1 $2 ." \
    "<#c-b> a ldgsm:CallRecord ; ldgsm:ofStage <#s-b> ; ldgsm:callState ldgsm:$3 ." >> "$work/tree/status/calls"
  "$ldgsm" draw "$work/tree/models/fire-alarm" --instance "$work/tree/status/calls#it" -o "$work/calls.svg"
}
calls calling '; ldgsm:lastFailure "answers 500"' exhausted
shown=$(python3 "$checker" calls "$work/calls.svg" "Start Fire Alarm=retrying" "Close Doors=exhausted" "Fire alarm=none")
check "a call failed and retried, one exhausted: each stage's border and line in the legend's colour: $shown" [ -z "$shown" ]
calls calling '' answered
shown=$(python3 "$checker" calls "$work/calls.svg" "Start Fire Alarm=calling" "Close Doors=none")
check "a call without a failure is calling; an answered one is not shown: $shown" [ -z "$shown" ]
check "an instance the status document does not hold: exit 1" ! \
  "$ldgsm" draw "$work/tree/models/fire-alarm" --instance "$work/tree/status/alarm1#other"
check "an instance whose model MODEL does not describe: exit 1, saying so" \
  sh -c "'$ldgsm' draw '$root/ldp-fixtures/suppliers/models/procurement' --instance '$work/tree/status/alarm1#it' 2>&1 >/dev/null | grep -q 'does not describe'"

# ---- formats, standard input
"$ldgsm" draw "$fire" -o "$work/fire.png" 2> /dev/null
check "-o FILE.png writes a PNG" [ "$(head -c 8 "$work/fire.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
"$ldgsm" draw "$fire" -o "$work/fire.dot" 2> /dev/null
check "-o FILE.dot writes Graphviz dot" grep -q '^digraph workflow' "$work/fire.dot"
"$ldgsm" draw - < "$fire" > "$work/stdin.svg"
check "MODEL '-' reads standard input" python3 "$checker" names "$work/fire-alarm-fire-alarm.nt" "$work/stdin.svg"

# ---- text from a model stays text
cat > "$work/script.ttl" <<'EOF'
@prefix gsm: <http://purl.org/gsm/vocab#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<#root> a gsm:Stage ; rdfs:label "<script>alert(1)</script> & \\N" ; gsm:hasMilestone <#m> .
<#m> rdfs:label "m \"quoted\" <b>bold</b>" .
EOF
"$ldgsm" draw "$work/script.ttl" -o "$work/script.svg" 2> /dev/null
check "markup in labels is text in the SVG" python3 -c "
import sys, xml.etree.ElementTree as ET
texts = [t.text for t in ET.parse('$work/script.svg').iter('{http://www.w3.org/2000/svg}text')]
sys.exit(0 if '<script>alert(1)</script> & \\\\N' in texts and 'm \"quoted\" <b>bold</b>' in texts else 1)"
check "no <script element in the SVG" ! grep -qi '<script' "$work/script.svg"

# ---- bad input: a message and exit 1, never a crash
expect_error() { # description pattern command...: exit 1 and stderr matching pattern
  local what=$1 pattern=$2; shift 2
  bounded "$@" > "$work/out" 2> "$work/err"
  local status=$?
  check "$what: exit 1 (got $status)" [ $status = 1 ]
  check "$what: says '$pattern' ($(head -c 200 "$work/err"))" grep -q "$pattern" "$work/err"
  check "$what: writes no picture" [ ! -s "$work/out" ]
}
expect_error "a missing file" "No such file" "$ldgsm" draw "$work/no-such-model"
expect_error "a document that is not a model" "not a GSM workflow model" "$ldgsm" draw "$root/ldp-fixtures/fire-alarm/devices/alarm"
printf '<#a> <#b> .\n' > "$work/bad.ttl"
expect_error "Turtle that does not parse" "bad.ttl:1" "$ldgsm" draw "$work/bad.ttl"
printf '\xff\xfe<' > "$work/binary.ttl"
expect_error "bytes that are not Turtle" "binary.ttl" "$ldgsm" draw "$work/binary.ttl"
: > "$work/empty.ttl"
expect_error "an empty document" "not a GSM workflow model" "$ldgsm" draw "$work/empty.ttl"
expect_error "a missing status document" "No such file" "$ldgsm" draw "$fire" --instance "$work/none#it"
expect_error "a URL nothing answers" "GET http://127.0.0.1:9/m" "$ldgsm" draw http://127.0.0.1:9/m
cat > "$work/cycle.ttl" <<'EOF'
@prefix gsm: <http://purl.org/gsm/vocab#> .
<#a> gsm:hasChildStage <#b> . <#b> gsm:hasChildStage <#a> .
EOF
expect_error "stages in a cycle" "cycle" "$ldgsm" draw "$work/cycle.ttl"
cat > "$work/broken-sentry.ttl" <<'EOF'
@prefix gsm: <http://purl.org/gsm/vocab#> .
@prefix sp: <http://spinrdf.org/sp#> .
<#root> a gsm:Stage ; gsm:hasChildStage <#s> .
<#s> a gsm:Stage ; gsm:hasGuard [ gsm:hasCondition <#q> ] ; gsm:hasMilestone <#m> .
<#q> a sp:Ask ; sp:text "ASK { ?x " .
EOF
bounded "$ldgsm" draw "$work/broken-sentry.ttl" -o "$work/broken.svg" 2> "$work/broken.err"
check "a sentry that does not parse: drawn all the same (exit 0)" [ $? = 0 ]
check "... with a warning naming it" grep -q "warning: guard .*sentry <.*#q> is not drawn" "$work/broken.err"
bounded "$ldgsm" draw "$fire" -o "$work/fire.pdf" 2> /dev/null
check "an output format it does not write: usage error (exit 2)" [ $? = 2 ]
bounded "$ldgsm" draw > /dev/null 2>&1
check "no MODEL: usage error (exit 2)" [ $? = 2 ]
finish
