#!/usr/bin/env bash
# The order fixture (ldp-fixtures/orders; DESIGN.md section 8, data flow) at scale, on `ldgsm serve`:
#   1. $ORDERS_INSTANCES (default 100; scripts/test.sh gives the sanitizer build 12) orders under one agent
#      (--instances-from the status container, --until complete), their quotes 40 and 250 alternating and
#      exactly 100 for every fifth: every order gets exactly one shipment naming it (shop:order,
#      shop:orderId); approvals exist exactly for the orders quoted over 100, each naming its own order
#      and price; every notification names its own order and the Location of that order's own shipment;
#      every instance's shop:price is its own quote's (tests/gsm/orders_check.py outcome).
#   2. Reads are O(instances), not O(container): $ORDERS_UNRELATED (default 2,000; sanitizer 500)
#      unrelated order documents sit in orders/ beside them; no iteration GETs more than 2 per instance
#      plus a constant (the agent's "iteration: ... N GETs" line and its --trace), and neither orders/ nor
#      any of them is read.
#   3. Isolation: an instance below, one above and one at 100, each run alone by an agent of its own on a
#      fresh server with the same fixture, makes the same writes and requests and ends with the same status
#      document as beside the others. Normalised before comparing (orders_check.py describe says how and
#      why): the server's address, the agent's fragment names (hashes of the instance IRI, which holds the
#      address), the instance's own shipment and POSTed members (names the server chose), times, the
#      Idempotency-Key (a hash of the request, which holds the address), and the order of one write's
#      transitions in the history (it follows the agent's term numbering, which the others change). Reads
#      are not compared: an agent re-reads every instance until all are done, so their count depends on
#      the others by design (2. bounds them).
#   4. A failing order document holds only its instance: one instance's order answers 500
#      (fixed_status.py), another's does not parse (static_doc.py): neither is set up, the log names the
#      failing reads and the instances whose writes they withhold, the others complete; once its document
#      parses, the second one completes too. A waiting: line names each and its failing order document,
#      and the run's exit status (6) says they never completed.
#   5. The link depth bound: a guard following 4 links from the instance (`this :a ?x . ?x :b ?y . ?y :c ?z
#      . ?z :d ?w . ?w :ok true`): with the default depth (3) the 4th document is never read and the stage
#      does not open; with ldgsm:maxLinkDepth 4 on the sentry it is read and the stage opens.
# Every run is bounded by an iteration count (and lib.sh's wait limit); nothing here depends on timing.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/orders_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../../ldp-fixtures/orders" && pwd)
n=${ORDERS_INSTANCES:-100}
unrelated=${ORDERS_UNRELATED:-2000}
# Against Community Solid Server (tests/gsm/css_gsm.sh sets CSS_URL): part 1 only, ORDERS_CSS_INSTANCES
# orders (css_gsm.sh gives 25); the other parts need `ldgsm serve`: its access log, fresh servers, a store
# of 2,000 documents loaded at start.
if [ -n "${CSS_URL:-}" ]; then n=${ORDERS_CSS_INSTANCES:-100}; unrelated=0; fi
LDGSM=https://w3id.org/ldgsm#

# Helper servers of part 4, stopped by PID with the LDP server.
helper_pids=()
trap 'for p in "${helper_pids[@]}"; do stop_pid "$p"; done; cleanup' EXIT

echo "# 1. $n orders under one agent"
fx=$work/fixture
orders_fixture "$fx" "$n" "$unrelated"
start_server --fixtures "$fx"
# 12 iterations do it (each stage a write, its call answered in the next); 60 leave room without a hang.
# -v: part 2 reads the iteration lines
bounded "$ldgsm" run -v --instances-from "${base}status/" --until complete -n 0 --iterations 60 ${AGENT_OPTIONS:-} \
  --trace "$work/all.jsonl" > /dev/null 2> "$work/all.log"
