#!/usr/bin/env bash
# A Turing machine in N3 request rules (turing/tm.n3 running turing/anbn.n3, which decides a^n b^n)
# against `ldgsm serve`: one step per iteration up to the halting state; the final tape, state, head and
# step count of an accepted and two rejected words, checked against traces worked out by hand; and the
# two half-written steps an agent dying between its two writes leaves behind, finished correctly.
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/lib.sh"
turing=$(dirname "$0")/turing
start_server
# SPARQL-style PREFIX: a body starting with '@' would make curl --data-binary read a file of that name
tm='PREFIX tm: <http://example.org/tm#> '

put_cell() { # container k cells symbol step [was]: cell k of a tape of `cells` cells
  local body="$tm<#it> tm:symbol \"$4\" ; tm:step $5"
  [ $# -ge 6 ] && body="$body ; tm:was \"$6\""
  [ "$2" -gt 1 ] && body="$body ; tm:prev <cell$(($2 - 1))#it>"
  [ "$2" -lt "$3" ] && body="$body ; tm:next <cell$(($2 + 1))#it>"
  put "$1/cell$2" "$body ." > /dev/null
}
put_machine() { # container state head step wrote [wroteSymbol]
  local body="$tm<#it> tm:state tm:$2 ; tm:head <cell$3#it> ; tm:step $4 ; tm:wrote <cell$5#it>"
  [ $# -ge 6 ] && body="$body ; tm:wroteSymbol \"$6\""
  put "$1/machine" "$body ." > /dev/null
}
load_word() { # container word: the word and one blank, head on the first cell in q0
  local k n=$((${#2} + 1))
  for k in $(seq 1 $n); do put_cell "$1" "$k" "$n" "$( [ "$k" -lt $n ] && echo "${2:k-1:1}" || echo _)" 0; done
  put_machine "$1" q0 1 0 1
}
run_machine() { # container: runs to quiescence (at most 60 iterations); log in $work/run.log
  echo "<urn:tm:run> <http://example.org/tm#container> <$base$1/> ." > "$work/where.ttl"
  : > "$work/serve.log"
  bounded "$ldgsm" run -v -p "$turing/tm.n3" -p "$turing/anbn.n3" -i "$work/where.ttl" -n 0 --until quiescent \
    --iterations 60 > /dev/null 2> "$work/run.log"
  run_status=$?
}
tape() { # container cells: the symbols in order
  local k out=
  for k in $(seq 1 "$2"); do
    out="$out$(get "$1/cell$k" | sed -n 's/.*<http:\/\/example.org\/tm#symbol> "\(.*\)" \.$/\1/p')"
  done
  echo "$out"
}
machine() { # container property: the machine's value: a literal's text, a cell's name, a state's name
  get "$1/machine" | sed -n "s/.*<http:\/\/example.org\/tm#$2> \(.*\) \.\$/\1/p" |
    sed 's/#it>$/>/; s/^<.*[/#]\([^/#]*\)>$/\1/; s/^"\([^"]*\)".*/\1/'
}
iterations() { grep -c '^iteration:' "$work/run.log"; }

expect_halt() { # container cells tape state head steps iterations
  check "$1: --until quiescent ends (exit 0)" [ "$run_status" = 0 ]
  check "$1: final tape is $3 (got $(tape "$1" "$2"))" [ "$(tape "$1" "$2")" = "$3" ]
  check "$1: final state is $4 (got $(machine "$1" state))" [ "$(machine "$1" state)" = "$4" ]
  check "$1: head on $5 (got $(machine "$1" head))" [ "$(machine "$1" head)" = "$5" ]
  check "$1: $6 steps (got $(machine "$1" step))" [ "$(machine "$1" step)" = "$6" ]
  check "$1: $7 iterations (got $(iterations))" [ "$(iterations)" = "$7" ]
}

# aabb: accepted in 13 steps (q0 a>X R; q1 a R; q1 b>Y L; q2 a L; q2 X R; q0 a>X R; q1 Y R; q1 b>Y L;
# q2 Y L; q2 X R; q0 Y R q3; q3 Y R; q3 _ accept), one step per iteration, then one quiet iteration.
load_word aabb aabb
run_machine aabb
expect_halt aabb 5 XXYY_ accept cell5 13 14
check "aabb: every step wrote the machine once" [ "$(written /aabb/machine)" = 13 ]
check "aabb: and one cell (two writes per step)" [ "$(grep -Ec '^(PUT|PATCH) /aabb/cell' "$work/serve.log")" = 13 ]
check "aabb: every write was answered 204 (If-Match held)" [ "$(grep -Ec '^(PUT|PATCH) /aabb/.* 204 ' "$work/serve.log")" = 26 ]

# aab: q0 a>X R; q1 a R; q1 b>Y L; q2 a L; q2 X R; q0 a>X R; q1 Y R; q1 _ reject (more as than bs).
load_word aab aab
run_machine aab
expect_halt aab 4 XXY_ reject cell4 8 9

# abb: q0 a>X R; q1 b>Y L; q2 X R; q0 Y R q3; q3 b reject (more bs than as).
load_word abb abb
run_machine abb
expect_halt abb 4 XYb_ reject cell3 5 6

# The agent died during step 3 of aabb (q1 reads b at cell3, writes Y, moves left, q2), after its
# cell write landed and before its machine write did. The state after step 2, then the cell write:
for c in crash-cell crash-machine; do
  put_cell $c 1 5 X 1 a; put_cell $c 2 5 a 2 a; put_cell $c 4 5 b 0; put_cell $c 5 5 _ 0
done
put_cell crash-cell 3 5 Y 3 b
put_machine crash-cell q1 3 2 2 a
run_machine crash-cell
expect_halt crash-cell 5 XXYY_ accept cell5 13 12
# cell3 is written by steps 3, 7, 9 and 11; step 3's write is already there and is not repeated.
check "crash-cell: the landed cell write is not sent again" [ "$(written /crash-cell/cell3)" = 3 ]
check "crash-cell: steps 3 to 13 wrote the machine" [ "$(written /crash-cell/machine)" = 11 ]

# The same step, with only the machine write landed: cell3 still holds b. The first iteration repairs
# cell3 and takes no step; steps 4 to 13 follow.
put_cell crash-machine 3 5 b 0
put_machine crash-machine q2 2 3 3 Y
run_machine crash-machine
expect_halt crash-machine 5 XXYY_ accept cell5 13 12
check "crash-machine: the first iteration only repairs cell3" \
  [ "$(grep -E -m1 '^(PUT|PATCH) ' "$work/run.log" | cut -d' ' -f2)" = "${base}crash-machine/cell3" ]
check "crash-machine: the first iteration sends one write" \
  grep -q '^iteration: .*unsafe 1: 1 sent' <(grep -m1 '^iteration:' "$work/run.log")
check "crash-machine: steps 4 to 13 wrote the machine" [ "$(written /crash-machine/machine)" = 10 ]

finish
