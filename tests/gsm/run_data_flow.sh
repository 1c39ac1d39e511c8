#!/usr/bin/env bash
# Data flow (DESIGN section 8): seed 000's Eval_ρ(Ē) and ρ[X̄ ↦ t̄] as the agent runs them, one section per
# rule, named after it. One model (tests/gsm/models/dataflow.ttl) runs many instances, each naming its own
# order (../orders/NAME, read through the link); every task calls tests/gsm/data_service.py, which honours
# Idempotency-Key and records every request byte for byte. Stepped agents (`ldgsm run --step`), GSM-1,
# GSM-2 and the rule table checked on every instance after every step.
#   Operation Call's Eval_ρ(Ē)          two instances send their own URI, header and body; no solution:
#                                       the stage waits, naming the query; two: the instance is held;
#                                       the data fixed by a PUT, both open
#   Operation Call, adversarial values  quotes, '>', '}', newlines, non-ASCII, template syntax, 1 MiB, an
#                                       IRI in a URI template: well-formed requests carrying exactly them
#   Response (Timeout, retry)           the data changes while the first send hangs: every re-send is the
#                                       recorded bytes under the first send's key
#   the key hashes the request          a re-opening with other data: another request, another key; every
#                                       key is SHA-1(stage, activation, alternative, request hash)
#   Rebind's Eval_ρ(Ē_2)                alternative 1 refused (404), alternative 2 sent with its own
#                                       request, evaluated at the rebind from the data as it is then
#   Response (Success)'s ρ[X̄ ↦ t̄]       Location, status, a header and a SELECT over the answer's RDF
#                                       written as the instance's properties in the write that marks the
#                                       call answered; a later task's arguments and sentries use them
#   isolation                           A's answer (a price of 500) takes no other instance over 100
#   Response (Success) after kill -9    the agent killed between the answer and its write: the re-send of
#                                       the restarted agent gets the stored answer, executed once
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/property/step.sh"
service=$gsm_dir/data_service.py
export LDGSM=$ldgsm
service_pid=
stop_service() { [ -n "$service_pid" ] && stop_pid "$service_pid"; service_pid=; }
trap 'stop_service; stop_pid "$flow_pid"; gsm_cleanup' EXIT

# data_flow_check.py runs once, as `serve` on the fifos $work/flow.in and flow.out (fds 8 and 9): a Python
# start takes up to a second on a loaded machine, and the checks ask it hundreds of questions. Its
# answers are read whole and never from a pipeline that may stop reading early (grep -q, head) or from
# a process substitution (which would run beside the next question).
mkfifo "$work/flow.in" "$work/flow.out"
python3 "$gsm_dir/data_flow_check.py" serve < "$work/flow.in" > "$work/flow.out" 5>&- 6<&- 7>&- &
flow_pid=$!
exec 8> "$work/flow.in" 9< "$work/flow.out"
flow() { # data_flow_check.py ARG...: prints its output, returns its exit status
  local IFS=$'\t' line
  printf '%s\n' "$*" >&8
  while IFS= read -r line <&9; do
    [[ $line == $'\x1e'* ]] && return "${line#$'\x1e'}"
    printf '%s\n' "$line"
  done
  echo "data_flow_check.py serve ended"
  return 2
}

configure() { printf '%s' "$1" > "$work/service.json"; } # JSON: path prefix -> answer (data_service.py)
start_data_service() {
  : > "$work/service.out"; : > "$work/service.log"
  python3 "$service" serve 0 "$work/service.json" "$work/service.log" > "$work/service.out" 5>&- 6<&- 7>&- 8>&- 9<&- &
  service_pid=$!
  for _ in $(seq 1 200); do
    port=$(head -n 1 "$work/service.out" 2>/dev/null)
    [ -n "$port" ] && return 0
    nap 0.05
  done
  echo "the data service did not start"; exit 1
}
svc() { flow show "$1" "$work/service.log" "${@:2}"; } # data_service.py show WHAT ARG...
# requests PREFIX [OUTCOME]: how many requests to paths starting with PREFIX the service received
# (answered with OUTCOME: executed, replayed, conflict, mismatch)
requests() {
  local all; all=$(svc requests "$1")
  if [ -n "${2:-}" ]; then grep -c " $2 " <<< "$all"; else grep -c . <<< "$all"; fi
}
nth() { local all; all=$(svc requests "$1"); sed -n "${2}p" <<< "$all" | cut -d' ' -f1; } # PREFIX K: the K-th's number
path_of() { local all; all=$(svc requests "$1"); cut -d' ' -f3 <<< "$all"; } # PREFIX: their paths, in order
req_path() { svc field "$1" path; }
req_key() { svc field "$1" key; }
req_header() { svc header "$1" "$2"; }
req_body() { svc field "$1" body; }

