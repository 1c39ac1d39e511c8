#!/usr/bin/env bash
# tests/ldp/run_ldp_idempotency.sh: `ldgsm serve` and the Idempotency-Key header, over HTTP (curl): a POST
# or PUT sent twice under one key is executed once (the access log counts executions per key) and the
# second answer is the first one replayed; another request under the key gets 422; malformed keys 400;
# refusals before the key is looked up reserve nothing; --idempotency-max and --idempotency-ttl; and with
# --data the answers survive kill -9 and a restart on another port. Every curl has a time limit and every
# wait is bounded (lib.sh: servers are stopped by PID, then killed), so the test ends on its own even if
# the server hangs.
# Usage: run_ldp_idempotency.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"

trap ldp_cleanup EXIT

# ireq METHOD URL [curl options...]: lib.sh's req with a time limit of its own, shorter than LDP_WAIT; a
# request without an answer ends the test (the exit trap stops the servers).
ireq() {
    local method=$1 url=$2
    shift 2
    req "$method" "$url" --max-time 10 "$@"
    if [ "$STATUS" = 000 ]; then
        echo "FAIL: $method $url: no answer within 10 s; giving up" >&2
        exit 1
    fi
}

TTL=(-H 'Content-Type: text/turtle')

# wait_log FILE PATTERN: waits (at most 5 s) for an access-log line: a request's line is written just after
# its answer, so counts are read only once the line of the last request counted is there.
wait_log() {
    local _
    for _ in $(seq 50); do
        grep -Eq -- "$2" "$1" && return 0
        sleep 0.1
    done
    return 1
}

# executions FILE KEY: how many requests were executed under KEY.
executions() {
    grep -c -- "idempotency-key=\"$2\" executed\$" "$1"
}

# members URL: how many members the container at URL lists.
members() {
    curl -s --max-time 10 -H 'Accept: application/n-triples' "$1" | grep -c 'ldp#contains>'
}

# ---------------------------------------------------------------- options
ldp_bounded "$BIN" serve --help >"$WORK/help"
check_grep "--help documents --idempotency-ttl" '^  --idempotency-ttl SECONDS' "$WORK/help"
check_grep "--help documents --idempotency-max" '^  --idempotency-max N' "$WORK/help"
check_grep "--help gives the default key lifetime" 'default 86400' "$WORK/help"
for bad in "--idempotency-ttl 0" "--idempotency-ttl x" "--idempotency-max 0" "--idempotency-max -1"; do
    rc=0
    # shellcheck disable=SC2086 # the option and its value are two words
    ldp_bounded "$BIN" serve --port 0 $bad 2>/dev/null || rc=$?
    check "'$bad' is a usage error" 2 "$rc"
done

# ---------------------------------------------------------------- POST and PUT sent twice
ldp_start mem --memory --threads 2
LOG=$WORK/mem.err
ireq PUT "${URL}items/" "${TTL[@]}" --data-binary ''
check "container created" 201 "$STATUS"

ireq POST "${URL}items/" "${TTL[@]}" -H 'Idempotency-Key: "post-1"' --data-binary '<> a <http://ex/Item> .'
check "keyed POST creates" 201 "$STATUS"
location=$(header Location)
etag=$(header ETag)
check "a first answer is not marked replayed" "" "$(header Idempotent-Replayed)"
ireq POST "${URL}items/" "${TTL[@]}" -H 'Idempotency-Key: "post-1"' --data-binary '<> a <http://ex/Item> .'
check "the re-sent POST gets the first status" 201 "$STATUS"
check "the re-sent POST names the same member" "$location" "$(header Location)"
check "the re-sent POST gets the same ETag" "$etag" "$(header ETag)"
check "the re-sent POST is marked replayed" "true" "$(header Idempotent-Replayed)"
check_grep "the replay keeps the Link type" 'ldp#RDFSource>; rel="type"' "$WORK/headers"
check "the container has one member" 1 "$(members "${URL}items/")"
wait_log "$LOG" '^POST /items/ 201 0 [0-9]+us idempotency-key="post-1" replayed$'
check "the access log says the re-sent POST was replayed" 0 $?
check "the POST was executed once" 1 "$(executions "$LOG" post-1)"

