#!/usr/bin/env bash
# --until complete refuses an instance whose root model has no milestone (it could never complete) and
# needs --instance; ended by --iterations before the instance is complete it exits 6, naming the instance
# (`ldgsm run --help`, docs/guide/run.md: exit 0 only once every instance is complete); a compiled pattern
# whose term failed exits 5.
set -u
. "$(dirname "$0")/../agent/lib.sh"
start_server
put m/model '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#root> a gsm:Stage ; gsm:hasChildStage <#a> . <#a> a gsm:Stage .' > /dev/null
put s/i '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../m/model#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" run --instance "${base}s/i#it" --until complete -n 0 --iterations 5 > /dev/null 2> "$work/run.log"
check "an instance that can never complete is refused (exit 1)" [ $? = 1 ]
check "the message names the root model" grep -q "m/model#root> has no milestone" "$work/run.log"
# A model whose root milestone waits for a resource that never says so: never complete here.
put m/waits '@prefix gsm: <http://purl.org/gsm/vocab#> . @prefix sp: <http://spinrdf.org/sp#> .
<#root> a gsm:Stage ; gsm:hasMilestone <#done> .
<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#said> .
<#said> a sp:Ask ; sp:text "ASK { <../env/done#it> <https://example.org/env#value> true }" .' > /dev/null
put s/j '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../m/waits#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" run --instance "${base}s/j#it" --until complete -n 0 --iterations 3 > /dev/null 2> "$work/cut.log"
check "--until complete ended by --iterations with an instance not complete exits 6" [ $? = 6 ]
check "naming the instance not complete" grep -qF "instance <${base}s/j#it> not complete" "$work/cut.log"
check "and does not say that every instance is complete" ! grep -q "every workflow instance is complete" "$work/cut.log"
# A compiled pattern's root ends on its failed milestone (an xor whose conditions are all false fails when
# entered): the instance failed, exit 5, not complete (ontology/gsm.ttl, ldgsm:FailureMilestone).
sed "s/SVC_PORT/1/" "$(dirname "$0")/../patterns/names.ttl" > "$work/names.ttl"
"$ldgsm" compile --term 'xor(when(c1, task(a)), when(c2, task(b)))' --base "${base}models/xor-fails" -o "$work/xor.ttl" "$work/names.ttl"
check "the pattern compiles" [ $? = 0 ]
put models/xor-fails "$(cat "$work/xor.ttl")" > /dev/null
put env/c1 '<#it> <https://example.org/env#value> false .' > /dev/null
put env/c2 '<#it> <https://example.org/env#value> false .' > /dev/null
put s/x '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/xor-fails#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" run --instance "${base}s/x#it" --until complete -n 0 --iterations 30 > /dev/null 2> "$work/failed.log"
check "a workflow whose term failed ends the run with exit 5" [ $? = 5 ]
check "naming the instance and its root's failure" grep -qF "instance <${base}s/x#it> failed: its root stage closed on a failure milestone" "$work/failed.log"
check "and does not say that every instance is complete" ! grep -q "every workflow instance is complete" "$work/failed.log"
bounded "$ldgsm" run --until complete -p /dev/null > /dev/null 2>&1
check "--until complete without --instance is a usage error" [ $? = 2 ]
finish
