#!/usr/bin/env bash
# tests/ldp/run_ldp_http.sh: speaks HTTP (curl) to running `ldgsm serve` instances and checks every
# behaviour of issue 3 except kill -9 durability (run_ldp_durability.sh): containers, methods, Slug,
# headers, relative IRIs, negotiation, ETags and preconditions, --require-conditional, bad bodies and
# paths, body limit, --token, --data across a restart, --fixtures, the access log, clean shutdown.
# Usage: run_ldp_http.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap ldp_cleanup EXIT

LDP='http://www.w3.org/ns/ldp#'
TTL=(-H 'Content-Type: text/turtle')

# ---------------------------------------------------------------- --help
ldp_bounded "$BIN" serve --help >"$WORK/help"
for flag in --host --port --data --memory --fixtures --fixtures-overwrite --token --require-conditional \
    --max-body --threads; do
    check_grep "--help documents $flag" "^  $flag" "$WORK/help"
done
check_grep "--help gives the default host" "default 127.0.0.1" "$WORK/help"
check_grep "--help gives the default body limit" "default 16777216" "$WORK/help"
rc=0
ldp_bounded "$BIN" serve --port 70000 2>/dev/null || rc=$?
check "a bad --port is a usage error" 2 "$rc"
rc=0
ldp_bounded "$BIN" serve --port 0 --data "$WORK/x" --memory 2>/dev/null || rc=$?
check "--data with --memory is a usage error" 2 "$rc"

# ---------------------------------------------------------------- the root container
ldp_start mem --memory --max-body 2000
check_grep "first stdout line is the base URL" '^http://127\.0\.0\.1:[0-9]+/$' "$WORK/mem.out"
req GET "$URL"
check "GET / status" 200 "$STATUS"
check "GET / Content-Type" "text/turtle" "$(header Content-Type)"
check_grep "GET / says BasicContainer in Link" "<${LDP}BasicContainer>; rel=\"type\"" "$WORK/headers"
check_grep "GET / Allow has POST" '^Allow: .*POST' "$WORK/headers"
check_grep "GET / has Accept-Post" '^Accept-Post: text/turtle' "$WORK/headers"
check_grep "GET / ETag is strong" '^ETag: "[0-9a-f]{32}"' "$WORK/headers"
check_grep "GET / body types the container" "<> a <${LDP}BasicContainer>" "$WORK/body"

# ---------------------------------------------------------------- PUT, GET, relative IRIs
req PUT "${URL}c/x" "${TTL[@]}" --data-binary '<#it> a <http://ex/T> ; <http://ex/p> <other> .'
check "PUT new resource" 201 "$STATUS"
check "PUT Location" "${URL}c/x" "$(header Location)"
etag1=$(header ETag)
req GET "${URL}c/x"
check "GET resource" 200 "$STATUS"
check "GET ETag equals PUT ETag" "$etag1" "$(header ETag)"
check_grep "GET resource body is what was PUT" '^<#it> a <http://ex/T>' "$WORK/body"
check_grep "resource Link says RDFSource" "<${LDP}RDFSource>; rel=\"type\"" "$WORK/headers"
check_no_grep "resource Allow has no POST" '^Allow: .*POST' "$WORK/headers"
req GET "${URL}c/x" -H 'Accept: application/n-triples'
check "GET as N-Triples" "application/n-triples" "$(header Content-Type)"
check_grep "<#it> resolves against the resource" "^<${URL}c/x#it> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex/T> \.$" "$WORK/body"
check_grep "<other> resolves against the resource" "<http://ex/p> <${URL}c/other> \.$" "$WORK/body"
check_grep "Vary: Accept" '^Vary: Accept' "$WORK/headers"
etag_nt=$(header ETag)
[ "$etag_nt" != "$etag1" ]
check "the N-Triples variant has its own ETag" 0 $?
req HEAD "${URL}c/x"
check "HEAD resource" 200 "$STATUS"
check_no_grep "HEAD has no body" '^<#it>' "$WORK/body"
check "HEAD Content-Length" 47 "$(header Content-Length)"
req OPTIONS "${URL}c/x"
check "OPTIONS resource" 204 "$STATUS"
check "OPTIONS Allow" "GET, HEAD, OPTIONS, PUT, PATCH, DELETE" "$(header Allow)"
req OPTIONS "${URL}c/"
check "OPTIONS container Allow" "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE" "$(header Allow)"
req PUT "${URL}c/x" "${TTL[@]}" --data-binary '<#it> a <http://ex/U> .'
check "PUT replace" 204 "$STATUS"
etag2=$(header ETag)
[ "$etag2" != "$etag1" ]
check "a replaced resource gets a new ETag" 0 $?
req PUT "${URL}c/x" -H 'Content-Type: application/n-triples' --data-binary "<${URL}c/x#it> <http://ex/q> \"n\" ."
check "PUT N-Triples" 204 "$STATUS"
req GET "${URL}c/x"
check_grep "N-Triples body served as Turtle" "<http://ex/q> \"n\"" "$WORK/body"

