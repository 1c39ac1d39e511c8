#!/usr/bin/env bash
# scripts/peers.sh decides whether the npm peers are installed by the package-lock.json they were
# installed from, not by the files' times: a fresh clone's package-lock.json is newer than any install,
# and `npm ci`, run for it, empties node_modules first (a node_modules linked to a shared install was
# wiped so). Run in a scratch tree, a copy of the script and the lock file, with `npm` and `node` stubs
# that log their calls: a complete install from this lock file is kept, even with the lock file touched
# after it; one from another lock file, or missing a package, is installed again (npm ci) and recorded.
# $1 (the ldgsm binary) is unused.
set -u
. "$(dirname "$0")/../agent/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
tree=$work/tree
mkdir -p "$tree/scripts" "$work/bin"
cp "$root/scripts/peers.sh" "$tree/scripts/"
cp "$root/package-lock.json" "$tree/"
printf '#!/bin/sh\necho "npm $*" >> "%s/npm.log"\n' "$work" > "$work/bin/npm"
printf '#!/bin/sh\nexit 0\n' > "$work/bin/node"
chmod +x "$work/bin/npm" "$work/bin/node"
: > "$work/npm.log"
install_packages() {
  local package
  for package in n3 eyereasoner @solid/community-server swipl-wasm; do
    mkdir -p "$tree/node_modules/$package"
    echo '{}' > "$tree/node_modules/$package/package.json"
  done
}
peers() { (cd "$tree" && PATH="$work/bin:$PATH" bash scripts/peers.sh) > "$work/peers.out" 2>&1; }
npm_calls() { grep -c '^npm ci' "$work/npm.log"; }

install_packages
peers
check "without a record of the lock file, the packages are installed (npm ci)" [ "$(npm_calls)" = 1 ]
check "and the lock file they came from is recorded" [ -s "$tree/node_modules/.ldgsm-lock.sha256" ]
peers
check "installed from this lock file: nothing is installed again" [ "$(npm_calls)" = 1 ]
touch -d '+1 hour' "$tree/package-lock.json"
peers
check "the lock file newer than the install, its content the same (a fresh clone): nothing is installed" \
  [ "$(npm_calls)" = 1 ]
check "and it says the peers are installed" grep -q 'npm peers are installed' "$work/peers.out"
echo ' ' >> "$tree/package-lock.json"
peers
check "another lock file: installed again" [ "$(npm_calls)" = 2 ]
peers
check "and recorded: not a third time" [ "$(npm_calls)" = 2 ]
rm -r "$tree/node_modules/eyereasoner"
peers
check "a package missing: installed again" [ "$(npm_calls)" = 3 ]
finish
