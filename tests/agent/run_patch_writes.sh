#!/usr/bin/env bash
# How `ldgsm run` writes a composed update (DESIGN section 2; docs/guide/run.md, "How updates are written"):
# a PUT of the whole document by default; with --patch an N3 Patch of what changes where the server lists
# text/n3 in Accept-Patch, conditional on the ETag read like the PUT, with IRIs relative to the document (it
# is sent through tests/agent/record_proxy.py, whose address is not the server's), and a PUT where the
# server takes no patches, where a change touches a blank node, and after a server refused a patch; a PATCH
# that loses a race is answered 412 and loses nothing the other writer wrote.
set -u
. "$(dirname "$0")/lib.sh"
start_server --require-conditional
printf '%s' '<#x> <http://ex.org/n> 1 ; <http://ex.org/note> "other writer" .' > "$work/other-writer.ttl"
start_proxy --refuse-patch /c/refused --hide-accept-patch /c/hidden --race /c/race "$work/other-writer.ttl"

# count_to3 PATH: reads PATH and raises its :n by one per iteration until 3.
count_to3() {
  printf '{ } => { [] http:mthd httpm:GET ; http:requestURI <%s> } .\n' "$pbase$1"
  printf '{ <%s#x> :n ?n . ?n math:lessThan 3 . (?n 1) math:sum ?m . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <%s#x> ; http:body { <%s#x> :n ?m . } } .\n' \
    "$pbase$1" "$pbase$1" "$pbase$1"
}
document='<#x> <http://ex.org/n> 0 ; <http://ex.org/keep> "kept" ; <http://ex.org/b> [ <http://ex.org/c> 1 ] .'

# --patch where the server takes N3 Patch: every update is a PATCH, conditional, and the document ends
# as a PUT would leave it (the untouched triples, the blank node among them, kept).
put c/patched "$document" > /dev/null
run_proxied_agent "$(count_to3 c/patched)" --iterations 6 --until quiescent --patch
check "counting to 3 ends quiescent" [ "$run_status" = 0 ]
check "with three PATCHes, each answered 204 (a 428 would say one was unconditional)" \
  [ "$(proxy_writes PATCH /c/patched 204)" = 3 ]
check "and no PUT" [ "$(proxy_writes PUT /c/patched '[0-9]*')" = 0 ]
check "each PATCH carried If-Match" [ "$(awk -F '\t' '$1 == "PATCH" && $4 ~ /^"/' "$work/proxy.log" | wc -l)" = 3 ]
doc=$(get c/patched)
check "the document holds the last count, once" \
  [ "$(grep -c '<http://ex.org/n>' <<< "$doc")" = 1 -a "$(grep -c '<http://ex.org/n> "3"' <<< "$doc")" = 1 ]
check "the untouched triples are kept" grep -q '<http://ex.org/keep> "kept"' <<< "$doc"
check "the blank node too" grep -q '<http://ex.org/c> "1"' <<< "$doc"

# By default: whole documents.
put c/whole "$document" > /dev/null
run_proxied_agent "$(count_to3 c/whole)" --iterations 6 --until quiescent
check "without --patch: three PUTs answered 204" [ "$(proxy_writes PUT /c/whole 204)" = 3 ]
check "without --patch: no PATCH" [ "$(proxy_writes PATCH /c/whole '[0-9]*')" = 0 ]
check "without --patch: the document holds the last count" grep -q '<http://ex.org/n> "3"' <<< "$(get c/whole)"

# A server whose answers do not list N3 Patch gets PUTs.
put c/hidden "$document" > /dev/null
run_proxied_agent "$(count_to3 c/hidden)" --iterations 6 --until quiescent --patch
check "no Accept-Patch: three PUTs answered 204, no PATCH" \
  [ "$(proxy_writes PUT /c/hidden 204)" = 3 -a "$(proxy_writes PATCH /c/hidden '[0-9]*')" = 0 ]

# A server that lists N3 Patch but refuses the agent's: the update is written again as a PUT in the
# next iteration, and every later one too; said once.
put c/refused "$document" > /dev/null
run_proxied_agent "$(count_to3 c/refused)" --iterations 6 --until quiescent --patch
check "a refused patch: one PATCH answered 415" [ "$(proxy_writes PATCH /c/refused 415)" = 1 ]
check "then three PUTs answered 204" [ "$(proxy_writes PUT /c/refused 204)" = 3 ]
check "the document holds the last count" grep -q '<http://ex.org/n> "3"' <<< "$(get c/refused)"
check "the fallback is said once" [ "$(grep -c 'answered 415: its updates are sent as PUT' "$work/run.log")" = 1 ]

# A change that removes a blank node's triple cannot be patched (a patch cannot name the node): a PUT.
put c/bnode '<#x> <http://ex.org/b> [ <http://ex.org/c> 1 ] .' > /dev/null
run_proxied_agent "{ } => { [] http:mthd httpm:GET ; http:requestURI <${pbase}c/bnode> } .
{ <${pbase}c/bnode#x> :b ?b . ?b :c 1 . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <${pbase}c/bnode#x> ; http:body { <${pbase}c/bnode#x> :b :named . } } ." \
  --iterations 3 --until quiescent --patch
check "a changed blank node triple: one PUT answered 204, no PATCH" \
  [ "$(proxy_writes PUT /c/bnode 204)" = 1 -a "$(proxy_writes PATCH /c/bnode '[0-9]*')" = 0 ]
check "the slot holds the new value" grep -q '<http://ex.org/b> <http://ex.org/named>' <<< "$(get c/bnode)"

# The lost-update race: the proxy lets another writer replace c/race (n 1, a note) between the agent's
# GET and its PATCH; the PATCH, conditional on the ETag read, is answered 412, and the next iteration
# patches the new state.
put c/race '<#x> <http://ex.org/n> 0 .' > /dev/null
run_proxied_agent "$(count_to3 c/race)" --iterations 6 --until quiescent --patch
check "the other writer won the race" grep -q '^RACE	/c/race	204	' "$work/proxy.log"
check "the agent's PATCH after it was answered 412" [ "$(proxy_writes PATCH /c/race 412)" = 1 ]
check "then two PATCHes answered 204 (1 to 2, 2 to 3)" [ "$(proxy_writes PATCH /c/race 204)" = 2 ]
race=$(get c/race)
check "the other writer's triple is kept" grep -q '<http://ex.org/note> "other writer"' <<< "$race"
check "and the count is the agent's, once" \
  [ "$(grep -c '<http://ex.org/n>' <<< "$race")" = 1 -a "$(grep -c '<http://ex.org/n> "3"' <<< "$race")" = 1 ]
finish
