#!/usr/bin/env bash
# `ldgsm run --incremental` (src/agent/incremental.h, docs/DESIGN.md §1.4): two instances of a model whose
# stage S has a timeout (ldgsm:timeout PT1S) and whose milestones wait for a sensor. While they wait, the
# agent leaves them out (a conditional GET of each document, answered 304, and nothing parsed or derived);
# S's timeout brings them back (ldgsm:wakeAt, not the --safety-poll of 10 minutes), each named in one
# incident line; the sensor's change brings them back and they complete; then every poll is a 304 per
# document and leaves both out. The trace records the revalidations. Never left out, as polling would
# have it: an instance that derived a request (a dry run prints it again in every iteration), one beside
# an invalid sentry (which withholds every write), one whose sentry reads the clock; every document counts
# for every instance when a program of the user's runs beside the shipped rules; an instance listed twice
# is one.
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
start_server
one_stage_model models/m "$started_guard" "$(sensed sensor)" '; ldgsm:timeout "PT1S"^^xsd:dayTimeDuration'
put env/sensor '<#it> <https://example.org/env#value> false .' > /dev/null
for i in 1 2; do
  put s/i$i '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
done
"$ldgsm" run -v --instance "${base}s/i1#it" --instance "${base}s/i2#it" -n 100 --incremental --safety-poll 600000 \
  --trace "$work/trace.jsonl" > /dev/null 2> "$work/run.log" &
agent_pid=$!

# waits (bounded) for a line of the agent's log matching the extended regex $1
await_log() {
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do
    grep -qE "$1" "$work/run.log" && return 0
    running "$agent_pid" || break
    nap 0.1
  done
  return 1
}
incident="has been open longer than its timeout"
check "S's timeout brings the waiting instances back: an incident line for each" \
  await_log "incident: <${base}s/i2#it>: stage <${base}models/m#S> $incident"
check "and for the other" grep -qF "incident: <${base}s/i1#it>: stage <${base}models/m#S> $incident" "$work/run.log"
before=$(sed -n "/$incident/q;p" "$work/run.log")
check "while S was open and its timeout to come, both were left out" \
  grep -qE "^iteration: .*; 0 instances evaluated, 2 left out" <<< "$before"
check "a left-out instance costs a conditional GET of each document, answered 304" \
  grep -qE "^GET ${base}s/i1 304 " <<< "$before"
check "and nothing of it is parsed" grep -qE "^iteration: .* 0 triples read, .*; 0 instances evaluated, 2 left out" <<< "$before"

put env/sensor '<#it> <https://example.org/env#value> true .' > /dev/null
sensed_at=$(wc -l < "$work/run.log")
check "the sensor's change brings both back, and they complete" await_completed 1 2
check "after the change, both were evaluated" \
  grep -qE "^iteration: .*; 2 instances evaluated, 0 left out" <<< "$(tail -n +"$sensed_at" "$work/run.log")"
settled=$(wc -l < "$work/run.log")
for ((i = 0; i < wait_limit * 10; i++)); do
  [ "$(tail -n +"$settled" "$work/run.log" | grep -c '^iteration: .*; 0 instances evaluated, 2 left out')" -ge 3 ] && break
  nap 0.1
done
later=$(tail -n +"$settled" "$work/run.log")
check "once complete, the polls leave both out" \
  [ "$(grep -c '^iteration: .*; 0 instances evaluated, 2 left out' <<< "$later")" -ge 3 ]
# the GETs between the last two iteration lines
last_poll=$(awk '/^iteration:/ { gets = held; held = "" } /^GET / { held = held $0 "\n" } END { printf "%s", gets }' <<< "$later")
check "the last poll made 4 GETs (the two instances, the model and the sensor)" [ "$(grep -c '^GET ' <<< "$last_poll")" = 4 ]
check "each answered 304" [ "$(grep -cE '^GET [^ ]+ 304 ' <<< "$last_poll")" = 4 ]
stop_pid "$agent_pid"
check "the agent stops at SIGTERM with status 0" [ $? = 0 ]

# An instance that derived a request is evaluated again even when its documents did not change (here
# --dry-run sends nothing): it derives the same request in every iteration, as in polling.
put s/i3 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" run -v --instance "${base}s/i3#it" -n 0 --iterations 3 --incremental --dry-run > "$work/dry.out" 2> "$work/dry.log"
check "a dry run prints its set-up write in each of 3 iterations" [ "$(grep -c "^PUT ${base}s/i3" "$work/dry.out")" = 3 ]
check "evaluating it each time" [ "$(grep -c '^iteration: .*; 1 instances evaluated, 0 left out' "$work/dry.log")" = 3 ]
check "the trace records the revalidations" grep -qF '"outcome":"unchanged"' "$work/trace.jsonl"
check "and the change" grep -qF '"outcome":"changed"' "$work/trace.jsonl"
# --instances-from: the container's listing is the discovery's read, no instance's. Two complete instances
# stay left out while a third joins the run and completes.
ensure_container pool/ > /dev/null
for i in 1 2; do
  put pool/p$i '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
