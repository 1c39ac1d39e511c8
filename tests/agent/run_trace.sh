#!/usr/bin/env bash
# `ldgsm run --trace FILE`: one JSON record per GET made, per unsafe request decided (sent, failed,
# withheld, conflicting, yielded, refused, unchanged, dry-run, a task withheld because its write failed)
# and per iteration; checked line by line with python3 (tests/agent/trace_check.py: every line parses,
# the requests made are exactly the log's `METHOD URL STATUS ms` lines, the iteration records' counts
# agree with their records) and with jq for the outcomes and reasons; then a GSM workflow (fire alarm).
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/lib.sh"
. "$agent_tests/../gsm/fire_alarm_lib.sh"
command -v jq > /dev/null || { echo "jq is not installed (scripts/install-deps.sh installs it)"; exit 77; }
start_server

prefixes="@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix : <http://ex.org/> ."
trace=$work/trace.jsonl
traced=0 # runs traced: each run's trace is kept as $work/trace.N.jsonl (KEEP=1 keeps $work)

run_traced() { # program-text [options...]: runs it with --trace $trace; log in $work/run.log
  printf '%s\n%s\n' "$prefixes" "$1" > "$work/prog.n3"; shift
  rm -f "$trace"
  bounded "$ldgsm" run -v -p "$work/prog.n3" -n 0 --trace "$trace" "$@" > "$work/run.out" 2> "$work/run.log"
  run_status=$?; cp "$trace" "$work/trace.$((++traced)).jsonl"
}
consistent() { python3 "$agent_tests/trace_check.py" "$trace" "$work/run.log"; }
# jq -e FILTER over the whole trace as one array (--slurp): true when the filter is
# (no any/all inside another: jq 1.6's nested short-circuits can break out of the outer one)
q() { jq -e --slurp "$@" "$trace"; }

put c/a '<#it> <http://ex.org/state> "on" .' > /dev/null
put c/doc '<#x> <http://ex.org/a> 1 ; <http://ex.org/b> 2 .' > /dev/null
put c/same-state '<#it> <http://ex.org/state> "on" .' > /dev/null
line_of() { grep -n "$1" "$work/prog.n3" | head -n 1 | cut -d: -f1; } # the line a rule starts on

