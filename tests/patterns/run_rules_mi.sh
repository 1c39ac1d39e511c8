#!/usr/bin/env bash
# Seed 004's reduction rules for multiple instances (MI-SPAWN-FIXED, MI-SPAWN-DYNAMIC, MI-COLLECT,
# MI-JOIN), one section each, with the data flow of copies: items, indexes and collected results.
# Every term is compiled by `ldgsm compile` (tests/patterns/names.ttl names its tasks and conditions),
# published on `ldgsm serve`, and run by a stepped `ldgsm run`; the tasks are answered by
# tests/gsm/call_service.py, which records the order of the requests and can hold a task (202, its result
# not there yet) or refuse it (404: the call is exhausted, TASK-ERROR). GSM-1, GSM-2 and the rule table of
# docs/DESIGN.md §5 are checked after every step. (Seed 004's rules are split in three files so that they
# run side by side.)
set -u
. "$(dirname "$0")/rules_lib.sh"

echo "# MI-SPAWN-FIXED, MI-COLLECT, MI-JOIN"
pattern mi 'mi(fixed(3), all, task(a))'
hold_each a
settle
expect "MI-SPAWN-FIXED: three instances at once" s1.1=active s1.2=active s1.3=active
check "each sent its own request (three keys)" [ "$(executed /a)/$(keys_of /a | wc -l)" = 3/3 ]
release_key "$(field s1.2 idempotencyKey)"
settle
expect "MI-COLLECT: one instance done, the others run on" s1.2-done=T s1.1=active s1.3=active s1=active
for k in $(keys_of /a); do release_key "$k"; done
settle
expect "MI-JOIN: all instances done (policy all), the mi is done" s1-done=T
# MI-COLLECT's results (DESIGN section 8): the mi's stage instance lists its copies in copy order, as the
# rules derive it (rules/gsm-call.n3) from the status document and the model, for a later stage to read
get status/mi > "$work/mi-status.nt"
get models/mi > "$work/mi-model.nt"
printf '%s\n' '@prefix list: <http://www.w3.org/2000/10/swap/list#> .' \
  '{ ?m <https://w3id.org/ldgsm/patterns#results> ?l . ?l list:iterate (?k ?c) .' \
  '  ?c <http://purl.org/gsm/vocab#isInstanceOf> ?S . } => { ?S <urn:test:at> ?k } .' > "$work/collected.n3"
collected=$("$ldgsm" reason "$patterns_dir/../../rules/gsm-call.n3" "$work/mi-status.nt" "$work/mi-model.nt" \
  --query "$work/collected.n3" 2> /dev/null | sed -E 's|^<[^>]*#(s[0-9.]+)> <urn:test:at> "([0-9]+)".*|\2:\1|' | sort | tr '\n' ' ')
check "MI-COLLECT: the mi's results list its three copies in copy order ($collected)" \
  [ "$collected" = "0:s1.1 1:s1.2 2:s1.3 " ]
pattern mi-first 'mi(fixed(3), first_complete, task(a))'
hold_each a
settle
release_key "$(field s1.3 idempotencyKey)"
settle
expect "MI-JOIN with first_complete: one instance done, the others cancelled" s1-done=T s1.3-done=T s1.1=inactive s1.2=inactive s1.1-done=f

# ... and a task after the mi reads them: v names the tickets its two copies' t bound, in copy order
pattern collect 'seq(mi(fixed(2), all, task(t)), task(v))'
configure '{"/t": {"status": 201, "result": "/tickets/{key}"}}'
settle
ticket_of() { echo "http%3A%2F%2F127.0.0.1%3A${service_port}%2Ftickets%2F$(field "$1" idempotencyKey)"; }
check "MI-COLLECT: a task after the mi names its copies' results in copy order" \
  grep -q "^PUT /v?first=$(ticket_of s1.1.1)&second=$(ticket_of s1.1.2) .* executed" "$work/service.log"

