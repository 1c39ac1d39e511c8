#!/usr/bin/env bash
# Data flow at scale (issue 31; DESIGN.md section 8): what it costs that each instance acts on its own
# data. An `ldgsm serve --memory` (CPU 0) holds the order fixture (ldp-fixtures/orders) with N orders and
# N quotes, every price 40..100 (40 + k mod 61), so no instance is over 100 and the Approve stage never
# runs; one agent (CPU 1, `ldgsm run --instance ... -n 0 --until complete --trace`) runs N instances of:
#   data-flow  ldp-fixtures/orders/models/order: each instance names its own order; its 3 tasks carry
#              ldgsm:arguments (URI, Slug and body templates evaluated from the order read through the
#              instance's link) and ldgsm:results: the quote GET (../quotes/{id}) binds shop:price from a
#              SELECT over its answer, the shipment POST binds shop:shipment from its Location, the
#              notification POST names that shipment;
#   constant   bench/gsm/order-constant.ttl: the same stages and sentries' places, tasks with constant
#              URIs and bodies and no arguments or results; its guards wait for the calls answered where
#              the data-flow model waits for the bound results, and read the order through the same link.
# Both take the same iterations, crawl GETs, composed writes and tasks per instance; the run checks the
# tasks (each instance exactly one quote GET, shipment POST and notification POST, all 2xx, no approval;
# the data-flow quotes all different, the constant ones one URI) and one instance's bound price and
# shipment, and stops otherwise. Each run has an LDP server of its own, started from the same fixture.
# Figures: per run, agent wall clock and CPU time over the whole run divided by iterations x instances;
# the trace's phases; GETs per iteration. RUNS rounds of one data-flow and one constant run back to back
# (in turn data-flow first and constant first); every figure is a median, and the ratio data-flow /
# constant is the median of the rounds' ratios. No timing decides anything.
# usage: bench/gsm/data_flow.sh [path/to/ldgsm]        (default: build/ldgsm)
# environment: DATA_FLOW_INSTANCES=1000, RUNS=3, AGENT_OPTIONS (added to every `ldgsm run`), LDGSM_HOME
# (the rules and ontology the binary loads, as for any ldgsm run). 3.5 to 5 minutes at the defaults.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${1:-$root/build/ldgsm}
n=${DATA_FLOW_INSTANCES:-1000}
runs=${RUNS:-3}
. "$root/bench/gsm/lib.sh"
command -v jq > /dev/null || { echo "data_flow.sh needs jq" >&2; exit 1; }
SHOP=https://example.org/shop#

