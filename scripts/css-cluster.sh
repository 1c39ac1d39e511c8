#!/usr/bin/env bash
# scripts/css-cluster.sh: a Community Solid Server 7.2.0 deployment with several worker processes, the
# Redis resource locker and shared file storage, all on 127.0.0.1 (issue 17, item 2). For benchmarks
# (bench/scale) and for trying out a fleet of `ldgsm run --shard I/N` agents over a multi-process LDP tier.
#
#   scripts/css-cluster.sh start --dir DIR [--workers N] [--port P] [--redis-port R] [--log-level L] [--cpus LIST]
#                                [--notifications disabled|webhooks|websockets|all]
#   scripts/css-cluster.sh stop --dir DIR
#   scripts/css-cluster.sh status --dir DIR
#
# start:
#   - installs what is missing: Node.js, npm and the pinned CSS (package-lock.json) by scripts/peers.sh, and
#     Debian's redis-server (apt-get, as root; waits for another apt-get's lock) when N > 1;
#   - N > 1: starts redis-server as a plain background process (not via systemd), on 127.0.0.1, on a free
#     port (or R), with no persistence: `--save '' --appendonly no --daemonize no`; waits for PONG;
#   - writes DIR/css.json, derived from /work/shared/peers/css-memory-open.json (no authorization, no
#     accounts, notifications off unless --notifications names CSS's configuration
#     css:config/http/notifications/NAME.json, writable root): the file storage backend
#     (css:config/storage/backend/file.json, under DIR/data), the key-value storage kept in that resource
#     store (css:config/storage/key-value/resource-store.json, under /.internal/: shared by the workers) and
#     the Redis locker (css:config/util/resource-locker/redis.json) with an Override giving the RedisLocker
#     its `redisClient` "127.0.0.1:R"; for N = 1 (the 1-worker baseline: no Redis at all) the memory locker
#     and key-value storage in memory (css:config/storage/key-value/memory.json; in the file store, the
#     memory locker's counts would be files written on every request);
#   - starts `node --require bind-loopback.cjs .../bin/server.js -c DIR/css.json -f DIR/data -w N -p P
#     -b http://127.0.0.1:P/` (node itself, so that the PID recorded is the server's; CSS's primary forks
#     the N workers with the same preload, and the listening socket is bound to 127.0.0.1 only), waits
#     (at most 180 s) until it answers, then checks with `ss -ltnp` that every socket the deployment
#     listens on is on 127.0.0.1 (it stops everything and fails otherwise);
#   - records the PIDs in DIR/pids (`redis PID`, `css PID`, `worker PID` lines), the URL in DIR/url (also
#     printed on standard output), logs in DIR/css.log and DIR/redis.log.
# stop: kills what DIR/pids names, by PID only (TERM, then KILL after 15 s): the CSS primary, its workers,
#   redis-server. DIR/data is kept (delete it yourself; a new start into DIR starts from empty storage).
# status: the PIDs still alive and the URL; exit 1 when nothing runs.
#
# CSS refuses N > 1 with any component that is not thread-safe (the in-memory data accessor, the memory
# locker): that is why a cluster needs the file backend and a shared locker. The storage is shared by
# all workers because they are processes on one machine reading and writing one directory; the same
# layout spans machines with a shared file system and one Redis.
# --cpus LIST pins CSS (primary and workers) and Redis with taskset. -l defaults to warn (CSS's `info`
# logs a line per request, `{W-PID} ... Received GET request for /x`: bench/scale/check-cluster.sh uses
# it to see which worker served what).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
css_home="$root/node_modules/@solid/community-server"
peers=/work/shared/peers
[ -f "$peers/bind-loopback.cjs" ] || peers="$root/tests/ldp/css" # the copies the tests use

usage() {
  sed -n '5,7p' "$0" | sed 's/^# *//' >&2
  exit 2
}
[ $# -ge 1 ] || usage
cmd=$1; shift
dir='' workers=1 port='' redis_port='' log_level=warn cpus='' notifications=disabled
while [ $# -gt 0 ]; do
  case $1 in --*) [ $# -ge 2 ] || { echo "css-cluster.sh: $1 needs a value" >&2; usage; } ;; esac
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --workers|-w) workers=$2; shift 2 ;;
    --port|-p) port=$2; shift 2 ;;
    --redis-port) redis_port=$2; shift 2 ;;
    --log-level|-l) log_level=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --notifications) notifications=$2; shift 2 ;;
    *) echo "css-cluster.sh: unknown argument $1" >&2; usage ;;
  esac
done
[ -n "$dir" ] || { echo "css-cluster.sh: --dir DIR is required" >&2; usage; }
case $workers in ''|*[!0-9]*|0) echo "css-cluster.sh: --workers takes a number >= 1" >&2; exit 2 ;; esac
case $notifications in disabled|webhooks|websockets|all) ;;
  *) echo "css-cluster.sh: --notifications takes disabled, webhooks, websockets or all" >&2; exit 2 ;; esac

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

