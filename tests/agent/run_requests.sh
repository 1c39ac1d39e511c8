#!/usr/bin/env bash
# `ldgsm run` against `ldgsm serve`: crawling, request rules versus request-looking data, as-written
# PUTs with conditions and conflicts, composed updates, the fixpoint, --dry-run, --allow-origin.
set -u
. "$(dirname "$0")/lib.sh"
# Every write to an existing resource must be conditional here (428 otherwise): a 2xx proves the agent
# sent a condition (run_conditions.sh checks on the wire that it is the ETag read).
start_server --require-conditional

prefixes="@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix ldp: <http://www.w3.org/ns/ldp#> .
@prefix : <http://ex.org/> ."
crawl="{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}c/> } .
{ <${base}c/> ldp:contains ?m . } => { [] http:mthd httpm:GET ; http:requestURI ?m } ."

run_agent() { # program-text [options...]: runs it, output in $work/run.log, status in $run_status
  printf '%s\n%s\n' "$prefixes" "$1" > "$work/prog.n3"; shift
  bounded "$ldgsm" run -v -p "$work/prog.n3" -n 0 "$@" > "$work/run.out" 2> "$work/run.log" # -v: iteration lines
  run_status=$?
}

# A container crawl: every member is read, and a rule on a member's data fires.
put c/a '<#it> <http://ex.org/state> "on" .' > /dev/null
put c/b '<#it> <http://ex.org/state> "off" .' > /dev/null
: > "$work/serve.log"
run_agent "$crawl
{ ?x :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI ?x ; http:body { ?x :state \"off\" ; :turnedOffBy :agent . } } ." \
  --iterations 5 --until quiescent
check "crawl then quiescent exits 0" [ "$run_status" = 0 ]
check "the container and both members were read" test "$(served GET /c/a)" -ge 1 -a "$(served GET /c/b)" -ge 1
check "the member that was on is off" grep -q '<http://ex.org/turnedOffBy>' <(get c/a)
check "the PUT was conditional (one PUT, answered 204, not 428)" [ "$(grep -Ec '^(PUT|PATCH) /c/a 204' "$work/serve.log")" = 1 ]
check "the other member was not written" [ "$(written /c/b)" = 0 ]

# Data that describes a request is not a request.
put c/looks-like '[] <http://www.w3.org/2011/http#mthd> <http://www.w3.org/2011/http-methods#DELETE> ; <http://www.w3.org/2011/http#requestURI> <'"${base}"'c/b> .' > /dev/null
: > "$work/serve.log"
run_agent "$crawl" --iterations 2
check "a request described in data is never sent" [ "$(served DELETE /c/b)" = 0 ]

# Two different as-written PUTs to one resource: both withheld, both rules named.
: > "$work/serve.log"
run_agent "$crawl
{ <${base}c/b#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/b> ; http:body { <${base}c/b#it> :state \"red\" . } } .
{ <${base}c/b#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/b> ; http:body { <${base}c/b#it> :state \"blue\" . } } ." \
  --iterations 1 --until quiescent
check "conflicting PUTs are not sent" [ "$(written /c/b)" = 0 ]
check "the conflict is reported with both rules" [ "$(grep -c 'conflict.*prog.n3:' "$work/run.log")" -ge 2 ]
check "--until quiescent ending with withheld requests exits 3" [ "$run_status" = 3 ]

# The same PUT from two rules is one request.
: > "$work/serve.log"
run_agent "$crawl
{ <${base}c/b#it> :state \"off\" . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/b> ; http:body { <${base}c/b#it> :state \"idle\" . } } .
{ <${base}c/b#it> :state \"off\" . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/b> ; http:body { <${base}c/b#it> :state \"idle\" . } } ." \
  --iterations 1
check "identical PUTs are sent once" [ "$(written /c/b)" = 1 ]

# An update that changes nothing is not sent and does not keep the agent from being quiescent.
put c/same '@prefix : <http://ex.org/> . <#x> :a 1 .' > /dev/null
: > "$work/serve.log"
run_agent "{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}c/same> } .
{ <${base}c/same#x> :a ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/same#x> ; http:body { <${base}c/same#x> :a 1 . } } ." \
  --iterations 5 --until quiescent
check "an update equal to the document is not sent" [ "$(written /c/same)" = 0 ]
check "and the run is quiescent after one iteration" [ "$(grep -c '^iteration:' "$work/run.log")" = 1 ]

# Two updates to different triples of one document: one PUT holding both, the rest kept.
put c/doc '<#x> <http://ex.org/a> 1 ; <http://ex.org/b> 2 ; <http://ex.org/keep> "yes" .' > /dev/null
: > "$work/serve.log"
run_agent "$crawl
{ <${base}c/doc#x> :a 1 . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; http:body { <${base}c/doc#x> :a 10 . } } .
{ <${base}c/doc#x> :b 2 . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; http:body { <${base}c/doc#x> :b 20 . } } ." \
  --iterations 1
doc=$(get c/doc)
check "two updates compose into one PUT" [ "$(written /c/doc)" = 1 ]
check "both slots were replaced" grep -q '<http://ex.org/a> "10"' <<< "$doc"
check "both slots were replaced (b)" grep -q '<http://ex.org/b> "20"' <<< "$doc"
check "other triples are kept" grep -q '<http://ex.org/keep> "yes"' <<< "$doc"
check "no old values remain" ! grep -q '<http://ex.org/a> "1"' <<< "$doc"

# A real slot conflict (equal priorities, different values) withholds the whole composed write.
: > "$work/serve.log"
run_agent "$crawl
{ <${base}c/doc#x> :a ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; http:body { <${base}c/doc#x> :a 7 . } } .
{ <${base}c/doc#x> :a ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; http:body { <${base}c/doc#x> :a 8 . } } .
{ <${base}c/doc#x> :b ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; http:body { <${base}c/doc#x> :b 9 . } } ." \
  --iterations 1
check "a slot conflict withholds the composed write" [ "$(written /c/doc)" = 0 ]
# With priorities, the higher wins and the write goes.
run_agent "$crawl
{ <${base}c/doc#x> :a ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; ldgsm:priority 2 ; http:body { <${base}c/doc#x> :a 7 . } } .
{ <${base}c/doc#x> :a ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; ldgsm:priority 1 ; http:body { <${base}c/doc#x> :a 8 . } } ." \
  --iterations 1
check "the higher priority wins" grep -q '<http://ex.org/a> "7"' <(get c/doc)
check "the loser is reported as yielded" grep -q 'yielded' "$work/run.log"

# A 404 target: creating works once; a second iteration sees it exists.
: > "$work/serve.log"
run_agent "{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}c/new> } .
{ <${base}c/new> ldgsm:httpStatus 404 . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/new> ; http:body { <${base}c/new#it> :made :now . } } ." \
  --iterations 2
check "a 404 target is created exactly once" [ "$(grep -Ec '^(PUT|PATCH) /c/new 201' "$work/serve.log")" = 1 ]

# A precondition the rule writes itself is kept as written: a stale one gets 412 and the agent says so
# (run_conditions.sh has another writer really win the race).
: > "$work/serve.log"
run_agent "$crawl
{ <${base}c/b#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/b> ;
  http:headers ( [ http:fieldName \"If-Match\" ; http:fieldValue \"\\\"stale\\\"\" ] ) ;
  http:body { <${base}c/b#it> :state \"stale\" . } } ." --iterations 1
check "a 412 is reported as another writer winning" grep -q '412, another writer' "$work/run.log"

# A program that terminates only because the fixpoint stops it (counting to 20 with a guard).
run_agent "@prefix math: <http://www.w3.org/2000/10/swap/math#> .
:c :n 0 .
{ :c :n ?n . ?n math:lessThan 20 . (?n 1) math:sum ?m . } => { :c :n ?m . } .
{ :c :n 20 . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/count> ; http:body { <${base}c/count#it> :reached 20 . } } ." \
  --iterations 1
check "the fixpoint computation ends and its request is sent" grep -q '<http://ex.org/reached>' <(get c/count)

# --dry-run prints instead of sending.
: > "$work/serve.log"
run_agent "{ } => { [] http:mthd httpm:POST ; http:requestURI <${base}c/> ; http:body { <http://this.nxparser.github.io/reference/to/URI/of/current/rdf/graph/for/representing/permanently/relative/URIs/in/N-Triples/#it> :made :now . } } ." \
  --iterations 1 --dry-run
check "--dry-run sends nothing" [ "$(served POST /c/)" = 0 ]
check "--dry-run prints the request" grep -q "^POST ${base}c/" "$work/run.out"
check "this: is written relative in a POST body" grep -q '<#it>' "$work/run.out"

# --allow-origin: a write elsewhere is refused, not sent.
run_agent "{ } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/elsewhere> ; http:body { <${base}c/elsewhere#it> :x 1 . } } ." \
  --iterations 1 --allow-origin http://127.0.0.2:1
check "an origin outside --allow-origin is refused" grep -q 'refused.*allow-origin' "$work/run.log"
check "and nothing was written" [ "$(curl -s -o /dev/null -w '%{http_code}' "${base}c/elsewhere")" = 404 ]

finish