# One run with every outcome of the plan and of sending: GETs (one failing), a PUT that succeeds from
# two rules (one request), a PUT that fails (no server), a conflict, a write withheld under the hold
# policy (its group's GET failed), two updates composed into one PUT, a yielded update, an unchanged one.
run_traced "{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}c/a> } .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}c/doc> } .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}c/same-state> } .
{ } => { [] http:mthd httpm:GET ; http:requestURI <http://127.0.0.1:1/sensor> ; ldgsm:group :g } .
{ <${base}c/a#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/same> ; http:body { <${base}c/same#it> :v 1 . } } . # same-1
{ <${base}c/a#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/same> ; http:body { <${base}c/same#it> :v 1 . } } . # same-2
{ <${base}c/a#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <http://127.0.0.1:1/x> ; http:body { <http://127.0.0.1:1/x#it> :v 1 . } } . # dead
{ <${base}c/a#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/a> ; http:body { <${base}c/a#it> :state \"red\" . } } . # red
{ <${base}c/a#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/a> ; http:body { <${base}c/a#it> :state \"blue\" . } } . # blue
{ <${base}c/a#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/held> ; ldgsm:group :g ; http:body { <${base}c/held#it> :v 1 . } } . # held
{ <${base}c/doc#x> :a ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; http:body { <${base}c/doc#x> :a 10 . } } . # upd-a
{ <${base}c/doc#x> :b ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; ldgsm:priority 2 ; http:body { <${base}c/doc#x> :b 20 . } } . # upd-b
{ <${base}c/doc#x> :b ?v . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/doc#x> ; ldgsm:priority 1 ; http:body { <${base}c/doc#x> :b 30 . } } . # loser
{ <${base}c/same-state#it> :state ?s . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/same-state#it> ; http:body { <${base}c/same-state#it> :state \"on\" . } } . # unchanged
" --iterations 2
rule() { echo "$work/prog.n3:$(line_of "# $1\$"):1"; } # the name of the rule labelled "# $1"
check "the run ends normally" [ "$run_status" = 0 ]
check "every line parses, the requests made are the logged ones, the counts agree" consistent
check "jq reads it" jq -e . "$trace"
check "two iteration records, numbered 1 and 2" q '[.[] | select(.kind == "iteration") | .iteration] == [1, 2]'
check "every record carries its iteration's clock" \
  q '(map(select(.kind == "iteration") | {key: (.iteration | tostring), value: .now}) | from_entries) as $now
     | all(.[]; .now == $now[.iteration | tostring])'
check "the clock is the ldgsm:now form" q 'all(.[]; .now | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"))'
check "a GET read, with its bytes" \
  q --arg u "${base}c/a" 'any(.[]; .kind == "get" and .uri == $u and .outcome == "read" and .status == 200 and .bytes > 0)'
check "a GET failed, with its failure kind" \
  q 'any(.[]; .kind == "get" and .uri == "http://127.0.0.1:1/sensor" and .outcome == "failed" and .status == null
        and .failure == "connect failure")'
check "the PUT from two rules is one record per iteration, naming both, sent" \
  q --arg u "${base}c/same" --arg r1 "$(rule same-1)" --arg r2 "$(rule same-2)" \
  '[.[] | select(.kind == "request" and .uri == $u)] | length == 2 and
   all(.[]; .outcome == "sent" and (.status == 201 or .status == 204) and .rules == [$r1, $r2] and .reason == null)'
check "the PUT to no server failed, with its kind and the reason logged" \
  q --arg r "$(rule dead)" '[.[] | select(.kind == "request" and .uri == "http://127.0.0.1:1/x")] | length == 2 and
   all(.[]; .outcome == "failed" and .status == null and .failure == "connect failure" and .rules == [$r]
       and (.reason | startswith("failed: ")))'
reason=$(jq -r --slurp '[.[] | select(.uri == "http://127.0.0.1:1/x")][0].reason' "$trace")
check "that reason is the text the agent logged" grep -qF "PUT http://127.0.0.1:1/x: $reason" "$work/run.log"
check "the conflict: both PUTs, each naming its rule, with the reason" \
  q --arg u "${base}c/a" --arg red "$(rule red)" --arg blue "$(rule blue)" \
  '[.[] | select(.kind == "request" and .uri == $u and .method == "PUT" and .iteration == 1)] as $c
   | ($c | length) == 2 and all($c[]; .outcome == "conflicting" and .status == null
       and .reason == "another write to the same resource in this iteration")
   and ([$c[].rules[]] | sort) == ([$red, $blue] | sort)'
check "the withheld write, with the hold policy's reason" \
  q --arg u "${base}c/held" --arg r "$(rule held)" 'any(.[]; .kind == "request" and .uri == $u and
   .outcome == "withheld" and .rules == [$r] and .reason == "a GET its group asked for failed in this iteration")'
check "the withheld write's reason is the one logged" \
  grep -q 'withheld.*: a GET its group asked for failed in this iteration' "$work/run.log"
check "the composed PUT: one record naming the rules of the updates it holds" \
  q --arg u "${base}c/doc" --arg a "$(rule upd-a)" --arg b "$(rule upd-b)" \
  '[.[] | select(.kind == "request" and .uri == $u and .iteration == 1)] | length == 1 and
   .[0].method == "PUT" and .[0].body_bytes > 0 and .[0].composed and .[0].outcome == "sent" and .[0].status == 204 and .[0].rules == [$a, $b]'
check "the update that lost on priority: yielded, with the reason" \
  q --arg r "$(rule loser)" 'any(.[]; .kind == "request" and .method == "UPDATE" and .rules == [$r] and
   .outcome == "yielded" and .reason == "a higher-priority update to the same slot wins" and .body_bytes == null)'
check "an update that changes nothing: unchanged" \
  q --arg r "$(rule unchanged)" 'any(.[]; .kind == "request" and .method == "UPDATE" and .rules == [$r] and .outcome == "unchanged")'
check "the iteration record: phase timings and counts" \
  q '[.[] | select(.kind == "iteration")][0] | .result == "done" and .gets == 4 and .gets_failed == 1 and
   .conflicting == 2 and .withheld == 1 and .yielded == 1 and .failed == 1 and .sent == 3 and
   all(.crawl_ms, .sentries_ms, .later_rules_ms, .plan_ms, .send_ms, .total_ms; type == "number")'

# A task withheld because the write it waits for failed (writes need a token this server is not given:
# 401), and --allow-origin refusing a write.
stop_pid "$server_pid"; server_pid=
start_server --token secret
printf '<#it> <http://ex.org/state> "new" .' | curl -s -o /dev/null -X PUT -H 'Authorization: Bearer secret' \
  -H 'Content-Type: text/turtle' --data-binary @- "${base}c/status"
run_traced "{ } => { [] http:mthd httpm:GET ; http:requestURI <${base}c/status> } .
{ <${base}c/status#it> :state \"new\" . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <${base}c/status#it> ; ldgsm:key :k ;
  http:body { <${base}c/status#it> :state \"started\" . } } .
{ <${base}c/status#it> :state \"new\" . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/device> ; ldgsm:key :k ; ldgsm:after <${base}c/status> ; http:body { <${base}c/device#it> :on true . } } . # task
{ } => { [] http:mthd httpm:DELETE ; http:requestURI <http://127.0.0.2:1/elsewhere> } . # elsewhere
" --iterations 1 --allow-origin "$base"
check "token run: the trace agrees with the log" consistent
check "the status write was sent and answered 401, with the reason logged" \
  q --arg u "${base}c/status" 'any(.[]; .kind == "request" and .uri == $u and .composed and .outcome == "sent"
   and .status == 401 and (.reason | startswith("answered 401")))'
check "the task behind it: withheld, with the reason" \
  q --arg u "${base}c/device" --arg s "${base}c/status" --arg r "$(rule task)" \
  '[.[] | select(.kind == "request" and .uri == $u)] | length == 1 and .[0].outcome == "withheld" and .[0].task
   and .[0].after == $s and .[0].rules == [$r] and .[0].reason == "the write to \($s) it waits for did not succeed"'
check "the task was not sent" [ "$(written /c/device)" = 0 ]
check "the write outside --allow-origin: refused, with the reason" \
  q 'any(.[]; .kind == "request" and .method == "DELETE" and .outcome == "refused"
   and .reason == "its origin is not among --allow-origin")'

# "now" is the clock the iteration asserted: a rule writes it to the server.
run_traced "{ <urn:ldgsm:agent> ldgsm:now ?t . } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/clock> ;
  http:headers ( [ http:fieldName \"Authorization\" ; http:fieldValue \"Bearer secret\" ] ) ; http:body { <${base}c/clock#it> :at ?t . } } ." \
  --iterations 1
now=$(jq -r 'select(.kind == "iteration") | .now' "$trace")
check "the record's clock is the ldgsm:now the rules saw" grep -qF "\"$now\"^^<http://www.w3.org/2001/XMLSchema#dateTime>" <(get c/clock)

# --dry-run: what would be sent, once per iteration; '-' is standard output, but not with --dry-run.
run_traced "{ } => { [] http:mthd httpm:PUT ; http:requestURI <${base}c/dry> ; http:body { <${base}c/dry#it> :v 1 . } } ." \
  --iterations 2 --dry-run
check "--dry-run: one dry-run record per iteration" \
  q '[.[] | select(.kind == "request") | [.iteration, .outcome, .status]] == [[1, "dry-run", null], [2, "dry-run", null]]'
bounded "$ldgsm" run -v -p "$work/prog.n3" -n 0 --iterations 2 --trace - > "$work/stdout.jsonl" 2> "$work/run.log"
check "--trace -: the records on standard output" \
  [ "$(jq -r 'select(.kind == "iteration") | .iteration' "$work/stdout.jsonl" | tr '\n' ' ')" = "1 2 " ]
check "--trace - with --dry-run is a usage error" \
  [ "$(bounded "$ldgsm" run -v -p "$work/prog.n3" --dry-run --trace - --iterations 1 > /dev/null 2>&1; echo $?)" = 2 ]
bounded "$ldgsm" run -v -p "$work/prog.n3" --iterations 1 --trace "$work/no/such/dir/t.jsonl" > /dev/null 2> "$work/err.log"
open_status=$?
check "a trace file that cannot be made: exit 1" [ "$open_status" = 1 ]
check "a trace file that cannot be made: named" grep -q "no/such/dir/t.jsonl: No such file" "$work/err.log"

# A trace that cannot be written is said once; the run goes on.
bounded "$ldgsm" run -v -p "$work/prog.n3" -n 0 --iterations 3 --trace /dev/full > /dev/null 2> "$work/run.log"
full_status=$?
check "a failing trace: the run goes on and ends normally" [ "$full_status" = 0 -a "$(grep -c '^iteration:' "$work/run.log")" = 3 ]
check "a failing trace: said once" [ "$(grep -c -- '--trace /dev/full: .*the run goes on without its trace' "$work/run.log")" = 1 ]

# Each iteration's records are on disk once it has ended: followed while the agent waits (--step).
rm -f "$work/step.fifo" "$trace"; mkfifo "$work/step.fifo"
: > "$work/step.log"
follow_log "$work/step.log"
"$ldgsm" run -v -p "$work/prog.n3" --step --trace "$trace" < "$work/step.fifo" 2> "$work/step.log" &
stepper=$!
exec 8> "$work/step.fifo"
echo >&8
next_iteration $stepper || :
check "an ended iteration's records are in the file while the agent runs" \
  [ "$(jq -r 'select(.kind == "iteration") | .iteration' "$trace" 2>/dev/null)" = 1 ]
exec 8>&-
await_pid $stepper

# A GSM workflow: the fire alarm, played to its end with the trace on.
stop_pid "$server_pid"; server_pid=
start_server --fixtures "$(cd "$agent_tests/../../ldp-fixtures/fire-alarm" && pwd)"
AGENT_OPTIONS="--trace $trace" play 0
cp "$work/agent.log" "$work/run.log"
check "fire alarm: the scenario was played to its end" grep -q reopen "$work/steps"
check "fire alarm: the trace agrees with the log" consistent
check "fire alarm: one iteration record per iteration" \
  [ "$(jq -r 'select(.kind == "iteration")' "$trace" | grep -c '"kind"')" = "$(grep -c '^iteration:' "$work/agent.log")" ]
check "fire alarm: the status writes are composed PUTs naming GSM rules" \
  q --arg u "${base}status/alarm1" '[.[] | select(.kind == "request" and .uri == $u and .composed and .outcome == "sent")
   | select(.rules | map(test("gsm-(setup|fcr)\\.n3")) | any)] | length > 0'
check "fire alarm: the alarm task, sent after its status write, once per SFA activation" \
  q --arg u "${base}devices/alarm" --argjson n "$(grep -c '^active' "$work/lines")" \
  '[.[] | select(.kind == "request" and .uri == $u and .task and .outcome == "sent")] | length == $n'
finish
