#!/usr/bin/env bash
# The RDFS reasoning benchmark: generates the data set, times ldgsm, N3.js and EYE (whole processes,
# parsing and writing the derived triples to a file included) in interleaved rounds, checks that the
# three derived the same triples, and prints a markdown table of medians, peak RSS and ratios.
#
# usage: bench/reason/run.sh            (see bench/README.md; settings through the environment)
#   LDGSM=PATH        the ldgsm binary (default: build/ldgsm if built; without one, the peers only)
#   RUNS_LDGSM=5 RUNS_N3JS=5 RUNS_EYE=1   runs per tool (each tool runs at least once; EYE takes ~10 min)
#   BUDGET_SECONDS=1800   no new run starts once the benchmark has taken this long
#   RUN_TIMEOUT=1200      one run longer than this is killed and counts as a failure
#   SKIP_EYE=1            leave EYE out
#   WORK=DIR              where data and outputs go (default: a new temporary directory, kept)
#   DEPTH=20 INSTANCES=10000 TRIPLES=50000 SEED=42   the data set
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

runs_ldgsm=${RUNS_LDGSM:-5}
runs_n3js=${RUNS_N3JS:-5}
runs_eye=${RUNS_EYE:-1}
budget=${BUDGET_SECONDS:-1800}
run_timeout=${RUN_TIMEOUT:-1200}
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-reason.XXXXXX)}
mkdir -p "$work"

ldgsm=${LDGSM:-}
if [ -z "$ldgsm" ] && [ -x "$root/build/ldgsm" ]; then
  ldgsm=$root/build/ldgsm
fi
if [ -n "$ldgsm" ] && [ ! -x "$ldgsm" ]; then
  echo "run.sh: LDGSM=$ldgsm is not an executable" >&2
  exit 2
fi
# A copy, so that a rebuild during the benchmark neither breaks nor changes the binary measured.
if [ -n "$ldgsm" ]; then
  cp "$ldgsm" "$work/ldgsm-under-test"
  ldgsm=$work/ldgsm-under-test
fi

"$root/scripts/peers.sh"
if [ ! -x /usr/bin/time ]; then
  echo "run.sh: installing GNU time for peak memory" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi

echo "run.sh: working in $work" >&2
node "$here/gen.js" --depth "${DEPTH:-20}" --instances "${INSTANCES:-10000}" --triples "${TRIPLES:-50000}" \
     --seed "${SEED:-42}" --out "$work"
cp "$here/rdfs-core.n3" "$work/rdfs-core.n3"

# Each tool's command runs in $work with relative paths (EYE's CLI only sees files below its cwd).
tools=()
[ -n "$ldgsm" ] && tools+=(ldgsm)
tools+=(n3js)
[ "${SKIP_EYE:-0}" = 1 ] || tools+=(eye)

output_of() {
  case $1 in
    ldgsm) echo ldgsm.nt ;;
    n3js) echo n3js.nt ;;
    eye) echo eye.n3 ;;   # EYE writes N3; compare.js reads it as such
  esac
}

wanted_runs() {
  case $1 in
    ldgsm) echo "$runs_ldgsm" ;;
    n3js) echo "$runs_n3js" ;;
    eye) echo "$runs_eye" ;;
  esac
}

# Runs TOOL once under timeout and GNU time (peak RSS into TOOL.rss), in $work.
run_tool() {
  local timed=(timeout "$run_timeout" /usr/bin/time -f "%M" -o "$1.rss")
  case $1 in
    ldgsm) "${timed[@]}" "$ldgsm" reason --pass-only-new -o ntriples data.nt rdfs-core.n3 > ldgsm.nt ;;
    n3js) "${timed[@]}" node "$here/n3js-reason.js" data.nt rdfs-core.n3 n3js.nt ;;
    eye) "${timed[@]}" node "$root/node_modules/eyereasoner/dist/bin/index.js" --nope --quiet --pass-only-new \
              --turtle data.nt --n3 rdfs-core.n3 > eye.n3 < /dev/null ;;
  esac
}

# One timed run: wall time from bash's clock, peak RSS from GNU time; appends "seconds kib" to TOOL.runs.
measure() {
  local tool=$1 start end status
  start=$EPOCHREALTIME
  set +e
  (cd "$work" && run_tool "$tool") 2> "$work/$tool.stderr"
  status=$?
  set -e
  end=$EPOCHREALTIME
  if [ "$status" != 0 ]; then
    echo "run.sh: $tool failed (exit $status$([ "$status" = 124 ] && echo ", timed out after ${run_timeout}s")):" >&2
    tail -5 "$work/$tool.stderr" >&2
    return 1
  fi
  echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }') $(tail -1 "$work/$tool.rss")" >> "$work/$tool.runs"
  echo "run.sh: $tool run $(wc -l < "$work/$tool.runs"): $(tail -1 "$work/$tool.runs" | awk '{ printf "%s s, %.0f MiB", $1, $2 / 1024 }')" >&2
}