# stop_all: kills every PID DIR/pids names (workers and redis too), TERM first, KILL after 15 s.
stop_all() {
  local f="$dir/pids" pid name
  [ -f "$f" ] || return 0
  # CSS's primary first: on TERM it stops its workers and closes its Redis connections.
  while read -r name pid; do
    [ "$name" = css ] && alive "$pid" && kill -TERM "$pid" 2>/dev/null || true
  done < "$f"
  for _ in $(seq 1 150); do
    local any=0
    while read -r name pid; do
      { [ "$name" = css ] || [ "$name" = worker ]; } && alive "$pid" && any=1
    done < "$f"
    [ $any = 0 ] && break
    sleep 0.1
  done
  while read -r name pid; do
    if alive "$pid"; then
      if [ "$name" = redis ]; then kill -TERM "$pid" 2>/dev/null || true; else kill -KILL "$pid" 2>/dev/null || true; fi
    fi
  done < "$f"
  for _ in $(seq 1 50); do
    local any=0
    while read -r name pid; do alive "$pid" && any=1; done < "$f"
    [ $any = 0 ] && break
    sleep 0.1
  done
  while read -r name pid; do alive "$pid" && kill -KILL "$pid" 2>/dev/null || true; done < "$f"
  rm -f "$f"
}

case $cmd in
  stop)
    stop_all
    echo "css-cluster.sh: stopped (data kept in $dir/data)" >&2
    exit 0 ;;
  status)
    [ -f "$dir/pids" ] || { echo "css-cluster.sh: nothing started in $dir" >&2; exit 1; }
    up=0
    while read -r name pid; do
      if alive "$pid"; then echo "$name $pid running"; up=1; else echo "$name $pid gone"; fi
    done < "$dir/pids"
    [ -f "$dir/url" ] && cat "$dir/url"
    [ $up = 1 ]; exit ;;
  start) ;;
  *) usage ;;
esac

[ ! -f "$dir/pids" ] || { echo "css-cluster.sh: $dir/pids exists: stop that deployment first" >&2; exit 1; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# What it needs: node, the pinned CSS, and redis-server for N > 1.
if [ ! -f "$css_home/bin/server.js" ] || ! command -v node > /dev/null; then
  "$root/scripts/peers.sh"
fi
if [ "$workers" -gt 1 ] && ! command -v redis-server > /dev/null; then
  [ "$(id -u)" = 0 ] || { echo "css-cluster.sh: redis-server is missing; install it as root: apt-get install redis-server" >&2; exit 1; }
  echo "css-cluster.sh: installing redis-server (Debian)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq redis-server > "$dir/apt.log" 2>&1 || {
    apt-get -o DPkg::Lock::Timeout=600 update -qq >> "$dir/apt.log" 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq redis-server >> "$dir/apt.log" 2>&1
  } || { echo "css-cluster.sh: apt-get install redis-server failed (see $dir/apt.log)" >&2; exit 1; }
fi

pin=()
[ -n "$cpus" ] && pin=(taskset -c "$cpus")
: > "$dir/pids"
trap 'echo "css-cluster.sh: start failed; stopping what it started" >&2; stop_all; exit 1' ERR

if [ "$workers" -gt 1 ]; then
  [ -n "$redis_port" ] || redis_port=$(free_port)
  "${pin[@]}" redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
    --dir "$dir" --logfile "$dir/redis.log" > /dev/null 2>&1 &
  echo "redis $!" >> "$dir/pids"
  for _ in $(seq 1 100); do
    [ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ] && break
    sleep 0.1
  done
  [ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ] ||
    { echo "css-cluster.sh: redis-server did not answer (see $dir/redis.log)" >&2; false; }
  locker='"css:config/util/resource-locker/redis.json"'
  keyvalue='"css:config/storage/key-value/resource-store.json"'
  override=',
    {
      "comment": "The Redis locker of this deployment: redis-server on 127.0.0.1:'"$redis_port"' (css-cluster.sh).",
      "@type": "Override",
      "overrideInstance": { "@id": "urn:solid-server:default:RedisLocker" },
      "overrideParameters": { "@type": "RedisLocker", "redisClient": "127.0.0.1:'"$redis_port"'" }
    }'
else
  locker='"css:config/util/resource-locker/memory.json"'
  # One process: key-value storage in memory. Kept in the file store (as a cluster needs), the memory
  # locker's read counts (its LockStorage) would be JSON files written under /.internal/locks/ on every
  # request: 25-29 ms of CPU per request instead of 10-11 (measured, bench/scale/README.md, css1-old).
  keyvalue='"css:config/storage/key-value/memory.json"'
  override=
