# lint_cases.sh: what tests/gsm/run_lint.sh and tests/wsm/run_lint.sh share, sourced after `here` (the
# test's folder) and `ldgsm` (the binary) are set: the counters, a bounded `ldgsm lint`, and
# run_cases, which runs every case under $here/lint-cases/ (a file, or a folder of files: one model over
# several documents) against the verdict its comments give:
#   # args: OPTIONS        options before the files (optional)
#   # exit: N              the expected exit status
#   # expect: LINE         one expected output line; the findings must be exactly these lines (any order)
# A case runs from its own folder with relative file names, so FILE in the messages is the name as written.
work=$(mktemp -d /tmp/ldgsm-lint-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# ldgsm lint, killed after LDGSM_TEST_WAIT seconds (default 30) so that a hang fails with a message.
lint() {
  local rc=0
  timeout -k 5 "${LDGSM_TEST_WAIT:-30}" "$ldgsm" lint "$@" || rc=$?
  [ $rc = 124 ] && echo "ldgsm lint $*: did not end within ${LDGSM_TEST_WAIT:-30}s" >&2
  return $rc
}
ok() { passes=$((passes + 1)); }

# Runs one case: $1 the folder to run in, $2... the files.
run_case() {
  local dir=$1 name=$2; shift 2
  local args expected_exit
  args=$(cd "$dir" && sed -n 's/^# args: //p' "$@" | head -n 1)
  expected_exit=$(cd "$dir" && sed -n 's/^# exit: //p' "$@" | head -n 1)
  (cd "$dir" && sed -n 's/^# expect: //p' "$@") | LC_ALL=C sort > "$work/expected"
  # shellcheck disable=SC2086 # args is a list of options
  (cd "$dir" && lint $args "$@") > "$work/out" 2> "$work/err"
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

run_cases() {
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
}
