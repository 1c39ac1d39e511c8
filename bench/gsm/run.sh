#!/usr/bin/env bash
# GSM at scale, two parts in one run against one `ldgsm serve --memory` (LDP server and task server on
# CPU 0, agent on CPU 1), each agent run `ldgsm run --instance ... --interval 0 --until complete`:
#  1. scale: n instances of the evaluation workflow (ldp-fixtures/evaluation) for each n: iterations,
#     time to complete, time per iteration per instance;
#  2. calls (issue 10): CALL_INSTANCES instances of the same workflow with a task on every stage
#     (bench/gsm/tasks.ttl), once with tasks that always succeed and once with tasks whose first execution
#     under each Idempotency-Key answers 500, the re-send 204, both against one task server
#     (bench/gsm/task_server.c); the ratio of their times per iteration per instance;
#  3. writes (issue 12): WRITES_INSTANCES instances of the evaluation workflow, once written with N3 Patch
#     (--patch) and once with PUT of the whole document (the default): request
#     body bytes, agent and LDP server CPU, time per iteration per instance, and their ratios; and the same
#     against Community Solid Server 7.2.0 with WRITES_CSS_INSTANCES instances when it is installed.
# Every figure is a median of RUNS runs; part 2 runs RUNS rounds of an ok and a flaky run back to back and
# reports the median of the rounds' ratios. Each run writes fresh instances; a run that does not complete
# every instance, or a task count other than expected, stops the benchmark.
# usage: bench/gsm/run.sh [path/to/ldgsm] [N ...]     (default: build/ldgsm, n = 1 9 100 1000)
# environment: RUNS=3, BASELINE (another ldgsm the scale part runs beside, in the same rounds), CALL_INSTANCES=1000, WRITES_INSTANCES=1000, WRITES_CSS_INSTANCES=20, SKIP_SCALE=1,
# SKIP_CALLS=1, SKIP_WRITES=1, AGENT_OPTIONS (added to every
# `ldgsm run`, e.g. "--history 0" to measure what the status documents' history costs)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${1:-$root/build/ldgsm}; shift || true
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1 9 100 1000)
runs=${RUNS:-3}
call_n=${CALL_INSTANCES:-1000}
writes_n=${WRITES_INSTANCES:-1000}
writes_css_n=${WRITES_CSS_INSTANCES:-20}
. "$root/bench/gsm/lib.sh"

start_server ldp "${pin_server[@]}" "$ldgsm" serve --memory --port 0 --fixtures "$root/ldp-fixtures/evaluation"
ldp_pid=${pids[-1]}
base=$started

if [ -z "${SKIP_SCALE:-}" ]; then
  echo "Scale: the evaluation workflow, median of $runs runs"
  echo
  if [ -n "${BASELINE:-}" ]; then
    echo "The baseline ($BASELINE) runs on the same instances' copies in the same rounds, in turn first and second."
    echo
    echo "| instances | iterations | time to complete (s) | agent CPU ms per iteration per instance | baseline | ratio | peak RSS MB | baseline | ratio |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  else
    echo "| instances | iterations | time to complete (s) | ms per iteration | ms per iteration per instance | agent CPU ms per iteration per instance | peak RSS MB |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  fi
  for n in "${sizes[@]}"; do
    : > "$work/scale-$n"
    for r in $(seq 1 "$runs"); do
      order=(ours); [ -n "${BASELINE:-}" ] && { if [ $((r % 2)) = 1 ]; then order=(ours baseline); else order=(baseline ours); fi; }
      for who in "${order[@]}"; do
        instances "n$n-r$r-$who" "$n" models/evaluation
        if [ "$who" = ours ]; then agent "n$n-r$r-$who"; else agent "n$n-r$r-$who" "$BASELINE"; fi
        echo "$who $seconds $iterations $cpu $rss_mb" >> "$work/scale-$n"
      done
    done
    # per run: time, iterations, CPU ms per iteration per instance, RSS
    col() { awk -v who="$1" -v c="$2" -v n="$n" '$1 == who {
      if (c == "cpu") print $4 * 1000 / $3 / n; else if (c == "t") print $2; else if (c == "it") print $3; else print $5 }' \
      "$work/scale-$n" | median; }
    t=$(col ours t); it=$(col ours it); c=$(col ours cpu); m=$(col ours rss)
    if [ -n "${BASELINE:-}" ]; then
      bc=$(col baseline cpu); bm=$(col baseline rss)
      awk -v n="$n" -v it="$it" -v t="$t" -v c="$c" -v bc="$bc" -v m="$m" -v bm="$bm" 'BEGIN {
        printf "| %d | %d | %.2f | %.3f | %.3f | %.2f | %d | %d | %.2f |\n", n, it, t, c, bc, c / bc, m, bm, m / bm }'
    else
      awk -v n="$n" -v it="$it" -v t="$t" -v c="$c" -v m="$m" 'BEGIN {
        printf "| %d | %d | %.2f | %.1f | %.3f | %.3f | %d |\n", n, it, t, t * 1000 / it, t * 1000 / it / n, c, m }'
    fi
  done
  echo
