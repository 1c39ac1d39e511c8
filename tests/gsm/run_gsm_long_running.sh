#!/usr/bin/env bash
# A long-running agent does not grow (issue 17: agents run for months under systemd): every poll parses
# the documents that changed, with fresh blank nodes (agent/doc_cache.h holds the others, and keeps their
# terms through a release), and the terms an iteration interns are released between
# iterations (rdf/term.h, release_terms in agent/release.c). Each iteration line ends with the live term
# count ("; N terms"). Checked here:
#   - an agent polling complete instances: its terms over the last third of its iterations peak within
#     5/4 of their peak over the middle third (a release comes when the iterations' terms pass a bound,
#     so the peaks differ by an iteration's terms; without the release they grew by every poll, a half
#     from the middle third to the last);
#   - instances that come and go (--instances-from, three rounds, each created, completed and deleted):
#     every one completes, and the terms of the third round peak within 5/4 of those of the second (the
#     first may end before the first release).
# Built with AddressSanitizer the agent releases in every iteration and using a released term aborts, so
# there this test also checks that nothing the agent keeps across iterations holds one.
# Sizes: LONG_RUN_INSTANCES (default 20 polled, 8 per churn round), LONG_RUN_ITERATIONS (150 polls; thirds
# of it compared), LONG_RUN_ROUND (60: iterations per churn round at least); scripts/test.sh gives the
# sanitizer build smaller ones (there every iteration releases, so a few show the bound).
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/evaluation_lib.sh"
# terms LOG FIRST LAST: the highest live term count of iteration lines FIRST..LAST of the agent's log
terms() { grep '^iteration:' "$1" | sed -n "$2,$3p" | sed -n 's/.*; \([0-9]*\) terms$/\1/p' | sort -n | tail -n 1; }
iterations() { grep -c '^iteration:' "$1"; }
polled=${LONG_RUN_INSTANCES:-20} polls=${LONG_RUN_ITERATIONS:-150} round_iterations=${LONG_RUN_ROUND:-60}
batch=$(( polled * 2 / 5 > 0 ? polled * 2 / 5 : 1 )) third=$(( polls / 3 ))

# Polling: $polled instances run to completion, then polled.
ensure_container poll/
for k in $(seq 1 "$polled"); do put "poll/i$k" "$instance_doc" > /dev/null; done
# (a bound of 2000 terms: a poll of complete instances interns about 7 terms an instance, so the default
# bound, 65,536 terms, would take more polls than this test makes)
"$ldgsm" run -v --instances-from "${base}poll/" -n 0 --iterations "$polls" --release-terms 2000 > /dev/null \
  2> "$work/poll.log" &
await_pid $!; rc=$?
check "the polling agent ran its $polls iterations (exit $rc)" [ "$(iterations "$work/poll.log")" = "$polls" ]
complete=0
for k in $(seq 1 "$polled"); do completed "poll/i$k" && complete=$((complete + 1)); done
check "every polled instance completed ($complete of $polled)" [ $complete = "$polled" ]
first=$(terms "$work/poll.log" $((third + 1)) $((2 * third))) last=$(terms "$work/poll.log" $((polls - third + 1)) "$polls")
check "polling: the terms of the last $third iterations peak within 5/4 of those of the $third before ($first, then $last)" \
  [ -n "$first" -a -n "$last" -a "${last:-1}" -le $(( ${first:-0} * 5 / 4 )) ]

# Churn: three rounds of $batch instances, each round running $round_iterations iterations or more.
ensure_container churn/
# (a bound of 4000 terms: each round of either size sees releases)
"$ldgsm" run -v --instances-from "${base}churn/" -n 0 --iterations 100000 --release-terms 4000 > /dev/null \
  2> "$work/churn.log" &
agent=$!
bounds=()
for round in 1 2 3; do
  start=$(($(iterations "$work/churn.log") + 1))
  for k in $(seq 1 "$batch"); do put "churn/r$round-$k" "$instance_doc" > /dev/null; done
  done_count=0
  for _ in $(seq 1 $((wait_limit * 10))); do
    done_count=0
    for k in $(seq 1 "$batch"); do completed "churn/r$round-$k" && done_count=$((done_count + 1)); done
    [ $done_count = "$batch" ] && [ "$(iterations "$work/churn.log")" -ge $((start + round_iterations)) ] && break
    running $agent || break
    nap 0.1
  done
  check "round $round: its $batch instances complete ($done_count)" [ $done_count = "$batch" ]
  for ((k = 1; k <= batch; k++)); do request DELETE "${base}churn/r$round-$k"; done
  bounds+=("$start" "$(iterations "$work/churn.log")")
done
# the last round's members leave before the agent is stopped
for _ in $(seq 1 $((wait_limit * 10))); do
  [ "$(grep -c 'is no longer listed: its instances leave the run' "$work/churn.log")" -ge $((3 * batch)) ] && break
  running $agent || break
  nap 0.1
done
check "the churning agent is still running" running $agent
stop_pid $agent
first=$(terms "$work/churn.log" "${bounds[2]}" "${bounds[3]}") last=$(terms "$work/churn.log" "${bounds[4]}" "${bounds[5]}")
check "churn: the terms of the third round peak within 5/4 of those of the second ($first, then $last)" \
  [ -n "$first" -a -n "$last" -a "${last:-1}" -le $(( ${first:-0} * 5 / 4 )) ]
check "the agent said each instance leaving the run ($(grep -c 'is no longer listed' "$work/churn.log") of $((3 * batch)))" \
  [ "$(grep -c 'is no longer listed: its instances leave the run' "$work/churn.log")" = $((3 * batch)) ]
finish
