# tests/ldp/css.sh: starts and stops Community Solid Server 7.2.0 (npm, installed by scripts/peers.sh
# into node_modules/) for the interop test and the LDP benchmark: in memory, no authorization, bound
# to 127.0.0.1 on a free port, stopped by PID. The configuration and the loopback preload are
# tests/ldp/css/ (copies of the project's peer setup: CSS 7.x has no bind-address option).
#
# Sourced; needs WORK (scratch directory). css_start sets CSS_URL (ending in '/') and CSS_PID. LDGSM_CSS_CONFIG
# names the configuration (default css-memory-open.json: notifications off; css-memory-notify.json has
# WebSocketChannel2023 on).

CSS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CSS_DIR="$CSS_ROOT/tests/ldp/css"

css_available() {
    [ -f "$CSS_ROOT/node_modules/@solid/community-server/bin/server.js" ] && command -v node >/dev/null
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# css_start [CPU_LIST]: starts CSS (pinned with taskset when CPU_LIST is given) and waits, at most 150 s,
# until it answers. CSS takes 15-50 s to start (85 s beside a load of 20): the wait tries its port with
# bash's /dev/tcp every 0.1 s, sends a request (curl) only once the port takes a connection, and sleeps on
# a pipe nobody writes (a curl and a sleep per try were 13% of a start's CPU, 1.4 s).
css_start() {
    local port pin=() probe nap_fd
    port=$(free_port)
    [ -n "${1:-}" ] && pin=(taskset -c "$1")
    # node itself, not npx, so that $! is the server's PID. CSS reads any CSS_* variable as an option of its
    # own (CSS_URL, which the tests export, as --url, which it refuses): none reaches it.
    "${pin[@]}" env $(env | sed -n 's/^\(CSS_[A-Za-z0-9_]*\)=.*/-u \1/p') node --require "$CSS_DIR/bind-loopback.cjs" \
        "$CSS_ROOT/node_modules/@solid/community-server/bin/server.js" \
        -c "${LDGSM_CSS_CONFIG:-$CSS_DIR/css-memory-open.json}" -m "$CSS_ROOT/node_modules/@solid/community-server" \
        -p "$port" -b "http://127.0.0.1:$port/" -l warn >"$WORK/css.log" 2>&1 &
    CSS_PID=$!
    CSS_URL="http://127.0.0.1:$port/"
    local deadline=$((SECONDS + 150))
    exec {nap_fd}<> <(:)
    while [ $SECONDS -lt $deadline ]; do
        if { exec {probe}<> "/dev/tcp/127.0.0.1/$port"; } 2> /dev/null; then
            exec {probe}>&-
            if curl -s -o /dev/null "$CSS_URL"; then
                exec {nap_fd}>&-
                return 0
            fi
        fi
        if ! kill -0 "$CSS_PID" 2>/dev/null; then
            break
        fi
        read -r -t 0.1 -u "$nap_fd" _ || :
    done
    exec {nap_fd}>&-
    echo "Community Solid Server did not start:" >&2
    cat "$WORK/css.log" >&2
    css_stop
    return 1
}

css_stop() {
    if [ -n "${CSS_PID:-}" ]; then
        kill -TERM "$CSS_PID" 2>/dev/null || true
        wait "$CSS_PID" 2>/dev/null || true
        CSS_PID=
    fi
}