stage() { echo "${base}models/dataflow#$1"; }
iri() { echo "${base}status/$1#it"; }
# rec NAME STAGE FIELD: ldgsm:FIELD of the call record of instance NAME's stage STAGE
rec() { flow record "${base}status/$1" "$(stage "$2")" "$3"; }
# prop NAME LOCAL: instance NAME's values of shop:LOCAL, as N-Triples terms
prop() { flow prop "${base}status/$1" "$(iri "$1")" "https://example.org/shop#$2"; }
key_hashes_request() { flow key "${base}status/$1" "$(stage "$2")"; }
XSD=http://www.w3.org/2001/XMLSchema

# order NAME TURTLE: the order document ../orders/NAME (<#it> and what TURTLE says of it)
order() { put "orders/$1" "@prefix shop: <https://example.org/shop#> .
<#it> a shop:Order ; $2 ." > /dev/null; }
# instance NAME ORDER: a fresh instance document of the model naming that order
instance_of() { put "status/$1" "@prefix gsm: <http://purl.org/gsm/vocab#> .
@prefix shop: <https://example.org/shop#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/dataflow#root> ; gsm:hasState gsm:uninitialized ;
    shop:order <../orders/$2#it> ." > /dev/null; }

# section NAME...: the stepped agent now runs these instances (the previous one is stopped), and every
# step checks each of them (step.sh's track, with a state file per instance)
tracked=()
section() {
  if [ -n "$agent_pid" ]; then
    agent_stop; local rc=$?
    check "the agent of ${tracked[*]} stops at the end of its input with status 0 ($rc)" [ $rc = 0 ]
  fi
  tracked=("$@")
  instance=$(iri "$1")
  local more=() n
  for n in "${@:2}"; do more+=(--instance "$(iri "$n")"); done
  agent_start "${more[@]}" --timeout 20000 --read-wait 0
}
track() {
  local n rc
  steps=$((steps + 1))
  for n in "${tracked[@]}"; do
    status_call track "$work/track-$n.json" "$(iri "$n")" > "$work/track.out"; rc=$?
    sed "s/^/$n /" "$work/track.out" >> "$work/track.log"
    if [ $rc != 0 ]; then
      violations=$((violations + 1))
      echo "after step $steps, instance $n:"; grep -v '^step ' "$work/track.out"
    fi
  done
}
state() { status_call show "$work/track-$1.json" "${@:2}"; } # NAME STAGE...: e.g. "Send=active"
shows() { [ "$(state "$1" "${2%%=*}")" = "$2" ]; } # NAME WHAT: e.g. shows r mRetry=T
# step_until MAX COMMAND...: steps until the command succeeds (at most MAX steps); fails otherwise
step_until() {
  local max=$1 _; shift
  for _ in $(seq 1 "$max"); do
    "$@" > /dev/null 2>&1 && return 0
    step
  done
  "$@" > /dev/null 2>&1
}
# step_slowly_until MAX COMMAND...: the same, with a pause of 0.25 s between steps (deadlines pass)
step_slowly_until() {
  local max=$1 _; shift
  for _ in $(seq 1 "$max"); do
    "$@" > /dev/null 2>&1 && return 0
    step; nap 0.25
  done
  "$@" > /dev/null 2>&1
}
at_least() { [ "$(requests "$1")" -ge "$2" ]; } # PREFIX N
answered() { [ "$(rec "$1" "$2" callState)" = "https://w3id.org/ldgsm#answered" ]; } # NAME STAGE
# body_is N EXPECTED-TRIPLES-JSON: request N's body read as Turtle (base: its URI) is exactly those triples
body_is() {
  flow request-body "$work/service.log" "$1" "$work/body.ttl"
  printf '%s' "$2" > "$work/expected.json"
  flow body "$work/body.ttl" "http://127.0.0.1:$port$(req_path "$1")" "$work/expected.json"
}
SHOP=https://example.org/shop#
part() { echo "# $1 (at ${SECONDS} s)"; }
start_server
# the services' answers (the retry's first send changes its order, below)
configure "{\"/quote/A\": {\"status\": 201, \"location\": \"/tickets/t-A\", \"headers\": {\"X-Ticket\": \"42\"},
             \"body\": \"</tickets/t-A> <https://example.org/shop#price> 500 .\"},
            \"/quote/B\": {\"status\": 201, \"location\": \"/tickets/t-B\", \"headers\": {\"X-Ticket\": \"43\"},
             \"body\": \"</tickets/t-B> <https://example.org/shop#price> 50 .\"},
            \"/quote/K\": {\"status\": 201, \"location\": \"/tickets/t-K\", \"headers\": {\"X-Ticket\": \"77\"},
             \"body\": \"</tickets/t-K> <https://example.org/shop#price> 70 .\"},
            \"/retry/\": {\"hang_first\": 1.5, \"put_first\": [\"${base}orders/or\",
              \"@prefix shop: <https://example.org/shop#> . <#it> shop:id \\\"r2\\\" ; shop:name \\\"second\\\" .\"]},
            \"/rebind-a/\": {\"status\": 404}}"
start_data_service
[ "$(put models/dataflow "$(sed "s/SVC_PORT/$port/g" "$gsm_dir/models/dataflow.ttl")")" = 201 ] || { echo "cannot PUT the model"; exit 1; }
setenv gSend false gAdv false gRetry false gRebind false gQuote false again false over false

part "Operation Call's Eval_ρ(Ē): each instance sends its own request"
order o1 'shop:id "1" ; shop:name "Alice"'
order o2 'shop:id "2" ; shop:name "Bob"'
order o3 'shop:id "3"'                        # no shop:name: the arguments have no solution
order o4 'shop:id "4a", "4b" ; shop:name "Dan"' # two ids: two solutions
for i in 1 2 3 4; do instance_of "c$i" "o$i"; done
section c1 c2 c3 c4
step
setenv gSend true
step_until 6 at_least /send/ 2
check "two requests were sent" [ "$(requests /send/)" = 2 ]
r1=$(nth /send/1 1); r2=$(nth /send/2 1)
check "c1's URI is its template filled with its order's id" [ "$(req_path "$r1")" = /send/1 ]
check "c2's with its own" [ "$(req_path "$r2")" = /send/2 ]
check "c1's header carries its name" [ "$(req_header "$r1" X-Name)" = Alice ]
check "c2's its own" [ "$(req_header "$r2" X-Name)" = Bob ]
check "c1's body names its order and its name, and nothing else" body_is "$r1" \
  "{\"triples\": [[\"http://127.0.0.1:$port/send/1\", \"${SHOP}forOrder\", {\"iri\": \"${base}orders/o1#it\"}],
                 [\"http://127.0.0.1:$port/send/1\", \"${SHOP}name\", {\"lit\": \"Alice\"}]]}"
check "c2's body its own" body_is "$r2" \
  "{\"triples\": [[\"http://127.0.0.1:$port/send/2\", \"${SHOP}forOrder\", {\"iri\": \"${base}orders/o2#it\"}],
                 [\"http://127.0.0.1:$port/send/2\", \"${SHOP}name\", {\"lit\": \"Bob\"}]]}"
check "under two keys" [ "$(req_key "$r1")" != "$(req_key "$r2")" ]
check "c1's record holds the request it sent: its URI" [ "$(rec c1 Send sentURI)" = "http://127.0.0.1:$port/send/1" ]
check "its body" [ "$(rec c1 Send sentBody)" = "$(req_body "$r1")" ]
check "its headers" grep -qx 'X-Name: Alice' <<< "$(rec c1 Send sentHeaders)"
check "its key" [ "$(rec c1 Send idempotencyKey)" = "$(req_key "$r1")" ]
send_query='`SELECT ?order ?id ?name WHERE`'
no_solution="stage <$(stage Send)> does not open: the arguments $send_query of <$(stage send)> have no solution"
check "c3 (no solution) does not open" [ "$(state c3 Send)" = Send=inactive ]
check "and sent nothing" [ "$(requests /send/3)" = 0 ]
check "the log says c3 waits, naming the query" grep -qF "waiting: <$(iri c3)>: $no_solution" "$work/agent.log"
"$ldgsm" status "$(iri c3)" > "$work/status-c3.txt" 2>&1
check "ldgsm status shows c3, waiting (exit 6)" [ $? = 6 ]
check "ldgsm status says so" grep -qF "$no_solution" "$work/status-c3.txt"
two="stage <$(stage Send)> cannot open: the arguments $send_query of <$(stage send)> have 2 solutions; exactly one is needed"
check "c4 (two solutions) does not open" [ "$(state c4 Send)" = Send=inactive ]
check "and sent nothing" [ "$(requests /send/4)" = 0 ]
check "the log says c4 is held, naming the query" grep -qF "held: <$(iri c4)>: $two" "$work/agent.log"
"$ldgsm" status "$(iri c4)" > "$work/status-c4.txt" 2>&1
check "ldgsm status shows c4, held (exit 6)" [ $? = 6 ]
check "ldgsm status says so" grep -qF "$two" "$work/status-c4.txt"
order o3 'shop:id "3" ; shop:name "Carol"'
order o4 'shop:id "4b" ; shop:name "Dan"'
step_until 6 at_least /send/ 4
check "once its data is fixed (a PUT), c3 opens and sends its own request" \
  [ "$(path_of /send/3)" = /send/3 ]
check "with its name" [ "$(req_header "$(nth /send/3 1)" X-Name)" = Carol ]
check "c4 too, with its one id" [ "$(path_of /send/4)" = /send/4b ]
check "c1 and c2 sent nothing more" [ "$(requests /send/1)$(requests /send/2)" = 11 ]

part "Operation Call: adversarial values arrive exactly, in well-formed requests"
setenv gSend false
flow hostile "$work/hostile.ttl" "$work/hostile.json"
[ "$(put orders/oadv "$(cat "$work/hostile.ttl")")" = 201 ] || echo "cannot PUT the hostile order"
instance_of adv oadv
# adv2's label would end its header and add another (header injection): its request cannot be sent
order oadv2 'shop:ref <https://example.org/x> ; shop:label "ok\r\nX-Injected: 1" ; shop:text "t" ; shop:big "b"'
instance_of adv2 oadv2
section adv adv2
step
setenv gAdv true
step_until 6 at_least /adv/ 1
check "one request was sent" [ "$(requests /adv/)" = 1 ]
check "none carried an injected header" ! grep -qF '["X-Injected",' "$work/service.log"
check "adv2, whose label holds CR LF, is held, naming its header" \
  grep -qF "held: <$(iri adv2)>: stage <$(stage Adv)> cannot open: <$(stage adv)>: header X-Label: " "$work/agent.log"
check "and does not open" [ "$(state adv2 Adv)" = Adv=inactive ]
ra=$(nth /adv/ 1)
mkdir -p "$work/adv"
flow hostile-expect "$work/hostile.json" "http://127.0.0.1:$port" "${base}orders/oadv#it" "$work/adv"
check "its URI holds the IRI and the label percent-encoded ($(cat "$work/adv/path"))" [ "$(req_path "$ra")" = "$(cat "$work/adv/path")" ]
check "its header holds the label exactly" [ "$(req_header "$ra" X-Label)" = "$(cat "$work/adv/label")" ]
check "its body (over 1 MiB) parses as Turtle to exactly the template's five triples, values exact" \
  body_is "$ra" "$(cat "$work/adv/expected.json")"
check "the service executed it" [ "$(requests /adv/ executed)" = 1 ]
step_until 4 answered adv Adv
check "and the call is answered" answered adv Adv
check "the record keeps the body it sent" [ "$(flow sha1 record "${base}status/adv" "$(stage Adv)" sentBody)" = "$(flow sha1 show field "$work/service.log" "$ra" body)" ]

part "Response (Timeout, retry): the same arguments, whatever the data became"
setenv gAdv false
order or 'shop:id "r" ; shop:name "first"'
instance_of r or
section r
step
# The first send hangs past T_E (0.8 s) at the service, which meanwhile changes the order (put_first, a
# PUT): before the deadline, ρ becomes such that the arguments, evaluated now, would give /retry/r2 and
# "second".
setenv gRetry true
step_until 6 at_least /retry/ 1 # the step that sends
check "the order changed while the first send hung" grep -qF '"second"' <<< "$(get orders/or)"
step_slowly_until 30 answered r Retry
check "the call is answered" answered r Retry
check "after at least one re-send" [ "$(requests /retry/)" -ge 2 ]
first=$(nth /retry/ 1)
check "the first send carried the data of its activation" [ "$(req_path "$first")" = /retry/r ]
same=0
resends=$(svc requests /retry/ | cut -d' ' -f1 | tail -n +2)
for n in $resends; do
  svc same "$first" "$n" > "$work/same.out" || { same=1; sed 's/^/  /' "$work/same.out"; }
done
check "every re-send is the first send's bytes (URI, headers, body) under its key" [ $same = 0 ]
check "the record's key" [ "$(req_key "$first")" = "$(rec r Retry idempotencyKey)" ]
check "the service executed the request once" [ "$(requests /retry/ executed)" = 1 ]
check "and never saw the key with another request" [ "$(requests /retry/ mismatch)" = 0 ]
check "nothing was sent with the new data" [ "$(requests /retry/r2)" = 0 ]

part "the key hashes the request"
# A key names one request to a service that honours Idempotency-Key: it executes the first request it
# sees under a key and answers every later one with that stored answer (422 when the body differs). The
# stage fragment, the activation's time (a millisecond of the agent's clock) and the alternative tell
# activations apart only while no two of one stage share that millisecond: a clock stepped back (NTP),
# agents with skewed clocks taking turns on one instance, or a status document restored from a copy can
# give a stage a second activation at the same time, and ρ may have changed by then. Without the hash
# that activation's request, with its own arguments, would go out under the first one's key: the service
# would answer it with the first request's stored answer without executing it (and its results would be
# bound from another request's answer), or refuse it with 422 until the call is exhausted. With it, two
# requests that differ never share a key. So besides checking that the second activation's key differs,
# every key is recomputed from its record (data_flow_check.py key): SHA-1 over the stage instance, the
# activation, the alternative and the SHA-1 of the bytes recorded as sent (method, URI, headers, body);
# a key that leaves the request out fails it though it still differs between activations.
check "the first activation's key hashes its request" key_hashes_request r Retry
key1=$(rec r Retry idempotencyKey)
step_until 4 shows r mRetry=T
setenv again true
step_until 4 shows r mRetry=f   # FCR-3: the milestone is invalidated
setenv again false
step_until 4 at_least /retry/r2 1                  # FCR-1: the stage re-opens on the new data
check "the stage re-opened (two activations)" [ "$(status_call activations "$work/track-r.json" Retry)" = 2 ]
check "the second activation sent its own request" [ "$(path_of /retry/ | tail -n 1)" = /retry/r2 ]
check "with the new name" [ "$(req_header "$(nth /retry/r2 1)" X-Name)" = second ]
check "under another key" [ "$(req_key "$(nth /retry/r2 1)")" != "$key1" ]
check "which hashes its request" key_hashes_request r Retry
check "and is the record's" [ "$(rec r Retry idempotencyKey)" = "$(req_key "$(nth /retry/r2 1)")" ]

part "Rebind's Eval_ρ(Ē_2): the next alternative sent with its own request, evaluated then"
setenv gRetry false
order orb 'shop:id "rb" ; shop:name "before"'
instance_of rb orb
section rb
step
setenv gRebind true
step_until 6 at_least /rebind-a/ 1
check "alternative 1 was sent with its arguments" [ "$(path_of /rebind-a/)" = /rebind-a/rb ]
key_a=$(rec rb Rebind idempotencyKey)
order orb 'shop:id "rb" ; shop:name "after"' # changed after alternative 1 was sent
step_until 6 at_least /rebind-b/ 1
check "alternative 1 was refused (404) once, not retried" [ "$(requests /rebind-a/)" = 1 ]
rb=$(nth /rebind-b/ 1)
check "alternative 2 was sent with its own method and URI template, filled at the rebind" \
  [ "$(svc field "$rb" method) $(req_path "$rb")" = "PUT /rebind-b/after" ]
check "its own header" [ "$(req_header "$rb" X-Name)" = after ]
check "its own body" body_is "$rb" \
  "{\"triples\": [[\"http://127.0.0.1:$port/rebind-b/after\", \"${SHOP}forOrder\", {\"iri\": \"${base}orders/orb#it\"}],
                 [\"http://127.0.0.1:$port/rebind-b/after\", \"${SHOP}name\", {\"lit\": \"after\"}]]}"
check "the record says alternative 2 was sent" [ "$(rec rb Rebind sentAlternative)" = 2 ]
check "with that URI" [ "$(rec rb Rebind sentURI)" = "http://127.0.0.1:$port/rebind-b/after" ]
check "under a fresh key" [ "$(req_key "$rb")" != "$key_a" ]
check "which hashes its request" key_hashes_request rb Rebind
step_until 4 answered rb Rebind
check "alternative 2 answered the call" answered rb Rebind

part "Response (Success)'s ρ[X̄ ↦ t̄]: results are the instance's properties, in the write that answers"
setenv gRebind false
order oqa 'shop:id "A"'
order oqb 'shop:id "B"'
instance_of qa oqa
instance_of qb oqb
section qa qb
step
setenv gQuote true
for _ in $(seq 1 8); do
  before_state=$(rec qa Quote callState); before_ticket=$(prop qa ticket); before_writes=$(written /status/qa)
  step
  answered qa Quote && break
done
writes=$(($(written /status/qa) - before_writes))
check "before the write that answers the call, it was calling" [ "$before_state" = https://w3id.org/ldgsm#calling ]
check "and the instance had no results" [ -z "$before_ticket" ]
check "one write of qa's status document ($writes) marked the call answered" [ "$writes" = 1 ]
check "the call is answered" answered qa Quote
check "Location is bound (shop:ticketAt)" [ "$(prop qa ticketAt)" = "<http://127.0.0.1:$port/tickets/t-A>" ]
check "the status (shop:quoteStatus)" [ "$(prop qa quoteStatus)" = "\"201\"^^<$XSD#integer>" ]
check "the header X-Ticket (shop:ticket)" [ "$(prop qa ticket)" = '"42"' ]
check "a SELECT over the answer's RDF (shop:quotedPrice)" [ "$(prop qa quotedPrice)" = "\"500\"^^<$XSD#integer>" ]
check "the answer's RDF is kept in the record as text" grep -qF "<${SHOP}price> \"500\"" <<< "$(rec qa Quote answerData)"
check "not as triples of the status document" \
  [ -z "$(flow prop "${base}status/qa" "http://127.0.0.1:$port/tickets/t-A" "${SHOP}price")" ]
step_until 8 at_least /use/ 2
check "a later sentry and task's arguments use them: qa's Use sends its ticket, Location, status, price" \
  [ "$(path_of /use/42)" = /use/42 ]
check "in its body" body_is "$(nth /use/42 1)" \
  "{\"triples\": [[\"http://127.0.0.1:$port/use/42\", \"${SHOP}ticketAt\", {\"iri\": \"http://127.0.0.1:$port/tickets/t-A\"}],
                 [\"http://127.0.0.1:$port/use/42\", \"${SHOP}quoteStatus\", {\"lit\": \"201\", \"datatype\": \"$XSD#integer\"}],
                 [\"http://127.0.0.1:$port/use/42\", \"${SHOP}price\", {\"lit\": \"500\", \"datatype\": \"$XSD#integer\"}]]}"
check "qb's Use sends its own" [ "$(path_of /use/43)" = /use/43 ]
check "qb's price is its own answer's (50)" [ "$(prop qb quotedPrice)" = "\"50\"^^<$XSD#integer>" ]
step_until 6 at_least /big/ 1
check "qa's own price over 100 opens Big (a sentry on a result)" [ "$(path_of /big/)" = /big/A ]

part "isolation: one instance's answer decides nothing for another"
# qa's answer says </tickets/t-A> shop:price 500 (a subject of the service's own, which the agent keeps).
# Any's guard, `?q shop:price ?p FILTER(?p > 100)`, is not scoped to the instance: before dc53021 the
# answer's triples went into qa's status document, where qb's sentries matched them, and qb took the
# branch for a price it was never quoted. Now the answer is text in qa's call record (ldgsm:answerData):
# qb, quoted 50, must not open Any.
step 3
check "qb (price 50) does not open Big" [ "$(requests /big/B)" = 0 ]
check "qb does not take the 'any price over 100' branch because of qa's answer (500)" [ "$(requests /any/B)" = 0 ]
check "qb's Any stage never opened" [ "$(status_call activations "$work/track-qb.json" Any)" = 0 ]
# The same for qa's results: they are triples of qa's status document, `<qa#it> shop:quotedPrice 500`, and
# AnyResult's guard `?i shop:quotedPrice ?p FILTER(?p > 100)` is not scoped either. DESIGN section 8:
# "Decisions of one instance never depend on which other instances share its agent": qb run alone opens
# no AnyResult, so beside qa it must not either: qb's sentries see only what was read for qb (agent/views.h).
check "qb does not take the branch because of qa's result (shop:quotedPrice 500 in qa's status document)" \
  [ "$(requests /any-result/B)" = 0 ]

part "Response (Success) after kill -9 between the answer and its write"
order ok 'shop:id "K"'
instance_of k ok
section k
step
step_until 6 at_least /quote/K 1 # gQuote is true: the step that sends /quote/K and receives its answer
kill -KILL "$agent_pid"; exec 7>&-; await_pid "$agent_pid"; agent_pid=
check "the service executed the request" [ "$(requests /quote/K executed)" = 1 ]
check "the answer was not written: the call is calling" [ "$(rec k Quote callState)" = https://w3id.org/ldgsm#calling ]
check "no result is bound" [ -z "$(prop k ticket)" ]
section k
step_slowly_until 30 answered k Quote
check "the restarted agent's re-send answers the call" answered k Quote
check "the service executed the request once" [ "$(requests /quote/K executed)" = 1 ]
check "and replayed its stored answer" [ "$(requests /quote/K replayed)" -ge 1 ]
check "to the same request under the same key" svc same "$(nth /quote/K 1)" "$(nth /quote/K 2)"
check "the results are written: Location" [ "$(prop k ticketAt)" = "<http://127.0.0.1:$port/tickets/t-K>" ]
check "status" [ "$(prop k quoteStatus)" = "\"201\"^^<$XSD#integer>" ]
check "header" [ "$(prop k ticket)" = '"77"' ]
check "SELECT" [ "$(prop k quotedPrice)" = "\"70\"^^<$XSD#integer>" ]
agent_stop; rc=$?
check "the restarted agent stops at the end of its input with status 0 ($rc)" [ $rc = 0 ]
check "no agent, status or server reported a sanitizer error" \
  ! grep -qE 'Sanitizer|runtime error' "$work/agent.log" "$work/serve.log" "$work"/status-*.txt
gsm_finish
