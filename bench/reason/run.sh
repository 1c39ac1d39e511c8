#!/usr/bin/env bash
# The reasoning benchmarks: generates each shape's data set, times ldgsm and its peers (whole processes,
# parsing and writing the derived triples to a file included) in interleaved rounds, checks that they
# derived the same triples, and prints one markdown table of medians, peak RSS and ratios for all shapes.
# Shapes: flat (RDFS closure over three long class chains, N-Triples), deep (RDFS closure over a tree of
# thousands of classes, read from Turtle), builtins (list, string and math builtins; ldgsm and EYE only,
# N3.js has no builtins), taxonomy (EYE's deep taxonomy: one rule per level, at several sizes) and
# many-rules (10,000 rules over 100,000 facts).
#
# usage: bench/reason/run.sh            (see bench/README.md; settings through the environment)
#   SHAPE=flat        flat, deep, builtins, taxonomy, many-rules, both (= flat deep), all (= flat deep
#                     builtins), rules (= taxonomy many-rules), or a list "flat deep"
#   LDGSM=PATH        the ldgsm binary (default: build/ldgsm if built; without one, the peers only)
#   BASELINE=PATH     another ldgsm binary (the one before a change) run as the tool "baseline" beside it
#   RUNS_LDGSM=5 RUNS_N3JS=5 RUNS_EYE=1   runs per tool and shape (each tool runs at least once; EYE
#                     takes 3-7 min on flat, over 10 on deep); builtins: RUNS_EYE_BUILTINS=3 (~50 s a run)
#   BUDGET_SECONDS=1800   per shape, no new run starts once the shape has taken this long
#   RUN_TIMEOUT=1200      one run longer than this is killed and counts as a failure
#   SKIP_EYE=1            leave EYE out
#   WORK=DIR              where data and outputs go, one directory per shape (default: a new temporary
#                         directory, kept)
#   flat:     DEPTH=20 INSTANCES=10000 TRIPLES=50000 SEED=42 FLAT_INPUT=nt
#   deep:     DEEP_DEPTH=9 DEEP_LEAVES=2048 DEEP_INSTANCES=45000 DEEP_TRIPLES=8000 SEED=42 DEEP_INPUT=ttl
#   EYE_DEEP_INSTANCES=15000  EYE takes over 10 min on the deep set: it runs instead on the same tree with
#                     this many instances (and property triples in proportion), a shape of its own named
#                     deep-eye with all three tools; EYE_DEEP_INSTANCES=full runs EYE on the deep set itself
#   builtins: RECORDS=5000 VALUES=8 SEED=42
#   taxonomy: TAXONOMY_LEVELS="1000 10000 100000" (a shape taxonomy-1k ... per size)
#   many-rules: MANY_RULES=10000 MANY_FACTS=100000 MANY_PROPERTIES=50 SEED=42
#   RUNS_SLOW_PEERS=1     runs of N3.js and EYE on taxonomy-100k and larger, and on many-rules (minutes each)
#   A peer that runs longer than RUN_TIMEOUT is reported as such (its time shown as "> RUN_TIMEOUT"),
#   and does not fail the run.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

runs_ldgsm=${RUNS_LDGSM:-5}
runs_n3js=${RUNS_N3JS:-5}
runs_eye=${RUNS_EYE:-1}
runs_eye_builtins=${RUNS_EYE_BUILTINS:-3}
runs_slow_peers=${RUNS_SLOW_PEERS:-1}
budget=${BUDGET_SECONDS:-1800}
run_timeout=${RUN_TIMEOUT:-1200}
seed=${SEED:-42}
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-reason.XXXXXX)}
mkdir -p "$work"

shape_setting=${SHAPE:-flat}
case $shape_setting in
  both) shape_setting="flat deep" ;;
  all) shape_setting="flat deep builtins" ;;
  rules) shape_setting="taxonomy many-rules" ;;
