#!/usr/bin/env bash
# Set-up waits for the whole model, and set-up repair (DESIGN section 5), on tests/gsm/models/repair.ttl:
# while the child stage model X is not published (404) the instance is held, uninitialized, with the
# reason logged; once it is, one write sets everything up. When the model later gains a child stage N and
# a second milestone on the open stage P, the next iteration adds their fragments (additions only: P stays
# open, its milestone unachieved, its task not sent again), and N then runs like any stage. GSM-1, GSM-2
# and the rule table are checked after every iteration.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
start_server
put_model repair
setenv gP false aP false gN false aN false aP2 false over false
instance_puts=$(written /status/repair) # the test's own

step 2
check "set-up waits while X's model is missing" \
  grep -q "set-up waits for the stage model <${base}models/repair-x#X>: its document cannot be read: answers 404" "$work/agent.log"
check "the instance stays uninitialized" \
  grep -q 'uninitialized' <(get status/repair)
check "nothing was written to the status document" [ "$(written /status/repair)" = "$instance_puts" ]

put models/repair-x "@prefix gsm: <http://purl.org/gsm/vocab#> . @prefix sp: <http://spinrdf.org/sp#> .
<#X> a gsm:Stage ; gsm:hasGuard <#X-guard> ; gsm:hasMilestone <#mX> .
<#X-guard> a gsm:Guard ; gsm:hasCondition <#gX> .
<#mX> a gsm:Milestone ; gsm:hasAchievingSentry <#aX> .
<#gX> a sp:Ask ; sp:text \"ASK { <../env/gX#it> <https://example.org/env#value> true }\" .
<#aX> a sp:Ask ; sp:text \"ASK { <../env/aX#it> <https://example.org/env#value> true }\" ." > /dev/null
step
expect "with X published, one write sets the instance up" P=inactive mP=f X=inactive mX=f
check "set-up was one write" [ "$(written /status/repair)" = $((instance_puts + 1)) ]

setenv gP true
step
expect "P opens" P=active mP=f
check "P's task was sent" [ "$(tasks_sent P)" = 1 ]

# The model gains N and P's second milestone mP2.
put models/repair "$(sed 's/^#REPAIR-NEW //' "$gsm_dir/models/repair.ttl")" > /dev/null
step
expect "repair adds N and (P, mP2); P stays open" P=active mP=f mP2=f N=inactive mN=f X=inactive
check "P has one state" [ "$(get status/repair | grep -c "$(fragment P)> <http://purl.org/gsm/vocab#hasState>")" = 1 ]
check "P's task was not sent again" [ "$(tasks_sent P)" = 1 ]
writes=$(written /status/repair)
step
check "once repaired, nothing more is written" [ "$(written /status/repair)" = "$writes" ]

setenv gN true
step
expect "the added stage N opens like any other" N=active P=active
setenv aP2 true
step
expect "P's added milestone finishes P" P=inactive/c mP2=T mP=f
check "no write was withheld, refused or in conflict after set-up" \
  ! grep -qE '[1-9][0-9]* (conflicting|refused|failed)' "$work/agent.log"
gsm_finish
