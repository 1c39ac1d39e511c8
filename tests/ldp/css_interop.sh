#!/usr/bin/env bash
# tests/ldp/css_interop.sh: runs the same LDP container/resource interactions against `ldgsm serve
# --memory` and Community Solid Server 7.2.0 (in memory, no authorization, 127.0.0.1) and prints a
# markdown table of what each answered, differences marked, so that tests and the agent can use
# either server knowingly. tests/ldp/CSS-DIFFERENCES.md explains the differences and lists, in its
# expected-differences comment, the rows that differ; the run fails when a row differs that is not
# listed, or a listed row no longer differs or no longer gives the answers the table there records.
# ctest runs it as ldp_css_interop in the plain build (CSS takes 5-40 s to start and needs node_modules).
# Exit 77 when CSS is not installed.
# Usage: css_interop.sh PATH/TO/ldgsm [OUTPUT.md]; `css_interop.sh build/ldgsm tests/ldp/CSS-DIFFERENCES.md`
# writes the run's table into it.
set -uo pipefail
BIN=${1:?usage: css_interop.sh PATH/TO/ldgsm [OUTPUT.md]}
OUTPUT=${2:-}
WORK=$(mktemp -d /tmp/ldgsm-css-interop.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/css.sh"
trap 'css_stop; ldp_cleanup' EXIT

if ! css_available; then
    echo "css_interop.sh: Community Solid Server is not installed (run scripts/peers.sh)" >&2
    exit 77
fi

LDP='http://www.w3.org/ns/ldp#'
TTL=(-H 'Content-Type: text/turtle')

# Prints one "id|interaction|result" line per interaction against base URL $1. Results name what a
# client would act on: the status, and the header or body fact the interaction is about, with the
# base URL written as '/'.
interactions() {
    local U=$1 etag location
    out() { printf '%s|%s|%s\n' "$1" "$2" "${3//$U//}"; }
    etag_kind() {
        case $(header ETag) in
        W/*) echo weak ;;
        '"'*) echo strong ;;
        '') echo none ;;
        *) echo other ;;
        esac
    }
    has_link() { grep -qi "^Link:.*<${LDP}$1>; *rel=\"type\"" "$WORK/headers" && echo "$1" || echo "no $1"; }
    # The methods of Allow in one order: the order means nothing.
    allowed() { header Allow | tr -d ' ' | tr ',' '\n' | sort | paste -s -d ' '; }
    constrained() { grep -qi '^Link:.*rel="http://www.w3.org/ns/ldp#constrainedBy"' "$WORK/headers" && echo constrainedBy || echo "no constrainedBy"; }

    req GET "$U"
    out root "GET / (root container)" "$STATUS $(header Content-Type | cut -d';' -f1), $(has_link BasicContainer)"
    req PUT "${U}t/r" "${TTL[@]}" --data-binary '<#it> a <http://ex/T> ; <http://ex/p> <other> .'
    out put-create "PUT a new resource in a missing container" "$STATUS"
    req GET "${U}t/"
    out parent "GET the container PUT created on the way" "$STATUS $(has_link BasicContainer)"
    req GET "${U}t/r"
    etag=$(header ETag)
    out get "GET the resource" "$STATUS $(header Content-Type | cut -d';' -f1), ETag $(etag_kind), $(has_link RDFSource)"
    out allow-resource "Allow on a resource (sorted)" "$(allowed)"
    req GET "${U}t/r" -H 'Accept: application/n-triples'
    local it
    it=$(grep -c "^<${U}t/r#it> <http://ex/p> <${U}t/other> \.$" "$WORK/body")
    out nt "GET as N-Triples; <#it> and <other> resolved against the resource" "$STATUS $(header Content-Type | cut -d';' -f1), resolved=$it"
    req GET "${U}t/r" -H 'Accept: application/rdf+xml'
    out rdfxml "GET as RDF/XML" "$STATUS $(header Content-Type | cut -d';' -f1)"
    req GET "${U}t/r" -H 'Accept: application/ld+json'
    out jsonld "GET as JSON-LD" "$STATUS $(header Content-Type | cut -d';' -f1)"
    req GET "${U}t/r" -H 'Accept: text/html'
    out html "GET as text/html only" "$STATUS"
    req HEAD "${U}t/r"
    out head "HEAD the resource" "$STATUS"
    req OPTIONS "${U}t/r"
    out options "OPTIONS the resource" "$STATUS"
    req GET "${U}t/r" -H "If-None-Match: $etag"
    out conditional-get "GET with If-None-Match: current ETag" "$STATUS"
    req PUT "${U}t/r" "${TTL[@]}" --data-binary '<#it> a <http://ex/U> .'
    out put-replace "PUT replacing the resource" "$STATUS"
    req GET "${U}t/r"
    etag=$(header ETag)
    req PUT "${U}t/r" "${TTL[@]}" -H 'If-Match: "stale"' --data-binary '<#it> a <http://ex/Lost> .'
    out if-match-stale "PUT with a stale If-Match" "$STATUS"
    req PUT "${U}t/r" "${TTL[@]}" -H "If-Match: $etag" --data-binary '<#it> a <http://ex/V> .'
    out if-match "PUT with the current If-Match" "$STATUS"
    req PUT "${U}t/r" "${TTL[@]}" -H "If-Match: $etag" --data-binary '<#it> a <http://ex/Lost> .'
    out if-match-again "PUT again with the ETag the previous PUT replaced" "$STATUS"
    req PUT "${U}t/r" "${TTL[@]}" -H 'If-None-Match: *' --data-binary '<#it> a <http://ex/Lost> .'
    out create-only-existing "PUT with If-None-Match: * on an existing resource" "$STATUS"
    req PUT "${U}t/new" "${TTL[@]}" -H 'If-None-Match: *' --data-binary ''
    out create-only-new "PUT with If-None-Match: * on a new resource" "$STATUS"
    req PUT "${U}t/bad" "${TTL[@]}" --data-binary '<a> <b> .'
    out bad-turtle "PUT a body that is not Turtle" "$STATUS"
    req GET "${U}t/bad"
    out bad-turtle-stored "GET after that PUT" "$STATUS"
    req PUT "${U}t/ct" --data-binary '<a> <b> <c> .' -H 'Content-Type:'
    out no-content-type "PUT without Content-Type" "$STATUS"
    req PUT "${U}t/json" -H 'Content-Type: application/ld+json' --data-binary '{"@id": "#x", "http://ex/p": "v"}'
    out jsonld-body "PUT a JSON-LD body" "$STATUS"
    req POST "${U}t/" "${TTL[@]}" -H 'Slug: s1' --data-binary '<> <http://ex/p> <#me> .'
    location=$(header Location)
    out post-slug "POST with Slug: s1" "$STATUS Location=$location"
    req GET "$location" -H 'Accept: application/n-triples'
    out post-relative "a POST body's <> and <#me> resolve against the new member" "resolved=$(grep -c "^<$location> <http://ex/p> <$location#me> \.$" "$WORK/body")"
    req POST "${U}t/" "${TTL[@]}" -H 'Slug: s1' --data-binary ''
    out post-slug-taken "POST with the same Slug again" "$STATUS $([ "$(header Location)" = "$location" ] && echo same-name || echo other-name)"
    req POST "${U}t/" "${TTL[@]}" -H 'Slug: c1' -H "Link: <${LDP}BasicContainer>; rel=\"type\"" --data-binary ''
    out post-container "POST with Link BasicContainer, Slug: c1" "$STATUS Location=$(header Location)"
    req POST "${U}t/" "${TTL[@]}" --data-binary ''
    out post-no-slug "POST without Slug" "$STATUS $(header Location | sed -E 's#.*/t/##; s#[0-9a-f]#h#g')"
    req GET "${U}t/"
    out accept-post "Accept-Post on a container" "$([ -n "$(header Accept-Post)" ] && echo present || echo absent)"
    out allow-container "Allow on a container (sorted)" "$(allowed)"
    local c_etag
    c_etag=$(header ETag)
    req GET "${U}t/" -H 'Accept: application/n-triples'
    out contains "container lists its members with ldp:contains" "$(grep -c "^<${U}t/> <${LDP}contains> " "$WORK/body") members"
    req PUT "${U}t/s1" "${TTL[@]}" --data-binary '<> <http://ex/p> "changed" .'
    req GET "${U}t/"
    out container-etag "container ETag after a member's content changed" "$([ "$(header ETag)" = "$c_etag" ] && echo unchanged || echo changed)"
    req POST "${U}t/r" "${TTL[@]}" --data-binary ''
    out post-resource "POST to a non-container" "$STATUS"
    req PUT "${U}t/c1" "${TTL[@]}" --data-binary ''
    out put-over-container "PUT t/c1 while container t/c1/ exists" "$STATUS"
    req PUT "${U}t/r/x" "${TTL[@]}" --data-binary ''
    out put-below-resource "PUT below a resource (t/r/x)" "$STATUS"
    req PUT "${U}t/c1/" "${TTL[@]}" --data-binary "<> <${LDP}contains> <zz> ."
    out put-containment "PUT containment triples on a container" "$STATUS"
    printf '@prefix solid: <http://www.w3.org/ns/solid/terms#>.\n@prefix ex: <http://ex/>.\n_:rename a solid:InsertDeletePatch;\n  solid:inserts { <#it> ex:q 1. }.\n' >"$WORK/patch.n3"
    req PATCH "${U}t/r" -H 'Content-Type: text/n3' --data-binary "@$WORK/patch.n3"
    out patch "PATCH with an N3 Patch" "$STATUS"
    # Issue 12, N3 Patch (Solid Protocol): insert, delete, where, and their refusals, on t/p.
    n3patch() { # n3patch URL CLAUSES [curl options...]
        local url=$1
        printf '@prefix solid: <http://www.w3.org/ns/solid/terms#>.\n@prefix ex: <http://ex/>.\n_:p a solid:InsertDeletePatch;\n%s\n' "$2" >"$WORK/n3patch.n3"
        shift 2
        req PATCH "$url" -H 'Content-Type: text/n3' --data-binary "@$WORK/n3patch.n3" "$@"
    }
    p_has() { req GET "${U}t/p" -H 'Accept: application/n-triples'; grep -c "^<${U}t/p#$1> <http://ex/$2> $3 \.$" "$WORK/body"; }
    # How many ex:q triples t/p holds: a refused patch below inserts one, so q=0 shows it changed nothing.
    p_q() { req GET "${U}t/p" -H 'Accept: application/n-triples'; grep -c "<http://ex/q>" "$WORK/body"; }
    # A PATCH that applied without creating: ldgsm answers 204, CSS 205 (row "patch" shows which).
    applied() { case $STATUS in 200 | 204 | 205) echo applied ;; *) echo "$STATUS" ;; esac; }
    local int='"%s"^^<http://www.w3.org/2001/XMLSchema#integer>' p_etag
    req GET "${U}t/r"
    out accept-patch "Accept-Patch on a resource" "$(header Accept-Patch | cut -d';' -f1)"
    n3patch "${U}t/p" 'solid:inserts { <#a> ex:name "A"; ex:age 1. <#b> ex:name "B"; ex:age 2. }.'
    out patch-create "N3 Patch inserts to a missing resource" "$STATUS, inserted=$(p_has a age "$(printf "$int" 1)")"
    n3patch "${U}t/p" 'solid:inserts { <#c> ex:note "C". }.'
    out patch-insert "N3 Patch inserts into an existing resource" "$(applied), inserted=$(p_has c note '"C"'), kept=$(p_has b name '"B"')"
    n3patch "${U}t/p" 'solid:deletes { <#b> ex:name "B". }.'
    out patch-delete "N3 Patch deletes a triple" "$(applied), left=$(p_has b name '"B"'), kept=$(p_has a name '"A"')"
    n3patch "${U}t/p" 'solid:where { ?x ex:name "A"; ex:age ?n. }; solid:deletes { ?x ex:age ?n. }; solid:inserts { ?x ex:age 3; ex:was ?n. }.'
    out patch-where "N3 Patch where (one mapping) deletes and inserts with it" "$(applied), age3=$(p_has a age "$(printf "$int" 3)"), was1=$(p_has a was "$(printf "$int" 1)"), age1=$(p_has a age "$(printf "$int" 1)")"
    n3patch "${U}t/p" 'solid:where { ?x ex:name "Z". }; solid:inserts { ?x ex:q 1. }.'
    out patch-where-none "N3 Patch where matching nothing" "$STATUS, q=$(p_q)"
    n3patch "${U}t/p" 'solid:where { ?x ex:age ?n. }; solid:inserts { ?x ex:q 1. }.'
    out patch-where-two "N3 Patch where matching twice" "$STATUS, q=$(p_q)"
    n3patch "${U}t/p" 'solid:where { ?x ex:age ?n. }; solid:inserts { ?x ex:q 1. }.'
    out constrained-patch-409 "Link rel=constrainedBy on a 409 (N3 Patch where matching twice)" "$STATUS $(constrained)"
    n3patch "${U}t/p" 'solid:deletes { <#a> ex:age 99. }.'
    out patch-delete-absent "N3 Patch deleting an absent triple" "$STATUS"
    n3patch "${U}t/p" 'solid:inserts { <#a> ex:q 1. '
    out patch-syntax "N3 Patch that does not parse" "$STATUS"
    n3patch "${U}t/p" 'solid:where { ?x ex:name []. }; solid:inserts { ?x ex:q 1. }.'
    out patch-bnode-where "N3 Patch with a blank node in where" "$STATUS"
    n3patch "${U}t/p" 'solid:inserts { <#a> ex:q [ ex:r 1 ]. }.'
    out patch-bnode-inserts "N3 Patch with a blank node in inserts" "$STATUS"
    n3patch "${U}t/p" 'solid:inserts { ?x ex:q 1. }.'
    out patch-unbound "N3 Patch inserting a variable where does not bind" "$STATUS"
    req PATCH "${U}t/p" -H 'Content-Type: text/turtle' --data-binary '<#a> <http://ex/q> 1 .'
    out patch-turtle "PATCH with a text/turtle body" "$STATUS"
    n3patch "${U}t/p" 'solid:inserts { <#a> ex:q 1. }.' -H 'If-Match: "stale"'
    out patch-if-match "N3 Patch with a stale If-Match" "$STATUS, q=$(p_q)"
    req GET "${U}t/p"
    p_etag=$(header ETag)
    n3patch "${U}t/p" 'solid:inserts { <#a> ex:q 1. }.' -H 'If-None-Match: *'
    out patch-create-only "N3 Patch with If-None-Match: * on an existing resource" "$STATUS, q=$(p_q)"
    n3patch "${U}t/p" 'solid:inserts { <#a> ex:q 1. }.' -H "If-Match: $p_etag"
    out patch-if-match-current "N3 Patch with the current If-Match" "$(applied), q=$(p_q)"
    n3patch "${U}t/missing" 'solid:where { ?x ex:name "A". }; solid:inserts { ?x ex:q 1. }.'
    out patch-missing-where "N3 Patch with a where clause to a missing resource" "$STATUS, then $(req GET "${U}t/missing"; echo "$STATUS")"
    n3patch "${U}t/missing" 'solid:deletes { <#a> ex:name "A". }.'
    out patch-missing-delete "N3 Patch deleting from a missing resource" "$STATUS, then $(req GET "${U}t/missing"; echo "$STATUS")"
    n3patch "${U}t/missing" 'solid:inserts { <#a> ex:q 1. }.' -H 'If-Match: "stale"'
    out patch-missing-if-match "N3 Patch with If-Match to a missing resource" "$STATUS, then $(req GET "${U}t/missing"; echo "$STATUS")"
    n3patch "${U}t/" 'solid:inserts { <> ex:title "t". }.'
    out patch-container "N3 Patch inserting into a container's own triples" "$STATUS"
    n3patch "${U}t/" "solid:inserts { <> <${LDP}contains> <zz>. }."
    out patch-containment "N3 Patch inserting ldp:contains into a container" "$STATUS"
    req DELETE "${U}t/p"
    req GET "${U}t/../t/r" --path-as-is
    out dotdot "GET a path with '..'" "$STATUS"
    req GET "${U}t/a%2Fb" --path-as-is
    out encoded-slash "GET a path with an encoded slash" "$STATUS"
    # Issue 12: constrainedBy, POST preconditions, Last-Modified, what a 304 carries, CORS, absolute form,
    # a 405's Allow, names not minted again.
    req PUT "${U}t/c1/" "${TTL[@]}" --data-binary "<> <${LDP}contains> <zz> ."
    out constrained-409 "Link rel=constrainedBy on a 409 (containment triples in a container's PUT)" "$STATUS $(constrained)"
    req PUT "${U}t/bad" "${TTL[@]}" --data-binary '<a> <b> .'
    out constrained-400 "Link rel=constrainedBy on a 400 (body not Turtle)" "$STATUS $(constrained)"
    req GET "${U}t/"
    c_etag=$(header ETag)
    req POST "${U}t/" "${TTL[@]}" -H 'If-Match: "stale"' --data-binary ''
    out post-if-match-stale "POST with a stale If-Match (on the container)" "$STATUS"
    req POST "${U}t/" "${TTL[@]}" -H 'If-None-Match: *' --data-binary ''
    out post-create-only "POST with If-None-Match: * to an existing container" "$STATUS"
    req GET "${U}t/s1"
    local modified s1_etag
    modified=$(header Last-Modified)
    s1_etag=$(header ETag)
    out last-modified "Last-Modified on GET of a resource" "$([ -n "$modified" ] && echo present || echo absent)"
    req GET "${U}t/"
    out last-modified-container "Last-Modified on GET of a container" "$([ -n "$(header Last-Modified)" ] && echo present || echo absent)"
    req GET "${U}t/s1" -H "If-Modified-Since: $modified"
    out if-modified-since "GET with If-Modified-Since: its Last-Modified" "$STATUS"
    req GET "${U}t/s1" -H 'If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT'
    out if-modified-since-old "GET with If-Modified-Since: a date before it" "$STATUS"
    req GET "${U}t/s1" -H "If-None-Match: $s1_etag"
    out not-modified-headers "what that 304 carries" "$STATUS ETag=$([ -n "$(header ETag)" ] && echo yes || echo no) Vary=$(header Vary | tr -d ' ') Last-Modified=$([ -n "$(header Last-Modified)" ] && echo yes || echo no) Content-Length=$(header Content-Length | sed 's/^$/none/; s/^[1-9][0-9]*$/the-200s/')"
    # preflight URL METHOD HEADER...: what a browser reads of the answer to a preflight asking for
    # METHOD and the request HEADERs (lower case): the origin allowed, which of the methods a Solid app
    # sends and which of the HEADERs are allowed.
    preflight() {
        local url=$1 method=$2 methods headers
        shift 2
        local asked=$*
        req OPTIONS "$url" -H 'Origin: https://app.example' -H "Access-Control-Request-Method: $method" \
            -H "Access-Control-Request-Headers: ${asked// /, }"
        methods=$(header Access-Control-Allow-Methods | grep -o -w -E 'GET|PUT|POST|DELETE|PATCH' | tr '\n' ' ')
        headers=$(header Access-Control-Allow-Headers | tr 'A-Z' 'a-z' | grep -o -w -E "${asked// /|}" | sort | tr '\n' ' ')
        echo "$STATUS origin=$(header Access-Control-Allow-Origin) methods=${methods% } headers=${headers% }"
    }
    # What a browser lets a script read of an actual answer.
    cors_answer() {
        local exposed
        exposed=$(header Access-Control-Expose-Headers | tr 'A-Z' 'a-z' | grep -o -w -E 'etag|location|link|last-modified' | sort | tr '\n' ' ')
        echo "$STATUS origin=$(header Access-Control-Allow-Origin) exposes=${exposed% } vary-origin=$(header Vary | grep -qi origin && echo yes || echo no)"
    }
    out cors-preflight "CORS preflight on a missing path (Origin, ...-Request-Method: PUT)" \
        "$(preflight "${U}no/such/thing" PUT if-match content-type slug link)"
    out cors-preflight-existing "CORS preflight on a resource (...-Request-Method: PATCH)" \
        "$(preflight "${U}t/s1" PATCH if-match content-type)"
    req GET "${U}t/s1" -H 'Origin: https://app.example'
    out cors-get "GET with Origin" "$(cors_answer)"
    req PUT "${U}t/cors" "${TTL[@]}" -H 'Origin: https://app.example' --data-binary '<#it> a <http://ex/T> .'
    out cors-put "PUT creating a resource, with Origin" "$(cors_answer)"
    req GET "${U}no/such/thing" -H 'Origin: https://app.example'
    out cors-404 "GET of a missing resource, with Origin" "$(cors_answer)"
    req GET "$U" --request-target "${U}t/s1"
    out absolute-form "GET with an absolute-form request target" "$STATUS"
    req FROB "${U}t/s1"
    out allow-405 "unknown method on a resource: status, POST in Allow" "$STATUS $(header Allow | grep -q POST && echo POST || echo no-POST)"
    req DELETE "${U}t/s1"
    req POST "${U}t/" "${TTL[@]}" -H 'Slug: s1' --data-binary ''
    out slug-after-delete "POST with Slug: s1 after DELETE of t/s1" "$STATUS $([ "$(header Location)" = "$location" ] && echo same-name || echo other-name)"
    req DELETE "${U}t/"
    out delete-nonempty "DELETE a non-empty container" "$STATUS"
    req DELETE "${U}t/r"
    out delete "DELETE a resource" "$STATUS"
    req GET "${U}t/r"
    out deleted "GET a deleted resource" "$STATUS"
    req DELETE "${U}t/c1/"
    out delete-empty "DELETE an empty container" "$STATUS"
    req DELETE "$U"
    out delete-root "DELETE the root container" "$STATUS"
}