# Rounds interleave the tools so that load from other users of the machine falls on all of them.
bench_start=$SECONDS
declare -A failed=()
for tool in "${tools[@]}"; do rm -f "$work/$tool.runs"; done
round=0
while :; do
  ran=0
  for tool in "${tools[@]}"; do
    [ -n "${failed[$tool]:-}" ] && continue
    [ "$round" -lt "$(wanted_runs "$tool")" ] || continue
    if [ "$round" -gt 0 ] && [ $((SECONDS - bench_start)) -ge "$budget" ]; then
      echo "run.sh: time budget of ${budget}s spent, no more runs of $tool" >&2
      continue
    fi
    measure "$tool" || failed[$tool]=1
    ran=1
  done
  [ "$ran" = 1 ] || break
  round=$((round + 1))
done

# Agreement of the derived sets (only the tools that produced an output).
compared=()
for tool in "${tools[@]}"; do
  [ -z "${failed[$tool]:-}" ] && compared+=("$tool=$work/$(output_of "$tool")")
done
agreement=FAIL
if [ "${#compared[@]}" -ge 2 ]; then
  if node "$here/compare.js" "${compared[@]}" | tee "$work/compare.txt"; then agreement=PASS; fi
else
  echo "run.sh: fewer than two outputs, nothing to compare" | tee "$work/compare.txt"
fi

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

reference=""
[ -n "$ldgsm" ] && [ -z "${failed[ldgsm]:-}" ] && reference=$(awk '{ print $1 }' "$work/ldgsm.runs" | median)
{
  echo "RDFS closure (rdfs2/3/5/7/9/11), $(wc -l < "$work/data.nt") input triples" \
       "(depth ${DEPTH:-20}, ${INSTANCES:-10000} instances, ${TRIPLES:-50000} property triples, seed ${SEED:-42});" \
       "$(date -u +%Y-%m-%d), $(nproc) cores, node $(node --version); agreement: $agreement"
  echo
  echo "| tool | median s | runs | peak RSS MiB | derived triples | ratio vs ldgsm |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for tool in "${tools[@]}"; do
    if [ -n "${failed[$tool]:-}" ] || [ ! -s "$work/$tool.runs" ]; then
      echo "| $tool | failed | $(cat "$work/$tool.runs" 2>/dev/null | wc -l) | | | |"
      continue
    fi
    seconds=$(awk '{ print $1 }' "$work/$tool.runs" | median)
    rss=$(awk '$2 > m { m = $2 } END { printf "%.0f", m / 1024 }' "$work/$tool.runs")
    sorted="$work/$(output_of "$tool" | sed 's/\.[^.]*$//').sorted.nt"
    derived=$([ -f "$sorted" ] && wc -l < "$sorted" || echo "?")
    ratio=$([ -n "$reference" ] && awk -v t="$seconds" -v r="$reference" 'BEGIN { printf "%.1fx", t / r }' || echo "n/a")
    printf '| %s | %.2f | %d | %s | %s | %s |\n' "$tool" "$seconds" "$(wc -l < "$work/$tool.runs")" "$rss" "$derived" "$ratio"
  done
} | tee "$work/table.md"

# The goals: ldgsm at least 20x faster than N3.js and 100x faster than EYE (reported, not enforced).
if [ -n "$reference" ]; then
  for goal in n3js:20 eye:100; do
    tool=${goal%%:*} factor=${goal##*:}
    [ -s "$work/$tool.runs" ] && [ -z "${failed[$tool]:-}" ] || continue
    ratio=$(awk '{ print $1 }' "$work/$tool.runs" | median | awk -v r="$reference" '{ printf "%.1f", $1 / r }')
    if awk -v x="$ratio" -v f="$factor" 'BEGIN { exit !(x >= f) }'; then
      echo "goal ldgsm >= ${factor}x faster than $tool: met (${ratio}x)"
    else
      echo "goal ldgsm >= ${factor}x faster than $tool: NOT met (${ratio}x)"
    fi
  done | tee -a "$work/table.md"
fi
echo "run.sh: outputs and table in $work" >&2
[ "$agreement" = PASS ] && [ "${#failed[@]}" = 0 ]
