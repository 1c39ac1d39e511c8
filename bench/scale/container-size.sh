#!/usr/bin/env bash
# bench/scale/container-size.sh: what one request costs an LDP server as the container around it grows.
# One server (SERVER: css1, cssW or serve), containers of SIZES members (default "100 10000") holding the
# evaluation workflow's instance document; then per container, one request at a time: ROUNDS GETs and
# ROUNDS PUTs of existing members (the same body again) and one GET of the container itself. Prints per
# container and method the median and 90th percentile wall-clock milliseconds and the server's CPU
# milliseconds per request (its processes' utime + stime from /proc, before and after).
# usage: bench/scale/container-size.sh      environment: SERVER=css1, SIZES="100 10000", ROUNDS=100,
#   LDGSM (default build/ldgsm, for SERVER=serve), WORK (default a new /tmp dir)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
server=${SERVER:-css1}
read -r -a sizes <<< "${SIZES:-100 10000}"
rounds=${ROUNDS:-100}
ldgsm=${LDGSM:-$root/build/ldgsm}
work=${WORK:-$(mktemp -d /tmp/ldgsm-container-size.XXXXXX)}; mkdir -p "$work"
ticks=$(getconf CLK_TCK)
pids=() serve_pid='' css_dir=''
stop() {
  [ -n "$serve_pid" ] && { kill -TERM "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null; }
  [ -n "$css_dir" ] && "$root/scripts/css-cluster.sh" stop --dir "$css_dir" 2>/dev/null
}
trap stop EXIT
trap 'exit 130' INT TERM
case $server in
  serve)
    "$ldgsm" serve --memory --port 0 > "$work/serve.out" 2> "$work/serve.err" &
    serve_pid=$!
    for _ in $(seq 1 100); do [ -s "$work/serve.out" ] && break; sleep 0.05; done
    base=$(head -n 1 "$work/serve.out")
    case $base in http*) ;; *) base="http://127.0.0.1:$base/" ;; esac
    pids=("$serve_pid") ;;
  css[0-9]*)
    css_dir=$work/deploy
    base=$("$root/scripts/css-cluster.sh" start --workers "${server#css}" --dir "$css_dir" 2> "$work/start.log") ||
      { cat "$work/start.log" >&2; exit 1; }
    read -r -a pids <<< "$(awk '{ print $2 }' "$css_dir/pids" | tr '\n' ' ')" ;;
  *) echo "container-size.sh: unknown server $server" >&2; exit 2 ;;
esac
cpu() { local p t=0; for p in "${pids[@]}"; do
  [ -r "/proc/$p/stat" ] && t=$(awk -v t="$t" -v k="$ticks" '{ sub(/^.*\) /, ""); printf "%.3f", t + ($12 + $13) / k }' "/proc/$p/stat")
  done; echo "$t"; }
printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ;
  gsm:isInstanceOf <%smodels/evaluation#workflow> ; gsm:hasState gsm:uninitialized .\n' "$base" > "$work/doc.ttl"
# measure LABEL N METHOD URL...: one request at a time; a line of the table
measure() {
  local label=$1 n=$2 method=$3; shift 3
  local c0 c1 url
  c0=$(cpu)
  for url in "$@"; do
    if [ "$method" = PUT ]; then
      curl -s -o /dev/null -w '%{time_total}\n' -X PUT -H 'Content-Type: text/turtle' --data-binary @"$work/doc.ttl" "$url"
    else
      curl -s -o /dev/null -w '%{time_total}\n' -H 'Accept: text/turtle' "$url"
    fi
  done > "$work/times"
  c1=$(cpu)
  sort -n "$work/times" | awk -v label="$label" -v n="$n" -v m="$method" -v count=$# -v cpu="$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')" '
    { t[NR] = $1 * 1000 }
    END { printf "| %s | %d | %s | %d | %.1f | %.1f | %.1f |\n", label, n, m, count, t[int((NR + 1) / 2)], t[int(NR * 0.9 + 0.5)], cpu * 1000 / count }'
}
echo "| server | members | request | requests | median ms | p90 ms | server CPU ms per request |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: |"
for n in "${sizes[@]}"; do
  c="${base}size$n/"
  for i in $(seq 1 "$n"); do printf 'url = "%si%d"\noutput = "/dev/null"\n' "$c" "$i"; done > "$work/urls"
  created=$(curl -s --no-progress-meter -Z --parallel-max 8 -X PUT -H 'Content-Type: text/turtle' \
    --data-binary @"$work/doc.ttl" -w '%{http_code}\n' -K "$work/urls" | grep -c '^20[15]$')
  [ "$created" -eq "$n" ] || { echo "container-size.sh: only $created of $n members were created" >&2; exit 1; }
  members=()
  for i in $(seq 1 "$rounds"); do members+=("${c}i$(( (i * 7919) % n + 1 ))"); done
  measure "$server" "$n" GET "${members[@]}"
  measure "$server" "$n" PUT "${members[@]}"
  measure "$server" "$n" "GET container" "$c"
done
