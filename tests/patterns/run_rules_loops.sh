#!/usr/bin/env bash
# Seed 004's reduction rules for loops, deferred choices and cancellation, one section each, named after
# the rule, and the seed's examples 6.3 and 6.4 as expected traces.
# Every term is compiled by `ldgsm compile` (tests/patterns/names.ttl names its tasks and conditions),
# published on `ldgsm serve`, and run by a stepped `ldgsm run`; the tasks are answered by
# tests/gsm/call_service.py, which records the order of the requests and can hold a task (202, its result
# not there yet) or refuse it (404: the call is exhausted, TASK-ERROR). GSM-1, GSM-2 and the rule table of
# docs/DESIGN.md §5 are checked after every step. (Seed 004's rules are split in three files so that they
# run side by side.)
set -u
. "$(dirname "$0")/rules_lib.sh"

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

gsm_finish