rc=$?
check "one agent runs the $n orders to completion (exit $rc)" [ $rc = 0 ]
check "it says so" grep -q 'every workflow instance is complete' "$work/all.log"
outcome_checks "$n" "$work/outcome.txt" classes
# ldgsm status shows each call's request as evaluated from the instance's own data, and what it bound
bounded "$ldgsm" status ${STATUS_OPTIONS:-} "${base}status/o2#it" > "$work/status-o2.txt" 2>&1
check "status shows o2's quote call sent to its own quote" grep -qF "sent GET ${base}quotes/2" "$work/status-o2.txt"
check "... and the price its answer bound" grep -qF "bound ${SHOP}price = $(price 2)" "$work/status-o2.txt"
check "... and the shipment's Location bound by the shipment call" \
  grep -qE "bound ${SHOP}shipment = ${base}shipments/" "$work/status-o2.txt"
if [ -n "${CSS_URL:-}" ]; then finish; exit; fi

echo "# 2. reads per iteration: O(instances), not O(container)"
check "orders/ holds the $n orders and the $unrelated unrelated ones ($(members orders/))" \
  [ "$(members orders/)" = $((n + unrelated)) ]
# Per iteration: each status document and its order (2 per instance), the status container and the model.
most=$(sed -n 's/^iteration: .*, \([0-9]*\) GETs .*/\1/p' "$work/all.log" | sort -n | tail -n 1)
check "the log's iteration lines say the GETs ($most at most)" [ -n "$most" ]
check "no iteration GETs more than 2 per instance plus 10 ($most, for $n instances)" [ "${most:-99999}" -le $((2 * n + 10)) ]
traced=$(grep -o '"kind":"iteration".*"gets":[0-9]*' "$work/all.jsonl" | sed 's/.*"gets"://' | sort -n | tail -n 1)
check "... and the trace agrees ($traced)" [ "$traced" = "$most" ]
check "the trace lists the GETs" grep -q "\"kind\":\"get\".*\"uri\":\"${base}orders/1\"" "$work/all.jsonl"
check "the orders container was never read" ! grep -q "\"kind\":\"get\".*\"uri\":\"${base}orders/\"" "$work/all.jsonl"
check "no unrelated order was read ($(grep -c "\"uri\":\"${base}orders/u" "$work/all.jsonl"))" \
  ! grep -q "\"uri\":\"${base}orders/u" "$work/all.jsonl"
check "... as the server saw it ($(grep -c '^GET /orders/u' "$work/serve.log"))" ! grep -q '^GET /orders/u' "$work/serve.log"

echo "# 3. isolation: an instance alone does what it does beside $((n - 1)) others"
isolated=(1 2 5) # below, above and exactly 100
for k in "${isolated[@]}"; do orders_check describe "$base" "status/o$k" "$work/all.jsonl" > "$work/joint-$k.txt"; done
stop_pid "$server_pid"; server_pid=
for k in "${isolated[@]}"; do
  start_server --fixtures "$fx"
  bounded "$ldgsm" run --instance "${base}status/o$k#it" --until complete -n 0 --iterations 60 \
    --trace "$work/alone-$k.jsonl" > /dev/null 2> "$work/alone-$k.log"
  rc=$?
  check "o$k (quoted $(price "$k")) alone completes (exit $rc)" [ $rc = 0 ]
  orders_check describe "$base" "status/o$k" "$work/alone-$k.jsonl" > "$work/alone-$k.txt"
  diff "$work/joint-$k.txt" "$work/alone-$k.txt" > "$work/isolation-$k.diff"
  check "o$k alone makes the same writes and requests and ends the same as beside the others" \
    [ $? = 0 -a -s "$work/alone-$k.txt" ]
  head -n 20 "$work/isolation-$k.diff" | sed 's/^/  /'
  stop_pid "$server_pid"; server_pid=