# ---------------------------------------------------------------- containers, POST, Slug
req GET "${URL}c/" -H 'Accept: application/n-triples'
check "PUT created the parent container" 200 "$STATUS"
check_grep "container lists its member" "^<${URL}c/> <${LDP}contains> <${URL}c/x> \.$" "$WORK/body"
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: order 1' --data-binary '<> <http://ex/q> <#me> .'
check "POST with an unsafe Slug" 201 "$STATUS"
generated=$(header Location)
check_grep "an unsafe Slug gets a generated name" "^Location: ${URL}c/[0-9a-f]{16}" "$WORK/headers"
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: order1' --data-binary '<> <http://ex/q> <#me> .'
check "POST with a Slug" 201 "$STATUS"
check "the Slug names the member" "${URL}c/order1" "$(header Location)"
req GET "${URL}c/order1" -H 'Accept: application/n-triples'
check_grep "a POST body's <> and <#me> resolve against the new member" "^<${URL}c/order1> <http://ex/q> <${URL}c/order1#me> \.$" "$WORK/body"
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: order1' --data-binary ''
check "POST with a taken Slug" 201 "$STATUS"
[ "$(header Location)" != "${URL}c/order1" ]
check "a taken Slug gets another name" 0 $?
req POST "${URL}c/" "${TTL[@]}" -H 'Slug: sub' -H "Link: <${LDP}BasicContainer>; rel=\"type\"" --data-binary '<> <http://ex/label> "sub" .'
check "POST a container" 201 "$STATUS"
check "the new container's Location ends in /" "${URL}c/sub/" "$(header Location)"
check_grep "the new container's Link says BasicContainer" "<${LDP}BasicContainer>; rel=\"type\"" "$WORK/headers"
req GET "${URL}c/sub/" -H 'Accept: application/n-triples'
check_grep "a POSTed container keeps its own triples" "^<${URL}c/sub/> <http://ex/label> \"sub\" \.$" "$WORK/body"
req POST "${URL}c/sub/" "${TTL[@]}" -H 'Slug: deep' --data-binary ''
check "POST into a nested container" 201 "$STATUS"
req GET "${URL}c/" -H 'Accept: application/n-triples'
check_grep "container lists the nested container" "<${LDP}contains> <${URL}c/sub/> \.$" "$WORK/body"
check_grep "container lists the generated member" "<${LDP}contains> <${generated}> \.$" "$WORK/body"
req POST "${URL}c/x" "${TTL[@]}" --data-binary ''
check "POST to a resource" 405 "$STATUS"
req POST "${URL}nowhere/" "${TTL[@]}" --data-binary ''
check "POST to a missing container" 404 "$STATUS"
req POST "${URL}c/" "${TTL[@]}" -H "Link: <${LDP}DirectContainer>; rel=\"type\"" --data-binary ''
check "POST a DirectContainer" 400 "$STATUS"
req PUT "${URL}a/b/c" "${TTL[@]}" --data-binary '<> a <http://ex/Deep> .'
check "PUT creates missing containers" 201 "$STATUS"
req GET "${URL}a/" -H 'Accept: application/n-triples'
check_grep "/a/ contains /a/b/" "<${URL}a/> <${LDP}contains> <${URL}a/b/> \.$" "$WORK/body"
req PUT "${URL}a/b" "${TTL[@]}" --data-binary ''
check "PUT a resource where a container has the name" 409 "$STATUS"
req PUT "${URL}c/x/y" "${TTL[@]}" --data-binary ''
check "PUT below a resource" 409 "$STATUS"
req PUT "${URL}c/sub/" "${TTL[@]}" --data-binary "<> <${LDP}contains> <other> ."
check "PUT containment triples on a container" 409 "$STATUS"
req PUT "${URL}c/sub/" "${TTL[@]}" --data-binary '<> <http://ex/label> "renamed" .'
check "PUT a container's own triples" 204 "$STATUS"
req GET "${URL}c/sub/"
check_grep "container keeps its members after PUT" "<${LDP}contains> <deep>" "$WORK/body"
check_grep "container has its new triples" '"renamed"' "$WORK/body"

