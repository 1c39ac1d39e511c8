#!/usr/bin/env bash
# The agent's own writes end what a channel vouches for (src/agent/notifications.c, notifications_wrote;
# docs/DESIGN.md §1.5), with a state machine run by `ldgsm run --machine --notifications -n 600000
# --safety-poll 600000` (whatever it does within ten minutes, its sockets brought): the DELETE of the member it
# took changes its inbox, whose notification of that (a Remove activity) the relay in front of the server
# loses (tests/gsm/lossy_notifications.py --drop-type Remove). The inbox's channel must not vouch for the
# listing read before the DELETE: the agent reads it again, takes the second member posted beside the first,
# and deletes each once. (A channel that vouched would show the deleted member still listed: read again, 404,
# DELETEd again, and the second member left until the safety poll.)
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/../gsm/relay_lib.sh"
cp -r "$(dirname "$0")/../../ldp-fixtures/state-machine" "$work/fixture"
start_server --fixtures "$work/fixture"
start_relay --drop-type Remove
"$ldgsm" run -v --machine "${pbase}documents/doc1#it" --notifications -n 600000 --safety-poll 600000 \
  > /dev/null 2> "$work/run.log" &
agent_pids+=($!)
logged() { grep -qE "$2" "$1"; } # FILE REGEX
check "the agent rests, its instance, schema, roles and inbox watched" \
  await logged "$work/run.log" '^iteration: .* unsafe 0: .*, 4 channels live'
for event in "0001 submit alice" "0002 reject bob"; do
  set -- $event
  request POST "${base}inbox/doc1/" "@prefix wsm: <https://w3id.org/ldgsm/wsm#> .
<> wsm:event <${base}schemas/publishing#$2> ; wsm:actor <${base}roles#$3> ." 'Content-Type: text/turtle' "Slug: $1"
  check "member $1 is posted" test "$http_code" = 201
done
taken_both() { grep -q 'wsm#taken> "2"' <<< "$(get documents/doc1)" && [ "$(members inbox/doc1/)" = 0 ]; }
check "both members are taken, and the inbox is empty" await taken_both
check "the instance went to review and back" grep -q 'wsm#currentState> <[^>]*#authoring>' <<< "$(get documents/doc1)"
check "each member was deleted once" test "$(grep -cE "^DELETE ${pbase}inbox/doc1/000[12] 204 " "$work/run.log")" = 2
check "and never again" ! grep -qE "^DELETE .* 404 " "$work/run.log"
check "the inbox's Remove activities were lost" logged "$work/relay.log" "^DROP	${pbase}inbox/doc1/	"
finish
