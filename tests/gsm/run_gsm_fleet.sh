#!/usr/bin/env bash
# A fleet with overlapping shards (issue 17): $FLEET_INSTANCES (default 100; the plain build only,
# tests/sanitizer.cmake says why) instances of tests/gsm/models/chaos.ttl, each stage's task a call to
# tests/gsm/call_service.py (which logs every execution by Idempotency-Key), run by four free-running
# agents, each given every instance, on shards
# 1/2, 2/2, 1/3 and 3/3: every instance is run by one or two agents at once. Against a server that refuses
# unconditional status writes. While they run, GSM-1 and GSM-2 are checked on every snapshot of every
# status (tests/gsm/chaos_check.py watch); at the end every instance is complete and each activation's
# request was executed exactly once (chaos_check.py verify, as the call fault campaign checks it), and
# the server, at its default limits, refused none of the fleet's connections.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
. "$(dirname "$0")/call_lib.sh"
. "$(dirname "$0")/../agent/agents.sh"
count=${FLEET_INSTANCES:-100}
trap stop_all EXIT
configure '{}'
start_service
# Four agents start many calls at once: a listen queue shorter than that drops their connections, which
# then time out (0.3 s) before their requests are sent (tests/gsm/idempotency.py, Server).
queue=$(ss -Hltn "sport = :$service_port" | awk '{print $3}')
check "the call service's listen queue takes the fleet's calls at once (${queue:-none})" [ "${queue:-0}" -ge 128 ]
start_server --require-conditional=/status/
instances=()
args=()
for i in $(seq 1 "$count"); do
  put_model chaos "s#SVC#127.0.0.1:$service_port#g; s#PFX#fleet-$i#g" "chaos-fleet-$i"
  instances+=("$instance")
  args+=(--instance "$instance")
done
dir=$work/watch
start_watcher "$dir" "${instances[@]}"
for shard in 1/2 2/2 1/3 3/3; do
  spawn_agent "${shard/\//-of-}" "${args[@]}" --shard "$shard" -n 50 --timeout 2000
done
for _ in $(seq 1 $((wait_limit * 40))); do [ -e "$dir/finished" ] && break; nap 0.1; done
check "every instance completes" [ -e "$dir/finished" ]
for shard in 1/2 2/2 1/3 3/3; do stop_agent "${shard/\//-of-}"; done
stop_watcher "$dir"; watch_rc=$?
# four agents on one host are one client to the server: together they stay within its default
# per-client connection limit (libmicrohttpd closes a connection beyond it, failing that write)
resets=$(grep -c 'connection limit' "$work/serve.log")
check "the server refused no connection of the fleet for its per-client limit ($resets refused)" [ "$resets" = 0 ]
check "the watcher ran to the end (exit $watch_rc: $(tail -n 3 "$dir/errors" | tr '\n' ' '))" [ $watch_rc = 0 ]
check "GSM-1 and GSM-2 hold on every snapshot ($(cat "$dir/snapshots" 2>/dev/null) checked)" [ ! -s "$dir/violations" ]
sed 's/^/  VIOLATION: /' "$dir/violations"
python3 "$chaos_check" verify "$work/service.log" "${instances[@]}" > "$work/verify.out" 2>&1
check "each activation's request executed exactly once (by Idempotency-Key)" [ $? = 0 ]
tail -n 3 "$work/verify.out" | sed 's/^/  /'
finish