# ---------------------------------------------------------------- DELETE
req DELETE "${URL}c/sub/"
check "DELETE a non-empty container" 409 "$STATUS"
req DELETE "${URL}c/sub/deep"
check "DELETE a resource" 204 "$STATUS"
check "a DELETE answer has no ETag" "" "$(header ETag)"
req GET "${URL}c/sub/deep"
check "GET a deleted resource" 404 "$STATUS"
req DELETE "${URL}c/sub/"
check "DELETE an empty container" 204 "$STATUS"
req GET "${URL}c/" -H 'Accept: application/n-triples'
check_no_grep "a deleted container is no member" "<${URL}c/sub/>" "$WORK/body"
req DELETE "$URL"
check "DELETE the root" 405 "$STATUS"
req DELETE "${URL}c/sub/"
check "DELETE a missing resource" 404 "$STATUS"
req PROPFIND "${URL}c/x"
check "a method the server does not offer (PATCH: run_ldp_patch.sh)" 405 "$STATUS"
check_grep "405 says what is allowed" '^Allow: ' "$WORK/headers"

# ---------------------------------------------------------------- content negotiation
req GET "${URL}c/x" -H 'Accept: application/ld+json'
check "GET JSON-LD" 406 "$STATUS"
req GET "${URL}c/x" -H 'Accept: text/html, application/xhtml+xml;q=0.9'
check "GET HTML" 406 "$STATUS"
req GET "${URL}c/x" -H 'Accept: */*'
check "Accept */* gets Turtle" "text/turtle" "$(header Content-Type)"
req GET "${URL}c/x" -H 'Accept: text/turtle;q=0.5, application/n-triples'
check "q-values pick N-Triples" "application/n-triples" "$(header Content-Type)"
req GET "${URL}c/x" -H 'Accept: application/rdf+xml'
check "GET RDF/XML" "application/rdf+xml" "$(header Content-Type)"
check_grep "RDF/XML body" "rdf:RDF" "$WORK/body"
req GET "${URL}c/x" -H 'Accept: application/rdf+xml, text/turtle;q=0.1'
check "RDF/XML preferred over Turtle" "application/rdf+xml" "$(header Content-Type)"
cat >"$WORK/doc.rdf" <<'EOF'
<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex/">
  <rdf:Description rdf:about="#thing"><ex:name>from xml</ex:name></rdf:Description>
