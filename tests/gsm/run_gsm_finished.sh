#!/usr/bin/env bash
# A finished stage whose guard still holds does not re-run (the completion flag, DESIGN section 5;
# tests/gsm/models/finished.ttl): S finishes while its guard holds and stays finished for many
# iterations, with its achieving sentry gone false, and with its guard going false and true again; only
# invalidating its milestone lets it run again. GSM-1, GSM-2 and the rule table are checked after every
# iteration.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
put_model finished
setenv gS false a false b false over false

step 2
setenv gS true
step
expect "S opens" S=active m=f
setenv a true
step
expect "S finishes" S=inactive/c m=T
step 5
expect "its guard still holds: S does not re-run" S=inactive/c m=T
setenv a false
step 3
expect "its achieving sentry false again: S still does not re-run" S=inactive/c m=T
setenv gS false
step
setenv gS true
step 3
expect "its guard false and true again: S still does not re-run" S=inactive/c m=T
check "S opened once" [ "$(activations S)" = 1 ]
check "S's task was sent once" [ "$(tasks_sent S)" = 1 ]

setenv b true
step
expect "invalidated (FCR-3): S uncompleted" S=inactive m=f
step
expect "then it runs again" S=active m=f
check "S's task was sent for the second activation" [ "$(tasks_sent S)" = 2 ]
gsm_finish