done
# What the comparisons held: the requests themselves, not two empty texts, nor texts normalised alike.
check "the comparison tells instances apart: o1's text is not o2's" ! cmp -s "$work/joint-1.txt" "$work/joint-2.txt"
for k in "${isolated[@]}"; do
  check "o$k's record shows its quote GET, its shipment POST and its notification POST sent" \
    [ "$(grep -cE '^request (GET <BASE/quotes/'$k'>|POST <BASE/(shipments|notifications)/>) sent 20[01] task$' "$work/alone-$k.txt")" = 3 ]
  check "o$k's shipment request body names its own order" \
    grep -qF "[call Ship] <${LDGSM}sentBody> \"@prefix shop: <$SHOP> .\\n<> a shop:Shipment ; shop:order <BASE/orders/$k#it> ; shop:orderId \\\"$k\\\" .\"" "$work/alone-$k.txt"
  check "o$k's status ends with shop:price $(price "$k")" \
    grep -qF "[instance] <${SHOP}price> \"$(price "$k")\"^^<http://www.w3.org/2001/XMLSchema#integer>" "$work/alone-$k.txt"
done
check "o2 (250) was approved: an approval request naming its order and price" \
  grep -qF "received approvals/ <MEMBER> <${SHOP}price> \"250\"" "$work/alone-2.txt"
check "o1 (40) and o5 (100) were not" ! grep -q '^received approvals/' "$work/alone-1.txt" "$work/alone-5.txt"

echo "# 4. a failing order document holds only its instance"
failing_services
fx4=$work/fixture4
cp -r "$fixtures" "$fx4"
instance_doc "$failing#it" > "$fx4/status/bad500"
instance_doc "$broken#it" > "$fx4/status/badparse"
start_server --fixtures "$fx4"
# The 3 fixture orders need 12 iterations; 25 hold the failing two long enough for the stuck line (10).
bounded "$ldgsm" run --instances-from "${base}status/" --until complete -n 0 --iterations 25 > /dev/null \
  2> "$work/failing.log"
rc=$?
outcome_checks 3 "$work/outcome4.txt"
for bad in bad500 badparse; do
  check "$bad is not set up: its status document was never written" [ "$(written "/status/$bad")" = 0 ]
  check "... it is still uninitialized" grep -qF "<${GSM}hasState> <${GSM}uninitialized>" <(get "status/$bad")
  check "the log says its writes are withheld because a read of its group failed" \
    grep -qE "withheld: [0-9]+ requests of <${base}status/$bad#it>: a GET its group asked for failed" "$work/failing.log"
  check "a waiting: line names $bad and its order document (rules/gsm-stalls.n3: a link read that fails)" \
    grep -qE "^(warning: )?(held|waiting): <${base}status/$bad#it>: .*($failing|$broken)" "$work/failing.log"
done
check "the log names the order document answering 500" grep -qF "GET $failing: status 500" "$work/failing.log"
check "... and the one that does not parse" grep -qF "GET $broken: RDF that does not parse" "$work/failing.log"
check "after 10 held iterations in a row, the stuck line names both" \
  grep -qE "stuck: .* held back writes; failing: ($failing, $broken|$broken, $failing)$" "$work/failing.log"
check "--until complete ending its --iterations with instances waiting exits 6 (exit $rc)" [ $rc = 6 ]
# Its document repaired (static_doc.py reads the file at every request), the second instance completes.
printf '@prefix shop: <%s> .\n<#it> a shop:Quote ; shop:price 250 .\n' "$SHOP" | \
  curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @- "${base}quotes/9"
order_doc 9 > "$work/broken.ttl"
bounded "$ldgsm" run --instance "${base}status/badparse#it" --until complete -n 0 --iterations 25 > /dev/null \
  2> "$work/repaired.log"
rc=$?
check "once its order parses, that instance completes (exit $rc)" [ $rc = 0 ]
check "... shipped, naming the repaired order" grep -qF "<${SHOP}order> <$broken#it>" <(get shipments/shipment-9)
stop_pid "$server_pid"; server_pid=

