#!/usr/bin/env bash
# tests/ldp/run_ldp_nesting.sh: what strangers send nests as deep as they like; the server refuses what
# passes the one nesting bound (src/rdf/nesting.h, 128 levels) with a located 400, and goes on answering
# (issue 30: one 1 MB PUT of `<a> <p> ((((...` crashed it, a stack overflow in the Turtle recognizer; 350,000
# levels of `[<p> ` did too; two 1.2 MB RDF/XML bodies 200,000 elements deep held both request threads for
# minutes, quadratic in raptor2). N3 Patch bodies are read by the same readers, and U+0000 in a literal is
# refused in every body (it was stored raw by N3 Patch, which Turtle bodies refused).
# Usage: run_ldp_nesting.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap ldp_cleanup EXIT
command -v python3 >/dev/null || { echo "python3 is needed to make the documents" >&2; exit 77; }

python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
open(work + '/round.ttl', 'w').write('<#a> <#p> ' + '(' * (1 << 20))
open(work + '/square.ttl', 'w').write('<#a> <#p> ' + '[<#p> ' * 350000)
xml = ('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
       'xmlns:ex="http://example.org/"><rdf:Description rdf:about="#a">')
open(work + '/deep.rdf', 'w').write(xml + '<ex:p rdf:parseType="Resource">' * 40000)
open(work + '/patch.n3', 'w').write(
    '@prefix solid: <http://www.w3.org/ns/solid/terms#> .\n'
    '_:p a solid:InsertDeletePatch ; solid:inserts { <#a> <#q> ' + '(' * 200000 + ' } .\n')
open(work + '/nul-patch.n3', 'w').write(
    '@prefix solid: <http://www.w3.org/ns/solid/terms#> .\n'
    '_:p a solid:InsertDeletePatch ; solid:inserts { <#a> <#q> "x\\u0000y" } .\n')
PY

ldp_start data --data "$WORK/data" --threads 2
TTL=(-H 'Content-Type: text/turtle')
req PUT "${URL}ok" "${TTL[@]}" --data-binary '<#a> <#p> ( ( ( <#b> ) ) ) .'
check "a document nested three deep is stored" 201 "$STATUS"

req PUT "${URL}round" "${TTL[@]}" --data-binary @"$WORK/round.ttl"
check "1 MB of unclosed '(' is refused" 400 "$STATUS"
check_grep "located, naming the bound" ':1:[0-9]+: nested deeper than 128 levels' "$WORK/body"
check "the server is still running" 0 "$(ldp_running "$PID"; echo $?)"
req PUT "${URL}square" "${TTL[@]}" --data-binary @"$WORK/square.ttl"
check "350,000 levels of '[<p> ' are refused" 400 "$STATUS"
check_grep "located" ':1:[0-9]+: nested deeper than 128 levels' "$WORK/body"

# Two deep RDF/XML bodies at once, and a normal client beside them: all answered.
curl -s -o "$WORK/xml1" -w '%{http_code}' -X PUT -H 'Content-Type: application/rdf+xml' \
  --data-binary @"$WORK/deep.rdf" "${URL}deep1" > "$WORK/xml1.status" &
x1=$!
curl -s -o "$WORK/xml2" -w '%{http_code}' -X PUT -H 'Content-Type: application/rdf+xml' \
  --data-binary @"$WORK/deep.rdf" "${URL}deep2" > "$WORK/xml2.status" &
x2=$!
req GET "${URL}ok" -H 'Accept: text/turtle'
check "a GET beside them is answered" 200 "$STATUS"
wait "$x1" "$x2"
check "the first deep RDF/XML body is refused" 400 "$(cat "$WORK/xml1.status")"
check "the second too" 400 "$(cat "$WORK/xml2.status")"
check_grep "located, naming the bound" ':[0-9]+:[0-9]+: elements nested deeper than 128 levels' "$WORK/xml1"

req PATCH "${URL}ok" -H 'Content-Type: text/n3' --data-binary @"$WORK/patch.n3"
check "an N3 Patch nesting 200,000 deep is refused, as any patch that does not parse" 422 "$STATUS"
check_grep "naming the bound" 'nested deeper than 128 levels' "$WORK/body"
req PATCH "${URL}ok" -H 'Content-Type: text/n3' --data-binary @"$WORK/nul-patch.n3"
check "an N3 Patch inserting U+0000 is refused" 422 "$STATUS"
check_grep "saying why" 'U\+0000' "$WORK/body"
printf '%s\n' '@prefix solid: <http://www.w3.org/ns/solid/terms#> .' \
  '_:p a solid:InsertDeletePatch ; solid:inserts { <#a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#_0> 1 } .' \
  > "$WORK/ordinal-patch.n3"
req PATCH "${URL}ok" -H 'Content-Type: text/n3' --data-binary @"$WORK/ordinal-patch.n3"
check "an N3 Patch inserting rdf:_0 is refused (N-Triples readers refuse it: the resource could not be read back)" 422 "$STATUS"
check_grep "saying why" 'rdf:_' "$WORK/body"
req PUT "${URL}nul" "${TTL[@]}" --data-binary '<#a> <#p> "x\u0000y" .'
check "a Turtle body with U+0000 is refused" 400 "$STATUS"
req PUT "${URL}nul" -H 'Content-Type: application/n-triples' --data-binary '<http://a/a> <http://a/p> "x\u0000y" .'
check "an N-Triples body too (raptor2 cut the literal there)" 400 "$STATUS"
req GET "${URL}ok" -H 'Accept: application/n-triples'
check "the resource is unchanged: 3 lists, its triple" 7 "$(grep -c . "$WORK/body")"
check "the server is still running" 0 "$(ldp_running "$PID"; echo $?)"
ldp_stop "$PID"
ldp_finish
