#!/usr/bin/env bash
# bench/agent/run.sh: the time of one `ldgsm run` iteration that is one Turing machine step (11 GETs:
# the container, 9 tape cells and the machine; 2 PUTs: a cell and the machine) against
# `ldgsm serve --memory`, beside the floor: the same 13 requests from a bare libcurl multi client
# (floor.c), once as 11 parallel GETs then 2 PUTs, once in the crawl order the agent must follow (the
# container, then its 10 members, then the PUTs). All run against one server, in interleaved rounds,
# the server pinned to CPU 0 and the clients to CPU 1 with taskset, loopback only. Prints a markdown
# table of medians and p90s. A timing never fails the script; a step that is not 11 GETs + 2 PUTs does.
# Usage: bench/agent/run.sh [PATH/TO/ldgsm]   (settings: ROUNDS=16 PER_ROUND=25 CONNECTIONS=4 WORK=DIR)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BIN=${1:-$root/build/ldgsm}
ROUNDS=${ROUNDS:-16}
PER_ROUND=${PER_ROUND:-25}       # iterations (repetitions) per round; the first of each is a warm-up
CONNECTIONS=${CONNECTIONS:-4}    # the floor's connections per host: the agent's own bound
SERVER_CPU=0
CLIENT_CPU=1
WORK=${WORK:-$(mktemp -d /tmp/ldgsm-bench-agent.XXXXXX)}
mkdir -p "$WORK"
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true' EXIT

