#!/usr/bin/env bash
# ldp-fixtures/patterns: every committed model is what `ldgsm compile` makes of its pattern today
# (scripts/patterns-fixtures.sh writes them), lint accepts it, and each kernel's workflow runs to completion
# on `ldgsm serve --fixtures` with exactly the requests its term allows (the order workflow has its own
# test, run_order.sh).
set -u
. "$(dirname "$0")/../agent/lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/patterns" && pwd)

echo "# the committed models are today's compilation"
for source in "$fixtures"/patterns/*; do
  name=$(basename "$source")
  "$ldgsm" compile -o "$work/$name" "$source" 2> "$work/compile.err"
  check "models/$name compiles" [ $? = 0 ]
  check "models/$name is up to date (scripts/patterns-fixtures.sh)" cmp -s "$work/$name" "$fixtures/models/$name"
  check "models/$name passes lint without a warning" \
    [ "$("$ldgsm" lint "$fixtures/models/$name" | tail -n 1)" = "ldgsm lint: 0 errors, 0 warnings in 1 file" ]
done

echo "# each kernel's workflow completes, sending what its term says"
start_server --fixtures "$fixtures"
# kernel, then the work/ resources its tasks write, in order
while read -r kernel expected; do
  # -v: the request lines below say what its tasks wrote
  bounded "$ldgsm" run -v --instance "${base}status/$kernel#it" --until complete -n 0 2> "$work/$kernel.log"
  check "$kernel: the workflow completes" [ $? = 0 ]
  written=$(grep -oE "^(PUT|POST) ${base}work/[^ ]+ 2[0-9][0-9]" "$work/$kernel.log" | awk '{print $2}' | sed "s|${base}work/||" | tr '\n' ' ')
  check "$kernel: its tasks wrote '$expected' (wrote '$written')" [ "$written" = "$expected " ]
  check "$kernel: the root's done milestone is achieved" achieved "status/$kernel" "${base}models/$kernel#root-done"
done <<'KERNELS'
task task-greet
seq seq-a seq-b seq-c
par par-a par-b par-c
xor xor-post
join join-a join-b
loop loop-ping loop-ping loop-poll
defer defer-door
cancel cancel-home
mi mi-print mi-print mi-print
KERNELS
finish
