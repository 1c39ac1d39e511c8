#!/usr/bin/env bash
# bench/ldp/run.sh: GET throughput of a small Turtle resource and PUT latency, `ldgsm serve` against
# Community Solid Server 7.2.0 in the same run, both in memory (plus a PUT row for ldgsm --data, which
# fsyncs every write). Measured with wrk (PUTs through put.lua), the server pinned to CPU 0 and wrk to
# CPU 1 with taskset, loopback only. Each row: a warm-up of at most 3 s, then RUNS (default 3) runs of
# DURATION seconds (default 5); medians are reported, the machine being shared and noisy. ldgsm's
# access log goes to a file, as it would in use. Errors (non-2xx answers, socket errors) stop the run.
# Prints a markdown table. Usage: bench/ldp/run.sh [PATH/TO/ldgsm] [DURATION] [RUNS]
# BASELINE=PATH/TO/older/ldgsm adds its in-memory GET and PUT rows, run right after ours, and the ratios
# ours / baseline: a change must not make the server slower.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BIN=${1:-$root/build/ldgsm}
DURATION=${2:-5}
RUNS=${3:-3}
SERVER_CPU=0
CLIENT_CPU=1
GET_CONNECTIONS=8
WARMUP=$(( DURATION < 3 ? DURATION : 3 ))
WORK=$(mktemp -d)
. "$root/tests/ldp/lib.sh"
. "$root/tests/ldp/css.sh"
trap 'css_stop; ldp_cleanup' EXIT

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
css_available || { echo "run.sh: Community Solid Server is missing (scripts/peers.sh)" >&2; exit 1; }

RESOURCE='<#it> a <http://example.org/Door> ;
  <http://example.org/state> "closed" ;
  <http://example.org/label> "front door" .
'

# wrk's latency ("95.00us", "4.36ms", "1.20s") in microseconds.
to_us() {
    awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) print n; else if (v ~ /ms$/) print n * 1000; else print n * 1000000 }'
}

# The median of the numbers on standard input.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# wrk_row SERVER WORKLOAD CONNECTIONS URL [wrk options]: runs wrk on the client CPU, first for a
# discarded warm-up (CSS's JIT, caches), then RUNS times; prints a row of medians (and the range of
# requests/s, which shows how noisy the machine was).
wrk_row() {
    local server=$1 workload=$2 connections=$3 url=$4 run
    shift 4
    taskset -c "$CLIENT_CPU" wrk -t1 -c"$connections" -d"$WARMUP"s "$@" "$url" >/dev/null
    : >"$WORK/runs"
    for run in $(seq "$RUNS"); do
        taskset -c "$CLIENT_CPU" wrk -t1 -c"$connections" -d"${DURATION}s" --latency "$@" "$url" >"$WORK/wrk.txt"
        if grep -q -e 'Non-2xx or 3xx responses' -e 'Socket errors' "$WORK/wrk.txt"; then
            echo "run.sh: $server $workload: errors:" >&2
            cat "$WORK/wrk.txt" >&2
            exit 1
        fi
        echo "$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk.txt")" \
            "$(to_us "$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")")" \
            "$(to_us "$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")")" >>"$WORK/runs"
    done
    local rps p50 p99 range
    rps=$(cut -d' ' -f1 "$WORK/runs" | median)
    p50=$(cut -d' ' -f2 "$WORK/runs" | median)
    p99=$(cut -d' ' -f3 "$WORK/runs" | median)
    range=$(cut -d' ' -f1 "$WORK/runs" | sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.0f-%.0f", lo, hi}')
    printf '| %s | %s | %s | %.0f | %s | %.0f | %.0f |\n' "$server" "$workload" "$connections" "$rps" "$range" "$p50" "$p99"
    echo "$rps" >"$WORK/last_rps"
}

prepare() { # URL: creates the resource the GETs read
    curl -sf -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary "$RESOURCE" "${1}bench/door"
}

echo "| server | workload | connections | requests/s (median) | requests/s (range of $RUNS runs) | p50 latency (us) | p99 latency (us) |"
echo "|---|---|---|---|---|---|---|"

# memory_rows NAME LABEL: the in-memory GET and PUT rows of $BIN, requests/s in $get_rps and $put_rps
memory_rows() {
    ldp_start "$1" --memory --threads 1
    taskset -a -p -c "$SERVER_CPU" "$PID" >/dev/null # every thread
    prepare "$URL"
    wrk_row "$2" "GET small Turtle" $GET_CONNECTIONS "${URL}bench/door"
    get_rps=$(cat "$WORK/last_rps")
    wrk_row "$2" "PUT small Turtle" 1 "${URL}bench/door" -s "$here/put.lua"
    put_rps=$(cat "$WORK/last_rps")
    ldp_stop "$PID"
}
memory_rows mem "ldgsm serve --memory"
ours_get=$get_rps ours_put=$put_rps
if [ -n "${BASELINE:-}" ]; then
    BIN_OURS=$BIN BIN=$BASELINE
    memory_rows baseline "baseline --memory"
    base_get=$get_rps base_put=$put_rps
    BIN=$BIN_OURS
fi

ldp_start disk --data "$WORK/data" --threads 1
taskset -a -p -c "$SERVER_CPU" "$PID" >/dev/null # every thread
prepare "$URL"
wrk_row "ldgsm serve --data (fsync)" "PUT small Turtle" 1 "${URL}bench/door" -s "$here/put.lua"
ldp_stop "$PID"

css_start "$SERVER_CPU"
prepare "$CSS_URL"
wrk_row "CSS 7.2.0 (memory)" "GET small Turtle" $GET_CONNECTIONS "${CSS_URL}bench/door"
css_get=$(cat "$WORK/last_rps")
wrk_row "CSS 7.2.0 (memory)" "PUT small Turtle" 1 "${CSS_URL}bench/door" -s "$here/put.lua"
css_stop

echo
awk -v ours="$ours_get" -v css="$css_get" 'BEGIN { printf "GET throughput ratio of the medians, ldgsm / CSS: %.1fx\n", ours / css }'
if [ -n "${BASELINE:-}" ]; then
    awk -v g="$ours_get" -v bg="$base_get" -v p="$ours_put" -v bp="$base_put" \
        'BEGIN { printf "ours / baseline, requests/s of the medians: GET %.2fx, PUT %.2fx\n", g / bg, p / bp }'
fi