fi

if [ -z "${SKIP_CALLS:-}" ]; then
  cc -std=c11 -O2 -Wall -Wextra -pthread "$root/bench/gsm/task_server.c" -lmicrohttpd -o "$work/task_server"
  start_server tasks "${pin_server[@]}" "$work/task_server" 0
  task_pid=${pids[-1]}
  for mode in ok flaky; do
    sed "s|<TASKS/|<http://127.0.0.1:$started/$mode/|" "$root/bench/gsm/tasks.ttl" |
      curl -s -f -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @- "${base}models/tasks-$mode"
  done
  stats() { curl -s "http://127.0.0.1:$started/stats"; }
  tasks=$((8 * call_n)) # tasks.ttl: one call per stage, 8 stages
  # Rounds of one ok and one flaky run back to back (in turn ok first and flaky first), so that both runs
  # of a round see about the same load; per run: seconds, iterations, agent CPU seconds, task executions,
  # failed executions, task server and LDP server CPU seconds.
  : > "$work/calls-ok"; : > "$work/calls-flaky"
  for r in $(seq 1 "$runs"); do
    order=(ok flaky); [ $((r % 2)) -eq 0 ] && order=(flaky ok)
    for mode in "${order[@]}"; do
      instances "$mode-r$r" "$call_n" "models/tasks-$mode"
      read -r _ executed0 _ failed0 _ _ _ _ < <(stats)
      task_cpu0=$(cpu_seconds "$task_pid"); ldp_cpu0=$(cpu_seconds "$ldp_pid")
      agent "$mode-r$r"
      read -r _ executed1 _ failed1 _ _ _ _ < <(stats)
      executed=$((executed1 - executed0)); failed=$((failed1 - failed0))
      want_failed=0; [ "$mode" = flaky ] && want_failed=$tasks
      [ "$failed" -eq "$want_failed" ] && [ "$executed" -eq $((tasks + want_failed)) ] || {
        echo "$mode run $r: $executed task executions, $failed failed;" \
          "expected $((tasks + want_failed)), $want_failed" >&2
        exit 1
      }
      echo "$seconds $iterations $cpu $executed $failed" \
        "$(awk -v a="$task_cpu0" -v b="$(cpu_seconds "$task_pid")" 'BEGIN { print b - a }')" \
        "$(awk -v a="$ldp_cpu0" -v b="$(cpu_seconds "$ldp_pid")" 'BEGIN { print b - a }')" >> "$work/calls-$mode"
    done
  done
  echo "Calls: $call_n instances of the evaluation workflow with a task on each of its 8 stages, median of $runs runs"
  echo
  echo "| tasks | iterations | time to complete (s) | ms per iteration per instance | agent CPU ms per iteration per instance | task executions | failed (500) | task server CPU (s) | LDP server CPU (s) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for mode in ok flaky; do
    f="$work/calls-$mode"
    awk -v n="$call_n" '{ print $1 * 1000 / $2 / n, $3 * 1000 / $2 / n }' "$f" > "$work/per-$mode"
    printf '| %s | %d | %.2f | %.3f | %.3f | %d | %d | %.2f | %.2f |\n' "$mode" "$(cut -d' ' -f2 "$f" | median)" \
      "$(cut -d' ' -f1 "$f" | median)" "$(cut -d' ' -f1 "$work/per-$mode" | median)" "$(cut -d' ' -f2 "$work/per-$mode" | median)" \
      "$(cut -d' ' -f4 "$f" | median)" "$(cut -d' ' -f5 "$f" | median)" "$(cut -d' ' -f6 "$f" | median)" "$(cut -d' ' -f7 "$f" | median)"
  done
  echo
  # ratios flaky / ok of the time per iteration per instance, per round (wall clock, agent CPU)
  paste -d' ' "$work/per-ok" "$work/per-flaky" | awk '{ print $3 / $1, $4 / $2 }' > "$work/ratios"
  echo "rounds (ok s / flaky s; flaky / ok per iteration per instance):" \
    "$(paste -d' ' "$work/calls-ok" "$work/calls-flaky" "$work/ratios" | awk '{ printf "%s%.1f / %.1f s: %.2fx", (NR > 1 ? "; " : ""), $1, $8, $15 }')"
  awk -v wall="$(cut -d' ' -f1 "$work/ratios" | median)" -v cpu="$(cut -d' ' -f2 "$work/ratios" | median)" 'BEGIN {
    printf "flaky / ok, ms per iteration per instance, median of the rounds: %.2fx (agent CPU: %.2fx); goal at most 1.5x: %s\n",
      wall, cpu, wall <= 1.5 ? "met" : "not met" }'
  echo
