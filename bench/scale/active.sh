#!/usr/bin/env bash
# bench/scale/active.sh: what waiting instances cost an agent beside active ones, by mode, in one run. IDLE
# complete instances of the evaluation workflow (status/poll/, seed_complete_copies; SEED_OPTIONS, e.g.
# --archive-history for copies of a few KB), and, once the agent has taken them up (WARMUP seconds), RATE new
# instances a second for SECONDS seconds (status/MODE/, taken up through --instances-from and run to completion,
# 14 status writes each): the active ones. Per mode over those SECONDS: the agent's CPU per second, its requests per
# second, the server's CPU; then how many of the instances created completed within DRAIN seconds more, and the
# agent's CPU from the first creation to then per instance completed. Modes: polling (-n 1000) and notifications (--notifications -n 60000
# --safety-poll SAFETY, default 600000), each plus AGENT_OPTIONS.
# usage: bench/scale/active.sh IDLE    environment: LDGSM (default build/ldgsm), MODES="polling notifications",
#   RATE (default 10), SECONDS_ACTIVE (default 30), WARMUP (default 60; WARMUP_POLLING for the polling agent,
#   which at 100,000 never ends its first pass anyway), DRAIN (default 30), SAFETY,
#   SERVE_OPTIONS (default: channel and connection limits raised past the documents), AGENT_OPTIONS (both
#   modes), NOTIFICATIONS_OPTIONS (the change-driven agent only: --webhook implies --notifications), WORK
# Prints one markdown table row per mode.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${LDGSM:-$root/build/ldgsm}
idle=${1:?usage: active.sh IDLE}
rate=${RATE:-10} active_s=${SECONDS_ACTIVE:-30} warmup=${WARMUP:-60} drain=${DRAIN:-30} safety=${SAFETY:-600000}
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-active.XXXXXX)}; mkdir -p "$work"
limit=$((2 * (idle + rate * active_s) + 200))
SERVE_OPTIONS=${SERVE_OPTIONS:-"--max-channels $limit --max-channels-per-client $limit --max-connections $limit"}
. "$root/bench/scale/lib.sh"
agent=
trap '[ -n "$agent" ] && kill "$agent" 2>/dev/null; stop_server' EXIT
start_server serve "$root/ldp-fixtures/evaluation" || exit 1
if [ "$idle" -gt 0 ]; then seed_complete_copies "$idle" || exit 1; fi
cpu_of() { awk -v k="$ticks" '{ sub(/^.*\) /, ""); printf "%.3f", ($12 + $13) / k }' "/proc/$1/stat"; }
requests() { grep -cE '^(GET|HEAD|PUT|PATCH|POST|DELETE) ' "$1"; }
new_instance() { # PATH: an uninitialized instance of the evaluation workflow
  printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ; gsm:isInstanceOf <%smodels/evaluation#workflow> ; gsm:hasState gsm:uninitialized .\n' \
    "$base" | curl -s -f -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @- "$base$1"
}
completed() { # MODE COUNT: how many of status/MODE/1..COUNT are complete
  local k done=0
  for k in $(seq 1 "$2"); do
    curl -s -H 'Accept: application/n-triples' "${base}status/$1/$k" |
      grep -q '#it> <https://w3id.org/ldgsm#isCompleted> "true"' && done=$((done + 1))
  done
  echo "$done"
}
echo "| mode | idle | created/s | s | completed | agent CPU ms/s | agent CPU ms per instance | requests/s | server CPU ms/s |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for mode in ${MODES:-polling notifications}; do
  case $mode in
    polling) options=(-n 1000) ;;
    # shellcheck disable=SC2206 # NOTIFICATIONS_OPTIONS is a list of options (e.g. --webhook 127.0.0.1:0)
    notifications) options=(--notifications -n 60000 --safety-poll "$safety" ${NOTIFICATIONS_OPTIONS:-}) ;;
    *) echo "active.sh: unknown mode $mode" >&2; exit 1 ;;
  esac
  new_instance "status/$mode/0" || { echo "active.sh: the server refused an instance" >&2; exit 1; }
  containers=(--instances-from "${base}status/$mode/")
  [ "$idle" -gt 0 ] && containers+=(--instances-from "${base}status/poll/")
  # shellcheck disable=SC2086 # AGENT_OPTIONS is a list of options
  "$ldgsm" run -v "${containers[@]}" "${options[@]}" ${AGENT_OPTIONS:-} > /dev/null 2> "$work/$mode.log" &
  agent=$!
  if [ "$mode" = polling ]; then sleep "${WARMUP_POLLING:-$warmup}"; else sleep "$warmup"; fi
  a0=$(cpu_of "$agent"); s0=$(server_cpu); r0=$(requests "$work/$mode.log")
  created=0 started=$(date +%s.%N) creators=()
  while :; do
    now=$(date +%s.%N)
    awk -v a="$started" -v b="$now" -v s="$active_s" 'BEGIN { exit !(b - a < s) }' || break
    due=$(awk -v a="$started" -v b="$now" -v r="$rate" 'BEGIN { printf "%d", (b - a) * r + 1 }')
    while [ "$created" -lt "$due" ]; do
      created=$((created + 1))
      new_instance "status/$mode/$created" &
      creators+=($!)
    done
    sleep 0.05
  done
  wait "${creators[@]}" 2>/dev/null
  a1=$(cpu_of "$agent"); s1=$(server_cpu); r1=$(requests "$work/$mode.log")
  sleep "$drain"
  a2=$(cpu_of "$agent")
  kill -TERM "$agent"; wait "$agent" 2>/dev/null; agent=
  done_count=$(completed "$mode" "$created")
  awk -v m="$mode" -v i="$idle" -v r="$rate" -v d="$active_s" -v c="$done_count" \
    -v a="$(awk -v x="$a0" -v y="$a1" 'BEGIN { print y - x }')" -v q=$((r1 - r0)) \
    -v all="$(awk -v x="$a0" -v y="$a2" 'BEGIN { print y - x }')" \
    -v s="$(awk -v x="$s0" -v y="$s1" 'BEGIN { print y - x }')" -v n="$created" \
    'BEGIN { printf "| %s | %d | %d | %d | %d of %d | %.1f | %s | %.1f | %.1f |\n", m, i, r, d, c, n, a * 1000 / d,
             c ? sprintf("%.1f", all * 1000 / c) : "-", q / d, s * 1000 / d }'
done
