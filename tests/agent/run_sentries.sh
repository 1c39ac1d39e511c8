#!/usr/bin/env bash
# Sentries in `ldgsm run`: SPIN and text sentries found in crawled models, the resources they name read
# through ldgsm:reads, evaluated per active artifact instance after the crawl, their results read by
# rules of the last stratum; an invalid sentry holds the writes; a GET asked for after the sentries is a
# stratification error.
set -u
. "$(dirname "$0")/lib.sh"
start_server

put m/model '@prefix sp: <http://spinrdf.org/sp#> . @prefix : <http://ex.org/> .
<#alarmRings> a sp:Ask ; sp:where ( [ sp:subject <../dev/alarm#it> ; sp:predicate :rings ; sp:object true ] ) .
<#doorsClosed> a sp:Ask ; sp:text "PREFIX : <http://ex.org/> ASK { <../dev/door#it> :open ?o FILTER(?o = false) }" .' > /dev/null
put dev/alarm '<#it> <http://ex.org/rings> true .' > /dev/null
put dev/door '<#it> <http://ex.org/open> true .' > /dev/null
put status/a1 '@prefix gsm: <http://purl.org/gsm/vocab#> . <#it> a gsm:ArtifactInstance ; gsm:hasState gsm:active .' > /dev/null

program() { # extra rules
  cat > "$work/prog.n3" <<EOF
@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix : <http://ex.org/> .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}m/model> } .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}status/a1> } .
{ ?sentry ldgsm:reads ?r . } => { [] http:mthd httpm:GET ; http:requestURI ?r } .
{ <${base}m/model#alarmRings> ldgsm:holdsFor ?a . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}out/alarm> ;
    http:body { <${base}out/alarm#it> :for ?a . } } .
{ <${base}m/model#doorsClosed> ldgsm:holdsFor ?a . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}out/doors> ;
    http:body { <${base}out/doors#it> :for ?a . } } .
$1
EOF
}
run_agent() { : > "$work/serve.log"; bounded "$ldgsm" run -p "$work/prog.n3" -n 0 "$@" > /dev/null 2> "$work/run.log"; }

program ""
run_agent --iterations 1
check "the alarm a SPIN sentry names is read" [ "$(served GET /dev/alarm)" = 1 ]
check "the door a text sentry names is read" [ "$(served GET /dev/door)" = 1 ]
check "a true sentry's result drives a write, for the active artifact" grep -q "status/a1#it" <(get out/alarm)
check "a false sentry drives nothing" [ "$(written /out/doors)" = 0 ]

put dev/door '<#it> <http://ex.org/open> false .' > /dev/null
run_agent --iterations 1
check "the FILTER of the text sentry holds once the door is closed" grep -q "status/a1#it" <(get out/doors)

# An artifact that is not active gets no sentry results.
put status/a1 '@prefix gsm: <http://purl.org/gsm/vocab#> . <#it> a gsm:ArtifactInstance ; gsm:hasState gsm:inactive .' > /dev/null
curl -s -X DELETE -o /dev/null "${base}out/alarm"
run_agent --iterations 1
check "an inactive artifact gets no sentry results" [ "$(written /out/alarm)" = 0 ]
put status/a1 '@prefix gsm: <http://purl.org/gsm/vocab#> . <#it> a gsm:ArtifactInstance ; gsm:hasState gsm:active .' > /dev/null

# An invalid sentry is reported and holds every write of the iteration.
put m/model '@prefix sp: <http://spinrdf.org/sp#> . @prefix : <http://ex.org/> .
<#alarmRings> a sp:Ask ; sp:where ( [ sp:subject <../dev/alarm#it> ; sp:predicate :rings ; sp:object true ] ) .
<#doorsClosed> a sp:Ask ; sp:text "ASK { this is not SPARQL" .' > /dev/null
run_agent --iterations 3 --release-terms 1
check "an invalid sentry is reported" grep -q "doorsClosed" "$work/run.log"
check "and the writes are held" [ "$(grep -Ec '^(PUT|PATCH)' "$work/serve.log")" = 0 ]
check "the hold says why" grep -q "invalid sentry" "$work/run.log"
# said once for its version, also where the agent released its terms between the iterations (here after
# every one) and compiled the sentry again
check "the invalid sentry is said once in 3 iterations ($(grep -c 'doorsClosed.*held until it is fixed' "$work/run.log"))" \
  [ "$(grep -c 'doorsClosed.*held until it is fixed' "$work/run.log")" = 1 ]
# A blank-node sentry is labelled anew at every parse (every poll): it is named by its document, and said
# once for the document's version too, with and without releases between the iterations.
put m/model '@prefix sp: <http://spinrdf.org/sp#> . @prefix : <http://ex.org/> .
<#alarm> :rings [ a sp:Ask ; sp:text "ASK { this is not SPARQL" ] .' > /dev/null
for release in "" "--release-terms 1"; do
  run_agent --iterations 3 $release
  said=$(grep -c "sentry \[\] in <${base}m/model>: .*held until it is fixed" "$work/run.log")
  check "a blank-node sentry is named by its document and said once in 3 iterations ${release:+($release) }($said)" [ "$said" = 1 ]
done

# A valid blank-node sentry is compiled once for its document's version, though labelled anew at every
# parse, and its result is its own.
put m/model '@prefix sp: <http://spinrdf.org/sp#> . @prefix : <http://ex.org/> .
<#alarm> :rings [ a sp:Ask ; sp:text "PREFIX : <http://ex.org/> ASK { <../dev/alarm#it> :rings true }" ] .' > /dev/null
program "{ <${base}m/model#alarm> :rings ?s . ?s ldgsm:holdsFor ?a . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}out/rings> ;
    http:body { <${base}out/rings#it> :for ?a . } } ."
run_agent --iterations 3 -v
compiled=$(grep -o '([0-9]* sentries compiled)' "$work/run.log" | tr -dc '0-9\n' | tr '\n' ' ')
check "a blank-node sentry is compiled in the first of 3 iterations only ($compiled)" [ "$compiled" = "1 0 0 " ]
# the write is made in every iteration the sentry holds in: its result follows its new label
check "and its result drives its write in each of them ($(written /out/rings))" [ "$(written /out/rings)" = 3 ]

# A GET asked for by a rule that reads sentry results is not made.
put m/model '@prefix sp: <http://spinrdf.org/sp#> . @prefix : <http://ex.org/> .
<#alarmRings> a sp:Ask ; sp:where ( [ sp:subject <../dev/alarm#it> ; sp:predicate :rings ; sp:object true ] ) .' > /dev/null
program "{ <${base}m/model#alarmRings> ldgsm:holdsFor ?a . } => { [] http:mthd httpm:GET ; http:requestURI <${base}late> } ."
run_agent --iterations 1
check "a GET after the sentries is not made" [ "$(served GET /late)" = 0 ]
check "it is reported as a stratification error" grep -q "stratification" "$work/run.log"

finish
