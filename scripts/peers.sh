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

# npm writes node_modules/.package-lock.json on every install: older than package-lock.json means stale.
installed_lock=node_modules/.package-lock.json
up_to_date=1
for package in n3 eyereasoner @solid/community-server swipl-wasm; do
  [ -f "node_modules/$package/package.json" ] || up_to_date=0
done
if [ ! -f "$installed_lock" ] || [ package-lock.json -nt "$installed_lock" ]; then
  up_to_date=0
fi

if [ "$up_to_date" = 1 ]; then
  echo "peers.sh: npm peers are installed" >&2
  exit 0
fi
echo "peers.sh: installing npm peers (npm ci)" >&2
npm ci --no-audit --no-fund --loglevel=error
