#!/usr/bin/env bash
# Nested stages close with their parent (FCR-2b, DESIGN section 5), on tests/gsm/models/nested.ttl:
# P > C > D open one after the other; when P's milestone is achieved, C and D close in the same write,
# uncompleted, their tasks not sent again, and they stay closed while their guards still hold; P's
# sibling Q stays open. GSM-1, GSM-2 and the rule table are checked after every iteration.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
put_model nested
setenv gP false gC false gD false gQ false aP false aC false aD false aQ false over false

step 2
expect "set-up leaves every stage inactive" P=inactive C=inactive D=inactive Q=inactive
setenv gP true gC true gD true gQ true
step
expect "P opens first (its children need it active)" P=active C=inactive D=inactive Q=active
step
expect "then C" P=active C=active D=inactive
step
expect "then D" P=active C=active D=active
setenv aP true
step
expect "P's milestone closes P, C and D in one write; only P is finished" \
  P=inactive/c mP=T C=inactive mC=f D=inactive mD=f Q=active
step 4
expect "C and D stay closed under the closed P although their guards hold" P=inactive/c C=inactive D=inactive Q=active
for stage in P C D Q; do
  check "$stage opened once" [ "$(activations $stage)" = 1 ]
  check "$stage's task was sent once" [ "$(tasks_sent $stage)" = 1 ]
done
check "no write was withheld, refused or in conflict" every_write_went
gsm_finish
