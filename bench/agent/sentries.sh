#!/usr/bin/env bash
# bench/agent/sentries.sh: what polling a model of SENTRIES blank-node sentries (`[ a sp:Ask ; sp:text
# "..." ]`, the form state machines' conditions are written in) costs an agent once it has compiled them:
# `ldgsm run -n 0 --iterations K` over one unchanged model on `ldgsm serve --memory`, per binary given:
# the median crawl phase of iterations 2..40 (`-v`'s phases line) and, for ITERATIONS iterations, the
# wall clock and the peak RSS. Two binaries compare a change. Nothing is written.
# usage: bench/agent/sentries.sh [LDGSM ...]   (default build/ldgsm; SENTRIES=200 ITERATIONS=1200 RUNS=3)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "$root/build/ldgsm"
sentries=${SENTRIES:-200}
iterations=${ITERATIONS:-1200}
runs=${RUNS:-3}
work=$(mktemp -d /tmp/ldgsm-bench-sentries.XXXXXX)
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "sentries.sh: GNU time is missing (apt-get install time)" >&2; exit 1; }

mkdir -p "$work/fixtures/m"
{
  echo '@prefix sp: <http://spinrdf.org/sp#> . @prefix : <http://ex.org/> .'
  for i in $(seq 1 "$sentries"); do
    printf '<#c%d> :condition [ a sp:Ask ; sp:text "PREFIX : <http://ex.org/> ASK { ?x :v%d ?y FILTER(?y > %d) OPTIONAL { ?x :w ?z } }" ] .\n' \
      "$i" "$i" "$i"
  done
} > "$work/fixtures/m/model"
"$1" serve --memory --port 0 --fixtures "$work/fixtures" > /dev/null 2> "$work/serve.log" &
server_pid=$!
for _ in $(seq 1 100); do
  port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1 | cut -d: -f3) && [ -n "$port" ] && break
  sleep 0.05
done
[ -n "${port:-}" ] || { echo "sentries.sh: the server did not start (see $work/serve.log)" >&2; exit 1; }
printf '@prefix http: <http://www.w3.org/2011/http#> . @prefix httpm: <http://www.w3.org/2011/http-methods#> .\n{ } => { [] http:mthd httpm:GET ; http:requestURI <http://127.0.0.1:%s/m/model> } .\n' \
  "$port" > "$work/prog.n3"

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "| binary | sentries | crawl ms per iteration (median) | sentries compiled after the first | $iterations iterations: s | peak RSS MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for binary in "$@"; do
  crawl=() seconds=() rss=()
  for _ in $(seq 1 "$runs"); do
    "$binary" run -p "$work/prog.n3" -n 0 --iterations 40 -v 2> "$work/phases.log" > /dev/null
    crawl+=("$(grep -o 'phases: crawl [0-9.]*' "$work/phases.log" | awk 'NR > 1 {print $3}' | median)")
    compiled=$(grep -o '([0-9]* sentries compiled)' "$work/phases.log" | tr -dc '0-9\n' | awk 'NR > 1 {s += $1} END {print NR ? s : "-"}' || :)
    /usr/bin/time -f '%e %M' -o "$work/time" "$binary" run -p "$work/prog.n3" -n 0 --iterations "$iterations" > /dev/null 2>&1
    read -r s kb < "$work/time"
    seconds+=("$s"); rss+=("$((kb / 1024))")
  done
  echo "| $binary | $sentries | $(printf '%s\n' "${crawl[@]}" | median) | $compiled | $(printf '%s\n' "${seconds[@]}" | median) | $(printf '%s\n' "${rss[@]}" | median) |"
done
