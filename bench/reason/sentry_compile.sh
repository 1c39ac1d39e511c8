#!/usr/bin/env bash
# bench/reason/sentry_compile.sh: what compiling one big sentry costs. A model whose milestone's achieving
# sentry is a SPIN sp:Ask of N triple patterns (a chain over 50 variables, each pattern its own predicate)
# is checked with `ldgsm lint`, which parses the sentry and compiles it as the agent would (one join plan
# per pattern); per binary and N: the median wall clock and peak RSS of RUNS runs, and the exit status
# (1 past the sentry pattern cap, SENTRY_MAX_PATTERNS in src/reason/sentry.h). A run longer than
# RUN_TIMEOUT seconds is cut and shown as "> RUN_TIMEOUT". Two binaries compare a change.
# usage: bench/reason/sentry_compile.sh [LDGSM ...]   (default build/ldgsm; SIZES="500 1000 2000" RUNS=3 RUN_TIMEOUT=120)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "$root/build/ldgsm"
sizes=${SIZES:-500 1000 2000}
runs=${RUNS:-3}
run_timeout=${RUN_TIMEOUT:-120}
work=$(mktemp -d /tmp/ldgsm-bench-sentry-compile.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "sentry_compile.sh: GNU time is missing (apt-get install time)" >&2; exit 1; }

model() { # N: the model with one sentry of N patterns
  echo '@prefix gsm: <http://purl.org/gsm/vocab#> . @prefix sp: <http://spinrdf.org/sp#> . @prefix ex: <https://example.org/ns#> .'
  echo '<#root> a gsm:Stage ; gsm:hasMilestone <#done> .'
  echo '<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#big> .'
  printf '<#big> a sp:Ask ; sp:where ('
  for i in $(seq 1 "$1"); do
    printf ' [ sp:subject [ sp:varName "v%d" ] ; sp:predicate ex:p%d ; sp:object [ sp:varName "v%d" ] ]' \
      $((i % 50)) "$i" $(((i + 1) % 50))
  done
  echo ' ) .'
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "| binary | patterns | lint s (median of $runs) | peak RSS MB | exit |"
echo "| --- | ---: | ---: | ---: | ---: |"
for n in $sizes; do
  model "$n" > "$work/model-$n.ttl"
  for binary in "$@"; do
    seconds=() rss=() status=0
    for _ in $(seq 1 "$runs"); do
      status=0
      /usr/bin/time -f '%e %M' -o "$work/time" timeout "$run_timeout" "$binary" lint "$work/model-$n.ttl" \
        > /dev/null 2> "$work/lint.err" || status=$?
      if [ "$status" = 124 ]; then
        seconds+=("> $run_timeout"); rss+=("-")
        break
      fi
      read -r s kb < <(tail -1 "$work/time")
      seconds+=("$s"); rss+=("$((kb / 1024))")
    done
    echo "| $binary | $n | $(printf '%s\n' "${seconds[@]}" | median) | $(printf '%s\n' "${rss[@]}" | median) | $status |"
  done
done
