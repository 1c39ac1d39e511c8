#!/usr/bin/env bash
# A stage opening in the same iteration as its ancestor closes yields (close wins, DESIGN section 5;
# tests/gsm/models/yield.ttl): the child's opening, its task and its resets are dropped and reported as
# "yielded", the ancestor's close is written; once with the closing stage the parent (C under P), once
# the grandparent (D under C under P, C closing by FCR-2b). GSM-1, GSM-2 and the rule table are checked
# after every iteration.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
put_model yield
setenv gP false gC false gD false aP false aC false aD false over false

step 2
setenv gP true
step
expect "P opens" P=active C=inactive
setenv aP true gC true
step
expect "P closes; C, opening in the same iteration, yields" P=inactive/c mP=T C=inactive D=inactive
check "the agent reports the yielded requests" grep -qE ', [1-9][0-9]* yielded' "$work/last.log"
check "and writes the close" grep -qE 'unsafe [0-9]+: 1 sent' "$work/last.log"
check "C's task is not pending" [ "$(task_state C)" = None ]
step 2
expect "C stays closed under the closed P" P=inactive/c C=inactive
check "C's task was never sent" [ "$(tasks_sent C)" = 0 ]

setenv aP false
step 2
expect "mP invalidated, P runs again" P=active mP=f C=inactive
step
expect "C opens under P" P=active C=active D=inactive
setenv aP true gD true
step
expect "P closes, C closes with it (FCR-2b); D, opening in the same iteration, yields" \
  P=inactive/c mP=T C=inactive D=inactive
check "the agent reports the yielded requests again" grep -qE ', [1-9][0-9]* yielded' "$work/last.log"
check "D's task is not pending" [ "$(task_state D)" = None ]
step 2
check "D's task was never sent" [ "$(tasks_sent D)" = 0 ]
check "D never opened" [ "$(activations D)" = 0 ]
check "P opened twice" [ "$(activations P)" = 2 ]
check "P's task was sent once per activation" [ "$(tasks_sent P)" = 2 ]
check "C's task was sent once for its one activation" [ "$(tasks_sent C)" = 1 ]
check "nothing was withheld, refused or in conflict" every_write_went
gsm_finish
