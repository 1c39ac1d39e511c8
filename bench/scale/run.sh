#!/usr/bin/env bash
# bench/scale/run.sh (issue 17, item 3): n instances of the evaluation workflow (ldp-fixtures/evaluation)
# advanced by a fleet of A agents (`ldgsm run --shard I/A ... --until complete`, agent I given shard I),
# against three LDP tiers:
#   serve   `ldgsm serve --memory --fixtures ldp-fixtures/evaluation`
#   css1    Community Solid Server 7.2.0, one process, file storage, memory locker (scripts/css-cluster.sh)
#   cssW    CSS with W worker processes, the Redis locker, shared file storage (css2, css4, ...; `cssN` in
#           SERVERS stands for css$W for every W in WORKERS)
# For every server, size n and fleet size A: fresh instance documents in a container of their own
# (status/RUN/), the A agents started at once, and per run: the time until every agent exited (or the
# limit), instances complete (read back from the server at the end), the agents' requests (their log
# lines: one per request) and so requests per second at the server, successful status writes and 412
# answers (412 per transition), the agents' CPU (user + sys, GNU time) and the server's (its processes'
# utime + stime from /proc, before and after: CSS's primary, workers and redis-server), the load average.
# A run that does not finish within RUN_TIMEOUT is stopped (TERM, the agents finish their iteration)
# and reported as "> limit" with its progress: that is a measurement, not a failure.
#
# usage: bench/scale/run.sh
# environment: LDGSM (default build/ldgsm; copy it elsewhere first if the tree gets rebuilt meanwhile),
#   SIZES="1000 10000", AGENTS="1 2 4", SERVERS="serve css1 cssN", WORKERS="2 4", RUN_TIMEOUT=900 (s),
#   SKIP="server:size[:agents] ..." (runs to leave out, e.g. "css1:10000 css2:10000:1"),
#   SERVE_OPTIONS (added to `ldgsm serve`; the rows in bench/scale/README.md were run with
#   "--max-connections-per-client 1024", needed before the agent closed its writes' connections),
#   AGENT_OPTIONS (added to every `ldgsm run`), CONTAINER_SIZE (K: instances in containers of K, below), CHECK=1 (bench/scale/check-cluster.sh against every
#   multi-worker deployment before its runs; 0 skips it), WORK (default a new /tmp/ldgsm-bench-scale.*).
# Instances are given to the agents with `--instances-from CONTAINER` when the binary has that flag and
# INSTANCES is not "list", else as repeated `--instance URI` arguments (see agent_command): CSS could not
# list a container of 10,000 within its lock's 6 s (500 "Lock expired"). Before the agents start, one GET
# of the run's container is timed (its status and seconds on standard error and in WORK/RUN/container-get). Output: a markdown table on standard output
# and in WORK/table.md; a row per run also in WORK/rows.tsv; logs in WORK/RUN/.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${LDGSM:-$root/build/ldgsm}
read -r -a sizes <<< "${SIZES:-1000 10000}"
read -r -a fleet <<< "${AGENTS:-1 2 4}"
read -r -a workers_list <<< "${WORKERS:-2 4}"
servers=()
for s in ${SERVERS:-serve css1 cssN}; do
  if [ "$s" = cssN ]; then for w in "${workers_list[@]}"; do servers+=("css$w"); done; else servers+=("$s"); fi
done
limit=${RUN_TIMEOUT:-900}
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-scale.XXXXXX)}; mkdir -p "$work"
fixtures=$root/ldp-fixtures/evaluation
[ -x "$ldgsm" ] || { echo "run.sh: no ldgsm binary at $ldgsm (set LDGSM)" >&2; exit 1; }
command -v jq > /dev/null || true

