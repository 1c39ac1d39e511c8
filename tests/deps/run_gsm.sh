#!/usr/bin/env bash
# Intertask dependencies driving GSM stages, end to end (issue 16, DESIGN.md 6.4): tests/deps/gsm/travel.deps
# ("if both book and buy happen, book precedes buy", "cancel excludes ship", "ship only once paid", "once
# shipped, notify", notify triggerable: only the agent opens it) is
# compiled into tests/deps/gsm/travel.ttl by `ldgsm deps --gsm`, which `ldgsm lint` must accept; the model
# is published once per round (its sentries reading that round's environment), and two free-running agents
# run every round's instance against a server that refuses unconditional status writes, while
# tests/deps/gsm_run.py changes the environments at random and then checks every instance: each event at most
# once, in the order the status history gives, and every dependency holding on the finished trace.
# DEPS_GSM_ROUNDS (default 8) and DEPS_GSM_SEED (default random, printed) set the campaign.
# tests/gsm/css_gsm.sh runs it against Community Solid Server too.
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/../agent/agents.sh"
deps_dir=$(cd "$(dirname "$0")" && pwd)
rounds=${DEPS_GSM_ROUNDS:-8}
seed=${DEPS_GSM_SEED:-$RANDOM}
trap 'stop_agents; cleanup; [ -z "${KEEP:-}" ] || echo "kept $work"' EXIT
echo "$(basename "$0"): seed $seed, $rounds rounds"
start_server --require-conditional=/status/

"$ldgsm" deps --gsm "$deps_dir/gsm/travel.ttl" --base "${base}models/trip" "$deps_dir/gsm/travel.deps" \
  -o "$work/trip.ttl" > "$work/summary.txt" 2> "$work/compile.err"
rc=$?
check "ldgsm deps --gsm compiles the model (exit $rc: $(cat "$work/compile.err"))" [ "$rc" = 0 -a -s "$work/trip.ttl" ]
check "ldgsm lint accepts the compiled model" "$ldgsm" lint "$work/trip.ttl"
check "the summary says ship waits for paid and for neither cancel nor ship" \
  grep -qF 'ship (stage <'"${base}"'models/trip#ship>) happens when: !cancel & !ship & []paid' "$work/summary.txt"
check "the summary says buy waits for book (Example 4: the later of an order waits)" \
  grep -qF 'buy (stage <'"${base}"'models/trip#buy>) happens when: []book & !buy' "$work/summary.txt"
check "the summary says notify is triggered after ship" grep -qF 'notify is triggered when: []ship & !notify' "$work/summary.txt"
check "the summary says the instance completes once notify follows ship" \
  grep -qF 'the instance completes when: (!ship | []notify)' "$work/summary.txt"

# refused with a message naming the cause, nothing written
refused() { # description expected-message deps-text [model-sed]
  printf '%s\n' "$3" > "$work/bad.deps"
  sed -e "${4:-}" "$deps_dir/gsm/travel.ttl" > "$work/bad.ttl"
  rm -f "$work/bad-out.ttl"
  "$ldgsm" deps --gsm "$work/bad.ttl" "$work/bad.deps" -o "$work/bad-out.ttl" > /dev/null 2> "$work/bad.err"
  local rc=$?
  check "$1: exit 1 ($rc)" [ $rc = 1 ]
  check "$1: says '$2' ($(cat "$work/bad.err"))" grep -qF "$2" "$work/bad.err"
  check "$1: writes nothing" [ ! -e "$work/bad-out.ttl" ]
}
refused "an unknown event" "bad.deps:2: event nowhere names no stage or milestone" $'# x\nD: ~nowhere | ~book'
refused "the root as an event" "is the root stage" 'D: ~trip | ~book'
refused "a SPIN guard condition" "event book: <file://$work/bad.ttl#book-asked> is a sentry in SPIN RDF" 'D: ~book | ~buy' \
  's|^<#book-asked> a sp:Ask ; sp:text .*|<#book-asked> a sp:Ask ; sp:where ( [ sp:subject <#a> ; sp:predicate <#b> ; sp:object true ] ) .|'
refused "an immediate event" "book is immediate" $'D: ~book | ~buy\nimmediate book'
refused "a set no run keeps" "bad.deps:1: D: no run of the instance satisfies it" 'D: book . buy'
refused "a dependency over no event that never holds" "bad.deps:2: Z: no run of the instance satisfies it" $'D: ~book | ~buy\nZ: 0'
refused "an attribute of no dependency's event" "bok has an attribute but no dependency mentions it" $'D: ~book | ~buy\ntriggerable bok'

# publish ROUND: the compiled model reading /env/tripROUND, and the instance /status/tripROUND
publish() {
  case $(put "models/trip$1" "$(sed "s|env/trip#|env/trip$1#|g" "$work/trip.ttl")") in
    2??) ;; *) echo "cannot PUT the model"; exit 1 ;;
  esac
  put "status/trip$1" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/trip$1#trip> ; gsm:hasState gsm:uninitialized ." > /dev/null
}

