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
. "$here/../gsm/lint_cases.sh"
run_cases

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
