#!/usr/bin/env bash
# Checks `ldgsm reason --pass-only-new` against its peers, N3.js and EYE 21 (the eyereasoner package):
#  1. RDFS: ldgsm derives exactly the triples N3.js and EYE derive under the RDFS rules of
#     bench/reason/rdfs-core.n3, on a small generated data set;
#  2. the cases: for every directory under tests/reason/cases/, ldgsm and EYE derive the same N3 graph,
#     save for the differences the case declares (eye-only.n3, ldgsm-only.n3, eye-not-n3.txt, eye-fails;
#     tests/reason/peer-cases.js says how).
# With the peers installed, any failure of theirs (EYE's "** ERROR **", a timeout of EYE_TIMEOUT seconds
# per run) fails the test, naming the case; it exits 77 (skipped) only when node or the npm peers are not
# installed (scripts/peers.sh installs them).
#
# usage: tests/reason/run_peer_agreement.sh LDGSM_BINARY [CASE_DIR...]   (no CASE_DIR: every case)
set -euo pipefail

ldgsm=${1:?usage: run_peer_agreement.sh LDGSM_BINARY [CASE_DIR...]}
ldgsm=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bench="$root/bench/reason"
eye="$root/node_modules/eyereasoner/dist/bin/index.js"
eye_timeout=${EYE_TIMEOUT:-60}

if ! command -v node >/dev/null || [ ! -f "$root/node_modules/n3/package.json" ] || [ ! -f "$eye" ]; then
  echo "run_peer_agreement.sh: SKIPPED: node or the npm peers (n3, eyereasoner) are missing (run scripts/peers.sh)" >&2
  exit 77
fi

work=$(mktemp -d /tmp/ldgsm-peer-agreement.XXXXXX)
trap 'rm -rf "$work"' EXIT
failed=0

# --- 1. RDFS on generated data (each step checked: set -e does not hold inside a function called in ||)
rdfs_agreement() {
  node "$bench/gen.js" --depth 5 --instances 200 --triples 1000 --seed 7 --out "$work" || return 1
  cp "$bench/rdfs-core.n3" "$work/" && cd "$work" || return 1
  # The Turtle form of the same data must give the same result. (A sanitizer build may report undefined
  # behaviour with exit status 0.)
  local data
  for data in nt ttl; do
    "$ldgsm" reason --pass-only-new -o ntriples data.$data rdfs-core.n3 > ldgsm-$data.nt 2> ldgsm.stderr &&
      ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error: ' ldgsm.stderr ||
      { echo "FAIL rdfs: ldgsm failed on data.$data:"; tail -5 ldgsm.stderr; return 1; }
  done
  node "$bench/n3js-reason.js" data.nt rdfs-core.n3 n3js.nt || { echo "FAIL rdfs: N3.js failed"; return 1; }
  local status=0
  timeout -k 5 "$eye_timeout" node "$eye" --nope --quiet --pass-only-new --turtle data.nt --n3 rdfs-core.n3 \
    > eye.n3 2> eye.stderr < /dev/null || status=$?
  # the eyereasoner command exits 0 even after "** ERROR **"
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    echo "FAIL rdfs: EYE took over ${eye_timeout}s"; return 1
  elif [ "$status" != 0 ] || grep -q '\*\* ERROR \*\*' eye.stderr; then
    echo "FAIL rdfs: EYE failed (exit $status):"; tail -5 eye.stderr; return 1
  fi
  node "$bench/compare.js" ldgsm=ldgsm-nt.nt ldgsm-ttl=ldgsm-ttl.nt n3js=n3js.nt eye=eye.n3 ||
    { echo "FAIL rdfs: ldgsm, N3.js and EYE derive different triples"; return 1; }
}
(rdfs_agreement) || failed=1

# --- 2. every case, ldgsm against EYE
node "$root/tests/reason/peer-cases.js" "$ldgsm" --eye-timeout "$eye_timeout" "$@" || failed=1

[ "$failed" = 0 ]
