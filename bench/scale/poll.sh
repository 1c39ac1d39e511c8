#!/usr/bin/env bash
# bench/scale/poll.sh: what polling costs when nothing changes, the steady state of "a million instances
# polled every second" (bench/scale/README.md, "On paper"). One instance of the evaluation workflow is
# run to completion, its status document copied to N instance documents (its IRIs renamed), and then
# one agent polls the N complete instances for ITERATIONS iterations (`ldgsm run --instance ... -n 0
# --iterations K`, no --until): per instance-iteration, the wall clock, the agent's CPU, the server's CPU
# and the requests; and the steady state, the polls after the first: the agent's CPU per instance-iteration
# ((CPU of the K-iteration run - CPU of a 1-iteration run) / (N (K - 1))) and the share of their GETs
# answered 304. Nothing is written (checked).
# usage: bench/scale/poll.sh SERVER N     SERVER: serve | css1 | cssW (W workers + Redis, scripts/css-cluster.sh)
# environment: LDGSM (default build/ldgsm), ITERATIONS=5, SERVE_OPTIONS, WORK (default a new /tmp dir),
#   AGENT_OPTIONS (added to the polling `ldgsm run`, e.g. --incremental)
# Prints one markdown table row: | server | instances | iterations | s | instance-iterations/s |
#   agent CPU µs per instance-iteration | the same after the first poll | server CPU µs per instance-iteration |
#   requests per instance-iteration | GETs answered 304 after the first poll | load before / after |
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${LDGSM:-$root/build/ldgsm}
server=${1:?usage: poll.sh serve|cssW N}; n=${2:?usage: poll.sh serve|cssW N}
iterations=${ITERATIONS:-5}
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-poll.XXXXXX)}; mkdir -p "$work"
fixtures=$root/ldp-fixtures/evaluation
. "$root/bench/scale/lib.sh"
trap stop_server EXIT
start_server "$server" "$fixtures" || exit 1

seed_complete_copies "$n" || exit 1
args=(); for i in $(seq 1 "$n"); do args+=(--instance "${base}status/poll/i$i#it"); done

load0=$(cut -d' ' -f1-3 /proc/loadavg)
# a first poll alone: what the steady state leaves out (the first reads and parses every document)
/usr/bin/time -f '%e %U %S' -o "$work/time1" "$ldgsm" run -v "${args[@]}" -n 0 --iterations 1 ${AGENT_OPTIONS:-} > /dev/null 2> "$work/poll1.log"
c0=$(server_cpu)
/usr/bin/time -f '%e %U %S' -o "$work/time" "$ldgsm" run -v "${args[@]}" -n 0 --iterations "$iterations" ${AGENT_OPTIONS:-} > /dev/null 2> "$work/poll.log"
c1=$(server_cpu); load1=$(cut -d' ' -f1-3 /proc/loadavg)
writes=$(grep -cE '^(PUT|PATCH|POST|DELETE) ' "$work/poll.log" "$work/poll1.log" | awk -F: '{ n += $2 } END { print n }')
[ "$writes" -eq 0 ] || echo "poll.sh: the agent wrote $writes times to complete instances" >&2
read -r wall user sys < "$work/time"
read -r _ user1 sys1 < "$work/time1"
# the GETs of the polls after the first: after the first iteration's line
awk '/^iteration:/ { it++ } it >= 1 && /^GET / { g++; if ($3 == 304) nm++ } END { print g + 0, nm + 0 }' "$work/poll.log" > "$work/later"
read -r later_gets later_304 < "$work/later"
awk -v s="$server" -v n="$n" -v k="$iterations" -v w="$wall" -v a="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
  -v a1="$(awk -v u="$user1" -v s="$sys1" 'BEGIN { print u + s }')" \
  -v sc="$(awk -v x="$c0" -v y="$c1" 'BEGIN { print y - x }')" -v r="$(grep -cE '^(GET|HEAD) ' "$work/poll.log")" \
  -v lg="$later_gets" -v nm="$later_304" -v l0="$load0" -v l1="$load1" 'BEGIN {
  ii = n * k
  steady = k > 1 ? sprintf("%.0f", (a - a1) * 1e6 / (n * (k - 1))) : "-"
  printf "| %s | %d | %d | %.2f | %.0f | %.0f | %s | %.0f | %.3f | %s | %s / %s |\n", s, n, k, w, ii / w, a * 1e6 / ii, steady,
    sc * 1e6 / ii, r / ii, lg ? sprintf("%.1f%%", 100 * nm / lg) : "-", l0, l1 }'
