#!/usr/bin/env bash
# An agent killed between an activation and its task: the status says the task is pending, no agent saw it
# answered. The next agent reports "task outcome unknown" and, the task being a PUT (idempotent), sends it
# again; its 2xx then marks the task sent. A pending POST task would only be reported.
set -u
. "$(dirname "$0")/../agent/lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/fire-alarm" && pwd)
start_server --fixtures "$fixtures"
agent_once() { "$ldgsm" run --instance "${base}status/alarm1#it" -n 0 --iterations 1 "$@" > /dev/null 2>> "$work/agent.log"; }
# (a later --iterations overrides the first)

agent_once   # set-up
# What the killed agent managed: SFA's activation (state and pending task) written, the task never sent.
curl -s -D "$work/h" -H 'Accept: application/n-triples' "${base}status/alarm1" > "$work/status.nt"
etag=$(grep -i '^etag:' "$work/h" | cut -d' ' -f2 | tr -d '\r')
sfa=$(grep "isInstanceOf> <${base}models/fire-alarm#SFA>" "$work/status.nt" | cut -d' ' -f1)
sed -i "s|^$sfa <http://purl.org/gsm/vocab#hasState> <http://purl.org/gsm/vocab#inactive> \.|$sfa <http://purl.org/gsm/vocab#hasState> <http://purl.org/gsm/vocab#active> .|" "$work/status.nt"
echo "$sfa <https://w3id.org/ldgsm#taskState> <https://w3id.org/ldgsm#pending> ." >> "$work/status.nt"
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H "If-Match: $etag" -H 'Content-Type: application/n-triples' \
  --data-binary @"$work/status.nt" "${base}status/alarm1")
check "the half-done activation is in place" [ "$code" = 204 ]

: > "$work/serve.log"
# The restarted agent runs on (three iterations of one process): the task's outcome is its own from then on.
agent_once --iterations 3
check "the restarted agent reports the task's outcome as unknown" grep -q "task outcome unknown" "$work/agent.log"
check "and sends the PUT task again, once" [ "$(grep -c '^PUT /devices/alarm 20' "$work/serve.log")" = 1 ]
check "the alarm was told to ring" grep -q 'ringing> "true"' <(get devices/alarm)
check "the task is then marked sent" grep -q "$sfa <https://w3id.org/ldgsm#taskState> <https://w3id.org/ldgsm#sent>" <(get status/alarm1)
finish
