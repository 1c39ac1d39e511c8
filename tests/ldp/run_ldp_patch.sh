#!/usr/bin/env bash
# tests/ldp/run_ldp_patch.sh: N3 Patch on `ldgsm serve`, over HTTP (curl): Accept-Patch and Allow, a PATCH
# that creates, insert/delete/where, 409 and 422 leaving the resource as it was, 415 for another media type,
# PATCH conditional as PUT (412, 428), racing PATCHes (one If-Match winner; unconditional ones all kept),
# a token needed as for PUT, and a PATCH surviving kill -9 with --data. Every curl has a time limit and every
# wait is bounded (lib.sh).
# Usage: run_ldp_patch.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"

trap ldp_cleanup EXIT

N3=(-H 'Content-Type: text/n3')
PREFIXES='@prefix solid: <http://www.w3.org/ns/solid/terms#> .
@prefix ex: <http://ex/> .
_:patch a solid:InsertDeletePatch ;'

# patch URL CLAUSES [curl options...]: PATCHes URL with an N3 Patch made of the patch node's CLAUSES (the
# body goes through a file: a body beginning with '@' would name a file to curl).
patch() {
    local url=$1 clauses=$2
    shift 2
    printf '%s\n%s\n' "$PREFIXES" "$clauses" >"$WORK/patch.n3"
    req PATCH "$url" "${N3[@]}" --data-binary "@$WORK/patch.n3" "$@"
}

# nt URL: the resource as N-Triples, in $WORK/nt.
nt() {
    curl -s -H 'Accept: application/n-triples' "$1" >"$WORK/nt"
}

ldp_start mem --memory --threads 4

# ---------------------------------------------------------------- advertised
patch "${URL}c/r" 'solid:inserts { <#it> ex:q 1 . } .'
check "PATCH to a missing resource creates it" 201 "$STATUS"
check "... at the request URI" "${URL}c/r" "$(header Location)"
created_etag=$(header ETag)
nt "${URL}c/r"
check_grep "... holding the inserted triple" "^<${URL}c/r#it> <http://ex/q> \"1\"" "$WORK/nt"
req OPTIONS "${URL}c/r"
check "OPTIONS a resource: Accept-Patch" "text/n3" "$(header Accept-Patch)"
check_grep "OPTIONS a resource: Allow lists PATCH" '^Allow: .*PATCH' "$WORK/headers"
req GET "${URL}c/"
check "GET a container: Accept-Patch" "text/n3" "$(header Accept-Patch)"
check_grep "GET a container: Allow lists PATCH" '^Allow: .*PATCH' "$WORK/headers"
req GET "${URL}c/r"
check "GET a resource: Accept-Patch" "text/n3" "$(header Accept-Patch)"
check "the ETag a PATCH answers is the representation's" "$created_etag" "$(header ETag)"

# ---------------------------------------------------------------- insert, delete, where
patch "${URL}c/r" 'solid:inserts { <#it> ex:name "it" ; ex:age 3 . } .'
check "PATCH inserting into an existing resource" 204 "$STATUS"
patch "${URL}c/r" 'solid:where { ?x ex:name "it" ; ex:age ?age . } ;
  solid:deletes { ?x ex:age ?age . } ;
  solid:inserts { ?x ex:age 4 . } .'
check "PATCH with a where clause matching once" 204 "$STATUS"
nt "${URL}c/r"
check_grep "the where clause's mapping was inserted" "^<${URL}c/r#it> <http://ex/age> \"4\"" "$WORK/nt"
check_no_grep "the where clause's mapping was deleted" '<http://ex/age> "3"' "$WORK/nt"
check "the other triples stay" 3 "$(wc -l <"$WORK/nt")"
req GET "${URL}c/r"
etag=$(header ETag)

patch "${URL}c/r" 'solid:where { ?x ex:nothing ?y . } ; solid:inserts { ?x ex:q 2 . } .'
check "where matching nothing: 409" 409 "$STATUS"
patch "${URL}c/r" 'solid:where { ?x ?p ?y . } ; solid:inserts { ?x ex:q 2 . } .'
check "where matching more than once: 409" 409 "$STATUS"
check_grep "... and says why" 'more than one way' "$WORK/body"
patch "${URL}c/r" 'solid:deletes { <#it> ex:age 3 . } .'
check "deleting an absent triple: 409" 409 "$STATUS"
patch "${URL}c/r" 'solid:inserts { <#it> ex:q 2 . '
check "a patch that does not parse: 422" 422 "$STATUS"
check_grep "... with its line and column" 'patch:5:1: ' "$WORK/body"
patch "${URL}c/r" 'solid:where { ?x ex:name [] . } .'
check "a blank node in where: 422" 422 "$STATUS"
patch "${URL}c/r" 'solid:inserts { <#it> ex:q [ ex:r 1 ] . } .'
check "a blank node in inserts: 422 (the Solid Protocol forbids it)" 422 "$STATUS"
req PATCH "${URL}c/r" -H 'Content-Type: text/turtle' --data-binary '<#it> <http://ex/q> 2 .'
check "a PATCH body that is not text/n3: 415" 415 "$STATUS"
check "... naming what is accepted" "text/n3" "$(header Accept-Patch)"
req GET "${URL}c/r"
check "refused PATCHes changed nothing" "$etag" "$(header ETag)"

