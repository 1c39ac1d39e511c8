#!/usr/bin/env bash
# `ldgsm status` on state machine instances (ldp-fixtures/state-machine, DESIGN section 6.5): before set-up;
# after `ldgsm run --machine` took three events POSTed to doc1's inbox (fired, rejected by a condition,
# fired) and two more were POSTed: its state, its variable, the waiting events in the order they will be
# taken (the first with what taking it will do), the history entries (sequence, time, event, from -> to,
# outcome, reason, failed condition), --history N, --json; why an instance waits (no inbox) or is held (two
# transitions on one event), from the rules: exit 6; an instance whose schema is not there: exit 1; a GSM
# instance beside a machine instance, each shown as its kind.
set -u
. "$(dirname "$0")/../agent/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
start_server --fixtures "$root/ldp-fixtures/state-machine"
doc1="${base}documents/doc1#it"

normalize() { sed -E "s#${base}#BASE/#g; s#[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z#TIME#g"; }
show() { # name args...: $work/NAME.out the normalized text, $work/NAME.rc the exit status
  local name=$1; shift
  bounded "$ldgsm" status "$@" > "$work/$name.raw" 2> "$work/$name.err"
  echo $? > "$work/$name.rc"
  normalize < "$work/$name.raw" > "$work/$name.out"
}
has_line() { grep -qFx -- "$2" "$work/$1.out"; } # name line: the output has that exact line
# lines_match FILE ERE...: FILE has as many lines as EREs given, each matching its ERE (the rules' reasons
# are matched loosely: their wording is rules/wsm.n3's)
lines_match() {
  local file=$1 i=1 line; shift
  [ "$(wc -l < "$file")" = $# ] || return 1
  while IFS= read -r line; do
    [[ $line =~ ${!i} ]] || return 1
    i=$((i + 1))
  done < "$file"
}
post_event() { # slug turtle-body: POSTed to doc1's inbox
  curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: text/turtle' -H "Slug: $1" --data-raw \
    "@prefix wsm: <https://w3id.org/ldgsm/wsm#> . <> $2 ." "${base}inbox/doc1/"
}
put_quietly() { put "$@" > /dev/null; } # path turtle
event() { echo "wsm:event <../../schemas/publishing#$1> ; wsm:actor <../../roles#$2>"; }

# ---- before set-up
show before "$doc1"
check "before set-up: exit 0 ($(cat "$work/before.err"))" [ "$(cat "$work/before.rc")" = 0 ]
check "before set-up: the instance and its schema" has_line before \
  '  state machine "document publishing (Lenya)" <BASE/schemas/publishing#publishing>'
check "before set-up: not set up yet" has_line before "state: not set up yet (an agent's next iteration sets it up)"
check "before set-up: the variable not set" has_line before '  variable "is live": not set'
check "before set-up: no event waiting" has_line before "inbox <BASE/inbox/doc1/>: no event waiting"

# ---- three events taken, two waiting
check "event 1 POSTed" [ "$(post_event 0001 "$(event submit alice)")" = 201 ]
check "event 2 POSTed" [ "$(post_event 0002 "$(event publish alice)")" = 201 ]
check "event 3 POSTed" [ "$(post_event 0003 "$(event publish bob)")" = 201 ]
bounded "$ldgsm" run --machine "$doc1" -n 0 --until quiescent --iterations 50 2> "$work/run.log"
check "the agent took the events (exit 0): $(tail -n 3 "$work/run.log")" [ $? = 0 ]
check "event 5 POSTed" [ "$(post_event 0005 "a wsm:Note")" = 201 ]
check "event 4 POSTed" [ "$(post_event 0004 "$(event deactivate alice)")" = 201 ]
show taken "$doc1"
check "after: exit 0 ($(cat "$work/taken.err"))" [ "$(cat "$work/taken.rc")" = 0 ]
check "after: the current state and the events taken" has_line taken 'state "live" (3 events taken)'
check "after: the variable's value" has_line taken '  variable "is live": true'
sed -n '/^inbox/,/^last/p' "$work/taken.out" > "$work/waiting.out"
check "after: the waiting events, in the order they will be taken ($(cat "$work/waiting.out"))" \
  lines_match "$work/waiting.out" \
  '^inbox <BASE/inbox/doc1/>: 2 events waiting, in the order they will be taken:$' \
  '^  BASE/inbox/doc1/0004: "deactivate" \(next: rejected: .+; failing: "the actor is a reviewer"\)$' \
  '^  BASE/inbox/doc1/0005: names no event$' \
  '^last events taken \(3 of 3\):$'
sed -n '/^last events taken/,$p' "$work/taken.out" | tail -n +2 > "$work/history.out"
check "after: the history, oldest first ($(cat "$work/history.out"))" lines_match "$work/history.out" \
  '^  1 TIME "submit": "authoring" -> "review", fired$' \
  '^  2 TIME "publish": "review" -> "review", rejected: .+; failed: "the actor is a reviewer"$' \
  '^  3 TIME "publish": "review" -> "live", fired$'
show last "$doc1" --history 1
check "--history 1: the last entry only" diff <(sed -n '/^last events taken/,$p' "$work/last.out") - <<'EOF'
last events taken (1 of 3):
  3 TIME "publish": "review" -> "live", fired
EOF
show json "$doc1" --json
check "--json: one object, as the text says ($(head -c 300 "$work/json.out"))" python3 -c "
import json, sys
lines = open('$work/json.out').read().splitlines()
assert len(lines) == 1
d = json.loads(lines[0])
assert d['error'] is None and d['stateName'] == 'live' and d['taken'] == 3
assert d['variables'] == [{'variable': 'BASE/schemas/publishing#is_live', 'variableName': 'is live', 'value': True}]
assert [w['resource'] for w in d['waiting']] == ['BASE/inbox/doc1/0004', 'BASE/inbox/doc1/0005']
assert d['waiting'][0]['events'][0]['eventName'] == 'deactivate' and d['waiting'][1]['events'] == []
assert [(h['sequence'], h['outcome']) for h in d['history']] == [(1, 'fired'), (2, 'rejected'), (3, 'fired')]
assert d['history'][1]['failedConditions'][0]['conditionName'] == 'the actor is a reviewer'
assert d['history'][2]['firedTransition'] == 'BASE/schemas/publishing#t-publish-review'
"

# ---- why an instance waits, or is held, as the rules say
put_quietly documents/doc3 '@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
<#it> a wsm:MachineInstance ; wsm:instanceOf <../schemas/publishing#publishing> .'
show noinbox "${base}documents/doc3#it"
check "no inbox: exit 6, as for an instance that waits" [ "$(cat "$work/noinbox.rc")" = 6 ]
check "no inbox: the rules' reason ($(cat "$work/noinbox.out"))" grep -qE '^  waits: .*inbox' "$work/noinbox.out"
put_quietly schemas/twice '@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
<#w> a wsm:Schema ; wsm:initialState <#a> ; wsm:transition <#t1>, <#t2> .
<#t1> wsm:from <#a> ; wsm:on <#go> ; wsm:to <#b> .
<#t2> wsm:from <#a> ; wsm:on <#go> ; wsm:to <#c> .'
curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' -H 'Link: <http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' \
  "${base}inbox/doc4/"
put_quietly documents/doc4 '@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
<#it> a wsm:MachineInstance ; wsm:instanceOf <../schemas/twice#w> ; wsm:inbox <../inbox/doc4/> ;
  wsm:currentState <../schemas/twice#a> ; wsm:taken 0 .'
curl -s -o /dev/null -X POST -H 'Content-Type: text/turtle' -H 'Slug: 0001' \
  --data-raw '@prefix wsm: <https://w3id.org/ldgsm/wsm#> . <> wsm:event <../../schemas/twice#go> .' "${base}inbox/doc4/"
show held "${base}documents/doc4#it"
check "two transitions on one event: held, naming the state and the event ($(cat "$work/held.out"))" \
  grep -qE '^  held: .*<BASE/schemas/twice#a>.*<BASE/schemas/twice#go>' "$work/held.out"
check "two transitions on one event: exit 6, as for a held instance" [ "$(cat "$work/held.rc")" = 6 ]

# ---- an instance whose schema is not there; a GSM instance beside a machine instance
put_quietly documents/doc5 '@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
<#it> wsm:instanceOf <../schemas/none#w> ; wsm:inbox <../inbox/doc1/> .'
show noschema "${base}documents/doc5#it"
check "a schema that is not there: exit 1" [ "$(cat "$work/noschema.rc")" = 1 ]
check "... saying why ($(cat "$work/noschema.out"))" has_line noschema \
  "  cannot be shown: its schema <BASE/schemas/none#w> is not described (no wsm:initialState): its document cannot be read: answers 404"
put_quietly status/gsm1 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:ArtifactInstance ; gsm:isInstanceOf <../models/none#root> .'
show both "${base}status/gsm1#it" "$doc1"
check "a GSM instance beside a machine instance: each as its kind, in the order given" \
  sh -c "grep -n '' '$work/both.out' | grep -E '^1:BASE/status/gsm1#it$' && grep -qFx 'state \"live\" (3 events taken)' '$work/both.out' && [ \"\$(grep -c '^BASE/' '$work/both.out')\" = 2 ]"
finish