ldp_start ours --memory
interactions "$URL" >"$WORK/ours.txt"
ldp_stop "$PID"
css_start || exit 1
interactions "$CSS_URL" >"$WORK/css.txt"
css_stop

# The table, and the check: a row whose answers differ must be listed in DOC's expected-differences
# comment (and explained there), and a listed row must still differ, with the answers DOC's table
# records (its explanation is about them); rows in MUST_AGREE (issue 12's CORS and N3 Patch
# interactions) cannot be listed.
DOC="$(dirname "$0")/CSS-DIFFERENCES.md"
MUST_AGREE=(cors-preflight cors-preflight-existing cors-get cors-put cors-404 patch-create patch-insert
    patch-delete patch-where patch-where-none patch-where-two patch-delete-absent patch-if-match
    patch-create-only patch-if-match-current patch-missing-where patch-missing-delete)
# The comment's lines are "topic: id id ...".
expected=" $(sed -n '/^<!-- expected-differences/,/-->/p' "$DOC" | sed -e 's/.*://' -e 's/-->//' | tr -s ' \n' '  ') "
# recorded ID: "ldgsm answer|CSS answer" of row ID in DOC's table.
recorded() {
    awk -F '|' -v id="$1" '
        /^<!-- table: / { table = 1 }
        /^<!-- end of table -->/ { table = 0 }
        table && $2 == " " id " " { gsub(/^ | $/, "", $4); gsub(/^ | $/, "", $5); print $4 "|" $5 }
    ' "$DOC"
}
fail() {
    echo "FAIL: $*" >&2
    LDP_FAILURES=$((LDP_FAILURES + 1))
}
{
    echo "| id | interaction | ldgsm serve | CSS 7.2.0 | |"
    echo "|---|---|---|---|---|"
    paste -d '|' "$WORK/ours.txt" <(cut -d '|' -f 3 "$WORK/css.txt") | while IFS='|' read -r id what ours css; do
        mark=""
        [ "$ours" != "$css" ] && mark="differs"
        echo "| $id | $what | $ours | $css | $mark |"
    done
} >"$WORK/table.md"
cat "$WORK/table.md"
echo
echo "$(wc -l <"$WORK/ours.txt") interactions, $(grep -c '| differs |$' "$WORK/table.md") differ"
LDP_CHECKS=$((LDP_CHECKS + 1))
if [ "$(cut -d '|' -f 1 "$WORK/ours.txt")" != "$(cut -d '|' -f 1 "$WORK/css.txt")" ]; then
    fail "the two runs did not give the same rows: $(diff <(cut -d '|' -f 1 "$WORK/ours.txt") <(cut -d '|' -f 1 "$WORK/css.txt") | tr '\n' ' ')"
