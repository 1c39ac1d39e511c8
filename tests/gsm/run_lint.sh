#!/usr/bin/env bash
# Tests `ldgsm lint`. Each case under lint-cases/ is a model file (or a folder of files: one model over
# several documents) whose comments give the expected verdict:
#   # args: OPTIONS        options before the files (optional)
#   # exit: N              the expected exit status
#   # expect: LINE         one expected output line; the findings must be exactly these lines (any order)
# The case runs from its own folder with relative file names, so FILE in the messages is the name as
# written. Then: the fixture models lint clean (warnings aside), the summary line, usage and I/O errors.
# $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: run_lint.sh path/to/ldgsm}
ldgsm=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lint_cases.sh"
run_cases

# Every check has a case: each kind of finding the help lists appears in some case's expectations.
for finding in 'is not described in' 'is a literal, not a node' 'stage has no guard' 'guard has no gsm:hasCondition' \
  'milestone has no gsm:hasAchievingSentry' 'sentry is not an sp:Ask' 'SPIN sentry does not parse' \
  'sentry text does not parse' 'occurs twice under root' 'its own descendant' 'milestone model shared' \
  'both achieves and invalidates' 'ask the same query' 'is also the achieving sentry' 'asks the same query as' \
  'root stage has no milestone' 'completion is final' 'task has no http:mthd' 'task has no http:requestURI' \
  "http:body is not a literal" 'no Content-Type header' 'http:headers is not a list' 'draft vocabulary' \
  'no stage is described' 'ldgsm:resultIn' 'is not a well-formed xsd:' \
  'is not an xsd:dayTimeDuration' 'has no datatype: write' 'counts months' 'is not positive' 'is negative' \
  'is not a non-negative integer' 'is not a number of at least 1' 'is given more than once' 'is not a list (write' \
  'is empty: there is no' 'alternative <' 'alternative "' 'alternative stage <' 'alternative stage "' \
  'call has no ldgsm:alternatives' 'both http:mthd and ldgsm:alternatives' 'on an alternative is ignored' \
  'listed twice in ldgsm:alternativeStages' 'alternative stage has a guard of its own' \
  'completes only when all its alternatives fail' 'a stage has one task'; do
  if grep -rqF -- "$finding" "$here"/lint-cases; then ok; else fail "no case expects '$finding'"; fi
done

# The shipped fixture models lint clean (warnings allowed): each fixture's models/ folder is one model.
for models in "$root"/ldp-fixtures/*/models; do
  [ -d "$models" ] || continue
  fixture=$(basename "$(dirname "$models")")
  compat=()
  [ "$fixture" = draft-vocab ] && compat=(--compat authors-draft)
  lint "${compat[@]}" "$models"/* > "$work/out" 2>&1
  status=$?
  if [ $status -ne 0 ] || grep -q ': error: ' "$work/out"; then
    fail "fixture $fixture: exit $status"; cat "$work/out"
  else
    ok
  fi
done
[ -d "$root/ldp-fixtures/fire-alarm/models" ] || fail "ldp-fixtures/fire-alarm/models is missing"
[ -d "$root/ldp-fixtures/evaluation/models" ] || fail "ldp-fixtures/evaluation/models is missing"

# The summary counts findings and files.
(cd "$here/lint-cases" && lint no-guard.ttl clean.ttl) > "$work/out"
if [ "$(tail -n 1 "$work/out")" = "ldgsm lint: 0 errors, 2 warnings in 2 files" ]; then ok; else
  fail "summary: $(tail -n 1 "$work/out")"; fi

# Usage and input errors.
expect_exit() { # expected-status description command...
  local want=$1 what=$2; shift 2
  "$@" > "$work/out" 2> "$work/err"
  local status=$?
  if [ "$status" = "$want" ]; then ok; else fail "$what: exit $status, expected $want"; cat "$work/out" "$work/err"; fi
}
expect_exit 0 "--help" lint --help
if grep -q -- '--compat authors-draft' "$work/out" && grep -q 'exit status' "$work/out"; then ok; else
  fail "--help does not document the options"; fi
expect_exit 2 "no files" lint
expect_exit 2 "unknown compat mode" lint --compat linked-data-fu "$here/lint-cases/clean.ttl"
grep -q "unknown --compat mode 'linked-data-fu'" "$work/err" || fail "unknown compat mode: $(cat "$work/err")"
expect_exit 2 "unknown option" lint --frobnicate "$here/lint-cases/clean.ttl"
expect_exit 1 "missing file" lint "$work/no-such-model.ttl"
grep -q "^$work/no-such-model.ttl: error: cannot read: No such file or directory$" "$work/out" ||
  fail "missing file: $(cat "$work/out")"

echo "run_lint: $passes passed, $failures failed"
[ $failures -eq 0 ]
