#!/usr/bin/env bash
# Checks `ldgsm reason --pass-only-new` against its peers, N3.js and EYE 21 (the eyereasoner package):
#  1. RDFS: ldgsm derives exactly the triples N3.js derives under the RDFS rules of
#     bench/reason/rdfs-core.n3, on a small generated data set, read as N-Triples and as Turtle; the same
#     data and rules are a case of part 2 too, where EYE derives the same graph;
#  2. the cases: for every directory under tests/reason/cases/ (and the RDFS one), ldgsm and EYE derive
#     the same N3 graph, save for the differences the case declares (eye-only.n3, ldgsm-only.n3,
#     eye-not-n3.txt, eye-fails; tests/reason/peer-cases.js says how). EYE runs once for all of them, in
#     peer-cases.js's worker: a node process of its own for the RDFS data cost 3.3 s of CPU, most of it
#     compiling EYE's WebAssembly.
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
  node "$bench/compare.js" ldgsm=ldgsm-nt.nt ldgsm-ttl=ldgsm-ttl.nt n3js=n3js.nt ||
    { echo "FAIL rdfs: ldgsm and N3.js derive different triples"; return 1; }
  # the case of part 2 (N-Triples is Turtle)
  mkdir -p rdfs-generated && cp rdfs-core.n3 rdfs-generated/program.n3 && cp data.nt rdfs-generated/data.ttl
}
(rdfs_agreement) || failed=1

# --- 2. every case, ldgsm against EYE
cases=("$@")
[ $# -gt 0 ] || cases=("$root"/tests/reason/cases/*/)
[ -d "$work/rdfs-generated" ] && cases+=("$work/rdfs-generated")
node "$root/tests/reason/peer-cases.js" "$ldgsm" --eye-timeout "$eye_timeout" "${cases[@]}" || failed=1

[ "$failed" = 0 ]