done
"$ldgsm" run -v --instances-from "${base}pool/" -n 100 --incremental --safety-poll 600000 > /dev/null 2> "$work/pool.log" &
agent_pid=$!
pool_done() { grep -q 'isCompleted> "true"' <<< "$(get "pool/p$1")"; }
await_pool() {
  local i k
  for ((i = 0; i < wait_limit * 10; i++)); do
    for ((k = 1; k <= $1; k++)); do pool_done "$k" || break; done
    [ "$k" -gt "$1" ] && grep -qE '^iteration: .*; 0 instances evaluated, '"$1"' left out' <(tail -n 3 "$work/pool.log") && return 0
    nap 0.1
  done
  return 1
}
check "the listed instances complete and are left out" await_pool 2
put pool/p3 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
check "one created later joins, completes, and is left out too" await_pool 3
check "while it ran, the two others stayed left out (the listing that changed is no instance's read)" \
  ! grep -qE '^iteration: .*; 3 instances evaluated' "$work/pool.log"
stop_pid "$agent_pid"

# An instance listed twice is one instance: it completes (the sensor is true by now).
put s/i4 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" run -v --instance "${base}s/i4#it" --instance "${base}s/i4#it" -n 0 --until complete --iterations 10 \
  --incremental > /dev/null 2> "$work/twice.log"
check "an instance given twice completes (exit 0)" [ $? = 0 ]
check "counted once" ! grep -qE '^iteration: .*; 2 instances evaluated' "$work/twice.log"

# An invalid sentry met withholds every write (docs/DESIGN.md §2.6). hb is set up while its model is sound;
# then its guard's text breaks: hb derives nothing more, yet is never left out, so the invalid sentry is met
# in every iteration and the new instance ha beside it is held in each, as in polling.
bad_model() { one_stage_model models/bad "$1" 'ASK { <../env/sensor#it> <https://example.org/env#value> false }'; }
bad_model "ASK { <../env/sensor#it> <https://example.org/env#value> false }"
for i in b a; do
  put s/h$i "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/$([ $i = b ] && echo bad || echo m)#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
done
bounded "$ldgsm" run -v --instance "${base}s/hb#it" -n 0 --iterations 3 --incremental > /dev/null 2> "$work/bad.log"
check "hb is set up" grep -qE "^(PUT|PATCH) ${base}s/hb 20" "$work/bad.log"
bad_model "ASK { <../env/sensor#it> <https://example.org/env#value> false"
bounded "$ldgsm" run -v --instance "${base}s/hb#it" --instance "${base}s/ha#it" -n 0 --iterations 4 --incremental \
  > /dev/null 2> "$work/held.log"
check "beside an invalid sentry, the new instance's set-up write is withheld in every iteration" \
  ! grep -qE "^(PUT|PATCH) ${base}s/ha " "$work/held.log"
check "in all 4" [ "$(grep -cE '^iteration: .* [1-9][0-9]* withheld' "$work/held.log")" = 4 ]

# A program of the user's may join any documents: every document read is every instance's. Its rule writes
# i5 once i6 is complete; i5 completes first and would be left out if only its own documents counted.
put env/sensor2 '<#it> <https://example.org/env#value> false .' > /dev/null
one_stage_model models/m2 "$started_guard" "$(sensed sensor2)"
for i in 5 6; do
  put s/i$i "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/$([ $i = 5 ] && echo m || echo m2)#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
