#!/usr/bin/env bash
# The evaluation workflow (8 stages, nesting depth 2, parallel stages, data sentries that need RDFS
# reasoning) completes under `ldgsm run --until complete`; two instances of one model in one agent both
# complete and never touch each other's status; every status document satisfies GSM-1 and GSM-2.
set -u
. "$(dirname "$0")/../agent/lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/evaluation" && pwd)
start_server --fixtures "$fixtures"

GSM=http://purl.org/gsm/vocab#
# GSM-1: an active stage has no achieved milestone. GSM-2: an inactive stage has no active descendant
# (checked on the root: the workflow's stages are below it).
invariants() { # document path: one awk over the document (this runs after each of 60 iterations)
  get "$1" | awk -v root="<${base}$1#it>" -v G="$GSM" '
    $2 == "<" G "hasState>" && $3 == "<" G "active>" { active[$1] = 1; actives++ }
    $1 == root && $2 == "<" G "hasState>" && $3 == "<" G "inactive>" { root_inactive = 1 }
    $2 == "<https://w3id.org/ldgsm#ofStage>" { of_stage[$1] = $3 }
    $2 == "<" G "isAchieved>" && index($3, "\"true\"") == 1 { achieved[$1] = 1 }
    END {
      for (m in achieved) if ((m in of_stage) && (of_stage[m] in active)) exit 1
      exit root_inactive && actives > 0
    }'
}

put status/order2 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/evaluation#workflow> ; gsm:hasState gsm:uninitialized .' > /dev/null

ok=1
for i in $(seq 1 60); do
  bounded "$ldgsm" run --instance "${base}status/order1#it" --instance "${base}status/order2#it" -n 0 --iterations 1 \
    >> "$work/agent.log" 2>&1
  invariants status/order1 || ok=0
  invariants status/order2 || ok=0
done
check "GSM-1 and GSM-2 hold after every iteration" [ $ok = 1 ]
bounded "$ldgsm" run --instance "${base}status/order1#it" --instance "${base}status/order2#it" -n 0 --iterations 3 \
  --until complete > /dev/null 2> "$work/final.log"
check "both instances complete (--until complete exits 0)" grep -q "every workflow instance is complete" "$work/final.log"
for doc in order1 order2; do
  nt=$(get status/$doc)
  check "$doc: the root is completed" grep -q "<${base}status/$doc#it> <https://w3id.org/ldgsm#isCompleted> \"true\"" <<< "$nt"
  other=$([ $doc = order1 ] && echo order2 || echo order1)
  check "$doc holds nothing of $other" ! grep -q "status/$other" <<< "$nt"
  check "$doc: 8 stage fragments" [ "$(grep -c "^<${base}status/$doc#s-[0-9a-f]*> <${GSM}isInstanceOf>" <<< "$nt")" = 8 ]
done
# `ldgsm status` reads any LDP server (this script also runs against Community Solid Server: css_gsm.sh)
bounded "$ldgsm" status "${base}status/order1#it" > "$work/status.txt" 2> "$work/status.err"
check "ldgsm status shows order1" [ $? = 0 ]
check "status: the workflow by its label, complete" grep -q '^stage "Order to delivery": inactive, completed' "$work/status.txt"
check "status: a stage by its label, completed" grep -q '^  stage "s1: receive order": inactive, completed' "$work/status.txt"
check "status: the history's last transitions" grep -q 'Order to delivery: active -> inactive' "$work/status.txt"
check "no write was ever withheld or in conflict" ! grep -qE 'withheld: [^0]|[1-9][0-9]* withheld|[1-9][0-9]* conflicting' "$work/agent.log"
finish
