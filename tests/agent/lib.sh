# lib.sh: shared helpers of the agent's shell tests: a `ldgsm serve --memory` on a free loopback port,
# stopped by PID when the test exits; checks that count and report failures.
#
# Every wait is bounded by $wait_limit seconds (LDGSM_TEST_WAIT overrides it): a request, a server's
# start or stop, a command that must end. A regression that hangs then fails the test with a message
# instead of stalling it until ctest's TIMEOUT.
ldgsm=${1:?usage: $0 path/to/ldgsm}
agent_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d /tmp/ldgsm-agent-test.XXXXXX)
wait_limit=${LDGSM_TEST_WAIT:-30}
server_pid=
proxy_pid=
failures=0
passes=0

# Every curl of a test gives up after $wait_limit seconds (a server that accepts and never answers).
curl() { command curl --max-time "$wait_limit" "$@"; }

# The requests of the helpers below go through tests/agent/http_driver.py, started once (http_driver_start,
# by start_server): a curl start costs ~30 ms of CPU, and the tests make thousands of requests. Bash's
# /dev/tcp reaches the driver without a process, a connection per request (subshells and background jobs
# may request at once). The driver, too, gives up after $wait_limit seconds.
http_driver_pid=
http_driver_port=
http_driver_start() {
  [ -n "$http_driver_port" ] && return 0
  python3 "$agent_tests/http_driver.py" "$wait_limit" > "$work/http-driver.out" 2> "$work/http-driver.err" 5>&- 6<&- 7>&- &
  http_driver_pid=$!
  local i
  for ((i = 0; i < wait_limit * 20; i++)); do
    { IFS= read -r http_driver_port < "$work/http-driver.out"; } 2>/dev/null
    [ -n "$http_driver_port" ] && return 0
    running "$http_driver_pid" || break
    nap 0.05
  done
  echo "the HTTP driver did not start: $(cat "$work/http-driver.err")"; exit 1
}
byte_length() { local LC_ALL=C; byte_length=${#1}; } # STRING: its length in bytes, in $byte_length
# request METHOD URL [BODY [HEADER...]]: sets $http_code (000: no answer, $http_error says why), the
# response's headers in $http_headers (lower-case names, a line each) and its body in $http_body.
request() {
  local method=$1 url=$2 body=${3:-} fd line length
  shift 2; [ $# -gt 0 ] && shift
  http_code=000 http_headers= http_body= http_error=
  byte_length "$body"; length=$byte_length
  if ! exec {fd}<> "/dev/tcp/127.0.0.1/${http_driver_port:?the HTTP driver is not started}"; then
    http_error="cannot reach the HTTP driver"; return 1
  fi
  printf '%s %s %s\n' "$method" "$url" "$length" >&"$fd"
  [ $# -gt 0 ] && printf '%s\n' "$@" >&"$fd"
  printf '\n%s' "$body" >&"$fd"
  if IFS= read -r -t $((wait_limit + 5)) -u "$fd" http_code; then
    while IFS= read -r -u "$fd" line && [ -n "$line" ]; do http_headers+=$line$'\n'; done
    # the body, to the end of the connection, in blocks: `read -d ''` reads a socket a byte per read(2)
    # (a 20 KB status document cost 20,000 system calls: 9 of gsm_run_evaluation's 18 s of CPU)
    while IFS= read -r -N 1048576 -u "$fd" line; do http_body+=$line; done
    http_body+=$line
  fi
  exec {fd}>&-
  [[ $http_headers =~ (^|$'\n')x-driver-error:\ ([^$'\n']*) ]] && http_error=${BASH_REMATCH[2]}
  [ "$http_code" != 000 ]
}

# running PID: the process has not ended (a zombie, not yet waited for, still answers kill -0). Read
# from /proc without a fork: polling loops call it every few milliseconds.
running() {
  local stat
  read -r stat 2>/dev/null < "/proc/$1/stat" || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

# A stepped agent's log, followed without forking (tests step thousands of times; a grep every few
# milliseconds took CPU from the agents on 2 cores): follow_log FILE reads FILE from its start on a
# descriptor of its own; skip_log passes over what is there now; next_iteration PID [COPY] reads on to the
# agent's next "iteration:" line (then in $iteration_line), appending every line to the file COPY, and
# fails when the process PID ended without one or after $wait_limit seconds.
exec {nap_fd}<> <(:) # a pipe nobody writes: `read -t` on it sleeps without a fork
nap() { read -r -t "$1" -u "$nap_fd" _ || :; } # SECONDS: sleep without starting a process
log_fd=
follow_log() {
  : >> "$1"
  [ -n "$log_fd" ] && exec {log_fd}<&-
  exec {log_fd}< "$1"
}
skip_log() { local _; while IFS= read -r -u "$log_fd" _; do :; done; }
next_iteration() {
  local line partial="" ended=0 deadline=$((SECONDS + wait_limit))
  iteration_line=
  while :; do
    if IFS= read -r -u "$log_fd" line; then
      line=$partial$line
      partial=""
      [ -n "${2:-}" ] && printf '%s\n' "$line" >> "$2"
      if [[ $line == iteration:* ]]; then iteration_line=$line; return 0; fi
      continue
    fi
    partial+=$line
    [ $ended = 1 ] && return 1
    running "$1" || { ended=1; continue; } # one more read: its last lines came before it ended
    [ $SECONDS -lt $deadline ] || return 1
    nap 0.01
  done
}

# await_pid PID: waits for a process the test started to end, at most $wait_limit seconds; one that
# does not is killed and fails the test. Returns its exit status.
await_pid() {
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do
    running "$1" || break
    nap 0.1
  done
  if running "$1"; then
    echo "FAIL: process $1 did not end within ${wait_limit}s: killed"
    failures=$((failures + 1))
    kill -KILL "$1" 2>/dev/null
  fi
  wait "$1" 2>/dev/null
}
stop_pid() { kill -"${2:-TERM}" "$1" 2>/dev/null; await_pid "$1"; } # PID [SIGNAL]: default TERM

# await COMMAND...: true once the command succeeds, tried every 0.1 s for at most $wait_limit seconds
await() {
  local i
  for ((i = 0; i < wait_limit * 10; i++)); do
    "$@" && return 0
    nap 0.1
  done
  return 1
}

# bounded COMMAND...: runs a command that must end by itself; killed after $wait_limit seconds, which
# fails the test with a message. Returns the command's status (124 when it was killed).
bounded() {
  timeout -k 5 "$wait_limit" "$@"
  local rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "FAIL: did not end within ${wait_limit}s: $*"
    failures=$((failures + 1))
  fi
  return $rc
}

# KEEP=1 keeps the scratch directory to look at; what the test started is stopped either way (a process
# left behind outlives the run: tests/auth/css_auth.sh keeps its tests' directories).
cleanup() {
  [ -n "$http_driver_pid" ] && stop_pid "$http_driver_pid"
  [ -n "$proxy_pid" ] && stop_pid "$proxy_pid"
  [ -n "$server_pid" ] && stop_pid "$server_pid"
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# wait_for_line OUT ERR PID WHAT: waits (bounded) for the first line of OUT, written by the process PID
# once it listens, and sets $line to it; exits the test naming WHAT and showing ERR when none comes.
wait_for_line() {
  local i
  for ((i = 0; i < wait_limit * 20; i++)); do
    line=
    { IFS= read -r line < "$1"; } 2>/dev/null # a whole line: the address is written with its newline
    case $line in http://*) return 0 ;; esac
    running "$3" || break
    nap 0.05
  done
  echo "$4 did not start: $(cat "$2")"; exit 1
}

start_server() { # [extra serve options; with --data DIR, not --memory]
  local storage=(--memory)
  [[ " $* " == *" --data "* ]] && storage=()
  rm -f "$work/serve.out" # a restarted server: never read the last one's address
  "$ldgsm" serve "${storage[@]}" --port 0 "$@" > "$work/serve.out" 2> "$work/serve.log" &
  server_pid=$!
  wait_for_line "$work/serve.out" "$work/serve.log" "$server_pid" "the server"
  base=$line
  http_driver_start
}

# start_proxy [record_proxy.py options]: tests/agent/record_proxy.py in front of the server: its base
# URL is $pbase, its log of what was sent (method, path, status, If-Match, If-None-Match, ETag served)
# $work/proxy.log.
start_proxy() {
  python3 "$agent_tests/record_proxy.py" "$base" "$work/proxy.log" "$@" > "$work/proxy.out" 2> "$work/proxy.err" &
  proxy_pid=$!
  wait_for_line "$work/proxy.out" "$work/proxy.err" "$proxy_pid" "the recording proxy"
  pbase=$line
}

# Programs run through the proxy: the prefixes they use, run_proxied_agent program-text [options...] (its
# status in $run_status, its log in $work/run.log, the proxy's log emptied first), and proxy_writes
# METHOD-ERE PATH STATUS: how many such requests the proxy saw.
proxied_prefixes="@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix math: <http://www.w3.org/2000/10/swap/math#> .
@prefix : <http://ex.org/> ."
run_proxied_agent() {
  printf '%s\n%s\n' "$proxied_prefixes" "$1" > "$work/prog.n3"; shift
  : > "$work/proxy.log"
  bounded "$ldgsm" run -p "$work/prog.n3" -n 0 "$@" > /dev/null 2> "$work/run.log"
  run_status=$?
}
proxy_writes() { grep -Ec "^($1)	$2	$3	" "$work/proxy.log"; }

# The server logs a request after answering it; waiting for the line keeps a test's later
# `: > serve.log` from receiving it.
wait_logged() { # method path count-before
  local i
  for ((i = 0; i < 100; i++)); do
    [ "$(served "$1" "$2")" -gt "$3" ] && return 0
    nap 0.02
  done
}
put() { # path turtle: prints the status code
  local before; before=$(served PUT "/$1")
  request PUT "$base$1" "$2" 'Content-Type: text/turtle'
  printf '%s' "$http_code"
  wait_logged PUT "/$1" "$before"
}
get() { request GET "$base$1" "" 'Accept: application/n-triples'; printf '%s' "$http_body"; }
status_of() { request GET "$base$1" "" 'Accept: text/turtle'; printf '%s' "$http_code"; }
ensure_container() { # PATH/: created when missing (Community Solid Server gets no empty fixture folders)
  [ "$(status_of "$1")" = 404 ] || return 0
  request PUT "$base$1" "" 'Content-Type: text/turtle' 'Link: <http://www.w3.org/ns/ldp#BasicContainer>; rel="type"'
}
members() { get "$1" | grep -c '<http://www.w3.org/ns/ldp#contains>'; } # container: its member count
# achieved DOC MILESTONE-IRI: the workflow status document DOC (a path) shows that milestone achieved.
achieved() {
  local text s
  text=$(get "$1")
  s=$(grep -F "<http://purl.org/gsm/vocab#isInstanceOf> <$2>" <<< "$text" | cut -d' ' -f1 | head -n 1)
  [ -n "$s" ] && grep -qF "$s <http://purl.org/gsm/vocab#isAchieved> \"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>" <<< "$text"
}
served() { grep -c "^$1 $2 " "$work/serve.log"; } # method path: how many requests the server saw
written() { grep -Ec "^(PUT|PATCH) $1 " "$work/serve.log"; } # path: how many writes (a PUT or an N3 Patch) it saw

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
