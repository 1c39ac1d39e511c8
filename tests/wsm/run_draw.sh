#!/usr/bin/env bash
# `ldgsm draw` of a state machine schema (ldp-fixtures/state-machine/schemas/publishing): every state a box,
# the initial state's arrow from a small point, each transition an arrow labelled "event [conditions] /
# assignments"; with --instance (the fixture's doc1, after `ldgsm run --machine` took events POSTed to its
# inbox) the current state filled and marked "current", the variables in a note; PNG and dot; text from a
# schema stays text; an instance without wsm:instanceOf, or whose schema the file does not describe: exit 1.
set -u
. "$(dirname "$0")/../agent/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
checker="$(dirname "$0")/draw_check.py"
schema=$root/ldp-fixtures/state-machine/schemas/publishing

# ---- the schema alone, from its file
bounded "$ldgsm" draw "$schema" -o "$work/schema.svg" 2> "$work/schema.err"
check "the schema is drawn (exit 0): $(head -c 300 "$work/schema.err")" [ $? = 0 ]
check "every state is a box: $(python3 "$checker" states "$work/schema.svg" authoring review live trash)" \
  python3 "$checker" states "$work/schema.svg" authoring review live trash
check "the initial state has the arrow from the point: $(python3 "$checker" initial "$work/schema.svg" authoring)" \
  python3 "$checker" initial "$work/schema.svg" authoring
check "review -> live is labelled with its event, condition and assignment" \
  python3 "$checker" edge "$work/schema.svg" review live "publish [the actor is a reviewer] / is live := true"
check "authoring -> trash names both its conditions" \
  python3 "$checker" edge "$work/schema.svg" authoring trash "delete [the actor is an editor, the document is not live]"
check "no arrow where the schema has no transition (live -> trash)" ! \
  python3 "$checker" edge "$work/schema.svg" live trash "delete [the actor is an editor, the document is not live]"
check "without an instance no state is marked current" ! grep -q '>current<' "$work/schema.svg"
check "the schema's name is shown" grep -q '>document publishing (Lenya)<' "$work/schema.svg"

# ---- with an instance: events taken by the agent, the schema and the instance read over HTTP
start_server --fixtures "$root/ldp-fixtures/state-machine"
post_event() { # slug event actor
  curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: text/turtle' -H "Slug: $1" --data-raw \
    "@prefix wsm: <https://w3id.org/ldgsm/wsm#> . <> wsm:event <../../schemas/publishing#$2> ; wsm:actor <../../roles#$3> ." \
    "${base}inbox/doc1/"
}
check "an event POSTed" [ "$(post_event 0001 submit alice)" = 201 ]
check "an event POSTed" [ "$(post_event 0002 publish bob)" = 201 ]
bounded "$ldgsm" draw "${base}schemas/publishing" --instance "${base}documents/doc1#it" -o "$work/before.svg" 2> "$work/before.err"
check "an instance not set up yet is drawn (exit 0): $(cat "$work/before.err")" [ $? = 0 ]
check "... no state current, the note says it is not set up" \
  python3 "$checker" note "$work/before.svg" "${base}documents/doc1#it" "not set up yet (no current state)"
check "... and marks no state current" ! grep -q '>current<' "$work/before.svg"

bounded "$ldgsm" run --machine "${base}documents/doc1#it" -n 0 --until quiescent --iterations 50 2> "$work/run.log"
check "the agent took the events (exit 0): $(tail -n 3 "$work/run.log")" [ $? = 0 ]
bounded "$ldgsm" draw "${base}schemas/publishing" --instance "${base}documents/doc1#it" -o "$work/live.svg" 2> "$work/live.err"
check "drawn with --instance (exit 0): $(cat "$work/live.err")" [ $? = 0 ]
check "the current state, live, is filled and marked current: $(python3 "$checker" current "$work/live.svg" live)" \
  python3 "$checker" current "$work/live.svg" live
check "the note names the instance and its variable's value" \
  python3 "$checker" note "$work/live.svg" "${base}documents/doc1#it" "is live = true"
check "the instance's schema is drawn whole" python3 "$checker" states "$work/live.svg" authoring review live trash
mkdir -p "$work/tree/documents" "$work/tree/schemas"
cp "$schema" "$work/tree/schemas/publishing"
curl -s -H 'Accept: text/turtle' "${base}documents/doc1" > "$work/tree/documents/doc1"
bounded "$ldgsm" draw "$work/tree/schemas/publishing" --instance "$work/tree/documents/doc1#it" -o "$work/file.svg"
check "the schema and the instance read from files" python3 "$checker" current "$work/file.svg" live

# ---- formats
bounded "$ldgsm" draw "$schema" -o "$work/schema.png" 2> /dev/null
check "-o FILE.png writes a PNG" [ "$(head -c 8 "$work/schema.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
bounded "$ldgsm" draw "$schema" -o "$work/schema.dot" 2> /dev/null
check "-o FILE.dot writes Graphviz dot" grep -q '^digraph machine' "$work/schema.dot"

# ---- text from a schema stays text
cat > "$work/script.ttl" <<'EOF'
@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<#w> a wsm:Schema ; wsm:initialState <#a> ; wsm:transition <#t> .
<#a> rdfs:label "<script>alert(1)</script> & \\N" .
<#t> wsm:from <#a> ; wsm:on <#e> ; wsm:to <#b> ; wsm:condition [ <http://spinrdf.org/sp#text> "ASK { ?x <p> \"<b>\" }" ] .
EOF
bounded "$ldgsm" draw "$work/script.ttl" -o "$work/script.svg" 2> /dev/null
check "markup in labels is text in the SVG" python3 "$checker" states "$work/script.svg" '<script>alert(1)</script> & \N' b
check "a condition written in place is shown by its query" \
  python3 "$checker" edge "$work/script.svg" '<script>alert(1)</script> & \N' b 'e [ASK { ?x <p> "<b>" }]'
check "no <script element in the SVG" ! grep -qi '<script' "$work/script.svg"

# ---- bad input: a message and exit 1
printf '@prefix wsm: <https://w3id.org/ldgsm/wsm#> .\n<#it> wsm:inbox <box/> .\n' > "$work/no-schema.ttl"
bounded "$ldgsm" draw "$schema" --instance "$work/no-schema.ttl#it" > "$work/out" 2> "$work/err"
check "an instance without wsm:instanceOf: exit 1" [ $? = 1 ]
check "... saying so ($(cat "$work/err"))" grep -q 'no wsm:instanceOf' "$work/err"
check "... and writes no picture" [ ! -s "$work/out" ]
bounded "$ldgsm" draw "$work/script.ttl" --instance "$work/tree/documents/doc1#it" > "$work/out" 2> "$work/err"
check "an instance whose schema the file does not describe: exit 1" [ $? = 1 ]
check "... saying so ($(cat "$work/err"))" grep -q "script.ttl does not describe <file://$work/tree/schemas/publishing#publishing>" "$work/err"
finish