done
cat > "$work/mine.n3" <<N3
@prefix http: <http://www.w3.org/2011/http#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
{ <${base}s/i6#it> ldgsm:isCompleted true . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}s/i5> ; ldgsm:group <${base}s/i5#it> ;
        http:body { <${base}s/i5#it> <https://example.org/env#sawI6> true . } . } .
N3
"$ldgsm" run -v -p "$work/mine.n3" --instance "${base}s/i5#it" --instance "${base}s/i6#it" -n 100 --incremental \
  --safety-poll 600000 > /dev/null 2> "$work/mine.log" &
agent_pid=$!
await_in_doc() { # PATH TEXT: bounded wait for TEXT in the document
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do
    grep -qF "$2" <<< "$(get "$1")" && return 0
    nap 0.1
  done
  return 1
}
check "i5 completes" await_in_doc s/i5 'isCompleted> "true"'
left_out_both() { grep -qE '^iteration: .*; 0 instances evaluated, 2 left out' "$work/mine.log"; }
await_left_out_both() {
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do
    left_out_both && return 0
    nap 0.1
  done
  return 1
}
check "i5 complete and i6 waiting, both are left out" await_left_out_both
put env/sensor2 '<#it> <https://example.org/env#value> true .' > /dev/null
check "once i6 completes, the user's rule writes i5" await_in_doc s/i5 'sawI6'
stop_pid "$agent_pid"

# A rule of the user's may compare the clock without deriving a wake time: beside a program every instance
# is evaluated once a --safety-poll, so the rule on complete i5 fires within one after its time.
at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%S.000Z)
cat > "$work/clock.n3" <<N3
@prefix http: <http://www.w3.org/2011/http#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix math: <http://www.w3.org/2000/10/swap/math#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
{ <${base}s/i5#it> ldgsm:isCompleted true . ?agent ldgsm:now ?now . ?now math:greaterThan "$at"^^xsd:dateTime . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}s/i5> ; ldgsm:group <${base}s/i5#it> ;
        http:body { <${base}s/i5#it> <https://example.org/env#sawTime> true . } . } .
N3
"$ldgsm" run -v -p "$work/clock.n3" --instance "${base}s/i5#it" -n 100 --incremental --safety-poll 1500 \
  > /dev/null 2> "$work/clock.log" &
agent_pid=$!
check "a rule of the user's on the clock fires once its time passed, the instance left out until then" \
  await_in_doc s/i5 'sawTime'
check "... which it was" grep -qE '^iteration: .*; 0 instances evaluated, 1 left out' "$work/clock.log"
stop_pid "$agent_pid"

# A sentry that reads the clock: its instance is never left out, so the guard opens once the time comes
# (not at the next --safety-poll).
at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%S.000Z)
one_stage_model models/clock "PREFIX ldgsm: <https://w3id.org/ldgsm#> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
ASK { ?agent ldgsm:now ?n FILTER(?n > \"$at\"^^xsd:dateTime) }" 'ASK { <../env/sensor#it> <https://example.org/env#value> false }'
put s/i7 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/clock#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
"$ldgsm" run -v --instance "${base}s/i7#it" -n 100 --incremental --safety-poll 600000 > /dev/null 2> "$work/clock.log" &
agent_pid=$!
stage_state() { # PATH STAGE: the state of the document's fragment of the model's stage (N-Triples term)
  local nt fragment
  nt=$(get "$1")
  fragment=$(awk -v m="<${base}models/clock#$2>" '$2 == "<http://purl.org/gsm/vocab#isInstanceOf>" && $3 == m { print $1 }' <<< "$nt")
  awk -v f="$fragment" '$1 == f && $2 == "<http://purl.org/gsm/vocab#hasState>" { print $3 }' <<< "$nt"
}
await_open() {
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do
    [ "$(stage_state s/i7 S)" = "<http://purl.org/gsm/vocab#active>" ] && return 0
    nap 0.1
  done
  return 1
}
for ((i = 0; i < wait_limit * 10; i++)); do
  [ -n "$(stage_state s/i7 S)" ] && break
  nap 0.1
done
check "before its time the guard's stage is closed" [ "$(stage_state s/i7 S)" = "<http://purl.org/gsm/vocab#inactive>" ]
check "a guard on the clock opens its stage when the time comes" await_open
stop_pid "$agent_pid"

# A state machine beside: evaluated in every iteration, its requests no instance's. While it takes one event
# after another, the complete instance i1 stays left out.
put schemas/switches "$(cat "$(dirname "$0")/../wsm/schemas/switches")" > /dev/null
ensure_container inbox/mm/ > /dev/null
put documents/mm '@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
<#it> a wsm:MachineInstance ; wsm:instanceOf <../schemas/switches#switches> ; wsm:inbox <../inbox/mm/> .' > /dev/null
for e in 1 2 3 4 5; do
  put "inbox/mm/e$e" "<> <https://w3id.org/ldgsm/wsm#event> <${base}schemas/switches#arm> ." > /dev/null
done
rm -f "$work/agent.fifo"; mkfifo "$work/agent.fifo"
"$ldgsm" run -v --instance "${base}s/i1#it" --machine "${base}documents/mm#it" --incremental --step -n 0 \
  < "$work/agent.fifo" > /dev/null 2> "$work/mm.log" &
agent_pid=$!
exec {agent_in}> "$work/agent.fifo"
follow_log "$work/mm.log"
for _ in 1 2 3 4 5 6 7 8; do
  echo >&"$agent_in"
  next_iteration "$agent_pid" || break
done
exec {agent_in}>&-
await_pid "$agent_pid"
check "the machine took its events, one write an iteration" \
  [ "$(grep -cE '^iteration: .* unsafe [1-9].*; 0 instances evaluated, 1 left out' "$work/mm.log")" -ge 3 ]
finish
