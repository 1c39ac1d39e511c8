#!/usr/bin/env bash
# Tests `ldgsm lint` on workflow state machine schemas (src/wsm/wsm_lint.h). Each case under lint-cases/ is
# a file (or a folder of files: one file set) whose comments give the expected verdict, as in
# tests/gsm/run_lint.sh:
#   # exit: N              the expected exit status
#   # expect: LINE         one expected output line; the findings must be exactly these lines (any order)
# The case runs from its own folder with relative file names, so FILE in the messages is the name as
# written. Then: every kind of finding has a case, the fixture schemas lint clean, the usage describes the
# WSM checks. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: run_lint.sh path/to/ldgsm}
ldgsm=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/ldgsm-wsm-lint-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { passes=$((passes + 1)); }
# ldgsm lint, killed after LDGSM_TEST_WAIT seconds (default 30) so that a hang fails with a message.
lint() {
  local rc=0
  timeout -k 5 "${LDGSM_TEST_WAIT:-30}" "$ldgsm" lint "$@" || rc=$?
  [ $rc = 124 ] && echo "ldgsm lint $*: did not end within ${LDGSM_TEST_WAIT:-30}s" >&2
  return $rc
}

# Runs one case: $1 the folder to run in, $2 its name, $3... the files.
run_case() {
  local dir=$1 name=$2; shift 2
  local expected_exit
  expected_exit=$(cd "$dir" && sed -n 's/^# exit: //p' "$@" | head -n 1)
  (cd "$dir" && sed -n 's/^# expect: //p' "$@") | LC_ALL=C sort > "$work/expected"
  (cd "$dir" && lint "$@") > "$work/out" 2> "$work/err"
  local status=$?
  grep -v '^ldgsm lint: ' "$work/out" | LC_ALL=C sort > "$work/actual"
  if [ -z "$expected_exit" ]; then
    fail "$name: the case gives no '# exit:'"
  elif [ "$status" != "$expected_exit" ]; then
    fail "$name: exit $status, expected $expected_exit"; cat "$work/out" "$work/err"
  elif ! diff "$work/expected" "$work/actual" > "$work/diff"; then
    fail "$name: findings differ (< expected, > actual)"; cat "$work/diff"
  elif [ "$(grep -c '^ldgsm lint: ' "$work/out")" != 1 ]; then
    fail "$name: no summary line"; cat "$work/out"
  else
    ok
  fi
}

for case_path in "$here"/lint-cases/*; do
  name=$(basename "$case_path")
  if [ -d "$case_path" ]; then
    files=()
    for f in "$case_path"/*; do files+=("$(basename "$f")"); done # glob order is sorted
    run_case "$case_path" "$name" "${files[@]}"
  else
    run_case "$here/lint-cases" "$name" "$name"
  fi
done

# Every check has a case: each kind of finding appears in some case's expectations.
for finding in 'both leave state' 'schema has no wsm:initialState' 'wsm:initialState (' \
  'transition has no wsm:from' 'transition has 2 wsm:on' 'is a literal, not a node' \
  'is not described in the schema' 'is a literal, not a transition' 'sentry is not an sp:Ask' \
  'sentry text does not parse' 'SPIN sentry does not parse' 'sentry cannot be evaluated' \
  'wsm:condition "' 'assignment has no wsm:variable' 'assignment has 2 wsm:value' 'wsm:value "yes" is not a boolean' \
  'is a literal, not an assignment' 'does not declare (wsm:variable)' 'both true and false' \
  'is not an RDF list' 'task has no http:mthd' 'task has no http:requestURI' 'is a blank node, not an IRI' 'is a literal, not a request' \
  'transition has 2 wsm:actions' 'wsm:initialValue "yes" is not a boolean' 'wsm:initialValue: it needs at most one' \
  'is not reachable from' 'event no transition takes' 'state no transition or schema names' \
  'variable is never set' 'transition no schema lists' 'no stage is described'; do
  if grep -rqF -- "$finding" "$here"/lint-cases; then ok; else fail "no case expects '$finding'"; fi
done

# The shipped fixture schemas lint clean, warnings included.
schemas=("$root"/ldp-fixtures/state-machine/schemas/*)
[ -f "${schemas[0]}" ] || fail "ldp-fixtures/state-machine/schemas is empty"
lint "${schemas[@]}" > "$work/out" 2>&1
status=$?
if [ $status -eq 0 ] && [ "$(cat "$work/out")" = "ldgsm lint: 0 errors, 0 warnings in ${#schemas[@]} file$([ ${#schemas[@]} = 1 ] || echo s)" ]; then
  ok
else
  fail "fixture schemas: exit $status"; cat "$work/out"
fi

# The usage describes the WSM checks.
lint --help > "$work/out" 2>&1 || fail "--help: exit $?"
for said in 'wsm:Schema' 'WSM errors' 'WSM warnings' 'not exactly defined' 'wsm:initialState' \
  'wsm:thisInstance, wsm:thisEvent bound' 'wsm:actions' 'leads to from the initial state'; do
  if grep -qF -- "$said" "$work/out"; then ok; else fail "--help does not say '$said'"; fi
done

echo "run_lint: $passes passed, $failures failed"
[ $failures -eq 0 ]
