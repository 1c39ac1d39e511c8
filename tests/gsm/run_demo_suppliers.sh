#!/usr/bin/env bash
# `ldgsm demo --suppliers` (issue 10: the demo shows retries and a rebind): 1. supplier A's shop is down:
# the table shows three failed sends to A with their retries, the rebind to supplier B, B's answer, the
# goods arriving and the completion, exit 0; 2. --no-supplier-b: B answers 404 (not retried), so the call
# is exhausted in the same iteration, "Order online" gives way, "Order by phone" opens, the clerk confirms, the workflow completes.
# The agent's own log (-v) confirms the sends the table shows; without -v its warnings come after the
# table, each once with how often, never inside it; the output fits 100 columns. A workflow that cannot
# complete (the clerk's confirmation never seen) fails at --time-limit with a message saying what it waits
# for.
set -u
. "$(dirname "$0")/../agent/lib.sh"
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
limit=$((wait_limit * 2 / 3)) # --time-limit: below lib.sh's bound, so that a stalled demo reports itself before being killed

# rows OUT: one line per table row, "ITER|WHAT|OPEN STAGES|ORDER CALL", the wrapped "what happened" joined
# again; ITER is empty for "env:" rows.
rows() {
  awk -F' [|] ' '
    function trim(s) { gsub(/^ +| +$/, "", s); return s }
    function flush() { if (have) print label "|" what cells; have = 0 }
    /^-----[+]/ { table = 1; next }
    !table { next }
    /^$/ { flush(); table = 0; next }
    trim($3) ~ /^[|]?$/ { what = what " " trim($2); next } # a continuation line (the last cell: " |")
    { flush(); label = trim($1); what = trim($2); cells = ""
      for (i = 3; i <= NF; i++) cells = cells "|" trim($i)
      have = 1 }
    END { flush() }' "$1"
}
# in_order FILE REGEX...: lines matching the regexes occur in FILE in this order.
in_order() {
  local file=$1 from=1 n; shift
  for re in "$@"; do
    n=$(tail -n "+$from" "$file" | grep -n -m1 -E -- "$re" | cut -d: -f1)
    [ -n "$n" ] || return 1
    from=$((from + n))
  done
}
summary="^The workflow is complete after [0-9]+ iterations \([0-9.]+ s\)\. The order was sent" # its start
summary_of() { sed -n '/^The workflow is complete after/,/^$/p' "$1" | paste -sd' '; } # OUT: one line
what_count() { cut -d'|' -f2 "$work/rows" | grep -c -E -- "$1"; } # REGEX: rows whose "what happened" matches
row_with() { grep -E -- "$1" "$work/rows" | head -n 1; }          # REGEX: the first row matching

check "--help describes --suppliers and --no-supplier-b" \
  grep -q -- '--no-supplier-b' <(bounded "$ldgsm" demo --help)
bounded "$ldgsm" demo --no-supplier-b > /dev/null 2>&1
check "--no-supplier-b without --suppliers is a usage error" [ $? = 2 ]
bounded "$ldgsm" demo --suppliers --late-sensor > /dev/null 2>&1
check "--late-sensor with --suppliers is a usage error" [ $? = 2 ]
bounded "$ldgsm" demo --suppliers --time-limit 0 > /dev/null 2>&1
check "--time-limit 0 is a usage error" [ $? = 2 ]

# show: the output of a section that had failures.
section_failures=0
show() {
  if [ $failures -gt $section_failures ]; then
    echo "--- output:"; cat "$work/out"; echo "--- errors (the last 20 lines):"; tail -n 20 "$work/err"
  fi
  section_failures=$failures
}

