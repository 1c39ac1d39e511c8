#!/usr/bin/env bash
# Checks that `ldgsm reason --pass-only-new` derives exactly the triples N3.js (and EYE, when it finishes
# in time) derive under the RDFS rules of bench/reason/rdfs-core.n3, on a small generated data set.
# Exits 77 (skipped) when the npm peers are not installed (scripts/peers.sh installs them).
#
# usage: tests/reason/run_peer_agreement.sh LDGSM_BINARY
set -euo pipefail

ldgsm=${1:?usage: run_peer_agreement.sh LDGSM_BINARY}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bench="$root/bench/reason"
eye_timeout=${EYE_TIMEOUT:-60}

if ! command -v node >/dev/null || [ ! -f "$root/node_modules/n3/package.json" ]; then
  echo "run_peer_agreement.sh: SKIPPED: node or the npm peers are missing (run scripts/peers.sh)" >&2
  exit 77
fi

work=$(mktemp -d /tmp/ldgsm-peer-agreement.XXXXXX)
trap 'rm -rf "$work"' EXIT

node "$bench/gen.js" --depth 5 --instances 200 --triples 1000 --seed 7 --out "$work"
cp "$bench/rdfs-core.n3" "$work/"
cd "$work"

"$ldgsm" reason --pass-only-new -o ntriples data.nt rdfs-core.n3 > ldgsm.nt
# The Turtle form of the same data must give the same result.
"$ldgsm" reason --pass-only-new -o ntriples data.ttl rdfs-core.n3 > ldgsm-ttl.nt
node "$bench/n3js-reason.js" data.nt rdfs-core.n3 n3js.nt
outputs=(ldgsm=ldgsm.nt ldgsm-ttl=ldgsm-ttl.nt n3js=n3js.nt)

eye="$root/node_modules/eyereasoner/dist/bin/index.js"
if [ -f "$eye" ]; then
  status=0
  timeout "$eye_timeout" node "$eye" --nope --quiet --pass-only-new --turtle data.nt --n3 rdfs-core.n3 \
    > eye.n3 2> eye.stderr < /dev/null || status=$?
  if [ "$status" = 0 ]; then
    outputs+=(eye=eye.n3)
  elif [ "$status" = 124 ]; then
    echo "run_peer_agreement.sh: EYE took over ${eye_timeout}s, compared without it" >&2
  else
    echo "run_peer_agreement.sh: EYE failed (exit $status), compared without it:" >&2
    tail -5 eye.stderr >&2
  fi
fi

node "$bench/compare.js" "${outputs[@]}"