fi

# The configuration: css-memory-open.json with the file backend, file-kept key-value storage and the locker.
cat > "$dir/css.json" << EOF
{
  "@context": "https://linkedsoftwaredependencies.org/bundles/npm/@solid/community-server/^7.0.0/components/context.jsonld",
  "import": [
    "css:config/app/init/initialize-root.json",
    "css:config/app/main/default.json",
    "css:config/app/variables/default.json",
    "css:config/http/handler/default.json",
    "css:config/http/middleware/default.json",
    "css:config/http/notifications/$notifications.json",
    "css:config/http/server-factory/http.json",
    "css:config/http/static/default.json",
    "css:config/identity/access/public.json",
    "css:config/identity/email/default.json",
    "css:config/identity/handler/disabled.json",
    "css:config/identity/oidc/disabled.json",
    "css:config/identity/ownership/token.json",
    "css:config/identity/pod/static.json",
    "css:config/ldp/authentication/dpop-bearer.json",
    "css:config/ldp/authorization/allow-all.json",
    "css:config/ldp/handler/default.json",
    "css:config/ldp/metadata-parser/default.json",
    "css:config/ldp/metadata-writer/default.json",
    "css:config/ldp/modes/default.json",
    "css:config/storage/backend/file.json",
    $keyvalue,
    "css:config/storage/location/root.json",
    "css:config/storage/middleware/default.json",
    "css:config/util/auxiliary/empty.json",
    "css:config/util/identifiers/suffix.json",
    "css:config/util/index/default.json",
    "css:config/util/logging/winston.json",
    "css:config/util/representation-conversion/default.json",
    $locker,
    "css:config/util/variables/default.json"
  ],
  "@graph": [
    {
      "comment": "css-cluster.sh: CSS for tests and benchmarks on loopback: file storage, writable root, NO authorization (allow-all), no accounts/OIDC, notifications off; $workers worker(s)."
    }$override
  ]
}
EOF

rm -rf "$dir/data"; mkdir -p "$dir/data"
[ -n "$port" ] || port=$(free_port)
url="http://127.0.0.1:$port/"
# node itself (not npx) so that $! is the server's primary; the preload binds every listen() to 127.0.0.1.
"${pin[@]}" node --require "$peers/bind-loopback.cjs" "$css_home/bin/server.js" \
  -c "$dir/css.json" -m "$css_home" -f "$dir/data" -w "$workers" -p "$port" -b "$url" -l "$log_level" \
  > "$dir/css.log" 2>&1 &
css_pid=$!
echo "css $css_pid" >> "$dir/pids"
up=0
for _ in $(seq 1 1800); do
  alive "$css_pid" || break
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url" || true)
  case $code in 2*|4*) up=1; break ;; esac
  sleep 0.1
done
[ $up = 1 ] || { echo "css-cluster.sh: CSS did not answer at $url:" >&2; tail -20 "$dir/css.log" >&2; false; }
# Workers: the primary's children (with -w 1 CSS runs in the one process, without workers).
if [ "$workers" -gt 1 ]; then
  for _ in $(seq 1 100); do
    [ "$(pgrep -P "$css_pid" | wc -l)" -ge "$workers" ] && break
    sleep 0.1
  done
  for w in $(pgrep -P "$css_pid"); do echo "worker $w" >> "$dir/pids"; done
  [ "$(grep -c '^worker ' "$dir/pids")" -ge "$workers" ] ||
    { echo "css-cluster.sh: only $(grep -c '^worker ' "$dir/pids") of $workers workers started" >&2; false; }
fi
# Loopback only: every listening TCP socket of the deployment's processes is on 127.0.0.1.
ss -ltnpH > "$dir/listening" 2>/dev/null || ss -ltnp > "$dir/listening"
ours=$(awk '{ print $2 }' "$dir/pids" | paste -sd'|')
grep -E "pid=($ours)," "$dir/listening" > "$dir/listening.ours" || true
[ -s "$dir/listening.ours" ] || { echo "css-cluster.sh: ss shows no listening socket of the deployment" >&2; false; }
if awk '{ print $4 }' "$dir/listening.ours" | grep -qv '^127\.0\.0\.1:'; then
  echo "css-cluster.sh: a socket is not bound to 127.0.0.1:" >&2; cat "$dir/listening.ours" >&2; false
fi
trap - ERR
echo "$url" > "$dir/url"
echo "css-cluster.sh: CSS 7.2.0 at $url, $workers worker(s)$([ "$workers" -gt 1 ] && echo ", Redis locker at 127.0.0.1:$redis_port"), data in $dir/data; listening:" >&2
awk '{ print "  " $4, $6 }' "$dir/listening.ours" >&2
echo "$url"