</rdf:RDF>
EOF
req PUT "${URL}c/xml" -H 'Content-Type: application/rdf+xml' --data-binary "@$WORK/doc.rdf"
check "PUT RDF/XML" 201 "$STATUS"
req GET "${URL}c/xml" -H 'Accept: application/n-triples'
check_grep "an RDF/XML body resolves against the resource" "^<${URL}c/xml#thing> <http://ex/name> \"from xml\" \.$" "$WORK/body"
req PUT "${URL}c/j" -H 'Content-Type: application/ld+json' --data-binary '{}'
check "PUT JSON-LD" 415 "$STATUS"
req PUT "${URL}c/j" --data-binary '<a> <b> <c> .' -H 'Content-Type:'
check "PUT without Content-Type" 415 "$STATUS"

# ---------------------------------------------------------------- ETags and preconditions
req GET "${URL}c/x"
etag=$(header ETag)
req GET "${URL}c/x" -H "If-None-Match: $etag"
check "conditional GET of an unchanged resource" 304 "$STATUS"
check "304 carries the ETag" "$etag" "$(header ETag)"
req PUT "${URL}c/x" "${TTL[@]}" -H 'If-Match: "0000"' --data-binary '<#it> a <http://ex/Lost> .'
check "PUT with a stale If-Match" 412 "$STATUS"
req GET "${URL}c/x"
check_no_grep "a 412 PUT changes nothing" 'Lost' "$WORK/body"
req PUT "${URL}c/x" "${TTL[@]}" -H "If-Match: W/$etag" --data-binary '<#it> a <http://ex/Lost> .'
check "a weak If-Match never matches" 412 "$STATUS"
req PUT "${URL}c/x" "${TTL[@]}" -H "If-Match: \"1111\", $etag" --data-binary '<#it> a <http://ex/Won> .'
check "PUT with a matching If-Match" 204 "$STATUS"
req PUT "${URL}c/x" "${TTL[@]}" -H "If-Match: $etag" --data-binary '<#it> a <http://ex/Lost> .'
check "the second writer with the same If-Match loses" 412 "$STATUS"
req PUT "${URL}c/x" "${TTL[@]}" -H 'If-None-Match: *' --data-binary '<#it> a <http://ex/Lost> .'
check "create-only PUT on an existing resource" 412 "$STATUS"
req PUT "${URL}c/only" "${TTL[@]}" -H 'If-None-Match: *' --data-binary '<#it> a <http://ex/New> .'
check "create-only PUT on a new resource" 201 "$STATUS"
req PUT "${URL}c/missing" "${TTL[@]}" -H 'If-Match: *' --data-binary ''
check "If-Match: * on a missing resource" 412 "$STATUS"
req GET "${URL}c/x"
etag=$(header ETag)
req DELETE "${URL}c/x" -H 'If-Match: "0000"'
check "DELETE with a stale If-Match" 412 "$STATUS"
req GET "${URL}c/x" -H 'Accept: application/n-triples'
nt_etag=$(header ETag)
req PUT "${URL}c/x" "${TTL[@]}" -H "If-Match: $nt_etag" --data-binary '<#it> a <http://ex/ViaNt> .'
check "If-Match with the N-Triples variant's ETag" 204 "$STATUS"
req GET "${URL}c/"
c_etag=$(header ETag)
req POST "${URL}c/" "${TTL[@]}" --data-binary ''
req GET "${URL}c/"
[ "$(header ETag)" != "$c_etag" ]
check "a container's ETag changes with its members" 0 $?

