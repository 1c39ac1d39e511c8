#!/usr/bin/env bash
# Seed 004's reduction rules, one section each, named after the rule, and the seed's examples 6.1 to 6.4 as
# expected traces: every term is compiled by `ldgsm compile` (tests/patterns/names.ttl names its tasks and
# conditions), published on `ldgsm serve`, and run by a stepped `ldgsm run`; the tasks are answered by
# tests/gsm/call_service.py, which records the order of the requests and can hold a task (202, its result
# not there yet) or refuse it (404: the call is exhausted, TASK-ERROR). GSM-1, GSM-2 and the rule table of
# DESIGN section 5 are checked after every step.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/../gsm/property/step.sh"
. "$(dirname "$0")/../gsm/call_lib.sh"
. "$(dirname "$0")/lib.sh"
configure '{}'
start_service
start_server
setenv c1 false c2 false stop false inner false e1 false e2 false done false

echo "# TASK-EXEC"
pattern task 'task(a)'
settle
check "the task's request was sent once" [ "$(sent)" = "/a " ]
expect "its stage is done and so is the workflow" s1=inactive/c s1-done=T root-done=T
check "the workflow is done" [ "$(workflow)" = done ]

echo "# TASK-EXEC's ctx' (DESIGN section 8): a task's result is the context of the next"
pattern ctx 'seq(task(t), task(u))'
configure '{"/t": {"status": 201, "result": "/tickets/{key}"}}'
settle
ticket=$(grep '^POST /t ' "$work/service.log" | sed -E 's/.* key=([^ ]*) .*/\1/')
check "t was sent once and answered with its ticket's Location" [ "$(grep -c '^POST /t .* executed 201' "$work/service.log")" = 1 ]
check "u's request names the ticket t's answer bound (env:ticket)" \
  grep -q "^PUT /u?ticket=http%3A%2F%2F127.0.0.1%3A${service_port}%2Ftickets%2F${ticket} .* executed" "$work/service.log"
check "the workflow is done" [ "$(workflow)" = done ]
# A loop iteration sees the results of the one before: each u names the ticket of the t before it
pattern ctx-loop 'seq(task(t), loop(count(2), seq(task(u), task(t))))'
configure '{"/t": {"status": 201, "result": "/tickets/{key}"}}'
settle
tickets=$(grep '^POST /t .* executed' "$work/service.log" | sed -E 's/.* key=([^ ]*) .*/\1/' | head -n 2 | tr '\n' ' ')
named=$(grep '^PUT /u?ticket=' "$work/service.log" | grep ' executed' |
  sed -E "s|^PUT /u\?ticket=http%3A%2F%2F127.0.0.1%3A${service_port}%2Ftickets%2F([^ ]*) .*|\1|" | tr '\n' ' ')
check "t ran three times, u twice" [ "$(grep -c '^POST /t .* executed' "$work/service.log")/$(grep -c '^PUT /u' "$work/service.log")" = 3/2 ]
check "each loop iteration's u names the ticket bound before it (the first t's, then the first iteration's)" \
  [ "${tickets:-none}" = "$named" ]

echo "# TASK-EFFECT"
pattern effect 'task(h)'
hold h
settle
expect "a task waiting for its effect stays active (a token)" s1=active s1-done=f
check "its call is calling" [ "$(call_state s1)" = calling ]
release h
settle
expect "the effect's result completes it" s1=inactive/c s1-done=T
check "sent once, never re-sent while waiting" [ "$(sent)" = "/h " ]

echo "# TASK-ERROR"
pattern error 'seq(task(f), task(b))'
refuse f
settle
expect "the refused task failed" s1.1=inactive/c s1.1-failed=T s1.1-done=f
expect "the failure propagates to the workflow" s1-failed=T root-failed=T
check "nothing after it runs" [ "$(sent)" = "/f " ]
check "the workflow failed" [ "$(workflow)" = failed ]

echo "# SEQ-ENTER, SEQ-NEXT, SEQ-DONE (the seed's example 6.1)"
pattern seq 'seq(task(a), task(b))'
hold a b
settle
expect "SEQ-ENTER: the sequence and its first part start" s1=active s1.1=active s1.2=inactive
check "only a was sent" [ "$(sent)" = "/a " ]
release a
settle
expect "SEQ-NEXT: a done, b runs" s1.1=inactive/c s1.1-done=T s1.2=active
check "b was sent after a" [ "$(sent)" = "/a /b " ]
release b
settle
expect "SEQ-DONE: both done, the sequence is done" s1=inactive/c s1-done=T s1.2-done=T
check "the workflow is done" [ "$(workflow)" = done ]

