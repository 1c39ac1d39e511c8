# call_lib.sh: helpers of the call tests (tests/gsm/run_call_*.sh, run_gsm_fleet.sh), sourced after
# tests/agent/lib.sh and tests/gsm/property/step.sh: the call service (call_service.py), the GSM-1/GSM-2
# watcher, and reading a stage's call record.
service_pid=
stop_service() {
  [ -n "$service_pid" ] && stop_pid "$service_pid"
  service_pid=
}
trap 'stop_service; gsm_cleanup' EXIT

# The GSM-1/GSM-2 watcher (chaos_check.py watch) of a campaign: one at a time, stopped with the rest.
chaos_check=$gsm_dir/chaos_check.py
watcher_pid=
stop_all() {
  stop_agents
  [ -n "$watcher_pid" ] && stop_pid "$watcher_pid"
  stop_service
  gsm_cleanup
}
# start_watcher DIR INSTANCE...: starts the watcher over the instances' status, writing to DIR (violations,
# snapshots, finished once every instance ended)
start_watcher() {
  local dir=$1; shift
  mkdir -p "$dir"; : > "$dir/violations"
  python3 "$chaos_check" watch "$dir" "$@" 2> "$dir/errors" 5>&- 6<&- 7>&- &
  watcher_pid=$!
}
# stop_watcher DIR: stops the watcher; returns its exit status (not 0: it died before the end, DIR/errors says why)
stop_watcher() {
  touch "$1/stop"; await_pid "$watcher_pid"
  local rc=$?
  watcher_pid=
  return $rc
}
# start_service [PORT]: sets $service_port; behaviour per path from $work/service.json (configure).
start_service() {
  : > "$work/service.out"
  python3 "$gsm_dir/call_service.py" "${1:-0}" "$work/service.json" "$work/service.log" > "$work/service.out" 5>&- 6<&- 7>&- &
  service_pid=$!
  failure_logs+=("$work/service.log")
  local i
  for ((i = 0; i < 100; i++)); do
    service_port=
    { IFS= read -r service_port < "$work/service.out"; } 2>/dev/null
    [ -n "$service_port" ] && return 0
    nap 0.05
  done
  echo "the call service did not start"; exit 1
}
configure() { printf '%s' "$1" > "$work/service.json"; } # JSON: path -> behaviour (call_service.py)
# executed PATH [executed|replayed|conflict]: how many requests to PATH the service executed (or replayed...)
executed() { grep -c "^[A-Z]* $1 key=[^ ]* ${2:-executed} " "$work/service.log" 2>/dev/null; }
keys_of() { grep "^[A-Z]* $1 key=" "$work/service.log" | sed -E 's/.* key=([^ ]*) .*/\1/' | sort -u; } # PATH

# The call record of stage X (its stage fragment's #s-H as #c-H) and one of its fields, as text.
record_of() { local s; s=$(fragment "$1"); echo "${s/\#s-/#c-}"; }
field() { # STAGE PREDICATE-NAME: the object's lexical form or IRI
  get "status/$status_name" | grep -F "<$(record_of "$1")> <https://w3id.org/ldgsm#$2> " |
    sed -E 's/^<[^>]*> <[^>]*> //; s/ \.$//; s/^"([^"]*)".*$/\1/; s/^<(.*)>$/\1/'
}
call_state() { field "$1" callState | sed 's/.*#//'; }
# seconds_between T1 T2: T2 - T1 for two xsd:dateTime forms, in seconds
seconds_between() {
  python3 -c 'import sys, datetime as d; f = lambda s: d.datetime.fromisoformat(s.replace("Z", "+00:00")); print((f(sys.argv[2]) - f(sys.argv[1])).total_seconds())' "$1" "$2"
}