# A stepped agent on one instance: `step` runs one iteration (bounded wait for its log line).
stepped_start() { # instance URI
  rm -f "$work/step.fifo"; mkfifo "$work/step.fifo"
  : > "$work/step.log"
  "$ldgsm" run -v --instance "$1" --step -n 0 < "$work/step.fifo" > /dev/null 2> "$work/step.log" &
  stepped_pid=$!
  exec 7> "$work/step.fifo"
  follow_log "$work/step.log"
  iterations=0
}
step() {
  iterations=$((iterations + 1))
  echo >&7
  next_iteration "$stepped_pid" && return 0
  echo "the stepped agent did not finish iteration $iterations"; exit 1
}
stepped_stop() { exec 7>&-; await_pid "$stepped_pid"; }
recorded() { # the events status/DOC records, sorted
  get "status/$1" | grep -F '<https://w3id.org/ldgsm#occurred>' | sed 's|.*#\([a-z]*\)> \.$|\1|' | sort | tr '\n' ' '
}
completed() { get "status/$1" | grep -qF "<${base}status/$1#it> <https://w3id.org/ldgsm#isCompleted> \"true\""; }

# Stepped. Example 4 on book_first: buy, asked for first, waits for book, and opens once book has (the
# first-come reading opened buy at once and refused book for good). Then the trip ends in the very step
# after ship: the instance must wait for the agent to open notify (a trigger), and only then complete.
publish 0
env0() { put env/trip0 "@prefix env: <https://example.org/env#> .
<#it> env:wantBuy true ; env:wantBook $1 ; env:buyDone $2 ; env:wantShip $3 ; env:finish $4 ." > /dev/null; }
stepped_start "${base}status/trip0#it"
env0 false false false false; step; step; step   # set-up; buy is asked for, and waits
check "stepped: buy, asked for before book, waits ($(recorded trip0))" [ "$(recorded trip0)" = "" ]
env0 true false false false; step          # book opens
check "stepped: book opens ($(recorded trip0))" [ "$(recorded trip0)" = "book " ]
step                                       # and then buy
check "stepped: buy follows book ($(recorded trip0))" [ "$(recorded trip0)" = "book buy " ]
env0 true true false false; step; step     # paid
env0 true true true false; step            # ship opens
check "stepped: ship has happened, after buy and paid ($(recorded trip0))" [ "$(recorded trip0)" = "book buy paid ship " ]
env0 true true true true; step             # the trip may end: but notify must come first
check "stepped: the agent opened notify, and the trip waits ($(recorded trip0))" [ "$(recorded trip0)" = "book buy notify paid ship " ]
check "stepped: not completed before notify" ! completed trip0
step
check "stepped: then the trip completes" completed trip0
stepped_stop

# A milestone event and a stage event due in one step: the stage (named first) wins, the achievement
# yields with its stage's close, and the dependency then keeps the milestone from being achieved.
"$ldgsm" deps --gsm "$deps_dir/gsm/race.ttl" --base "${base}models/race" "$deps_dir/gsm/race.deps" \
  -o "$work/race.ttl" > /dev/null 2> "$work/race.err"
rc=$?
check "race.ttl compiles (exit $rc: $(cat "$work/race.err"))" [ "$rc" = 0 -a -s "$work/race.ttl" ]
put models/race "$(cat "$work/race.ttl")" > /dev/null
put status/race "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/race#race> ; gsm:hasState gsm:uninitialized ." > /dev/null
race_env() { put env/race "@prefix env: <https://example.org/env#> .
<#it> env:wantS true ; env:wantX $1 ; env:mDone $1 ; env:finish $2 ." > /dev/null; }
race_env false false
stepped_start "${base}status/race#it"
step; step                               # set-up; s opens
race_env true false; step                # x opens; m's achievement yields
check "race: x happened, m did not ($(recorded race))" [ "$(recorded race)" = "x " ]
check "race: m is not achieved" ! achieved status/race "${base}models/race#m"
step; step
check "race: nor later (the dependency excludes it)" ! achieved status/race "${base}models/race#m"
stepped_stop

instances=()
for k in $(seq 1 "$rounds"); do
  publish "$k"
  instances+=(--instance "${base}status/trip$k#it")
done
for agent in A B; do
  spawn_agent $agent "${instances[@]}" -n 20 --iterations 1000000
done
python3 "$deps_dir/gsm_run.py" "$base" "$rounds" "$seed" "$deps_dir/gsm/travel.deps" book buy cancel ship paid notify > "$work/verdict.txt" 2>&1
rc=$?
cat "$work/verdict.txt"
check "every instance completes, each event once, every dependency holds, buy asked before book follows it (seed $seed)" [ $rc = 0 ]
check "the agent triggered notify where ship happened" grep -Eq '^events seen .*notify [1-9]' "$work/verdict.txt"
stop_agent A
stop_agent B
echo "$(basename "$0"): openings or achievements that yielded: $(cat "$work"/agent-[AB].log | grep -c 'yielded: a higher-priority')"
if [ -f "$work/serve.log" ]; then # ldgsm serve's request log (Community Solid Server writes none)
  writes=$(grep -Ec '^(PUT|PATCH) /status/trip[0-9]+ 204 ' "$work/serve.log")
  lost=$(grep -Ec '^(PUT|PATCH) /status/trip[0-9]+ 412 ' "$work/serve.log")
  echo "$(basename "$0"): status writes: $writes applied, $lost lost a race (412)"
  check "no unconditional status write was made (no 428)" ! grep -Eq '^(PUT|PATCH) /status/trip[0-9]+ 428 ' "$work/serve.log"
fi
finish
