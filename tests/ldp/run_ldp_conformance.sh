#!/usr/bin/env bash
# tests/ldp/run_ldp_conformance.sh: the HTTP and LDP conformance points of issue 12 against running
# `ldgsm serve` instances: POST preconditions (on the container), what a 304 carries, constrainedBy on
# refused writes, Turtle errors located by line and column, absolute-form request targets, a 405's Allow, POST never minting a deleted name again
# (also across a restart with --data), Last-Modified and If-Modified-Since (kept across a restart),
# CORS (allowed origins echoed, preflight on any path, configured origins only).
# Usage: run_ldp_conformance.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap ldp_cleanup EXIT

TTL=(-H 'Content-Type: text/turtle')
CONSTRAINED='rel="http://www.w3.org/ns/ldp#constrainedBy"'

ldp_start conf --data "$WORK/data"

# ---------------------------------------------------------------- POST preconditions
req PUT "${URL}c/" "${TTL[@]}" --data-binary '<> <http://ex/p> "c" .'
check "PUT container" 201 "$STATUS"
req GET "${URL}c/"
container_etag=$(header ETag)
req POST "${URL}c/" "${TTL[@]}" -H 'If-Match: "00000000000000000000000000000000"' --data-binary '<> <http://ex/p> 1 .'
check "POST with a stale If-Match" 412 "$STATUS"
req POST "${URL}c/" "${TTL[@]}" -H 'If-None-Match: *' --data-binary '<> <http://ex/p> 1 .'
check "POST with If-None-Match: * on an existing container" 412 "$STATUS"
req POST "${URL}c/" "${TTL[@]}" -H "If-None-Match: $container_etag" --data-binary '<> <http://ex/p> 1 .'
check "POST with If-None-Match naming the container's ETag" 412 "$STATUS"
req GET "${URL}c/"
check "a refused POST adds no member" "$container_etag" "$(header ETag)"
req POST "${URL}c/" "${TTL[@]}" -H "If-Match: $container_etag" --data-binary '<> <http://ex/p> 1 .'
check "POST with the container's ETag in If-Match" 201 "$STATUS"
req POST "${URL}c/" "${TTL[@]}" -H "If-Match: $container_etag" --data-binary '<> <http://ex/p> 2 .'
check "a second POST with the now stale ETag" 412 "$STATUS"

# ---------------------------------------------------------------- 304
req PUT "${URL}c/r" "${TTL[@]}" --data-binary '<#it> <http://ex/p> "r" .'
check "PUT resource" 201 "$STATUS"
req GET "${URL}c/r"
etag=$(header ETag)
length=$(header Content-Length)
modified=$(header Last-Modified)
: >"$WORK/body"
req GET "${URL}c/r" -H "If-None-Match: $etag"
check "GET with a matching If-None-Match" 304 "$STATUS"
check "the 304 carries the ETag" "$etag" "$(header ETag)"
check_grep "the 304 carries Vary: Accept" '^Vary: .*Accept' "$WORK/headers"
check "the 304 carries Last-Modified" "$modified" "$(header Last-Modified)"
check_no_grep "the 304 carries no Content-Length 0" '^Content-Length: 0' "$WORK/headers"
cl=$(header Content-Length)
[ -z "$cl" ] || check "a 304's Content-Length is the 200's" "$length" "$cl"
check "the 304 has no body" 0 "$(wc -c <"$WORK/body")"

# ---------------------------------------------------------------- Last-Modified, If-Modified-Since
check_grep "GET has an HTTP-date Last-Modified" '^Last-Modified: [A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:]{8} GMT' "$WORK/headers"
req HEAD "${URL}c/r"
check "HEAD has the same Last-Modified" "$modified" "$(header Last-Modified)"
req GET "${URL}c/"
check_grep "a container has Last-Modified" '^Last-Modified: ' "$WORK/headers"
req GET "${URL}c/r" -H "If-Modified-Since: $modified"
check "If-Modified-Since the Last-Modified" 304 "$STATUS"
check "that 304 carries the ETag" "$etag" "$(header ETag)"
req HEAD "${URL}c/r" -H "If-Modified-Since: $modified"
check "HEAD with If-Modified-Since the Last-Modified" 304 "$STATUS"
req GET "${URL}c/r" -H "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT"
check "If-Modified-Since an earlier date" 200 "$STATUS"
req GET "${URL}c/r" -H "If-Modified-Since: Saturday, 01-Jan-00 00:00:00 GMT"
check "If-Modified-Since an earlier date (RFC 850 form)" 200 "$STATUS"
req GET "${URL}c/r" -H "If-Modified-Since: Fri Dec 31 23:59:59 2100"
check "If-Modified-Since a later date (asctime form)" 304 "$STATUS"
req GET "${URL}c/r" -H "If-Modified-Since: not a date"
check "an invalid If-Modified-Since is ignored" 200 "$STATUS"
req GET "${URL}c/r" -H "If-Modified-Since: $modified" -H 'If-None-Match: "00000000000000000000000000000000"'
check "If-None-Match overrides If-Modified-Since" 200 "$STATUS"

