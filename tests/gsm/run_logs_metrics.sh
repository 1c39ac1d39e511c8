#!/usr/bin/env bash
# Logs and metrics (docs/guide/logs-and-metrics.md), on the order fixture with three instances that never
# get set up (two order documents answer 500 and do not parse, as in run_orders.sh part 4; one model is
# missing) and one whose quote is missing (its call exhausted), so the run has held, waiting, incident and
# stuck lines, withheld writes and failed reads beside orders that complete:
#   1. The default log of `ldgsm run` has every held:, waiting:, incident: and stuck: line the -v log of
#      the same run has, a start and a stop line, and no request or iteration line; the -v log has one
#      request line per request the trace records.
#   2. `--log-format json`: every line is one JSON object (Python's json) with the documented keys first;
#      its held/waiting/incident/stuck events are the text log's lines, with the instance and cause as
#      fields; no request event without -v.
#   3. `ldgsm serve`'s /metrics, scraped before and after the run and read by Prometheus' own text parser
#      (prometheus_client): counters only grow, and grow by what the server's access log says it answered
#      (by method and status) and sent (bytes); with --token-file it needs the token.
#   4. `ldgsm run --metrics`, scraped after every step of a --step run: counters only grow, and the last
#      scrape's iterations, phase histograms, requests by method and outcome and 412s are the trace's, the
#      held and waiting instances the log's, the instances and calls by state the status documents'.
#   5. With --notifications, a change of a document the agent reads is one notification received; the
#      server counts the agent's channels.
# (Call retries are counted against a call service in tests/gsm/run_call_rules.sh.)
# Each run is bounded by its iterations or steps; nothing here depends on timing (a channel's notification
# comes when it comes: part 5 steps until it has, bounded by the wait limit).
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/orders_lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../../ldp-fixtures/orders" && pwd)
check_py() { /usr/bin/python3 "$here/logs_metrics_check.py" "$@"; } # the system's: prometheus_client is there
if ! /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null; then
  echo "FAIL: /usr/bin/python3 lacks prometheus_client (Debian's python3-prometheus-client: scripts/install-deps.sh)"
  exit 1
fi
helper_pids=()
agent_pid=
trap '[ -n "$agent_pid" ] && stop_pid "$agent_pid"; for p in "${helper_pids[@]}"; do stop_pid "$p"; done; cleanup' EXIT

failing_services
fx=$work/fixture
cp -r "$fixtures" "$fx"
instance_doc "$failing#it" > "$fx/status/bad500"
instance_doc "$broken#it" > "$fx/status/badparse"
instance_doc "../orders/1#it" | sed 's|models/order#root|models/missing#root|' > "$fx/status/nomodel" # held: no model
order_doc 9 > "$fx/orders/9" # and no quotes/9: its quote call is answered 404, exhausted (an incident)
instance_doc "../orders/9#it" > "$fx/status/noquote"
# The 3 fixture orders complete in 12 iterations; 13 hold the failing two long enough for the stuck line (10).
iterations=13

# run_orders NAME [run options]: the fixture on a fresh server, one agent run of $iterations iterations,
# its log in $work/NAME.log and its trace in $work/NAME.jsonl.
run_orders() {
  local name=$1; shift
  [ -n "$server_pid" ] && { stop_pid "$server_pid"; server_pid=; }
  start_server --fixtures "$fx"
  bounded "$ldgsm" run --instances-from "${base}status/" -n 0 --iterations $iterations --trace "$work/$name.jsonl" \
    "$@" > /dev/null 2> "$work/$name.log"
}

