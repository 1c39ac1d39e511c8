#!/usr/bin/env bash
# tests/ldp/run_ldp_solid.sh: `ldgsm serve` as a Solid storage (ldp_server.h design note 10), and its page
# rendering beside other requests (issue 12).
#  - The root's GET, HEAD and OPTIONS answers carry `Link: <pim:Storage>; rel="type"`; every resource's
#    and container's GET, HEAD and OPTIONS answers carry the storage description's Link
#    (rel="http://www.w3.org/ns/solid/terms#storageDescription", /.well-known/solid, as Community Solid
#    Server 7.2.0 names it); no other resource is typed pim:Storage.
#  - The description holds exactly its triples (the root a pim:Storage, ldp:constrainedBy the
#    constraints, PATCH with solid:InsertDeletePatch as a hydra:supportedOperation, the notification
#    services: run_notifications.sh and run_notifications_webhook.sh test them), the same in Turtle,
#    N-Triples and RDF/XML; an unacceptable Accept gets 406; writes get 405 with Allow: GET, HEAD and
#    change nothing.
#  - The page (/.well-known/ldgsm) parses without stalling the server: while it reads documents (server
#    CPU spent on them, its answer not yet come; its reader parsing beside) PUTs of Turtle and RDF/XML
#    (each told to the page's reader by the store's hook) and N-Triples GETs are answered;
#    and page renders of a workflow whose sentries are SPARQL text (rasqal) run beside RDF/XML PUTs and
#    GETs again and again, every answer right, the server stopping cleanly (no sanitizer report).
# Usage: run_ldp_solid.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d /tmp/ldgsm-solid.XXXXXX)
. "$(dirname "$0")/lib.sh"
PAGE_PID=
trap '[ -n "$PAGE_PID" ] && kill "$PAGE_PID" 2>/dev/null; ldp_cleanup' EXIT

command -v python3 >/dev/null || { echo "python3 is needed to make the documents" >&2; exit 77; }

TTL=(-H 'Content-Type: text/turtle')
XML=(-H 'Content-Type: application/rdf+xml')
AS_NT=(-H 'Accept: application/n-triples')
PIM_STORAGE='<http://www.w3.org/ns/pim/space#Storage>; rel="type"'
DESCRIBED='rel="http://www.w3.org/ns/solid/terms#storageDescription"'

# links NAME: the Link header values of the last req, one link a line, in $WORK/NAME.links.
links() {
    grep -i '^Link:' "$WORK/headers" | sed -e 's/^[^:]*: *//' -e 's/\r$//' | sed 's/>, </>\n</g' >"$WORK/$1.links"
}

# canonical FILE: N-Triples lines sorted, blank node labels as _:b (the description has one).
canonical() { sed -E 's/_:[A-Za-z0-9_]+/_:b/g' "$1" | sort; }

# ---------------------------------------------------------------- the storage and its description
ldp_start solid --memory
DESCRIPTION="${URL}.well-known/solid"
req PUT "${URL}c/r" "${TTL[@]}" --data-binary '<#it> <http://ex/p> 1 .'
check "PUT a resource" 201 "$STATUS"

for target in "" c/ c/r; do
    for method in GET HEAD OPTIONS; do
        what="$method /$target"
        req "$method" "${URL}$target"
        check "$what: status" "$([ "$method" = OPTIONS ] && echo 204 || echo 200)" "$STATUS"
        links answer
        check_grep "$what: the storage description's Link" "^<${DESCRIPTION}>; ${DESCRIBED}\$" "$WORK/answer.links"
        if [ -z "$target" ]; then
            check_grep "$what: the root is typed pim:Storage" "^${PIM_STORAGE}\$" "$WORK/answer.links"
        else
            check_no_grep "$what: not typed pim:Storage" 'pim/space#Storage' "$WORK/answer.links"
        fi
    done
done

req GET "$DESCRIPTION"
check "GET the description" 200 "$STATUS"
check "the description in Turtle by default" "text/turtle" "$(header Content-Type)"
check "its Vary" "Accept, Origin" "$(header Vary)"
mkdir -p "$WORK/parse/.well-known"
cp "$WORK/body" "$WORK/parse/description.ttl"
req HEAD "$DESCRIPTION"
check "HEAD the description" 200 "$STATUS"
req GET "$DESCRIPTION" "${AS_NT[@]}"
check "the description as N-Triples" "200 application/n-triples" "$STATUS $(header Content-Type)"
cp "$WORK/body" "$WORK/description.nt"
req GET "$DESCRIPTION" -H 'Accept: application/rdf+xml'
check "the description as RDF/XML" "200 application/rdf+xml" "$STATUS $(header Content-Type)"
# Read where its relative IRIs resolve as they do at the server: a file .well-known/solid below a directory
# standing for the root.
cp "$WORK/body" "$WORK/parse/.well-known/solid.rdf"