# --- servers (lib.sh) ------------------------------------------------------------------------------
. "$root/bench/scale/lib.sh"
agent_pids=()
cleanup() {
  # agent_pids are GNU time's; the agents are their children (time itself would leave them running)
  for p in "${agent_pids[@]}"; do pkill -TERM -P "$p" 2>/dev/null; done
  for p in "${agent_pids[@]}"; do wait "$p" 2>/dev/null; done
  stop_server
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_tier NAME: the server with the evaluation workflow's fixtures; a multi-worker CSS checked first
start_tier() {
  start_server "$1" "$fixtures" || return 1
  local w=${1#css}
  if [ "$1" != serve ] && [ "$w" -gt 1 ] && [ "${CHECK:-1}" = 1 ]; then
    echo "check of $1 (bench/scale/check-cluster.sh):" >&2
    ROUNDS=10 "$root/bench/scale/check-cluster.sh" "$base" | sed 's/^/  /' >&2 ||
      echo "  $1: the cluster check FAILED (runs go on; see above)" >&2
  fi
}

# --- instances ---------------------------------------------------------------------------------------
# Instance i of a run is status/RUN/i<i>, or with CONTAINER_SIZE=K status/RUN/c<(i-1)/K>/i<i>: CSS's cost
# per request grows with the members of the container around it (bench/scale/container-size.sh).
container_size=${CONTAINER_SIZE:-0}
member_url() { # RUN I
  if [ "$container_size" -gt 0 ]; then echo "${base}status/$1/c$(( ($2 - 1) / container_size ))/i$2"
  else echo "${base}status/$1/i$2"; fi
}
containers() { # RUN: the containers of the run's instances
  if [ "$container_size" -gt 0 ]; then
    local k
    for k in $(seq 0 $(( (n_of_run - 1) / container_size ))); do echo "${base}status/$1/c$k/"; done
  else echo "${base}status/$1/"; fi
}
# make_instances RUN N: N uninitialized instances of the evaluation workflow in the container status/RUN/,
# written 8 at a time by one curl; their IRIs in WORK/RUN/instances
make_instances() {
  local run=$1 n=$2 i d=$work/$1
  mkdir -p "$d"
  printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ;
    gsm:isInstanceOf <%smodels/evaluation#workflow> ; gsm:hasState gsm:uninitialized .\n' "$base" > "$d/instance.ttl"
  # the container first (CSS makes missing containers too; this keeps the order of events the same)
  for i in $(seq 1 "$n"); do
    printf 'url = "%s"\n' "$(member_url "$run" "$i")"
    printf 'output = "/dev/null"\n'
  done > "$d/urls"
  local created
  created=$(curl -s --no-progress-meter -Z --parallel-max 8 -X PUT -H 'Content-Type: text/turtle' --data-binary @"$d/instance.ttl" \
    -w '%{http_code}\n' -K "$d/urls" | grep -c '^20[15]$')
  [ "$created" -eq "$n" ] || { echo "run.sh: $run: only $created of $n instances were created" >&2; return 1; }
  for i in $(seq 1 "$n"); do echo "$(member_url "$run" "$i")#it"; done > "$d/instances"
}

# count_complete RUN N: instances whose status document says the workflow is complete (read back, 8 at a time)
count_complete() {
  local run=$1 n=$2 i d=$work/$1
  for i in $(seq 1 "$n"); do
    printf 'url = "%s"\noutput = "%s/final/i%d"\n' "$(member_url "$run" "$i")" "$d" "$i"
  done > "$d/final-urls"
  mkdir -p "$d/final"
  curl -s --no-progress-meter -Z --parallel-max 8 -H 'Accept: application/n-triples' -K "$d/final-urls" > /dev/null
  grep -l '#it> <https://w3id.org/ldgsm#isCompleted> "true"' -r "$d/final" | wc -l
}

# --- agents ------------------------------------------------------------------------------------------
# agent_command RUN I A: the command line of agent I of A, into the array cmd. With --instances-from in the
# binary, the agent reads the instances from the run's container; else every IRI as --instance.
instances_from=0
# the whole help read before grep answers: with pipefail, grep -q's early exit would fail the pipe (SIGPIPE)
if [ "${INSTANCES:-container}" != list ] && "$ldgsm" run --help 2>&1 | grep -c -- '--instances-from' > /dev/null; then instances_from=1; fi
agent_command() {
  local run=$1 i=$2 a=$3
  cmd=("$ldgsm" run -v) # -v: the iteration and request lines are counted below
  if [ "$instances_from" = 1 ]; then
    local c
    for c in $(containers "$run"); do cmd+=(--instances-from "$c"); done
  else
    local iri
    while read -r iri; do cmd+=(--instance "$iri"); done < "$work/$run/instances"
  fi
  # shellcheck disable=SC2206 # AGENT_OPTIONS is a list of options
  cmd+=(--shard "$i/$a" -n 0 --until complete --iterations 100000 --timeout 60000 ${AGENT_OPTIONS:-})
}

# one_run SERVER N A: prints a row to rows.tsv
one_run() {
  local server=$1 n=$2 a=$3 run="$1-n$2-a$3" i
  n_of_run=$n
  local d=$work/$run
  make_instances "$run" "$n" || return 1
  curl -s -o /dev/null -H 'Accept: text/turtle' -w '%{http_code} %{time_total}\n' --max-time 120 \
    "$(containers "$run" | head -n 1)" > "$d/container-get"
  echo "  one GET of the (first) container of the run: status and seconds $(cat "$d/container-get")" >&2
  local cpu0 t0 t1 load0 load1 status='done'
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  cpu0=$(server_cpu)
  agent_pids=()
  t0=$(date +%s.%N)
  for i in $(seq 1 "$a"); do
    agent_command "$run" "$i" "$a"
    /usr/bin/time -f '%e %U %S %x' -o "$d/time-$i" "${cmd[@]}" > /dev/null 2> "$d/agent-$i.log" &
    agent_pids+=($!)
  done
  local deadline=$(( $(date +%s) + limit )) running
  while :; do
    running=0
    for i in "${agent_pids[@]}"; do kill -0 "$i" 2>/dev/null && running=1; done
    [ $running = 0 ] && break
    if [ "$(date +%s)" -ge $deadline ]; then
      status=limit
      # /usr/bin/time's children: the agents (TERM: they finish the current iteration and exit)
      for i in "${agent_pids[@]}"; do pkill -TERM -P "$i" 2>/dev/null; done
      sleep 20
      for i in "${agent_pids[@]}"; do pkill -KILL -P "$i" 2>/dev/null; done
      break
    fi
    sleep 0.2
  done
  for i in "${agent_pids[@]}"; do wait "$i" 2>/dev/null; done
  t1=$(date +%s.%N)
  agent_pids=()
  local cpu1; cpu1=$(server_cpu)
  load1=$(cut -d' ' -f1-3 /proc/loadavg)
  local complete exits
  complete=$(count_complete "$run" "$n")
  # GNU time's last line (before it, "Command terminated by signal N" when the agent was killed)
  exits=$(for i in $(seq 1 "$a"); do
    if grep -q '^Command terminated by signal' "$d/time-$i" 2>/dev/null; then
      sed -n 's/^Command terminated by signal \([0-9]*\).*/signal \1/p' "$d/time-$i"
    else tail -n 1 "$d/time-$i" 2>/dev/null | awk '{ print $4 }'; fi
  done | paste -sd,)
  # requests: one log line each, METHOD URI STATUS ms
  cat "$d"/agent-*.log | awk -v n="$n" -v a="$a" -v server="$server" -v t0="$t0" -v t1="$t1" -v st="$status" \
    -v complete="$complete" -v exits="$exits" -v scpu="$(awk -v x="$cpu0" -v y="$cpu1" 'BEGIN { print y - x }')" \
    -v acpu="$(for f in "$d"/time-*; do tail -n 1 "$f"; done 2>/dev/null | awk '{ s += $2 + $3 } END { print s + 0 }')" \
    -v l0="$load0" -v l1="$load1" '
    $1 ~ /^(GET|HEAD|PUT|PATCH|POST|DELETE)$/ && $2 ~ /^https?:/ {
      req++
      if ($1 == "PUT" || $1 == "PATCH") { if ($3 ~ /^2/) ok++; else if ($3 == 412) c412++; else other++ }
    }
    /^iteration:/ { it++ }
    END {
      wall = t1 - t0
      printf "%s\t%d\t%d\t%s\t%.1f\t%d\t%d\t%d\t%.0f\t%d\t%d\t%d\t%.3f\t%.1f\t%.1f\t%s\t%s\t%s\n",
        server, n, a, st, wall, complete, it, req, req / wall, ok, c412, other, (ok ? c412 / ok : 0), acpu, scpu, exits, l0, l1
    }' >> "$work/rows.tsv"
  tail -n 1 "$work/rows.tsv" >&2
  # the logs of large runs are big: keep the summaries
  gzip -f "$d"/agent-*.log 2>/dev/null
  rm -rf "$d/final" "$d/urls" "$d/final-urls"
}

skip() { local k; for k in ${SKIP:-}; do case $k in "$1:$2"|"$1:$2:$3") return 0 ;; esac; done; return 1; }

echo "run.sh: ldgsm $("$ldgsm" --version 2>/dev/null | head -1), instances by $([ $instances_from = 1 ] && echo --instances-from || echo --instance); work in $work" >&2
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(free -g | awk '/^Mem:/ { print $2 }') GiB RAM" >&2
: > "$work/rows.tsv"
for server in "${servers[@]}"; do
  for n in "${sizes[@]}"; do
    todo=0
    for a in "${fleet[@]}"; do skip "$server" "$n" "$a" || todo=1; done
    [ $todo = 1 ] || continue
    # a fresh server per size: the runs before leave thousands of documents behind
    start_tier "$server" || { echo "run.sh: $server did not start" >&2; stop_server; continue; }
    for a in "${fleet[@]}"; do
      skip "$server" "$n" "$a" && continue
      echo "run: $server, $n instances, $a agent(s), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
      one_run "$server" "$n" "$a" || echo "run.sh: $server n=$n a=$a could not run" >&2
    done
    stop_server
  done
done

{
  echo "| server | instances | agents | time to complete (s) | complete | iterations (sum over agents) | requests | req/s | status writes (transitions) | transitions/s | 412 | 412 per transition | agent CPU (s) | server CPU (s) | agents' exit | load before / after |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
  awk -F'\t' '{
    t = ($4 == "limit") ? sprintf("> limit (%.0f)", $5) : sprintf("%.1f", $5)
    printf "| %s | %d | %d | %s | %d | %d | %d | %d | %d | %.1f | %d | %.3f | %.1f | %.1f | %s | %s / %s |\n",
      $1, $2, $3, t, $6, $7, $8, $9, $10, $10 / $5, $11, $13, $14, $15, $16, $17, $18 }' "$work/rows.tsv"
} | tee "$work/table.md"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); rows in $work/rows.tsv, logs in $work" >&2
