#!/usr/bin/env bash
# bench/wsm/run.sh: events per second through one state machine agent (`ldgsm run --machine`, issue 15)
# for 1, 100 and 1000 instances of tests/wsm/schemas/switches on `ldgsm serve --memory`, each with an inbox
# of K events (arm, go, stop, ...: fired and rejected ones), against the floor of the same HTTP work done
# by a client that does nothing else (bench/wsm/floor.py: per event GET the document, the inbox and the
# event, PUT the document with If-Match, DELETE the event; no reasoning, no conditions, no history).
# Medians of RUNS (default 3) fresh runs; the server on CPU 0, the agent on CPU 1.
# Usage: bench/wsm/run.sh [PATH/TO/ldgsm]   (SIZES="1 100 1000" and RUNS override)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${1:-$root/build/ldgsm}
. "$root/bench/gsm/lib.sh"
runs=${RUNS:-3}
events_for() { case $1 in 1) echo 60 ;; 100) echo 10 ;; *) echo 5 ;; esac; }

fresh() { # N K: a server holding N instances with K events each; sets $base
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null || true; done
  pids=()
  start_server serve "${pin_server[@]}" "$ldgsm" serve --memory --port 0
  base=$started
  python3 "$root/bench/wsm/setup.py" "$base" "$1" "$2"
}

printf '%-10s %-8s %-14s %-14s %-10s %-16s %-10s\n' instances events "ldgsm ev/s" "floor ev/s" ratio "agent CPU/event" iterations
for n in ${SIZES:-1 100 1000}; do
  k=$(events_for "$n")
  : > "$work/ours"; : > "$work/floor"; : > "$work/cpu"
  for _ in $(seq 1 "$runs"); do
    fresh "$n" "$k"
    args=()
    for i in $(seq 1 "$n"); do args+=(--machine "${base}documents/m-$i#it"); done
    TIMEFORMAT='%R %U %S'
    { time "${pin_agent[@]}" "$ldgsm" run -v "${args[@]}" -n 0 --until quiescent --iterations 1000 \
        > /dev/null 2> "$work/agent.log" ; } 2> "$work/time"
    read -r seconds user system < "$work/time"
    taken=$(grep -c "^DELETE ${base}inbox/" "$work/agent.log" || true)
    [ "$taken" -eq $((n * k)) ] || { echo "only $taken of $((n * k)) events were taken (see $work/agent.log)" >&2; exit 1; }
    iterations=$(grep -c '^iteration:' "$work/agent.log")
    awk -v e="$taken" -v s="$seconds" 'BEGIN { printf "%.1f\n", e / s }' >> "$work/ours"
    awk -v e="$taken" -v u="$user" -v y="$system" 'BEGIN { printf "%.3f\n", (u + y) * 1000 / e }' >> "$work/cpu"
    fresh "$n" "$k"
    read -r ftaken fseconds < <("${pin_agent[@]}" python3 "$root/bench/wsm/floor.py" "$base" "$n")
    awk -v e="$ftaken" -v s="$fseconds" 'BEGIN { printf "%.1f\n", e / s }' >> "$work/floor"
  done
  ours=$(median < "$work/ours"); floor=$(median < "$work/floor"); cpu=$(median < "$work/cpu")
  printf '%-10s %-8s %-14s %-14s %-10s %-16s %-10s\n' "$n" "$((n * k))" "$ours" "$floor" \
    "$(awk -v a="$ours" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')" "$cpu ms" "$iterations"
done