RDF='http://www.w3.org/1999/02/22-rdf-syntax-ns#'
HYDRA='http://www.w3.org/ns/hydra/core#'
NOTIFY='http://www.w3.org/ns/solid/notifications#'
cat >"$WORK/expected.nt" <<EOF
<${URL}> <${RDF}type> <http://www.w3.org/ns/pim/space#Storage> .
<${URL}> <http://www.w3.org/ns/ldp#constrainedBy> <${URL}.well-known/ldgsm-constraints> .
<${URL}> <${HYDRA}supportedOperation> _:op .
_:op <${RDF}type> <${HYDRA}Operation> .
_:op <${HYDRA}method> "PATCH" .
_:op <${HYDRA}expects> <http://www.w3.org/ns/solid/terms#InsertDeletePatch> .
<${URL}> <${NOTIFY}subscription> <${URL}.notifications/WebSocketChannel2023/> .
<${URL}.notifications/WebSocketChannel2023/> <${NOTIFY}channelType> <${NOTIFY}WebSocketChannel2023> .
<${URL}.notifications/WebSocketChannel2023/> <${NOTIFY}feature> <${NOTIFY}endAt> .
<${URL}.notifications/WebSocketChannel2023/> <${NOTIFY}feature> <${NOTIFY}rate> .
<${URL}.notifications/WebSocketChannel2023/> <${NOTIFY}feature> <${NOTIFY}startAt> .
<${URL}.notifications/WebSocketChannel2023/> <${NOTIFY}feature> <${NOTIFY}state> .
<${URL}> <${NOTIFY}subscription> <${URL}.notifications/WebhookChannel2023/> .
<${URL}.notifications/WebhookChannel2023/> <${NOTIFY}channelType> <${NOTIFY}WebhookChannel2023> .
<${URL}.notifications/WebhookChannel2023/> <${NOTIFY}feature> <${NOTIFY}endAt> .
<${URL}.notifications/WebhookChannel2023/> <${NOTIFY}feature> <${NOTIFY}rate> .
<${URL}.notifications/WebhookChannel2023/> <${NOTIFY}feature> <${NOTIFY}startAt> .
<${URL}.notifications/WebhookChannel2023/> <${NOTIFY}feature> <${NOTIFY}state> .
EOF
canonical "$WORK/expected.nt" >"$WORK/expected.sorted"
"$BIN" reason --pass -o ntriples "$WORK/parse/description.ttl" >"$WORK/from-turtle.nt" 2>"$WORK/reason.err"
check "ldgsm reads the Turtle description" 0 $?
canonical "$WORK/from-turtle.nt" >"$WORK/from-turtle.sorted"
diff "$WORK/expected.sorted" "$WORK/from-turtle.sorted" >&2
check "the Turtle description holds exactly the storage's triples" 0 $?
canonical "$WORK/description.nt" >"$WORK/from-nt.sorted"
diff "$WORK/expected.sorted" "$WORK/from-nt.sorted" >&2
check "the N-Triples description: the same triples" 0 $?
"$BIN" reason --pass -o ntriples "$WORK/parse/.well-known/solid.rdf" 2>>"$WORK/reason.err" |
    sed "s#file://$WORK/parse/#${URL}#g" >"$WORK/from-rdfxml.nt"
canonical "$WORK/from-rdfxml.nt" >"$WORK/from-rdfxml.sorted"
diff "$WORK/expected.sorted" "$WORK/from-rdfxml.sorted" >&2
check "the RDF/XML description: the same triples" 0 $?

req GET "${URL}.well-known/ldgsm-constraints"
check "the constraints it names are served" 200 "$STATUS"
req GET "$DESCRIPTION" -H 'Accept: image/png'
check "the description for an unacceptable Accept" 406 "$STATUS"

req GET "$DESCRIPTION"
cp "$WORK/body" "$WORK/description-before.ttl"
for method in PUT POST PATCH DELETE OPTIONS; do
    type=(-H 'Content-Type: text/turtle')
    [ "$method" = PATCH ] && type=(-H 'Content-Type: text/n3')
    req "$method" "$DESCRIPTION" "${type[@]}" --data-binary '<#a> <#b> <#c> .'
    check "$method the description" "405 GET, HEAD" "$STATUS $(header Allow)"
done
req GET "$DESCRIPTION"
cmp -s "$WORK/body" "$WORK/description-before.ttl"
check "the description is unchanged by the refused writes" 0 $?
ldp_stop "$PID"

# ---------------------------------------------------------------- the page beside other requests
# LDP_SOLID_TRIPLES (60000) sizes them: the sanitizer build takes fewer, its parse being slower anyway.
python3 - "$WORK" "${LDP_SOLID_TRIPLES:-60000}" <<'EOF'
import sys
with open(sys.argv[1] + '/big.ttl', 'w') as f:
    f.write('<#it> a <http://purl.org/gsm/vocab#StageInstance> ; '
            '<http://purl.org/gsm/vocab#hasState> <http://purl.org/gsm/vocab#uninitialized> .\n')
    for i in range(int(sys.argv[2])):
        f.write('<#s%d> <#note> "not a StageInstance %d" .\n' % (i, i))