echo "# 1. supplier A is down: retries, then supplier B"
bounded "$ldgsm" demo --suppliers -n 0 -v --time-limit $limit > "$work/out" 2> "$work/err"
check "exit 0" [ $? = 0 ]
rows "$work/out" > "$work/rows"
check "three sends to A: the first and two re-sends" [ "$(what_count "(^|; )(re-)?sent to supplier A's shop")" = 3 ]
check "three failed sends to A, each its own row" [ "$(what_count "supplier A's shop failed \(connect failure\)")" = 3 ]
check "the first two failures are retried after a delay, the third is not" \
  in_order "$work/rows" "A's shop failed \(connect failure\): retry in [0-9.]+ s" \
    "A's shop failed \(connect failure\): retry in [0-9.]+ s" "A's shop failed \(connect failure\): no retry left"
check "the call's retries left count down 2, 1, 0 while A is called" \
  in_order "$work/rows" "\|1 calling, 2 retries left$" "\|1 calling, 1 retry left$" "\|1 calling, 0 retries left$"
check "the rebind to B: alternative 2 with a fresh budget" \
  grep -qE "^[0-9]+\|rebound to supplier B's shop \(alternative 2\): sent\|Order, Order online\|2 calling, 2 retries left$" \
    "$work/rows"
check "B's answer: the call is answered" \
  grep -qE "^[0-9]+\|supplier B's shop took the order \(201\)\|.*\|2 answered$" "$work/rows"
check "in order: A's failures, the rebind, B's answer, the goods, completion" \
  in_order "$work/rows" "no retry left" "rebound to supplier B's shop" "took the order" "Receive opens" \
    "^\|env: .*the goods arrived" "goods received achieved, Receive closes" "the workflow is complete\|"
check "\"Order by phone\" never opens" [ "$(what_count "Order by phone opens")" = 0 ]
check "the last row: no stage open, the call answered" [ "$(tail -n 1 "$work/rows" | cut -d'|' -f3-4)" = "-|2 answered" ]
check "the output fits 100 columns" [ "$(awk 'length > 100' "$work/out" | wc -l)" = 0 ]
check "the summary: sends per supplier" \
  grep -qE "$summary to supplier A's shop 3 times \(3 failed\) and to supplier B's shop once; \
supplier B's shop took it\.$" <(summary_of "$work/out")
check "the agent's log: three POSTs to A refused" \
  [ "$(grep -c '^ *POST http://127.0.0.1:9/orders/ failed (connect failure)' "$work/err")" = 3 ]
check "the agent's log: one POST to B, answered 201" \
  [ "$(grep -cE '^ *POST http://[^ ]*/supplier-b/orders/ 201' "$work/err")" = 1 ]
check "no fragment hash names anything in the table" \
  ! grep -qE '#(s|m|c)-[0-9a-f]{12}|ldgsm-(gave-way|all-failed)' "$work/out"
show

echo "# 2. supplier B's shop is gone too: exhausted, then the phone order"
bounded "$ldgsm" demo --suppliers --no-supplier-b -n 0 -v --time-limit $limit > "$work/out" 2> "$work/err"
check "exit 0" [ $? = 0 ]
rows "$work/out" > "$work/rows"
check "B's shop is removed before the first iteration" \
  [ "$(head -n 1 "$work/rows" | cut -d'|' -f1-2)" = "|env: supplier B's shop is gone (supplier-b/orders/ deleted)" ]
check "three failed sends to A" [ "$(what_count "supplier A's shop failed \(connect failure\)")" = 3 ]
check "B answers 404, not retried, and the call, with no alternative left, is exhausted at once" \
  grep -qE "^[0-9]+\|supplier B's shop answered 404: not retried; the call is exhausted: every alternative failed\|.*\|2 exhausted$" \
    "$work/rows"
check "\"Order online\" gives way and closes" grep -qE "^[0-9]+\|gave way achieved, Order online closes\|" "$work/rows"
check "\"Order by phone\" opens" \
  grep -qE "^[0-9]+\|Order by phone opens: ask the clerk to phone a supplier\|Order, Order by phone\|2 exhausted$" \
    "$work/rows"
check "in order: the rebind, B's 404, exhaustion, Order by phone, the clerk, completion" \
  in_order "$work/rows" "rebound to supplier B's shop" "answered 404: not retried; the call is exhausted" \
    "gave way achieved" "Order by phone opens" "^\|env: the clerk .*confirmed" \
    "the clerk confirmed a phone order achieved, Order by phone closes" "order placed achieved, Order closes" \
    "^\|env: .*the goods arrived" "the workflow is complete\|"
check "the last row: no stage open, the call exhausted" [ "$(tail -n 1 "$work/rows" | cut -d'|' -f3-4)" = "-|2 exhausted" ]
check "the summary: sends per supplier, the phone order" \
  grep -qE "$summary to supplier A's shop 3 times \(3 failed\) and to supplier B's shop once \(1 failed\); no supplier \
took it online: the clerk confirmed 1 phone order request\.$" <(summary_of "$work/out")
check "the agent's incident line names both alternatives" \
  grep -q "incident: .*order-online> is exhausted; alternatives tried: 1 <http://127.0.0.1:9/orders/>, 2 <" "$work/err"
show

echo "# 2b. without -v: the warnings after the table, each once, on lines of their own"
bounded "$ldgsm" demo --suppliers --no-supplier-b -n 0 --time-limit $limit > "$work/both" 2>&1
check "exit 0" [ $? = 0 ]
said=$(grep -n '^ldgsm demo: the agent and the server said during the run:$' "$work/both" | cut -d: -f1)
summary_at=$(grep -n '^The workflow is complete after' "$work/both" | cut -d: -f1)
check "a heading after the table and its summary ($said after $summary_at)" [ -n "$said" ] && [ "$said" -gt "${summary_at:-0}" ]
check "no warning before it" [ "$(head -n "${said:-1}" "$work/both" | grep -c 'warning: ')" = 0 ]
check "the three failed sends to A: one line, counted" \
  [ "$(grep -cE "^warning: POST http://127.0.0.1:9/orders/: failed: .*\(3 times\)$" <(tr -d '\n' < "$work/both" | sed 's/warning: /\nwarning: /g'))" = 1 ]
check "the incident said after the table" grep -q '^warning: incident: ' "$work/both"
check "everything fits 100 columns" [ "$(awk 'length > 100' "$work/both" | wc -l)" = 0 ]
show

echo "# 3. the clerk's confirmation is never seen: the time limit"
home="$work/home"
mkdir -p "$home/ldp-fixtures"
cp -r "$source_dir/rules" "$source_dir/ontology" "$home/"
cp -r "$source_dir/ldp-fixtures/suppliers" "$home/ldp-fixtures/"
sed -i 's|<../inbox/confirmation#it> shop:confirmed true|<../inbox/another-confirmation#it> shop:confirmed true|' \
  "$home/ldp-fixtures/suppliers/models/procurement"
check "(the sentry now reads another resource)" \
  grep -q 'another-confirmation' "$home/ldp-fixtures/suppliers/models/procurement"
LDGSM_HOME="$home" bounded "$ldgsm" demo --suppliers --no-supplier-b -n 0 --time-limit 5 > "$work/out" 2> "$work/err"
check "non-zero exit" [ $? = 1 ]
# (how far the run got in 5 s depends on the machine; "Order" is open from the second iteration on)
check "the message says what the workflow waits for" \
  grep -q "^ldgsm demo: the workflow is not complete after 5 s; it waits: \"Order\" is open, until: order placed \
or all alternatives failed" "$work/err"
check "no summary: the workflow did not complete" ! grep -q "^The workflow is complete" "$work/out"
show
finish
