#!/usr/bin/env bash
# A storage that is one pod of a server of many (issue 35): Community Solid Server describes each pod at
# POD/.well-known/solid, which every answer names in its Link rel=solid#storageDescription, and has no
# description at the origin's /.well-known/solid. The relay (tests/gsm/lossy_notifications.py --storage-path
# /pod/) shows `ldgsm serve` so, its 404s naming no storage (as CSS's do not). `ldgsm run --notifications
# -n 600000 --safety-poll 600000` must find the subscription service in the description the documents link
# to, not at the origin, and place the absent sensor document in that storage by the root the description
# names (pim:Storage): its three channels open, it rests, and the sensor's creation is acted on at once (a
# document without a channel would wait for the ten minutes).
# tests/auth/css_auth.sh runs the same against a real pod of Community Solid Server.
set -u
# The agent runs at -v: the checks read its request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
. "$(dirname "$0")/relay_lib.sh"
start_server
start_relay --storage-path /pod/
one_stage_model models/m "$started_guard" "$(sensed a)"
put s/i1 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
"$ldgsm" run -v --instance "${pbase}s/i1#it" --notifications -n 600000 --safety-poll 600000 > /dev/null 2> "$work/run.log" &
agent_pids+=($!)
logged() { grep -qE "$2" "$1"; } # FILE REGEX
check "the relay shows no description at the origin" \
  test "$(curl -s -o /dev/null -w '%{http_code}' "${pbase}.well-known/solid")" = 404
check "the agent finds the service in the description the documents link to" \
  await logged "$work/run.log" "^notifications: the storage described at ${pbase}pod/\.well-known/solid offers WebSocketChannel2023 at "
check "... and never asks the origin's" ! grep -qF "described at ${pbase}.well-known/solid" "$work/run.log"
check "the sensor document is absent" grep -qE "^GET ${pbase}env/a 404 " "$work/run.log"
check "its three documents, the absent one too, get a channel each, and it rests" \
  await logged "$work/run.log" '^iteration: .* unsafe 0: .*, 3 channels live'
from=$(($(wc -l < "$work/run.log") + 1))
put env/a '<#it> <https://example.org/env#value> true .' > /dev/null
check "the sensor's creation is notified through the pod's channel and acted on: the instance completes" \
  await_completed 1
check "... after the changed sensor was read" grep -qE "^GET ${pbase}env/a 200 " <(tail -n +"$from" "$work/run.log")
finish
