#!/usr/bin/env bash
# Installs the Debian packages ldgsm builds and tests with, when any is missing (apt-get, as root).
# libcurl4-gnutls-dev, not the openssl flavour: that one conflicts with libraptor2-dev.
# librdf0-dev (redland) only for tests: test_sentry_differential checks sentries against its SPARQL engine.
set -euo pipefail
packages=(build-essential cmake pkg-config libraptor2-dev libxml2-dev librasqal3-dev libcurl4-gnutls-dev
          libmicrohttpd-dev libcmocka-dev nettle-dev libgraphviz-dev chromium curl python3 jq nodejs npm
          openssl strace iproute2 librdf0-dev libgmp-dev libpcre2-dev libjansson-dev
          libwebsockets-dev python3-prometheus-client)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js may come from elsewhere than Debian (a newer build on PATH): then its packages are not needed.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/install-deps.sh: run as root (or install: ${missing[*]})" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
