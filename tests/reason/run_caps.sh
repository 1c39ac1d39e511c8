#!/usr/bin/env bash
# `ldgsm reason --max-derived N` and `--max-fresh N` from the command line: a run that passes its cap exits
# 1 with an error naming the rule (file:line:col) and the cap, and its output holds what was derived
# before the cap, nothing after; a run that reaches its cap exactly, and a run without one, exit 0 with
# the whole closure; a cap that is not a positive 32-bit number is a usage error (2). $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: run_caps.sh path/to/ldgsm}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/ldgsm-caps.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
pass=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { pass=$((pass + 1)); }

run() { # args...: runs ldgsm reason --pass-only-new, output in $work/out, errors in $work/err, exit in $status
  "$ldgsm" reason --pass-only-new "$@" > "$work/out" 2> "$work/err"
  status=$?
}
# The values of :n :value in the output, sorted numerically, one per line.
values() { sed -nE 's/^<http:\/\/ex\.org\/n> <http:\/\/ex\.org\/value> "([0-9]+)".*/\1/p' "$work/out" | sort -n; }
lines() { grep -c ' \.$' "$work/out"; }

count="$here/caps/count.n3" # derives 1000 triples, one per round
fresh="$here/caps/fresh.n3" # makes 3 fresh blank nodes

# No cap given: the default does not stop it.
run "$count"
[ $status = 0 ] && [ "$(lines)" = 1000 ] && ok || fail "uncapped: exit $status, $(lines) lines: $(cat "$work/err")"

# The cap reached exactly is not passed.
run --max-derived 1000 "$count"
[ $status = 0 ] && [ "$(lines)" = 1000 ] && ok || fail "--max-derived 1000: exit $status, $(lines) lines: $(cat "$work/err")"

# One less: an error naming the rule and the cap; the output stops at the cap, in chain order.
for cap in 999 100 1; do
  run --max-derived $cap "$count"
  if [ $status != 1 ]; then
    fail "--max-derived $cap: exit $status, expected 1"
  elif ! grep -qE "rule [^ ]*count\.n3:5:1 derived more than $cap triples" "$work/err"; then
    fail "--max-derived $cap: stderr lacks the rule's file:line:col and the cap: $(cat "$work/err")"
  elif [ "$(values | tr '\n' ' ')" != "$(seq 1 $cap | tr '\n' ' ')" ] || [ "$(lines)" != $cap ]; then
    fail "--max-derived $cap: output is not the first $cap links of the chain: $(values | head -3) ... $(values | tail -3)"
  else
    ok
  fi
done

run --max-fresh 3 "$fresh"
[ $status = 0 ] && [ "$(lines)" = 6 ] && ok || fail "--max-fresh 3: exit $status, $(lines) lines: $(cat "$work/err")"
run --max-fresh 2 "$fresh"
if [ $status != 1 ]; then
  fail "--max-fresh 2: exit $status, expected 1"
elif ! grep -qE 'rule [^ ]*fresh\.n3:4:1 created more than 2 fresh blank nodes' "$work/err"; then
  fail "--max-fresh 2: stderr lacks the rule's file:line:col and the cap: $(cat "$work/err")"
elif [ "$(grep -c '<http://ex.org/parent>' "$work/out")" -gt 2 ]; then
  fail "--max-fresh 2: more than 2 fresh nodes printed: $(cat "$work/out")"
else
  ok
fi
# The fresh cap is not a derived cap: many derived triples, few fresh nodes.
run --max-fresh 1 "$count"
[ $status = 0 ] && [ "$(lines)" = 1000 ] && ok || fail "--max-fresh 1 on a rule without existentials: exit $status"

for bad in 0 -5 abc 12x 4294967296; do
  for option in --max-derived --max-fresh; do
    run $option $bad "$count"
    [ $status = 2 ] && grep -q -- "$option needs a positive number, not '$bad'" "$work/err" && ok ||
      fail "$option $bad: exit $status, $(cat "$work/err")"
  done
done

echo "reason caps: $pass passed, $failures failed"
[ $failures -eq 0 ]