echo "# PAR-FORK, PAR-COMPLETE, PAR-JOIN (the seed's example 6.2)"
pattern par 'par(task(a), task(b))'
hold a b
settle
expect "PAR-FORK: both branches run at once" s1=active s1.1=active s1.2=active
check "both were sent" [ "$(sent_set)" = "/a /b " ]
release b
settle
expect "PAR-COMPLETE: one branch done, the par waits for the other" s1=active s1.2-done=T s1.1=active
release a
settle
expect "PAR-JOIN: all branches done, the par is done" s1=inactive/c s1-done=T
check "the workflow is done" [ "$(workflow)" = done ]

echo "# XOR-CHOOSE"
pattern xor 'xor(when(c1, task(a)), when(c2, task(b)), else(task(c)))'
setenv c2 true
settle
expect "the first branch whose condition holds runs" s1.2=inactive/c s1.2-done=T s1.1=inactive s1.3=inactive
check "only its task was sent, the others never" [ "$(sent)" = "/b " ]
check "the xor is done" [ "$(workflow)" = done ]
pattern xor-tie 'xor(when(c1, task(a)), when(c2, task(b)), else(task(c)))'
setenv c1 true
settle
check "two conditions hold: the first in branch order wins" [ "$(sent)" = "/a " ]
setenv c1 false c2 false
pattern xor-else 'xor(when(c1, task(a)), when(c2, task(b)), else(task(c)))'
settle
check "no condition holds: else" [ "$(sent)" = "/c " ]
pattern xor-none 'xor(when(c1, task(a)), when(c2, task(b)))'
settle
expect "no condition holds and no else: the xor fails" s1-failed=T
check "nothing was sent" [ "$(sent)" = "" ]
pattern xor-late 'xor(when(c1, task(a)), when(c2, task(b)))'
hold a
setenv c1 true
settle
setenv c1 false c2 true
settle
check "a condition turning true later does not start a second branch" [ "$(sent)" = "/a " ]
expect "the chosen branch still runs" s1.1=active s1.2=inactive
setenv c2 false

echo "# JOIN-ALL, JOIN-SYNC-MERGE"
for policy in all sync_merge; do
  pattern "join-$policy" "join($policy, task(a), task(b), task(c))"
  hold a b c
  settle
  release a c
  settle
  expect "$policy: two of three done, the join waits" s1=active s1.2=active
  release b
  settle
  expect "$policy: all three done, the join is done" s1=inactive/c s1-done=T
done

echo "# JOIN-FIRST-N"
pattern first-n 'join(first_n(2), task(a), task(b), task(c))'
hold a b c
settle
release a
settle
expect "one of the two needed is done: the join waits" s1=active s1.2=active s1.3=active
release c
settle
expect "two done: the join is done and the branch still running is cancelled" s1=inactive/c s1-done=T s1.2=inactive s1.2-done=f
check "the cancelled branch's call is cancelled" [ "$(call_state s1.2)" = cancelled ]

echo "# JOIN-FIRST-COMPLETE"
pattern first-complete 'join(first_complete, task(a), seq(task(b), task(c)))'
hold a b
settle
release b
settle
expect "the first branch to complete wins, the other is cancelled" s1-done=T s1.1=inactive s1.1-done=f s1.2-done=T
check "c ran within the winning branch; a's request, sent, is not withdrawn" [ "$(sent_set)" = "/a /b /c " ]
pattern first-complete-tie 'join(first_complete, task(a), task(b))'
hold a b
settle
release a b
settle
expect "a tie at one poll: both count as completed (the result is the first, in branch order)" s1-done=T s1.1-done=T s1.2-done=T

echo "# JOIN-N-OF-M"
pattern n-of-m 'join(n_of_m(2, 3), task(a), task(f), task(b))'
hold a b
refuse f
settle
expect "one branch failed: two of three can still be done" s1=active s1.2-failed=T
release a b
settle
expect "two of three done: the join is done" s1-done=T s1-failed=f
pattern n-of-m-fail 'join(n_of_m(2, 3), task(a), task(f), task(b))'
refuse a f
hold b
settle
expect "two of three failed: two can no longer be done, the join fails and closes the third" s1-failed=T s1.3=inactive s1.3-done=f

echo "# LOOP-WHILE"
pattern while-false 'loop(while(c1), task(a))'
settle
expect "the condition does not hold at first: the body never runs, the loop is done" s1-done=T s1.1=inactive
check "nothing was sent" [ "$(sent)" = "" ]
setenv c1 true
pattern while 'loop(while(c1), task(a))'
step_until sends_are /a 3
setenv c1 false
settle
check "the body ran while the condition held, checked before each run: 3 times" [ "$(executed /a)" = 3 ]
expect "the loop is done" s1-done=T s1-failed=f
check "the iteration stage was opened once per run" [ "$(activations s1.1)" = 3 ]

echo "# LOOP-UNTIL"
setenv c1 true
pattern until-true 'loop(until(c1), task(a))'
settle
check "the condition already holds: the body still runs once (checked after)" [ "$(executed /a)" = 1 ]
expect "the loop is done" s1-done=T
setenv c1 false
pattern until 'loop(until(c1), task(a))'
step_until sends_are /a 2
setenv c1 true
settle
check "the body ran until the condition held after a run: 2 times" [ "$(executed /a)" = 2 ]
expect "the loop is done" s1-done=T
setenv c1 false