echo "# 5. the link depth bound"
start_server
# chain_model DEPTH-TRIPLE: a model whose stage Deep opens when the 4th document down the chain says ok.
chain_model() {
  cat <<EOF
@prefix gsm: <$GSM> .
@prefix sp: <http://spinrdf.org/sp#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<#root> a gsm:Stage ; rdfs:label "Chain" ; gsm:hasChildStage <#Deep> ; gsm:hasMilestone <#done> .
<#Deep> a gsm:Stage ; rdfs:label "Deep" ; gsm:hasGuard [ a gsm:Guard ; gsm:hasCondition <#chain-ok> ] ;
    gsm:hasMilestone <#deep-done> .
<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#never> .
<#deep-done> a gsm:Milestone ; gsm:hasAchievingSentry <#never> .
<#never> a sp:Ask ; sp:text """PREFIX gsm: <$GSM>
ASK { gsm:thisArtifactInstance <http://ex.org/never> true }""" .
<#chain-ok> a sp:Ask ; $1 sp:text """PREFIX gsm: <$GSM>
PREFIX : <http://ex.org/>
ASK { gsm:thisArtifactInstance :a ?x . ?x :b ?y . ?y :c ?z . ?z :d ?w . ?w :ok true }""" .
EOF
}
put models/chain3 "$(chain_model "")" > /dev/null
put models/chain4 "$(chain_model "ldgsm:maxLinkDepth 4 ;")" > /dev/null
for d in 3 4; do
  put "c$d/x" '<#it> <http://ex.org/b> <../c'$d'/y#it> .' > /dev/null
  put "c$d/y" '<#it> <http://ex.org/c> <../c'$d'/z#it> .' > /dev/null
  put "c$d/z" '<#it> <http://ex.org/d> <../c'$d'/w#it> .' > /dev/null
  put "c$d/w" '<#it> <http://ex.org/ok> true .' > /dev/null
  put "status/chain$d" "@prefix gsm: <$GSM> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/chain$d#root> ; gsm:hasState gsm:uninitialized ;
    <http://ex.org/a> <../c$d/x#it> ." > /dev/null
done
# Set-up in the 1st iteration, the guard in the 2nd: 6 leave room.
bounded "$ldgsm" run --instance "${base}status/chain3#it" --instance "${base}status/chain4#it" -n 0 --iterations 6 \
  > /dev/null 2> "$work/chain.log"
check "the chain models pass lint: no error, no lint line" ! grep -qE '^error:|lint' "$work/chain.log"
# state DOC STAGE: the state of that model stage's instance in the status document DOC (a path).
state() {
  local text s
  text=$(get "$1")
  s=$(grep -F "<${GSM}isInstanceOf> <${base}$2>" <<< "$text" | cut -d' ' -f1 | head -n 1)
  [ -n "$s" ] && grep -F "$s <${GSM}hasState> " <<< "$text" | sed -E 's/.*#([a-z]*)> \.$/\1/'
}
check "both chain instances are set up" \
  [ "$(state status/chain3 models/chain3#root)-$(state status/chain4 models/chain4#root)" = active-active ]
check "depth 3: the 3rd document down the chain is read ($(served GET /c3/z))" [ "$(served GET /c3/z)" -gt 0 ]
check "depth 3: the 4th is never read ($(served GET /c3/w))" [ "$(served GET /c3/w)" = 0 ]
check "depth 3: the stage does not open ($(state status/chain3 models/chain3#Deep))" \
  [ "$(state status/chain3 models/chain3#Deep)" = inactive ]
check "depth 4: the 4th document is read ($(served GET /c4/w))" [ "$(served GET /c4/w)" -gt 0 ]
check "depth 4: the stage opens ($(state status/chain4 models/chain4#Deep))" [ "$(state status/chain4 models/chain4#Deep)" = active ]
finish
