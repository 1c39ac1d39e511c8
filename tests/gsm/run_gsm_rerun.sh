#!/usr/bin/env bash
# An invalidated milestone lets its stage run again (DESIGN section 5, tests/gsm/models/rerun.ttl): once
# S and the stage C below it are finished, invalidating S's milestone makes S uncompleted in one write
# (FCR-3); the next iteration opens S again with its task sent a second time and resets C (FCR-4b: its
# milestone unachieved, C uncompleted), and C then runs again too. GSM-1, GSM-2 and the rule table are
# checked after every iteration.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
put_model rerun
setenv gS false gC false aS false aC false over false

step 2
setenv gS true gC true
step 2
expect "S, then C, open" S=active C=active
setenv aC true
step
expect "C finishes" S=active C=inactive/c mC=T
setenv aS true
step
expect "S finishes" S=inactive/c mS=T C=inactive/c mC=T
step 3
expect "S stays finished while its milestone holds" S=inactive/c mS=T
check "S's task was sent once so far" [ "$(tasks_sent S)" = 1 ]

setenv aS false
step
expect "FCR-3: mS invalidated, S uncompleted, not yet open" S=inactive mS=f C=inactive/c mC=T
step
expect "FCR-1: S opens again; FCR-4b resets C" S=active mS=f C=inactive mC=f
check "S's task is pending after its second activation" [ "$(task_state S)" = pending ]
check "S's task was sent again" [ "$(tasks_sent S)" = 2 ]
step
expect "C runs again under the re-opened S" S=active C=active mC=f
step 2
check "S opened twice" [ "$(activations S)" = 2 ]
check "C opened twice" [ "$(activations C)" = 2 ]
check "C's task was sent once per activation" [ "$(tasks_sent C)" = 2 ]
check "S's task was sent once per activation" [ "$(tasks_sent S)" = 2 ]
check "no write was withheld, refused or in conflict" every_write_went
gsm_finish
