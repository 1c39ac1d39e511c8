#!/usr/bin/env bash
# tests/ldp/run_ldp_syscalls.sh: `ldgsm serve --data` writes atomically and durably, seen in the system
# calls it makes (strace). A resource is written to a new temporary file, which is fsync'd and renamed
# over the target, then the directory is fsync'd, and only then is the answer sent; a container is made
# as a temporary directory (its own triples written and fsync'd inside, the directory fsync'd), renamed
# into place and its parent fsync'd; a removal is followed by an fsync of the directory. An in-place
# write, or a missing fsync of the file or of the directory, passes a kill -9 test on most runs (the
# page cache survives a process's death): this test sees it on every run.
# Usage: run_ldp_syscalls.sh PATH/TO/ldgsm
set -uo pipefail
REAL_BIN=$1
WORK=$(mktemp -d)
WORK=$(realpath "$WORK") # strace -y prints real paths
. "$(dirname "$0")/lib.sh"
trap ldp_cleanup EXIT
command -v strace >/dev/null || { echo "strace is not installed (scripts/install-deps.sh installs it)"; exit 77; }
strace -f -o /dev/null true 2>/dev/null || { echo "SKIPPED: strace cannot trace here (ptrace not permitted)"; exit 77; }

# The server runs under strace (-I1: strace does not block SIGTERM; it is sent to the server itself).
BIN=$WORK/traced-ldgsm
cat >"$BIN" <<EOF
#!/bin/sh
# LeakSanitizer cannot run under ptrace (its report would replace the exit status).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
exec strace -f -y -qq -I1 -e signal=none -o "$WORK/trace" \\
  -e trace=openat,write,writev,sendto,sendmsg,fsync,fdatasync,rename,renameat,renameat2,mkdir,unlink \\
  "$REAL_BIN" "\$@"
EOF
chmod +x "$BIN"

ldp_start traced --data "$WORK/data"
turtle=(-H 'Content-Type: text/turtle')
req PUT "${URL}w/a" "${turtle[@]}" --data-binary '<#it> <http://ex/version> 1 .'
check "PUT of a new resource" 201 "$STATUS"
req PUT "${URL}w/a" "${turtle[@]}" --data-binary '<#it> <http://ex/version> 2 .'
check "PUT over it" 204 "$STATUS"
req POST "$URL" "${turtle[@]}" -H 'Slug: box' -H 'Link: <http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' \
    --data-binary '<> <http://ex/label> "box" .'
check "POST of a container" 201 "$STATUS"
req DELETE "${URL}w/a"
check "DELETE of the resource" 204 "$STATUS"
req DELETE "${URL}box/"
check "DELETE of the container" 204 "$STATUS"

# Stop the server (strace's child) and let strace finish the trace; strace exits with its status.
server=$(cat "/proc/$PID/task/$PID/children" 2>/dev/null)
check "the traced server runs under strace" 1 "$([ -n "$server" ] && echo 1)"
kill -TERM "$server"
ldp_await "$PID"
check "the traced server exits 0" 0 $?

python3 "$(dirname "$0")/syscall_order.py" "$WORK/trace" "$WORK/data" >"$WORK/calls"
# expect REQUEST LINES...: the calls made for REQUEST (its log line), in order, are exactly LINES.
expect() {
    local request=$1
    shift
    printf '%s\n' "$@" >"$WORK/expected"
    sed -n "/^== $(printf '%s' "$request" | sed 's|/|\\/|g')\$/,/^==/{/^==/!p}" "$WORK/calls" >"$WORK/actual"
    LDP_CHECKS=$((LDP_CHECKS + 1))
    if ! cmp -s "$WORK/expected" "$WORK/actual"; then
        echo "FAIL: the file system calls of $request differ (- expected, + made):" >&2
        diff -u "$WORK/expected" "$WORK/actual" | tail -n +3 | sed 's/^/    /' >&2
        LDP_FAILURES=$((LDP_FAILURES + 1))
    fi
}

# The missing container /w/ is made first, whole, then the resource in it.
expect "PUT /w/a 201" \
    "mkdir /TMP1/" "fsync /TMP1/" "rename /TMP1/ /w/" "fsync /" \
    "create /w/TMP2" "write /w/TMP2" "fsync /w/TMP2" "rename /w/TMP2 /w/a" "fsync /w/" \
    "answer 201"
expect "PUT /w/a 204" \
    "create /w/TMP1" "write /w/TMP1" "fsync /w/TMP1" "rename /w/TMP1 /w/a" "fsync /w/" \
    "answer 204"
expect "POST / 201" \
    "mkdir /TMP1/" "create /TMP1/.container.ttl" "write /TMP1/.container.ttl" "fsync /TMP1/.container.ttl" \
    "fsync /TMP1/" "rename /TMP1/ /box/" "fsync /" \
    "answer 201"
# A deletion is recorded (ldp_store.h note 5: the name is never minted again) before it is made.
expect "DELETE /w/a 204" "create /TMP1" "write /TMP1" "fsync /TMP1" "rename /TMP1 /.ldgsm-deleted" "fsync /" \
    "unlink /w/a" "fsync /w/" "answer 204"
# A container is renamed away (it vanishes whole) before its files are removed.
expect "DELETE /box/ 204" "create /TMP1" "write /TMP1" "fsync /TMP1" "rename /TMP1 /.ldgsm-deleted" "fsync /" \
    "rename /box/ /TMP2/" "fsync /" "unlink /TMP2/.container.ttl" "answer 204"

ldp_finish
