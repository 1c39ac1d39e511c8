#!/usr/bin/env bash
# tests/ldp/run_ldp_limits.sh: what one client or a planted file can do to `ldgsm serve` (issue 12):
# a flood of idle connections from one address leaves another client served; idle connections are
# closed after --idle-timeout; a symbolic link in the data directory is never followed; no answer
# names a host path; the token can be given by --token-file or LDGSM_TOKEN (kept out of the process
# list), and --token warns that it is not. Usage: run_ldp_limits.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap ldp_cleanup EXIT
PROBE="$(dirname "$0")/conn_probe.py"
TTL=(-H 'Content-Type: text/turtle')

host_port() { # URL -> "HOST PORT"
    local rest=${1#http://}
    rest=${rest%/}
    echo "${rest%:*} ${rest##*:}"
}

# flood NAME FLOODERS EXPECT_CLOSED: FLOODERS idle connections from 127.0.0.2 to the server at URL, then a
# GET from 127.0.0.1 that must be served; the server must have closed at least EXPECT_CLOSED flooders.
flood() {
    local name=$1 count=$2 expect=$3 hp
    hp=$(host_port "$URL")
    rm -f "$WORK/$name.stop"
    # shellcheck disable=SC2086
    python3 "$PROBE" flood $hp 127.0.0.2 "$count" "$WORK/$name.stop" "$LDP_WAIT" "$expect" >"$WORK/$name.flood" &
    local flooder=$! i
    for i in $(seq $((LDP_WAIT * 10))); do
        grep -q '^opened' "$WORK/$name.flood" 2>/dev/null && break
        ldp_running "$flooder" || break
        sleep 0.1
    done
    check "$name: the flooder opened its connections" "opened $count" "$(head -n 1 "$WORK/$name.flood")"
    req GET "$URL" --interface 127.0.0.1
    check "$name: a second client is served during the flood" 200 "$STATUS"
    touch "$WORK/$name.stop"
    ldp_await "$flooder"
    local closed
    closed=$(sed -n 's/^closed-by-server //p' "$WORK/$name.flood")
    check "$name: the server closed the flooder's surplus connections (>= $expect of $count)" yes \
        "$([ "${closed:-0}" -ge "$expect" ] && echo yes || echo "no ($closed)")"
}

# ---------------------------------------------------------------- connection flood, defaults
# More idle connections from one address than the connection limit (1000) and the listen queue (1024)
# hold together: only the per-client limit (default 64) keeps room for others. The idle timeout is made
# long so that it cannot be what frees room.
ldp_start flood --memory --threads 2 --idle-timeout 3600
flood flood 2100 $((2100 - 64))
ldp_stop "$PID"

# ---------------------------------------------------------------- idle timeout, default
ldp_start idle --memory
read -r h p <<<"$(host_port "$URL")"
check "an idle connection is closed by the default idle timeout (15 s)" closed \
    "$(python3 "$PROBE" idle "$h" "$p" "$LDP_WAIT")"
ldp_stop "$PID"

# ---------------------------------------------------------------- planted symbolic links
mkdir -p "$WORK/outside" "$WORK/data/c" "$WORK/data/d"
echo '<http://example.org/s> <http://example.org/p> "MARKER-FILE" .' >"$WORK/outside/secret.ttl"
echo '<http://example.org/s> <http://example.org/p> "MARKER-DIR" .' >"$WORK/outside/inner"
echo '<#it> <http://example.org/p> "kept" .' >"$WORK/data/plain"
ln -s "$WORK/outside/secret.ttl" "$WORK/data/link"
ln -s "$WORK/outside" "$WORK/data/dirlink"
ln -s "$WORK/outside/secret.ttl" "$WORK/data/c/.container.ttl"
ln -s "$WORK/outside/secret.ttl" "$WORK/data/.container.ttl"
ln -s ../outside/secret.ttl "$WORK/data/d/member"
ldp_start links --data "$WORK/data"
: >"$WORK/served"
for path in link dirlink/ dirlink/inner c/ "" d/member; do
    req GET "$URL$path"
    cat "$WORK/body" >>"$WORK/served"
    case $path in
    c/ | "") check "GET /$path (its own triples a planted link) is served" 200 "$STATUS" ;;
    *) check "GET /$path (a planted link) is 404" 404 "$STATUS" ;;
    esac
done
req GET "${URL}plain"
check "a regular file beside the links is served" 200 "$STATUS"
check_no_grep "no answer holds a link target's text" 'MARKER' "$WORK/served"
check_grep "the skipped link is named on standard error at start" 'data/link: .*symbolic link' "$WORK/links.err"
check_grep "the skipped container-triples link is named at start" 'data/c/\.container\.ttl: .*symbolic link' \
    "$WORK/links.err"
ldp_stop "$PID"

