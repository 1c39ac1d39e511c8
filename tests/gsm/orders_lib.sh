# orders_lib.sh, sourced after tests/agent/lib.sh: the order fixture at scale (ldp-fixtures/orders; DESIGN.md
# section 8, data flow) and the checks of its outcome, for tests/gsm/run_orders.sh and the tests that run
# the same workflow under other conditions (tests/gsm/run_notifications_lossy.sh).
orders_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SHOP=https://example.org/shop#
GSM=http://purl.org/gsm/vocab#
orders_check() { python3 "$orders_tests/orders_check.py" "$@"; }

# price K: order K's quote: 40 and 250 alternating, exactly 100 for every fifth (the "over 100" boundary).
price() { if [ $(($1 % 5)) = 0 ]; then echo 100; elif [ $(($1 % 2)) = 1 ]; then echo 40; else echo 250; fi; }
order_doc() { # ID: an order of two lines
  printf '@prefix shop: <%s> .\n<#it> a shop:Order ; shop:id "%s" ;\n    shop:line <#line-1>, <#line-2> .\n' "$SHOP" "$1"
  printf '<#line-1> shop:sku "sku-%s-a" ; shop:quantity 1 .\n<#line-2> shop:sku "sku-%s-b" ; shop:quantity 2 .\n' "$1" "$1"
}
instance_doc() { # ORDER-IRI (relative to the status document)
  printf '@prefix gsm: <%s> .\n@prefix shop: <%s> .\n' "$GSM" "$SHOP"
  printf '<#it> a gsm:StageInstance ;\n    gsm:isInstanceOf <../models/order#root> ;\n'
  printf '    gsm:hasState gsm:uninitialized ;\n    shop:order <%s> .\n' "$1"
}
# orders_fixture DIR N UNRELATED: the fixture in DIR (for `ldgsm serve --fixtures`) with N orders, their
# quotes (price K) and instances (status/o1..oN), and UNRELATED other order documents beside them.
orders_fixture() {
  local k u
  cp -r "$orders_tests/../../ldp-fixtures/orders" "$1"
  rm -f "$1"/orders/* "$1"/quotes/* "$1"/status/*
  for k in $(seq 1 "$2"); do
    order_doc "$k" > "$1/orders/$k"
    printf '@prefix shop: <%s> .\n<#it> a shop:Quote ; shop:price %s .\n' "$SHOP" "$(price "$k")" > "$1/quotes/$k"
    instance_doc "../orders/$k#it" > "$1/status/o$k"
  done
  for u in $(seq 1 "$3"); do order_doc "u$u" > "$1/orders/u$u"; done
}
# outcome_checks N FILE [classes]: the properties orders_check.py outcome reported for status/o1..oN, one
# check each (with "classes": that the quotes hold prices below, above and exactly 100 as well).
outcome_checks() {
  orders_check outcome "$base" "$1" > "$2" 2>&1
  if [ "${3:-}" = classes ]; then
    check "the quotes hold prices below, above and exactly 100" grep -qx 'ok: classes' "$2"
  else
    sed -i '/^bad classes/d' "$2"
  fi
  grep -v '^ok: ' "$2" | sed 's/^/  /'
  check "every instance is complete" grep -qx 'ok: complete' "$2"
  check "every instance's shop:price is its own quote's price" grep -qx 'ok: prices' "$2"
  check "every order has exactly one shipment, naming the order and its id" grep -qx 'ok: shipments' "$2"
  check "every instance's shop:shipment is the shipment naming its own order" grep -qx 'ok: instance-shipment' "$2"
  check "approvals exist exactly for the orders quoted over 100, each naming its order and price" \
    grep -qx 'ok: approvals' "$2"
  check "every notification names its own order and the Location of that order's shipment" \
    grep -qx 'ok: notifications' "$2"
}
# failing_services: a service answering every request 500 and one serving a document that is not Turtle
# (their pids added to helper_pids); sets failing (a URL answered 500) and broken (an order that does not
# parse).
failing_services() {
  python3 "$orders_tests/fixed_status.py" 0 > "$work/fixed.out" 2> "$work/fixed.err" &
  helper_pids+=($!)
  printf 'this is <not Turtle\n' > "$work/broken.ttl"
  python3 "$orders_tests/static_doc.py" "$work/broken.ttl" > "$work/static.out" 2> "$work/static.err" &
  helper_pids+=($!)
  for _ in $(seq 1 $((wait_limit * 20))); do [ -s "$work/fixed.out" ] && [ -s "$work/static.out" ] && break; nap 0.05; done
  failing="http://127.0.0.1:$(head -n 1 "$work/fixed.out")/500"
  broken=$(head -n 1 "$work/static.out")order
}
