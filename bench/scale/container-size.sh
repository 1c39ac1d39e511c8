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
. "$root/bench/scale/lib.sh"
trap stop_server EXIT
trap 'exit 130' INT TERM
start_server "$server" || exit 1
printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ;
  gsm:isInstanceOf <%smodels/evaluation#workflow> ; gsm:hasState gsm:uninitialized .\n' "$base" > "$work/doc.ttl"
# measure LABEL N METHOD URL...: one request at a time; a line of the table
measure() {
  local label=$1 n=$2 method=$3; shift 3
  local c0 c1 url
  c0=$(server_cpu)
  for url in "$@"; do
    if [ "$method" = PUT ]; then
      curl -s -o /dev/null -w '%{time_total}\n' -X PUT -H 'Content-Type: text/turtle' --data-binary @"$work/doc.ttl" "$url"
    else
      curl -s -o /dev/null -w '%{time_total}\n' -H 'Accept: text/turtle' "$url"
    fi
  done > "$work/times"
  c1=$(server_cpu)
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
