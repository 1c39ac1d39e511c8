#!/usr/bin/env bash
# `ldgsm run --instances-from CONTAINER` (issue 17; agent/discover.h): an agent takes the workflow instances
# its container's members describe. Checked here:
#   - the instances listed at start complete; one created after the agent started joins the run and
#     completes (the issue's test);
#   - a member describing no instance is read once, not in every iteration (ldgsm serve refuses bodies that
#     do not parse, so the lenient read of such a member is not exercised here);
#   - a member deleted from the container leaves the run (its document is no longer read);
#   - a container that cannot be read is said, once, with the instances known kept running;
#   - two agents on --shard 1/2 and 2/2 of one container take every instance exactly once between them
#     and both end with --until complete;
#   - --until complete over an empty container does not end as complete.
set -u
. "$(dirname "$0")/evaluation_lib.sh"
# await_completed PATH: bounded wait for the instance of document PATH to complete
await_completed() {
  local _
  for _ in $(seq 1 $((wait_limit * 10))); do
    completed "$1" && return 0
    nap 0.1
  done
  return 1
}
# await_log FILE PATTERN: bounded wait for a line of the agent's log
await_log() {
  local _
  for _ in $(seq 1 $((wait_limit * 10))); do
    grep -qF -- "$2" "$1" && return 0
    nap 0.1
  done
  return 1
}

ensure_container pool/
put pool/a "$instance_doc" > /dev/null
put pool/b "$instance_doc" > /dev/null
put pool/note '<#it> <http://www.w3.org/2000/01/rdf-schema#comment> "not a workflow instance" .' > /dev/null
"$ldgsm" run --instances-from "${base}pool/" -n 50 --iterations 2000 > /dev/null 2> "$work/agent.log" &
agent=$!
check "an instance listed at start completes (a)" await_completed pool/a
check "an instance listed at start completes (b)" await_completed pool/b
check "the agent says a joins the run" grep -qF "instances-from: <${base}pool/a#it> joins the run" "$work/agent.log"
put pool/late "$instance_doc" > /dev/null
check "an instance created after the agent started joins the run" \
  await_log "$work/agent.log" "instances-from: <${base}pool/late#it> joins the run"
check "... and completes" await_completed pool/late
before=$(served GET /pool/)
while [ "$(served GET /pool/)" -lt $((before + 4)) ] && running $agent; do nap 0.05; done
check "the member describing no instance was read once ($(served GET /pool/note))" [ "$(served GET /pool/note)" = 1 ]

curl -s -o /dev/null -X DELETE "${base}pool/a"
check "a deleted member leaves the run" await_log "$work/agent.log" "instances-from: <${base}pool/a> is no longer listed"
reads_of_a=$(served GET /pool/a)
before=$(served GET /pool/)
while [ "$(served GET /pool/)" -lt $((before + 4)) ] && running $agent; do nap 0.05; done
check "... and its document is no longer read ($reads_of_a, then $(served GET /pool/a))" \
  [ "$(served GET /pool/a)" = "$reads_of_a" ]
check "the agent is still running" running $agent
stop_pid $agent
check "the agent stopped by SIGTERM exits 0" [ $? = 0 ]

# A container that cannot be read: said once; the run goes on.
bounded "$ldgsm" run --instances-from "${base}nowhere/" -n 0 --iterations 5 > /dev/null 2> "$work/missing.log"
check "a run over a container that answers 404 ends normally" [ $? = 0 ]
check "the container that cannot be read is said, with why" \
  grep -qF "instances-from: <${base}nowhere/> cannot be read (answers 404)" "$work/missing.log"
check "... once, not in every iteration ($(grep -c 'cannot be read' "$work/missing.log"))" \
  [ "$(grep -c 'cannot be read' "$work/missing.log")" = 1 ]

# An empty container: --until complete waits for instances instead of ending complete.
ensure_container empty/
bounded "$ldgsm" run --instances-from "${base}empty/" --until complete -n 0 --iterations 3 > /dev/null \
  2> "$work/empty.log"
check "--until complete over an empty container does not say the run is complete" \
  ! grep -q "every workflow instance is complete" "$work/empty.log"

# A fleet of two over one container: every instance taken once, every one completes.
ensure_container fleet/
count=12
for k in $(seq 1 $count); do put "fleet/i$k" "$instance_doc" > /dev/null; done
pids=()
for shard in 1 2; do
  "$ldgsm" run --instances-from "${base}fleet/" --shard $shard/2 -n 0 --iterations 400 --until complete \
    > /dev/null 2> "$work/shard$shard.log" &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  await_pid "$pid"; rc=$?
  check "agent $pid on a shard of the container exits 0 with its instances complete (exit $rc)" [ $rc = 0 ]
done
joined() { sed -n 's|^instances-from: <\(.*\)> joins the run$|\1|p' "$work/shard$1.log" | sort; }
check "each shard takes some of the $count ($(joined 1 | wc -l) + $(joined 2 | wc -l))" \
  [ "$(joined 1 | wc -l)" -gt 0 -a "$(joined 2 | wc -l)" -gt 0 ]
check "the two shards take every instance exactly once" \
  [ "$( (joined 1; joined 2) | sort | uniq -u | wc -l)" = $count -a "$( (joined 1; joined 2) | sort -u | wc -l)" = $count ]
complete=0
for k in $(seq 1 $count); do completed "fleet/i$k" && complete=$((complete + 1)); done
check "every instance of the container completed ($complete of $count)" [ $complete = $count ]

bounded "$ldgsm" run --instances-from "not a uri" --iterations 1 > /dev/null 2> "$work/bad.log"
check "--instances-from with a non-http IRI is refused (exit $?)" grep -q -- "--instances-from not a uri: not an http(s) URI" "$work/bad.log"
finish
