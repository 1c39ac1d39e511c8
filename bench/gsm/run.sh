#!/usr/bin/env bash
# GSM at scale: n instances of the evaluation workflow (ldp-fixtures/evaluation) in one agent,
# `ldgsm run --instance ... --interval 0 --until complete`, against `ldgsm serve --memory`; for each n the
# time to complete every instance and the time per iteration per instance. Server on CPU 0, agent on CPU 1.
# usage: bench/gsm/run.sh [path/to/ldgsm] [N ...]     (default: build/ldgsm, n = 1 9 100 1000)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${1:-$root/build/ldgsm}; shift || true
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1 9 100 1000)
work=$(mktemp -d /tmp/ldgsm-bench-gsm.XXXXXX)
cpus=$(nproc)
pin_server=(); pin_agent=()
if command -v taskset > /dev/null && [ "$cpus" -ge 2 ]; then pin_server=(taskset -c 0); pin_agent=(taskset -c 1); fi

"${pin_server[@]}" "$ldgsm" serve --memory --port 0 --fixtures "$root/ldp-fixtures/evaluation" > "$work/url" 2> /dev/null &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 1 100); do grep -q http "$work/url" 2>/dev/null && break; sleep 0.05; done
base=$(head -n 1 "$work/url")

echo "| instances | iterations | time to complete (s) | ms per iteration | ms per iteration per instance |"
echo "| ---: | ---: | ---: | ---: | ---: |"
for n in "${sizes[@]}"; do
  args=()
  for i in $(seq 1 "$n"); do
    printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/evaluation#workflow> ; gsm:hasState gsm:uninitialized .' |
      curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @- "${base}status/n$n-$i"
    args+=(--instance "${base}status/n$n-$i#it")
  done
  start=$(date +%s.%N)
  "${pin_agent[@]}" "$ldgsm" run "${args[@]}" -n 0 --until complete --iterations 400 --timeout 60000 \
    > /dev/null 2> "$work/agent-$n.log" || { echo "n=$n: the agent failed (see $work/agent-$n.log)" >&2; exit 1; }
  end=$(date +%s.%N)
  grep -q "every workflow instance is complete" "$work/agent-$n.log" || { echo "n=$n did not complete" >&2; exit 1; }
  iterations=$(grep -c '^iteration:' "$work/agent-$n.log")
  awk -v n="$n" -v it="$iterations" -v s="$start" -v e="$end" 'BEGIN {
    t = e - s; printf "| %d | %d | %.2f | %.1f | %.3f |\n", n, it, t, t * 1000 / it, t * 1000 / it / n }'
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); logs in $work"
