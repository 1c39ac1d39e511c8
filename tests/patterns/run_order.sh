#!/usr/bin/env bash
# The order workflow of ldp-fixtures/patterns (the kernels combined: seq, n_of_m quotes, xor on the amount,
# loop until approved, a case cancel on withdrawal around an mi over the order lines) end to end, with a
# running agent and the test playing the manager and the customer: 1. a large order: two quotes suffice
# (supplier c is down), approval is asked until given, one pick request per line,
# then shipping, in that order; 2. a small order is approved at once, nobody is asked; 3. the customer
# withdraws: the case ends cancelled, nothing is picked or shipped. Only GET, PUT and POST are used, so
# tests/gsm/css_gsm.sh runs it against Community Solid Server too.
set -u
. "$(dirname "$0")/../agent/lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/patterns" && pwd)
containers="approvals/ suppliers/a/ suppliers/b/ warehouse/picks/"
# count_members: "approvals/=N suppliers/a/=N ...", the members of every container the tasks post to
count_members() { local c; for c in $containers; do printf '%s=%s ' "$c" "$(members "$c")"; done; }
# added BEFORE CONTAINER: members CONTAINER gained since count_members printed BEFORE (a server that keeps
# members across runs, as Community Solid Server does, is compared with itself)
added() { local was; was=$(tr ' ' '\n' <<< "$1" | sed -n "s|^$2=||p"); echo $(($(members "$2") - was)); }
order_status() { put orders/o1-status "<#it> <https://example.org/shop#approved> $1 ; <https://example.org/shop#withdrawn> $2 ." > /dev/null; }

# run_order LOG AMOUNT WITHDRAW: starts the fixtures, sets the order's amount, and runs an agent until the
# workflow is complete (at most $wait_limit s), playing the manager (approves once an approval request is
# in approvals/) and, with WITHDRAW=1, the customer (withdraws as the manager approves). Sets $rc, $before.
run_order() {
  start_server --fixtures "$fixtures"
  for c in $containers; do ensure_container "$c"; done
  # each pick names its line's item and quantity (the pick task's arguments): a line without them waits
  put orders/o1 "<#it> <https://example.org/shop#amount> $2 ; <https://example.org/shop#lines> ( <#line1> <#line2> <#line3> ) .
<#line1> <https://example.org/shop#item> \"paper\" ; <https://example.org/shop#quantity> 10 .
<#line2> <https://example.org/shop#item> \"toner\" ; <https://example.org/shop#quantity> 2 .
<#line3> <https://example.org/shop#item> \"staples\" ; <https://example.org/shop#quantity> 5 ." > /dev/null
  order_status false false
  before=$(count_members)
  "$ldgsm" run -v --instance "${base}status/order1#it" -n 50 --until complete > /dev/null 2> "$work/$1" &
  local agent=$! answered=0 _
  for _ in $(seq 1 $((wait_limit * 10))); do
    running "$agent" || break
    if [ $answered = 0 ] && [ "$(added "$before" approvals/)" -gt 0 ]; then
      if [ "$3" = 1 ]; then order_status true true; else order_status true false; fi
      answered=1
    fi
    nap 0.1
  done
  await_pid "$agent"; rc=$?
}
# sent_order LOG: the task requests the agent sent (2xx), as short names in order, repeats folded
sent_order() {
  grep -oE "^(PUT|POST) [^ ]+ 2[0-9][0-9]" "$work/$1" | awk '{print $2}' | grep -v "/status/" |
    sed -e "s|^${base}||" -e 's|^orders/o1-received$|receive|' -e 's|/[^/]*$|/|' | uniq | tr '\n' ' '
}

echo "# 1. a large order: quotes, approval asked until given, a pick per line, shipping"
run_order order1.log 1500 0
check "the workflow completes (exit 0)" [ $rc = 0 ]
check "its root's done milestone is achieved" achieved status/order1 "${base}models/order#root-done"
check "the order was recorded as received" [ "$(status_of orders/o1-received)" = 200 ]
check "suppliers a and b were each asked once" [ "$(added "$before" suppliers/a/)/$(added "$before" suppliers/b/)" = 1/1 ]
check "two quotes sufficed (n_of_m(2, 3)): the join is done" achieved status/order1 "${base}models/order#s1.2-done"
check "without supplier c, whose shop is down" ! achieved status/order1 "${base}models/order#s1.2.3-done"
check "approval was asked (large order), at least once" [ "$(added "$before" approvals/)" -ge 1 ]
check "one pick request per order line (mi over 3 lines)" [ "$(added "$before" warehouse/picks/)" = 3 ]
# MI-SPAWN-DYNAMIC's items (DESIGN 8): each copy's request names its own line, with that line's item
# (the container's members once each: Community Solid Server also describes each member in the listing)
picks() { local m; for m in $(get warehouse/picks/ | awk '$2 == "<http://www.w3.org/ns/ldp#contains>" {print $3}' |
  tr -d '<>' | sort -u); do get "${m#"$base"}"; done; }
picks > "$work/picks.nt"
for k in 1 2 3; do
  check "a pick names line$k (pat:thisItem)" \
    [ "$(grep -c "<https://example.org/shop#line> <${base}orders/o1#line$k>" "$work/picks.nt")" = 1 ]
done
check "... each with its own line's item" grep -q '<https://example.org/shop#item> "toner"' "$work/picks.nt"
# MI-COLLECT: each copy keeps the Location of its own pick request on its stage instance
kept=$(get status/order1 | awk '$2 == "<https://example.org/shop#pickRequest>" {print $3}' | sort -u | wc -l)
check "the three copies each keep their own pick request's Location ($kept)" [ "$kept" -eq 3 ]
check "the order shipped" [ "$(status_of shipping/o1)" = 200 ]
check "in the term's order: receive, quotes, approval, picks, shipping" \
  [ "$(sent_order order1.log | sed -E 's#suppliers/[ab]/ suppliers/[ab]/#quotes#')" = "receive quotes approvals/ warehouse/picks/ shipping/ " ]
stop_pid "$server_pid"; server_pid=

echo "# 2. a small order: the xor's else, approved at once"
run_order order2.log 500 0
check "the workflow completes (exit 0)" [ $rc = 0 ]
check "nobody was asked to approve" [ "$(added "$before" approvals/)" = 0 ]
check "the small order was approved by policy" grep -q "^PUT ${base}orders/o1-approved 2" "$work/order2.log"
check "and shipped after its 3 picks" [ "$(added "$before" warehouse/picks/)" = 3 ]
check "in the term's order: receive, quotes, approval by policy, picks, shipping" \
  [ "$(sent_order order2.log | sed -E 's#suppliers/[ab]/ suppliers/[ab]/#quotes#')" = "receive quotes orders/ warehouse/picks/ shipping/ " ]
stop_pid "$server_pid"; server_pid=

echo "# 3. the customer withdraws: the case is cancelled"
run_order order3.log 1500 1
check "the workflow completes (exit 0)" [ $rc = 0 ]
check "its root's cancelled milestone is achieved" achieved status/order1 "${base}models/order#root-cancelled"
check "its done milestone is not" ! achieved status/order1 "${base}models/order#root-done"
check "nothing was picked" [ "$(added "$before" warehouse/picks/)" = 0 ]
check "nothing shipped" ! grep -q "^PUT ${base}shipping/o1 2" "$work/order3.log"
finish
