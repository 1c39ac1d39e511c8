#!/usr/bin/env bash
# A channel vouches only for reads made after its socket opened (src/agent/notifications.c, docs/DESIGN.md
# §1.5), played as a race made deterministic: an instance waits for a sensor document that is absent when the
# agent reads it (404), and that is created after the agent subscribed to it but before the channel's socket
# opened, so that the server tells no one of the creation. The relay in front of the server
# (tests/gsm/lossy_notifications.py --hold-open) holds that socket until the test has created the document;
# the agent (`--notifications -n 600000 --safety-poll 600000`: whatever it does within ten minutes, its
# sockets brought) must then read the document again once the socket opens, and complete the instance. A
# channel that vouched for the absent read would leave it waiting for the safety poll.
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
. "$(dirname "$0")/relay_lib.sh"
start_server
gate=$work/open-sensor
start_relay --hold-open env/a "$gate"
one_stage_model models/m "$started_guard" "$(sensed a)"
put s/i1 '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
"$ldgsm" run -v --instance "${pbase}s/i1#it" --notifications -n 600000 --safety-poll 600000 > /dev/null 2> "$work/run.log" &
agent_pids+=($!)
logged() { grep -qE "$2" "$1"; } # FILE REGEX
check "the agent reads the sensor document, absent" await logged "$work/run.log" "^GET ${pbase}env/a 404 "
check "its channel's socket is held by the relay" await logged "$work/relay.log" "^HOLD	${pbase}env/a$"
# the instance's other two documents' channels open, and the agent finds nothing more to do: from now on it
# waits for its sockets alone
check "the agent rests with the two other channels live" \
  await logged "$work/run.log" '^iteration: .* unsafe 0: .*, 2 channels live'
check "the sensor is created while the socket is held" test "$(put env/a '<#it> <https://example.org/env#value> true .')" = 201
check "the agent, resting, does not read the sensor while its socket is held" ! grep -q "^GET ${pbase}env/a 200 " "$work/run.log"
reads=$(grep -c "^GET ${pbase}env/a " "$work/run.log")
: > "$gate"
check "the socket opens" await logged "$work/relay.log" "^OPEN	${pbase}env/a$"
check "the agent reads the sensor again once it opened, and acts on it: the instance completes" await_completed 1
check "the creation was told on no socket: it was not relayed" ! grep -q "^FORWARD	${pbase}env/a	" "$work/relay.log"
check "the read after the socket opened found it" \
  test "$(grep "^GET ${pbase}env/a " "$work/run.log" | tail -n +$((reads + 1)) | head -1 | cut -d' ' -f3)" = 200
finish
