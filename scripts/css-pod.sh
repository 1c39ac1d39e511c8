#!/usr/bin/env bash
# scripts/css-pod.sh: a Solid pod that refuses anonymous writes, for `ldgsm run --auth` (docs/guide/pod.md):
# Community Solid Server 7.2.0 (node_modules/, scripts/peers.sh) with its own config/file.json (resources
# on disk in DIR, WAC authorization, Solid-OIDC with client credentials), bound to 127.0.0.1, with an
# account and a pod seeded non-interactively (--seedConfig) and client credentials made through CSS's
# account API. It writes DIR/auth.json (mode 0600), the file `--auth` reads:
#   {"client_id": ..., "client_secret": ..., "issuer": "http://127.0.0.1:PORT/", "webid": ...}
# and DIR/pod.env (CSS_POD_URL, the pod's URL; CSS_POD_PID; CSS_POD_WEBID).
#
# Usage: css-pod.sh start [DIR]   (DIR default ./css-pod; port CSS_POD_PORT, default 3000; pod name
#                                  CSS_POD_NAME, default "agent"; CSS_POD_TOKEN_TTL, seconds, the life of
#                                  the access tokens of client credentials, default CSS's 600)
#        css-pod.sh stop [DIR]    stops the server DIR/pod.env names, by its PID
# The account's e-mail is agent@example.org; its password is made at random and kept in DIR/account.json
# (mode 0600). Starting again on the same DIR keeps the pod's data and makes new client credentials.
set -eu
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
root=$(cd "$here/.." && pwd)
css=$root/node_modules/@solid/community-server
action=${1:?usage: css-pod.sh start|stop [DIR]}
dir=${2:-./css-pod}
die() { echo "css-pod.sh: $*" >&2; exit 1; }

stop() {
  [ -f "$dir/pod.env" ] || die "no $dir/pod.env: no pod started there"
  local pid
  pid=$(sed -n 's/^CSS_POD_PID=//p' "$dir/pod.env")
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  sed -i '/^CSS_POD_PID=/d' "$dir/pod.env"
}

# json FILE EXPR: a value of a JSON document (python3's standard library: no jq here)
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$@"; }

start() {
  [ -f "$css/bin/server.js" ] || die "Community Solid Server is not installed in $root/node_modules (run scripts/peers.sh)"
  command -v node >/dev/null || die "node is not installed"
  mkdir -p "$dir/data"
  dir=$(cd "$dir" && pwd)
  local port=${CSS_POD_PORT:-3000} name=${CSS_POD_NAME:-agent} email=agent@example.org password
  # localhost, not 127.0.0.1: CSS takes an http WebID or issuer only on localhost (else https)
  local url="http://localhost:$port/"
  (umask 077
   [ -f "$dir/account.json" ] ||
     python3 -c 'import json, secrets, sys; print(json.dumps({"email": sys.argv[1], "password": secrets.token_urlsafe(24)}))' \
       "$email" > "$dir/account.json")
  password=$(json "$dir/account.json" 'd["password"]')
  # the seed: the account and its pod (CSS skips an account that exists already, with a warning)
  (umask 077; printf '[{"email": "%s", "password": "%s", "pods": [{"name": "%s"}]}]\n' "$email" "$password" "$name" \
     > "$dir/seed.json")
  # a shorter token life: CSS's own config/file.json with its IdentityProviderFactory's configuration
  # overridden (Components.js Override), the rest of that configuration as installed
  local config=$css/config/file.json
  if [ -n "${CSS_POD_TOKEN_TTL:-}" ]; then
    config=$dir/css-config.json
    python3 - "$css/config/identity/handler/base/provider-factory.json" "$CSS_POD_TOKEN_TTL" > "$config" <<'PY' ||
import json, sys
base = json.load(open(sys.argv[1]))
factory = next(n for n in base["@graph"] if n["@id"] == "urn:solid-server:default:IdentityProviderFactory")
config = factory["config"]
config["ttl"]["ClientCredentials"] = int(sys.argv[2])
print(json.dumps({"@context": base["@context"], "import": ["css:config/file.json"], "@graph": [{
    "@id": "urn:ldgsm:css-pod:token-ttl", "@type": "Override",
    "overrideInstance": {"@id": factory["@id"]},
    "overrideParameters": {"@type": "IdentityProviderFactory", "config": config}}]}, indent=2))
PY
      die "cannot write $config"
  fi
  # the server's files are its own (CSS keeps the accounts and the client secrets in data/.internal)
  umask 077
  # node itself (not npx) so that $! is the server's PID; the preload binds it to 127.0.0.1 (CSS 7 has no
  # option for that); CSS reads CSS_* variables as its options, so none reaches it
  env $(env | sed -n 's/^\(CSS_[A-Za-z0-9_]*\)=.*/-u \1/p') node --require "$root/tests/ldp/css/bind-loopback.cjs" \
    "$css/bin/server.js" -c "$config" -m "$css" -f "$dir/data" -p "$port" -b "$url" \
    --seedConfig "$dir/seed.json" -l warn > "$dir/css.log" 2>&1 &
  local pid=$! i
  for i in $(seq 900); do
    curl -s -o /dev/null "$url.account/" && break
    kill -0 "$pid" 2>/dev/null || { cat "$dir/css.log" >&2; die "Community Solid Server did not start"; }
    sleep 0.1
  done
  [ "$i" -lt 900 ] || { kill -TERM "$pid"; die "Community Solid Server did not answer in 90 s ($dir/css.log)"; }
  # the account API: log in with the password, then ask for client credentials for the pod's WebID
  local webid="${url}$name/profile/card#me" token
  token=$(curl -sf -H 'Content-Type: application/json' -d "$(< "$dir/account.json")" "$url.account/login/password/" |
          python3 -c 'import json, sys; print(json.load(sys.stdin)["authorization"])') ||
    { kill -TERM "$pid"; die "could not log in to the account $email ($dir/css.log)"; }
  local controls credentials
  controls=$(curl -sf -H "Authorization: CSS-Account-Token $token" "$url.account/")
  credentials=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["controls"]["account"]["clientCredentials"])' "$controls")
  (umask 077
   curl -sf -H "Authorization: CSS-Account-Token $token" -H 'Content-Type: application/json' \
     -d "{\"name\": \"ldgsm-$(date +%s)\", \"webId\": \"$webid\"}" "$credentials" > "$dir/credentials.json") ||
    { kill -TERM "$pid"; die "CSS refused to make client credentials ($dir/css.log)"; }
  (umask 077
   python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
print(json.dumps({"client_id": c["id"], "client_secret": c["secret"], "issuer": sys.argv[2], "webid": sys.argv[3]}))' \
     "$dir/credentials.json" "$url" "$webid" > "$dir/auth.json")
  chmod 600 "$dir/auth.json"
  rm -f "$dir/credentials.json"
  printf 'CSS_POD_URL=%s\nCSS_POD_WEBID=%s\nCSS_POD_PID=%s\n' "$url$name/" "$webid" "$pid" > "$dir/pod.env"
  echo "css-pod.sh: pod $url$name/ (WebID $webid), PID $pid; credentials in $dir/auth.json"
}

case $action in
  start) start ;;
  stop) stop ;;
  *) die "unknown action '$action' (start or stop)" ;;
esac
