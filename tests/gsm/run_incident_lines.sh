#!/usr/bin/env bash
# docs/guide/run.md, "When a workflow waits": every alternative of a task failed gives one line
# `incident: <I>: the call of stage <S> is exhausted; alternatives tried: ...` naming the instance, also
# for a task of a compiled pattern (seed 004's TASK-ERROR: refused with 404) whose request URI is a URI
# template (DESIGN 8), shown as written; and `ldgsm status` on a model `ldgsm lint` refuses (a sentry that
# does not parse) says it is held, with lint's error, and exits 6, as `ldgsm run` holds it.
set -u
. "$(dirname "$0")/../agent/lib.sh"
start_server
cat > "$work/names.ttl" <<'TTL'
@prefix http:  <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix rdfs:  <http://www.w3.org/2000/01/rdf-schema#> .
@prefix sp:    <http://spinrdf.org/sp#> .
<#a> a http:Request ; rdfs:label "task a" ; http:mthd httpm:POST ; http:requestURI "../nowhere/{?n}" ;
    ldgsm:arguments [ a sp:Select ; sp:text """PREFIX gsm: <http://purl.org/gsm/vocab#>
SELECT ?n WHERE { gsm:thisArtifactInstance <https://example.org/env#n> ?n }""" ] ;
    http:headers ( [ http:fieldName "Content-Type" ; http:fieldValue "text/turtle" ] ) ;
    http:body "<> <https://example.org/out#n> 1 ." .
TTL
"$ldgsm" compile --term 'task(a)' --base "${base}models/p" -o "$work/p.ttl" "$work/names.ttl" 2> "$work/compile.err"
check "the pattern compiles ($(cat "$work/compile.err"))" [ $? = 0 ]
put models/p "$(cat "$work/p.ttl")" > /dev/null
put s/i '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/p#root> ; gsm:hasState gsm:uninitialized ;
  <https://example.org/env#n> "7" .' > /dev/null
bounded "$ldgsm" run -v --instance "${base}s/i#it" -n 0 --until quiescent --iterations 20 > /dev/null 2> "$work/run.log"
check "the task was sent and refused (404)" grep -qF "POST ${base}nowhere/?n=7 404" "$work/run.log"
check "TASK-ERROR: one incident line names the instance, the stage and the template tried" \
  [ "$(grep -cF "incident: <${base}s/i#it>: the call of stage <${base}models/p#s1> is exhausted; alternatives tried: 1 \"../nowhere/{?n}\"" "$work/run.log")" = 1 ]

# A model whose sentry does not parse.
put models/bad '@prefix gsm: <http://purl.org/gsm/vocab#> . @prefix sp: <http://spinrdf.org/sp#> .
<#root> a gsm:Stage ; gsm:hasMilestone <#done> .
<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#broken> .
<#broken> a sp:Ask ; sp:text "ASK { <../env/done#it> <https://example.org/env#value> true" .' > /dev/null
put s/k '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/bad#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" status "${base}s/k#it" > "$work/status.out" 2> "$work/status.err"
check "ldgsm status on a model lint refuses exits 6 (held)" [ $? = 6 ]
check "it says the instance is held: its model is refused, with the sentry that does not parse and why" \
  grep -qE "^  held: its model is refused: ldgsm lint finds 1 error in it: ${base}models/bad: error: <#broken>: sentry text does not parse: .+" "$work/status.out"
check "it does not say that an agent will set it up" ! grep -q "next iteration sets the workflow up" "$work/status.out"
bounded "$ldgsm" run --instance "${base}s/k#it" -n 0 --iterations 1 > /dev/null 2> "$work/bad-run.log"
check "ldgsm run holds it with the same line" \
  grep -qF "held: <${base}s/k#it>: $(sed -n 's/^  held: //p' "$work/status.out")" "$work/bad-run.log"
finish
