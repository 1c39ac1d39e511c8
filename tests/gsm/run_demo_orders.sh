#!/usr/bin/env bash
# `ldgsm demo --orders`: three orders of one model side by side (ldp-fixtures/orders), a row per order
# that changed, the output in 100 columns. Exit 0; each order's last row has it done with its own shipment
# (order N's Location is shipments/shipment-N, from the model's Slug shipment-{id}), three different
# prices, and only order 2 (quoted 250, over 100) approved;
# the summary the demo checked on the server names, for each order, a notification naming that order's
# shipment, and an approval request for order 2 only. A model whose notifications name another order's
# shipment makes the demo fail, saying which order's notification names which shipment.
set -u
. "$(dirname "$0")/../agent/lib.sh"

check "--help describes --orders" grep -q -- '--orders  ' <(bounded "$ldgsm" demo --help)
bounded "$ldgsm" demo --orders --suppliers > /dev/null 2>&1
check "--orders with --suppliers is a usage error" [ $? = 2 ]
bounded "$ldgsm" demo --orders --time-limit 5 > /dev/null 2>&1
check "--orders with --time-limit is a usage error" [ $? = 2 ]

bounded "$ldgsm" demo --orders -n 0 > "$work/out" 2> "$work/err"
check "exit 0" [ $? = 0 ]

# The last row of each order, "stage price approval shipment", for order 1, 2, 3, one a line.
awk -F' [|] ' '/^-----[+]/ { table = 1; next } table && /^$/ { exit }
  table && $1 ~ /[0-9]/ { for (i = 3; i <= 7; i++) gsub(/^ +| +$/, "", $i); last[$3] = $4 " " $5 " " $6 " " $7 }
  END { for (order in last) print order " " last[order] }' "$work/out" | sort | cut -d' ' -f2- > "$work/last"
check "three orders" [ "$(wc -l < "$work/last")" = 3 ]
check "the table's columns" grep -qE '^iter [|] what happened +[|] order [|] stage +[|] price [|] approval [|] shipment$' \
  "$work/out"
check "the output fits 100 columns" [ "$(awk 'length > 100' "$work/out" | wc -l)" = 0 ]
for n in 1 2 3; do
  check "order $n's last row: done, with its own shipment" \
    grep -qE "^done [0-9]+ [a-z-]+ shipments/shipment-$n$" <(sed -n "${n}p" "$work/last")
  check "order $n's notification names its own shipment" \
    grep -A1 -E "^status/o$n \(orders/$n#it, quoted [0-9]+\): .*;$" "$work/out" |
      grep -qE "^  notification notifications/[^ ]+ names shipment shipments/shipment-$n, its own$"
done
check "the three quotes differ" [ "$(awk '{ print $2 }' "$work/last" | sort -u | wc -l)" = 3 ]
check "only order 2 was approved; the others needed none" \
  [ "$(awk '{ print $3 }' "$work/last" | tr '\n' ' ')" = "no-need approved no-need " ]
check "one approval was asked for in the run" [ "$(grep -o 'asks approval' "$work/out" | wc -l)" = 1 ]
check "the server holds one approval request" [ "$(grep -c 'approval request approvals/' "$work/out")" = 1 ]
check "... for order 2" grep -q '^status/o2 .*approval request approvals/' "$work/out"
check "three different notifications" \
  [ "$(grep -oE 'notification notifications/[^ ]+' "$work/out" | sort -u | wc -l)" = 3 ]
show() {
  if [ $failures -gt $section_failures ]; then
    echo "--- output:"; cat "$work/out"; echo "--- errors:"; cat "$work/err"
  fi
  section_failures=$failures
}
section_failures=0
show

echo "# a model whose notifications all name order 1's shipment: the demo's check on the server fails"
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
home="$work/home"
mkdir -p "$home/ldp-fixtures"
cp -r "$source_dir/rules" "$source_dir/ontology" "$home/"
cp -r "$source_dir/ldp-fixtures/orders" "$home/ldp-fixtures/"
notification='<> a shop:Notification ; shop:order ?order ; shop:shipment'
sed -i "s|^$notification ?shipment \\.|$notification <../shipments/shipment-1> .|" \
  "$home/ldp-fixtures/orders/models/order"
check "(the template now names shipment-1)" grep -q 'shop:shipment <../shipments/shipment-1>' \
  "$home/ldp-fixtures/orders/models/order"
LDGSM_HOME="$home" bounded "$ldgsm" demo --orders -n 0 > "$work/out" 2> "$work/err"
check "exit 1" [ $? = 1 ]
check "the message names order 2's notification and both shipments" \
  grep -qE "^ldgsm demo: status/o2: its notification notifications/[^ ]+ names the shipment \
shipments/shipment-1, not its own shipments/shipment-2$" "$work/err"
show
finish