# ---------------------------------------------------------------- bad bodies, sizes, paths
req PUT "${URL}c/x" "${TTL[@]}" --data-binary $'<#it> a <http://ex/T> .\n<#it> <http://ex/p> "unterminated .\n'
check "PUT invalid Turtle" 400 "$STATUS"
check_grep "the 400 gives the line" 'body:[0-9]+(:[0-9]+)?: ' "$WORK/body"
req GET "${URL}c/x"
check_grep "an invalid PUT stores nothing" 'ViaNt' "$WORK/body"
req PUT "${URL}c/bad" "${TTL[@]}" --data-binary '<a> <b> .'
check "PUT invalid Turtle (new)" 400 "$STATUS"
req GET "${URL}c/bad"
check "an invalid new resource is not created" 404 "$STATUS"
head -c 3000 /dev/zero | tr '\0' ' ' >"$WORK/big"
req PUT "${URL}c/big" "${TTL[@]}" --data-binary "@$WORK/big"
check "PUT over --max-body" 413 "$STATUS"
req PUT "${URL}c/big" "${TTL[@]}" -H 'Transfer-Encoding: chunked' --data-binary "@$WORK/big"
check "chunked PUT over --max-body" 413 "$STATUS"
for bad in 'c/%2e%2e/x' 'c/../x' 'c/a%2Fb' 'c/a%01b' 'c/./x' 'c//x' 'c/.hidden' 'c/%zz'; do
    req GET "${URL}${bad}" --path-as-is
    check "GET /$bad" 400 "$STATUS"
    req PUT "${URL}${bad}" --path-as-is "${TTL[@]}" --data-binary ''
    check "PUT /$bad" 400 "$STATUS"
done
req PUT "${URL}c/caf%C3%A9%20au%20lait" "${TTL[@]}" --data-binary ''
check "PUT an escaped name" 201 "$STATUS"
check "its Location is escaped the same way" "${URL}c/caf%C3%A9%20au%20lait" "$(header Location)"
req GET "${URL}c/" -H 'Accept: application/n-triples'
check_grep "the container lists the escaped name" "<${URL}c/caf%C3%A9%20au%20lait> \.$" "$WORK/body"

# ---------------------------------------------------------------- the access log
check_grep "access log line: method path status bytes microseconds" '^GET /c/x 200 [0-9]+ [0-9]+us$' "$WORK/mem.err"
check_grep "access log has writes" '^PUT /c/x 412 [0-9]+ [0-9]+us$' "$WORK/mem.err"
ldp_stop "$PID" INT

# ---------------------------------------------------------------- --token
ldp_start token --token s3cret
req PUT "${URL}t" "${TTL[@]}" --data-binary ''
check "PUT without a token" 401 "$STATUS"
check "401 says Bearer" 'Bearer realm="ldgsm"' "$(header WWW-Authenticate)"
req PUT "${URL}t" "${TTL[@]}" -H 'Authorization: Bearer wrong!' --data-binary ''
check "PUT with a wrong token" 401 "$STATUS"
req PUT "${URL}t" "${TTL[@]}" -H 'Authorization: Bearer s3cret' --data-binary ''
check "PUT with the token" 201 "$STATUS"
req POST "$URL" "${TTL[@]}" --data-binary ''
check "POST without a token" 401 "$STATUS"
req DELETE "${URL}t"
check "DELETE without a token" 401 "$STATUS"
req GET "${URL}t"
check "GET needs no token" 200 "$STATUS"
ldp_stop "$PID"

# ---------------------------------------------------------------- --require-conditional
ldp_start strict --require-conditional
req PUT "${URL}s" "${TTL[@]}" --data-binary '<#a> <#b> 1 .'
check "creating needs no condition" 201 "$STATUS"
etag=$(header ETag)
req PUT "${URL}s" "${TTL[@]}" --data-binary '<#a> <#b> 2 .'
check "an unconditional PUT of an existing resource" 428 "$STATUS"
req DELETE "${URL}s"
check "an unconditional DELETE" 428 "$STATUS"
req PUT "${URL}s" "${TTL[@]}" -H "If-Match: $etag" --data-binary '<#a> <#b> 2 .'
check "a conditional PUT" 204 "$STATUS"
ldp_stop "$PID"
ldp_start prefixed --require-conditional=/status/ --require-conditional=/other/
req PUT "${URL}status/doc" "${TTL[@]}" --data-binary ''
req PUT "${URL}status/doc" "${TTL[@]}" --data-binary ''
check "a status path needs a condition" 428 "$STATUS"
req PUT "${URL}devices/door" "${TTL[@]}" --data-binary ''
req PUT "${URL}devices/door" "${TTL[@]}" --data-binary ''
check "a path outside the prefixes does not" 204 "$STATUS"
ldp_stop "$PID"

