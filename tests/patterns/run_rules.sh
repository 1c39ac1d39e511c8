#!/usr/bin/env bash
# Seed 004's reduction rules for tasks, sequences, parallels, choices and joins, one section each, named
# after the rule, and the seed's examples 6.1 and 6.2 as expected traces.
# Every term is compiled by `ldgsm compile` (tests/patterns/names.ttl names its tasks and conditions),
# published on `ldgsm serve`, and run by a stepped `ldgsm run`; the tasks are answered by
# tests/gsm/call_service.py, which records the order of the requests and can hold a task (202, its result
# not there yet) or refuse it (404: the call is exhausted, TASK-ERROR). GSM-1, GSM-2 and the rule table of
# docs/DESIGN.md §5 are checked after every step. (Seed 004's rules are split in three files so that they
# run side by side.)
set -u
. "$(dirname "$0")/rules_lib.sh"

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

gsm_finish
