#!/usr/bin/env bash
# bench/agent/hanging_sensor.sh: what one sensor that never answers costs the other instances of its agent.
# One `ldgsm run` polls HEALTHY instances of tests/gsm/models/sensor.ttl, each reading its own sensor on
# `ldgsm serve --memory`; then the same beside one more instance whose sensor is a device that accepts the
# connection and never answers. Per binary given and per case: the agent's iterations per minute over
# MEASURE seconds once every healthy instance is set up, and how long after its sensor turned true each
# healthy instance's stage opened (its task's PUT reached the server), median and max. Two binaries
# compare a change in the same run. Nothing fails on a timing.
# usage: bench/agent/hanging_sensor.sh [LDGSM ...]   (default build/ldgsm; HEALTHY=20 INTERVAL=200
#        MEASURE=60 TIMEOUT=10000 SERVE=the last LDGSM given; KEEP=1 keeps the work directory)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "$root/build/ldgsm"
healthy=${HEALTHY:-20}
interval=${INTERVAL:-200}
measure=${MEASURE:-60}
timeout=${TIMEOUT:-10000}
serve=${SERVE:-${*: -1}}
work=$(mktemp -d /tmp/ldgsm-bench-hang.XXXXXX)
pids=() # a case's processes (run_case runs in a subshell of its own)
device_pid=
stop_all() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || :; done
  for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || :; done
  pids=()
}
trap 'stop_all; [ -n "$device_pid" ] && kill "$device_pid"; [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"' EXIT

# each line of standard input with the time it came (no fork per line: thousands of lines a minute)
stamp() { local line; while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done; }

# the device: accepts every connection, never reads, never answers
python3 -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(128)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0])
' > "$work/device.port" &
device_pid=$!
for _ in $(seq 1 100); do [ -s "$work/device.port" ] && break; sleep 0.05; done
device="http://127.0.0.1:$(cat "$work/device.port")"

put() { # URL turtle
  printf '%s' "$2" | curl -s -o /dev/null --max-time 10 -X PUT -H 'Content-Type: text/turtle' --data-binary @- "$1"
}

# run_case BINARY LABEL HANG(0|1): prints "iterations/min median-ms max-ms" for the healthy instances
run_case() {
  local binary=$1 label=$2 hang=$3 base i instances=() model
  "$serve" serve --memory --port 0 > "$work/$label.serve.out" 2> >(stamp > "$work/$label.serve.log") &
  pids+=($!)
  for _ in $(seq 1 200); do
    base=$(head -n 1 "$work/$label.serve.out") && [ -n "$base" ] && break
    sleep 0.05
  done
  [ -n "$base" ] || { echo "hanging_sensor.sh: the server did not start" >&2; exit 1; }
  put "${base}env/aS" '<#it> <https://example.org/env#value> false .'
  put "${base}env/over" '<#it> <https://example.org/env#value> false .'
  for i in $(seq 1 "$healthy") hang; do
    local sensor="${base}env/s-$i#it"
    [ "$i" = hang ] && { [ "$hang" = 1 ] || continue; sensor="$device/env/s#it"; }
    model=$(sed -e "s|SENSOR|$sensor|; s|TASK|t-$i|" "$root/tests/gsm/models/sensor.ttl")
    put "${base}models/m-$i" "$model"
    put "${base}status/i-$i" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m-$i#root> ; gsm:hasState gsm:uninitialized ."
    [ "$i" = hang ] || put "${base}env/s-$i" '<#it> <https://example.org/env#value> false .'
    instances+=(--instance "${base}status/i-$i#it")
  done
  "$binary" run -v "${instances[@]}" -n "$interval" --timeout "$timeout" > /dev/null 2> >(stamp > "$work/$label.agent.log") &
  local agent=$!
  pids+=($agent)
  # set up: each healthy instance's status document written once by the agent (after the bench's own PUT)
  for _ in $(seq 1 1200); do
    [ "$(grep -cE ' PUT /status/i-[0-9]+ ' "$work/$label.serve.log")" -ge $((2 * healthy)) ] && break
    sleep 0.1
  done
  local start=$EPOCHREALTIME
  sleep 5
  : > "$work/$label.flips"
  for i in $(seq 1 "$healthy"); do
    put "${base}env/s-$i" '<#it> <https://example.org/env#value> true .'
    printf '%s %s\n' "$i" "$EPOCHREALTIME" >> "$work/$label.flips"
  done
  local end
  end=$(awk -v s="$start" -v m="$measure" 'BEGIN {printf "%.6f", s + m}')
  while awk -v e="$end" -v now="$EPOCHREALTIME" 'BEGIN {exit !(now < e)}'; do sleep 0.2; done
  kill "$agent"
  wait "$agent" 2> /dev/null || :
  stop_all
  sleep 0.2 # the stamping readers write their last lines
  local rate latency
  # iterations per minute: iteration lines within the window, over the time from the first to the last
  rate=$(awk -v s="$start" -v e="$end" '$2 == "iteration:" && $1 >= s && $1 <= e {n++; if (!first) first = $1; last = $1}
    END {printf "%.1f", (n > 1 ? (n - 1) * 60 / (last - first) : 0)}' "$work/$label.agent.log")
  latency=$(awk 'FNR == NR {flip[$1] = $2; next}
    $2 == "PUT" && $3 ~ /^\/tasks\/t-[0-9]+$/ {i = substr($3, 10); if (i in flip && !(i in seen)) {seen[i] = 1; print ($1 - flip[i]) * 1000}}' \
    "$work/$label.flips" "$work/$label.serve.log" | sort -n |
    awk -v want="$healthy" '{v[NR] = $1} END {if (NR < want) printf "%d of %d opened", NR, want; else printf "%.0f | %.0f", v[int((NR + 1) / 2)], v[NR]}')
  echo "$rate|$latency"
}

echo "$healthy healthy instances, --interval $interval, --timeout $timeout, $measure s per case; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| binary | iterations/min alone | beside a hanging sensor | kept | stage opened after its input, alone: median ms | max ms | beside: median ms | max ms |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
n=0
for binary in "$@"; do
  n=$((n + 1))
  IFS='|' read -r alone_rate alone_median alone_max <<< "$(run_case "$binary" "b$n-alone" 0)"
  IFS='|' read -r hang_rate hang_median hang_max <<< "$(run_case "$binary" "b$n-hang" 1)"
  kept=$(awk -v a="$alone_rate" -v h="$hang_rate" 'BEGIN {printf "%.0f%%", (a > 0 ? 100 * h / a : 0)}')
  echo "| $binary | $alone_rate | $hang_rate | $kept | $alone_median | $alone_max | $hang_median | $hang_max |"
done
