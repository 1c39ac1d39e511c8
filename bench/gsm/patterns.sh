#!/usr/bin/env bash
# Workflow patterns compiled to GSM (issue 14, DESIGN.md 6.2), against one `ldgsm serve --memory`:
#  1. polls: seq(task(t1), ..., task(tn)) and par(task(t1), ..., task(tn)) for n = 2, 10, 100 (par needs two
#     branches: PAR-FORK), each task a PUT the server answers at once: the iterations `ldgsm run --until
#     complete` takes, against what the compilation scheme allows (ontology/README.md: entering a term costs a
#     poll, a task ends in the poll after its send, when its answer comes in)
#     and against the pattern's own lower bound (a seq's tasks one per poll, a par's all in one);
#  2. scale: N instances (default 1000) of the order workflow of ldp-fixtures/patterns (the kernels
#     combined; pre-approved, so its loop asks once) in one agent, beside N instances of the hand-written
#     evaluation workflow (ldp-fixtures/evaluation) in the same run: time and agent CPU per iteration per
#     instance, and per stage instance.
# Every figure of part 2 is a median of RUNS runs.
# usage: bench/gsm/patterns.sh [path/to/ldgsm]     environment: RUNS=3, INSTANCES=1000, SIZES="2 10 100"
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ldgsm=${1:-$root/build/ldgsm}
runs=${RUNS:-3}
instances_n=${INSTANCES:-1000}
read -r -a sizes <<< "${SIZES:-2 10 100}"
. "$root/bench/gsm/lib.sh"

start_server patterns "${pin_server[@]}" "$ldgsm" serve --memory --port 0 --fixtures "$root/ldp-fixtures/patterns"
base=$started
start_server evaluation "${pin_server[@]}" "$ldgsm" serve --memory --port 0 --fixtures "$root/ldp-fixtures/evaluation"
evaluation_base=$started

# shape_model SHAPE N: compiles SHAPE(task(t1), ..., task(tN)) and PUTs it to models/bench-SHAPE-N
shape_model() {
  local shape=$1 n=$2 i term names=$work/names-$1-$2.ttl
  {
    printf '@prefix http: <http://www.w3.org/2011/http#> .\n@prefix httpm: <http://www.w3.org/2011/http-methods#> .\n'
    for i in $(seq 1 "$n"); do
      printf '<#t%d> a http:Request ; http:mthd httpm:PUT ; http:requestURI <../work/%s-%d-%d> ;\n' "$i" "$shape" "$n" "$i"
      printf '  http:headers ( [ http:fieldName "Content-Type" ; http:fieldValue "text/turtle" ] ) ; http:body "<#it> <#ran> true ." .\n'
    done
  } > "$names"
  term="$shape($(seq 1 "$n" | sed 's/.*/task(t&)/' | paste -sd, -))"
  "$ldgsm" compile --term "$term" --base "${base}models/bench-$shape-$n" -o "$work/model-$shape-$n.ttl" "$names"
  curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @"$work/model-$shape-$n.ttl" \
    "${base}models/bench-$shape-$n"
}

echo "Polls to completion (iterations of ldgsm run --until complete, one instance)"
echo
echo "| term | n | polls | the scheme allows | lower bound of the pattern | polls / lower bound |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for shape in seq par; do
  for n in "${sizes[@]}"; do
    shape_model "$shape" "$n"
    instances "$shape-$n" 1 "models/bench-$shape-$n" "$base" root
    agent "$shape-$n"
    # the scheme: set-up, the term's stage opens, then per task (a seq's in turn, a par's at once) its send
    # and its answer (which ends it), then the term's done, the root's done, and the iteration that sees
    # every instance complete
    if [ "$shape" = seq ]; then allowed=$((2 * n + 5)); bound=$n; else allowed=7; bound=1; fi
    awk -v s="$shape" -v n="$n" -v it="$iterations" -v a="$allowed" -v b="$bound" \
      'BEGIN { printf "| %s | %d | %d | %d | %d | %.1f |\n", s, n, it, a, b, it / b }'
  done
done
echo

echo "Scale: $instances_n instances of the order workflow and of the evaluation workflow, median of $runs runs"
echo
curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' \
  --data '<#it> <https://example.org/shop#approved> true ; <https://example.org/shop#withdrawn> false .' \
  "${base}orders/o1-status"
stages_in() { # MODEL-URL: how many stages the model describes
  curl -s -H 'Accept: application/n-triples' "$1" |
    grep -c '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://purl.org/gsm/vocab#Stage>' || true
}
order_stages=$(stages_in "${base}models/order")
evaluation_stages=$(stages_in "${evaluation_base}models/evaluation")
echo "| workflow | stages | iterations | ms per iteration per instance | agent CPU ms per iteration per instance | agent CPU us per iteration per stage instance |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for workflow in order evaluation; do
  : > "$work/scale-$workflow"
  for r in $(seq 1 "$runs"); do
    if [ $workflow = order ]; then
      instances "order-r$r" "$instances_n" models/order "$base" root
    else
      instances "evaluation-r$r" "$instances_n" models/evaluation "$evaluation_base"
    fi
    agent "$workflow-r$r"
    echo "$seconds $iterations $cpu" >> "$work/scale-$workflow"
  done
  t=$(cut -d' ' -f1 "$work/scale-$workflow" | median); it=$(cut -d' ' -f2 "$work/scale-$workflow" | median)
  c=$(cut -d' ' -f3 "$work/scale-$workflow" | median)
  stages=$([ $workflow = order ] && echo "$order_stages" || echo "$evaluation_stages")
  awk -v w="$workflow" -v s="$stages" -v n="$instances_n" -v it="$it" -v t="$t" -v c="$c" 'BEGIN {
    printf "| %s | %d | %d | %.3f | %.3f | %.1f |\n", w, s, it, t * 1000 / it / n, c * 1000 / it / n, c * 1e6 / it / n / s }'
done
echo
echo "(logs and timings: $work)"
