#!/usr/bin/env bash
# bench/page/put_cost.sh: what the instances page's reader (src/gsm/page_index.h) costs the writes: PUT
# requests/s and p50 latency of a small document that is not an instance (bench/ldp/put.lua: the reader
# only searches its bytes) and of a 40 KB instance document (put_instance.lua: the reader parses the
# versions it gets to), for ldgsm and BASELINE (an older ldgsm, without the reader), in interleaved
# rounds on the same machine. As bench/ldp/run.sh: `ldgsm serve --memory --threads 1` with every thread
# on CPU 0 (the reader's too), wrk on CPU 1, one connection, loopback; medians of ROUNDS rounds of
# DURATION seconds each. usage: BASELINE=path/to/ldgsm bench/page/put_cost.sh [build/ldgsm]
# environment: ROUNDS=5, DURATION=5
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
ours=${1:-$root/build/ldgsm}
baseline=${BASELINE:?BASELINE=path/to/an older ldgsm}
rounds=${ROUNDS:-5}
duration=${DURATION:-5}
WORK=$(mktemp -d)
BIN=$ours
. "$root/tests/ldp/lib.sh"
trap ldp_cleanup EXIT
command -v wrk > /dev/null || { echo "put_cost.sh: wrk is missing (apt-get install wrk)" >&2; exit 1; }

# row LABEL BINARY ROUND: one round's requests/s and p50 (us) of both workloads, appended to $WORK/LABEL
row() {
  BIN=$2
  ldp_start "$1-$3" --memory --threads 1
  [ -n "$URL" ] || { echo "put_cost.sh: $1 did not say its URL" >&2; exit 1; }
  taskset -a -p -c 0 "$PID" > /dev/null
  local workload script
  for workload in small instance; do
    script=$root/bench/ldp/put.lua
    [ $workload = instance ] && script=$here/put_instance.lua
    taskset -c 1 wrk -t1 -c1 -d1s -s "$script" "${URL}bench/$workload" > /dev/null # creates it, warms up
    taskset -c 1 wrk -t1 -c1 -d"${duration}s" --latency -s "$script" "${URL}bench/$workload" > "$WORK/wrk.txt"
    if grep -q -e 'Non-2xx or 3xx responses' -e 'Socket errors' "$WORK/wrk.txt"; then
      echo "put_cost.sh: $1 $workload: errors" >&2; cat "$WORK/wrk.txt" >&2; exit 1
    fi
    echo "$workload $(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk.txt") $(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")" \
      >> "$WORK/$1"
  done
  ldp_stop "$PID" > /dev/null
}

for round in $(seq "$rounds"); do
  row ours "$ours" "$round"
  row baseline "$baseline" "$round"
  echo "# round $round of $rounds done" >&2
done
# the median of column 2 (requests/s) and of column 3 (wrk's p50, in us) of LABEL's WORKLOAD lines
python3 - "$WORK" <<'PY'
import statistics, sys
def us(v):
    for unit, f in (("us", 1), ("ms", 1e3), ("s", 1e6)):
        if v.endswith(unit):
            return float(v[:-len(unit)]) * f
work = sys.argv[1]
rows = {}
for label in ("ours", "baseline"):
    for line in open(f"{work}/{label}"):
        workload, rps, p50 = line.split()
        rows.setdefault((label, workload), []).append((float(rps), us(p50)))
print("| binary | PUT | requests/s (median) | range | p50 latency (us, median) |")
print("|---|---|---:|---|---:|")
for (label, workload), runs in sorted(rows.items()):
    r = sorted(x for x, _ in runs)
    print(f"| {label} | {workload} | {statistics.median(r):.0f} | {r[0]:.0f}-{r[-1]:.0f} | "
          f"{statistics.median(p for _, p in runs):.0f} |")
for workload in ("small", "instance"):
    o = statistics.median(x for x, _ in rows[("ours", workload)])
    b = statistics.median(x for x, _ in rows[("baseline", workload)])
    print(f"{workload}: ours / baseline requests/s {o / b:.2f}")
PY
