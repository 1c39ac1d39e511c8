#!/usr/bin/env bash
# The procurement fixture (ldp-fixtures/suppliers) end to end, with a running agent and the test playing
# the warehouse and the clerk: 1. supplier A's shop is down (every send refused): the order call is sent
# 1 + 2 times to A with its retry delays, rebound to supplier B, which takes it (one order in B's
# container), the goods arrive and the workflow completes; 2. supplier B's shop is gone as well (404, not
# retried): the call is exhausted (one incident line naming both alternatives), "Order online" gives way
# to "Order by phone", the clerk confirms, and the workflow completes. Only GET, PUT, POST and DELETE
# are used, so tests/gsm/css_gsm.sh runs it against Community Solid Server too.
set -u
. "$(dirname "$0")/../agent/lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/suppliers" && pwd)
LDGSM=https://w3id.org/ldgsm#
# run_workflow LOG: an agent runs the workflow until it completes (at most 60 s) while the test plays the
# environment: the goods arrive once the warehouse was told to expect them; the clerk confirms a phone
# order once one is in the inbox. Returns the agent's exit status.
run_workflow() {
  "$ldgsm" run -v --instance "${base}status/order1#it" -n 50 --until complete > /dev/null 2> "$work/$1" &
  local agent=$! arrived=0 confirmed=0 _
  for _ in $(seq 1 600); do
    running "$agent" || break
    if [ $arrived = 0 ] && [ "$(status_of warehouse/expected)" = 200 ]; then
      put warehouse/delivery '<#it> <https://example.org/shop#arrived> true .' > /dev/null; arrived=1
    fi
    if [ $confirmed = 0 ] && [ "$(members inbox/)" -gt 0 ]; then
      put inbox/confirmation '<#it> <https://example.org/shop#confirmed> true .' > /dev/null; confirmed=1
    fi
    nap 0.1
  done
  await_pid "$agent"
}
call_field() { # PREDICATE-NAME: the value in the call record of "Order online"
  local stage; stage=$(get status/order1 | grep -F "<http://purl.org/gsm/vocab#isInstanceOf> <${base}models/procurement#order-online>" | cut -d' ' -f1)
  get status/order1 | grep -F "${stage/\#s-/#c-} <${LDGSM}$1>" |
    sed -E 's/^<[^>]*> <[^>]*> //; s/ \.$//; s/^"([^"]*)".*$/\1/; s/^<(.*)>$/\1/'
}

echo "# 1. supplier A is down: retries, then supplier B"
start_server --fixtures "$fixtures"
ensure_container supplier-b/orders/
ensure_container inbox/
run_workflow agent1.log; rc=$?
check "the workflow completes (exit 0)" [ $rc = 0 ]
check "A was tried 1 + N_MT = 3 times" [ "$(grep -c '^POST http://127.0.0.1:9/orders/ failed (connect failure)' "$work/agent1.log")" = 3 ]
check "then B took the order: one order in B's container" [ "$(members supplier-b/orders/)" = 1 ]
check "the call record says alternative 2 answered it" [ "$(call_field alternative)-$(call_field callState)" = "2-${LDGSM}answered" ]
check "nobody was asked to phone" [ "$(members inbox/)" = 0 ]
check "no incident" ! grep -q incident "$work/agent1.log"
stop_pid "$server_pid"; server_pid=

echo "# 2. both suppliers fail: the sub-workflow alternative"
start_server --fixtures "$fixtures"
ensure_container inbox/
for m in $(get supplier-b/orders/ | grep '<http://www.w3.org/ns/ldp#contains>' | sed -E 's/.*<([^>]*)> \.$/\1/'); do
  curl -s -o /dev/null -X DELETE "$m"
done
curl -s -o /dev/null -X DELETE "${base}supplier-b/orders/"
check "B's shop is gone" [ "$(status_of supplier-b/orders/)" = 404 ]
run_workflow agent2.log; rc=$?
check "the workflow completes (exit 0)" [ $rc = 0 ]
check "B answered 404 once: not retried" [ "$(grep -c '^POST .*/supplier-b/orders/ 404' "$work/agent2.log")" = 1 ]
check "one incident line: the call is exhausted, naming both alternatives" \
  [ "$(grep -c "incident: <${base}status/order1#it>: the call of stage <${base}models/procurement#order-online> is exhausted; alternatives tried: 1 <http://127.0.0.1:9/orders/>, 2 <${base}supplier-b/orders/>" "$work/agent2.log")" = 1 ]
check "the clerk was asked to phone: the inbox holds the request and the clerk's confirmation" [ "$(members inbox/)" = 2 ]
check "the order call stays exhausted in the status document" [ "$(call_field callState)" = "${LDGSM}exhausted" ]
finish