# ---------------------------------------------------------------- conditional as PUT
patch "${URL}c/r" 'solid:inserts { <#it> ex:q 5 . } .' -H 'If-Match: "stale"'
check "PATCH with a stale If-Match: 412" 412 "$STATUS"
patch "${URL}c/r" 'solid:inserts { <#it> ex:q 5 . } .' -H 'If-None-Match: *'
check "PATCH with If-None-Match: * on an existing resource: 412" 412 "$STATUS"
patch "${URL}c/r" 'solid:inserts { <#it> ex:q 5 . } .' -H "If-Match: $etag"
check "PATCH with the current If-Match" 204 "$STATUS"
patch "${URL}c/r" 'solid:inserts { <#it> ex:q 6 . } .' -H "If-Match: $etag"
check "PATCH with the ETag the previous PATCH replaced: 412" 412 "$STATUS"
patch "${URL}c/new" 'solid:inserts { <#it> ex:q 1 . } .' -H 'If-None-Match: *'
check "PATCH with If-None-Match: * on a new resource creates it" 201 "$STATUS"
patch "${URL}c/absent" 'solid:inserts { <#it> ex:q 1 . } .' -H 'If-Match: *'
check "PATCH with If-Match: * on a missing resource: 412" 412 "$STATUS"

# ---------------------------------------------------------------- racing PATCHes
req PUT "${URL}race" -H 'Content-Type: text/turtle' --data-binary '<#it> <http://ex/n> 0 .'
req GET "${URL}race"
race_etag=$(header ETag)
RACERS=20
racers=()
for i in $(seq $RACERS); do
    printf '%s\nsolid:inserts { <#it> ex:winner %d . } .\n' "$PREFIXES" "$i" >"$WORK/race$i.n3"
    curl -s -o /dev/null -w '%{http_code}\n' -X PATCH "${N3[@]}" -H "If-Match: $race_etag" \
        --data-binary "@$WORK/race$i.n3" "${URL}race" >"$WORK/race$i.status" &
    racers+=($!)
done
wait "${racers[@]}" # not the server, which is a child too
racers=()
cat "$WORK"/race*.status >"$WORK/race.statuses"
check "racing If-Match PATCHes: one wins" 1 "$(grep -c '^204$' "$WORK/race.statuses")"
check "... the others get 412" $((RACERS - 1)) "$(grep -c '^412$' "$WORK/race.statuses")"
nt "${URL}race"
check "... and the resource holds the winner's triple alone" 1 "$(grep -c '<http://ex/winner>' "$WORK/nt")"

for i in $(seq $RACERS); do
    printf '%s\nsolid:inserts { <#it> ex:n %d . } .\n' "$PREFIXES" "$i" >"$WORK/all$i.n3"
    curl -s -o /dev/null -w '%{http_code}\n' -X PATCH "${N3[@]}" --data-binary "@$WORK/all$i.n3" "${URL}race" \
        >"$WORK/all$i.status" &
    racers+=($!)
done
wait "${racers[@]}"
cat "$WORK"/all*.status >"$WORK/all.statuses"
check "racing unconditional PATCHes all succeed" $RACERS "$(grep -c '^204$' "$WORK/all.statuses")"
nt "${URL}race"
check "... and none is lost" $((RACERS + 1)) "$(grep -c '<http://ex/n>' "$WORK/nt")"
ldp_stop "$PID"

# ---------------------------------------------------------------- token, required conditions, durability
echo secret >"$WORK/token"
ldp_start guarded --data "$WORK/data" --token-file "$WORK/token" --require-conditional
patch "${URL}d/r" 'solid:inserts { <#it> ex:q 1 . } .'
check "PATCH without the token: 401" 401 "$STATUS"
patch "${URL}d/r" 'solid:inserts { <#it> ex:q 1 . } .' -H 'Authorization: Bearer secret'
check "PATCH with the token creates" 201 "$STATUS"
etag=$(header ETag)
patch "${URL}d/r" 'solid:inserts { <#it> ex:q 2 . } .' -H 'Authorization: Bearer secret'
check "unconditional PATCH of an existing resource under --require-conditional: 428" 428 "$STATUS"
patch "${URL}d/r" 'solid:inserts { <#it> ex:q 2 . } .' -H 'Authorization: Bearer secret' -H "If-Match: $etag"
check "conditional PATCH under --require-conditional" 204 "$STATUS"
kill -KILL "$PID"
ldp_await "$PID" 2>/dev/null # bash reports the kill
ldp_start again --data "$WORK/data"
nt "${URL}d/r"
check "a PATCH answered is on disk after kill -9" 2 "$(grep -c "^<${URL}d/r#it> <http://ex/q> " "$WORK/nt")"
ldp_stop "$PID"

ldp_finish
