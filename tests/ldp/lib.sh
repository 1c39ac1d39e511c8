# tests/ldp/lib.sh: helpers the LDP shell tests source: start and stop `ldgsm serve` by PID, make
# HTTP requests with curl and check their outcome. Every server listens on 127.0.0.1, port 0.
#
# A test sets BIN (the ldgsm binary) and WORK (a scratch directory) and calls ldp_cleanup on exit.
#
# Every wait is bounded by LDP_WAIT seconds (LDGSM_TEST_WAIT overrides it): a request, a server's start
# or stop, a command that must end. A regression that hangs then fails the test with a message instead
# of stalling it until ctest's TIMEOUT.

LDP_PIDS=()
LDP_FAILURES=0
LDP_CHECKS=0
LDP_WAIT=${LDGSM_TEST_WAIT:-30}

# Every curl of a test gives up after LDP_WAIT seconds (a server that accepts and never answers).
curl() { command curl --max-time "$LDP_WAIT" "$@"; }

# ldp_running PID: the process has not ended (a zombie, not yet waited for, still answers kill -0).
ldp_running() {
    local stat
    read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# ldp_await PID: waits for a process the test started to end, at most LDP_WAIT seconds; one that does
# not is killed and fails the test. Returns its exit status.
ldp_await() {
    local pid=$1 i
    for i in $(seq $((LDP_WAIT * 10))); do
        ldp_running "$pid" || break
        sleep 0.1
    done
    if ldp_running "$pid"; then
        echo "FAIL: process $pid did not end within ${LDP_WAIT}s: killed" >&2
        LDP_FAILURES=$((LDP_FAILURES + 1))
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
}

# ldp_bounded COMMAND...: runs a command that must end by itself (a usage error, a server that must
# refuse to start); killed after LDP_WAIT seconds, which fails the test. Returns the command's status.
ldp_bounded() {
    local rc=0
    timeout -k 5 "$LDP_WAIT" "$@" || rc=$?
    if [ $rc = 124 ] || [ $rc = 137 ]; then
        echo "FAIL: did not end within ${LDP_WAIT}s: $*" >&2
        LDP_FAILURES=$((LDP_FAILURES + 1))
    fi
    return $rc
}

ldp_cleanup() {
    local pid
    for pid in "${LDP_PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
        ldp_await "$pid" || true
    done
    rm -rf "$WORK"
}

# ldp_start NAME [serve options...]: starts a server; sets URL (base, ending in '/') and PID.
# Its stdout and stderr go to $WORK/NAME.out and $WORK/NAME.err.
ldp_start() {
    local name=$1
    shift
    "$BIN" serve --port 0 "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
    PID=$!
    LDP_PIDS+=("$PID")
    local i
    for i in $(seq $((LDP_WAIT * 10))); do
        if [ -s "$WORK/$name.out" ]; then
            URL=$(head -n 1 "$WORK/$name.out")
            return 0
        fi
        if ! ldp_running "$PID"; then
            break
        fi
        sleep 0.1
    done
    echo "server $name did not start:" >&2
    cat "$WORK/$name.err" >&2
    exit 1
}

# ldp_stop PID [SIGNAL]: stops a server and checks that it exited 0.
ldp_stop() {
    local pid=$1 sig=${2:-TERM} rc=0
    kill -"$sig" "$pid"
    ldp_await "$pid" || rc=$?
    check "server $pid stops on SIG$sig with status 0" 0 "$rc"
}

# req METHOD URL [curl options...]: sets STATUS, and leaves the body in $WORK/body and the response
# headers in $WORK/headers.
req() {
    local method=$1 url=$2
    shift 2
    local method_option=(-X "$method")
    [ "$method" = HEAD ] && method_option=(--head)
    STATUS=$(curl -s -o "$WORK/body" -D "$WORK/headers" -w '%{http_code}' "${method_option[@]}" "$@" "$url")
}

# header NAME: the value of response header NAME of the last req (empty when absent).
header() {
    grep -i "^$1:" "$WORK/headers" | head -n 1 | sed -e 's/^[^:]*: *//' -e 's/\r$//'
}

check() {
    local what=$1 expected=$2 actual=$3
    LDP_CHECKS=$((LDP_CHECKS + 1))
    if [ "$expected" != "$actual" ]; then
        echo "FAIL: $what: expected '$expected', got '$actual'" >&2
        LDP_FAILURES=$((LDP_FAILURES + 1))
    fi
}

# check_grep WHAT PATTERN FILE: FILE has a line matching the extended regex PATTERN.
check_grep() {
    local what=$1 pattern=$2 file=$3
    LDP_CHECKS=$((LDP_CHECKS + 1))
    if ! grep -Eq -- "$pattern" "$file"; then
        echo "FAIL: $what: no line matching '$pattern' in:" >&2
        sed 's/^/    /' "$file" >&2
        LDP_FAILURES=$((LDP_FAILURES + 1))
    fi
}

check_no_grep() {
    local what=$1 pattern=$2 file=$3
    LDP_CHECKS=$((LDP_CHECKS + 1))
    if grep -Eq -- "$pattern" "$file"; then
        echo "FAIL: $what: unexpected line matching '$pattern' in:" >&2
        sed 's/^/    /' "$file" >&2
        LDP_FAILURES=$((LDP_FAILURES + 1))
    fi
}

ldp_finish() {
    echo "$LDP_CHECKS checks, $LDP_FAILURES failed"
    [ "$LDP_FAILURES" -eq 0 ]
}