# ---------------------------------------------------------------- --data across a restart, --fixtures
mkdir -p "$WORK/fixtures/devices/lamps"
printf '<#it> a <http://ex/Door> ; <http://ex/state> "closed" .\n' >"$WORK/fixtures/devices/door"
printf '<#it> a <http://ex/Alarm> .\n' >"$WORK/fixtures/devices/alarm.ttl"
printf '<> <http://ex/label> "all devices" .\n' >"$WORK/fixtures/devices/.container.ttl"
ldp_start data1 --data "$WORK/data" --fixtures "$WORK/fixtures"
check_grep "fixtures are counted" 'fixtures .*: 4 written, 0 already held' "$WORK/data1.err"
req GET "${URL}devices/door" -H 'Accept: application/n-triples'
check "a fixture file is served" 200 "$STATUS"
check_grep "a fixture resolves against its path" "^<${URL}devices/door#it> <http://ex/state> \"closed\" \.$" "$WORK/body"
req GET "${URL}devices/lamps/"
check "a fixture folder is a container" 200 "$STATUS"
req GET "${URL}devices/" -H 'Accept: application/n-triples'
check_grep "a folder's .container.ttl gives its triples" "<${URL}devices/> <http://ex/label> \"all devices\"" "$WORK/body"
req PUT "${URL}devices/door" "${TTL[@]}" --data-binary '<#it> a <http://ex/Door> ; <http://ex/state> "open" .'
check "PUT over a fixture" 204 "$STATUS"
door_etag=$(header ETag)
req POST "${URL}devices/" "${TTL[@]}" -H 'Slug: window' --data-binary '<#it> a <http://ex/Window> .'
req POST "${URL}" "${TTL[@]}" -H 'Slug: box' -H "Link: <${LDP}BasicContainer>; rel=\"type\"" --data-binary '<> <http://ex/label> "box" .'
req GET "${URL}devices/"
devices_etag=$(header ETag)
check "the data directory holds the resource as a file" "$(printf '<#it> a <http://ex/Door> ; <http://ex/state> "open" .')" "$(cat "$WORK/data/devices/door")"
ldp_stop "$PID"
ls -A "$WORK/data/devices" >"$WORK/listing"
check_no_grep "no temporary files are left" '^\.tmp\.' "$WORK/listing"

ldp_start data2 --data "$WORK/data" --fixtures "$WORK/fixtures"
check_grep "a restart keeps what --data holds" 'fixtures .*: 0 written, 4 already held' "$WORK/data2.err"
req GET "${URL}devices/door"
check_grep "the PUT survives the restart" '"open"' "$WORK/body"
check "the ETag survives the restart" "$door_etag" "$(header ETag)"
req GET "${URL}devices/window"
check "the POSTed member survives the restart" 200 "$STATUS"
req GET "${URL}box/" -H 'Accept: application/n-triples'
check_grep "the POSTed container's triples survive the restart" '"box"' "$WORK/body"
req GET "${URL}devices/"
check "the container's ETag survives the restart" "$devices_etag" "$(header ETag)"
ldp_stop "$PID"

ldp_start data3 --data "$WORK/data" --fixtures "$WORK/fixtures" --fixtures-overwrite
req GET "${URL}devices/door"
check_grep "--fixtures-overwrite replaces what --data holds" '"closed"' "$WORK/body"
req GET "${URL}devices/window"
check "--fixtures-overwrite keeps other resources" 200 "$STATUS"
ldp_stop "$PID"

printf '<#it> <http://ex/p> "broken .\n' >"$WORK/fixtures/devices/broken"
rc=0
ldp_bounded "$BIN" serve --port 0 --memory --fixtures "$WORK/fixtures" >"$WORK/broken.out" 2>"$WORK/broken.err" || rc=$?
check "a fixture that is not Turtle stops the server" 1 "$rc"
check_grep "the error names the fixture file and line" 'devices/broken:1' "$WORK/broken.err"

ldp_finish