echo "# LOOP-COUNT (the seed's example 6.3)"
pattern count 'loop(count(3), task(a))'
hold a
settle
check "counter 3: the first run" [ "$(executed /a)" = 1 ]
expect "copy 1 runs, copies 2 and 3 wait" s1.1=active s1.2=inactive s1.3=inactive
release a
settle
check "a ran 3 times" [ "$(executed /a)" = 3 ]
check "one run after the other: each copy opened once, under keys of its own" [ "$(keys_of /a | wc -l)" = 3 ]
expect "counter 0: the loop is done" s1.1-done=T s1.2-done=T s1.3-done=T s1-done=T
pattern count-zero 'seq(loop(count(0), task(a)), task(b))'
settle
check "count(0): the body never runs" [ "$(sent)" = "/b " ]

echo "# DEFER-WAIT"
pattern defer 'defer(on(e1, task(a)), on(e2, task(b)))'
hold a b
settle
expect "no event yet: the defer waits, no branch runs" s1=active s1.1=inactive s1.2=inactive
check "nothing was sent" [ "$(sent)" = "" ]
"$ldgsm" status "$instance" > "$work/status.txt" 2>&1
check "ldgsm status names the events it waits for" grep -q "on e1" "$work/status.txt"

echo "# DEFER-SELECT"
setenv e2 true
settle
expect "the event selects its branch" s1.2=active s1.1=inactive
setenv e1 true
settle
check "a later event of another branch does not start it" [ "$(sent)" = "/b " ]
release b
settle
expect "the selected branch done: the defer is done" s1-done=T s1.1=inactive
setenv e1 false e2 false

echo "# CANCEL-ENTER, CANCEL-PROPAGATE, CANCEL-EFFECT"
pattern cancel 'seq(cancel(region(stop), par(task(a), task(b))), task(c))'
hold a b
settle
expect "CANCEL-ENTER: the scope runs its body" s1.1=active s1.1.1=active s1.1.1.1=active s1.1.1.2=active
setenv stop true
settle
expect "CANCEL-PROPAGATE: the scope is cancelled, everything in it closed" s1.1-cancelled=T s1.1.1=inactive s1.1.1.1=inactive s1.1.1.2=inactive s1.1.1.1-done=f
check "CANCEL-EFFECT: the calls in it are cancelled" [ "$(call_state s1.1.1.1)/$(call_state s1.1.1.2)" = cancelled/cancelled ]
release a b
settle
expect "a late answer is not used" s1.1.1.1-done=f s1.1.1.2-done=f
check "no call in the scope is sent again" [ "$(executed /a)/$(executed /b)" = 1/1 ]

echo "# CANCEL-EXIT"
expect "after the cancelled scope the sequence goes on" s1.2-done=T s1-done=T
check "c was sent" [ "$(executed /c)" = 1 ]
setenv stop false

echo "# CANCEL-NESTED"
pattern nested 'cancel(region(stop), seq(task(a), cancel(region(inner), par(task(b), task(c)))))'
hold b c
settle
expect "the inner scope runs" s1.1.2=active s1.1.2.1.1=active s1.1.2.1.2=active
setenv stop true
settle
expect "cancelling the outer scope closes the inner one and all below it" s1-cancelled=T s1.1=inactive s1.1.2=inactive s1.1.2.1=inactive s1.1.2.1.1=inactive s1.1.2.1.2=inactive
expect "the inner scope was not cancelled by its own event" s1.1.2-cancelled=f
setenv stop false

echo "# CANCEL-EFFECT: what was not sent is never sent; cancel(activity)"
pattern effect-unsent 'cancel(region(stop), seq(task(a), task(b)))'
hold a
settle
setenv stop true
settle
release a
settle
check "b, not yet sent when the scope was cancelled, is never sent" [ "$(sent)" = "/a " ]
setenv stop false
pattern activity 'seq(cancel(activity(stop), task(a)), task(b))'
hold a
settle
setenv stop true
settle
expect "an activity cancel closes its task and the sequence goes on" s1.1-cancelled=T s1.1.1=inactive s1.2-done=T
setenv stop false

echo "# the seed's example 6.4: a case cancel ends the whole case"
pattern case 'seq(cancel(case(stop), par(task(a), task(b))), task(c))'
hold a b
settle
expect "both tasks run in the scope" s1.1.1.1=active s1.1.1.2=active
setenv stop true
settle
check "the case terminates with cancelled status" [ "$(workflow)" = cancelled ]
expect "every stage is closed" s1=inactive s1.1=inactive/c s1.1-cancelled=T s1.1.1.1=inactive s1.1.1.2=inactive s1.2=inactive
check "nothing after the scope runs" [ "$(executed /c)" = 0 ]
setenv stop false

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