# ---------------------------------------------------------------- constrainedBy
req PUT "${URL}c/r/under" "${TTL[@]}" --data-binary '<> <http://ex/p> 1 .'
check "PUT under a resource" 409 "$STATUS"
check_grep "the 409 links the constraints" "^Link: <${URL}\.well-known/ldgsm-constraints>; $CONSTRAINED" "$WORK/headers"
req PUT "${URL}c/bad" "${TTL[@]}" --data-binary '<> <http://ex/p> '
check "PUT bad Turtle" 400 "$STATUS"
check_grep "the 400 links the constraints" "^Link: <${URL}\.well-known/ldgsm-constraints>; $CONSTRAINED" "$WORK/headers"
check_grep "the 400 says where: line and column of the early end" '^Bad Request: [^ ]*:1:18: ' "$WORK/body"
req PUT "${URL}c/bad" "${TTL[@]}" --data-binary $'PREFIX ex: <http://ex/>\n<> ex:p 1 ;\n   ab:q 2 .'
check "PUT Turtle naming an undeclared prefix" 400 "$STATUS"
check_grep "the 400 says where: the undeclared name's line and column" '^Bad Request: [^ ]*:3:4: a prefix that is not declared: ab:q$' "$WORK/body"
req PUT "${URL}c/json" -H 'Content-Type: application/json' --data-binary '{}'
check "PUT JSON" 415 "$STATUS"
check_grep "the 415 links the constraints" "$CONSTRAINED" "$WORK/headers"
req POST "${URL}c/r" "${TTL[@]}" --data-binary '<> <http://ex/p> 1 .'
check "POST to a resource" 405 "$STATUS"
check_grep "the 405 links the constraints" "$CONSTRAINED" "$WORK/headers"
req GET "${URL}nothing"
check_no_grep "a 404 of a read links no constraints" "$CONSTRAINED" "$WORK/headers"
req GET "${URL}.well-known/ldgsm-constraints"
check "the constraints are served" 200 "$STATUS"
check "as text" "text/plain; charset=utf-8" "$(header Content-Type)"
check_grep "they describe containment" 'ldp:contains' "$WORK/body"
req PUT "${URL}.well-known/ldgsm-constraints" "${TTL[@]}" --data-binary '<> <http://ex/p> 1 .'
check "the constraints are read-only" 405 "$STATUS"

# ---------------------------------------------------------------- absolute-form targets
req GET "$URL" --request-target "${URL}c/r"
check "GET in absolute form" 200 "$STATUS"
check "it is the resource" "$etag" "$(header ETag)"
req GET "$URL" --request-target "${URL%/}"
check "GET of the bare authority in absolute form" 200 "$STATUS"
req PUT "$URL" --request-target "${URL}c/abs" "${TTL[@]}" --data-binary '<> <http://ex/p> 1 .'
check "PUT in absolute form" 201 "$STATUS"
check "its Location" "${URL}c/abs" "$(header Location)"
req GET "$URL" --request-target "http://elsewhere.example/c/r"
check "an absolute-form target naming another server" 400 "$STATUS"

# ---------------------------------------------------------------- a 405's Allow
req FROB "${URL}c/r"
check "an unknown method on a resource" 405 "$STATUS"
check_no_grep "its Allow lists no POST" '^Allow: .*POST' "$WORK/headers"
check_grep "its Allow lists PUT" '^Allow: .*PUT' "$WORK/headers"
req FROB "${URL}c/"
check "an unknown method on a container" 405 "$STATUS"
check_grep "its Allow lists POST" '^Allow: .*POST' "$WORK/headers"
req POST "${URL}c/r" "${TTL[@]}" --data-binary '<> <http://ex/p> 1 .'
check_no_grep "a POST to a resource: Allow lists no POST" '^Allow: .*POST' "$WORK/headers"

# ---------------------------------------------------------------- a deleted POST name is never minted again
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: once' --data-binary '<> <http://ex/p> 1 .'
check "POST with Slug once" "${URL}c/once" "$(header Location)"
req DELETE "${URL}c/once"
check "DELETE it" 204 "$STATUS"
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: once' --data-binary '<> <http://ex/p> 2 .'
check "POST with Slug once again" 201 "$STATUS"
second=$(header Location)
[ "$second" != "${URL}c/once" ]
check "the deleted name is not minted again" 0 $?
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: box' -H 'Link: <http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' \
    --data-binary ''