esac
eye_deep_instances=${EYE_DEEP_INSTANCES:-15000}
# 1000 -> 1k, 100000 -> 100k, 1500 -> 1500: the taxonomy shapes' names
size_name() { if [ $(($1 % 1000)) = 0 ]; then echo "$(($1 / 1000))k"; else echo "$1"; fi; }
# taxonomy-10k -> 10000
size_of() { local n=${1#taxonomy-}; case $n in *k) echo $((${n%k} * 1000)) ;; *) echo "$n" ;; esac; }
shapes=()
for shape in $shape_setting; do
  case $shape in
    flat|builtins) shapes+=("$shape") ;;
    deep)
      shapes+=(deep)
      [ "${SKIP_EYE:-0}" = 1 ] || [ "$eye_deep_instances" = full ] || shapes+=(deep-eye) ;;
    taxonomy)
      for levels in ${TAXONOMY_LEVELS:-1000 10000 100000}; do
        case $levels in
          ''|*[!0-9]*|0) echo "run.sh: TAXONOMY_LEVELS must hold positive numbers, got $levels" >&2; exit 2 ;;
        esac
        shapes+=("taxonomy-$(size_name "$levels")")
      done ;;
    many-rules) shapes+=(many-rules) ;;
    *) echo "run.sh: SHAPE=$shape: expected flat, deep, builtins, taxonomy, many-rules, both, all or rules" >&2
       exit 2 ;;
  esac
done
case $eye_deep_instances in
  full) ;;
  ''|*[!0-9]*|0) echo "run.sh: EYE_DEEP_INSTANCES must be a positive number or full, got $eye_deep_instances" >&2; exit 2 ;;
esac
for format in "${FLAT_INPUT:-nt}" "${DEEP_INPUT:-ttl}"; do
  case $format in
    nt|ttl) ;;
    *) echo "run.sh: FLAT_INPUT and DEEP_INPUT must be nt or ttl, got $format" >&2; exit 2 ;;
  esac
done

ldgsm=${LDGSM:-}
if [ -z "$ldgsm" ] && [ -x "$root/build/ldgsm" ]; then
  ldgsm=$root/build/ldgsm
fi
if [ -n "$ldgsm" ] && [ ! -x "$ldgsm" ]; then
  echo "run.sh: LDGSM=$ldgsm is not an executable" >&2
  exit 2
fi
baseline=${BASELINE:-}
if [ -n "$baseline" ] && { [ ! -x "$baseline" ] || [ -z "$ldgsm" ]; }; then
  echo "run.sh: BASELINE=$baseline needs to be an executable, and an ldgsm to compare it with" >&2
  exit 2
fi
# A copy, so that a rebuild during the benchmark neither breaks nor changes the binary measured.
if [ -n "$ldgsm" ]; then
  cp "$ldgsm" "$work/ldgsm-under-test"
  ldgsm=$work/ldgsm-under-test
fi
if [ -n "$baseline" ]; then
  cp "$baseline" "$work/ldgsm-baseline"
  baseline=$work/ldgsm-baseline
fi

"$root/scripts/peers.sh"
if [ ! -x /usr/bin/time ]; then
  echo "run.sh: installing GNU time for peak memory" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
echo "run.sh: working in $work" >&2

