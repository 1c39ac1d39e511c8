#!/usr/bin/env bash
# bench/ldp/hostile_bodies.sh: a normal client's GET latency while strangers PUT deeply nested bodies
# (issue 30): 1 MB of `<a> <p> ((((...` in Turtle, 1.75 MB of `[<p> ` 350,000 levels deep, and two 1.2 MB
# RDF/XML bodies 40,000 elements deep at once, against `ldgsm serve --memory --threads 2`. For each body:
# its answer (status, seconds), whether the server still runs, and the median and largest latency of GETs of a
# small resource made every 0.1 s from the PUT's start until 2 s after it ended (a request not answered
# within 30 s counts as 30 s). BASELINE=PATH/TO/older/ldgsm runs the same against it right after. Prints a
# markdown table. Loopback only.
# Usage: bench/ldp/hostile_bodies.sh [PATH/TO/ldgsm]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BIN=${1:-$root/build/ldgsm}
WORK=$(mktemp -d)
. "$root/tests/ldp/lib.sh"
trap ldp_cleanup EXIT
python3 - "$WORK" <<'PY'
import sys
w = sys.argv[1]
open(w + '/round.ttl', 'w').write('<#a> <#p> ' + '(' * (1 << 20))
open(w + '/square.ttl', 'w').write('<#a> <#p> ' + '[<#p> ' * 350000)
open(w + '/deep.rdf', 'w').write(
    '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns:ex="http://example.org/"><rdf:Description rdf:about="#a">' + '<ex:p rdf:parseType="Resource">' * 40000)
PY
median_max() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f / %.0f", ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) * 1000, v[NR] * 1000; else printf "-" }'; }

one_server() { # binary label
    local bin=$1 label=$2 body ctype put_pids
    for body in round.ttl square.ttl deep.rdf; do
        BIN=$bin ldp_start "$label-$body" --memory --threads 2
        command curl -s -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary '<#a> <#p> 1 .' "${URL}ok"
        ctype=text/turtle
        [ "$body" = deep.rdf ] && ctype=application/rdf+xml
        : > "$WORK/lat"
        local start=$SECONDS copies=1
        [ "$body" = deep.rdf ] && copies=2
        put_pids=()
        for k in $(seq "$copies"); do
            command curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 600 -X PUT -H "Content-Type: $ctype" \
                --data-binary @"$WORK/$body" "${URL}hostile$k" > "$WORK/put$k" &
            put_pids+=($!)
        done
        local done_at=
        while :; do
            command curl -s -o /dev/null -w '%{time_total}\n' --max-time 30 "${URL}ok" >> "$WORK/lat" || echo 30 >> "$WORK/lat"
            if [ -z "$done_at" ] && ! kill -0 "${put_pids[@]}" 2>/dev/null; then done_at=$SECONDS; fi
            [ -n "$done_at" ] && [ $((SECONDS - done_at)) -ge 2 ] && break
            [ $((SECONDS - start)) -ge 660 ] && break
            sleep 0.1
        done
        wait "${put_pids[@]}" 2>/dev/null
        local alive=yes
        ldp_running "$PID" || alive="no (crashed)"
        printf '| %s | %s x%s | %s | %s | %s |\n' "$label" "$body" "$copies" "$(tr '\n' ' ' < "$WORK/put1")" "$alive" \
            "$(median_max < "$WORK/lat")"
        kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null
    done
}
echo "| server | body | PUT answer (status s) | server alive | GET ms beside it (median / max) |"
echo "| --- | --- | --- | --- | --- |"
one_server "$BIN" "$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo new)"
[ -n "${BASELINE:-}" ] && one_server "$BASELINE" baseline
exit 0
