#!/usr/bin/env bash
# --until complete refuses an instance whose root model has no milestone (it could never complete) and
# needs --instance.
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
bounded "$ldgsm" run --until complete -p /dev/null > /dev/null 2>&1
check "--until complete without --instance is a usage error" [ $? = 2 ]
finish