ireq PUT "${URL}items/r" "${TTL[@]}" -H 'Idempotency-Key: put-1' --data-binary '<> <http://ex/v> 1 .'
check "keyed PUT creates" 201 "$STATUS"
put_etag=$(header ETag)
ireq PUT "${URL}items/r" "${TTL[@]}" -H 'Idempotency-Key: "put-1"' --data-binary '<> <http://ex/v> 1 .'
check "the re-sent PUT (the key quoted this time) gets the first answer" 201 "$STATUS"
check "the re-sent PUT is marked replayed" "true" "$(header Idempotent-Replayed)"
# The resource changes; the re-sent PUT still gets its own answer and changes nothing.
ireq PUT "${URL}items/r" "${TTL[@]}" --data-binary '<> <http://ex/v> 2 .'
check "an unkeyed PUT replaces" 204 "$STATUS"
ireq PUT "${URL}items/r" "${TTL[@]}" -H 'Idempotency-Key: put-1' --data-binary '<> <http://ex/v> 1 .'
check "a PUT re-sent after a change gets the first answer" 201 "$STATUS"
check "... with the first ETag" "$put_etag" "$(header ETag)"
ireq GET "${URL}items/r"
check_grep "... and is not executed again" '<http://ex/v> 2' "$WORK/body"
wait_log "$LOG" '^PUT /items/r 201 0 [0-9]+us idempotency-key="put-1" replayed$' &&
    [ "$(grep -c 'idempotency-key="put-1" replayed$' "$LOG")" -eq 2 ]
check "the access log has both replays" 0 $?
check "the PUT was executed once" 1 "$(executions "$LOG" put-1)"
check_grep "the unkeyed PUT's log line has no key" '^PUT /items/r 204 0 [0-9]+us$' "$LOG"

# ---------------------------------------------------------------- another request under a key
ireq PUT "${URL}items/r" "${TTL[@]}" -H 'Idempotency-Key: put-1' --data-binary '<> <http://ex/v> 3 .'
check "another body under the key: 422" 422 "$STATUS"
check_grep "the 422 says the key was used for another request" 'used for another request' "$WORK/body"
ireq PUT "${URL}items/other" "${TTL[@]}" -H 'Idempotency-Key: put-1' --data-binary '<> <http://ex/v> 1 .'
check "another path under the key: 422" 422 "$STATUS"
ireq PUT "${URL}items/r" -H 'Content-Type: application/n-triples' -H 'Idempotency-Key: put-1' \
    --data-binary '<> <http://ex/v> 1 .'
check "another Content-Type under the key: 422" 422 "$STATUS"
ireq DELETE "${URL}items/r" -H 'Idempotency-Key: put-1'
check "another method under the key: 422" 422 "$STATUS"
ireq GET "${URL}items/r"
check_grep "a 422 changes nothing" '<http://ex/v> 2' "$WORK/body"
check "refused requests are not executed" 1 "$(executions "$LOG" put-1)"

# ---------------------------------------------------------------- DELETE, malformed keys, reads
ireq DELETE "${URL}items/r" -H 'Idempotency-Key: del-1'
check "keyed DELETE" 204 "$STATUS"
ireq DELETE "${URL}items/r" -H 'Idempotency-Key: del-1'
check "the re-sent DELETE gets 204, not 404" 204 "$STATUS"
check "the re-sent DELETE is marked replayed" "true" "$(header Idempotent-Replayed)"

long=$(head -c 256 /dev/zero | tr '\0' 'k')
for bad in '"unterminated' '""' "$long" '"a";p=1' 'a b'; do
    ireq PUT "${URL}items/bad" "${TTL[@]}" -H "Idempotency-Key: $bad" --data-binary ''
    check "malformed key '${bad:0:20}': 400" 400 "$STATUS"
    check_grep "the 400 names the header" '^Bad Request: Idempotency-Key: ' "$WORK/body"
done
ireq PUT "${URL}items/bad" "${TTL[@]}" -H 'Idempotency-Key: a' -H 'Idempotency-Key: b' --data-binary ''
check "two keys: 400" 400 "$STATUS"
check_grep "the 400 says one key only" 'one key only' "$WORK/body"
ireq GET "${URL}items/bad"
check "no malformed-key request was executed" 404 "$STATUS"
check_grep "the access log marks malformed keys" '^PUT /items/bad 400 [0-9]+ [0-9]+us idempotency-key=invalid$' "$LOG"
ireq GET "${URL}items/" -H 'Idempotency-Key: "unterminated'
check "reads ignore the header" 200 "$STATUS"
ldp_stop "$PID"