EOF
cat >"$WORK/small.rdf" <<'EOF'
<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:about="#a"><ex:p>N</ex:p></rdf:Description>
</rdf:RDF>
EOF

# Documents of an instance each, not set up, and nothing to draw: the page's reader parses each once
# written, and the page parses each again for its row's why lines: the whole render is parsing. Once the
# server has spent 0.3 s of CPU (a bounded wait), small PUTs (each queued for the page's reader by the
# store's hook) and N-Triples GETs (each a parse) must be answered while the page's headers have still
# not come: a lock the page held while parsing, or the hook waiting for the page, would hold the first
# of them until its answer is ready. (Only the first round is checked against the page: under load the
# page may end before all three, while a lock fails the first.)
ldp_start stall --memory --threads 4
for i in 1 2 3 4 5 6; do
    req PUT "${URL}big$i" "${TTL[@]}" --data-binary @"$WORK/big.ttl"
    check "PUT document $i of ${LDP_SOLID_TRIPLES:-60000} triples" 201 "$STATUS"
done
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$PID/stat"; }
before=$(cpu_ticks)
: >"$WORK/page.headers"
# (the render takes a while: under the sanitizer build on a loaded machine, a minute)
curl --max-time $((LDP_WAIT * 3)) -s -o "$WORK/page.html" -D "$WORK/page.headers" "${URL}.well-known/ldgsm" &
PAGE_PID=$!
for i in $(seq $((LDP_WAIT * 100))); do
    [ $(($(cpu_ticks) - before)) -ge 30 ] && break
    sleep 0.01
done
[ ! -s "$WORK/page.headers" ]
check "the page is being rendered (0.3 s of server CPU) and has not answered yet" 0 $?
for i in 1 2 3; do
    req PUT "${URL}small" "${TTL[@]}" --data-binary "<#a> <#b> $i ."
    check "Turtle PUT $i while the page renders" "$([ $i = 1 ] && echo 201 || echo 204)" "$STATUS"
    req PUT "${URL}small.rdf" "${XML[@]}" --data-binary @"$WORK/small.rdf"
    check "RDF/XML PUT $i while the page renders" "$([ $i = 1 ] && echo 201 || echo 204)" "$STATUS"
    req GET "${URL}small" "${AS_NT[@]}"
    check "N-Triples GET $i while the page renders" 200 "$STATUS"
    check_grep "the GET sees PUT $i" "\"$i\"\\^\\^" "$WORK/body"
    [ $i = 1 ] && { [ ! -s "$WORK/page.headers" ]; first_round_before_page=$?; }
done
check "the first round of small requests was answered before the page" 0 "$first_round_before_page"
ldp_await "$PAGE_PID"
PAGE_PID=
check_grep "the page itself is served" '^HTTP/1.1 200' "$WORK/page.headers"
check_grep "... listing the 6 instances" '<b>6</b> instances' "$WORK/page.html"
ldp_stop "$PID"

# The fire-alarm workflow (SPARQL text sentries: rasqal) read again and again beside RDF/XML writes and
# reads: every answer right, and the server stops cleanly. (Whether each page has its drawing is not
# checked: the drawing forks, and under AddressSanitizer (GCC 12) a child forked while another thread
# holds the sanitizer's allocator lock waits for ever, so that drawing times out.)
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/fire-alarm" && pwd)
ldp_start beside --memory --threads 4 --fixtures "$fixtures"
readers=()
for r in 1 2; do
    ( for _ in 1 2 3 4 5; do
        code=$(curl -s -o "$WORK/beside-page.$r" -w '%{http_code}' "${URL}.well-known/ldgsm")
        echo "$code $(grep -o '<td class="state ' "$WORK/beside-page.$r" | wc -l)"
    done >"$WORK/readers.$r" ) &
    readers+=($!)
done
for i in $(seq 20); do
    sed "s/>N</>$i</" "$WORK/small.rdf" >"$WORK/beside.rdf"
    req PUT "${URL}beside/r$((i % 3))" "${XML[@]}" --data-binary @"$WORK/beside.rdf"
    case $STATUS in 201 | 204) written=yes ;; *) written=$STATUS ;; esac
    check "RDF/XML PUT $i beside the page renders" yes "$written"
    req GET "${URL}beside/r$((i % 3))" -H 'Accept: application/rdf+xml'
    check "RDF/XML GET $i beside the page renders" 200 "$STATUS"
    check_grep "the GET $i sees its PUT" ">$i<" "$WORK/body"
done
for reader in "${readers[@]}"; do ldp_await "$reader"; done
check "10 page renders beside them: all 200, each with the instance's states" 10 "$(cat "$WORK"/readers.* | grep -c '^200 1$')"
ldp_stop "$PID"
check_no_grep "no sanitizer report" 'ERROR: AddressSanitizer|runtime error:' "$WORK/beside.err"

ldp_finish
