#!/usr/bin/env bash
# The W3C N3 test suite with ldgsm (tests/n3suite/run.js): first the runner's self-test (its graph
# comparison tells changed documents from their originals), then every parser and reasoner test. Fails
# when a test listed in ldgsm-passes.txt no longer passes; lists the tests that pass but are not listed
# yet, to add them. Exits 77 (skipped) when node or the npm peers are missing (scripts/peers.sh).
#
# N3SUITE_MANIFEST=parser or reasoner runs that manifest's tests only (tests/sanitizer.cmake: reasoner).
#
# usage: tests/n3suite/run_n3suite.sh LDGSM_BINARY
set -euo pipefail

ldgsm=${1:?usage: run_n3suite.sh LDGSM_BINARY}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# Per test; the sanitizer build is slower (LDGSM_TEST_WAIT is raised for it, see scripts/test.sh).
per_test_timeout=${LDGSM_TEST_WAIT:-20}
manifest=${N3SUITE_MANIFEST:-}
case "$manifest" in
  "" | parser | reasoner) ;;
  *) echo "run_n3suite.sh: N3SUITE_MANIFEST is parser or reasoner, not '$manifest'" >&2; exit 2 ;;
esac

if ! command -v node >/dev/null || [ ! -f "$root/node_modules/n3/package.json" ]; then
  echo "run_n3suite.sh: SKIPPED: node or the npm peers are missing (run scripts/peers.sh)" >&2
  exit 77
fi

work=$(mktemp -d /tmp/ldgsm-n3suite.XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! node "$here/run.js" --self-test > "$work/self-test.txt"; then
  cat "$work/self-test.txt"
  echo "run_n3suite.sh: FAIL: the runner's self-test failed" >&2
  exit 1
fi

node "$here/run.js" --engine "ldgsm=$ldgsm" --timeout "$per_test_timeout" --list "$work/passes.txt" \
  ${manifest:+--manifest "$manifest"} > "$work/run.txt"
sed -n '/^manifest /,$p' "$work/run.txt"

grep -v '^#' "$here/ldgsm-passes.txt" | sed '/^$/d' | grep "^${manifest:+$manifest/}" | LC_ALL=C sort > "$work/listed.txt"
LC_ALL=C sort "$work/passes.txt" > "$work/passing.txt"
LC_ALL=C comm -23 "$work/listed.txt" "$work/passing.txt" > "$work/regressions.txt"
LC_ALL=C comm -13 "$work/listed.txt" "$work/passing.txt" > "$work/new.txt"

if [ -s "$work/new.txt" ]; then
  echo "newly passing ($(wc -l < "$work/new.txt")): add them to tests/n3suite/ldgsm-passes.txt"
  sed 's/^/  /' "$work/new.txt"
fi
if [ -s "$work/regressions.txt" ]; then
  echo "FAIL: $(wc -l < "$work/regressions.txt") test(s) listed in tests/n3suite/ldgsm-passes.txt no longer pass:"
  while read -r id; do
    grep -F " $id: " "$work/run.txt" | sed 's/^/  /' || echo "  $id"
  done < "$work/regressions.txt"
  exit 1
fi
echo "run_n3suite.sh: ok: $(wc -l < "$work/listed.txt") listed tests pass"
