#!/usr/bin/env bash
# bench/ldp/slowloris.sh: a normal client's GET and PUT latency while 2,000 slow connections from 40 loopback
# addresses (50 each, under the default --max-connections-per-client 64) send a header line or a body byte
# every 5 s, a connection the server closes being reopened 5 s later (tests/ldp/slow_probe.py attack), against
# `ldgsm serve --memory` with its defaults (--max-connections 1000, --threads the CPUs, the deadlines of
# issue 30). For each server: REQUESTS rounds of one PUT and one GET of a small Turtle resource from
# 127.0.0.1, a quarter of a second apart, first without the attack, then 10 s into it; a request not
# answered within TIMEOUT seconds counts as TIMEOUT. BASELINE=PATH/TO/older/ldgsm runs the same against it
# right after. Prints a markdown table. Loopback only; the attack stops with the measurement.
# Usage: bench/ldp/slowloris.sh [PATH/TO/ldgsm] [REQUESTS] [TIMEOUT]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BIN=${1:-$root/build/ldgsm}
REQUESTS=${2:-20}
TIMEOUT=${3:-5}
WORK=$(mktemp -d)
. "$root/tests/ldp/lib.sh"
trap ldp_cleanup EXIT
PROBE="$root/tests/ldp/slow_probe.py"
SOURCES=$(seq -s, -f '127.0.0.%g' 10 49) # 40 addresses
ulimit -n 8192                            # the server's 1000 connections and the attacker's 2000

# The median and the largest of the numbers on standard input.
median_max() { sort -n | awk '{ v[NR] = $1 } END { printf "%.1f / %.1f", ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) * 1000, v[NR] * 1000 }'; }

# rounds NAME: REQUESTS PUT+GET rounds against URL; "METHOD CODE SECONDS" lines in $WORK/NAME.times.
rounds() {
    local name=$1 i
    : >"$WORK/$name.times"
    for i in $(seq "$REQUESTS"); do
        echo "PUT $(command curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time "$TIMEOUT" -X PUT \
            -H 'Content-Type: text/turtle' --data-binary "<#it> <http://example.org/n> $i ." "${URL}normal")" \
            >>"$WORK/$name.times" || true
        echo "GET $(command curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time "$TIMEOUT" "${URL}normal")" \
            >>"$WORK/$name.times" || true
        sleep 0.25
    done
}

# row SERVER WHEN NAME: a table row from $WORK/NAME.times.
row() {
    local server=$1 when=$2 times=$WORK/$3.times
    local answered get put
    answered=$(awk '$2 ~ /^2/' "$times" | wc -l)
    put=$(awk -v t="$TIMEOUT" '$1 == "PUT" { print ($2 ~ /^2/) ? $3 : t }' "$times" | median_max)
    get=$(awk -v t="$TIMEOUT" '$1 == "GET" { print ($2 ~ /^2/) ? $3 : t }' "$times" | median_max)
    echo "| $server | $when | $answered / $((2 * REQUESTS)) | $put | $get |"
}

# measure LABEL BINARY: the rows of one server.
measure() {
    local label=$1 name h p
    name=$(echo "$label" | tr -c 'a-z0-9\n' '_')
    BIN=$2
    ldp_start "$name" --memory
    rounds "$name-quiet"
    local rest=${URL#http://}
    rest=${rest%/}
    h=${rest%:*} p=${rest##*:}
    python3 "$PROBE" attack "$h" "$p" "$SOURCES" 50 5 "$WORK/$name.stop" 600 0 >"$WORK/$name.attack" &
    local attacker=$! i
    for i in $(seq 600); do
        grep -q '^opened' "$WORK/$name.attack" 2>/dev/null && break
        sleep 0.1
    done
    sleep 10 # every connection has sent its opening; 1000 of them fill the slots
    rounds "$name-attack"
    touch "$WORK/$name.stop"
    ldp_await "$attacker"
    kill -TERM "$PID"
    ldp_await "$PID" || true
    row "$label" "quiet" "$name-quiet"
    row "$label" "2,000 slow connections" "$name-attack"
    echo "$label: attacker: $(tail -n 1 "$WORK/$name.attack"); server log: $(grep -c 'slow clients:' \
        "$WORK/$name.err" || true) lines on slow clients" >&2
}

echo "| server | during | answered | PUT ms (median / max) | GET ms (median / max) |"
echo "|---|---|---|---|---|"
measure "ldgsm serve" "$BIN"
if [ -n "${BASELINE:-}" ]; then
    measure "baseline" "$BASELINE"
fi
