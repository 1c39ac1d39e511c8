#!/usr/bin/env bash
# The conditional headers `ldgsm run` sends (DESIGN section 2), seen on the wire by
# tests/agent/record_proxy.py between the agent and `ldgsm serve`: a write to a document read with an
# ETag carries If-Match with exactly the ETag served for that document in the same iteration, a write
# to one read as 404 If-None-Match: *, a POST neither. And a lost update: another writer changes a
# document between the agent's GET and its PUT; the server answers 412, nothing the other writer wrote
# is lost, and the next iteration decides again from the new state, writing on top of it.
set -u
. "$(dirname "$0")/lib.sh"
start_server --require-conditional
printf '%s' '<#x> <http://ex.org/state> "on" ; <http://ex.org/count> 5 ; <http://ex.org/note> "other writer" .' \
  > "$work/other-writer.ttl"
start_proxy --race /c/race "$work/other-writer.ttl"

reads() { # path...: a rule GETting each document through the proxy
  local path
  for path in "$@"; do printf '{ } => { [] http:mthd httpm:GET ; http:requestURI <%s> } .\n' "$pbase$path"; done
}

# condition_mismatches: every write in the proxy log whose conditional headers are not those of the
# last read of its document, one line each: If-Match equal to the ETag served when the read was 200,
# If-None-Match: * alone when it was 404; and a write with no read of its document since the last write
# to it (so the ETag compared is this iteration's). POSTs must carry neither header.
condition_mismatches() {
  awk -F '\t' '
    $1 == "GET" { status[$2] = $3; etag[$2] = $6; fresh[$2] = 1; next }
    $1 == "POST" { if ($4 != "-" || $5 != "-") print "POST " $2 " carries If-Match " $4 ", If-None-Match " $5; next }
    $1 == "PUT" || $1 == "DELETE" || $1 == "PATCH" {
      if (!fresh[$2]) { print $1 " " $2 ": not read since its last write"; next }
      fresh[$2] = 0
      if ((status[$2] == 200 || status[$2] == 304) && ($4 != etag[$2] || $5 != "-"))
        print $1 " " $2 ": If-Match " $4 ", If-None-Match " $5 "; read with ETag " etag[$2]
      else if (status[$2] == 404 && ($4 != "-" || $5 != "*"))
        print $1 " " $2 ": If-Match " $4 ", If-None-Match " $5 "; read as 404"
      else if (status[$2] != 200 && status[$2] != 304 && status[$2] != 404)
        print $1 " " $2 ": read with status " status[$2]
    }' "$work/proxy.log"
}
check_conditions() { # description
  local mismatches; mismatches=$(condition_mismatches)
  check "$1" [ -z "$mismatches" ]
  [ -z "$mismatches" ] || sed 's/^/  /' <<< "$mismatches"
}

# An update per iteration to one document: each PUT's If-Match is the ETag of that iteration's read.
put c/count '<#x> <http://ex.org/n> 0 .' > /dev/null
run_proxied_agent "$(reads c/count)
{ <${pbase}c/count#x> :n ?n . ?n math:lessThan 3 . (?n 1) math:sum ?m . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <${pbase}c/count#x> ; http:body { <${pbase}c/count#x> :n ?m . } } ." \
  --iterations 6 --until quiescent
check "counting to 3 ends quiescent (exit 0)" [ "$run_status" = 0 ]
check "three updates, each answered 204" [ "$(proxy_writes "PUT|PATCH" /c/count 204)" = 3 ]
check "with three different If-Match values" \
  [ "$(awk -F '\t' '$1 == "PUT" || $1 == "PATCH" { print $4 }' "$work/proxy.log" | sort -u | grep -c '^"')" = 3 ]
check_conditions "each update's If-Match is the ETag served in its own iteration"
check "the count reached 3" grep -q '<http://ex.org/n> "3"' <(get c/count)

# As-written writes to existing documents, a POST, and writes to documents read as 404.
put c/plain '<#x> <http://ex.org/v> 1 .' > /dev/null
put c/gone '<#x> <http://ex.org/bye> true .' > /dev/null
run_proxied_agent "$(reads c/plain c/gone c/new c/new2)
{ <${pbase}c/plain#x> :v 1 . } => { [] http:mthd httpm:PUT ; http:requestURI <${pbase}c/plain> ; http:body { <${pbase}c/plain#x> :v 2 . } } .
{ <${pbase}c/gone#x> :bye true . } => { [] http:mthd httpm:DELETE ; http:requestURI <${pbase}c/gone> } .
{ <${pbase}c/plain#x> :v 1 . } => { [] http:mthd httpm:POST ; http:requestURI <${pbase}c/> ; http:body { [] :posted 1 . } } .
{ <${pbase}c/new> ldgsm:httpStatus 404 . } => { [] http:mthd httpm:PUT ; http:requestURI <${pbase}c/new> ; http:body { <${pbase}c/new#x> :made 1 . } } .
{ <${pbase}c/new2> ldgsm:httpStatus 404 . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <${pbase}c/new2#x> ; http:body { <${pbase}c/new2#x> :made 2 . } } ." \
  --iterations 1
check "the as-written PUT was sent and answered 204" [ "$(proxy_writes PUT /c/plain 204)" = 1 ]
check "the DELETE was sent and answered 204" [ "$(proxy_writes DELETE /c/gone 204)" = 1 ]
check "the POST was sent and answered 201" [ "$(proxy_writes POST /c/ 201)" = 1 ]
check "the as-written PUT to a 404 document created it" [ "$(proxy_writes PUT /c/new 201)" = 1 ]
check "the update of a 404 document created it" [ "$(proxy_writes "PUT|PATCH" /c/new2 201)" = 1 ]
check_conditions "If-Match is the ETag read, If-None-Match: * after a 404, a POST has neither"

# The lost-update race: the proxy lets another writer replace c/race (count 5, a note) between the
# agent's GET and its PUT. The agent's PUT, conditional on the ETag it read, gets 412; the next
# iteration reads the other writer's version and makes its change on top of it (count 5 + 1 = 6).
put c/race '<#x> <http://ex.org/state> "on" ; <http://ex.org/count> 1 .' > /dev/null
run_proxied_agent "$(reads c/race)
{ <${pbase}c/race#x> :state \"on\" ; :count ?n . (?n 1) math:sum ?m . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <${pbase}c/race#x> ;
     http:body { <${pbase}c/race#x> :state \"off\" ; :count ?m . } } ." --iterations 5 --until quiescent
check "the other writer won the race (its PUT answered 204)" grep -q '^RACE	/c/race	204	' "$work/proxy.log"
check "the agent's PUT after it was answered 412" [ "$(proxy_writes "PUT|PATCH" /c/race 412)" = 1 ]
check "the 412 is reported as another writer winning" grep -q '412, another writer' "$work/run.log"
check "the next iteration wrote once more, answered 204" [ "$(proxy_writes "PUT|PATCH" /c/race 204)" = 1 ]
check_conditions "both PUTs carried If-Match with the ETag their iteration read"
check "the run then ends quiescent (exit 0)" [ "$run_status" = 0 ]
race=$(get c/race)
check "the other writer's triple is kept" grep -q '<http://ex.org/note> "other writer"' <<< "$race"
check "the agent's change was made on top of the other writer's state (count 6)" \
  grep -q '<http://ex.org/count> "6"' <<< "$race"
check "and the state is the agent's" grep -q '<http://ex.org/state> "off"' <<< "$race"
check "the document holds one count" [ "$(grep -c '<http://ex.org/count>' <<< "$race")" = 1 ]

finish
