#!/usr/bin/env bash
# Seed 004's rules that stop running branches, one section each, named after the rule: a failure
# terminates its case (TASK-ERROR, 5.4 TOKEN "ERROR: N tokens -> 0 tokens") and a join that has its
# first N cancels the rest (JOIN-FIRST-N). What stops a branch is seen in the poll it happens, however
# deep it happens: no task starts in or after the write that records it (issue 32). Run like
# run_rules.sh: compiled terms on `ldgsm serve`, a stepped `ldgsm run`, the tasks answered by
# tests/gsm/call_service.py (204 at once unless held or refused), GSM-1, GSM-2 and the rule table
# checked after every step.
set -u
. "$(dirname "$0")/rules_lib.sh"
last_sent() { sent | awk '{print $NF}'; }

echo "# TASK-ERROR: a failure deep in one branch ends its siblings in the same poll"
pattern deep-failure 'par(seq(task(y1), task(y2), task(y3), task(y4), task(y5), task(y6)),
                          seq(seq(seq(seq(task(z0), task(z1))))))'
refuse z1
settle
check "the workflow failed" [ "$(workflow)" = failed ]
expect "the failure climbed four levels to the par" s1.2.1.1.1.2-failed=T s1.2.1.1.1-failed=T s1.2-failed=T s1-failed=T
check "no request was sent after z1's (sent: $(sent))" [ "$(last_sent)" = /z1 ]
expect "y4, enabled in the poll that recorded z1's failure, never opened" s1.1.4=inactive s1.1.5=inactive s1.1.6=inactive
check "z1's call is exhausted, the rest of the par closed" [ "$(call_state s1.2.1.1.1.2)" = exhausted ]

echo "# TASK-ERROR: a failure in a xor's chosen branch ends the par's other branch in the same poll"
pattern xor-failure 'par(seq(task(x1), task(x2)), xor(when(c1, seq(task(x3), task(x4))), else(task(x5))))'
setenv c1 true
refuse x3
settle
check "the workflow failed" [ "$(workflow)" = failed ]
check "x2, enabled in the poll that recorded x3's failure, was never sent (sent: $(sent_set))" [ "$(sent_set)" = "/x1 /x3 " ]
expect "nor opened" s1.1.2=inactive s1.2.1.2=inactive
setenv c1 false

echo "# JOIN-FIRST-N: the write that records the Nth winner cancels the rest"
pattern first-n-rest 'join(first_n(2), seq(task(a), task(b)), seq(task(c), task(d)), seq(task(x1), task(x2), task(x3)))'
settle
check "the join is done" [ "$(workflow)" = done ]
expect "the first two branches won, in the poll their last tasks answered" s1-done=T s1.1.2-done=T s1.2.2-done=T
check "x3 was never sent: the loser stopped with the second winner (sent: $(sent_set))" \
  [ "$(sent_set)" = "/a /b /c /d /x1 /x2 " ]
expect "the loser's next stage never opened" s1.3.3=inactive

echo "# TASK-ERROR through joins of joins: a failure read in this poll by every barrier around it fits in the sentries"
# Each barrier's failed sentry reads its parts' failures of this poll, nested barriers' too: the conjunction
# grows with the nesting, past what a rule holds (RULE_MAX_VARS), and is split into sentries of their own.
pattern joins-of-joins 'join(first_complete, join(first_complete, seq(task(x1)), task(x2), task(x3)),
                            join(first_complete, seq(task(y1)), task(y2), task(y3)), seq(task(z0)), seq(task(z1)), task(a))'
refuse x1 x2 x3 y1 y2 y3 z0 z1 a
settle
check "the workflow failed" [ "$(workflow)" = failed ]
expect "every join failed" s1.1-failed=T s1.2-failed=T s1-failed=T
put env/lines '<#it> <https://example.org/env#items> ("pens" "paper") .' > /dev/null
put env/parts '<#it> <https://example.org/env#items> (<#p1> <#p2>) .' > /dev/null
pattern mi-of-mi-of-join 'mi(dynamic(lines, 1, 2), first_n(1), mi(dynamic(parts, 0, 2), n_of_m(1, 2),
                            join(first_n(2), seq(task(x1), task(x2), task(x3)), seq(task(y1), task(y2)), seq(task(y3)))))'
refuse x1 y1 y3
settle
check "the workflow failed" [ "$(workflow)" = failed ]
expect "every copy's join failed, and every mi" s1.1.1-failed=T s1.1.2-failed=T s1.2.1-failed=T s1.2.2-failed=T \
  s1.1-failed=T s1.2-failed=T s1-failed=T
check "no task after a refused first one was sent (sent: $(sent_set))" [ -z "$(sent_set | tr ' ' '\n' | grep -vxE '/(x1|y1|y3)?')" ]

gsm_finish