check "POST container box" "${URL}c/box/" "$(header Location)"
req DELETE "${URL}c/box/"
check "DELETE it" 204 "$STATUS"
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: box' --data-binary '<> <http://ex/p> 1 .'
[ "$(header Location)" != "${URL}c/box" ]
check "a deleted container's name is not minted for a resource" 0 $?

# ---------------------------------------------------------------- across a restart
ldp_stop "$PID"
# Last-Modified is read back from the data directory (a date no test run can be at).
touch -m -d '2001-02-03 04:05:06 UTC' "$WORK/data/c/abs"
ldp_start conf2 --data "$WORK/data"
req GET "${URL}c/abs"
check "after a restart Last-Modified is the file's" "Sat, 03 Feb 2001 04:05:06 GMT" "$(header Last-Modified)"
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: once' --data-binary '<> <http://ex/p> 3 .'
check "POST after a restart" 201 "$STATUS"
[ "$(header Location)" != "${URL}c/once" ]
check "after a restart the deleted name is still not minted" 0 $?
check_no_grep "the record of deleted names is not served as a resource" 'ldgsm-deleted' "$WORK/conf2.err"
req GET "${URL}c/r" -H "If-Modified-Since: $modified"
check "after a restart If-Modified-Since the old Last-Modified" 304 "$STATUS"
req GET "${URL}c/r"
check "the ETag survives" "$etag" "$(header ETag)"

# ---------------------------------------------------------------- CORS
ORIGIN=(-H 'Origin: https://app.example')
req OPTIONS "${URL}no/such/thing" "${ORIGIN[@]}" -H 'Access-Control-Request-Method: PUT' \
    -H 'Access-Control-Request-Headers: if-match, content-type'
check "a preflight on a missing path" 204 "$STATUS"
check "it allows the origin" "https://app.example" "$(header Access-Control-Allow-Origin)"
for method in GET HEAD POST PUT DELETE; do
    check_grep "it allows $method" "^Access-Control-Allow-Methods: .*\b$method\b" "$WORK/headers"
done
for h in If-Match If-None-Match Content-Type Authorization Slug Link; do
    check_grep "it allows the header $h" "^Access-Control-Allow-Headers: .*\b$h\b" "$WORK/headers"
done
check_grep "it varies by Origin" '^Vary: .*Origin' "$WORK/headers"
req OPTIONS "${URL}.well-known/ldgsm" "${ORIGIN[@]}" -H 'Access-Control-Request-Method: GET'
check "a preflight on a route" 204 "$STATUS"
req GET "${URL}c/r" "${ORIGIN[@]}"
check "a GET with Origin" 200 "$STATUS"
check "it echoes the origin" "https://app.example" "$(header Access-Control-Allow-Origin)"
for h in ETag Location Link Allow Last-Modified; do
    check_grep "it exposes $h" "^Access-Control-Expose-Headers: .*\b$h\b" "$WORK/headers"
done
check_grep "it varies by Origin" '^Vary: .*Origin' "$WORK/headers"
check "and still carries the ETag" "$etag" "$(header ETag)"
req GET "${URL}c/r"
check "a GET without Origin gets no CORS header" "" "$(header Access-Control-Allow-Origin)"
req PUT "${URL}c/r/under" "${ORIGIN[@]}" "${TTL[@]}" --data-binary '<> <http://ex/p> 1 .'
check "an error answer echoes the origin too" "https://app.example" "$(header Access-Control-Allow-Origin)"
req OPTIONS "${URL}no/such/thing"
check "OPTIONS without Origin on a missing path is still 404" 404 "$STATUS"
ldp_stop "$PID"

ldp_start only --memory --cors-origin https://app.example --cors-origin https://other.example
req OPTIONS "${URL}x" -H 'Origin: https://evil.example' -H 'Access-Control-Request-Method: PUT'
check "a preflight from an origin not configured is no preflight" 404 "$STATUS"
check "and allows no origin" "" "$(header Access-Control-Allow-Origin)"
req GET "$URL" -H 'Origin: https://evil.example'
check "a GET from an origin not configured gets no CORS header" "" "$(header Access-Control-Allow-Origin)"
req GET "$URL" -H 'Origin: https://other.example'
check "a configured origin is echoed" "https://other.example" "$(header Access-Control-Allow-Origin)"
ldp_stop "$PID"
rc=0
ldp_bounded "$BIN" serve --port 0 --memory --cors-origin '' 2>/dev/null || rc=$?
check "an empty --cors-origin is a usage error" 2 "$rc"
ldp_bounded "$BIN" serve --help >"$WORK/help"
check_grep "--help documents --cors-origin" '^  --cors-origin ORIGIN' "$WORK/help"

ldp_finish
