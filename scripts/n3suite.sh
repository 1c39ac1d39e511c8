#!/usr/bin/env bash
# The W3C N3 test suite (tests/n3suite) with ldgsm and EYE in the same run: one line per test and engine,
# then the passed/total table per manifest and engine, then the tests EYE passes and ldgsm does not (and
# the reverse). EYE (WebAssembly) takes 1-2 s a test, so the run takes 4-10 minutes on 2 busy cores.
# --record writes the list of tests EYE passes to tests/n3suite/eye-passes.txt.
#
# usage: scripts/n3suite.sh [--record] [LDGSM_BINARY]   (default build/ldgsm; other options of
#        tests/n3suite/run.js go in N3SUITE_OPTIONS, e.g. N3SUITE_OPTIONS="--manifest reasoner")
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
record=0
if [ "${1:-}" = "--record" ]; then record=1; shift; fi
if [ "$record" = 1 ] && [ -n "${N3SUITE_OPTIONS:-}" ]; then
  echo "n3suite.sh: --record measures the whole suite: unset N3SUITE_OPTIONS" >&2
  exit 2
fi
ldgsm=${1:-$root/build/ldgsm}
[ -x "$ldgsm" ] || { echo "n3suite.sh: no ldgsm binary at $ldgsm (build it, or give its path)" >&2; exit 2; }
if ! command -v node >/dev/null || [ ! -f "$root/node_modules/eyereasoner/package.json" ]; then
  echo "n3suite.sh: node or the npm peers are missing (run scripts/peers.sh)" >&2
  exit 2
fi

work=$(mktemp -d /tmp/ldgsm-n3suite-both.XXXXXX)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086 # N3SUITE_OPTIONS is a list of options
node "$root/tests/n3suite/run.js" --engine "ldgsm=$ldgsm" --engine eye ${N3SUITE_OPTIONS:-} \
  --list "ldgsm=$work/ldgsm.txt" --list "eye=$work/eye.txt" | tee "$work/run.txt"

echo
echo "EYE passes, ldgsm does not ($(LC_ALL=C comm -23 "$work/eye.txt" "$work/ldgsm.txt" | wc -l)):"
LC_ALL=C comm -23 "$work/eye.txt" "$work/ldgsm.txt" | while read -r id; do
  grep -F "FAIL ldgsm $id: " "$work/run.txt" | sed 's/^FAIL ldgsm /  /' | cut -c1-220
done
echo "ldgsm passes, EYE does not ($(LC_ALL=C comm -13 "$work/eye.txt" "$work/ldgsm.txt" | wc -l)):"
LC_ALL=C comm -13 "$work/eye.txt" "$work/ldgsm.txt" | while read -r id; do
  grep -F "FAIL eye $id: " "$work/run.txt" | sed 's/^FAIL eye /  /' | cut -c1-220
done

if [ "$record" = 1 ]; then
  {
    echo "# The W3C N3 suite tests EYE (eyereasoner $(node -p "require('$root/node_modules/eyereasoner/package.json').version")) passes, measured by scripts/n3suite.sh --record on $(date -u +%Y-%m-%d)."
    cat "$work/eye.txt"
  } > "$root/tests/n3suite/eye-passes.txt"
  echo "recorded tests/n3suite/eye-passes.txt"
fi
