#!/usr/bin/env bash
# `ldgsm compile` as a command: the term or the names document's pat:Workflow in, the same model out; errors
# name where they are (the term's line:col, the names file's line:col, the condition) and write nothing;
# the model is linted before it is written; --base keeps the names' relative IRIs; `ldgsm draw` draws the
# output; usage errors exit 2.
set -u
. "$(dirname "$0")/../agent/lib.sh"
names=$work/names.ttl
cat > "$names" <<'EOF'
@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix sp: <http://spinrdf.org/sp#> .
@prefix pat: <https://w3id.org/ldgsm/patterns#> .
<#a> a http:Request ; http:mthd httpm:PUT ; http:requestURI <../work/a> ;
  http:headers ( [ http:fieldName "Content-Type" ; http:fieldValue "text/turtle" ] ) ; http:body "<#it> <#ran> true ." .
<#b> a http:Request ; http:mthd httpm:DELETE ; http:requestURI <../work/b> .
<#ok> a sp:Ask ; sp:text "PREFIX env: <https://example.org/env#> ASK { <../env/flags#it> env:ok true }" .
<#broken> a sp:Ask ; sp:text "ASK { <../env/flags#it> ?p }" .
<#workflow> a pat:Workflow ; pat:body [ a pat:Seq ; pat:parts ( [ a pat:Task ; pat:task <#a> ]
  [ a pat:Xor ; pat:branches ( [ pat:when <#ok> ; pat:do [ a pat:Task ; pat:task <#b> ] ] ) ; pat:else [ a pat:Task ; pat:task <#a> ] ] ) ] .
EOF
compile() { "$ldgsm" compile "$@" > "$work/out" 2> "$work/err"; }

echo "# the term and the pat:Workflow give the same model"
compile --term 'seq(task(a), xor(when(ok, task(b)), else(task(a))))' "$names"
check "the term compiles (exit 0)" [ $? = 0 ]
cp "$work/out" "$work/from-term.ttl"
compile "$names"
check "the names document's pat:Workflow compiles (exit 0)" [ $? = 0 ]
check "into the same model" cmp -s "$work/out" "$work/from-term.ttl"
check "stages are labelled with their terms" grep -q 'rdfs:label "xor(when(ok, task(b)), else(task(a))) (part 2 of 2)"' "$work/out"
check "the names' relative IRIs stay relative" grep -q '<../work/a>' "$work/out"
check "lint accepts it" "$ldgsm" lint "$work/from-term.ttl"
check "ldgsm draw draws it" "$ldgsm" draw "$work/from-term.ttl" -o "$work/model.svg"
check "the drawing shows the stages by their terms" grep -q 'task(b) (branch)' "$work/model.svg"
compile --term 'task(a)' --base http://example.org/models/m "$names"
check "--base: the model's own IRIs are relative to it, the names' keep their meaning" \
  grep -q '^<#s1>' "$work/out"
compile --term 'task(a)' --base http://example.org/deep/models/m "$names"
check "--base one level deeper: a names IRI written ../work/a stays ../work/a" grep -q '<../work/a>' "$work/out"

echo "# errors say where, and write nothing"
compile --term 'seq(task(a),
  par(task(a)))' "$names"
check "a term error exits 1" [ $? = 1 ]
check "and names its line and column" grep -q -- "--term:2:3: par needs at least two branches (PAR-FORK)" "$work/err"
printf 'seq(task(a), loop(whilst(ok), task(a)))' > "$work/term.txt"
compile --term-file "$work/term.txt" "$names"
check "a term file's error names the file, line and column" \
  grep -q "$work/term.txt:1:19: expected a loop policy" "$work/err"
compile --term 'task(c)' "$names"
check "a task the names do not describe" grep -q "task c: the names document describes no request by that name" "$work/err"
compile --term 'loop(while(nothing), task(a))' "$names"
check "a condition the names do not describe" grep -q "condition nothing: the names document gives it no sp:text" "$work/err"
printf '<#a> <#p> .\n' > "$work/bad.ttl"
compile --term 'task(a)' "$work/bad.ttl"
check "a names document that does not parse: file:line:col" grep -qE "bad.ttl:1:[0-9]+:" "$work/err"
rm -f "$work/never.ttl"
compile --term 'xor(when(broken, task(a)), else(task(b)))' -o "$work/never.ttl" "$names"
check "a condition whose SPARQL does not parse: exit 1" [ $? = 1 ]
check "the error says which sentry and why (compile checks each sentry as the agent compiles it)" \
  grep -q "the sentry <#s1.1-start> cannot be evaluated: .*syntax error" "$work/err"
check "and nothing is written" [ ! -e "$work/never.ttl" ]
sed 's/<#a> a http/<#s1> a http/' "$names" > "$work/clash.ttl"
compile --term 'task(s1)' "$work/clash.ttl"
check "a name the compiled model gives its stages is refused" grep -q "is a name the compiled model gives its stages" "$work/err"

echo "# usage"
compile --help
check "--help exits 0 and shows the usage" grep -q '^usage: ldgsm compile' "$work/out"
compile --term 'task(a)'
check "no NAMES: exit 2" [ $? = 2 ]
compile --term 'task(a)' --term-file "$work/term.txt" "$names"
check "--term and --term-file: exit 2" [ $? = 2 ]
compile --term 'task(a)' --base 'http://example.org/m#x' "$names"
check "a --base with a fragment: exit 2" [ $? = 2 ]
finish