# ---------------------------------------------------------------- refusals reserve nothing
ldp_start token --memory --token secret
ireq PUT "${URL}t" "${TTL[@]}" -H 'Idempotency-Key: tok-1' --data-binary ''
check "a keyed PUT without the token: 401" 401 "$STATUS"
ireq PUT "${URL}t" "${TTL[@]}" -H 'Idempotency-Key: tok-1' -H 'Authorization: Bearer secret' --data-binary ''
check "the same key with the token executes" 201 "$STATUS"
check "... and is not a replay of the 401" "" "$(header Idempotent-Replayed)"
ldp_stop "$PID"

# ---------------------------------------------------------------- --idempotency-max, --idempotency-ttl
ldp_start small --memory --idempotency-max 1
for key in a b a; do
    ireq PUT "${URL}k/$key" "${TTL[@]}" -H "Idempotency-Key: max-$key" --data-binary ''
done
check "the oldest key was dropped: its re-send executes" 204 "$STATUS"
wait_log "$WORK/small.err" '^PUT /k/a 204 0 [0-9]+us idempotency-key="max-a" executed$'
check "max-a was executed twice" 2 "$(executions "$WORK/small.err" max-a)"
ldp_stop "$PID"

ldp_start short --memory --idempotency-ttl 1
ireq PUT "${URL}t" "${TTL[@]}" -H 'Idempotency-Key: ttl-1' --data-binary ''
sleep 2.2 # past the one-second lifetime, whatever the machine's speed
ireq PUT "${URL}t" "${TTL[@]}" -H 'Idempotency-Key: ttl-1' --data-binary ''
check "an expired key executes again" 204 "$STATUS"
check "... and is not marked replayed" "" "$(header Idempotent-Replayed)"
ldp_stop "$PID"

# ---------------------------------------------------------------- --data: kill -9 and a restart
ldp_start first --data "$WORK/data"
first_url=$URL
ireq PUT "${URL}items/" "${TTL[@]}" --data-binary ''
ireq POST "${URL}items/" "${TTL[@]}" -H 'Idempotency-Key: "durable-1"' --data-binary '<> a <http://ex/Item> .'
check "keyed POST (durable)" 201 "$STATUS"
location=$(header Location)
member_path=${location#"$URL"}
check "its Location is under the base" 1 "$([ "$member_path" != "$location" ] && echo 1)"
{
    kill -KILL "$PID"
    ldp_await "$PID"
} 2>/dev/null # without bash's "Killed" notice
ldp_start second --data "$WORK/data"
[ "$URL" != "$first_url" ]
check "the restarted server has another base URL (port 0)" 0 $?
ireq POST "${URL}items/" "${TTL[@]}" -H 'Idempotency-Key: "durable-1"' --data-binary '<> a <http://ex/Item> .'
check "after kill -9 and a restart the POST is replayed" "true" "$(header Idempotent-Replayed)"
check "... with its first status" 201 "$STATUS"
check "... naming the member under the new base" "${URL}${member_path}" "$(header Location)"
check "the container still has one member" 1 "$(members "${URL}items/")"
ireq POST "${URL}items/" "${TTL[@]}" -H 'Idempotency-Key: "durable-1"' --data-binary '<> a <http://ex/Other> .'
check "after the restart another body under the key: 422" 422 "$STATUS"
wait_log "$WORK/second.err" 'idempotency-key="durable-1" mismatch$'
check "the restarted server executed nothing under the key" 0 "$(executions "$WORK/second.err" durable-1)"
check_no_grep "the records are not warned about as unservable" 'not served' "$WORK/second.err"
ls "$WORK/data/.idempotency" >"$WORK/records"
check "one record on disk" 1 "$(wc -l <"$WORK/records")"
ireq GET "$URL" -H 'Accept: application/n-triples'
check_no_grep "the root does not list the records" 'idempotency' "$WORK/body"
ireq GET "${URL}.idempotency/"
check "the records cannot be read over HTTP" 400 "$STATUS"
ireq PUT "${URL}.idempotency/x" "${TTL[@]}" --data-binary ''
check "the records cannot be written over HTTP" 400 "$STATUS"
ldp_stop "$PID"

ldp_finish
