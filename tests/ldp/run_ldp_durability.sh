#!/usr/bin/env bash
# tests/ldp/run_ldp_durability.sh: kill -9 durability of `ldgsm serve --data`. Three writers run
# bounded loops of requests (two PUT new versions of their own resource, one POSTs containers with
# their own triples); once every writer has had a few writes acknowledged the server is killed with
# SIGKILL mid-stream and restarted on the same directory. Then every resource must parse and hold one
# of the versions written to it, no older than the last one acknowledged, and every container must be
# whole (present with its own triples, or absent). What a kill -9 cannot show (an in-place write or a
# missing fsync survives the death of the process, in the page cache) run_ldp_syscalls.sh checks.
# Usage: run_ldp_durability.sh PATH/TO/ldgsm
set -uo pipefail
BIN=$1
WORK=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap ldp_cleanup EXIT

MAX_WRITES=400 # per writer: the loops end on their own even if the kill never came
PAD=$(head -c 20000 /dev/zero | tr '\0' 'x')

# The body of version V of resource R: large enough that a torn write would show.
body_of() {
    printf '<#it> <http://ex/resource> "%s" ;\n  <http://ex/version> %d ;\n  <http://ex/pad> "%s%d" .\n' "$1" "$2" "${PAD:0:$(( ($2 * 997) % 20000 ))}" "$2"
}

# put_writer NAME: PUTs versions 1, 2, ... of NAME; appends each acknowledged version to $WORK/NAME.acked.
put_writer() {
    local name=$1 v
    : >"$WORK/$name.acked"
    for v in $(seq 1 $MAX_WRITES); do
        body_of "$name" "$v" >"$WORK/$name.body"
        code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: text/turtle' \
            --data-binary "@$WORK/$name.body" "${URL}w/$name") || break
        case $code in
        201 | 204) echo "$v" >>"$WORK/$name.acked" ;;
        *) break ;;
        esac
    done
}

# post_writer: POSTs containers c1, c2, ... with their own triples; records the acknowledged ones.
post_writer() {
    local v
    : >"$WORK/containers.acked"
    for v in $(seq 1 $MAX_WRITES); do
        code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: text/turtle' -H "Slug: c$v" \
            -H 'Link: <http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' \
            --data-binary "<> <http://ex/label> \"container $v\" ." "${URL}boxes/") || break
        case $code in
        201) echo "$v" >>"$WORK/containers.acked" ;;
        *) break ;;
        esac
    done
}

ldp_start first --data "$WORK/data"
curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary '' "${URL}boxes/"
put_writer a &
writer_a=$!
put_writer b &
writer_b=$!
post_writer &
writer_c=$!

# Kill once every writer has some acknowledged writes (bounded wait: 30 s).
for i in $(seq 300); do
    if [ "$(wc -l <"$WORK/a.acked" 2>/dev/null || echo 0)" -ge 20 ] &&
        [ "$(wc -l <"$WORK/b.acked" 2>/dev/null || echo 0)" -ge 20 ] &&
        [ "$(wc -l <"$WORK/containers.acked" 2>/dev/null || echo 0)" -ge 20 ]; then
        break
    fi
    sleep 0.1
done
kill -KILL "$PID"
wait "$PID" 2>/dev/null
wait "$writer_a" "$writer_b" "$writer_c"
check "the writers were cut off before their end" 1 "$([ "$(wc -l <"$WORK/a.acked")" -lt $MAX_WRITES ] && echo 1)"

ldp_start second --data "$WORK/data"
for name in a b; do
    last_acked=$(tail -n 1 "$WORK/$name.acked")
    req GET "${URL}w/$name" -H 'Accept: application/n-triples'
    check "resource $name is served after kill -9" 200 "$STATUS"
    version=$(sed -n 's/.*<http:\/\/ex\/version> "\([0-9]*\)".*/\1/p' "$WORK/body")
    check "resource $name parses and has a version" 1 "$([ -n "$version" ] && echo 1)"
    check "resource $name is no older than its last acknowledged version ($last_acked)" 1 \
        "$([ "${version:-0}" -ge "$last_acked" ] && echo 1)"
    check "resource $name is at most the version in flight" 1 "$([ "${version:-0}" -le $((last_acked + 1)) ] && echo 1)"
    body_of "$name" "${version:-0}" >"$WORK/expected"
    cmp -s "$WORK/expected" "$WORK/data/w/$name"
    check "resource $name holds exactly the bytes of version $version" 0 $?
done

req GET "${URL}boxes/" -H 'Accept: application/n-triples'
grep -o "<${URL}boxes/c[0-9]*/>" "$WORK/body" | sed 's/.*boxes\/c\([0-9]*\)\/>/\1/' | sort -n >"$WORK/containers.listed"
while read -r v; do
    grep -qx "$v" "$WORK/containers.listed"
    check "acknowledged container c$v survives" 0 $?
done <"$WORK/containers.acked"
while read -r v; do
    req GET "${URL}boxes/c$v/" -H 'Accept: application/n-triples'
    check_grep "container c$v is whole (has its own triples)" "\"container $v\"" "$WORK/body"
done <"$WORK/containers.listed"
find "$WORK/data" -name '.tmp.*' >"$WORK/leftovers"
check "temporary files are removed on restart" 0 "$(wc -l <"$WORK/leftovers")"
ldp_stop "$PID"

ldp_finish