fi
if [ -z "${SKIP_WRITES:-}" ]; then
  # writes_rounds LABEL N BASE SERVER_PID: RUNS rounds of a patch run and a put run back to back (in turn
  # patch first and put first); per run: seconds, iterations, agent CPU seconds, server CPU seconds,
  # request body bytes of the composed writes, composed writes sent, of them PATCHes
  writes_rounds() {
    local label=$1 n=$2 server=$3 server_pid=$4 r mode cpu0 order
    : > "$work/writes-$label-patch"; : > "$work/writes-$label-put"
    for r in $(seq 1 "$runs"); do
      order=(patch put); [ $((r % 2)) -eq 0 ] && order=(put patch)
      for mode in "${order[@]}"; do
        instances "w-$label-$mode-r$r" "$n" models/evaluation "$server"
        cpu0=$(cpu_seconds "$server_pid")
        local saved=${AGENT_OPTIONS:-} write_option=
        if [ "$mode" = patch ]; then write_option=--patch; fi
        AGENT_OPTIONS="$saved --trace $work/trace-$label-$mode-r$r.jsonl $write_option"
        agent "w-$label-$mode-r$r"
        AGENT_OPTIONS=$saved
        echo "$seconds $iterations $cpu $(awk -v a="$cpu0" -v b="$(cpu_seconds "$server_pid")" 'BEGIN { print b - a }')" \
          "$(jq -s '[.[] | select(.kind == "request" and .composed and .outcome == "sent")] |
                    "\(map(.body_bytes) | add) \(length) \(map(select(.method == "PATCH")) | length)"' -r \
                "$work/trace-$label-$mode-r$r.jsonl")" >> "$work/writes-$label-$mode"
      done
    done
    echo "| server | write | instances | iterations | composed writes (PATCH) | request body bytes | ms per iteration per instance | agent CPU ms per iteration per instance | server CPU (s) |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for mode in patch put; do
      f="$work/writes-$label-$mode"
      awk -v n="$n" '{ print $1 * 1000 / $2 / n, $3 * 1000 / $2 / n }' "$f" > "$work/wper-$label-$mode"
      printf '| %s | %s | %d | %d | %d (%d) | %d | %.3f | %.3f | %.2f |\n' "$label" "$mode" "$n" \
        "$(cut -d' ' -f2 "$f" | median)" "$(cut -d' ' -f6 "$f" | median)" "$(cut -d' ' -f7 "$f" | median)" \
        "$(cut -d' ' -f5 "$f" | median)" "$(cut -d' ' -f1 "$work/wper-$label-$mode" | median)" \
        "$(cut -d' ' -f2 "$work/wper-$label-$mode" | median)" "$(cut -d' ' -f4 "$f" | median)"
    done
    # per round, put / patch: body bytes, ms per iteration per instance, agent CPU, server CPU
    paste -d' ' "$work/writes-$label-patch" "$work/writes-$label-put" "$work/wper-$label-patch" "$work/wper-$label-put" |
      awk '{ print $12 / $5, $17 / $15, $18 / $16, $11 / $4 }' > "$work/wratios-$label"
    awk -v b="$(cut -d' ' -f1 "$work/wratios-$label" | median)" -v w="$(cut -d' ' -f2 "$work/wratios-$label" | median)" \
      -v a="$(cut -d' ' -f3 "$work/wratios-$label" | median)" -v s="$(cut -d' ' -f4 "$work/wratios-$label" | median)" \
      -v l="$label" 'BEGIN { printf "%s, put / patch (median of the rounds): request body bytes %.2fx, ms per iteration per instance %.2fx, agent CPU %.2fx, server CPU %.2fx\n\n", l, b, w, a, s }'
  }
  echo "Writes: the evaluation workflow written with N3 Patch (--patch) and with PUT, median of $runs rounds"
  echo
  writes_rounds ldgsm "$writes_n" "$base" "$ldp_pid"
  if [ -f "$root/node_modules/@solid/community-server/bin/server.js" ] && command -v node > /dev/null; then
    WORK=$work; . "$root/tests/ldp/css.sh"
    css_start 0 || exit 1
    pids+=("$CSS_PID")
    # the fixtures `ldgsm serve --fixtures` starts from (the model, and the data its sentries read)
    while read -r f; do
      curl -s -f -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @"$root/ldp-fixtures/evaluation/$f" \
        "${CSS_URL}$f" || { echo "CSS refused the fixture $f" >&2; exit 1; }
    done < <(cd "$root/ldp-fixtures/evaluation" && find . -type f ! -name README.md | sed 's|^\./||' | sort)
    writes_rounds css "$writes_css_n" "$CSS_URL" "$CSS_PID"
  fi
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); logs in $work"