fi
for id in $(cut -d '|' -f 1 "$WORK/ours.txt" | sort | uniq -d); do
    fail "row id $id is used twice"
done
for id in $expected; do
    LDP_CHECKS=$((LDP_CHECKS + 1))
    grep -q "^$id|" "$WORK/ours.txt" || fail "$DOC lists $id as an expected difference, but there is no such row"
    case " ${MUST_AGREE[*]} " in *" $id "*) fail "$DOC lists $id as an expected difference, but the two servers must agree on it" ;; esac
done
while IFS='|' read -r id what ours css; do
    LDP_CHECKS=$((LDP_CHECKS + 1))
    case "$expected" in
    *" $id "*)
        if [ "$ours" = "$css" ]; then
            fail "row $id ($what): listed as an expected difference, but both answered '$ours'" \
                "(remove it from the expected-differences list in $DOC and correct the explanation)"
        elif [ "$ours|$css" != "$(recorded "$id")" ]; then
            fail "row $id ($what): ldgsm serve answered '$ours', CSS 7.2.0 '$css'; $DOC records" \
                "'$(recorded "$id" | sed "s/|/', '/")' (correct its explanation and write the table: css_interop.sh BIN $DOC)"
        fi
        ;;
    *)
        [ "$ours" != "$css" ] && fail "row $id ($what): ldgsm serve answered '$ours', CSS 7.2.0 '$css';" \
            "not an expected difference (fix the server, or explain it in $DOC and list $id there)"
        ;;
    esac
done < <(paste -d '|' "$WORK/ours.txt" <(cut -d '|' -f 3 "$WORK/css.txt"))
# OUTPUT: the table replaces the one between OUTPUT's table markers (CSS-DIFFERENCES.md has them), or
# is all of a file without them.
if [ -n "$OUTPUT" ]; then
    if grep -q '^<!-- table: ' "$OUTPUT" 2>/dev/null; then
        awk -v table="$WORK/table.md" '
            /^<!-- end of table -->/ { skipping = 0 }
            !skipping { print }
            /^<!-- table: / { print ""; while ((getline line < table) > 0) print line; print ""; skipping = 1 }
        ' "$OUTPUT" >"$WORK/output.md"
        cat "$WORK/output.md" >"$OUTPUT"
    else
        cp "$WORK/table.md" "$OUTPUT"
    fi
fi
ldp_finish
