#!/usr/bin/env bash
# tests/ldp/run_ldp_slowloris.sh: slow clients cannot hold `ldgsm serve` (issue 30, finding 4). A head that
# is not complete within --head-timeout (of the connection's start, or of its first byte on a kept-alive
# connection) and a body slower than --body-min-rate (after --body-grace) are closed by the server, which
# logs the client's address and the cause; a few hundred slow connections from six loopback addresses, more
# than --max-connections, leave a normal client's GETs and PUTs answered (the connections waiting longest
# for a client are closed to keep room), and the log stays short. The first sections use only the defaults
# and flags older servers had, so that they show what the guard changed. Every wait is bounded
# (slow_probe.py's own loops too). Usage: run_ldp_slowloris.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap ldp_cleanup EXIT
PROBE="$(dirname "$0")/slow_probe.py"
TTL=(-H 'Content-Type: text/turtle')

host_port() { # URL -> "HOST PORT"
    local rest=${1#http://}
    rest=${rest%/}
    echo "${rest%:*} ${rest##*:}"
}

# await_grep PATTERN FILE: waits (at most LDP_WAIT seconds) for a line matching PATTERN in FILE; the
# server sums up the connections it closed in one line at most every 5 s.
await_grep() {
    local i
    for i in $(seq $((LDP_WAIT * 10))); do
        grep -Eq -- "$1" "$2" && return
        sleep 0.1
    done
}

# slow_trio NAME INTERVAL: side by side, a slow head from 127.0.0.2, a slow body from 127.0.0.3, and from
# 127.0.0.4 a GET answered and then the next request's head sent slowly on the same connection, to the
# server at URL; each must be closed by the server, and its log name each address with its cause.
slow_trio() {
    local name=$1 interval=$2 h p pid line pids=()
    read -r h p <<<"$(host_port "$URL")"
    python3 "$PROBE" one "$h" "$p" 127.0.0.2 head "$interval" "$LDP_WAIT" >"$WORK/$name.head" &
    pids+=($!)
    python3 "$PROBE" one "$h" "$p" 127.0.0.3 body "$interval" "$LDP_WAIT" >"$WORK/$name.body" &
    pids+=($!)
    python3 "$PROBE" one "$h" "$p" 127.0.0.4 again "$interval" "$LDP_WAIT" >"$WORK/$name.again" &
    pids+=($!)
    for pid in "${pids[@]}"; do
        ldp_await "$pid"
    done
    check "$name: a head sent a line at a time is closed by the server" closed "$(cut -d' ' -f1 "$WORK/$name.head")"
    check "$name: a body sent a byte at a time is closed by the server" closed "$(cut -d' ' -f1 "$WORK/$name.body")"
    check "$name: a second head sent a line at a time on a kept-alive connection is closed by the server" \
        closed "$(cut -d' ' -f1 "$WORK/$name.again")"
    local head_line='127\.0\.0\.2 \([0-9]+ head not complete' body_line='127\.0\.0\.3 \([0-9]+ body under'
    local again_line='127\.0\.0\.4 \([0-9]+ head not complete'
    for line in "$head_line" "$body_line" "$again_line"; do
        await_grep "$line" "$WORK/$name.err"
    done
    check_grep "$name: the log names the slow head's client and cause" "$head_line" "$WORK/$name.err"
    check_grep "$name: the log names the slow body's client and cause" "$body_line" "$WORK/$name.err"
    check_grep "$name: the log names the slow second head's client and cause" "$again_line" "$WORK/$name.err"
}

# ---------------------------------------------------------------- deadlines, defaults
# A line or a byte every 2 s keeps the idle timeout (15 s) from ever firing: only the head deadline (10 s)
# and the body rate (1024 B/s after 5 s) close these.
ldp_start defaults --memory --threads 2
slow_trio defaults 2
ldp_stop "$PID"

# ---------------------------------------------------------------- a few hundred slow connections
# 300 slow connections (50 from each of 127.0.0.2..7, under the per-client limit of 64), half heads and half
# bodies, each sending every 2 s and reopened when closed, against a budget of 200 connections: without
# room kept, the normal client would wait in the listen queue until curl gives up. Once the normal client
# is done the attacker stops reopening, and the server must close every connection still sending.
ldp_start attack --memory --threads 2 --max-connections 200
started=$SECONDS
read -r h p <<<"$(host_port "$URL")"
python3 "$PROBE" attack "$h" "$p" 127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,127.0.0.6,127.0.0.7 50 2 \
    "$WORK/attack.stop" $((LDP_WAIT * 4)) "$LDP_WAIT" >"$WORK/attack.out" &
attacker=$!
for i in $(seq $((LDP_WAIT * 10))); do
    grep -q '^opened' "$WORK/attack.out" 2>/dev/null && break
    ldp_running "$attacker" || break
    sleep 0.1
done
check "the attacker opened its connections" "opened 300" "$(head -n 1 "$WORK/attack.out")"
sleep 3 # every slot taken, and the first sends made
answered=0
for i in $(seq 6); do
    # 5 s is generous (the goal is under 1 s): what fails is a request never answered during the attack.
    req PUT "${URL}normal-$i" --max-time 5 "${TTL[@]}" --data-binary "<#it> <http://example.org/n> $i ."
    [ "$STATUS" = 201 ] && answered=$((answered + 1))
    req GET "${URL}normal-$i" --max-time 5
    [ "$STATUS" = 200 ] && grep -q "<http://example.org/n> $i" "$WORK/body" && answered=$((answered + 1))
    sleep 0.5
done
check "a normal client's 6 PUTs and 6 GETs are answered during the attack" 12 "$answered"
touch "$WORK/attack.stop"
ldp_await "$attacker"
check "the server closed every slow connection ($(tail -n 1 "$WORK/attack.out"))" 0 \
    "$(sed -n 's/^closed-by-server [0-9]* open \([0-9]*\)$/\1/p' "$WORK/attack.out")"
check_grep "the log names slow clients closed to keep room" '127\.0\.0\.[2-7] \([^)]*evicted to keep room' \
    "$WORK/attack.err"
# One line per 5 s at most (and one when the server stops), however many connections are closed.
closed=$(sed -n 's/^closed-by-server \([0-9]*\).*/\1/p' "$WORK/attack.out")
lines=$(grep -c 'slow clients:' "$WORK/attack.err")
most=$(((SECONDS - started) / 5 + 2))
check "the $closed slow connections closed are logged in $lines lines (at most $most)" yes \
    "$([ "$lines" -ge 1 ] && [ "$lines" -le "$most" ] && [ "${closed:-0}" -ge 300 ] && echo yes || echo no)"
ldp_stop "$PID"

# ---------------------------------------------------------------- the flags
ldp_start flags --memory --head-timeout 1 --body-min-rate 100000 --body-grace 1
slow_trio flags 0.3
ldp_stop "$PID"
for bad in "--head-timeout 0" "--body-min-rate x" "--body-grace -1"; do
    # shellcheck disable=SC2086
    ldp_bounded "$BIN" serve --port 0 $bad >/dev/null 2>"$WORK/usage.err"
    check "serve $bad is a usage error" 2 "$?"
done
"$BIN" serve --help >"$WORK/help.txt"
for flag in --head-timeout --body-min-rate --body-grace; do
    check_grep "serve --help documents $flag" "^  $flag " "$WORK/help.txt"
done

ldp_finish