# ---------------------------------------------------------------- no host path in answers
rm -rf "$WORK/data"
ldp_start paths --data "$WORK/data"
req PUT "${URL}a" "${TTL[@]}" --data-binary '<#it> <http://example.org/p> 1 .'
check "PUT /a" 201 "$STATUS"
req PUT "${URL}c/b" "${TTL[@]}" --data-binary '<#it> <http://example.org/p> 1 .'
check "PUT /c/b" 201 "$STATUS"
# The disk changed under the server: a directory where /a's file was, /c/b's file gone.
rm "$WORK/data/a" "$WORK/data/c/b"
mkdir -p "$WORK/data/a/x"
: >"$WORK/answers"
req PUT "${URL}a" "${TTL[@]}" --data-binary '<#it> <http://example.org/p> 2 .'
check "PUT over a directory on disk fails" 500 "$STATUS"
cat "$WORK/body" >>"$WORK/answers"
req DELETE "${URL}c/b"
check "DELETE of a file gone from disk fails" 500 "$STATUS"
cat "$WORK/body" >>"$WORK/answers"
rm -rf "$WORK/data/c"
req PUT "${URL}c/e" "${TTL[@]}" --data-binary '<#it> <http://example.org/p> 3 .'
check "PUT into a container gone from disk fails" 500 "$STATUS"
cat "$WORK/body" >>"$WORK/answers"
check_no_grep "no 500 answer names the data directory" "$WORK|/data|/tmp" "$WORK/answers"
check_grep "the server logs the failing path instead" "$WORK/data/a" "$WORK/paths.err"
ldp_stop "$PID"

# ---------------------------------------------------------------- the token
# write_checks NAME TOKEN: unauthorized writes get 401, authorized ones succeed.
write_checks() {
    local name=$1 token=$2
    req PUT "${URL}t" "${TTL[@]}" --data-binary '<#it> <http://example.org/p> 1 .'
    check "$name: PUT without a token" 401 "$STATUS"
    req PUT "${URL}t" "${TTL[@]}" -H "Authorization: Bearer wrong" --data-binary '<#it> <http://example.org/p> 1 .'
    check "$name: PUT with a wrong token" 401 "$STATUS"
    req PUT "${URL}t" "${TTL[@]}" -H "Authorization: Bearer $token" --data-binary '<#it> <http://example.org/p> 1 .'
    check "$name: PUT with the token" 201 "$STATUS"
    check "$name: the token is not in the process's command line" no \
        "$(tr '\0' ' ' <"/proc/$PID/cmdline" | grep -q -- "$token" && echo yes || echo no)"
}

LDGSM_TOKEN=env-secret-1 ldp_start env --memory
write_checks "LDGSM_TOKEN" env-secret-1
check_no_grep "LDGSM_TOKEN: no process-list warning" 'process list' "$WORK/env.err"
ldp_stop "$PID"

printf 'file-secret-2\n' >"$WORK/token"
ldp_start tokenfile --memory --token-file "$WORK/token"
write_checks "--token-file" file-secret-2
check_no_grep "--token-file: no process-list warning" 'process list' "$WORK/tokenfile.err"
ldp_stop "$PID"

LDGSM_TOKEN=env-loses ldp_start both --memory --token-file "$WORK/token"
req PUT "${URL}t" "${TTL[@]}" -H "Authorization: Bearer file-secret-2" --data-binary '<#it> <http://example.org/p> 1 .'
check "--token-file wins over LDGSM_TOKEN" 201 "$STATUS"
ldp_stop "$PID"

ldp_start plain --memory --token plain-secret-3
req PUT "${URL}t" "${TTL[@]}" -H "Authorization: Bearer plain-secret-3" --data-binary '<#it> <http://example.org/p> 1 .'
check "--token still works" 201 "$STATUS"
check_grep "--token warns that it shows in the process list" 'process list' "$WORK/plain.err"
ldp_stop "$PID"

: >"$WORK/empty-token"
rc=0
ldp_bounded "$BIN" serve --port 0 --memory --token-file "$WORK/empty-token" 2>"$WORK/empty.err" || rc=$?
check "an empty --token-file is a usage error" 2 "$rc"
rc=0
ldp_bounded "$BIN" serve --port 0 --memory --token-file "$WORK/missing" 2>"$WORK/missing.err" || rc=$?
check "a missing --token-file is a usage error" 2 "$rc"
check_grep "a missing --token-file is named" "$WORK/missing" "$WORK/missing.err"
rc=0
ldp_bounded "$BIN" serve --port 0 --memory --token a --token-file "$WORK/token" 2>/dev/null || rc=$?
check "--token with --token-file is a usage error" 2 "$rc"

# ---------------------------------------------------------------- the limits' flags
ldp_bounded "$BIN" serve --help >"$WORK/help"
for flag in --max-connections-per-client --max-connections --idle-timeout --token-file; do
    check_grep "--help documents $flag" "^  $flag" "$WORK/help"
done
check_grep "--help names LDGSM_TOKEN" 'LDGSM_TOKEN' "$WORK/help"
for bad in "--max-connections-per-client 0" "--idle-timeout 0" "--idle-timeout x" "--max-connections 0"; do
    rc=0
    # shellcheck disable=SC2086
    ldp_bounded "$BIN" serve --port 0 --memory $bad 2>/dev/null || rc=$?
    check "$bad is a usage error" 2 "$rc"
done

ldp_start perclient --memory --max-connections-per-client 4 --idle-timeout 3600
flood perclient 40 $((40 - 4))
ldp_stop "$PID"

ldp_start idleflag --memory --idle-timeout 1
read -r h p <<<"$(host_port "$URL")"
check "--idle-timeout 1 closes an idle connection" closed "$(python3 "$PROBE" idle "$h" "$p" "$LDP_WAIT")"
ldp_stop "$PID"

ldp_finish