echo "# 1. the default log: what a person acts on, no request lines"
run_orders default
run_orders verbose -v
check_py waits "$work/verbose.log" > "$work/verbose.waits"
check_py waits "$work/default.log" > "$work/default.waits"
sed 's/^/  /' "$work/default.waits"
check "the run has waiting lines for both failing instances" \
  [ "$(grep -cE "^waiting: <BASE/status/bad(500|parse)#it>" "$work/verbose.waits")" = 2 ]
check "... a held line for the one whose model is missing" grep -q "^held: <BASE/status/nomodel#it>: set-up waits" \
  "$work/verbose.waits"
check "... an incident line for the one whose quote is missing" \
  grep -q "^incident: <BASE/status/noquote#it>: the call of stage <BASE/models/order#Quote> is exhausted" "$work/verbose.waits"
check "... and a stuck line" grep -q '^stuck: ' "$work/verbose.waits"
check "the default log has every held/waiting/incident/stuck line of the -v log ($(wc -l < "$work/verbose.waits"))" \
  cmp -s "$work/verbose.waits" "$work/default.waits"
check "the default log has no request line" ! grep -qE '^[A-Z]+ [a-z]+://[^ ]+ ([0-9]{3}|failed \(.*\)).* ms' \
  "$work/default.log"
check "... nor an iteration line" ! grep -q '^iteration:' "$work/default.log"
check "it has the withheld writes, the failed reads" grep -qF "GET $failing: status 500" "$work/default.log"
check "... a start line and a stop line" \
  [ "$(grep -cE '^(start: pid [0-9]+, |stop: exit status [0-9]+ after '$iterations' iterations)' "$work/default.log")" = 2 ]
check "the -v log has one request line per request of the trace" check_py requests "$work/verbose.log" \
  "$work/verbose.jsonl"
check_py requests "$work/verbose.log" "$work/verbose.jsonl" | grep -v '^ok' | sed 's/^/  /'

echo "# 2. --log-format json"
run_orders json --log-format json
check_py json "$work/json.log" "$work/default.log" > "$work/json.check"
sed 's/^/  /' "$work/json.check"
check "every line is a JSON object with the documented keys, the same waits as the text log" \
  grep -q '^ok: json' "$work/json.check"
check "a held or waiting event names its instance" \
  grep -qF '"instance":"'"${base}"'status/bad500#it"' "$work/json.log"
check "a bad --log-format is refused" ! "$ldgsm" run --log-format xml --instance "${base}status/bad500#it"
check "... by serve too" ! "$ldgsm" serve --log-format xml
check "a bad --metrics address is refused, saying what it wants" \
  grep -q -- "--metrics wants ADDR:PORT or PORT" <("$ldgsm" run --metrics 127.0.0.1:99999 --instance "${base}status/bad500#it" 2>&1)

echo "# 3, 4. ldgsm serve's /metrics, the agent's --metrics"
stop_pid "$server_pid"; server_pid=
start_server --fixtures "$fx"
request GET "${base}metrics"
printf '%s' "$http_body" > "$work/serve-before.prom"
check "GET /metrics answers 200 Prometheus text" \
  [ "$http_code" = 200 -a -n "$(grep -i '^content-type: text/plain; version=0.0.4' <<< "$http_headers")" ]
await grep -q '^GET /metrics 200 ' "$work/serve.log" # its access-log line before any of the run's
mkfifo "$work/steps"
"$ldgsm" run --instances-from "${base}status/" -n 0 --step --metrics 0 --trace "$work/step.jsonl" \
  < "$work/steps" > /dev/null 2> "$work/step.log" &
agent_pid=$!
exec {steps}> "$work/steps"
await grep -q 'metrics at http' "$work/step.log"
metrics_url=$(sed -n 's/^start: .*; metrics at \(http[^ ]*\)$/\1/p' "$work/step.log")
check "the agent's metrics listen on loopback ($metrics_url)" grep -qE '^http://127\.0\.0\.1:[0-9]+/metrics$' <<< "$metrics_url"
check "... answering another path 404" [ "$(curl -s -o /dev/null -w '%{http_code}' "${metrics_url%/metrics}/other")" = 404 ]
check "... and a POST 405, saying why" [ "$(curl -s -X POST --data x "$metrics_url")" = "only GET" ]
scrapes=()
scrape_agent() { curl -s -o "$work/agent-$1.prom" -w '%{http_code}' "$metrics_url" > "$work/agent-$1.code"; scrapes+=("$work/agent-$1.prom"); }
scrape_agent 0
traced=0
for step in $(seq 1 $iterations); do
  echo >&"$steps"
  for _ in $(seq 1 $((wait_limit * 20))); do
    traced=$(grep -c '"kind":"iteration"' "$work/step.jsonl" 2>/dev/null)
    [ "${traced:-0}" -ge "$step" ] && break
    running "$agent_pid" || break
    nap 0.05
  done
  scrape_agent "$step"
done
check "the stepped agent ran its $iterations iterations ($traced)" [ "$traced" = $iterations ]
check "every scrape of the agent answered 200" [ "$(cat "$work"/agent-*.code | tr -d 0-9 | wc -c)" = 0 -a \
  "$(grep -c 200 "$work"/agent-*.code | grep -c ':1$')" = $((iterations + 1)) ]
check_py agent "$work/step.jsonl" "$work/step.log" "$base" "${scrapes[@]}" > "$work/agent.check"
sed 's/^/  /' "$work/agent.check"
check "the agent's metrics: counters grow, values are the trace's, the log's and the status documents'" \
  grep -q '^ok: agent' "$work/agent.check"
exec {steps}>&-
await_pid "$agent_pid"; agent_pid=
request GET "${base}metrics"
printf '%s' "$http_body" > "$work/serve-after.prom"
check_py server "$work/serve-before.prom" "$work/serve-after.prom" "$work/serve.log" > "$work/server.check"
sed 's/^/  /' "$work/server.check"
check "the server's metrics: counters grow by what its access log says it answered and sent" \
  grep -q '^ok: server' "$work/server.check"
request PUT "${base}metrics" '<#a> <#b> <#c> .' 'Content-Type: text/turtle'
check "/metrics cannot be written (405)" [ "$http_code" = 405 ]

echo "# 5. notifications received"
# An instance whose stage waits for a sensor (one_stage_lib.sh), run on channels (--notifications); once it
# rests with every channel live, the test creates the sensor's document with a value that changes nothing:
# one notification more, and no write of the agent's to bring others. Each wait is a bounded number of steps.
one_stage_model models/m "$started_guard" "$(sensed a)"
put s/i1 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
rm -f "$work/steps"; mkfifo "$work/steps"
"$ldgsm" run -v --instance "${base}s/i1#it" --notifications -n 0 --step --metrics 0 < "$work/steps" > /dev/null \
  2> "$work/notified.log" &
agent_pid=$!
exec {steps}> "$work/steps"
await grep -q 'metrics at http' "$work/notified.log"
metrics_url=$(sed -n 's/^start: .*; metrics at \(http[^ ]*\)$/\1/p' "$work/notified.log")
received() { curl -s "$metrics_url" | sed -n 's/^ldgsm_agent_notifications_received_total \([0-9]*\)$/\1/p'; }
# step_until COMMAND...: steps, a pause of 0.1 s after each, until the command succeeds (at most $wait_limit s)
step_until() { local _; for _ in $(seq 1 $((wait_limit * 10))); do echo >&"$steps"; nap 0.1; "$@" && return 0; done; return 1; }
resting() { [ "$(grep '^iteration:' "$work/notified.log" | tail -n 1 | grep -c ' unsafe 0: .*, 3 channels live$')" = 1 ]; }
check "the instance rests with its three documents' channels live" step_until resting
before=$(received)
check "the sensor is created with a value its milestone does not take" \
  test "$(put env/a '<#it> <https://example.org/env#value> false .')" = 201
more() { [ "$(received)" -gt "$before" ]; }
check "the creation's notification is counted" step_until more
echo >&"$steps"
check "... once: $before before, $(received) after" [ "$(received)" = $((before + 1)) ]
check "... and the agent wrote nothing since (no other notification)" resting
request GET "${base}metrics"
check "the server's metrics hold the agent's three WebSocket channels" \
  grep -qx 'ldgsm_server_notification_channels{type="WebSocketChannel2023"} 3' <<< "$http_body"
exec {steps}>&-
await_pid "$agent_pid"; agent_pid=
stop_pid "$server_pid"; server_pid=
printf 'sesame\n' > "$work/token"
start_server --token-file "$work/token" --log-format json
request GET "${base}metrics"
check "with --token-file, /metrics without the token is refused (401)" [ "$http_code" = 401 ]
request GET "${base}metrics" "" 'Authorization: Bearer sesame'
check "... and answered with it" [ "$http_code" = 200 ]
check "serve --log-format json: start and request lines are JSON objects" \
  python3 -c 'import json, sys; lines = [json.loads(l) for l in open(sys.argv[1])]; events = {l["event"] for l in lines}
assert {"start", "request"} <= events, events
assert any(l["event"] == "request" and l["path"] == "/metrics" and l["status"] == 401 for l in lines)' "$work/serve.log"
finish
