#!/usr/bin/env bash
# --until complete refuses an instance whose root model has no milestone (it could never complete) and
# needs --instance; ended by --iterations before the instance is complete it exits 6, naming the instance
# (`ldgsm run --help`, docs/guide/run.md: exit 0 only once every instance is complete).
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
bounded "$ldgsm" run --until complete -p /dev/null > /dev/null 2>&1
check "--until complete without --instance is a usage error" [ $? = 2 ]
finish