[ -x /usr/bin/time ] || { echo "run.sh: GNU time is missing (apt-get install time)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "run.sh: no ldgsm binary at $BIN" >&2; exit 1; }
cp "$BIN" "$WORK/ldgsm" # a rebuild during the run does not change what is measured
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -o "$WORK/floor" "$here/floor.c" \
  $(pkg-config --cflags --libs libcurl)

taskset -c "$SERVER_CPU" "$WORK/ldgsm" serve --memory --port 0 > "$WORK/serve.out" 2> "$WORK/serve.log" &
server_pid=$!
base=
for _ in $(seq 1 100); do
  base=$(head -n 1 "$WORK/serve.out" 2>/dev/null || true)
  case $base in http://*) break ;; esac
  sleep 0.05
done
case $base in http://*) ;; *) echo "run.sh: the server did not start: $(cat "$WORK/serve.log")" >&2; exit 1 ;; esac

put() { # path turtle
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: text/turtle' --data-binary "$2" "$base$1")
  case $code in 2*) ;; *) echo "run.sh: PUT $1 answered $code" >&2; exit 1 ;; esac
}
# SPARQL-style PREFIX: a body starting with '@' would make curl --data-binary read a file of that name
tm='PREFIX tm: <http://example.org/tm#> '
cell() { # k symbol step [was]: a cell of the 9-cell tape
  local body="$tm<#it> tm:symbol \"$2\" ; tm:step $3"
  [ $# -ge 4 ] && body="$body ; tm:was \"$4\""
  [ "$1" -gt 1 ] && body="$body ; tm:prev <cell$(($1 - 1))#it>"
  [ "$1" -lt 9 ] && body="$body ; tm:next <cell$(($1 + 1))#it>"
  echo "$body ."
}
# The same tape twice: /tm/ for the agent (tests/agent/turing/tm.n3 running bounce.n3), /floor/ for
# the floor, so that neither disturbs the other.
symbols=('<' 0 1 0 1 0 1 0 '>')
for dir in tm floor; do
  for k in $(seq 1 9); do put "$dir/cell$k" "$(cell "$k" "${symbols[k-1]}" 0)"; done
  put "$dir/machine" "$tm<#it> tm:state tm:right ; tm:head <cell2#it> ; tm:step 0 ; tm:wrote <cell2#it> ."
done
# The floor's two PUTs, bodies of the agent's size, alternating so that each one changes the resource.
cell 5 1 1 0 > "$WORK/cell-a.ttl"
cell 5 0 2 1 > "$WORK/cell-b.ttl"
echo "$tm<#it> tm:state tm:right ; tm:head <cell6#it> ; tm:step 1 ; tm:wrote <cell5#it> ; tm:wroteSymbol \"1\" ." > "$WORK/machine-a.ttl"
echo "$tm<#it> tm:state tm:left ; tm:head <cell4#it> ; tm:step 2 ; tm:wrote <cell5#it> ; tm:wroteSymbol \"0\" ." > "$WORK/machine-b.ttl"
floor_gets=("${base}floor/")
for k in $(seq 1 9); do floor_gets+=("${base}floor/cell$k"); done
floor_gets+=("${base}floor/machine")
echo "<urn:tm:run> <http://example.org/tm#container> <${base}tm/> ." > "$WORK/where.ttl"

: > "$WORK/agent.ms"; : > "$WORK/agent.cpu"
for mode in floor floor-crawl; do : > "$WORK/$mode.ms"; : > "$WORK/$mode.cpu"; done
floor_puts=("${base}floor/cell5" "$WORK/cell-a.ttl" "$WORK/cell-b.ttl"
            "${base}floor/machine" "$WORK/machine-a.ttl" "$WORK/machine-b.ttl")
for round in $(seq 1 "$ROUNDS"); do
  /usr/bin/time -a -o "$WORK/agent.cpu" -f '%U %S' taskset -c "$CLIENT_CPU" "$WORK/ldgsm" run -v -p "$root/tests/agent/turing/tm.n3" -p "$here/bounce.n3" \
    -i "$WORK/where.ttl" -n 0 --iterations "$PER_ROUND" > /dev/null 2> "$WORK/agent-$round.log"
  grep '^iteration:' "$WORK/agent-$round.log" > "$WORK/iterations"
  # every iteration must be the step measured: 11 GETs, 2 writes sent, nothing else
  if [ "$(grep -c ' 11 GETs (0 failed), .*unsafe 2: 2 sent, 0 withheld, 0 conflicting, 0 yielded, 0 refused, 0 failed$' \
         "$WORK/iterations")" != "$PER_ROUND" ]; then
    echo "run.sh: an agent iteration was not 11 GETs and 2 PUTs; see $WORK/agent-$round.log" >&2
    exit 1
  fi
  tail -n +2 "$WORK/iterations" | awk '{ print $2 }' >> "$WORK/agent.ms"
  for mode in floor floor-crawl; do
    order=(); [ $mode = floor-crawl ] && order=(-s)
    /usr/bin/time -a -o "$WORK/$mode.cpu" -f '%U %S' taskset -c "$CLIENT_CPU" "$WORK/floor" -n "$PER_ROUND" \
      -c "$CONNECTIONS" "${order[@]}" "${floor_gets[@]}" -- "${floor_puts[@]}" > "$WORK/$mode-$round.out"
    tail -n +2 "$WORK/$mode-$round.out" | awk '{ print $2 }' >> "$WORK/$mode.ms"
  done
done

# nearest-rank percentile P of the numbers on standard input
percentile() { sort -g | awk -v p="$1" '{ v[NR] = $1 } END { r = int((p * NR + 99) / 100); if (r < 1) r = 1; printf "%.2f", v[r] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
floor_median=$(percentile 50 < "$WORK/floor.ms")
row() { # label name: from NAME.ms (one time per line) and NAME.cpu (user and system seconds per process)
  local median cpu
  median=$(percentile 50 < "$WORK/$2.ms")
  cpu=$(awk -v n=$((ROUNDS * PER_ROUND)) '{ s += $1 + $2 } END { printf "%.2f", s * 1000 / n }' "$WORK/$2.cpu")
  echo "| $1 | $(wc -l < "$WORK/$2.ms") | $median | $(percentile 90 < "$WORK/$2.ms") | $(ratio "$median" "$floor_median")x | $cpu |"
}
median_ratio=$(ratio "$(percentile 50 < "$WORK/agent.ms")" "$floor_median")
{
  echo "One Turing machine step (11 GETs + 2 PUTs) against \`ldgsm serve --memory\`, loopback, server on CPU $SERVER_CPU,"
  echo "clients on CPU $CLIENT_CPU; $ROUNDS interleaved rounds of $PER_ROUND, the first of each round discarded;"
  echo "client CPU: user + system time of the client processes (start-up included) over all steps."
  echo
  echo "| client | samples | median ms | p90 ms | median vs floor | client CPU ms per step |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  row "ldgsm run: one iteration" agent
  row "floor: 11 GETs in parallel, then 2 PUTs" floor
  row "floor in crawl order: 1 GET, 10 GETs, 2 PUTs" floor-crawl
  echo
  if awk -v r="$median_ratio" 'BEGIN { exit !(r <= 3) }'; then met=met; else met="NOT met"; fi
  echo "goal: median iteration <= 3x the floor: $met (${median_ratio}x). Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
} | tee "$WORK/table.md"