# Generates SHAPE's data set in DIR and prints its description (one line) on standard output.
generate() {
  local shape=$1 dir=$2
  case $shape in
    flat)
      node "$here/gen.js" --shape flat --depth "${DEPTH:-20}" --instances "${INSTANCES:-10000}" \
           --triples "${TRIPLES:-50000}" --seed "$seed" --out "$dir" 2> "$dir/gen.log"
      cp "$here/rdfs-core.n3" "$dir/rules.n3"
      echo "RDFS closure (rdfs2/3/5/7/9/11), $(wc -l < "$dir/data.nt") input triples read from" \
           "data.${FLAT_INPUT:-nt} (three chains of depth ${DEPTH:-20}, ${INSTANCES:-10000} instances," \
           "${TRIPLES:-50000} property triples, seed $seed)" ;;
    deep|deep-eye)
      local instances=${DEEP_INSTANCES:-45000} property_triples=${DEEP_TRIPLES:-8000}
      if [ "$shape" = deep-eye ]; then
        property_triples=$(( (property_triples * eye_deep_instances + instances - 1) / instances ))
        instances=$eye_deep_instances
      fi
      node "$here/gen.js" --shape deep --depth "${DEEP_DEPTH:-9}" --leaves "${DEEP_LEAVES:-2048}" \
           --instances "$instances" --triples "$property_triples" --seed "$seed" --out "$dir" 2> "$dir/gen.log"
      cp "$here/rdfs-core.n3" "$dir/rules.n3"
      echo "RDFS closure, $(wc -l < "$dir/data.nt") input triples read from data.${DEEP_INPUT:-ttl}" \
           "($(grep -c 'subClassOf' "$dir/data.nt") subClassOf triples over a tree of depth ${DEEP_DEPTH:-9}" \
           "and ${DEEP_LEAVES:-2048} leaves, $instances instances typed at the leaves," \
           "$property_triples property triples, seed $seed)" ;;
    builtins)
      node "$here/builtins/gen.js" --records "${RECORDS:-5000}" --values "${VALUES:-8}" --seed "$seed" \
           --out "$dir" 2> "$dir/gen.log"
      echo "Builtins (builtins/rules.n3: 19 rules of list, string and math builtins): ${RECORDS:-5000}" \
           "records of up to ${VALUES:-8} numbers and 2-4 tags in data.n3, seed $seed" ;;
    taxonomy-*)
      node "$here/many-rules/gen.js" --shape taxonomy --levels "$(size_of "$shape")" --out "$dir" 2> "$dir/gen.log"
      echo "Deep taxonomy (EYE's): one individual, $(size_of "$shape") levels, one rule per level" \
           "{?x a :N(i-1)} => {?x a :Ni, :Ii, :Ji} and a last one to :A2 ($(($(size_of "$shape") + 1)) rules)" ;;
    many-rules)
      node "$here/many-rules/gen.js" --shape many --rules "${MANY_RULES:-10000}" --triples "${MANY_FACTS:-100000}" \
           --properties "${MANY_PROPERTIES:-50}" --seed "$seed" --out "$dir" 2> "$dir/gen.log"
      echo "Many rules: ${MANY_RULES:-10000} rules (a class tree as rules, and joins typing a property's" \
           "object by its subject's class) over ${MANY_FACTS:-100000} facts in data.ttl" \
           "(${MANY_PROPERTIES:-50} properties, seed $seed)" ;;
  esac
}

# The data file each tool reads for SHAPE.
data_file() {
  case $1 in
    flat) echo "data.${FLAT_INPUT:-nt}" ;;
    deep|deep-eye) echo "data.${DEEP_INPUT:-ttl}" ;;
    builtins) echo data.n3 ;;
    taxonomy-*|many-rules) echo data.ttl ;;
  esac
}

output_of() {
  case $1 in
    ldgsm) echo ldgsm.nt ;;
    baseline) echo baseline.nt ;;
    n3js) echo n3js.nt ;;
    eye) echo eye.n3 ;;   # EYE writes N3; compare.js reads it as such
  esac
}

# Whether SHAPE takes the peers minutes a run: the larger taxonomies (N3.js links every pair of rules)
# and many-rules.
slow_for_peers() {
  case $1 in
    many-rules) return 0 ;;
    taxonomy-*) [ "$(size_of "$1")" -ge 100000 ] ;;
    *) return 1 ;;
  esac
}

wanted_runs() {
  case $1 in
    ldgsm|baseline) echo "$runs_ldgsm" ;;
    n3js) if slow_for_peers "$2"; then echo "$runs_slow_peers"; else echo "$runs_n3js"; fi ;;
    eye) if [ "$2" = builtins ]; then echo "$runs_eye_builtins"
         elif slow_for_peers "$2"; then echo "$runs_slow_peers"; else echo "$runs_eye"; fi ;;
  esac
}

# Runs TOOL once on DATA under timeout and GNU time (peak RSS into TOOL.rss), in the shape's directory.
run_tool() {
  local tool=$1 data=$2 timed=(timeout "$run_timeout" /usr/bin/time -f "%M" -o "$1.rss")
  local eye_input=(--turtle "$data")
  [ "${data##*.}" = n3 ] && eye_input=(--n3 "$data")
  case $tool in
    ldgsm) "${timed[@]}" "$ldgsm" reason --pass-only-new -o ntriples "$data" rules.n3 > ldgsm.nt ;;
    baseline) "${timed[@]}" "$baseline" reason --pass-only-new -o ntriples "$data" rules.n3 > baseline.nt ;;
    n3js) "${timed[@]}" node "$here/n3js-reason.js" "$data" rules.n3 n3js.nt ;;
    eye) "${timed[@]}" node "$root/node_modules/eyereasoner/dist/bin/index.js" --nope --quiet --pass-only-new \
              "${eye_input[@]}" --n3 rules.n3 > eye.n3 < /dev/null ;;
  esac
}

