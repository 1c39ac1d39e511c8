# lib.sh: what the GSM benchmarks (bench/gsm/run.sh, patterns.sh) share: a scratch folder, CPU pinning
# (servers on CPU 0, the agent on CPU 1), servers stopped on exit, medians, writing instances in one curl
# and timing an agent until every instance is complete. Sourced after `root` and `ldgsm` are set.
work=$(mktemp -d /tmp/ldgsm-bench-gsm.XXXXXX)
cpus=$(nproc)
pin_server=(); pin_agent=()
if command -v taskset > /dev/null && [ "$cpus" -ge 2 ]; then pin_server=(taskset -c 0); pin_agent=(taskset -c 1); fi
ticks=$(getconf CLK_TCK)

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null || true; done' EXIT
# start_server NAME CMD...: runs CMD, which prints its port or URL on stdout's first line; sets $started
start_server() {
  local name=$1; shift
  rm -f "$work/$name.out" # a server started again under one name: never read the last one's address
  "$@" > "$work/$name.out" 2> "$work/$name.err" &
  pids+=($!)
  for _ in $(seq 1 100); do [ -s "$work/$name.out" ] && break; sleep 0.05; done
  [ -s "$work/$name.out" ] || { echo "$name did not start (see $work/$name.err)" >&2; exit 1; }
  started=$(head -n 1 "$work/$name.out")
}
cpu_seconds() { awk -v t="$ticks" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$1/stat"; }
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# instances NAME N MODEL [BASE [ROOT]]: writes N uninitialized instances of MODEL#ROOT (MODEL a path under
# BASE, default the ldgsm server's; ROOT default workflow) in one curl; sets args (--instance ...)
instances() {
  local name=$1 n=$2 model=$3 base=${4:-$base} root_stage=${5:-workflow} i
  printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ;
    gsm:isInstanceOf <../%s#%s> ; gsm:hasState gsm:uninitialized .\n' "$model" "$root_stage" > "$work/instance.ttl"
  for i in $(seq 1 "$n"); do
    printf 'url = "%sstatus/%s-%d"\noutput = "/dev/null"\n' "$base" "$name" "$i"
  done > "$work/urls"
  created=$(curl -s -X PUT -H 'Content-Type: text/turtle' --data-binary @"$work/instance.ttl" -w '%{http_code}\n' \
    -K "$work/urls" | grep -c '^201$' || true)
  [ "$created" -eq "$n" ] || { echo "$name: only $created of $n instances were created" >&2; exit 1; }
  args=()
  for i in $(seq 1 "$n"); do args+=(--instance "${base}status/$name-$i#it"); done
}

# agent NAME [LDGSM]: runs the agent (default $ldgsm) on the instances in args; sets $seconds (wall
# clock), $cpu (the agent's user + system seconds, less disturbed than the wall clock by other load on a
# shared machine), $rss_mb (its peak resident set, from /usr/bin/time) and $iterations
agent() {
  local name=$1 binary=${2:-$ldgsm} TIMEFORMAT='%R %U %S' user system
  # shellcheck disable=SC2086 # AGENT_OPTIONS is a list of options
  { time /usr/bin/time -f '%M' -o "$work/rss-$name" "${pin_agent[@]}" "$binary" run -v "${args[@]}" ${AGENT_OPTIONS:-} \
      -n 0 --until complete --iterations 400 --timeout 60000 > /dev/null 2> "$work/agent-$name.log" ; } \
      2> "$work/time-$name" || { echo "$name: the agent failed (see $work/agent-$name.log)" >&2; exit 1; }
  grep -q "every workflow instance is complete" "$work/agent-$name.log" || { echo "$name did not complete" >&2; exit 1; }
  iterations=$(grep -c '^iteration:' "$work/agent-$name.log")
  read -r seconds user system < "$work/time-$name"
  cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')
  rss_mb=$(awk '{ printf "%.0f", $1 / 1024 }' "$work/rss-$name")
}
