# lib.sh: helpers of the pattern tests (tests/patterns/run_*.sh), sourced after tests/agent/lib.sh,
# tests/gsm/property/step.sh and tests/gsm/call_lib.sh: compile a term with tests/patterns/names.ttl,
# publish it on the test's `ldgsm serve`, and play the tasks' service (call_service.py) and the env
# resources the conditions read. GSM-1, GSM-2 and the rule table are checked after every step (step.sh).
patterns_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
declare -A service_paths=()

# behave PATH [JSON]: how the service answers PATH (call_service.py's keys); without JSON, 204 at once.
behave() {
  if [ $# -ge 2 ]; then service_paths[$1]=$2; else unset "service_paths[$1]"; fi
  local json="{" sep="" p
  for p in "${!service_paths[@]}"; do json+="$sep\"$p\": ${service_paths[$p]}"; sep=", "; done
  configure "$json}"
}
hold() { local t; for t; do behave "/$t" "{\"status\": 202, \"result\": \"/results/$t\"}"; behave "/results/$t"; done; }
release() { local t; for t; do behave "/results/$t" '{"get": "<#it> <https://example.org/task#done> true ."}'; done; }
# hold_each T: every send of T is held on a result of its own (/results/KEY), released by release_key.
hold_each() { behave "/$1" "{\"status\": 202, \"result\": \"/results/{key}\"}"; }
release_key() { behave "/results/$1" '{"get": "<#it> <https://example.org/task#done> true ."}'; }
sends_are() { [ "$(executed "$1")" = "$2" ]; } # PATH N: the service executed N requests to PATH
# step_until COMMAND...: steps (at most 60) until COMMAND succeeds.
step_until() {
  local i
  for ((i = 0; i < 60; i++)); do
    "$@" && return 0
    step
  done
  "$@"
}
refuse() { local t; for t; do behave "/$t" '{"status": 404}'; done; }

# pattern NAME TERM: compiles TERM to /models/NAME, starts /status/NAME#it (sets $instance) and a fresh
# stepped agent on it (at the first step); the service's log starts empty and every task answers 204
# until told otherwise (hold, refuse, ...).
pattern() {
  agent_stop
  service_paths=()
  configure '{}'
  rm -f "$work/track.json"
  : > "$work/service.log"
  sed "s/SVC_PORT/$service_port/" "$patterns_dir/names.ttl" > "$work/names.ttl"
  if ! "$ldgsm" compile --term "$2" --base "${base}models/$1" -o "$work/$1.ttl" "$work/names.ttl" 2> "$work/compile.err"; then
    echo "cannot compile $2:"; cat "$work/compile.err"; exit 1
  fi
  [ "$(put "models/$1" "$(cat "$work/$1.ttl")")" = 201 ] || { echo "cannot PUT the model $1"; exit 1; }
  put "status/$1" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/$1#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
  instance="${base}status/$1#it"
  status_name=$1
}

# settle: steps until the status stays the same for three steps (at most 60), so that everything the
# environment allows now has happened.
settle() {
  local last="" same=0 now line i
  for ((i = 0; i < 60; i++)); do
    step
    now=
    while IFS= read -r line; do # no process per step: the tests settle hundreds of times
      [[ $line =~ ^step\ [0-9]*:\ (.*)$ ]] && now+=${BASH_REMATCH[1]}$'\n'
    done < "$work/track.out"
    if [ "$now" = "$last" ]; then
      same=$((same + 1))
      [ $same -ge 3 ] && return 0
    else
      same=0
    fi
    last=$now
  done
  echo "the status did not settle in 60 steps: $now"
  return 1
}

# sent: the paths the service executed, in order, one space after each ("/a /b ").
sent() { grep ' executed ' "$work/service.log" | awk '{printf "%s ", $2}'; }
# sent_set: the same, sorted (what was sent, whatever the order).
sent_set() { grep ' executed ' "$work/service.log" | awk '{print $2}' | sort | awk '{printf "%s ", $1}'; }
# workflow: done, failed, cancelled or running, from the root's milestones.
workflow() {
  local m
  for m in done failed cancelled; do
    is "root-$m=T" > /dev/null 2>&1 && { echo $m; return; }
  done
  echo running
}