price() { echo $((40 + $1 % 61)); }
fx=$work/fixture
cp -r "$root/ldp-fixtures/orders" "$fx"
rm -f "$fx"/orders/* "$fx"/quotes/* "$fx"/status/*
cp "$root/bench/gsm/order-constant.ttl" "$fx/models/order-constant"
printf '@prefix shop: <%s> .\n<#it> a shop:Quote ; shop:price 70 .\n' "$SHOP" > "$fx/quotes/constant"
mkdir -p "$work/inst-order" "$work/inst-order-constant"
for k in $(seq 1 "$n"); do
  printf '@prefix shop: <%s> .\n<#it> a shop:Order ; shop:id "%s" ;\n    shop:line <#line-1>, <#line-2> .\n<#line-1> shop:sku "sku-%s-a" ; shop:quantity 1 .\n<#line-2> shop:sku "sku-%s-b" ; shop:quantity 2 .\n' \
    "$SHOP" "$k" "$k" "$k" > "$fx/orders/$k"
  printf '@prefix shop: <%s> .\n<#it> a shop:Quote ; shop:price %d .\n' "$SHOP" "$(price "$k")" > "$fx/quotes/$k"
  for model in order order-constant; do
    printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n@prefix shop: <%s> .\n<#it> a gsm:StageInstance ;\n    gsm:isInstanceOf <../models/%s#root> ;\n    gsm:hasState gsm:uninitialized ;\n    shop:order <../orders/%d#it> .\n' \
      "$SHOP" "$model" "$k" > "$work/inst-$model/$k"
  done
done

# order_instances NAME MODEL: writes N instances of MODEL (order or order-constant), instance k naming
# order k, as status/NAME-k in one curl; sets args (--instance ...)
order_instances() {
  local name=$1 model=$2 k created
  for k in $(seq 1 "$n"); do
    [ "$k" -gt 1 ] && echo next # each URL its own options (curl's --next)
    printf 'url = "%sstatus/%s-%d"\nrequest = "PUT"\nheader = "Content-Type: text/turtle"\n' "$base" "$name" "$k"
    printf 'data-binary = "@%s/inst-%s/%d"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\nsilent\n' \
      "$work" "$model" "$k"
  done > "$work/urls"
  created=$(curl -K "$work/urls" | grep -c '^201$' || true)
  [ "$created" -eq "$n" ] || { echo "$name: only $created of $n instances were created" >&2; exit 1; }
  args=()
  for k in $(seq 1 "$n"); do args+=(--instance "${base}status/$name-$k#it"); done
}

# One run: a fresh LDP server, the instances, the agent with --trace, the checks; appends to $work/runs-MODE: seconds,
# iterations, agent CPU s, LDP server CPU s, crawl GETs (sum, max and median per iteration), composed
# writes sent, tasks sent, bytes read (sum), the trace's phase sums in ms (crawl, sentries, later rules,
# plan, send, total), composed write body bytes (sum)
one_run() {
  local mode=$1 r=$2 model name trace saved ldp0 tasks_line
  model=order; [ "$mode" = constant ] && model="order-constant"
  name=$mode-r$r
  # A fresh server for every run: one that kept the earlier runs' instances, shipments and notifications
  # costs more per request as its containers grow (its CPU per run rose 5.0 -> 9.9 -> 12.9 s over six runs),
  # which would favour whichever workflow runs first in a round.
  start_server "ldp-$name" "${pin_server[@]}" "$ldgsm" serve --memory --port 0 --fixtures "$fx"
  ldp_pid=${pids[-1]}
  base=$started
  order_instances "$name" "$model"
  trace=$work/trace-$name.jsonl
  saved=${AGENT_OPTIONS:-}
  AGENT_OPTIONS="$saved --trace $trace"
  ldp0=$(cpu_seconds "$ldp_pid")
  agent "$name"
  AGENT_OPTIONS=$saved
  # tasks: quote GETs, shipment POSTs, notification POSTs, approval POSTs, not 2xx, distinct quote URIs
  tasks_line=$(jq -rs --arg b "$base" '[.[] | select(.kind == "request" and .task and .outcome == "sent")] |
    [ (map(select(.method == "GET" and (.uri | startswith($b + "quotes/")))) | length),
      (map(select(.method == "POST" and .uri == $b + "shipments/")) | length),
      (map(select(.method == "POST" and .uri == $b + "notifications/")) | length),
      (map(select(.method == "POST" and .uri == $b + "approvals/")) | length),
      (map(select(.status < 200 or .status > 299)) | length),
      (map(select(.method == "GET") | .uri) | unique | length), length ] | map(tostring) | join(" ")' "$trace")
  local quotes ships notes approvals bad distinct all want_distinct=$n
  read -r quotes ships notes approvals bad distinct all <<< "$tasks_line"
  [ "$mode" = constant ] && want_distinct=1
  if ! { [ "$quotes" = "$n" ] && [ "$ships" = "$n" ] && [ "$notes" = "$n" ] && [ "$approvals" = 0 ] &&
          [ "$bad" = 0 ] && [ "$distinct" = "$want_distinct" ] && [ "$all" = $((3 * n)) ]; }; then
    echo "$name: tasks sent: $quotes quote GETs ($distinct URIs), $ships shipments, $notes notifications," \
      "$approvals approvals, $bad not 2xx, $all in all; expected $n each ($want_distinct URIs), no approval" >&2
    exit 1
  fi
  if [ "$mode" = data-flow ]; then # one instance's bound results, as the server holds them
    local doc shipment
    doc=$(curl -s -H 'Accept: text/turtle' "${base}status/$name-$n")
    # its shipment (Slug shipment-N; a later round's gets another name from the server) names its order
    shipment=$(sed -n "s|.*<${SHOP}shipment> <\(\.\./\)\{0,1\}\([^>]*\)>.*|\2|p" <<< "$doc" | head -n 1)
    shipment=${shipment#"$base"}
    if ! { grep -qE "<${SHOP}price> \"?$(price "$n")\b" <<< "$doc" && [ -n "$shipment" ] &&
           curl -s -H 'Accept: text/turtle' "$base$shipment" | grep -qE "orderId>? \"$n\""; }; then
      echo "$name: status/$name-$n does not hold shop:price $(price "$n") and a shipment of order $n" >&2; exit 1
    fi
  fi
  echo "$seconds $iterations $cpu $(awk -v a="$ldp0" -v b="$(cpu_seconds "$ldp_pid")" 'BEGIN { print b - a }')" \
    "$(jq -rs '[.[] | select(.kind == "iteration")] as $it
      | ($it | map(.gets) | sort) as $g
      | [.[] | select(.kind == "request" and .composed and .outcome == "sent")] as $w
      | [ ($g | add), ($g | max), $g[($g | length) / 2 | floor],
          ($w | length), (map(select(.kind == "request" and .task and .outcome == "sent")) | length),
          ($it | map(.bytes) | add),
          ($it | map(.crawl_ms) | add), ($it | map(.sentries_ms) | add), ($it | map(.later_rules_ms) | add),
          ($it | map(.plan_ms) | add), ($it | map(.send_ms) | add), ($it | map(.total_ms) | add),
          ($w | map(.body_bytes) | add) ] | map(tostring) | join(" ")' "$trace")" >> "$work/runs-$mode"
  kill "$ldp_pid"; wait "$ldp_pid" 2> /dev/null || true
  unset 'pids[-1]'
}

: > "$work/runs-data-flow"; : > "$work/runs-constant"
for r in $(seq 1 "$runs"); do
  order=(data-flow constant); [ $((r % 2)) -eq 0 ] && order=(constant data-flow)
  for mode in "${order[@]}"; do one_run "$mode" "$r"; done
done

col() { cut -d' ' -f"$1" "$2" | median; }
echo "Data flow: $n order instances (prices 40-100: the Approve stage never runs), median of $runs runs"
echo
echo "| workflow | iterations | time to complete (s) | ms per iteration per instance | agent CPU ms per iteration per instance | iteration ms (trace) per iteration per instance | crawl GETs per iteration: median / max | most crawl GETs in an iteration per instance | composed writes | tasks | bytes read per iteration | LDP server CPU (s) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for mode in data-flow constant; do
  f=$work/runs-$mode
  # per run: wall, CPU and the trace's iteration ms, per iteration per instance
  awk -v n="$n" '{ print $1 * 1000 / $2 / n, $3 * 1000 / $2 / n, $16 / $2 / n }' "$f" > "$work/per-$mode"
  printf '| %s | %.0f | %.2f | %.3f | %.3f | %.3f | %.0f / %.0f | %.3f | %.0f | %.0f | %.0f | %.2f |\n' "$mode" "$(col 2 "$f")" "$(col 1 "$f")" \
    "$(col 1 "$work/per-$mode")" "$(col 2 "$work/per-$mode")" "$(col 3 "$work/per-$mode")" \
    "$(col 7 "$f")" "$(col 6 "$f")" "$(awk -v n="$n" '{ print $6 / n }' "$f" | median)" "$(col 8 "$f")" "$(col 9 "$f")" \
    "$(awk '{ print $10 / $2 }' "$f" | median)" "$(col 4 "$f")"
done
echo
echo "Phases (the trace's iteration records), ms per iteration per instance, medians:"
echo
echo "| workflow | crawl | sentries | later rules | plan | send | total | composed write body bytes per write |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for mode in data-flow constant; do
  f=$work/runs-$mode
  phase() { awk -v n="$n" -v c="$1" '{ print $c / $2 / n }' "$f" | median; }
  printf '| %s | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f | %.0f |\n' "$mode" "$(phase 11)" "$(phase 12)" "$(phase 13)" \
    "$(phase 14)" "$(phase 15)" "$(phase 16)" "$(awk '{ print $17 / $8 }' "$f" | median)"
done
echo
same=yes
paste -d' ' "$work/runs-data-flow" "$work/runs-constant" | awk '{ exit !($2 == $19 && $5 == $22 && $8 == $25 && $9 == $26) }' || same=no
echo "same iterations, crawl GETs, composed writes and tasks in every round: $same"
# per round, data-flow / constant: wall, agent CPU, the trace's iteration ms (per iteration per instance)
paste -d' ' "$work/per-data-flow" "$work/per-constant" | awk '{ print $1 / $4, $2 / $5, $3 / $6 }' > "$work/ratios"
echo "rounds (data-flow s / constant s; data-flow / constant per iteration per instance, wall, agent CPU):" \
  "$(paste -d' ' "$work/runs-data-flow" "$work/runs-constant" "$work/ratios" |
     awk '{ printf "%s%.1f / %.1f s: %.2fx, %.2fx", (NR > 1 ? "; " : ""), $1, $18, $35, $36 }')"
awk -v wall="$(col 1 "$work/ratios")" -v cpu="$(col 2 "$work/ratios")" -v it="$(col 3 "$work/ratios")" 'BEGIN {
  printf "data-flow / constant, per iteration per instance, median of the rounds: wall %.2fx, agent CPU %.2fx, iteration ms (trace) %.2fx; goal at most 1.5x: %s\n",
    wall, cpu, it, (wall <= 1.5 && cpu <= 1.5) ? "met" : "not met" }'
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); logs and traces in $work"
