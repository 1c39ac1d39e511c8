# relay_lib.sh, sourced after tests/agent/lib.sh by the tests whose agents reach the server through
# tests/gsm/lossy_notifications.py (notifications lost, sockets cut or held): the relay, the agents run in the
# background (their PIDs in agent_pids, stopped if the test ends early).
relay_pid=
agent_pids=()
trap 'for p in "${agent_pids[@]}" $relay_pid; do running "$p" && stop_pid "$p"; done; cleanup' EXIT
# start_relay MODE...: a (new) relay in front of the server at $base; its base URL in $pbase, its log
# $work/relay.log (emptied).
start_relay() {
  [ -n "$relay_pid" ] && stop_pid "$relay_pid"
  : > "$work/relay.log"
  rm -f "$work/relay.out" # never read the last relay's address
  python3 "$(dirname "${BASH_SOURCE[0]}")/lossy_notifications.py" "$base" "$work/relay.log" "$@" \
    > "$work/relay.out" 2> "$work/relay.err" &
  relay_pid=$!
  wait_for_line "$work/relay.out" "$work/relay.err" "$relay_pid" "the relay"
  pbase=$line
}