echo "# MI-SPAWN-DYNAMIC"
put env/lines '<#it> <https://example.org/env#items> ("pens" "paper") .' > /dev/null
pattern mi-dynamic 'mi(dynamic(lines, 1, 4), all, task(a))'
hold_each a
settle
expect "one instance per item of the list" s1.1=active s1.2=active s1.3=inactive s1.4=inactive
put env/lines '<#it> <https://example.org/env#items> ("pens" "paper" "ink") .' > /dev/null
settle
expect "N is computed at the spawn: a list that grows later spawns no more" s1.3=inactive s1.4=inactive
for k in $(keys_of /a); do release_key "$k"; done
settle
expect "all spawned instances done: the mi is done" s1-done=T s1.3=inactive
check "two instances ran" [ "$(executed /a)" = 2 ]
# The stages nested in a copy see its item: each copy's second task names its own part's name, and the
# result it binds is the copy's, on the copy's stage instance (not the instance, where the copies would
# overwrite each other)
put env/parts '<#it> <https://example.org/env#items> (<#p1> <#p2>) .
<#p1> <https://example.org/env#name> "bolt" . <#p2> <https://example.org/env#name> "nut" .' > /dev/null
pattern mi-nested 'mi(dynamic(parts, 1, 4), all, seq(task(a), task(w)))'
configure '{"/w?name=bolt": {"status": 201, "result": "/done/bolt"}, "/w?name=nut": {"status": 201, "result": "/done/nut"}}'
settle
check "each copy's nested task named its own item's name" \
  [ "$(grep '^PUT /w' "$work/service.log" | grep ' executed' | awk '{print $2}' | sort | tr '\n' ' ')" = "/w?name=bolt /w?name=nut " ]
expect "both copies done, the mi done" s1.1-done=T s1.2-done=T s1-done=T
done_on() { get "status/mi-nested" | grep -F "<https://example.org/env#done> <http://127.0.0.1:${service_port}/done/$1>" | cut -d' ' -f1; }
own_results() { local b n; b=$(done_on bolt); n=$(done_on nut); [ -n "$b" ] && [ -n "$n" ] && [ "$b" != "$n" ]; }
check "each copy keeps its own result on its stage instance" own_results
check "... not on the instance" ! grep -q "^<${instance}> <https://example.org/env#done>" <(get "status/mi-nested")
check "the spawn recorded two copies of at most four (pat:spawned, for MI-COLLECT's list)" \
  grep -q '<https://w3id.org/ldgsm/patterns#spawned> "2"' <(get "status/mi-nested")
put env/lines '<#it> <https://example.org/env#items> ("a" "b" "c" "d" "e") .' > /dev/null
pattern mi-too-many 'mi(dynamic(lines, 1, 4), all, task(a))'
settle
expect "more items than MAX: the mi fails" s1-failed=T
put env/lines '<#it> <https://example.org/env#items> () .' > /dev/null
pattern mi-too-few 'mi(dynamic(lines, 1, 4), all, task(a))'
settle
expect "fewer items than MIN: the mi fails" s1-failed=T
# An mi over an empty list (MIN 0) spawns nothing and is done; its results are the empty list, not missing
# (a later task reading them would wait forever), and a re-opened mi lists no copy of its previous run
spawned() { get "status/$1" | sed -n 's|.*<https://w3id.org/ldgsm/patterns#spawned> "\([0-9]*\)".*|\1|p'; }
pattern mi-empty 'mi(dynamic(lines, 0, 4), all, task(a))'
settle
expect "no items, MIN 0: no copy opens, the mi is done" s1-done=T s1.1=inactive
check "... and it spawned none (pat:spawned 0: MI-COLLECT's list is empty)" [ "$(spawned mi-empty)" = 0 ]
put env/lines '<#it> <https://example.org/env#items> ("pens" "paper") .' > /dev/null
pattern mi-again 'loop(until(c1), mi(dynamic(lines, 0, 4), all, task(a)))'
hold_each a
settle
check "the first run of a re-opened mi spawned two copies" [ "$(spawned mi-again)" = 2 ]
put env/lines '<#it> <https://example.org/env#items> () .' > /dev/null
for k in $(keys_of /a); do release_key "$k"; done
spawned_is() { [ "$(spawned "$1")" = "$2" ]; }
check "its second run, over an empty list, spawned none: its results are not the first run's copies" \
  step_until spawned_is mi-again 0
setenv c1 true
settle
expect "the loop ends" s1-done=T
setenv c1 false

gsm_finish
