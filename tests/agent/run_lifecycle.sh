#!/usr/bin/env bash
# `ldgsm run` over time: SIGINT/SIGTERM end the run after the current iteration with exit 0; a write held
# by a failing GET is retried every iteration and, after 10 in a row, a "stuck" line names the resource.
set -u
. "$(dirname "$0")/lib.sh"
start_server

cat > "$work/prog.n3" <<EOF
@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix : <http://ex.org/> .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}ticks> } .
{ } => { [] http:mthd httpm:POST ; http:requestURI <${base}> ; http:body { [] :tick 1 . } } .
EOF
for sig in INT TERM; do
  : > "$work/run.log" # empty before the wait below reads it: the last run's lines must not satisfy it
  "$ldgsm" run -v -p "$work/prog.n3" -n 50 > /dev/null 2>> "$work/run.log" & # -v: iteration lines
  pid=$!
  # the signal comes once an iteration has run (a fixed sleep was passed by the sanitizer build under load)
  for _ in $(seq 1 $((wait_limit * 10))); do grep -q '^iteration:' "$work/run.log" && break; nap 0.1; done
  stop_pid $pid $sig
  status=$?
  check "SIG$sig ends the run with exit 0" [ "$status" = 0 ]
  check "SIG$sig: the agent iterated before it" grep -q '^iteration:' "$work/run.log"
  # the last iteration finished: its line is the last one logged before the stop line
  check "SIG$sig: the last iteration was completed" grep -q '^iteration:' <(tail -n 2 "$work/run.log" | head -n 1)
  check "SIG$sig: the stop line says so" grep -qE '^stop: exit status 0 after [0-9]+ iterations \(stopped by a signal\)$' \
    <(tail -n 1 "$work/run.log")
done

# A GET that cannot succeed (nothing listens on port 1) holds the write that asked for it.
cat > "$work/held.n3" <<EOF
@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix : <http://ex.org/> .
{ } => { [] http:mthd httpm:GET ; http:requestURI <http://127.0.0.1:1/sensor> } .
{ } => { [] http:mthd httpm:PUT ; http:requestURI <${base}out> ; http:body { <${base}out#it> :v 1 . } } .
EOF
bounded "$ldgsm" run -p "$work/held.n3" -n 0 --iterations 11 > /dev/null 2> "$work/held.log"
check "a held write is never sent" [ "$(curl -s -o /dev/null -w '%{http_code}' "${base}out")" = 404 ]
check "the failing resource is reported once, not every iteration" \
  [ "$(grep -c '^warning: GET http://127.0.0.1:1/sensor' "$work/held.log")" = 1 ]
check "after 10 held iterations a stuck line names it" grep -q 'stuck: 10 iterations.*127.0.0.1:1/sensor' "$work/held.log"
check "one stuck line per iteration from the tenth on" [ "$(grep -c 'stuck:' "$work/held.log")" = 2 ]
bounded "$ldgsm" run -p "$work/held.n3" -n 0 --iterations 1 --on-incomplete proceed > /dev/null 2>&1
check "--on-incomplete proceed writes anyway" [ "$(curl -s -o /dev/null -w '%{http_code}' "${base}out")" = 200 ]

finish
