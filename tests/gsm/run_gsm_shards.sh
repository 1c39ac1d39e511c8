#!/usr/bin/env bash
# A fleet of agents sharing instances (`ldgsm run --shard I/N`, issue 17): three agents, each given all 16
# instances of the evaluation workflow, take shards 1/3, 2/3 and 3/3, and a fourth, on 1/2, overlaps the
# first two. All run at once with --until complete: the shards of 3 cover the 16 instances exactly once,
# every agent exits 0 with its own instances complete, every instance completes, and the overlap changes
# nothing (every write is conditional). Bad --shard values are refused.
set -u
. "$(dirname "$0")/evaluation_lib.sh"
count=16
instances=()
for k in $(seq 1 $count); do
  put "status/fleet$k" "$instance_doc" > /dev/null
  instances+=(--instance "${base}status/fleet$k#it")
done
pids=()
for shard in 1/3 2/3 3/3 1/2; do
  "$ldgsm" run "${instances[@]}" --shard $shard -n 0 --iterations 400 --until complete > /dev/null \
    2> "$work/agent-${shard/\//-of-}.log" &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  await_pid "$pid"; rc=$?
  check "agent $pid exits 0 with its instances complete (exit $rc)" [ $rc = 0 ]
done
taken=0
for shard in 1/3 2/3 3/3; do
  n=$(sed -n "s|^shard $shard: \([0-9]*\) of the $count instances$|\1|p" "$work/agent-${shard/\//-of-}.log")
  check "shard $shard says how many it takes ($n)" [ -n "$n" ]
  taken=$((taken + ${n:-0}))
done
check "the shards of 3 take the $count instances between them ($taken)" [ $taken = $count ]
complete=0
for k in $(seq 1 $count); do
  completed "status/fleet$k" && complete=$((complete + 1))
done
check "every instance completed ($complete of $count)" [ $complete = $count ]
for bad in 0/3 4/3 x 2/0; do
  bounded "$ldgsm" run --instance "${base}status/fleet1#it" --shard $bad > /dev/null 2> "$work/bad.log"
  rc=$?
  check "--shard $bad is a usage error (exit $rc)" [ $rc = 2 ]
  check "--shard $bad: the message names the form" grep -q 'takes I/N' "$work/bad.log"
done
bounded "$ldgsm" run -p /dev/null --shard 1/2 > /dev/null 2> "$work/bad.log"
check "--shard without instances is a usage error" grep -q -- '--shard needs --instance' "$work/bad.log"
finish
