# lib.sh: shared helpers of the agent's shell tests: a `ldgsm serve --memory` on a free loopback port,
# stopped by PID when the test exits; checks that count and report failures.
ldgsm=${1:?usage: $0 path/to/ldgsm}
work=$(mktemp -d /tmp/ldgsm-agent-test.XXXXXX)
server_pid=
failures=0
passes=0
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT

start_server() { # [extra serve options]
  "$ldgsm" serve --memory --port 0 "$@" > "$work/serve.out" 2> "$work/serve.log" &
  server_pid=$!
  for _ in $(seq 1 100); do
    base=$(head -n 1 "$work/serve.out" 2>/dev/null)
    case $base in http://*) return 0 ;; esac
    sleep 0.05
  done
  echo "server did not start: $(cat "$work/serve.log")"; exit 1
}

# The server logs a request after answering it; waiting for the line keeps a test's later
# `: > serve.log` from receiving it.
wait_logged() { # method path count-before
  for _ in $(seq 1 100); do
    [ "$(served "$1" "$2")" -gt "$3" ] && return 0
    sleep 0.02
  done
}
put() { # path turtle
  local before; before=$(served PUT "/$1")
  printf '%s' "$2" | curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: text/turtle' --data-binary @- "$base$1"
  wait_logged PUT "/$1" "$before"
}
get() { curl -s -H 'Accept: application/n-triples' "$base$1"; }
served() { grep -c "^$1 $2 " "$work/serve.log"; } # method path: how many requests the server saw

check() { # description [!] command...: passes when the command succeeds (fails, with "!")
  local what=$1 want=0 got; shift
  if [ "$1" = "!" ]; then want=1; shift; fi
  "$@" > /dev/null 2>&1; got=$?
  if { [ $want = 0 ] && [ $got = 0 ]; } || { [ $want = 1 ] && [ $got != 0 ]; }; then
    passes=$((passes + 1))
  else
    echo "FAIL: $what"; failures=$((failures + 1))
  fi
}
finish() {
  echo "$(basename "$0"): $passes passed, $failures failed"
  [ $failures -eq 0 ]
}