# One timed run: wall time from bash's clock, peak RSS from GNU time; appends "seconds kib" to TOOL.runs.
# Returns 1 when the tool failed, 2 when it ran out of time.
measure() {
  local tool=$1 dir=$2 data=$3 start end status
  start=$EPOCHREALTIME
  set +e
  (cd "$dir" && run_tool "$tool" "$data") 2> "$dir/$tool.stderr"
  status=$?
  set -e
  end=$EPOCHREALTIME
  if [ "$status" = 124 ]; then
    echo "run.sh: $(basename "$dir") $tool: no answer within ${run_timeout}s (stopped)" >&2
    return 2
  fi
  if [ "$status" != 0 ]; then
    echo "run.sh: $tool failed (exit $status):" >&2
    tail -5 "$dir/$tool.stderr" >&2
    return 1
  fi
  echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }') $(tail -1 "$dir/$tool.rss")" >> "$dir/$tool.runs"
  echo "run.sh: $(basename "$dir") $tool run $(wc -l < "$dir/$tool.runs"): $(tail -1 "$dir/$tool.runs" | awk '{ printf "%s s, %.0f MiB", $1, $2 / 1024 }')" >&2
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Benchmarks one SHAPE in WORK/SHAPE: rounds, agreement, then its table rows into rows.md, its
# description into about.txt and its goal lines into goals.txt. Returns non-zero if a tool failed or
# the outputs differ.
bench_shape() {
  local shape=$1 dir=$work/$1 data tool round ran shape_start agreement=FAIL reference="" outcome
  local -A failed=() timed_out=()
  local tools=()
  mkdir -p "$dir"
  generate "$shape" "$dir" > "$dir/about.txt"
  data=$(data_file "$shape")
  [ -n "$ldgsm" ] && tools+=(ldgsm)
  [ -n "$baseline" ] && tools+=(baseline)
  [ "$shape" = builtins ] || tools+=(n3js)
  [ "${SKIP_EYE:-0}" = 1 ] || { [ "$shape" = deep ] && [ "$eye_deep_instances" != full ]; } || tools+=(eye)

  # Rounds interleave the tools so that load from other users of the machine falls on all of them.
  shape_start=$SECONDS
  for tool in "${tools[@]}"; do rm -f "$dir/$tool.runs"; done
  round=0
  while :; do
    ran=0
    for tool in "${tools[@]}"; do
      [ -n "${failed[$tool]:-}" ] && continue
      [ "$round" -lt "$(wanted_runs "$tool" "$shape")" ] || continue
      if [ "$round" -gt 0 ] && [ $((SECONDS - shape_start)) -ge "$budget" ]; then
        echo "run.sh: $shape: time budget of ${budget}s spent, no more runs of $tool" >&2
        continue
      fi
      outcome=0
      measure "$tool" "$dir" "$data" || outcome=$?
      case $outcome in
        1) failed[$tool]=1 ;;
        2) failed[$tool]=1; timed_out[$tool]=1 ;;
      esac
      ran=1
    done
    [ "$ran" = 1 ] || break
    round=$((round + 1))
  done

  # Agreement of the derived sets (only the tools that produced an output).
  local compared=()
  for tool in "${tools[@]}"; do
    [ -z "${failed[$tool]:-}" ] && compared+=("$tool=$dir/$(output_of "$tool")")
  done
  if [ "${#compared[@]}" -ge 2 ]; then
    if node "$here/compare.js" "${compared[@]}" > "$dir/compare.txt"; then agreement=PASS; fi
  else
    echo "run.sh: fewer than two outputs, nothing to compare" > "$dir/compare.txt"
  fi
  sed "s/^/run.sh: $shape: /" "$dir/compare.txt" >&2
  echo "$shape: $(cat "$dir/about.txt"); agreement: $agreement" > "$dir/about.txt"

  [ -n "$ldgsm" ] && [ -z "${failed[ldgsm]:-}" ] && reference=$(awk '{ print $1 }' "$dir/ldgsm.runs" | median)
  : > "$dir/rows.md"
  : > "$dir/goals.txt"
  local seconds rss sorted derived ratio
  for tool in "${tools[@]}"; do
    if [ -n "${timed_out[$tool]:-}" ] && [ ! -s "$dir/$tool.runs" ]; then
      ratio=$([ -n "$reference" ] && awk -v t="$run_timeout" -v r="$reference" 'BEGIN { printf "> %.0fx", t / r }' || echo "n/a")
      echo "| $shape | $tool | > $run_timeout (stopped) | 0 | | | $ratio |" >> "$dir/rows.md"
      continue
    fi
    if [ -n "${failed[$tool]:-}" ] || [ ! -s "$dir/$tool.runs" ]; then
      echo "| $shape | $tool | failed | $(cat "$dir/$tool.runs" 2>/dev/null | wc -l) | | | |" >> "$dir/rows.md"
      continue
    fi
    seconds=$(awk '{ print $1 }' "$dir/$tool.runs" | median)
    rss=$(awk '$2 > m { m = $2 } END { printf "%.0f", m / 1024 }' "$dir/$tool.runs")
    sorted="$dir/$(output_of "$tool" | sed 's/\.[^.]*$//').sorted.nt"
    # Without a comparison (one tool) the N-Triples outputs are counted as written, EYE's N3 not at all.
    derived=$([ -f "$sorted" ] && wc -l < "$sorted" || { [ "$tool" != eye ] && wc -l < "$dir/$(output_of "$tool")"; } || echo "?")
    ratio=$([ -n "$reference" ] && awk -v t="$seconds" -v r="$reference" 'BEGIN { printf "%.1fx", t / r }' || echo "n/a")
    printf '| %s | %s | %.3f | %d | %s | %s | %s |\n' "$shape" "$tool" "$seconds" "$(wc -l < "$dir/$tool.runs")" \
           "$rss" "$derived" "$ratio" >> "$dir/rows.md"
  done

  # The goals: ldgsm at least 20x faster than N3.js and 100x faster than EYE (reported, not enforced).
  if [ -n "$reference" ]; then
    local goal factor
    for goal in n3js:20 eye:100; do
      tool=${goal%%:*} factor=${goal##*:}
      [ -s "$dir/$tool.runs" ] && [ -z "${failed[$tool]:-}" ] || continue
      ratio=$(awk '{ print $1 }' "$dir/$tool.runs" | median | awk -v r="$reference" '{ printf "%.1f", $1 / r }')
      if awk -v x="$ratio" -v f="$factor" 'BEGIN { exit !(x >= f) }'; then
        echo "$shape: goal ldgsm >= ${factor}x faster than $tool: met (${ratio}x)"
      else
        echo "$shape: goal ldgsm >= ${factor}x faster than $tool: NOT met (${ratio}x)"
      fi >> "$dir/goals.txt"
    done
  fi
  # a peer out of time is reported, not a failure; ldgsm out of time is one
  [ "$agreement" = PASS ] || [ "${#compared[@]}" -lt 2 ] || return 1
  for tool in "${!failed[@]}"; do
    [ -n "${timed_out[$tool]:-}" ] && [ "$tool" != ldgsm ] || return 1
  done
}

status=0
for shape in "${shapes[@]}"; do
  bench_shape "$shape" || status=1
done

{
  echo "$(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), node $(node --version)"
  for shape in "${shapes[@]}"; do cat "$work/$shape/about.txt"; done
  echo
  echo "| shape | tool | median s | runs | peak RSS MiB | derived triples | ratio vs ldgsm |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
  for shape in "${shapes[@]}"; do cat "$work/$shape/rows.md"; done
  echo
  for shape in "${shapes[@]}"; do cat "$work/$shape/goals.txt"; done
} | tee "$work/table.md"
echo "run.sh: outputs and table in $work" >&2
exit "$status"
