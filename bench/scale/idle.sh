#!/usr/bin/env bash
# bench/scale/idle.sh: what N complete instances cost an agent that keeps running, per second, by the
# agent's mode, in one run: polling (`-n 1000`), --incremental (`-n 1000`: a conditional GET per
# document and poll) and --notifications (`-n 1000`: a channel per document stands in for the GET; the
# agent waits for a notification or its --safety-poll, 60 s). Each mode's agent runs WARMUP seconds
# (default 10: its first reads, parses and subscriptions), then DURATION seconds (default 30) are measured:
# the agent's CPU (utime + stime from /proc) and requests (its log lines) per second, and the server's CPU.
# usage: bench/scale/idle.sh N     environment: LDGSM (default build/ldgsm), MODES="polling incremental
#   notifications", WARMUP, DURATION, SERVE_OPTIONS (default: channel limits raised past N's documents),
#   WORK (default a new /tmp dir)
# Prints one markdown table row per mode: | mode | instances | s | agent CPU ms/s | requests/s | server CPU ms/s |
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${LDGSM:-$root/build/ldgsm}
n=${1:?usage: idle.sh N}
warmup=${WARMUP:-10} duration=${DURATION:-30}
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-idle.XXXXXX)}; mkdir -p "$work"
SERVE_OPTIONS=${SERVE_OPTIONS:-"--max-channels $((2 * n + 100)) --max-channels-per-client $((2 * n + 100)) --max-connections $((2 * n + 200))"}
. "$root/bench/scale/lib.sh"
agent=
trap '[ -n "$agent" ] && kill "$agent" 2>/dev/null; stop_server' EXIT
start_server serve "$root/ldp-fixtures/evaluation" || exit 1
seed_complete_copies "$n" || exit 1
args=(); for i in $(seq 1 "$n"); do args+=(--instance "${base}status/poll/i$i#it"); done
cpu_of() { awk -v k="$ticks" '{ sub(/^.*\) /, ""); printf "%.3f", ($12 + $13) / k }' "/proc/$1/stat"; }
requests() { grep -cE '^(GET|HEAD|PUT|PATCH|POST|DELETE) ' "$1"; }
echo "| mode | instances | s | agent CPU ms/s | requests/s | server CPU ms/s |"
echo "| --- | --- | --- | --- | --- | --- |"
for mode in ${MODES:-polling incremental notifications}; do
  case $mode in
    polling) options=() ;;
    incremental) options=(--incremental) ;;
    notifications) options=(--notifications) ;;
    *) echo "idle.sh: unknown mode $mode" >&2; exit 1 ;;
  esac
  "$ldgsm" run -v "${args[@]}" -n 1000 "${options[@]}" > /dev/null 2> "$work/$mode.log" &
  agent=$!
  sleep "$warmup"
  a0=$(cpu_of "$agent"); s0=$(server_cpu); r0=$(requests "$work/$mode.log")
  sleep "$duration"
  a1=$(cpu_of "$agent"); s1=$(server_cpu); r1=$(requests "$work/$mode.log")
  kill -TERM "$agent"; wait "$agent" 2>/dev/null; agent=
  writes=$(grep -cE '^(PUT|PATCH|DELETE) ' "$work/$mode.log")
  [ "$writes" -eq 0 ] || echo "idle.sh: $mode: the agent wrote $writes times to complete instances" >&2
  awk -v m="$mode" -v n="$n" -v d="$duration" -v a="$(awk -v x="$a0" -v y="$a1" 'BEGIN { print y - x }')" \
    -v r=$((r1 - r0)) -v s="$(awk -v x="$s0" -v y="$s1" 'BEGIN { print y - x }')" \
    'BEGIN { printf "| %s | %d | %d | %.1f | %.1f | %.1f |\n", m, n, d, a * 1000 / d, r / d, s * 1000 / d }'
done
