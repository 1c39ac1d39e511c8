#!/usr/bin/env bash
# The derived-triple cap of `ldgsm run` and `ldgsm reason`: a rule set that never stops deriving (each step a
# new number) holds the iteration, naming the rule and the cap, under --max-derived and under the default,
# which is one derived triple per KiB of the memory ldgsm may use: under `ulimit -v 600000` (KiB) the cap
# is 600000. Before, the default was a fixed 50,000,000 (about 15 GB), and under that ulimit the run died
# "out of memory" (exit 134). A sanitizer build cannot start under an address-space limit (its shadow
# memory is terabytes of address space): there the default's checks are skipped. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: run_max_derived.sh path/to/ldgsm}
ldgsm=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
work=$(mktemp -d /tmp/ldgsm-max-derived.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
pass=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { pass=$((pass + 1)); }

cat > "$work/count.n3" <<'N3'
@prefix : <http://ex.org/> .
@prefix math: <http://www.w3.org/2000/10/swap/math#> .
:a :v 0 . :b :v 0 .
{ ?x :v ?v . (?v 1) math:sum ?w } => { ?x :v ?w } .
N3
run() { # LIMIT_KB|- command args...: from $work, output in $work/err, exit in $status
  local limit=$1
  shift
  (cd "$work" && { [ "$limit" = - ] || ulimit -v "$limit"; } && exec timeout 120 "$ldgsm" "$@") > /dev/null 2> "$work/err"
  status=$?
}
held() { # CAP: the agent held the iteration naming the rule and the cap, and went on
  if [ $status != 0 ]; then
    fail "$what: exit $status, expected 0 (a held iteration ends the run normally): $(tail -3 "$work/err")"
  elif ! grep -qx "error: iteration held: rule count.n3:4:1 derived more than $1 triples in this run" "$work/err"; then
    fail "$what: no 'iteration held' naming the rule and $1: $(tail -3 "$work/err")"
  else
    ok
  fi
}
stopped() { # CAP: ldgsm reason exits 1 naming the rule and the cap
  if [ $status = 1 ] && grep -q "rule [^ ]*count.n3:4:1 derived more than $1 triples" "$work/err"; then
    ok
  else
    fail "$what: exit $status, expected 1 naming the rule and $1: $(tail -3 "$work/err")"
  fi
}

what="run --max-derived 5000"
run - run -p count.n3 -n 0 --iterations 1 --max-derived 5000
held 5000
what="reason --max-derived 5000"
run - reason --pass-only-new --max-derived 5000 count.n3
stopped 5000

if (ulimit -v 600000 && exec "$ldgsm" --version) > /dev/null 2>&1; then
  what="run under ulimit -v 600000, no --max-derived"
  run 600000 run -p count.n3 -n 0 --iterations 1
  held 600000
  what="reason under ulimit -v 600000, no --max-derived"
  run 600000 reason --pass-only-new count.n3
  stopped 600000
else
  echo "skipped: $ldgsm does not start under ulimit -v 600000 (a sanitizer build): the default's checks"
fi

for command in run reason; do
  "$ldgsm" "$command" --help | grep -A1 -- '--max-derived N' | grep -q 'one per KiB of' && ok ||
    fail "ldgsm $command --help does not say how the --max-derived default is made"
done

echo "max derived: $pass passed, $failures failed"
[ $failures -eq 0 ]
