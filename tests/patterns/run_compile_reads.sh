#!/usr/bin/env bash
# What a condition says beside its text reaches the sentries `ldgsm compile` makes of it (issue 31): a
# condition that reads an LDP container's members (ldgsm:readsContainer) and a resource its text reaches only
# through a variable (ldgsm:reads) gives those triples to every sentry that holds or negates it, so an agent
# running the compiled model GETs the members and the resource, and the branch the condition guards is
# taken (without them the xor took its else). A condition with a blank node beside its text is refused.
set -u
. "$(dirname "$0")/../agent/lib.sh"
names=$work/names.ttl
cat > "$names" <<'EOF'
@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix sp: <http://spinrdf.org/sp#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<#ship> a http:Request ; http:mthd httpm:PUT ; http:requestURI <../work/shipped> ;
  http:headers ( [ http:fieldName "Content-Type" ; http:fieldValue "text/turtle" ] ) ; http:body "<#it> <#ran> true ." .
<#wait> a http:Request ; http:mthd httpm:PUT ; http:requestURI <../work/waited> ;
  http:headers ( [ http:fieldName "Content-Type" ; http:fieldValue "text/turtle" ] ) ; http:body "<#it> <#ran> true ." .
<#paid> a sp:Ask ; rdfs:label "an order is paid and the shop open" ;
  ldgsm:readsContainer <../orders/> ; ldgsm:reads <../shop> ;
  sp:text "PREFIX shop: <https://example.org/shop#> ASK { ?o shop:paid true . ?s shop:open true }" .
<#open> a sp:Ask ; ldgsm:reads <../shop> ;
  sp:text "PREFIX shop: <https://example.org/shop#> ASK { ?s shop:open true }" .
EOF
term='xor(when(paid, task(ship)), when(open, task(wait)), else(task(wait)))'
start_server

echo "# the compiled sentries declare what their conditions read"
"$ldgsm" compile --term "$term" --base "${base}models/m" -o "$work/m.ttl" "$names" 2> "$work/compile.err"
check "the term compiles ($(cat "$work/compile.err"))" [ $? = 0 ]
check "the model is published" [ "$(put models/m "$(cat "$work/m.ttl")")" = 201 ]
get models/m > "$work/m.nt"
has() { grep -qF "<${base}models/m#$1> <https://w3id.org/ldgsm#$2> <$base$3> ." "$work/m.nt"; }
for sentry in s1.1-start s1.2-start s1.3-start; do # paid; open and not paid; neither (else)
  check "$sentry reads the container orders/" has "$sentry" readsContainer orders/
  check "$sentry reads shop" has "$sentry" reads shop
done
check "a sentry is not labelled with a condition's label" ! grep -qF '"an order is paid and the shop open"' "$work/m.nt"

echo "# an agent running the model reads the container's members: the paid branch is taken"
ensure_container orders/
put orders/1 '<#it> <https://example.org/shop#paid> true .' > /dev/null
put shop '<#it> <https://example.org/shop#open> true .' > /dev/null
put status/m "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
bounded "$ldgsm" run --instance "${base}status/m#it" --until complete --iterations 30 -n 0 2> "$work/run.log"
check "the workflow completes (exit $?)" [ $? = 0 ]
check "the agent read the container's member orders/1" [ "$(served GET /orders/1)" -ge 1 ]
check "the paid branch ran: work/shipped written" [ "$(status_of work/shipped)" = 200 ]
check "the else branch did not: no work/waited" [ "$(status_of work/waited)" = 404 ]

echo "# a blank node beside a condition's text is refused"
cat >> "$names" <<'EOF'
<#noted> a sp:Ask ; <http://example.org/note> [ <http://example.org/by> "me" ] ; sp:text "ASK { ?s ?p ?o }" .
EOF
"$ldgsm" compile --term 'xor(when(noted, task(ship)), else(task(wait)))' "$names" > /dev/null 2> "$work/compile.err"
check "exit 1" [ $? = 1 ]
check "saying which condition and property ($(cat "$work/compile.err"))" grep -qF "condition noted: its \
<http://example.org/note> is a blank node, which the sentries made of the condition cannot carry: give it an IRI" \
  "$work/compile.err"
finish
