#!/usr/bin/env bash
# Installs the npm peers that benchmarks and agreement tests compare ldgsm with (N3.js, EYE, the Community
# Solid Server) into node_modules/ at the repo root, from package-lock.json, when they are missing or
# older than the lock file. Installs Node.js and npm from Debian first if they are missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "peers.sh: installing nodejs and npm" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

# Up to date when the packages are there and were installed from this very package-lock.json: npm ci
# records its SHA-256 in node_modules/.ldgsm-lock.sha256 (below). Not by the files' times: a fresh clone's
# package-lock.json is newer than any install, and npm ci empties node_modules first, so a clone whose
# node_modules is a link to a shared install would wipe that install for every other user of it.
stamp=node_modules/.ldgsm-lock.sha256
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
up_to_date=1
for package in n3 eyereasoner @solid/community-server swipl-wasm; do
  [ -f "node_modules/$package/package.json" ] || up_to_date=0
done
[ "$(cat "$stamp" 2>/dev/null)" = "$lock_sum" ] || up_to_date=0

if [ "$up_to_date" = 1 ]; then
  echo "peers.sh: npm peers are installed" >&2
  exit 0
fi
echo "peers.sh: installing npm peers (npm ci)" >&2
npm ci --no-audit --no-fund --loglevel=error
echo "$lock_sum" > "$stamp"
